/** POSCAR/CONTCAR reader and writer on hand-made files; expected values worked out by hand. */
import { describe, expect, it } from 'vitest';
import { parsePoscar, poscarFormat, writePoscar } from '../../src/core/io/poscar.ts';
import { ParseError } from '../../src/core/io/types.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import { errorOf, expectVec } from '../expect.ts';

const TOL = 1e-12;

const parseError = (text: string) => errorOf(() => parsePoscar(text), ParseError);

const symbols = (s: Structure) => s.sites.map((x) => Object.keys(x.species)[0]);

const NACL = `NaCl rock salt
5.64
0 0.5 0.5
0.5 0 0.5
0.5 0.5 0
Na Cl
1 1
Direct
0 0 0
0.5 0.5 0.5
`;

describe('POSCAR reader', () => {
  it('reads a VASP 5 file with one scale factor', () => {
    const { structures, warnings } = parsePoscar(NACL);
    expect(warnings).toEqual([]);
    const s = structures[0];
    expect(s.name).toBe('NaCl rock salt');
    expect(s.properties?.comment).toBe('NaCl rock salt');
    expectVec(s.lattice!.matrix.flat(), [0, 2.82, 2.82, 2.82, 0, 2.82, 2.82, 2.82, 0], TOL);
    expect(symbols(s)).toEqual(['Na', 'Cl']);
    expectVec(s.sites[1].frac!, [0.5, 0.5, 0.5], TOL);
    expectVec(s.sites[1].xyz, [2.82, 2.82, 2.82], TOL);
  });

  it('scales Cartesian positions with the scale factor', () => {
    const text = 'c\n2.0\n1 0 0\n0 1 0\n0 0 1\nFe\n1\ncartesian\n0.25 0.5 0.75\n';
    const s = parsePoscar(text).structures[0];
    expectVec(s.sites[0].xyz, [0.5, 1, 1.5], TOL);
    expectVec(s.sites[0].frac!, [0.25, 0.5, 0.75], TOL);
  });

  it('reads a negative scale factor as the cell volume', () => {
    // Unit cube scaled to volume 8 → edge 2; Cartesian (0.5,0.5,0.5) → (1,1,1).
    const text = 'v\n-8\n1 0 0\n0 1 0\n0 0 1\nCu\n1\nCartesian\n0.5 0.5 0.5\n';
    const s = parsePoscar(text).structures[0];
    expect(s.lattice!.volume).toBeCloseTo(8, 12);
    expectVec(s.sites[0].xyz, [1, 1, 1], TOL);
  });

  it('reads three scale factors as per-Cartesian-axis factors', () => {
    const text = 't\n2 3 4\n1 0 0\n1 1 0\n0 0 1\nCu\n1\nDirect\n0.5 0.5 0.5\n';
    const s = parsePoscar(text).structures[0];
    expectVec(s.lattice!.matrix.flat(), [2, 0, 0, 2, 3, 0, 0, 0, 4], TOL);
    expectVec(s.sites[0].xyz, [2, 1.5, 2], TOL);
  });

  it('keeps selective dynamics flags per site', () => {
    const text = 'sd\n1\n3 0 0\n0 3 0\n0 0 3\nSi O\n1 1\nSelective dynamics\nDirect\n0 0 0 T T F\n0.5 0.5 0.5 F F F\n';
    const s = parsePoscar(text).structures[0];
    expect(s.sites.map((x) => x.properties?.selective_dynamics)).toEqual([
      [true, true, false],
      [false, false, false],
    ]);
  });

  it('reads POTCAR-style species names (Fe/hash, Fe_pv) and upper-case names', () => {
    const text = 'p\n1\n3 0 0\n0 3 0\n0 0 3\nFe/abc123 O_s MN\n1 1 1\nD\n0 0 0\n0.5 0 0\n0 0.5 0\n';
    expect(symbols(parsePoscar(text).structures[0])).toEqual(['Fe', 'O', 'Mn']);
  });

  it('VASP 4: species from trailing labels, as pymatgen does', () => {
    const text = 'Test1\n1.0\n3.84 0 0\n1.92 3.33 0\n0 -2.2 3.1\n1 1\ndirect\n0 0 0 Si\n0.75 0.5 0.75 F\n';
    const { structures, warnings } = parsePoscar(text);
    expect(symbols(structures[0])).toEqual(['Si', 'F']);
    expect(warnings).toEqual([]);
  });

  it('VASP 4: species from the comment line when it lists element symbols (ASE convention)', () => {
    const text = 'Fe O\n1.0\n3 0 0\n0 3 0\n0 0 3\n2 1\nDirect\n0 0 0\n0.5 0.5 0.5\n0.25 0.25 0.25\n';
    const { structures, warnings } = parsePoscar(text);
    expect(symbols(structures[0])).toEqual(['Fe', 'Fe', 'O']);
    expect(warnings.length).toBe(1);
  });

  it('VASP 4: comment words are read like ASE does (digits stripped, formula-like words split)', () => {
    const text = 'Na2 Fe1 O4 relaxed\n1.0\n3 0 0\n0 3 0\n0 0 3\n1 1 1\nDirect\n0 0 0\n0.5 0.5 0.5\n0.25 0.25 0.25\n';
    expect(symbols(parsePoscar(text).structures[0])).toEqual(['Na', 'Fe', 'O']);
    const formula = 'LiCoO2 bulk\n1.0\n3 0 0\n0 3 0\n0 0 3\n1 1 1\nDirect\n0 0 0\n0.5 0.5 0.5\n0.25 0.25 0.25\n';
    expect(symbols(parsePoscar(formula).structures[0])).toEqual(['Li', 'Co', 'O']);
  });

  it('VASP 4 without any species information: placeholder names H, He, … with a warning', () => {
    const text = 'no species here\n1.0\n3 0 0\n0 3 0\n0 0 3\n2 1\nDirect\n0 0 0\n0.5 0.5 0.5\n0.25 0.25 0.25\n';
    const { structures, warnings } = parsePoscar(text);
    expect(symbols(structures[0])).toEqual(['H', 'H', 'He']);
    expect(warnings.some((w) => w.includes('placeholder'))).toBe(true);
  });

  it('ignores trailing labels in VASP 5 files and keeps the species line', () => {
    const text = 'x\n1\n3 0 0\n0 3 0\n0 0 3\nNa Cl\n1 1\nDirect\n0 0 0 Cl\n0.5 0.5 0.5 Na\n';
    expect(symbols(parsePoscar(text).structures[0])).toEqual(['Na', 'Cl']);
  });

  it('reads Fortran D exponents with a warning', () => {
    const text = 'd\n0.1D+01\n3 0 0\n0 3 0\n0 0 3\nNa\n1\nDirect\n0.5D+00 0.25d0 0\n';
    const { structures, warnings } = parsePoscar(text);
    expectVec(structures[0].sites[0].frac!, [0.5, 0.25, 0], TOL);
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toMatch(/D exponent/);
  });

  it('reads the velocity block of an MD CONTCAR and ignores predictor-corrector data', () => {
    const text = 'md\n1\n3 0 0\n0 3 0\n0 0 3\nAr\n2\nDirect\n0 0 0\n0.5 0.5 0.5\n\n 0.1E-01 0 -0.2E-01\n 0 0 0\n\n 1\n 2.0\n 0.3 0.3 0.3\n';
    const s = parsePoscar(text).structures[0];
    expectVec(s.sites[0].properties!.velocities as number[], [0.01, 0, -0.02], TOL);
    expectVec(s.sites[1].properties!.velocities as number[], [0, 0, 0], TOL);
  });

  it('handles CRLF line endings', () => {
    const s = parsePoscar(NACL.replace(/\n/g, '\r\n')).structures[0];
    expect(symbols(s)).toEqual(['Na', 'Cl']);
  });
});

describe('POSCAR reader errors carry the line', () => {
  it('empty file', () => expect(parseError('').line).toBe(1));
  it('non-numeric scale factor', () => {
    const e = parseError(NACL.replace('5.64', 'abc'));
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/"abc" is not a number/);
  });
  it('a lattice line with two numbers', () => expect(parseError(NACL.replace('0.5 0 0.5', '0.5 0')).line).toBe(4));
  it('counts that do not match the species line', () => {
    const e = parseError(NACL.replace('\n1 1\n', '\n1 1 1\n'));
    expect(e.line).toBe(7);
    expect(e.message).toMatch(/There are 3 atom counts but line 6 names 2 species/);
  });
  it('an unknown species', () => expect(parseError(NACL.replace('Na Cl', 'Na Qq')).line).toBe(6));
  it('a position with two coordinates', () => {
    const e = parseError(NACL.replace('0.5 0.5 0.5\n', '0.5 0.5\n'));
    expect(e.line).toBe(10);
    expect(e.message).toMatch(/3 numbers/);
  });
  it('a non-numeric coordinate', () => expect(parseError(NACL.replace('0.5 0.5 0.5\n', '0.5 x 0.5\n')).line).toBe(10));
  it('fewer positions than atoms', () => {
    const e = parseError(NACL.replace('\n1 1\n', '\n1 2\n'));
    expect(e.line).toBe(11);
    expect(e.message).toMatch(/Expected 3 atom positions/);
  });
  it('a file cut before the coordinate type', () => expect(parseError('c\n1\n1 0 0\n0 1 0\n0 0 1\nNa\n1\n').line).toBe(8));
  it('bad selective dynamics flags', () => {
    const text = 'sd\n1\n3 0 0\n0 3 0\n0 0 3\nSi\n1\nSelective dynamics\nDirect\n0 0 0 T X T\n';
    expect(parseError(text).line).toBe(10);
  });
  it('numbers that overflow a double (1e400) are rejected with their line', () => {
    const coordinate = parseError(NACL.replace('0.5 0.5 0.5\n', '0.5 1e400 0.5\n'));
    expect(coordinate.line).toBe(10);
    expect(coordinate.message).toBe('The value "1e400" is too large to represent (atom position).');
    expect(parseError(NACL.replace('5.64', '1e400')).line).toBe(2);
    expect(parseError(NACL.replace('0.5 0 0.5', '0.5 0 -1d400')).line).toBe(4);
    // Finite numbers whose product with the scale factor overflows.
    const scaled = parseError(NACL.replace('5.64', '1e300').replace('0.5 0 0.5', '0.5 0 1e300'));
    expect(scaled.line).toBe(3);
    expect(scaled.message).toMatch(/too large to represent/);
    const velocity = parseError(`${NACL}\n0.1 0.2 0.3\n0.1 1e400 0.3\n`);
    expect(velocity.line).toBe(13);
  });
  it('a singular lattice', () => expect(parseError(NACL.replace('0.5 0.5 0\n', '0.5 0.5 1\n')).message).toMatch(/linearly dependent/));
});

describe('POSCAR writer', () => {
  const lattice = new Lattice([
    [4.1, 0.2, -0.3],
    [0.7, 5.3, 0.1],
    [-1.1, 0.4, 6.2],
  ]);
  const site = (f: [number, number, number], el: string, extra = {}) => makeSiteFromFrac(lattice, f, { [el]: 1 }, extra);

  it('keeps the site order exactly by writing consecutive runs as separate groups', () => {
    const s: Structure = {
      name: 'runs',
      lattice,
      sites: [site([0, 0, 0], 'Na'), site([0.5, 0, 0], 'Na'), site([0.1, 0.2, 0.3], 'Cl'), site([-0.25, 0.9, 1.3], 'Na')],
    };
    const text = writePoscar(s);
    const lines = text.split('\n');
    expect(lines[5].trim().split(/\s+/)).toEqual(['Na', 'Cl', 'Na']);
    expect(lines[6].trim().split(/\s+/)).toEqual(['2', '1', '1']);
    expect(lines[7]).toBe('Direct');
    const back = parsePoscar(text).structures[0];
    expect(symbols(back)).toEqual(['Na', 'Na', 'Cl', 'Na']);
    // Shortest round-trip number text: exact identity, including negative and > 1 coordinates.
    back.sites.forEach((b, i) => expect(b.frac).toEqual(s.sites[i].frac));
    expect(back.lattice!.matrix).toEqual(lattice.matrix);
  });

  it('writes selective dynamics and velocities when present', () => {
    const s: Structure = {
      name: 'sd',
      lattice,
      sites: [
        site([0, 0, 0], 'Si', { properties: { selective_dynamics: [true, false, true], velocities: [0.1, 0, -0.2] } }),
        site([0.5, 0.5, 0.5], 'O', { properties: { selective_dynamics: [false, false, false], velocities: [0, 0, 0] } }),
      ],
    };
    const back = parsePoscar(writePoscar(s)).structures[0];
    expect(back.sites.map((x) => x.properties?.selective_dynamics)).toEqual([
      [true, false, true],
      [false, false, false],
    ]);
    expect(back.sites.map((x) => x.properties?.velocities)).toEqual([
      [0.1, 0, -0.2],
      [0, 0, 0],
    ]);
  });

  it('refuses partial occupancy and finite structures with a clear message', () => {
    const mixed: Structure = { name: 'm', lattice, sites: [makeSiteFromFrac(lattice, [0, 0, 0], { Fe: 0.5, Ni: 0.5 })] };
    expect(() => writePoscar(mixed)).toThrow(/partial occupancy \(site 1 has Fe:0.5, Ni:0.5\)/);
    expect(() => writePoscar({ name: 'f', lattice: null, sites: [] })).toThrow(/no lattice/);
  });

  it('is exposed through the format module', () => {
    expect(poscarFormat.id).toBe('poscar');
    expect(poscarFormat.sniff(NACL)).toBe(true);
    expect(poscarFormat.sniff('3\ncomment\nC 0 0 0\n')).toBe(false);
  });
});
