/**
 * FEM page, 2D and 1D helpers. Expected values: golden mesh outputs (node counts), geometry (det J of an
 * undistorted element = area ratio), partition of unity, and the golden 1D cases (analytical bar solutions).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  gaussPoints,
  jacobianChecks,
  rectangleMesh,
  shapeAt,
  shapeFunctionSamples,
} from '../../src/core/tasks/fembench/lab/mesh2d-view.ts';
import { analyticBar, solveBar, type BarSpec } from '../../src/core/tasks/fembench/lab/one-d-view.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const golden = (task: string): any => JSON.parse(readFileSync(join(REFERENCE, 'golden', 'fembench', `${task}.json`), 'utf8'));

describe('2D meshes', () => {
  it('have the golden node and element counts (Q8 and T6 mesh_rectangle cases)', () => {
    let checked = 0;
    for (const [task, kind] of [
      ['FEM_2D_quad8_mesh_rectangle_CC0_H0_T0', 'Q8'],
      ['FEM_2D_tri6_mesh_rectangle_CC0_H0_T0', 'T6'],
    ] as const) {
      for (const c of golden(task).cases) {
        if (!c.output) continue;
        const { xl, yl, xh, yh, nx, ny } = c.inputs;
        if (nx * ny > 400) continue;
        const mesh = rectangleMesh({ kind, nx, ny, xl, yl, xh, yh });
        expect(mesh.coords.length).toBe(c.output[0].length);
        expect(mesh.connect.length).toBe(c.output[1].length);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(4);
  });

  it('Q8 3×2 on [0,3]×[0,2]: (2nx+1)(2ny+1) − nx·ny = 29 nodes; det J = area/4 everywhere (1e-12)', () => {
    const mesh = rectangleMesh({ kind: 'Q8', nx: 3, ny: 2, xl: 0, yl: 0, xh: 3, yh: 2 });
    expect(mesh.coords.length).toBe(7 * 5 - 6);
    for (const c of jacobianChecks(mesh, 9)) {
      expect(c.min).toBeCloseTo(0.25, 12);
      expect(c.max).toBeCloseTo(0.25, 12);
      expect(c.inverted).toBe(false);
    }
    expect(gaussPoints(mesh, 4)).toHaveLength(4 * 6);
  });

  it('T6: det J = twice the triangle area', () => {
    const mesh = rectangleMesh({ kind: 'T6', nx: 2, ny: 1, xl: 0, yl: 0, xh: 4, yh: 1 });
    for (const c of jacobianChecks(mesh, 3)) expect(Math.abs(c.min)).toBeCloseTo((2 * (2 * 1)) / 2, 12);
  });

  it('moving a corner node past the opposite corner flags that element as inverted', () => {
    const mesh = rectangleMesh({ kind: 'Q8', nx: 1, ny: 1, xl: 0, yl: 0, xh: 1, yh: 1 });
    const corner = mesh.connect[0][2]; // (1, 1)
    mesh.coords[corner] = [-0.5, -0.5];
    expect(jacobianChecks(mesh, 4)[0].inverted).toBe(true);
  });

  it('shape functions: N_a(node b) = δ_ab and Σ N_a = 1 (partition of unity, 1e-12)', () => {
    const q8Nodes = [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
      [0, -1],
      [1, 0],
      [0, 1],
      [-1, 0],
    ];
    q8Nodes.forEach(([x, y], b) => shapeAt('Q8', x, y).N.forEach((v, a) => expect(v).toBeCloseTo(a === b ? 1 : 0, 12)));
    const mesh = rectangleMesh({ kind: 'T6', nx: 1, ny: 1, xl: 0, yl: 0, xh: 1, yh: 1 });
    const sum = new Array(6).fill(0).map((_, a) => shapeFunctionSamples(mesh, 0, a, 4));
    for (let i = 0; i <= 4; i++) for (let j = 0; j <= 4; j++) expect(sum.reduce((s, g) => s + g[i][j].value, 0)).toBeCloseTo(1, 12);
  });

  it('refuses too large a mesh with a sentence', () => {
    expect(() => rectangleMesh({ kind: 'Q8', nx: 100, ny: 100, xl: 0, yl: 0, xh: 1, yh: 1 })).toThrow(/At most 400 cells/);
  });
});

describe('1D bar', () => {
  const base: BarSpec = { xMin: 0, xMax: 3, nElements: 3, E: 1e11, A: 1e-3, bodyForce: [1000], uLeft: 0, tipLoad: 0 };
  it('body force: the solver and the closed form both give golden test_analytical_solution (rtol 1e-12)', () => {
    const c = golden('FEM_1D_linear_elastic_CC0_H0_T0').cases.find(
      (x: { source: string }) => x.source === 'test:test_analytical_solution#0',
    );
    const sol = solveBar(base);
    const exact = analyticBar(base);
    c.output.displacements.forEach((u: number, i: number) => {
      expect(Math.abs(sol.u[i] - u)).toBeLessThanOrEqual(1e-12 * 4.5e-5);
      expect(Math.abs(exact.u(c.output.node_coords[i]) - u)).toBeLessThanOrEqual(1e-12 * 4.5e-5);
    });
    expect(sol.reaction).toBeCloseTo(c.output.reactions[0], 8);
    // σ(0) = total load / A = f·L/A
    expect(exact.stress(0)).toBeCloseTo((1000 * 3) / 1e-3, 6);
  });
  it('tip load: golden verification case 3 (E = 1e8, P = −500 at x = 3); constant stress P/A', () => {
    const c = golden('FEM_1D_linear_elastic_CC0_H0_T0').cases[3];
    const spec: BarSpec = { ...base, E: 1e8, A: 1, bodyForce: [0], tipLoad: -500 };
    const sol = solveBar(spec),
      exact = analyticBar(spec);
    c.output.displacements.forEach((u: number, i: number) => {
      expect(sol.u[i]).toBeCloseTo(u, 15);
      expect(exact.u(sol.x[i])).toBeCloseTo(u, 15);
    });
    sol.stress.forEach((s) => expect(s).toBeCloseTo(-500, 8));
  });
  it('bad input is a sentence', () => {
    expect(() => solveBar({ ...base, nElements: 0 })).toThrow(/number of elements/);
    expect(() => solveBar({ ...base, xMax: -1 })).toThrow(/x_max must be greater/);
  });
});
