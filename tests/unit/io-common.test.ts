/** Shared reader/writer helpers in src/core/io/common.ts. */
import { describe, expect, it } from 'vitest';
import { DECIMAL_NUMBER, orderedSymbol, shortestNumber } from '../../src/core/io/common.ts';

describe('io common helpers', () => {
  it('shortestNumber reads back as the same double, writes -0 as 0 and refuses non-finite values', () => {
    for (const x of [0.1, 1 / 3, -2.5e-17, 123456789.123, Number.MAX_VALUE]) expect(Number(shortestNumber(x, 'CIF'))).toBe(x);
    expect(shortestNumber(-0, 'CIF')).toBe('0');
    expect(() => shortestNumber(Infinity, 'POSCAR')).toThrow('POSCAR cannot hold the non-finite number Infinity.');
    expect(() => shortestNumber(NaN, 'XYZ')).toThrow(/XYZ cannot hold/);
  });
  it('DECIMAL_NUMBER accepts E and Fortran D exponents only', () => {
    expect(['1', '-1.', '.5', '+2.5e-3', '1D+02'].every((t) => DECIMAL_NUMBER.test(t))).toBe(true);
    expect(['', '.', 'e5', '1e', 'nan', '1*^3', '0x10'].some((t) => DECIMAL_NUMBER.test(t))).toBe(false);
  });
  it('orderedSymbol names the format and the 1-based site of a mixed site', () => {
    expect(orderedSymbol({ species: { Fe: 1 }, xyz: [0, 0, 0] }, 0, 'XYZ')).toBe('Fe');
    expect(() => orderedSymbol({ species: { Fe: 0.5, Ni: 0.5 }, xyz: [0, 0, 0] }, 2, 'POSCAR')).toThrow(
      'POSCAR cannot hold partial occupancy (site 3 has Fe:0.5, Ni:0.5); write CIF or JSON instead.',
    );
  });
});
