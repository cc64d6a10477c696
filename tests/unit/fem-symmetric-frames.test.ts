/**
 * Regular grid frames under symmetric loads (issue 27): square bays, columns with I_y = I_z and gravity alone give the
 * frame a fourfold symmetry, so the critical λ is repeated (sway in x and in y). The fast path (msa/frame-fast.ts) must
 * answer on them — no hand-back to the dense path — with the dense path's λ (1e-6 relative) and a mode that the
 * comparator `fem check` applies (compare.ts with equivalence.ts) accepts against the dense path's answer and the other
 * way round, as it accepts the FEM-Bench reference's LAPACK pick of the eigenspace.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeFemInputs } from '../../src/core/tasks/fembench/codec.ts';
import { compareResults } from '../../src/core/tasks/fembench/compare.ts';
import { alternativeSolutionCheck } from '../../src/core/tasks/fembench/equivalence.ts';
import { criticalLoadFast } from '../../src/core/tasks/fembench/msa/frame-fast.ts';
import { criticalLoadDense, decodeFrameCase } from '../../src/core/tasks/fembench/msa/index.ts';
import {
  assembleElasticStiffness,
  assembleGeometricStiffness,
  assembleLoad,
  partitionDofs,
} from '../../src/core/tasks/fembench/msa/frame.ts';
import { femTask } from '../../src/core/tasks/fembench/registry.ts';
import type { FemValue } from '../../src/core/tasks/fembench/types.ts';
import { bandedCholeskyFactor, bandedCholeskySolve, bandedZeros, bandedAdd } from '../../src/core/math/linalg.ts';
import { type FrameCaseInputs, nearlySymmetricGrid, symmetricGrid } from '../../scripts/support/fem-frames.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const TASK = 'MSA_3D_elastic_critical_load_CC1_H10_T1';

const inputsOf = (i: FrameCaseInputs) => decodeFemInputs(i as unknown as Record<string, unknown>);

function fast(inputs: Record<string, FemValue>) {
  const c = decodeFrameCase(inputs);
  const f = criticalLoadFast(c.xyz, c.els, c.bcs, c.nodalLoads);
  if (!f) throw new Error('the fast path handed the frame back to the dense path');
  return f;
}

/** `fem check`'s verdict on one case: the candidate's output against the reference's, alternatives included. */
function accepted(inputs: Record<string, FemValue>, reference: FemValue, candidate: FemValue): boolean {
  const same = alternativeSolutionCheck(femTask(TASK)!)!;
  const report = compareResults(TASK, [{ output: reference }], [{ output: candidate }], [undefined], [(r, c) => same(inputs, r, c)]);
  return report.passed;
}

/**
 * ‖(K + λK_g)φ‖ / ‖Kφ‖ on the free DOFs, with K_g from the displacements of a banded solve (no dense factorisation: the
 * 1,015-element frame has 2,058 free DOFs).
 */
function relativeResidual(inputs: Record<string, FemValue>, lambda: number, mode: ArrayLike<number>): number {
  const c = decodeFrameCase(inputs);
  const K = assembleElasticStiffness(c.xyz, c.els);
  const { free } = partitionDofs(c.bcs, c.xyz.length);
  const n = free.length;
  let w = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) if (K.a[free[i] * K.n + free[j]] !== 0) w = Math.max(w, i - j);
  const band = bandedZeros(n, w);
  for (let i = 0; i < n; i++) for (let j = Math.max(0, i - w); j <= i; j++) bandedAdd(band, i, j, K.a[free[i] * K.n + free[j]]);
  const P = assembleLoad(c.nodalLoads(), c.xyz.length);
  const uf = bandedCholeskySolve(
    bandedCholeskyFactor(band),
    free.map((d) => P[d]),
  );
  const u = new Float64Array(K.n);
  free.forEach((d, k) => (u[d] = uf[k]));
  const Kg = assembleGeometricStiffness(c.xyz, c.els, u);
  let residual = 0,
    scale = 0;
  for (const i of free) {
    let ke = 0,
      kg = 0;
    for (const j of free) {
      ke += 0.5 * (K.a[i * K.n + j] + K.a[j * K.n + i]) * mode[j];
      kg += 0.5 * (Kg.a[i * K.n + j] + Kg.a[j * K.n + i]) * mode[j];
    }
    residual += (ke + lambda * kg) ** 2;
    scale += ke ** 2;
  }
  return Math.sqrt(residual / scale);
}

describe('critical load of symmetric grid frames (repeated λ) on the fast path', () => {
  it.each([
    [3, 3, 54],
    [4, 4, 144],
  ])('%i² nodes a floor, %i floors (%i elements): the dense path λ, a mode fem check accepts both ways', (n, storeys, count) => {
    const frame = symmetricGrid(n, storeys);
    expect(frame.elements).toHaveLength(count);
    const inputs = inputsOf(frame);
    const f = fast(inputs);
    const c = decodeFrameCase(inputs);
    const d = criticalLoadDense(c.xyz, c.els, c.bcs, c.nodalLoads);
    expect(d.multiplicity).toBe(2);
    expect(Math.abs(f.lambda - d.lambda) / d.lambda).toBeLessThan(1e-6);
    const ours: FemValue = [f.lambda, Array.from(f.mode)];
    const dense: FemValue = [d.lambda, Array.from(d.mode)];
    expect(accepted(inputs, dense, ours)).toBe(true);
    expect(accepted(inputs, ours, dense)).toBe(true);
    // The task itself answers from the fast path.
    expect(femTask(TASK)!.run(inputs)).toEqual(ours);
  });

  it("accepts ours against the numpy/scipy reference's LAPACK pick of the eigenspace, and that pick against ours", () => {
    const golden = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'fembench_repeated', 'symmetric-grid-144.json'), 'utf8'));
    const [{ inputs: raw, output: lapack }] = golden.cases as { inputs: FrameCaseInputs; output: [number, number[]] }[];
    expect(raw).toEqual(JSON.parse(JSON.stringify(symmetricGrid(4, 4))));
    const inputs = inputsOf(raw);
    const f = fast(inputs);
    expect(Math.abs(f.lambda - lapack[0]) / lapack[0]).toBeLessThan(1e-6);
    const ours: FemValue = [f.lambda, Array.from(f.mode)];
    expect(accepted(inputs, lapack, ours)).toBe(true);
    expect(accepted(inputs, ours, lapack)).toBe(true);
  });

  it.each([
    [6, 6, 540],
    [7, 8, 1015],
  ])('%i² nodes a floor, %i floors (%i elements) take the fast path: repeated λ, unit mode solving the pencil', (n, storeys, count) => {
    const frame = symmetricGrid(n, storeys);
    expect(frame.elements).toHaveLength(count);
    const inputs = inputsOf(frame);
    const f = fast(inputs);
    expect(femTask(TASK)!.run(inputs)).toEqual([f.lambda, Array.from(f.mode)]);
    let norm = 0;
    for (const x of f.mode) norm += x * x;
    expect(Math.abs(Math.sqrt(norm) - 1)).toBeLessThan(1e-12);
    // equivalence.ts accepts a mode whose residual is below 1e-6 of ‖Kφ‖; the fast path's is round-off.
    expect(relativeResidual(inputs, f.lambda, f.mode)).toBeLessThan(1e-9);
  });

  it.each([1e-7, 5e-8])('the 540-element grid with a λ split of about %s (nearly repeated) stays on the fast path', (split) => {
    const inputs = inputsOf(nearlySymmetricGrid(6, 6, split));
    const f = fast(inputs);
    expect(relativeResidual(inputs, f.lambda, f.mode)).toBeLessThan(1e-9);
  });
});

describe('nearly repeated critical λ against the numpy/scipy reference (LAPACK QZ)', () => {
  const golden = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'fembench_repeated', 'nearly-symmetric-grids.json'), 'utf8'));
  const cases = golden.cases as { split: number; inputs: FrameCaseInputs; output: [number, number[]] }[];

  it('holds the 144-element grid stretched by 1e-6 … 1e-10 in y, as the fixture script builds it', () => {
    expect(cases.map((c) => c.split)).toEqual([1e-6, 1e-7, 3e-8, 2e-8, 1e-8, 1e-9, 1e-10]);
    for (const c of cases) expect(c.inputs).toEqual(JSON.parse(JSON.stringify(nearlySymmetricGrid(4, 4, c.split))));
  });

  // Every solver's mode is accurate to about ε/split only: LAPACK's and ours differ by 6e-8 (split 1e-6) to 1.5e-4
  // (1e-10), past the comparator's atol 1e-8, so fem check must accept each against the other as eigenspace vectors.
  it.each(cases.map((c) => [c.split, c] as const))('split %s: the fast path, the reference λ, fem check both ways', (_, c) => {
    const inputs = inputsOf(c.inputs);
    const f = fast(inputs);
    expect(Math.abs(f.lambda - c.output[0]) / c.output[0]).toBeLessThan(1e-9);
    const ours: FemValue = [f.lambda, Array.from(f.mode)];
    expect(accepted(inputs, c.output, ours)).toBe(true);
    expect(accepted(inputs, ours, c.output)).toBe(true);
  });

  it("refuses modes that leave λ's eigenspace, however close to the reference's, and another λ", () => {
    const c = cases[1];
    const inputs = inputsOf(c.inputs);
    const [lambda, mode] = c.output;
    for (const size of [1e-4, 1e-6, 1e-7]) {
      // A smooth nudge on the loaded DOFs: mostly other eigenvectors of the pencil, far from λ.
      const nudged = mode.map((x, i) => (x === 0 ? 0 : x + size * Math.sin(1.7 * i)));
      const norm = Math.hypot(...nudged);
      expect(accepted(inputs, c.output, [lambda, nudged.map((x) => x / norm)]), `nudge ${size}`).toBe(false);
    }
    expect(accepted(inputs, c.output, [lambda * 1.001, mode])).toBe(false);
    expect(accepted(inputs, c.output, [lambda, mode.map((x) => -x)])).toBe(false);
  });
});
