/** pymatgen `as_dict()` JSON reader and writer; inputs written by hand in pymatgen's layout. */
import { describe, expect, it } from 'vitest';
import {
  findJsonError,
  parsePymatgenJson,
  pymatgenJsonFormat,
  structureToDict,
  writePymatgenJson,
} from '../../src/core/io/pymatgen-json.ts';
import { ParseError } from '../../src/core/io/types.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromCart, makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import { errorOf, expectVec } from '../expect.ts';

const TOL = 1e-12;

// Fe0.5Ni0.5 O on a rock-salt-like primitive cell; xyz deliberately slightly off: abc must win.
const STRUCTURE_DICT = {
  '@module': 'pymatgen.core.structure',
  '@class': 'Structure',
  charge: 0,
  lattice: {
    matrix: [
      [0, 2, 2],
      [2, 0, 2],
      [2, 2, 0],
    ],
    pbc: [true, true, true],
    a: 2.83,
    b: 2.83,
    c: 2.83,
    alpha: 60,
    beta: 60,
    gamma: 60,
    volume: 16,
  },
  properties: {},
  sites: [
    {
      species: [
        { element: 'Fe', oxidation_state: 2, occu: 0.5 },
        { element: 'Ni', oxidation_state: 2, occu: 0.5 },
      ],
      abc: [0, 0, 0],
      xyz: [0, 0, 0],
      label: 'Fe:0.500, Ni:0.500',
      properties: { magmom: 2.5 },
    },
    { species: [{ element: 'O', occu: 1 }], abc: [0.5, 0.5, 0.5], xyz: [2, 2, 2.1], label: 'O', properties: {} },
  ],
};

const MOLECULE_DICT = {
  '@module': 'pymatgen.core.structure',
  '@class': 'Molecule',
  charge: -1,
  spin_multiplicity: 1,
  sites: [
    { name: 'O', species: [{ element: 'O', occu: 1 }], xyz: [0, 0, 0], properties: {}, label: 'O' },
    { name: 'H', species: [{ element: 'H', occu: 1 }], xyz: [0, 0, 0.97], properties: {}, label: 'H' },
  ],
};

describe('pymatgen JSON reader', () => {
  it('reads a Structure: lattice, fractional abc, mixed occupancy, oxidation states, properties', () => {
    const { structures } = parsePymatgenJson(JSON.stringify(STRUCTURE_DICT));
    const s = structures[0];
    expect(s.lattice!.matrix).toEqual([
      [0, 2, 2],
      [2, 0, 2],
      [2, 2, 0],
    ]);
    expect(s.sites[0].species).toEqual({ Fe: 0.5, Ni: 0.5 });
    expect(s.sites[0].oxidation).toEqual({ Fe: 2, Ni: 2 });
    expect(s.sites[0].properties).toEqual({ magmom: 2.5 });
    expect(s.sites[0].label).toBe('Fe:0.500, Ni:0.500');
    expect(s.sites[1].oxidation).toBeUndefined();
    // abc (0.5,0.5,0.5) · matrix = (2,2,2); the file's xyz (2,2,2.1) is ignored.
    expectVec(s.sites[1].xyz, [2, 2, 2], TOL);
    expectVec(s.sites[1].frac!, [0.5, 0.5, 0.5], TOL);
  });

  it('reads a Molecule as a finite structure and keeps its charge', () => {
    const s = parsePymatgenJson(JSON.stringify(MOLECULE_DICT)).structures[0];
    expect(s.lattice).toBeNull();
    expect(s.sites.map((x) => x.species)).toEqual([{ O: 1 }, { H: 1 }]);
    expectVec(s.sites[1].xyz, [0, 0, 0.97], TOL);
    expect(s.properties?.charge).toBe(-1);
  });

  it('reads a JSON array of dicts as several structures', () => {
    const { structures } = parsePymatgenJson(JSON.stringify([STRUCTURE_DICT, MOLECULE_DICT]));
    expect(structures.map((s) => s.lattice === null)).toEqual([false, true]);
  });

  it('reads species written with a charge in the element string (Fe3+)', () => {
    const d = { ...MOLECULE_DICT, sites: [{ species: [{ element: 'Fe3+', occu: 1 }], xyz: [0, 0, 0] }] };
    const s = parsePymatgenJson(JSON.stringify(d)).structures[0];
    expect(s.sites[0].species).toEqual({ Fe: 1 });
    expect(s.sites[0].oxidation).toEqual({ Fe: 3 });
  });

  it('reports invalid JSON with its line and bad content with a clear sentence', () => {
    const e = errorOf(() => parsePymatgenJson('{\n "sites": [\n  1,,\n ]\n}'), ParseError);
    expect(e.line).toBe(3);
    expect(e.message).toMatch(/not valid JSON/);
    expect(errorOf(() => parsePymatgenJson('{"@class": "Lattice", "sites": []}'), ParseError).message).toMatch(
      /pymatgen Lattice, not a Structure/,
    );
    expect(errorOf(() => parsePymatgenJson('{"@class": "Structure", "sites": []}'), ParseError).message).toMatch(/lattice\.matrix/);
    expect(
      errorOf(
        () => parsePymatgenJson('{"@class": "Molecule", "sites": [{"species": [{"element": "Zz", "occu": 1}], "xyz": [0,0,0]}]}'),
        ParseError,
      ).message,
    ).toMatch(/"Zz" is not an element symbol/);
    expect(
      errorOf(() => parsePymatgenJson('{"@class": "Molecule", "sites": [{"species": [{"element": "H", "occu": 1}]}]}'), ParseError).message,
    ).toMatch(/site 1 has no coordinates/);
    expect(errorOf(() => parsePymatgenJson('[]'), ParseError).message).toMatch(/no structures/);
  });

  it('rejects numbers that overflow a double (1e400) and names their line', () => {
    const coordinate = errorOf(
      () =>
        parsePymatgenJson(
          '{"@class": "Molecule", "sites": [\n{"species": [{"element": "H", "occu": 1}], "xyz": [0, 0, 0]},\n' +
            '{"species": [{"element": "H", "occu": 1}], "xyz": [0, 1e400, 0]}\n]}',
        ),
      ParseError,
    );
    expect(coordinate.message).toBe('The structure, site 2: "xyz" holds a value too large to represent.');
    expect(coordinate.line).toBe(3);
    // The fractional abc is not silently replaced by xyz when it overflows.
    const abc = { ...STRUCTURE_DICT, sites: [{ ...STRUCTURE_DICT.sites[1], abc: [0.5, 'BIG', 0.5] }] };
    const abcError = errorOf(() => parsePymatgenJson(JSON.stringify(abc).replace('"BIG"', '-1e400')), ParseError);
    expect(abcError.message).toMatch(/site 1: "abc" holds a value too large to represent/);
    expect(abcError.line).toBe(1);
    const bigCell = {
      ...STRUCTURE_DICT,
      lattice: {
        ...STRUCTURE_DICT.lattice,
        matrix: [
          [0, 2, 'BIG'],
          [2, 0, 2],
          [2, 2, 0],
        ],
      },
    };
    const lattice = JSON.stringify(bigCell, null, 1).replace('"BIG"', '1e400');
    const latticeError = errorOf(() => parsePymatgenJson(lattice), ParseError);
    expect(latticeError.message).toMatch(/"lattice.matrix" holds a value too large to represent/);
    expect(latticeError.line).toBe(lattice.split('\n').findIndex((l) => l.includes('1e400')) + 1);
    const occu = errorOf(
      () => parsePymatgenJson('{"@class": "Molecule", "sites": [{"species": [{"element": "H", "occu": 1e999}], "xyz": [0, 0, 0]}]}'),
      ParseError,
    );
    expect(occu.message).toMatch(/occupancy of H is too large to represent/);
  });
});

describe('pymatgen JSON writer', () => {
  const lattice = new Lattice([
    [3.1, 0.2, 0],
    [-1.2, 4.4, 0.3],
    [0.5, 0.1, 5.9],
  ]);

  it('writes the Structure.as_dict() layout', () => {
    const s: Structure = {
      name: 'x',
      lattice,
      sites: [makeSiteFromFrac(lattice, [0.25, -0.5, 1.25], { Fe: 0.75, Co: 0.25 }, { oxidation: { Fe: 3 } })],
      properties: { charge: 2 },
    };
    const d = JSON.parse(writePymatgenJson(s));
    expect(d['@module']).toBe('pymatgen.core.structure');
    expect(d['@class']).toBe('Structure');
    expect(d.charge).toBe(2);
    expect(d.lattice.matrix).toEqual(lattice.matrix);
    expect(d.lattice.pbc).toEqual([true, true, true]);
    expect(d.sites[0].species).toEqual([
      { element: 'Fe', oxidation_state: 3, occu: 0.75 },
      { element: 'Co', occu: 0.25 },
    ]);
    expect(d.sites[0].abc).toEqual([0.25, -0.5, 1.25]);
    expect(d.sites[0].label).toBe('Fe3+:0.750, Co:0.250'); // pymatgen 2022.11 species_string of {Fe3+: 0.75, Co: 0.25}
    expect(d.sites[0].properties).toEqual({});
  });

  it('writes finite structures as Molecule and round-trips exactly', () => {
    const s: Structure = { name: 'm', lattice: null, sites: [makeSiteFromCart(null, [0.1, 1 / 3, -7e-9], { C: 1 })] };
    const text = writePymatgenJson(s);
    expect(structureToDict(s)['@class']).toBe('Molecule');
    const back = parsePymatgenJson(text).structures[0];
    expect(back.sites[0].xyz).toEqual(s.sites[0].xyz);
    expect(back.lattice).toBeNull();
  });

  it('sniffs pymatgen dicts', () => {
    expect(pymatgenJsonFormat.sniff(JSON.stringify(STRUCTURE_DICT))).toBe(true);
    expect(pymatgenJsonFormat.sniff('{"foo": 1}')).toBe(false);
  });
});

describe('JSON syntax error location (independent of the engine message)', () => {
  it('agrees with JSON.parse on what is valid and points at the first bad character', () => {
    const valid = ['{}', '[]', ' {"a": [1, -2.5e-3, true, false, null, "x\\u00e9\\n"]} ', '0', '"s"'];
    for (const t of valid) {
      JSON.parse(t);
      expect(findJsonError(t)).toBeNull();
    }
    const cases: [string, number][] = [
      ['{"a": 1,}', 8],
      ['[1 2]', 3],
      ['{"a" 1}', 5],
      ['[01]', 2],
      ['{"a": tru}', 6],
      ['"open', 5],
      ['[1]x', 3],
      ['', 0],
    ];
    for (const [t, offset] of cases) {
      expect(() => JSON.parse(t)).toThrow();
      expect(findJsonError(t)?.offset, t).toBe(offset);
    }
  });
});
