/**
 * FEM page, 3D frame helpers. Expected values: the FEM-Bench golden outputs (linear_elastic, elastic_critical_load),
 * Euler's column formulas and Euler–Bernoulli beam theory (independent of the code under test).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { femTask } from '../../src/core/tasks/fembench/registry.ts';
import { bucklingModes, LINEAR_TASK } from '../../src/core/tasks/fembench/lab/buckling-modes.ts';
import {
  autoScale,
  deformedPieces,
  reactionRows,
  supportKind,
  taskInputs,
  validateModel,
  type FrameModel,
} from '../../src/core/tasks/fembench/lab/frame-model.ts';
import { REFERENCE, REPO_ROOT } from '../../scripts/support/paths.ts';
import { expectRelClose } from '../expect.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readJson = (p: string): any => JSON.parse(readFileSync(p, 'utf8'));
const examples: FrameModel[] = readJson(join(REPO_ROOT, 'datasets', 'fem', 'frames.json')).examples;
const golden = (task: string) => readJson(join(REFERENCE, 'golden', 'fembench', `${task}.json`));

describe('embedded frame examples', () => {
  it('are the golden cases (inputs unchanged apart from an added I_rho)', () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    for (const ex of examples) {
      const c = golden(ex.source!.task).cases[ex.source!.case];
      expect(ex.node_coords).toEqual(c.inputs.node_coords);
      expect(ex.boundary_conditions).toEqual(c.inputs.boundary_conditions);
      expect(ex.nodal_loads).toEqual(c.inputs.nodal_loads);
      ex.elements.forEach((e, k) => {
        const { I_rho: _added, ...rest } = e;
        const { I_rho: _golden, ...goldenRest } = c.inputs.elements[k];
        expect(rest).toEqual(goldenRest);
        if (_golden !== undefined) expect(_added).toBe(_golden);
      });
      expect(validateModel(ex)).toBeNull();
    }
  });

  it('solve to the golden displacements and reactions (linear_elastic sources; rtol 1e-9)', () => {
    let checked = 0;
    for (const ex of examples.filter((e) => e.source!.task.startsWith('MSA_3D_linear_elastic'))) {
      const [refU, refR] = golden(ex.source!.task).cases[ex.source!.case].output as number[][];
      const [u, r] = femTask(LINEAR_TASK)!.run(taskInputs(ex)) as number[][];
      const scaleU = Math.max(...refU.map(Math.abs)),
        scaleR = Math.max(...refR.map(Math.abs));
      u.forEach((v, i) => expect(Math.abs(v - refU[i])).toBeLessThanOrEqual(1e-9 * scaleU));
      r.forEach((v, i) => expect(Math.abs(v - refR[i])).toBeLessThanOrEqual(1e-9 * scaleR));
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it('reactions balance the applied loads (ΣF = 0 for the braced portal)', () => {
    const ex = examples.find((e) => e.id === 'portal-braced')!;
    const [, r] = femTask(LINEAR_TASK)!.run(taskInputs(ex)) as number[][];
    const rows = reactionRows(r, ex);
    expect(rows.map((x) => `${x.node}${x.name}`)).toEqual(['0FX', '0FY', '0FZ', '0MX', '0MY', '0MZ', '3FX', '3FY', '3FZ']);
    for (let d = 0; d < 3; d++) {
      const reaction = rows.filter((x) => x.dof === d).reduce((s, x) => s + x.value, 0);
      const load = Object.values(ex.nodal_loads).reduce((s, f) => s + f[d], 0);
      expect(Math.abs(reaction + load)).toBeLessThan(1e-6 * 50000);
    }
  });
});

describe('buckling modes', () => {
  const column = examples.find((e) => e.id === 'cantilever-euler')!;
  const res = bucklingModes(column, 3);
  it('mode 1 is the golden λ_cr of elastic_critical_load (rtol 1e-9) and close to Euler π²EI/(4L²P) (0.1%)', () => {
    const ref = golden(column.source!.task).cases[column.source!.case].output[0] as number;
    expectRelClose(res.modes[0].lambda, ref, 1e-9, 1e-12);
    const e = column.elements[0];
    const L = 10;
    expectRelClose(res.modes[0].lambda, (Math.PI ** 2 * e.E * e.I_y) / (4 * L * L * 1), 1e-3, 1e-12);
  });
  it('a circular column gives two distinct modes at the repeated λ, then the third at ≈ 9 λ₁ (Euler 2nd mode, 1%)', () => {
    expect(res.modes).toHaveLength(3);
    expectRelClose(res.modes[1].lambda, res.modes[0].lambda, 1e-6, 1e-12);
    const a = res.modes[0].mode,
      b = res.modes[1].mode;
    const dot = a.reduce((s, x, i) => s + x * b[i], 0) / Math.hypot(...a) / Math.hypot(...b);
    expect(Math.abs(dot)).toBeLessThan(0.05);
    expectRelClose(res.modes[2].lambda / res.modes[0].lambda, 9, 0.01, 1e-12);
  });
  it('a frame without positive buckling factor is a clear error', () => {
    const tension = JSON.parse(JSON.stringify(column)) as FrameModel;
    tension.nodal_loads = { 10: [0, 0, 1, 0, 0, 0] };
    expect(() => bucklingModes(tension, 3)).toThrow(/No positive buckling factors/);
  });
});

describe('deformed shape', () => {
  it('follows the Euler–Bernoulli cantilever curve P x²(3L − x)/(6EI) inside one element (rtol 1e-6, float32 pieces)', () => {
    const E = 2e11,
      Iz = 3e-6,
      L = 2,
      P = -1500;
    const model: FrameModel = {
      id: 't',
      name: 't',
      node_coords: [
        [0, 0, 0],
        [L, 0, 0],
      ],
      elements: [{ node_i: 0, node_j: 1, E, nu: 0.3, A: 1e-2, I_y: 2e-6, I_z: Iz, J: 1e-6, local_z: null }],
      boundary_conditions: { 0: [1, 1, 1, 1, 1, 1] },
      nodal_loads: { 1: [0, P, 0, 0, 0, 0] },
    };
    const [u] = femTask(LINEAR_TASK)!.run(taskInputs(model)) as number[][];
    const pieces = deformedPieces(model, u, 1, 4);
    for (let q = 1; q < 4; q++) {
      const x = (q * L) / 4;
      const exact = (P * x * x * (3 * L - x)) / (6 * E * Iz);
      expectRelClose(pieces.starts[3 * q + 1], exact, 1e-6, 1e-12);
      expect(pieces.starts[3 * q]).toBeCloseTo(x, 6);
    }
    expect(autoScale(u, 2, L, 0.1) * Math.abs(u[7])).toBeCloseTo(0.2, 12);
  });
});

describe('model helpers', () => {
  it('names supports and refuses bad input with a sentence', () => {
    expect(supportKind([1, 1, 1, 1, 1, 1])).toBe('fixed');
    expect(supportKind([true, true, true, false, false, false])).toBe('pinned');
    expect(supportKind([0, 1, 0, 0, 0, 0])).toBe('partial');
    expect(supportKind([0, 0, 0, 0, 0, 0])).toBeNull();
    const bad = JSON.parse(JSON.stringify(examples[0])) as FrameModel;
    bad.elements[1].node_j = 99;
    expect(validateModel(bad)).toMatch(/Element 1: node_j = 99 is not a node/);
    bad.elements[1].node_j = 2;
    bad.elements[0].A = -1;
    expect(validateModel(bad)).toMatch(/Element 0: A must be a positive number/);
  });
  it('an unsupported frame is reported as ill-conditioned by the reference', () => {
    const free = JSON.parse(JSON.stringify(examples[0])) as FrameModel;
    free.boundary_conditions = {};
    expect(() => femTask(LINEAR_TASK)!.run(taskInputs(free))).toThrow(/ill-conditioned/);
  });
});
