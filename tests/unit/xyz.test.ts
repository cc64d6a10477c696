/** Plain and extended XYZ readers/writers on hand-made files; expected values worked out by hand. */
import { describe, expect, it } from 'vitest';
import {
  extxyzFormat,
  parseExtxyz,
  parseXyz,
  parseXyzFrames,
  splitKeyValues,
  writeExtxyz,
  writeXyz,
  writeXyzFrames,
  xyzFormat,
} from '../../src/core/io/xyz.ts';
import { ParseError } from '../../src/core/io/types.ts';
import { DECIMAL_NUMBER } from '../../src/core/io/common.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromCart, type Structure } from '../../src/core/structure/structure.ts';
import { errorOf, expectVec } from '../expect.ts';

const TOL = 1e-12;
const symbols = (s: Structure) => s.sites.map((x) => Object.keys(x.species)[0]);

describe('plain XYZ reader', () => {
  const TWO_FRAMES = '3\nwater\nO 0 0 0.1173\nH 0 0.7572 -0.4692 extra 7\nh 0 -0.7572 -0.4692\n2\nsecond\nFE 1 2 3\n26 -1.5e-1 2D+00 0\n\n';

  it('reads several frames, case-normalised symbols, atomic numbers, extra columns ignored', () => {
    const { structures, warnings } = parseXyz(TWO_FRAMES);
    expect(structures.length).toBe(2);
    expect(structures[0].name).toBe('water');
    expect(symbols(structures[0])).toEqual(['O', 'H', 'H']);
    expect(symbols(structures[1])).toEqual(['Fe', 'Fe']);
    expectVec(structures[0].sites[1].xyz, [0, 0.7572, -0.4692], TOL);
    expectVec(structures[1].sites[1].xyz, [-0.15, 2, 0], TOL);
    expect(structures.every((s) => s.lattice === null && s.sites.every((x) => x.frac === undefined))).toBe(true);
    expect(warnings.length).toBe(1); // the D exponent
  });

  it('rejects coordinates that overflow a double (1e400, 1d400, 1*^400) with their line', () => {
    for (const big of ['1e400', '-1D400', '1*^400']) {
      const e = errorOf(() => parseXyz(`2\nc\nC 0 0 0\nC 1 ${big} 0\n`), ParseError);
      expect(e.line).toBe(4);
      expect(e.message).toBe(`The value "${big}" is too large to represent (coordinate).`);
    }
  });

  it('accepts an empty comment line and a zero-atom frame', () => {
    const { structures } = parseXyz('0\n\n1\n\nC 0 0 0\n');
    expect(structures.map((s) => s.sites.length)).toEqual([0, 1]);
  });

  it('reports the line of a bad count, a short frame and a bad coordinate', () => {
    expect(errorOf(() => parseXyz('three\nc\nC 0 0 0\n'), ParseError).line).toBe(1);
    const short = errorOf(() => parseXyz('3\nc\nC 0 0 0\nC 1 0 0\n'), ParseError);
    expect(short.message).toMatch(/declares 3 atoms but the file ends after 2/);
    expect(errorOf(() => parseXyz('2\nc\nC 0 0 0\nC 1 zero 0\n'), ParseError).line).toBe(4);
    expect(errorOf(() => parseXyz('1\nc\nC 0 0\n'), ParseError).line).toBe(3);
    expect(errorOf(() => parseXyz('1\nc\nQq 0 0 0\n'), ParseError).message).toMatch(/"Qq" is not an element symbol/);
    expect(errorOf(() => parseXyz(''), ParseError).message).toMatch(/empty/);
  });
});

describe('extended XYZ comment line', () => {
  it('splits quoted, unquoted, bracketed and bare entries', () => {
    const pairs = splitKeyValues('a=1 b = "x y" c=\'q\' d={1 2 3} e=[4,5] flag s="with \\"quote\\""', 2);
    expect(pairs).toEqual([
      { key: 'a', value: '1', quoted: false },
      { key: 'b', value: 'x y', quoted: true },
      { key: 'c', value: 'q', quoted: true },
      { key: 'd', value: '1 2 3', quoted: true },
      { key: 'e', value: '4,5', quoted: true },
      { key: 'flag', value: null, quoted: false },
      { key: 's', value: 'with "quote"', quoted: true },
    ]);
    expect(errorOf(() => splitKeyValues('a="open', 2), ParseError).line).toBe(2);
  });
});

describe('extended XYZ reader', () => {
  const EXT = [
    '2',
    'Lattice="4 0 0 1 5 0 0.5 0.5 6" Properties=species:S:1:pos:R:3:forces:R:3:tag:I:1:fixed:L:1:kind:S:1 ' +
      'energy=-12.5 step=3 converged=T name="my cell" stress="1 2 3 4 5 6" pbc="T T F" note=hello flag',
    'Si 1 2 3 0.1 0.2 0.3 7 T a',
    'O 0 0 0 0 0 -1e-3 -2 F b',
  ].join('\n');

  it('reads lattice, columns, pbc and info values', () => {
    const s = parseExtxyz(EXT).structures[0];
    expectVec(s.lattice!.matrix.flat(), [4, 0, 0, 1, 5, 0, 0.5, 0.5, 6], TOL);
    expect(symbols(s)).toEqual(['Si', 'O']);
    expectVec(s.sites[0].xyz, [1, 2, 3], TOL);
    // frac = xyz · inverse(lattice), solved by hand: z: 6c=3 → c=0.5; y: 5b+0.25=2 → b=0.35; x: 4a+0.35+0.25=1 → a=0.1
    expectVec(s.sites[0].frac!, [0.1, 0.35, 0.5], TOL);
    expect(s.sites[0].properties).toEqual({ forces: [0.1, 0.2, 0.3], tag: 7, fixed: true, kind: 'a' });
    expect(s.sites[1].properties).toEqual({ forces: [0, 0, -0.001], tag: -2, fixed: false, kind: 'b' });
    expect(s.properties).toEqual({
      energy: -12.5,
      step: 3,
      converged: true,
      name: 'my cell',
      stress: [1, 2, 3, 4, 5, 6],
      pbc: [true, true, false],
      note: 'hello',
      flag: true,
    });
    expect(s.name).toBe('my cell');
  });

  it('accepts commas inside Lattice= (as in ASE-written files) and defaults pbc to T T T with a lattice', () => {
    const s = parseExtxyz('1\nLattice="2, 0, 0 0, 2, 0 0, 0, 2" Properties=species:S:1:pos:R:3\nC 1 1 1\n').structures[0];
    expectVec(s.lattice!.matrix.flat(), [2, 0, 0, 0, 2, 0, 0, 0, 2], TOL);
    expect(s.properties?.pbc).toEqual([true, true, true]);
    expectVec(s.sites[0].frac!, [0.5, 0.5, 0.5], TOL);
  });

  it('reads frames without a lattice as finite structures and species from a Z column', () => {
    const s = parseExtxyz('1\nProperties=Z:I:1:pos:R:3\n8 0 0 1\n').structures[0];
    expect(s.lattice).toBeNull();
    expect(symbols(s)).toEqual(['O']);
    expect(s.properties?.pbc).toEqual([false, false, false]);
  });

  it('reports malformed headers and rows with their line', () => {
    expect(errorOf(() => parseExtxyz('1\nLattice="1 0 0 0 1 0 0 0" \nC 0 0 0\n'), ParseError).line).toBe(2);
    expect(errorOf(() => parseExtxyz('1\nLattice="1 0 0 0 1 0 0 0 0"\nC 0 0 0\n'), ParseError).message).toMatch(/do not span/);
    expect(errorOf(() => parseExtxyz('1\nProperties=species:S:1:pos:R\nC 0 0 0\n'), ParseError).line).toBe(2);
    expect(errorOf(() => parseExtxyz('1\nProperties=species:S:1:pos:R:3:q:R:1\nC 0 0 0\n'), ParseError).line).toBe(3);
    expect(errorOf(() => parseExtxyz('1\nProperties=species:S:1:pos:R:3:n:I:1\nC 0 0 0 1.5\n'), ParseError).message).toMatch(
      /not an integer/,
    );
    expect(errorOf(() => parseExtxyz('1\nProperties=species:S:1:x:R:3\nC 0 0 0\n'), ParseError).message).toMatch(/no pos:R:3/);
  });
});

describe('XYZ writers', () => {
  const lattice = new Lattice([
    [5, 0.1, 0],
    [-2.4, 4.3, 0.2],
    [0.3, -0.1, 7],
  ]);

  it('plain XYZ round trip of a finite structure is exact', () => {
    const s: Structure = {
      name: 'mol',
      lattice: null,
      sites: [makeSiteFromCart(null, [0.1, -2.5e-7, 1 / 3], { C: 1 }), makeSiteFromCart(null, [-1e5, 0, 2], { Og: 1 })],
    };
    const text = writeXyz(s);
    expect(text.split('\n')[1]).toBe('mol');
    const back = parseXyz(text).structures[0];
    expect(symbols(back)).toEqual(['C', 'Og']);
    back.sites.forEach((b, i) => expect(b.xyz).toEqual(s.sites[i].xyz));
  });

  it('writes a periodic structure given to the plain writer as extended XYZ, so the lattice survives', () => {
    const s: Structure = { name: 'p', lattice, sites: [makeSiteFromCart(lattice, [1, 2, 3], { Fe: 1 })] };
    const text = writeXyz(s);
    expect(text.split('\n')[1]).toMatch(/^Lattice="/);
    expect(xyzFormat.write(s)).toBe(text);
    const back = parseExtxyz(text).structures[0];
    expect(back.lattice!.matrix).toEqual(lattice.matrix);
  });

  it('extended XYZ keeps numeric/boolean/string per-site columns and info values', () => {
    const s: Structure = {
      name: 'cell',
      lattice,
      sites: [
        makeSiteFromCart(
          lattice,
          [1, 2, 3],
          { Fe: 1 },
          { properties: { forces: [0.5, -1, 2], charge: 1, selective_dynamics: [true, false, true], tag: 'x', nested: { a: 1 } } },
        ),
        makeSiteFromCart(
          lattice,
          [-0.5, 0, 9.75],
          { O: 1 },
          { properties: { forces: [0, 0, 0], charge: -0.25, selective_dynamics: [false, false, false], tag: 'y', nested: { a: 2 } } },
        ),
      ],
      properties: { energy: -3.25, comment: 'has "quotes" and spaces', converged: false, pbc: [true, true, false], deep: { x: 1 } },
    };
    const text = writeExtxyz(s);
    expect(text.split('\n')[1]).toContain('Properties=species:S:1:pos:R:3:forces:R:3:charge:R:1:selective_dynamics:L:3:tag:S:1');
    const back = parseExtxyz(text).structures[0];
    expect(back.lattice!.matrix).toEqual(lattice.matrix);
    back.sites.forEach((b, i) => {
      expect(b.xyz).toEqual(s.sites[i].xyz);
      const { nested: _dropped, ...kept } = s.sites[i].properties!;
      expect(b.properties).toEqual(kept);
    });
    expect(back.properties).toEqual({ energy: -3.25, comment: 'has "quotes" and spaces', converged: false, pbc: [true, true, false] });
  });

  it('refuses partial occupancy', () => {
    const s: Structure = { name: 'x', lattice: null, sites: [makeSiteFromCart(null, [0, 0, 0], { Fe: 0.5, Ni: 0.5 })] };
    expect(() => writeXyz(s)).toThrow(/XYZ cannot hold partial occupancy/);
    expect(() => writeExtxyz(s)).toThrow(/partial occupancy/);
  });

  it('writes several frames that read back as frames', () => {
    const f = (x: number): Structure => ({ name: `f${x}`, lattice: null, sites: [makeSiteFromCart(null, [x, 0, 0], { H: 1 })] });
    const back = parseXyz(writeXyzFrames([f(1), f(2), f(3)])).structures;
    expect(back.map((s) => s.sites[0].xyz[0])).toEqual([1, 2, 3]);
  });

  it('sniffs plain and extended XYZ', () => {
    expect(xyzFormat.sniff('2\nc\nC 0 0 0\nH 1 0 0\n')).toBe(true);
    expect(extxyzFormat.sniff('2\nc\nC 0 0 0\nH 1 0 0\n')).toBe(false);
    expect(extxyzFormat.sniff('1\nLattice="1 0 0 0 1 0 0 0 1"\nC 0 0 0\n')).toBe(true);
    expect(xyzFormat.sniff('data_x\n_cell_length_a 3\n')).toBe(false);
  });
});

describe('coordinate tokens: exactly the decimal grammar, read as Number reads it', () => {
  // The second H line repeats a known species (the reader's cached path); the expected outcome comes from the grammar
  // (DECIMAL_NUMBER, a Fortran D read as E, at most 256 characters) and Number, not from the reader.
  const tokens = [
    '1.',
    '.5',
    '+.5',
    '-0',
    '-1e5',
    '1E-3',
    '2.5e+07',
    '007.250',
    '1e',
    '1e+',
    '.',
    '+',
    '-',
    '1.2.3',
    '1e5.5',
    '0x10',
    'Infinity',
    'NaN',
    '1_0',
    '١',
    '1d2',
    '1D-2',
    '1e999',
    '.e5',
    '+-1',
    '5e-',
    `${'9'.repeat(300)}`,
    '3.0\u00a0',
  ];
  for (const token of tokens) {
    it(JSON.stringify(token), () => {
      const text = `2\n\nH 0 0 0\nH 0 ${token} 0.5\n`;
      const valid = DECIMAL_NUMBER.test(token.trim()) && token.trim().length <= 256;
      const value = Number(token.trim().replace(/[dD]/, 'e'));
      if (!valid || !Number.isFinite(value)) {
        expect(() => parseXyzFrames(text)).toThrow(ParseError);
        return;
      }
      const { frames, warnings } = parseXyzFrames(text);
      expect(Array.from(frames[0].coords)).toEqual([0, 0, 0, 0, value, 0.5]);
      expect(frames[0].symbols).toEqual(['H', 'H']);
      expect(warnings.length).toBe(/[dD]/.test(token) ? 1 : 0);
      // Last on its line, followed by nothing, by another column or by a carriage return: the same value.
      for (const end of ['', ' 7', '\r'])
        expect(Array.from(parseXyzFrames(`1\n\nH 0.5 0 ${token}${end}\n`).frames[0].coords)).toEqual([0.5, 0, value]);
    });
  }
  it('a labelled species on a later line keeps its label', () => {
    const { frames } = parseXyzFrames('3\n\nC1 0 0 0\nC1 1 0 0\nC 2 0 0\n');
    expect(frames[0].labels).toEqual(['C1', 'C1', undefined]);
    expect(Array.from(frames[0].coords)).toEqual([0, 0, 0, 1, 0, 0, 2, 0, 0]);
  });
});
