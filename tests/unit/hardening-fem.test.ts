/**
 * Issue 10 for FEM-Bench: hostile case inputs fail as the NumPy reference fails (elejeune11/FEM-bench
 * tasks/<task_id>.py, whose exception classes were checked by running those functions under numpy), or
 * are refused by the resource policy (src/core/limits.ts) before anything is allocated.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/core/limits.ts';
import { valuesMismatch } from '../../src/core/tasks/fembench/compare.ts';
import { femTask } from '../../src/core/tasks/fembench/registry.ts';
import { RESOURCE_LIMIT, runFemCase, runFemCases, type FemCaseRecord } from '../../src/core/tasks/fembench/runner.ts';
import type { FemResult } from '../../src/core/tasks/fembench/compare.ts';
import { structlabInProcess } from '../cli-runner.ts';

const run = (id: string, inputs: Record<string, unknown>): FemResult => runFemCase(femTask(id)!, { inputs });
const errorType = (r: FemResult): string | null => ('error' in r ? r.error.type : null);
const PARTITION = 'MSA_3D_partition_DOFs_CC0_H0_T0';
const MESH_1D = 'FEM_1D_uniform_mesh_CC0_H0_T0';
const BAR_1D = 'FEM_1D_linear_elastic_CC0_H0_T0';
const bar = (n: unknown) => ({
  x_min: 0,
  x_max: 1,
  num_elements: n,
  material_regions: [{ coord_min: 0, coord_max: 1, E: 1, A: 1 }],
  body_force_fn: { __callable__: 'polynomial', coefficients: [1] },
  dirichlet_bc_list: [{ x_location: 0, u_prescribed: 0 }],
});

describe('FEM-Bench hostile inputs', () => {
  it('refuses sizes beyond the policy before allocating (issue repro 4), as a ResourceLimit case result', () => {
    const huge = run(PARTITION, { boundary_conditions: {}, n_nodes: 100_000_000 });
    expect(errorType(huge)).toBe(RESOURCE_LIMIT);
    expect('error' in huge && huge.error.message).toMatch(/has 100,000,000 nodes; the limit is/);
    expect(errorType(run(MESH_1D, { x_min: 0, x_max: 1, num_elements: 1e9 }))).toBe(RESOURCE_LIMIT);
    expect(errorType(run(BAR_1D, bar(LIMITS.femDofs)))).toBe(RESOURCE_LIMIT);
    expect(errorType(run('FEM_2D_tri6_mesh_rectangle_CC0_H0_T0', { xl: 0, yl: 0, xh: 1, yh: 1, nx: 1e5, ny: 1e5 }))).toBe(RESOURCE_LIMIT);
    const rows = LIMITS.femDofs + 1;
    const K = Array.from({ length: rows }, () => [0]);
    expect(errorType(run('MSA_3D_solve_linear_CC0_H1_T1', { P_global: [0], K_global: K, boundary_conditions: {}, n_nodes: 1 }))).toBe(
      RESOURCE_LIMIT,
    );
    // The largest accepted problems still run.
    expect(errorType(run(MESH_1D, { x_min: 0, x_max: 1, num_elements: LIMITS.femElements }))).toBeNull();
    expect(errorType(run(BAR_1D, bar(LIMITS.femDofs - 1)))).toBeNull();
  });

  it('bounds the work of all cases of one run together', () => {
    // Each case also costs one element's worth, so femRunWork cases just under the largest accepted one fit.
    const one: FemCaseRecord = { inputs: { x_min: 0, x_max: 1, num_elements: LIMITS.femElements - 10 } };
    const results = runFemCases(
      femTask(MESH_1D)!,
      Array.from({ length: LIMITS.femRunWork + 2 }, () => one),
    );
    expect(results.slice(0, LIMITS.femRunWork).map(errorType)).toEqual(Array(LIMITS.femRunWork).fill(null));
    expect(errorType(results[results.length - 1])).toBe(RESOURCE_LIMIT);
  });

  it('fails a negative or non-integer size with the NumPy reference exception class', () => {
    // np.linspace(num=-2) / np.zeros((-1, 2)) → ValueError; np.linspace(num=3.5) → TypeError.
    expect(run(MESH_1D, { x_min: 0, x_max: 1, num_elements: -3 })).toEqual({
      error: { type: 'ValueError', message: 'Number of samples, -2, must be non-negative.' },
    });
    expect(run(MESH_1D, { x_min: 0, x_max: 1, num_elements: -1 })).toEqual({
      error: { type: 'ValueError', message: 'negative dimensions are not allowed' },
    });
    expect(run(MESH_1D, { x_min: 0, x_max: 1, num_elements: 2.5 })).toEqual({
      error: { type: 'TypeError', message: "'float' object cannot be interpreted as an integer" },
    });
    expect(errorType(run(MESH_1D, { x_min: 0, x_max: 1, num_elements: 'NaN' }))).toBe('TypeError');
    expect(errorType(run(MESH_1D, { x_min: 0, x_max: 1, num_elements: '3' }))).toBe('TypeError');
    expect(errorType(run(BAR_1D, bar(-3)))).toBe('ValueError');
    expect(errorType(run(BAR_1D, bar(2.5)))).toBe('TypeError');
    // range(2.5) → TypeError; range(-3) is empty, so the partition is empty.
    expect(errorType(run(PARTITION, { boundary_conditions: {}, n_nodes: 2.5 }))).toBe('TypeError');
    expect(run(PARTITION, { boundary_conditions: {}, n_nodes: -3 })).toEqual({ output: [[], []] });
    // np.zeros(6·n): negative → ValueError, float → TypeError.
    expect(errorType(run('MSA_3D_assemble_global_load_CC0_H0_T0', { nodal_loads: {}, n_nodes: -3 }))).toBe('ValueError');
    expect(errorType(run('MSA_3D_assemble_global_load_CC0_H0_T0', { nodal_loads: {}, n_nodes: 1.5 }))).toBe('TypeError');
    // Meshes: `nx < 1` first (ValueError, also for 0.5), then NumPy on 2·nx + 1 points.
    const mesh = (nx: unknown) => ({ xl: 0, yl: 0, xh: 1, yh: 1, nx, ny: 1 });
    expect(errorType(run('FEM_2D_tri6_mesh_rectangle_CC0_H0_T0', mesh(0.5)))).toBe('ValueError');
    expect(errorType(run('FEM_2D_tri6_mesh_rectangle_CC0_H0_T0', mesh(-2)))).toBe('ValueError');
    expect(errorType(run('FEM_2D_tri6_mesh_rectangle_CC0_H0_T0', mesh(2.5)))).toBe('TypeError');
    expect(errorType(run('FEM_2D_tri6_mesh_rectangle_CC0_H0_T0', mesh('Infinity')))).toBe('ValueError');
    expect(errorType(run('FEM_2D_quad8_mesh_rectangle_CC0_H0_T0', mesh(2.5)))).toBe('TypeError');
    expect(errorType(run('FEM_2D_quad8_mesh_rectangle_CC0_H0_T0', mesh('3')))).toBe('TypeError');
    // `num_pts not in {1, 4, 9}` → ValueError for 2.5 as for 2.
    expect(errorType(run('FEM_2D_quad_quadrature_CC0_H0_T0', { num_pts: 2.5 }))).toBe('ValueError');
  });

  it('treats "__proto__", "constructor" and "toString" input keys as Python keywords', () => {
    for (const key of ['__proto__', 'constructor', 'toString']) {
      const inputs = JSON.parse(`{"boundary_conditions": {}, "n_nodes": 1, "${key}": 1}`);
      expect(run(PARTITION, inputs)).toEqual({
        error: { type: 'TypeError', message: `${PARTITION}() got an unexpected keyword argument '${key}'` },
      });
    }
    expect(run(PARTITION, JSON.parse('{"n_nodes": 1}'))).toEqual({
      error: { type: 'TypeError', message: `${PARTITION}() missing 1 required positional argument: 'boundary_conditions'` },
    });
    expect(run('MSA_3D_local_elastic_stiffness_CC0_H0_T0', {})).toEqual({
      error: {
        type: 'TypeError',
        message:
          "MSA_3D_local_elastic_stiffness_CC0_H0_T0() missing 7 required positional arguments: 'E', 'nu', 'A', 'L', 'Iy', 'Iz', and 'J'",
      },
    });
    // Optional parameters may be left out.
    expect(errorType(run('MSA_3D_transformation_matrix_CC0_H0_T0', { x1: 0, y1: 0, z1: 0, x2: 1, y2: 0, z2: 0 }))).toBeNull();
    // Nested dict keys are data: a boundary condition keyed "__proto__" is ignored (not a node), nothing is polluted.
    const out = run(PARTITION, JSON.parse('{"boundary_conditions": {"__proto__": [1,1,1,1,1,1], "0": [1,0,0,0,0,0]}, "n_nodes": 1}'));
    expect(out).toEqual({ output: [[0], [1, 2, 3, 4, 5]] });
    expect(({} as Record<string, unknown>)[0]).toBeUndefined();
    // A string "toString" is not a non-finite number.
    expect(errorType(run('MSA_3D_local_elastic_stiffness_CC0_H0_T0', { E: 'toString', nu: 0.3, A: 1, L: 1, Iy: 1, Iz: 1, J: 1 }))).toBe(
      'TypeError',
    );
  });

  it('compares dicts by own keys only (fem check on outputs keyed "toString", "constructor", "__proto__")', () => {
    const ref = JSON.parse('{"constructor": 1, "a": 2}');
    expect(valuesMismatch(ref, JSON.parse('{"constructor": 1, "a": 2}'))).toBeNull();
    expect(valuesMismatch(ref, JSON.parse('{"toString": 1, "a": 2}'))).toMatch(/keys/);
    expect(valuesMismatch(JSON.parse('{"a": 1}'), JSON.parse('{"a": 1, "__proto__": 2}'))).toMatch(/keys/);
    expect(valuesMismatch(1, 'toString')).toMatch(/string/);
    expect(valuesMismatch([1, 2], { re: 1, toString: 2 })).not.toBeNull();
  });

  it('handles non-finite numbers, deep nesting, ragged and wrongly typed arrays as results, not crashes', () => {
    let deep: unknown = [0, 0];
    for (let k = 0; k < 100_000; k++) deep = [deep];
    expect(errorType(run('FEM_2D_quad8_shape_fcns_and_derivatives_CC0_H0_T0', { xi: deep }))).toBe(RESOURCE_LIMIT);
    expect(valuesMismatch([[1]], deep)).not.toBeNull();
    expect(errorType(run('FEM_2D_tri6_shape_fcns_and_derivatives_CC0_H0_T0', { xi: [[0, 0], [1]] }))).toBe('ValueError');
    expect(errorType(run('FEM_2D_tri6_shape_fcns_and_derivatives_CC0_H0_T0', { xi: [Infinity, 0] }))).toBe('ValueError');
    expect(errorType(run('MSA_3D_solve_linear_CC0_H1_T1', { P_global: 'x', K_global: [[1]], boundary_conditions: {}, n_nodes: 1 }))).toBe(
      'TypeError',
    );
    // n_nodes larger than K: numpy's IndexError, with nothing allocated for 6·10⁸ DOFs.
    expect(
      errorType(run('MSA_3D_solve_linear_CC0_H1_T1', { P_global: [1], K_global: [[1]], boundary_conditions: {}, n_nodes: 100_000_000 })),
    ).toBe('IndexError');
    // A load vector that does not broadcast to 6 values.
    expect(errorType(run('MSA_3D_assemble_global_load_CC0_H0_T0', { nodal_loads: { 0: [1, 2] }, n_nodes: 1 }))).toBe('ValueError');
    expect(errorType(run(BAR_1D, { ...bar(2), body_force_fn: 'x' }))).toBe('TypeError');
  });
});

describe('structlab fem on hostile files', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-hardening-fem-'));
  const file = (name: string, text: string) => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };

  it('the issue repro: n_nodes 1e8 in a 97-byte case file is a ResourceLimit result, exit 0', async () => {
    const cases = file(
      'c.json',
      '{"cases": [{"inputs": {"boundary_conditions": {}, "n_nodes": 100000000}}, {"inputs": {"boundary_conditions": {}, "n_nodes": 1}}]}',
    );
    const r = await structlabInProcess(['fem', 'run', PARTITION, '--cases', cases]);
    expect(r.code).toBe(0);
    const { results } = JSON.parse(r.stdout);
    expect(results[0].error.type).toBe(RESOURCE_LIMIT);
    expect(results[1].output[1]).toHaveLength(6);
  }, 60_000);

  it('exits 2 with one sentence for an unknown task, a non-golden layout, a results count that differs', async () => {
    const cases = file('ok.json', '{"cases": [{"inputs": {"boundary_conditions": {}, "n_nodes": 1}}]}');
    const outputs = file('out.json', '{"results": [{"output": [[], [0,1,2,3,4,5]]}, {"output": 1}]}');
    for (const args of [
      ['fem', 'run', 'toString', '--cases', cases],
      ['fem', 'run', PARTITION, '--cases', file('list.json', '[{"inputs": {}}]')],
      ['fem', 'run', PARTITION, '--cases', file('proto.json', '{"__proto__": {"cases": []}}')],
      ['fem', 'run', PARTITION, '--cases', file('inputs.json', '{"cases": [{"inputs": [1]}]}')],
      ['fem', 'check', PARTITION, '--cases', cases, '--outputs', outputs],
    ]) {
      const r = await structlabInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);
});
