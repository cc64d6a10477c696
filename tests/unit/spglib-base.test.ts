/**
 * The foundation of the spglib v2.0.2 port (src/core/symmetry/spglib/{mathfunc,cell,overlap,delaunay}.ts)
 * against spglib 2.0.2 itself: tests/reference/golden/spglib/base.json, written by
 * scripts/make-spglib-base-fixtures.py from Python's spglib.delaunay_reduce and, through ctypes, the C
 * functions of Debian's python3-spglib (mat_Nint, mat_Dmod1, mat_inverse_matrix_d3, del_delaunay_reduce_2D,
 * cel_any_overlap*, cel_trim_cell, ovl_check_total_overlap).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import {
  celAllocCell,
  celAnyOverlap,
  celAnyOverlapWithSameType,
  celCopyCell,
  celSetCell,
  celTrimCell,
} from '../../src/core/symmetry/spglib/cell.ts';
import { delDelaunayReduce, delDelaunayReduce2D } from '../../src/core/symmetry/spglib/delaunay.ts';
import {
  matCopyMatrixD3,
  matCopyVectorI3,
  matCrossProductD3,
  matDmod1,
  matGetDeterminantD3,
  matGetSimilarMatrixD3,
  matInverseMatrixD3,
  matMultiplyMatrixD3,
  matMultiplyMatrixVectorD3,
  matMultiplyMatrixVectorDi3,
  matNint,
  matTransposeMatrixD3,
  matTransposeMatrixI3,
} from '../../src/core/symmetry/spglib/mathfunc.ts';
import { ovlCheckTotalOverlap, ovlOverlapCheckerInit } from '../../src/core/symmetry/spglib/overlap.ts';
import type { Cell, Mat3, Vec3 } from '../../src/core/symmetry/spglib/types.ts';

interface TrimCase {
  name: string;
  lattice: Mat3;
  positions: Vec3[];
  types: number[];
  trimmedLattice: Mat3;
  symprec: number;
  anyOverlapWithSameType: number;
  anyOverlap: number;
  trimmed: { lattice: Mat3; types: number[]; positions: Vec3[]; mapping: number[] } | null;
}

const golden = JSON.parse(readFileSync(join(REFERENCE, 'golden/spglib/base.json'), 'utf8')) as {
  nint: [number, number][];
  dmod1: [number, number][];
  inverse: { a: Mat3; precision: number; ok: number; m: Mat3 | null }[];
  delaunay: { name: string; lattice: Mat3; eps: number; reduced: Mat3 | null }[];
  delaunay2d: { name: string; lattice: Mat3; uniqueAxis: number; eps: number; ok: number; reduced: Mat3 | null }[];
  overlap: {
    lattice: Mat3;
    positions: Vec3[];
    types: number[];
    cases: { kind: string; rot: Mat3; trans: Vec3; isIdentity: number; symprec: number; result: number }[];
  };
  trim: TrimCase[];
};

const transpose = (m: Mat3): Mat3 => [0, 1, 2].map((i) => [0, 1, 2].map((j) => m[j][i]));
const maxAbsDiff = (a: number[][], b: number[][]): number => Math.max(...a.flatMap((row, i) => row.map((x, j) => Math.abs(x - b[i][j]))));

function makeCell(lattice: Mat3, positions: Vec3[], types: number[]): Cell {
  const cell = celAllocCell(types.length);
  if (cell === null) throw new Error('empty cell');
  celSetCell(cell, lattice, positions, types);
  return cell;
}

describe('mathfunc', () => {
  it('matNint rounds halves away from zero like (int)(a ± 0.5), never returning -0', () => {
    for (const [x, n] of golden.nint) {
      expect(matNint(x), `nint(${x})`).toBe(n);
      expect(Object.is(matNint(x), -0), `nint(${x}) is -0`).toBe(false);
    }
    expect(matNint(-0.5)).toBe(-1);
    expect(matNint(0.5)).toBe(1);
    expect(matNint(-2.5)).toBe(-3);
    // 0.49999999999999994 + 0.5 rounds to 1.0 in double arithmetic, so C's Nint gives 1.
    expect(matNint(0.49999999999999994)).toBe(1);
  });

  it('matDmod1 matches C, negative halves included', () => {
    for (const [x, v] of golden.dmod1) expect(matDmod1(x), `dmod1(${x})`).toBe(v);
    expect(matDmod1(-0.5)).toBe(0.5);
    expect(matDmod1(0.5)).toBe(0.5);
    expect(matDmod1(-1.5)).toBe(0.5);
    expect(matDmod1(-1e-11)).toBe(-1e-11); // within ZERO_PREC of zero: left negative
  });

  it('matInverseMatrixD3 returns C’s int, writes m only on success, and allows m to alias a', () => {
    for (const { a, precision, ok, m } of golden.inverse) {
      const out = [
        [-7, -7, -7],
        [-7, -7, -7],
        [-7, -7, -7],
      ];
      expect(matInverseMatrixD3(out, a, precision)).toBe(ok);
      if (m === null) expect(out.flat().every((x) => x === -7)).toBe(true);
      else expect(out).toEqual(m);
      const alias = a.map((r) => [...r]);
      matInverseMatrixD3(alias, alias, precision);
      expect(alias).toEqual(m ?? a);
    }
  });

  it('products, transposes and similarity transforms allow the output to alias an input', () => {
    const a = [
      [1, 2, 0.5],
      [-1, 3, 2],
      [0, 1, 4],
    ];
    const b = [
      [2, 0, 1],
      [1, 1, 0],
      [0, -1, 3],
    ];
    const ab = [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ];
    matMultiplyMatrixD3(ab, a, b);
    const m = a.map((r) => [...r]);
    matMultiplyMatrixD3(m, m, b);
    expect(m).toEqual(ab);
    const m2 = b.map((r) => [...r]);
    matMultiplyMatrixD3(m2, a, m2);
    expect(m2).toEqual(ab);
    const t = a.map((r) => [...r]);
    matTransposeMatrixD3(t, t);
    expect(t).toEqual(transpose(a));
    const v = [1, -2, 3];
    matMultiplyMatrixVectorD3(v, a, v);
    expect(v).toEqual([1 * 1 + 2 * -2 + 0.5 * 3, -1 * 1 + 3 * -2 + 2 * 3, 1 * -2 + 4 * 3]);
    // b^-1 a b has a's determinant; m may be a.
    const s = a.map((r) => [...r]);
    expect(matGetSimilarMatrixD3(s, s, b, 1e-8)).toBe(1);
    expect(matGetDeterminantD3(s)).toBeCloseTo(matGetDeterminantD3(a), 12);
    const cross = [0, 0, 0];
    matCrossProductD3(cross, [1, 0, 0], [0, 1, 0]);
    expect(cross).toEqual([0, 0, 1]);
    const c = [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ];
    matCopyMatrixD3(c, a);
    expect(c).toEqual(a);
    expect(c[0]).not.toBe(a[0]);
    const ti = b.map((r) => [...r]);
    matTransposeMatrixI3(ti, ti);
    expect(ti).toEqual(transpose(b));
    const w = [1, 0, -1];
    matMultiplyMatrixVectorDi3(w, a, w);
    expect(w).toEqual([0.5, -3, -4]);
    const wi = [0, 0, 0];
    matCopyVectorI3(wi, [3, -1, 2]);
    expect(wi).toEqual([3, -1, 2]);
  });
});

describe('delaunay', () => {
  it(`delDelaunayReduce matches spglib.delaunay_reduce on ${golden.delaunay.length} lattices`, () => {
    let failures = 0;
    for (const { name, lattice, eps, reduced } of golden.delaunay) {
      // Python's rows are the basis vectors; C's lattice holds them as columns.
      const out = [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ];
      const ok = delDelaunayReduce(out, transpose(lattice), eps);
      expect(ok, name).toBe(reduced === null ? 0 : 1);
      if (reduced === null) {
        failures++;
        continue;
      }
      expect(maxAbsDiff(transpose(out), reduced), name).toBeLessThanOrEqual(1e-12);
      // In place too (minLattice === lattice).
      const inPlace = transpose(lattice);
      delDelaunayReduce(inPlace, inPlace, eps);
      expect(inPlace, name).toEqual(out);
    }
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(golden.delaunay.length);
  });

  it(`delDelaunayReduce2D matches C's del_delaunay_reduce_2D on ${golden.delaunay2d.length} cases`, () => {
    for (const { name, lattice, uniqueAxis, eps, ok, reduced } of golden.delaunay2d) {
      const out = [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ];
      expect(delDelaunayReduce2D(out, lattice, uniqueAxis, eps), `${name} axis ${uniqueAxis}`).toBe(ok);
      if (reduced !== null) expect(maxAbsDiff(out, reduced), `${name} axis ${uniqueAxis}`).toBeLessThanOrEqual(1e-12);
    }
  });
});

describe('overlap', () => {
  const { lattice, positions, types, cases } = golden.overlap;
  const cell = makeCell(lattice, positions, types);

  /** Every moved atom lands on an atom of its type within symprec (atoms are far apart: a bijection). */
  function bruteForce(rot: Mat3, trans: Vec3, symprec: number): number {
    for (let i = 0; i < cell.size; i++) {
      const p = cell.position[i];
      const q = [0, 1, 2].map((r) => rot[r][0] * p[0] + rot[r][1] * p[1] + rot[r][2] * p[2] + trans[r]);
      const hit = cell.position.some((o, j) => {
        if (cell.types[j] !== cell.types[i]) return false;
        const d = [0, 1, 2].map((k) => q[k] - o[k] - Math.round(q[k] - o[k]));
        const c = [0, 1, 2].map((r) => lattice[r][0] * d[0] + lattice[r][1] * d[1] + lattice[r][2] * d[2]);
        return Math.hypot(c[0], c[1], c[2]) <= symprec;
      });
      if (!hit) return 0;
    }
    return 1;
  }

  it(`ovlCheckTotalOverlap matches C and a brute-force check on ${cases.length} operations`, () => {
    const checker = ovlOverlapCheckerInit(cell);
    const kinds = new Map<string, number[]>();
    for (const { kind, rot, trans, isIdentity, symprec, result } of cases) {
      const label = `${kind} ${JSON.stringify(rot)} ${JSON.stringify(trans)} ${symprec}`;
      expect(ovlCheckTotalOverlap(checker, trans, rot, symprec, isIdentity), label).toBe(result);
      expect(bruteForce(rot, trans, symprec), label).toBe(result);
      kinds.set(kind, [...(kinds.get(kind) ?? []), result]);
    }
    expect(kinds.get('real')!.every((r) => r === 1)).toBe(true);
    expect(kinds.get('perturbed')!.every((r) => r === 0)).toBe(true);
    expect(kinds.get('nudged')!.every((r) => r === 1)).toBe(true);
    expect(kinds.get('nudged-tight')!.every((r) => r === 0)).toBe(true);
    // The checker keeps its own sorted copy: the cell can change afterwards.
    const copy = celCopyCell(cell)!;
    const checker2 = ovlOverlapCheckerInit(copy);
    copy.position[0][0] += 0.1;
    const real = cases.find((c) => c.kind === 'real')!;
    expect(ovlCheckTotalOverlap(checker2, real.trans, real.rot, real.symprec, 0)).toBe(1);
  });
});

describe('cell', () => {
  it.each(golden.trim.map((c) => [c.name, c] as const))('%s: celAnyOverlap* and celTrimCell match C', (_, c) => {
    const cell = makeCell(c.lattice, c.positions, c.types);
    expect(celAnyOverlapWithSameType(cell, c.symprec)).toBe(c.anyOverlapWithSameType);
    expect(celAnyOverlap(cell, c.symprec)).toBe(c.anyOverlap);
    const mapping = new Array<number>(cell.size).fill(-1);
    const trimmed = celTrimCell(mapping, c.trimmedLattice, cell, c.symprec);
    if (c.trimmed === null) {
      expect(trimmed).toBeNull();
      return;
    }
    expect(trimmed).not.toBeNull();
    expect(trimmed!.aperiodic_axis).toBe(-1);
    expect(trimmed!.size).toBe(c.trimmed.types.length);
    expect(trimmed!.lattice).toEqual(c.trimmed.lattice);
    expect(trimmed!.types).toEqual(c.trimmed.types);
    expect(mapping).toEqual(c.trimmed.mapping);
    expect(maxAbsDiff(trimmed!.position, c.trimmed.positions)).toBeLessThanOrEqual(1e-12);
  });

  it('a 2x1x1 supercell overlaps itself nowhere and trims back to its primitive cell', () => {
    const c = golden.trim.find((t) => t.name === 'nacl-2x1x1')!;
    const cell = makeCell(c.lattice, c.positions, c.types);
    expect(celAnyOverlapWithSameType(cell, 1e-5)).toBe(0);
    const mapping: number[] = [];
    const prim = celTrimCell(mapping, c.trimmedLattice, cell, 1e-5)!;
    expect(prim.size).toBe(2);
    expect(prim.types).toEqual([11, 17]);
    expect(mapping).toEqual([0, 1, 0, 1]);
    expect(
      maxAbsDiff(prim.position, [
        [0, 0, 0],
        [0.5, 0.5, 0.5],
      ]),
    ).toBeLessThanOrEqual(1e-12);
    expect(celAnyOverlapWithSameType(prim, 1e-5)).toBe(0);
    // celSetCell reduces positions into [-0.5, 0.5] with C's Nint; celAllocCell refuses empty cells.
    expect(makeCell(c.lattice, [[1.5, -0.7, 0.25]], [1]).position[0]).toEqual([-0.5, 0.30000000000000004, 0.25]);
    expect(celAllocCell(0)).toBeNull();
  });
});
