/**
 * FEM page, "Benchmark vs physics" notes: each note appears exactly in its context. Where a trigger depends on
 * a computed quantity, the expected value comes from the golden data (the critical eigenvalue's multiplicity in
 * the case notes of MSA_3D_elastic_critical_load) or from geometry stated in the test (inverted elements, tilts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bucklingModes } from '../../src/core/tasks/fembench/lab/buckling-modes.ts';
import type { FrameModel } from '../../src/core/tasks/fembench/lab/frame-model.ts';
import { jacobianChecks, rectangleMesh } from '../../src/core/tasks/fembench/lab/mesh2d-view.ts';
import { benchmarkQuirkNotes, criticalMultiplicity, QUIRK_TEXT, type QuirkContext, type QuirkId } from '../../src/pages/fem/quirks.ts';
import { REPO_ROOT, REFERENCE } from '../../scripts/support/paths.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readJson = (p: string): any => JSON.parse(readFileSync(p, 'utf8'));
const examples: FrameModel[] = readJson(join(REPO_ROOT, 'datasets', 'fem', 'frames.json')).examples;
const example = (id: string): FrameModel => JSON.parse(JSON.stringify(examples.find((e) => e.id === id)!));
const ids = (ctx: QuirkContext): QuirkId[] => benchmarkQuirkNotes(ctx).map((n) => n.id);
const frame = (model: FrameModel, patch: Partial<Extract<QuirkContext, { view: 'frame' }>> = {}): QuirkContext => ({
  view: 'frame',
  model,
  showAxes: false,
  bucklingLambdas: null,
  error: null,
  ...patch,
});

/** A two-node column from the origin to (dx, dy, 1), with no local_z: tilted by ≈ hypot(dx, dy) rad. */
const column = (dx: number, dy: number, localZ: number[] | null = null): FrameModel => ({
  id: 'col',
  name: 'col',
  node_coords: [
    [0, 0, 0],
    [dx, dy, 1],
  ],
  elements: [{ node_i: 0, node_j: 1, E: 1, nu: 0.3, A: 1, I_y: 1, I_z: 1, J: 1, I_rho: 2, local_z: localZ }],
  boundary_conditions: { 0: [1, 1, 1, 1, 1, 1] },
  nodal_loads: { 1: [0, 0, -1, 0, 0, 0] },
});

describe('note texts', () => {
  it('are one sentence each, naming the reference', () => {
    for (const [id, text] of Object.entries(QUIRK_TEXT)) {
      expect(text, id).toMatch(/reference|LAPACK/);
      // one sentence: a single final full stop (decimal points and "e.g." aside)
      expect(text.replace(/\d\.\d|e\.g\./g, '').match(/\.(\s|$)/g)?.length, id).toBe(1);
    }
  });
});

describe('1D view', () => {
  it('x_min < x_max with the solution shown: only the reaction-order note', () => {
    expect(ids({ view: '1d', xMin: 0, xMax: 3, reactionsShown: true })).toEqual(['1d-reaction-order']);
  });
  it('x_min > x_max (the view refuses to solve): the reversed-bounds and negative-stiffness notes', () => {
    expect(ids({ view: '1d', xMin: 3, xMax: 0, reactionsShown: false })).toEqual(['1d-reversed-bounds', '1d-reversed-stiffness']);
  });
  it('x_min = x_max is not reversed', () => {
    expect(ids({ view: '1d', xMin: 1, xMax: 1, reactionsShown: false })).toEqual([]);
  });
});

describe('2D view', () => {
  // The e2e step's distortion: nx = 4, ny = 2 on [0,3]×[0,2], corner node 0 moved to (2.5, 1.8) inverts element 0.
  const mesh = rectangleMesh({ kind: 'Q8', nx: 4, ny: 2, xl: 0, yl: 0, xh: 3, yh: 2 });
  const invertedCount = (m: typeof mesh) => jacobianChecks(m, 4).filter((c) => c.inverted).length;

  it('an undistorted Q8 mesh: the edge-load fallback and batched-shape notes, no det J note', () => {
    expect(invertedCount(mesh)).toBe(0);
    expect(ids({ view: '2d', kind: 'Q8', invertedElements: 0 })).toEqual(['2d-q8-load-fallback', '2d-batched-shapes']);
  });
  it('an inverted Q8 element adds the signed det J note', () => {
    const moved = { ...mesh, coords: mesh.coords.map((c, i) => (i === 0 ? [2.5, 1.8] : c)) };
    const n = invertedCount(moved);
    expect(n).toBeGreaterThan(0);
    expect(ids({ view: '2d', kind: 'Q8', invertedElements: n })).toEqual(['2d-q8-load-fallback', '2d-signed-detj', '2d-batched-shapes']);
  });
  it('T6: only the batched-shape note, inverted or not (the signed det J and edge-load quirks are Q8 tasks)', () => {
    expect(ids({ view: '2d', kind: 'T6', invertedElements: 0 })).toEqual(['2d-batched-shapes']);
    expect(ids({ view: '2d', kind: 'T6', invertedElements: 2 })).toEqual(['2d-batched-shapes']);
  });
});

describe('3D frame view', () => {
  it('nearly vertical members without local_z: within 1e-3 of vertical (exactly, or beyond the 1e-8 test) → note; tilted → none', () => {
    expect(ids(frame(column(0, 0)))).toEqual(['3d-vertical-test']);
    expect(ids(frame(column(1e-6, 0)))).toEqual(['3d-vertical-test']);
    expect(ids(frame(column(0.5e-3, 0.5e-3)))).toEqual(['3d-vertical-test']);
    expect(ids(frame(column(0.01, 0)))).toEqual([]);
    expect(ids(frame(column(1, 0)))).toEqual([]);
  });
  it('local_z: a reference vector not perpendicular to the member → note; a perpendicular one only with the local axes shown', () => {
    expect(ids(frame(column(0, 0, [1, 0, 0])))).toEqual([]);
    expect(ids(frame(column(0, 0, [1, 0, 0]), { showAxes: true }))).toEqual(['3d-local-z']);
    expect(ids(frame(column(0, 0, [Math.SQRT1_2, 0, Math.SQRT1_2])))).toEqual(['3d-local-z']);
    // no local_z anywhere: the axes shown do not bring the local_z note
    expect(ids(frame(column(1, 0), { showAxes: true }))).toEqual([]);
  });
  it('supports on node indices outside the model → the partition note', () => {
    const m = column(1, 0);
    m.boundary_conditions['2'] = [1, 1, 1, 0, 0, 0];
    expect(ids(frame(m))).toEqual(['3d-partition-out-of-range']);
    m.boundary_conditions = { 1: [1, 1, 1, 0, 0, 0], '-1': [1, 0, 0, 0, 0, 0] };
    expect(ids(frame(m))).toEqual(['3d-partition-out-of-range']);
    m.boundary_conditions = { 0: [1, 1, 1, 1, 1, 1], 1: [0, 1, 0, 0, 0, 0] };
    expect(ids(frame(m))).toEqual([]);
  });
  it('buckling: I_rho and realness notes; the repeated-eigenvalue note only when λ_cr is repeated', () => {
    expect(ids(frame(column(1, 0), { bucklingLambdas: [1, 2, 3] }))).toEqual(['3d-i-rho', '3d-realness']);
    expect(ids(frame(column(1, 0), { bucklingLambdas: [1, 1 + 1e-9, 3] }))).toEqual(['3d-i-rho', '3d-repeated-eigenvalue', '3d-realness']);
    expect(ids(frame(column(1, 0), { bucklingLambdas: [1, 1 + 1e-4] }))).toEqual(['3d-i-rho', '3d-realness']);
  });
  it('errors: a missing I_rho brings its note; a "significantly complex" rejection brings the realness note', () => {
    expect(ids(frame(column(1, 0), { error: 'The buckling analysis needs I_rho (polar moment of inertia) on every element.' }))).toEqual([
      '3d-i-rho',
    ]);
    expect(
      ids(
        frame(column(1, 0), { error: 'Eigen-solution returned significantly complex eigenpairs (relative imag=2.389e-13). (ValueError)' }),
      ),
    ).toEqual(['3d-realness']);
    expect(ids(frame(column(1, 0), { error: 'Node 0 needs three finite coordinates.' }))).toEqual([]);
  });
  for (const id of ['cantilever-euler', 'inclined-cantilever']) {
    it(`${id}: the computed modes' multiplicity equals the golden case note, and the repeated-eigenvalue note follows it`, () => {
      const ex = example(id);
      const expected = readJson(join(REFERENCE, 'golden', 'fembench', `${ex.source!.task}.json`)).cases[ex.source!.case].notes
        .selected_eigenvalue_multiplicity;
      const lambdas = bucklingModes(ex, 3).modes.map((m) => m.lambda);
      expect(criticalMultiplicity(lambdas)).toBe(expected);
      expect(ids(frame(ex, { bucklingLambdas: lambdas })).includes('3d-repeated-eigenvalue')).toBe(expected > 1);
    });
  }
  it('the default example (braced portal, vertical columns without local_z): only the vertical-test note before any analysis', () => {
    expect(ids(frame(example('portal-braced')))).toEqual(['3d-vertical-test']);
  });
});

describe('model outputs view', () => {
  it('no task chosen: no notes', () => {
    expect(ids({ view: 'outputs', taskId: null })).toEqual([]);
  });
  const expected: Record<string, QuirkId[]> = {
    FEM_1D_local_elastic_stiffness_CC0_H3_T1: ['1d-reversed-stiffness'],
    FEM_1D_uniform_mesh_CC0_H0_T0: ['1d-reversed-bounds'],
    FEM_1D_linear_elastic_CC0_H0_T0: ['1d-reaction-order'],
    FEM_2D_quad8_element_distributed_load_CC0_H0_T0: ['2d-q8-load-fallback'],
    FEM_2D_quad8_integral_of_derivative_CC0_H3_T3: ['2d-signed-detj'],
    FEM_2D_quad8_shape_fcns_and_derivatives_CC0_H0_T0: ['2d-batched-shapes'],
    FEM_2D_quad_quadrature_CC0_H0_T0: [],
    FEM_2D_quad8_mesh_rectangle_CC0_H0_T0: [],
    MSA_3D_local_elastic_stiffness_CC0_H0_T0: [],
    MSA_3D_assemble_global_load_CC0_H0_T0: [],
    MSA_3D_partition_DOFs_CC0_H0_T0: ['3d-partition-out-of-range'],
    MSA_3D_transformation_matrix_CC0_H0_T0: ['3d-local-z', '3d-vertical-test'],
    MSA_3D_assemble_global_geometric_stiffness_CC1_H4_T2: ['3d-local-z', '3d-vertical-test', '3d-i-rho'],
    MSA_3D_solve_eigenvalue_CC1_H1_T3: ['3d-partition-out-of-range', '3d-eigen-sign', '3d-realness'],
    MSA_3D_elastic_critical_load_CC1_H10_T1: [
      '3d-local-z',
      '3d-vertical-test',
      '3d-partition-out-of-range',
      '3d-i-rho',
      '3d-repeated-eigenvalue',
      '3d-realness',
    ],
  };
  for (const [task, want] of Object.entries(expected)) {
    it(`${task}: ${want.join(', ') || 'none'}`, () => expect(ids({ view: 'outputs', taskId: task })).toEqual(want));
  }
  it('every note is reachable from some context', () => {
    const all = new Set<QuirkId>();
    for (const t of Object.keys(expected)) for (const id of ids({ view: 'outputs', taskId: t })) all.add(id);
    expect([...all].sort()).toEqual(Object.keys(QUIRK_TEXT).sort());
  });
});
