/**
 * The spglib v2.0.2 tables (src/core/symmetry/spglib/tables/*.json) and the ports of spg_database.c and
 * pointgroup.c against the real spglib 2.0.2: tests/reference/golden/spglib/tables.json, written by
 * scripts/make-spglib-tables-fixtures.py (get_spacegroup_type, get_symmetry_from_database and get_pointgroup for
 * all 530 Hall numbers, and get_pointgroup on 150 rotation sets in other settings: unimodular
 * changes of basis and primitive bases of the centred lattices).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { ptgGetPointgroup, ptgGetPointsymmetry, ptgGetTransformationMatrix } from '../../src/core/symmetry/spglib/pointgroup.ts';
import {
  spgdbDecodeSymmetry,
  spgdbGetOperationIndex,
  spgdbGetSpacegroupOperations,
  spgdbGetSpacegroupType,
  spgdbRemoveSpace,
} from '../../src/core/symmetry/spglib/spg-database.ts';
import hallJson from '../../src/core/symmetry/spglib/tables/hall_symbol.json' with { type: 'json' };
import sitesymJson from '../../src/core/symmetry/spglib/tables/sitesym_database.json' with { type: 'json' };
import spgJson from '../../src/core/symmetry/spglib/tables/spg_database.json' with { type: 'json' };
import { Centering } from '../../src/core/symmetry/spglib/types.ts';
import type { Mat3 } from '../../src/core/symmetry/spglib/types.ts';

interface Setting {
  hall: number;
  kind: 'unimodular' | 'primitive';
  P: number[][];
  rotations: number[][];
  symbol: string;
  number: number;
  transformation_matrix: number[][];
}

interface Fixture {
  spglib_version: string;
  type_fields: string[];
  types: (string | number)[][];
  operations: string[][];
  pointgroups: [string, number, number[][]][];
  settings: Setting[];
}

const fixture = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'spglib', 'tables.json'), 'utf8')) as Fixture;

const ROT: Record<string, number> = { '-': -1, '0': 0, '+': 1 };

/** The fixture's 12-character operation: 9 rotation entries as - 0 +, 3 translations in twelfths (base 12). */
function decodeFixtureOp(s: string): { rot: Mat3; trans: number[] } {
  const r = [...s.slice(0, 9)].map((c) => ROT[c]);
  return {
    rot: [r.slice(0, 3), r.slice(3, 6), r.slice(6, 9)],
    trans: [...s.slice(9)].map((c) => parseInt(c, 12) / 12),
  };
}

const unflatten = (r: number[]): Mat3 => [r.slice(0, 3), r.slice(3, 6), r.slice(6, 9)];
const det3 = (m: Mat3): number =>
  m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
  m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
  m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
const zero3 = (): Mat3 => [
  [0, 0, 0],
  [0, 0, 0],
  [0, 0, 0],
];

describe('spglib tables (JSON)', () => {
  it('holds every array of the 3D path with the C lengths', () => {
    expect(fixture.spglib_version).toBe('2.0.2');
    expect(Object.keys(spgJson)).toEqual(['spacegroup_types', 'symmetry_operations', 'symmetry_operation_index']);
    expect(spgJson.spacegroup_types).toHaveLength(531);
    expect(spgJson.symmetry_operation_index).toHaveLength(531);
    // 7388 space-group operations after the dummy, then the 758 layer-group ones.
    expect(spgJson.symmetry_operations).toHaveLength(8147);
    expect(spgJson.spacegroup_types[0]).toEqual({
      number: 0,
      schoenflies: '      ',
      hall_symbol: '                ',
      international: '                               ',
      international_full: '                   ',
      international_short: '          ',
      choice: '     ',
      centering: Centering.CENTERING_ERROR,
      pointgroup_number: 0,
    });
    expect(spgJson.spacegroup_types[530]).toEqual({
      number: 230,
      schoenflies: 'Oh^10 ',
      hall_symbol: '-I 4bd 2c 3     ',
      international: 'I a -3 d                       ',
      international_full: 'I 4_1/a -3 2/d     ',
      international_short: 'Ia-3d     ',
      choice: '     ',
      centering: Centering.BODY,
      pointgroup_number: 32,
    });
    expect(spgJson.spacegroup_types[433].centering).toBe(Centering.R_CENTER); // R 3 :H
    expect(spgJson.spacegroup_types[434].centering).toBe(Centering.PRIMITIVE); // R 3 :R
    expect(spgJson.symmetry_operation_index[530]).toEqual([96, 7293]);
    expect(hallJson.M_rc_inv[0]).toEqual([2 / 3, -1 / 3, -1 / 3]);
    expect(hallJson.tricli_VSpU[1][0]).toEqual([0, 0, 0, -1 / 2, 0, 0, 0, 0, 0]);
    expect(hallJson.cubic_generators).toHaveLength(10);
    expect(sitesymJson.position_wyckoff).toHaveLength(532);
    expect(sitesymJson.coordinates_first).toHaveLength(sitesymJson.site_symmetry_symbols.length);
    expect(sitesymJson.site_symmetry_symbols[3]).toBe('-1    ');
  });
});

describe('spg_database.c port', () => {
  it('decodes symmetry operations as spglib encodes them', () => {
    const rot = zero3();
    const trans = [0, 0, 0];
    spgdbDecodeSymmetry(rot, trans, 16484);
    expect(rot).toEqual([
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    expect(trans).toEqual([0, 0, 0]);
    // 19683 * (6 * 144 + 3 * 12 + 9) + 3198: inversion with translation (1/2, 1/4, 3/4).
    spgdbDecodeSymmetry(rot, trans, 19683 * (6 * 144 + 3 * 12 + 9) + 3198);
    expect(rot).toEqual([
      [-1, 0, 0],
      [0, -1, 0],
      [0, 0, -1],
    ]);
    expect(trans).toEqual([1 / 2, 1 / 4, 3 / 4]);
  });

  it('get_symmetry_from_database: all 530 Hall numbers, same operations in the same order', () => {
    expect(fixture.operations).toHaveLength(530);
    let count = 0;
    for (let h = 1; h <= 530; h++) {
      const sym = spgdbGetSpacegroupOperations(h);
      expect(sym).not.toBeNull();
      const expected = fixture.operations[h - 1].map(decodeFixtureOp);
      expect(sym!.size, `Hall ${h}`).toBe(expected.length);
      expect(sym!.rot, `Hall ${h}`).toEqual(expected.map((o) => o.rot));
      expect(sym!.trans, `Hall ${h}`).toEqual(expected.map((o) => o.trans));
      const indices = [0, 0];
      spgdbGetOperationIndex(indices, h);
      expect(indices[0]).toBe(expected.length);
      count += sym!.size;
    }
    expect(count).toBe(7388);
    expect(spgdbGetSpacegroupOperations(0)).toBeNull();
    expect(spgdbGetSpacegroupOperations(531)).toBeNull();
    expect(spgdbGetSpacegroupOperations(-1)).toBeNull();
  });

  it('get_spacegroup_type: all 530 Hall numbers', () => {
    const f = fixture.type_fields;
    expect(fixture.types).toHaveLength(530);
    for (let h = 1; h <= 530; h++) {
      const t = spgdbGetSpacegroupType(h);
      const row = fixture.types[h - 1];
      const want = Object.fromEntries(f.map((k, i) => [k, row[i]]));
      const pg = ptgGetPointgroup(t.pointgroup_number);
      expect(
        {
          number: t.number,
          international_short: t.international_short,
          international_full: t.international_full,
          international: t.international,
          schoenflies: t.schoenflies,
          hall_symbol: t.hall_symbol,
          choice: t.choice,
          pointgroup_international: pg.symbol,
          pointgroup_schoenflies: pg.schoenflies,
        },
        `Hall ${h}`,
      ).toEqual(want);
    }
    // '=' in the table stands for '"': Hall 439 is stored as 'P 3 2=' (covered above, spelled out here).
    expect(spgJson.spacegroup_types[439].hall_symbol).toBe('P 3 2=          ');
    expect(spgdbGetSpacegroupType(439).hall_symbol).toBe('P 3 2"');
    expect(spgdbGetSpacegroupType(0).number).toBe(0);
    expect(spgdbGetSpacegroupType(531).number).toBe(0);
    expect(spgdbGetSpacegroupType(-3).number).toBe(0);
  });

  it('remove_space cuts only trailing spaces within the C array', () => {
    expect(spgdbRemoveSpace('P 1 2 1  ')).toBe('P 1 2 1');
    expect(spgdbRemoveSpace('      ')).toBe('');
    expect(spgdbRemoveSpace('2/m ', 7)).toBe('2/m '); // index 5 is '\0' in C: nothing cut
    expect(spgdbRemoveSpace('-1    ', 7)).toBe('-1');
  });
});

describe('pointgroup.c port', () => {
  it('ptg_get_transformation_matrix on the rotations of all 530 Hall numbers equals spglib.get_pointgroup', () => {
    for (let h = 1; h <= 530; h++) {
      const sym = spgdbGetSpacegroupOperations(h)!;
      const tmat = zero3();
      const pg = ptgGetTransformationMatrix(tmat, sym.rot, sym.size);
      const [symbol, number, matrix] = fixture.pointgroups[h - 1];
      expect({ symbol: pg.symbol, number: pg.number, tmat }, `Hall ${h}`).toEqual({ symbol, number, tmat: matrix });
      expect(pg.symbol).toBe(fixture.types[h - 1][fixture.type_fields.indexOf('pointgroup_international')]);
    }
  });

  it('ptg_get_transformation_matrix in other settings and primitive bases (all 32 point groups)', () => {
    expect(fixture.settings.length).toBeGreaterThanOrEqual(100);
    expect(fixture.settings.filter((s) => s.kind === 'primitive').length).toBeGreaterThanOrEqual(40);
    expect(new Set(fixture.settings.map((s) => s.symbol)).size).toBe(32);
    const pgField = fixture.type_fields.indexOf('pointgroup_international');
    for (const s of fixture.settings) {
      const rotations = s.rotations.map(unflatten);
      const tmat = zero3();
      const pg = ptgGetTransformationMatrix(tmat, rotations, rotations.length);
      const label = `Hall ${s.hall}, ${s.kind} P ${JSON.stringify(s.P)}`;
      // Independent of the port: the point group of the Hall number, an integer invertible matrix.
      expect(pg.symbol, label).toBe(fixture.types[s.hall - 1][pgField]);
      expect(
        tmat.flat().every((x) => Number.isInteger(x)),
        label,
      ).toBe(true);
      expect(det3(tmat), label).not.toBe(0);
      // And exactly what spglib.get_pointgroup returns.
      expect({ number: pg.number, tmat }, label).toEqual({ number: s.number, tmat: s.transformation_matrix });
    }
  });

  it('ptg_get_pointsymmetry keeps distinct rotations in order; non-groups give number 0', () => {
    const sym = spgdbGetSpacegroupOperations(530)!; // Ia-3d: 96 operations, 48 rotations
    const ps = ptgGetPointsymmetry(sym.rot, sym.size);
    expect(ps.size).toBe(48);
    expect(ps.rot[0]).toEqual(sym.rot[0]);
    ps.rot[0][0][0] = 7;
    expect(sym.rot[0][0][0]).toBe(1); // copies
    const tmat = [
      [9, 9, 9],
      [9, 9, 9],
      [9, 9, 9],
    ];
    const fourfold = [
      [0, -1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ];
    const pg = ptgGetTransformationMatrix(tmat, [fourfold], 1);
    expect(pg.number).toBe(0);
    expect(tmat).toEqual(zero3());
    expect(ptgGetPointgroup(32)).toMatchObject({ number: 32, symbol: 'm-3m', schoenflies: 'Oh' });
    expect(ptgGetPointgroup(1)).toMatchObject({ symbol: '1', schoenflies: 'C1' });
  });
});
