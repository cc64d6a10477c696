import { describe, expect, it } from 'vitest';
import * as libm from '../../src/core/math/libm.ts';

// The port must return, bit for bit, what Node 20's Math.* returns (V8's fdlibm, nodejs/node deps/v8/src/base/ieee754.cc):
// those are the bits the goldens were reproduced with, and the port makes every other engine compute them too.

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);

/** Park–Miller generator: the same inputs on every run. */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 16807) % 2147483647) / 2147483647;
}
const fromWords = (hi: number, lo: number): number => {
  U32[1] = hi >>> 0;
  U32[0] = lo >>> 0;
  return F64[0];
};
/** x moved by k ulps (k small; finite nonzero x). */
const nudge = (x: number, k: number): number => {
  F64[0] = x;
  const lo = U32[0] + k;
  U32[1] += Math.floor(lo / 0x100000000);
  U32[0] = lo >>> 0;
  return F64[0];
};

const SPECIAL = [
  0,
  -0,
  Infinity,
  -Infinity,
  NaN,
  1,
  -1,
  0.5,
  -0.5,
  2,
  -2,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  2.2250738585072014e-308,
  2.225073858507201e-308,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.EPSILON,
  1 + Number.EPSILON,
  1 - Number.EPSILON / 2,
  -1 - Number.EPSILON,
  -1 + Number.EPSILON / 2,
  Math.PI,
  Math.PI / 2,
  Math.PI / 4,
  (3 * Math.PI) / 4,
  1e22,
  2 ** 19 * Math.PI,
  2 ** 20 * Math.PI,
  1e300,
  709.782712893384,
  -745.1332191019411,
  710,
  -746,
  1e-300,
  2 ** -28,
  2 ** -27,
  2 ** -54,
  2 ** 1023,
];

/** ~100,000 arguments a function: special values and their neighbours, then ranges from subnormal to huge. */
function arguments1(seed: number): number[] {
  const r = rng(seed);
  const out: number[] = [];
  for (const x of SPECIAL) for (let k = -3; k <= 3; k++) out.push(Number.isFinite(x) && x !== 0 ? nudge(x, k) : x);
  const gens: (() => number)[] = [
    () => (r() - 0.5) * 10, // |x| < 5
    () => 2 * r() - 1, // [−1, 1]
    () => nudge(r() < 0.5 ? 1 : -1, -Math.floor(r() * 1e6)), // 1 − ε·k: acos/log near 1
    () => (r() - 0.5) * 2 ** Math.floor(r() * 2100 - 1075), // all exponents (subnormal … huge), both signs
    () => fromWords(Math.floor(r() * 0x100000000), Math.floor(r() * 0x100000000)), // any bit pattern
    () => nudge((Math.round((r() - 0.5) * 4e6) * Math.PI) / 2, Math.round((r() - 0.5) * 8)), // near k·π/2, medium and large k
    () => (r() - 0.5) * 1e6 * 2 ** Math.floor(r() * 40), // past the medium reduction, 2^19·π/2 … 2^60
    () => (r() - 0.5) * 1500, // exp's whole range and its over/underflow
  ];
  while (out.length < 100_000) for (const g of gens) out.push(g());
  return out;
}

type Unary = 'sin' | 'cos' | 'acos' | 'atan' | 'exp' | 'log' | 'log1p' | 'log2' | 'cbrt';

/** Count of arguments whose results differ in any bit (NaN equals NaN; ±0 differ). */
function mismatches(f: (...a: number[]) => number, g: (...a: number[]) => number, args: number[][]): { count: number; first?: number[] } {
  let count = 0;
  let first: number[] | undefined;
  for (const a of args) {
    const p = f(...a),
      q = g(...a);
    if (!(Object.is(p, q) || (Number.isNaN(p) && Number.isNaN(q)))) {
      count++;
      first ??= [...a, p, q];
    }
  }
  return { count, first };
}

describe('libm: fdlibm port equals Node 20 Math.* bit for bit', () => {
  const unary: Unary[] = ['sin', 'cos', 'acos', 'atan', 'exp', 'log', 'log1p', 'log2', 'cbrt'];
  unary.forEach((name, i) => {
    it(`${name} on 100,000 arguments`, () => {
      const args = arguments1(101 + i).map((x) => [x]);
      expect(args.length).toBeGreaterThanOrEqual(100_000);
      expect(mismatches(libm[name], Math[name], args)).toEqual({ count: 0, first: undefined });
    });
  });

  it('atan2 on 100,000 pairs (all quadrants, zeros, infinities, NaN)', () => {
    const xs = arguments1(201),
      ys = arguments1(202);
    const args = xs.map((x, i) => [ys[i], x]);
    for (const y of SPECIAL) for (const x of SPECIAL) args.push([y, x]);
    expect(mismatches(libm.atan2, Math.atan2, args)).toEqual({ count: 0, first: undefined });
  });

  it('pow on 100,000 pairs (negative bases, integer and fractional exponents, specials)', () => {
    const r = rng(303);
    const bases = arguments1(301);
    const args = bases.map((x, i) => {
      const kind = i % 4;
      const y =
        kind === 0
          ? Math.round((r() - 0.5) * 60) // integer exponents, odd and even, for negative bases too
          : kind === 1
            ? (r() - 0.5) * 20
            : kind === 2
              ? [1 / 3, 1 / 6, 2.5, 0.5, -0.5, 3, 2, 1, -1][Math.floor(r() * 9)]
              : (r() - 0.5) * 2 ** Math.floor(r() * 140 - 70);
      return [x, y];
    });
    for (const x of SPECIAL) for (const y of SPECIAL) args.push([x, y]);
    expect(args.length).toBeGreaterThanOrEqual(100_000);
    expect(mismatches(libm.pow, Math.pow, args)).toEqual({ count: 0, first: undefined });
  });

  it('keeps the results the matcher depends on (exp(1), acos(−1), cos near π/2, huge sin)', () => {
    expect(libm.exp(1)).toBe(Math.E);
    expect(libm.acos(-1)).toBe(Math.PI);
    expect(libm.cos(Math.PI / 2)).toBe(6.123233995736766e-17);
    expect(libm.sin(1e300)).toBe(Math.sin(1e300));
    expect(libm.cbrt(-27)).toBe(-3);
    expect(libm.pow(-8, 1 / 3)).toBeNaN();
    expect(libm.pow(1, Infinity)).toBeNaN();
    expect(libm.pow(NaN, 0)).toBe(1);
  });
});
