import { log, pow } from '../../math/libm.ts';
// CPython 3.11 `random` (MT19937), reproduced bit for bit so that the O-NNG obfuscation can be
// regenerated exactly (CPython Lib/random.py and Modules/_randommodule.c). Only the integer seeding path of `random.seed` is supported.

const N = 624;
const M = 397;
const MATRIX_A = 0x9908b0df;
const UPPER_MASK = 0x80000000;
const LOWER_MASK = 0x7fffffff;

export class PythonRandom {
  private readonly mt = new Uint32Array(N);
  private mti = N + 1;

  constructor(seed: number | bigint = 0) {
    this.seed(seed);
  }

  /** `random.seed(int)`: the absolute value's 32-bit words, least significant first, feed init_by_array. */
  seed(seed: number | bigint): void {
    if (typeof seed === 'number' && !Number.isInteger(seed)) throw new Error('PythonRandom.seed supports integers only');
    let value = BigInt(seed);
    if (value < 0n) value = -value;
    const key: number[] = [];
    while (value > 0n) {
      key.push(Number(value & 0xffffffffn));
      value >>= 32n;
    }
    if (key.length === 0) key.push(0);
    this.initByArray(key);
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.mti = N;
  }

  private initByArray(key: number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  /** One tempered 32-bit output (genrand_uint32). */
  nextUint32(): number {
    const mt = this.mt;
    if (this.mti >= N) {
      let kk = 0;
      for (; kk < N - M; kk++) {
        const y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + M] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      for (; kk < N - 1; kk++) {
        const y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      }
      const y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
      mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (y & 1 ? MATRIX_A : 0);
      this.mti = 0;
    }
    let y = mt[this.mti++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `random.random()`: 53 bits from two outputs (27 + 26 bits). */
  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** `random.getrandbits(k)` for k ≤ 32 as a number. */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0) throw new Error('number of bits must be a non-negative integer');
    if (k === 0) return 0;
    if (k > 32) throw new Error('getrandbits(k > 32): use getrandbitsBig');
    return this.nextUint32() >>> (32 - k);
  }

  /** `random.getrandbits(k)` for any k: 32-bit words, least significant first, the last one truncated. */
  getrandbitsBig(k: number): bigint {
    if (!Number.isInteger(k) || k < 0) throw new Error('number of bits must be a non-negative integer');
    let result = 0n;
    let shift = 0n;
    for (let left = k; left > 0; left -= 32) {
      let word = this.nextUint32();
      if (left < 32) word >>>= 32 - left;
      result |= BigInt(word) << shift;
      shift += 32n;
    }
    return result;
  }

  /** `_randbelow_with_getrandbits(n)`: rejection sampling on bit_length(n) bits. */
  randbelow(n: number): number {
    if (!Number.isSafeInteger(n) || n < 0) throw new Error('randbelow needs a non-negative safe integer');
    if (n === 0) return 0;
    const bits = bitLength(n);
    if (bits <= 32) {
      let r = this.getrandbits(bits);
      while (r >= n) r = this.getrandbits(bits);
      return r;
    }
    const big = BigInt(n);
    let r = this.getrandbitsBig(bits);
    while (r >= big) r = this.getrandbitsBig(bits);
    return Number(r);
  }

  /** `random.randrange(start, stop)` with step 1. */
  randrange(start: number, stop?: number): number {
    if (stop === undefined) {
      stop = start;
      start = 0;
    }
    const width = stop - start;
    if (width <= 0) throw new Error(`empty range in randrange(${start}, ${stop})`);
    return start + this.randbelow(width);
  }

  /** `random.randint(a, b)`, both ends included. */
  randint(a: number, b: number): number {
    return this.randrange(a, b + 1);
  }

  /** `random.choice(seq)`. */
  choice<T>(seq: ArrayLike<T>): T {
    if (seq.length === 0) throw new Error('Cannot choose from an empty sequence');
    return seq[this.randbelow(seq.length)];
  }

  /** `random.sample(population, k)` with both of CPython's algorithms (pool for small n, set otherwise). */
  sample<T>(population: ArrayLike<T>, k: number): T[] {
    const n = population.length;
    if (!Number.isInteger(k) || k < 0 || k > n) throw new Error('Sample larger than population or is negative');
    const result: T[] = new Array(k);
    let setsize = 21;
    if (k > 5) setsize += pow(4, ceilLog4(k * 3));
    if (n <= setsize) {
      const pool = Array.from(population);
      for (let i = 0; i < k; i++) {
        const j = this.randbelow(n - i);
        result[i] = pool[j];
        pool[j] = pool[n - i - 1];
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randbelow(n);
        while (selected.has(j)) j = this.randbelow(n);
        selected.add(j);
        result[i] = population[j];
      }
    }
    return result;
  }

  /** `random.shuffle(x)` in place. */
  shuffle<T>(x: T[]): void {
    for (let i = x.length - 1; i > 0; i--) {
      const j = this.randbelow(i + 1);
      const t = x[i];
      x[i] = x[j];
      x[j] = t;
    }
  }
}

function bitLength(n: number): number {
  if (n < 2 ** 32) return 32 - Math.clz32(n);
  let bits = 32;
  for (let rest = Math.floor(n / 2 ** 32); rest > 0; rest = Math.floor(rest / 2)) bits++;
  return bits;
}

/** ceil(log(x, 4)) as CPython computes it (math.log(x, 4) in floating point, then ceil). */
function ceilLog4(x: number): number {
  return Math.ceil(log(x) / log(4));
}
