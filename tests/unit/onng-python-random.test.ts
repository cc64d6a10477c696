import { describe, expect, it } from 'vitest';
import { PythonRandom } from '../../src/core/tasks/onng/python-random.ts';

// Every expected value below was produced by CPython 3.11.7 (`python3 -c "import random; ..."`),
// the interpreter O-NNG's generator ran on; the port must match exactly (integers) or to the last bit (floats).
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('PythonRandom (CPython 3.11 random)', () => {
  it('random() after seed(12345) and seed(0)', () => {
    const r = new PythonRandom(12345);
    expect([r.random(), r.random(), r.random()]).toEqual([0.41661987254534116, 0.010169169457068361, 0.8252065092537432]);
    expect(new PythonRandom(0).random()).toBe(0.8444218515250481);
  });

  it('seeds from a multi-word integer and draws getrandbits(32) and getrandbits(70)', () => {
    const r = new PythonRandom(2n ** 70n + 99n);
    expect([r.getrandbits(32), r.getrandbits(32), r.getrandbits(32)]).toEqual([3485760370, 1586271443, 712902928]);
    expect(r.getrandbitsBig(70)).toBe(183608908770125752863n);
  });

  it('randint, choice and randrange after seed(7)', () => {
    const r = new PythonRandom(7);
    expect(range(8).map(() => r.randint(0, 10))).toEqual([5, 2, 6, 10, 0, 1, 8, 1]);
    expect(r.choice('abcdefg')).toBe('c');
    expect(r.randrange(1000000007)).toBe(625763863);
  });

  it('sample uses the pool method for small populations and the set method for large ones (seed 1)', () => {
    const r = new PythonRandom(1);
    expect(r.sample(range(10), 4)).toEqual([2, 1, 4, 0]);
    expect(r.sample(range(200), 7)).toEqual([126, 194, 115, 120, 166, 97, 53]);
    expect(r.sample(range(30), 10)).toEqual([3, 15, 0, 26, 12, 13, 19, 27, 14, 8]);
  });

  it('shuffle after seed(3)', () => {
    const r = new PythonRandom(3);
    const x = range(12);
    r.shuffle(x);
    expect(x).toEqual([1, 7, 10, 0, 6, 11, 4, 5, 2, 8, 9, 3]);
  });
});
