/**
 * The port of spglib 2.0.2 src/spacegroup.c and src/hall_symbol.c against spglib 2.0.2 itself
 * (scripts/make-spglib-spacegroup-fixtures.py, Debian's python3-spglib 2.0.2; the C functions were called
 * through ctypes in the Python extension's own build):
 *
 * - operation sets: spglib.c get_hall_number_from_symmetry replayed (prm_get_primitive_symmetry, prim_lat =
 *   lattice · t_mat⁻¹, spa_search_spacegroup_with_symmetry) on the database operations of ~110 Hall numbers,
 *   on operations carried to other settings (permuted orthorhombic axes, monoclinic a↔c, sheared cells,
 *   hexagonal turns, obverse → reverse, origins moved on a 1/8 grid or to other normaliser origins), on
 *   centred groups in a primitive basis and on noisy translations. Number, Hall number, symbols, origin shift
 *   and conventional lattice are compared; spglib.get_spacegroup_type_from_symmetry's (number, hall_number)
 *   too.
 * - cells: the orbit of a generic point; spa_search_spacegroup on the primitive cell spglib's
 *   prm_get_primitive found (with its orig_lattice, so the axis-flip preferences are exercised), for Hall
 *   number 0 and for other settings of the same type; spa_transform_to_primitive and
 *   spa_transform_from_primitive; spglib.get_symmetry_dataset's (number, hall_number).
 *
 * Numbers are compared exactly; origin shifts, lattices and positions within 1e-10 (1e-9 for lattices of ~10 Å),
 * and the last test checks that all of them were in fact identical to the last bit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { celAllocCell, celSetCell } from '../../src/core/symmetry/spglib/cell.ts';
import { matInverseMatrixD3, matMultiplyMatrixD3 } from '../../src/core/symmetry/spglib/mathfunc.ts';
import { prmGetPrimitiveSymmetry } from '../../src/core/symmetry/spglib/primitive.ts';
import {
  spaCopySpacegroup,
  spaSearchSpacegroup,
  spaSearchSpacegroupWithSymmetry,
  spaTransformFromPrimitive,
  spaTransformToPrimitive,
} from '../../src/core/symmetry/spglib/spacegroup.ts';
import { spgdbGetSpacegroupOperations } from '../../src/core/symmetry/spglib/spg-database.ts';
import { symAllocSymmetry } from '../../src/core/symmetry/spglib/symmetry.ts';
import type { Cell, Centering, Mat3, Primitive, Spacegroup, Symmetry, Vec3 } from '../../src/core/symmetry/spglib/types.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

interface ExpectedSpacegroup {
  number: number;
  hall_number: number;
  pointgroup_number: number;
  hall_symbol: string;
  international: string;
  choice: string;
  /** Basis vectors as columns. */
  bravais_lattice: Mat3;
  origin_shift: Vec3;
}
interface OpsCase {
  name: string;
  source_hall: number;
  symprec: number;
  /** Basis vectors as columns (as C takes it). */
  lattice: Mat3;
  /** Flattened 3×3 rotations; null: the database operations of source_hall. */
  rotations: number[][] | null;
  /** Numbers or exact fractions "n/d". */
  translations: (number | string)[][] | null;
  primitive_size: number;
  /** spglib.get_spacegroup_type_from_symmetry: [number, hall_number]. */
  api: [number, number] | null;
  expect: ExpectedSpacegroup | null;
}
interface FixtureCellData {
  lattice: Mat3;
  types: number[];
  position: Vec3[];
}
interface CellCase {
  name: string;
  source_hall: number;
  symprec: number;
  angle_tolerance: number;
  lattice: Mat3;
  types: number[] | null;
  position: Vec3[] | null;
  primitive: { cell: FixtureCellData; size: number; tolerance: number; angle_tolerance: number; orig_lattice: Mat3 };
  searches: { hall_number: number; expect: ExpectedSpacegroup | null }[];
  /** spglib.get_symmetry_dataset: [number, hall_number]. */
  dataset: [number, number] | null;
  centering: number | null;
  to_primitive: { cell: FixtureCellData; mapping_table: number[] } | null;
  from_primitive: FixtureCellData | null;
}
interface Fixture {
  spglib: string;
  ops: OpsCase[];
  cells: CellCase[];
}

const fixture: Fixture = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'spglib', 'spacegroup.json'), 'utf8'));
const TOL = 1e-10;

const num = (x: number | string): number => {
  if (typeof x === 'number') return x;
  const [n, d] = x.split('/').map(Number);
  return n / d;
};
const unflat = (r: number[]): Mat3 => [r.slice(0, 3), r.slice(3, 6), r.slice(6, 9)];

function opsOf(c: OpsCase): Symmetry {
  if (c.rotations === null || c.translations === null) {
    const sym = spgdbGetSpacegroupOperations(c.source_hall);
    if (sym === null) throw new Error(`no database operations for ${c.source_hall}`);
    return sym;
  }
  const sym = symAllocSymmetry(c.rotations.length);
  c.rotations.forEach((r, i) => {
    sym.rot[i] = unflat(r);
    sym.trans[i] = c.translations![i].map(num);
  });
  return sym;
}

function makeCell(c: FixtureCellData): Cell {
  return {
    size: c.types.length,
    aperiodic_axis: -1,
    lattice: c.lattice.map((row) => row.slice()),
    types: c.types.slice(),
    position: c.position.map((p) => p.slice()),
  };
}

/** spglib.c get_hall_number_from_symmetry with transform_lattice_by_tmat = 1, keeping the Spacegroup. */
function searchWithSymmetry(c: OpsCase): Spacegroup | null {
  const tMat: Mat3 = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const tMatInv: Mat3 = tMat.map((r) => r.slice());
  const primLat: Mat3 = tMat.map((r) => r.slice());
  const primSymmetry = prmGetPrimitiveSymmetry(tMat, opsOf(c), c.symprec);
  if (primSymmetry === null) return null;
  if (!matInverseMatrixD3(tMatInv, tMat, c.symprec)) return null;
  matMultiplyMatrixD3(primLat, c.lattice, tMatInv);
  return spaSearchSpacegroupWithSymmetry(primSymmetry, primLat, c.symprec);
}

let nearMisses = 0;

function closeTo(actual: number[][], expected: number[][], tol = TOL): boolean {
  let exact = true;
  for (let i = 0; i < expected.length; i++) {
    for (let j = 0; j < expected[i].length; j++) {
      if (Math.abs(actual[i][j] - expected[i][j]) > tol) return false;
      if (actual[i][j] !== expected[i][j]) exact = false;
    }
  }
  if (!exact) nearMisses++;
  return true;
}

function compareSpacegroup(label: string, actual: Spacegroup | null, expected: ExpectedSpacegroup | null): void {
  if (expected === null) {
    expect.soft(actual, label).toBeNull();
    return;
  }
  expect.soft(actual, label).not.toBeNull();
  if (actual === null) return;
  const got = {
    number: actual.number,
    hall_number: actual.hall_number,
    pointgroup_number: actual.pointgroup_number,
    hall_symbol: actual.hall_symbol,
    international: actual.international,
    choice: actual.choice,
  };
  const want = {
    number: expected.number,
    hall_number: expected.hall_number,
    pointgroup_number: expected.pointgroup_number,
    hall_symbol: expected.hall_symbol,
    international: expected.international,
    choice: expected.choice,
  };
  expect.soft(got, label).toEqual(want);
  if (!closeTo([actual.origin_shift], [expected.origin_shift])) {
    expect.soft(actual.origin_shift, `${label}: origin_shift`).toEqual(expected.origin_shift);
  }
  if (!closeTo(actual.bravais_lattice, expected.bravais_lattice, TOL * 10)) {
    expect.soft(actual.bravais_lattice, `${label}: bravais_lattice`).toEqual(expected.bravais_lattice);
  }
}

function compareCell(label: string, actual: Cell | null, expected: FixtureCellData | null): void {
  if (expected === null) {
    expect.soft(actual, label).toBeNull();
    return;
  }
  expect.soft(actual, label).not.toBeNull();
  if (actual === null) return;
  expect.soft(actual.types, `${label}: types`).toEqual(expected.types);
  if (!closeTo(actual.lattice, expected.lattice, TOL * 10)) {
    expect.soft(actual.lattice, `${label}: lattice`).toEqual(expected.lattice);
  }
  if (actual.position.length !== expected.position.length || !closeTo(actual.position, expected.position)) {
    expect.soft(actual.position, `${label}: position`).toEqual(expected.position);
  }
}

describe('spglib 2.0.2 spacegroup.c and hall_symbol.c', () => {
  it('has the fixtures of spglib 2.0.2', () => {
    expect(fixture.spglib).toBe('2.0.2');
    expect(fixture.ops.length).toBeGreaterThanOrEqual(150);
    expect(new Set(fixture.ops.map((c) => c.source_hall)).size).toBeGreaterThanOrEqual(100);
    expect(fixture.cells.length).toBeGreaterThanOrEqual(40);
  });

  it('spa_search_spacegroup_with_symmetry finds the Hall setting, origin shift and basis spglib finds', () => {
    for (const c of fixture.ops) {
      const sg = searchWithSymmetry(c);
      compareSpacegroup(c.name, sg, c.expect);
      expect.soft(sg === null ? null : [sg.number, sg.hall_number], `${c.name}: get_spacegroup_type_from_symmetry`).toEqual(c.api);
    }
  });

  it('spa_search_spacegroup on primitive cells, for every Hall number and for a given one', () => {
    for (const c of fixture.cells) {
      const primitive: Primitive = {
        cell: makeCell(c.primitive.cell),
        mapping_table: [],
        size: c.primitive.size,
        tolerance: c.primitive.tolerance,
        angle_tolerance: c.primitive.angle_tolerance,
        orig_lattice: c.primitive.orig_lattice,
      };
      for (const s of c.searches) {
        const sg = spaSearchSpacegroup(primitive, s.hall_number, primitive.tolerance, primitive.angle_tolerance);
        compareSpacegroup(`${c.name} (hall_number ${s.hall_number})`, sg, s.expect);
        if (s.hall_number === 0 && c.dataset !== null) {
          expect.soft(sg === null ? null : [sg.number, sg.hall_number], `${c.name}: get_symmetry_dataset`).toEqual(c.dataset);
        }
      }
    }
  });

  it('spa_transform_to_primitive and spa_transform_from_primitive build the cells spglib builds', () => {
    let checked = 0;
    for (const c of fixture.cells) {
      if (c.centering === null || c.types === null || c.position === null) continue;
      /* As the fixture script set it up: cel_set_cell (positions shifted into [-0.5, 0.5)). */
      const cell = celAllocCell(c.types.length)!;
      celSetCell(cell, c.lattice, c.position, c.types);
      const mapping = new Array<number>(cell.size).fill(0);
      const identity: Mat3 = [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ];
      const toPrim = spaTransformToPrimitive(mapping, cell, identity, c.centering as Centering, c.symprec);
      compareCell(`${c.name}: to primitive`, toPrim, c.to_primitive?.cell ?? null);
      if (c.to_primitive !== null) {
        expect.soft(mapping, `${c.name}: mapping_table`).toEqual(c.to_primitive.mapping_table);
      }
      if (c.centering !== 1) {
        const fromPrim = spaTransformFromPrimitive(makeCell(c.primitive.cell), c.centering as Centering, c.symprec);
        compareCell(`${c.name}: from primitive`, fromPrim, c.from_primitive);
      }
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  it('spa_copy_spacegroup copies deeply', () => {
    const src = searchWithSymmetry(fixture.ops[fixture.ops.length - 1]);
    expect(src).not.toBeNull();
    const dst = { bravais_lattice: [[0]], origin_shift: [0] } as unknown as Spacegroup;
    spaCopySpacegroup(dst, src!);
    expect(dst).toEqual(src);
    dst.bravais_lattice[0][0] += 1;
    dst.origin_shift[0] += 1;
    expect(dst.bravais_lattice[0][0]).not.toBe(src!.bravais_lattice[0][0]);
    expect(dst.origin_shift[0]).not.toBe(src!.origin_shift[0]);
  });

  it('agrees with spglib bit for bit (no result was merely within the tolerance)', () => {
    expect(nearMisses).toBe(0);
  });
});
