/**
 * The port of spglib 2.0.2 src/symmetry.c and src/primitive.c against spglib 2.0.2 itself, on 31 cells (corpus
 * CIFs and POSCARs read by pymatgen, the quartz extended XYZ, synthetic rocksalt, supercell, distorted cubic,
 * perturbed, hematite, quartz, wurtzite, perovskite and triclinic cells) at symprec 0.01 and 0.1 with angle
 * tolerance 5 and -1 (scripts/make-spglib-operations-fixtures.py). The C functions were called through ctypes
 * in the Python extension's own build, so the operations are compared in spglib's order: rotations exactly,
 * translations, lattices and positions within 1e-10 (today they agree bit for bit). The public API's
 * get_symmetry_dataset rotations, carried into the basis of the primitive cell found here, and find_primitive's
 * atom count are checked too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { celAllocCell, celSetCell } from '../../src/core/symmetry/spglib/cell.ts';
import {
  prmAllocPrimitive,
  prmGetPrimitive,
  prmGetPrimitiveLatticeVectors,
  prmGetPrimitiveSymmetry,
  prmGetPrimitiveWithPureTrans,
} from '../../src/core/symmetry/spglib/primitive.ts';
import {
  symAllocSymmetry,
  symGetOperation,
  symGetPureTranslation,
  symReduceOperation,
  symReducePureTranslation,
} from '../../src/core/symmetry/spglib/symmetry.ts';
import type { Cell, Mat3, Symmetry, Vec3 } from '../../src/core/symmetry/spglib/types.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

interface FixtureCell {
  name: string;
  /** Rows = basis vectors (Python's spglib convention). */
  lattice: Mat3;
  positions: Vec3[];
  types: number[];
}
interface Ops {
  rotations: Mat3[];
  translations: Vec3[];
}
interface CResults {
  too_close: boolean;
  pure_translations: Vec3[] | null;
  primitive_lattice_vectors?: { multi: number; lattice: Mat3 | null };
  /** Lattice with the basis vectors as columns (C). */
  primitive: { lattice: Mat3; positions: Vec3[]; types: number[]; mapping_table: number[] } | null;
  operations: Ops | null;
  reduced_operations?: number[] | null;
  cell_operations_count: number | null;
  primitive_symmetry?: (Ops & { t_mat: Mat3 }) | null;
}
interface FixtureCase {
  cell: number;
  symprec: number;
  angle_tolerance: number;
  primitive_tolerance: [number, number] | null;
  /** The C results, or the index of an earlier case of the same cell with identical ones. */
  c: CResults | number;
  dataset: {
    number: number;
    international: string;
    n_operations: number;
    /** Distinct rotations in the input basis. */
    rotations: Mat3[];
    /** Their translations, for primitive input cells only. */
    translations?: Vec3[];
  } | null;
  find_primitive_size: number | null;
}
interface Fixture {
  spglib: string;
  cells: FixtureCell[];
  cases: FixtureCase[];
}

const fixture: Fixture = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'spglib', 'operations.json'), 'utf8'));
const TOL = 1e-10;

const transpose = (m: Mat3): Mat3 => [0, 1, 2].map((i) => [0, 1, 2].map((j) => m[j][i]));
const mul = (a: Mat3, b: Mat3): Mat3 =>
  [0, 1, 2].map((i) => [0, 1, 2].map((j) => a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j]));
const mulVec = (a: Mat3, v: Vec3): Vec3 => [0, 1, 2].map((i) => a[i][0] * v[0] + a[i][1] * v[1] + a[i][2] * v[2]);
function inverse(a: Mat3): Mat3 {
  const det =
    a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
    a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
    a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  const c = (i: number, j: number) => {
    const r = [0, 1, 2].filter((x) => x !== j);
    const s = [0, 1, 2].filter((x) => x !== i);
    const minor = a[r[0]][s[0]] * a[r[1]][s[1]] - a[r[0]][s[1]] * a[r[1]][s[0]];
    return ((i + j) % 2 === 0 ? 1 : -1) * minor;
  };
  return [0, 1, 2].map((i) => [0, 1, 2].map((j) => c(i, j) / det));
}
const key = (r: Mat3): string => r.flat().join(',');

/** The cell as spg_get_dataset sets it up: columns = basis vectors, positions reduced by cel_set_cell. */
function makeCell(c: FixtureCell): Cell {
  const cell = celAllocCell(c.types.length);
  if (cell === null) throw new Error('no cell');
  celSetCell(cell, transpose(c.lattice), c.positions, c.types);
  return cell;
}

function expectClose(actual: number[][], expected: number[][], tol = TOL): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    for (let j = 0; j < expected[i].length; j++) {
      if (Math.abs(actual[i][j] - expected[i][j]) > tol) {
        expect.soft(actual[i], `row ${i}`).toEqual(expected[i]);
        return;
      }
    }
  }
}

function expectOps(actual: Symmetry | null, expected: Ops | null): void {
  if (expected === null) {
    expect(actual).toBeNull();
    return;
  }
  expect(actual).not.toBeNull();
  expect(actual!.size).toBe(expected.rotations.length);
  expect(actual!.rot).toEqual(expected.rotations);
  expectClose(actual!.trans, expected.translations);
}

const resolve = (k: FixtureCase): CResults => (typeof k.c === 'number' ? (fixture.cases[k.c].c as CResults) : k.c);
const label = (k: FixtureCase) => `${fixture.cells[k.cell].name} symprec=${k.symprec} angle=${k.angle_tolerance}`;

describe('spglib 2.0.2 symmetry.c and primitive.c', () => {
  it('has the fixtures of spglib 2.0.2', () => {
    expect(fixture.spglib).toBe('2.0.2');
    expect(fixture.cells.length).toBeGreaterThanOrEqual(30);
    expect(fixture.cases.length).toBe(fixture.cells.length * 4);
  });

  for (const k of fixture.cases) {
    const c = resolve(k);
    const fc = fixture.cells[k.cell];

    it(`${label(k)}: pure translations, primitive cell and operations as C`, () => {
      const cell = makeCell(fc);
      expect(c.too_close).toBe(false);

      const pure = symGetPureTranslation(cell, k.symprec);
      if (c.pure_translations === null) {
        expect(pure).toBeNull();
      } else {
        expect(pure).not.toBeNull();
        expectClose(pure!.vec, c.pure_translations);
        const primLattice: Mat3 = [
          [0, 0, 0],
          [0, 0, 0],
          [0, 0, 0],
        ];
        const multi = prmGetPrimitiveLatticeVectors(primLattice, cell, pure!, k.symprec, k.angle_tolerance);
        expect(multi).toBe(c.primitive_lattice_vectors!.multi);
        if (multi) expectClose(primLattice, c.primitive_lattice_vectors!.lattice!);
      }

      const prim = prmGetPrimitive(cell, k.symprec, k.angle_tolerance);
      if (c.primitive === null) {
        expect(prim).toBeNull();
        return;
      }
      expect(prim).not.toBeNull();
      const pc = prim!.cell!;
      expectClose(pc.lattice, c.primitive.lattice);
      expect(pc.types).toEqual(c.primitive.types);
      expectClose(pc.position, c.primitive.positions);
      expect(prim!.mapping_table).toEqual(c.primitive.mapping_table);
      expect([prim!.tolerance, prim!.angle_tolerance]).toEqual(k.primitive_tolerance);
      expectClose(prim!.orig_lattice, cell.lattice, 0);

      const ops = symGetOperation(pc, k.symprec, k.angle_tolerance);
      expectOps(ops, c.operations);
      if (ops !== null && c.reduced_operations !== undefined) {
        const reduced = symReduceOperation(pc, ops, k.symprec / 2, k.angle_tolerance);
        const idx = c.reduced_operations;
        expectOps(reduced, idx === null ? null : { rotations: idx.map((i) => ops.rot[i]), translations: idx.map((i) => ops.trans[i]) });
      }
    });

    it(`${label(k)}: operations of the input cell carried to its primitive cell as C`, () => {
      const cell = makeCell(fc);
      const ops = symGetOperation(cell, k.symprec, k.angle_tolerance);
      expect(ops === null ? null : ops.size).toBe(c.cell_operations_count);
      if (ops === null || c.primitive_symmetry === undefined) return;
      const tMat: Mat3 = [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ];
      const psym = prmGetPrimitiveSymmetry(tMat, ops, k.symprec);
      expectOps(psym, c.primitive_symmetry);
      if (c.primitive_symmetry !== null) expectClose(tMat, c.primitive_symmetry.t_mat);
    });

    if (k.dataset !== null) {
      const ds = k.dataset;
      it(`${label(k)}: get_symmetry_dataset's rotations (${ds.international}) in the primitive basis, find_primitive's size`, () => {
        const cell = makeCell(fc);
        const prim = prmGetPrimitive(cell, k.symprec, k.angle_tolerance)!;
        expect(prim.cell!.size).toBe(k.find_primitive_size);
        const ops = symGetOperation(prim.cell!, k.symprec, k.angle_tolerance)!;

        // x_L = T x_P with (a_p, b_p, c_p) = (a, b, c) T, so W_P = T^-1 W_L T and t_P = T^-1 t_L.
        const t = mul(inverse(cell.lattice), prim.cell!.lattice);
        const tInv = inverse(t);
        const dsRot = ds.rotations.map((w) => mul(mul(tInv, w), t).map((row) => row.map((x) => Math.round(x))));
        const mine = new Map(ops.rot.map((r, i) => [key(r), i]));
        // Every operation of the dataset is among those found here; spglib's space-group search may then keep
        // fewer (sym_reduce_operation) when the raw set is not a group it can identify.
        for (const r of dsRot) expect(mine.has(key(r)), key(r)).toBe(true);
        expect(new Set(dsRot.map(key)).size).toBe(dsRot.length);
        if (ds.translations !== undefined) {
          // A primitive input cell: translations agree modulo 1 within symprec (in Å).
          ds.translations.forEach((tl, n) => {
            const mineT = ops.trans[mine.get(key(dsRot[n]))!];
            const d = mulVec(tInv, tl).map((x, j) => mineT[j] - x);
            const dc = mulVec(
              prim.cell!.lattice,
              d.map((x) => x - Math.round(x)),
            );
            expect(Math.hypot(...dc)).toBeLessThan(k.symprec);
          });
        }
      });
    }
  }

  it('finds Pnma (8 operations) in LiFePO4 at symprec 0.1 with angle tolerance 5, P2_1/c (4) with -1', () => {
    const byAngle = (angle: number) =>
      fixture.cases.find((k) => fixture.cells[k.cell].name.startsWith('LiFePO4') && k.symprec === 0.1 && k.angle_tolerance === angle)!;
    for (const [angle, number, size] of [
      [5, 62, 8],
      [-1, 14, 4],
    ]) {
      const k = byAngle(angle);
      expect(k.dataset!.number).toBe(number);
      const cell = makeCell(fixture.cells[k.cell]);
      const prim = prmGetPrimitive(cell, 0.1, angle)!;
      expect(prim.cell!.size).toBe(28);
      expect(symGetOperation(prim.cell!, 0.1, angle)!.size).toBe(size);
    }
  });

  it('keeps the cubic point group of a cell 2 degrees off only with the angle tolerance', () => {
    const k = fixture.cases.find((q) => fixture.cells[q.cell].name === 'sc angles 92/90/90')!;
    const cell = makeCell(fixture.cells[k.cell]);
    expect(symGetOperation(cell, 0.1, 5)!.size).toBe(48);
    expect(symGetOperation(cell, 0.1, -1)!.size).toBe(8);
  });

  it('agrees with the dataset rotations as a set in most cases', () => {
    let equal = 0;
    for (const k of fixture.cases) {
      const c = resolve(k);
      if (k.dataset !== null && c.operations !== null && new Set(k.dataset.rotations.map(key)).size === c.operations.rotations.length)
        equal++;
    }
    expect(equal).toBeGreaterThanOrEqual(110);
  });

  it('allocates and fills as C does', () => {
    expect(symAllocSymmetry(2)).toEqual({
      size: 2,
      rot: [
        [
          [0, 0, 0],
          [0, 0, 0],
          [0, 0, 0],
        ],
        [
          [0, 0, 0],
          [0, 0, 0],
          [0, 0, 0],
        ],
      ],
      trans: [
        [0, 0, 0],
        [0, 0, 0],
      ],
    });
    const p = prmAllocPrimitive(3);
    expect(p.mapping_table).toEqual([-1, -1, -1]);
    expect([p.cell, p.size, p.tolerance, p.angle_tolerance]).toEqual([null, 3, 0, -1]);

    // Rocksalt's conventional cell: four pure translations, reduced at a smaller tolerance to the same four,
    // and the primitive cell of two atoms from them.
    const salt = fixture.cells.find((q) => q.name === 'rocksalt NaCl conventional')!;
    const cell = makeCell(salt);
    const pure = symGetPureTranslation(cell, 0.01)!;
    expect(pure.size).toBe(4);
    const reduced = symReducePureTranslation(cell, pure, 0.005, -1)!;
    expect(reduced.vec).toEqual(pure.vec);
    const prim = prmAllocPrimitive(cell.size);
    expect(prmGetPrimitiveWithPureTrans(prim, cell, pure, 0.01, 5)).toBe(1);
    expect(prim.cell!.size).toBe(2);
    expect([prim.tolerance, prim.angle_tolerance]).toEqual([0.01, 5]);
  });
});
