/**
 * The 12 FEM_1D / FEM_2D reference tasks against the golden files (every case, including the tasks'
 * own test calls and held-back extras). Tolerance: |ref − ours| ≤ 1e-8 + 1e-5·|ref| elementwise, with
 * exact nesting/shape and dict keys; error cases must raise the same Python exception class.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeFemInputs, decodeFemValue } from '../../src/core/tasks/fembench/codec.ts';
import { FEM_TASKS } from '../../src/core/tasks/fembench/fem/index.ts';
import { FemTaskError } from '../../src/core/tasks/fembench/types.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const GOLDEN = join(REFERENCE, 'golden', 'fembench');

/** Independent of the comparator under test: plain recursive walk, exact structure. */
function mismatch(expected: unknown, actual: unknown, path = '$'): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected a list`;
    if (actual.length !== expected.length) return `${path}: length ${actual.length} ≠ ${expected.length}`;
    for (let k = 0; k < expected.length; k++) {
      const m = mismatch(expected[k], actual[k], `${path}[${k}]`);
      if (m) return m;
    }
    return null;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path}: expected a dict`;
    const ek = Object.keys(expected).sort(),
      ak = Object.keys(actual).sort();
    if (ek.join() !== ak.join()) return `${path}: keys ${ak} ≠ ${ek}`;
    for (const k of ek) {
      const m = mismatch((expected as Record<string, unknown>)[k], (actual as Record<string, unknown>)[k], `${path}.${k}`);
      if (m) return m;
    }
    return null;
  }
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return `${path}: expected a number`;
    if (Number.isNaN(expected) && Number.isNaN(actual)) return null;
    return Math.abs(expected - actual) <= 1e-8 + 1e-5 * Math.abs(expected) ? null : `${path}: ${actual} ≠ ${expected}`;
  }
  return expected === actual ? null : `${path}: ${String(actual)} ≠ ${String(expected)}`;
}

describe('FEM-Bench 1D/2D reference tasks reproduce the golden outputs', () => {
  it('registers the 12 FEM tasks once each', () => {
    expect(FEM_TASKS.map((t) => t.id).sort()).toEqual([
      'FEM_1D_linear_elastic_CC0_H0_T0',
      'FEM_1D_local_elastic_stiffness_CC0_H3_T1',
      'FEM_1D_uniform_mesh_CC0_H0_T0',
      'FEM_2D_quad8_element_distributed_load_CC0_H0_T0',
      'FEM_2D_quad8_integral_of_derivative_CC0_H3_T3',
      'FEM_2D_quad8_mesh_rectangle_CC0_H0_T0',
      'FEM_2D_quad8_physical_gradient_CC0_H1_T3',
      'FEM_2D_quad8_shape_fcns_and_derivatives_CC0_H0_T0',
      'FEM_2D_quad_quadrature_CC0_H0_T0',
      'FEM_2D_tri6_mesh_rectangle_CC0_H0_T0',
      'FEM_2D_tri6_shape_fcns_and_derivatives_CC0_H0_T0',
      'FEM_2D_tri_quadrature_CC0_H0_T0',
    ]);
  });

  for (const task of FEM_TASKS) {
    it(`${task.id}: every golden case`, () => {
      const golden = JSON.parse(readFileSync(join(GOLDEN, `${task.id}.json`), 'utf8'));
      expect(golden.cases.length).toBeGreaterThan(0);
      const failures: string[] = [];
      for (const c of golden.cases) {
        let output: unknown;
        let error: unknown;
        try {
          output = task.run(decodeFemInputs(c.inputs, c.input_types));
        } catch (e) {
          error = e;
        }
        if (c.error) {
          if (!(error instanceof FemTaskError) || error.type !== c.error.type)
            failures.push(`${c.source}: expected ${c.error.type}, got ${error ? String(error) : 'no error'}`);
        } else if (error) {
          failures.push(`${c.source}: raised ${String(error)}`);
        } else {
          const m = mismatch(decodeFemValue(c.output), output);
          if (m) failures.push(`${c.source}: ${m}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('error messages follow the reference', () => {
    const byId = (id: string) => FEM_TASKS.find((t) => t.id === id)!;
    expect(() => byId('FEM_2D_quad_quadrature_CC0_H0_T0').run({ num_pts: 2 })).toThrow('num_pts must be one of {1, 4, 9}.');
    expect(() => byId('FEM_2D_tri6_mesh_rectangle_CC0_H0_T0').run({ xl: 0, yl: 0, xh: 1, yh: 1, nx: 0, ny: 1 })).toThrow(
      'nx and ny must be ≥ 1',
    );
    expect(() =>
      byId('FEM_2D_quad8_element_distributed_load_CC0_H0_T0').run({
        face: 4,
        node_coords: [
          [-1, -1],
          [1, -1],
          [1, 1],
          [-1, 1],
          [0, -1],
          [1, 0],
          [0, 1],
          [-1, 0],
        ],
        traction: [1, 0],
        num_gauss_pts: 2,
      }),
    ).toThrow(FemTaskError);
  });
});
