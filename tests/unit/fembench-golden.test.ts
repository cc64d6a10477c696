/**
 * Every case of every golden file in shared/golden/fembench/ through the registered reference tasks.
 * Match rule (written here, independent of the CLI comparator): recursive, same structure/shape,
 * |ref − got| ≤ atol + rtol·|got| with atol = 1e-8, rtol = 1e-5; for matrices whose largest entry is big
 * (assembled stiffness ~1e11) atol is raised to 1e-14 × that entry (the reference's float noise on that entry).
 * Error cases must raise FemTaskError of the same Python class. Eigen modes: compared up to sign, and
 * only where the case notes say the selected eigenvalue is simple; otherwise only λ and a unit norm.
 * The one platform-dependent error case (§7.3) may instead return a λ below the next eigenvalue.
 * Inputs/outputs are decoded with the contract's codec (codec.ts); the comparison itself is written here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeFemInputs, decodeFemValue, type FemTypeDescriptor } from '../../src/core/tasks/fembench/codec.ts';
import { FEM_BENCH_TASKS } from '../../src/core/tasks/fembench/registry.ts';
import { FemTaskError, type FemValue } from '../../src/core/tasks/fembench/types.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const GOLDEN_DIR = join(REFERENCE, 'golden', 'fembench');
const ATOL = 1e-8;
const RTOL = 1e-5;
const SCALE_ATOL = 1e-14;

interface GoldenCase {
  source: string;
  inputs: Record<string, FemValue>;
  input_types?: Record<string, FemTypeDescriptor>;
  output: FemValue;
  output_types?: FemTypeDescriptor;
  error?: { type: string; message: string };
  notes?: {
    selected_eigenvalue_multiplicity?: number;
    next_distinct_positive_eigenvalue?: number;
    mode_vector_unique_up_to_sign_and_scale?: boolean;
    platform_dependent?: string;
  };
}

const goldenFiles = readdirSync(GOLDEN_DIR)
  .filter((f) => f.endsWith('.json') && !f.startsWith('_'))
  .sort();
const filter = process.env.FEM_GOLDEN_FILTER;

function maxAbs(v: FemValue): number {
  if (Array.isArray(v)) return v.reduce<number>((m, x) => Math.max(m, maxAbs(x)), 0);
  return typeof v === 'number' ? Math.abs(v) : 0;
}

/** Returns null when `got` matches `ref`, else a path and a reason. */
function mismatch(ref: FemValue, got: FemValue, atol: number, path = ''): string | null {
  if (ref === null || got === null) return ref === got ? null : `${path}: ${JSON.stringify(ref)} vs ${JSON.stringify(got)}`;
  if (Array.isArray(ref)) {
    if (!Array.isArray(got)) return `${path}: expected a list of ${ref.length}, got ${typeof got}`;
    if (ref.length !== got.length) return `${path}: length ${got.length}, expected ${ref.length}`;
    for (let i = 0; i < ref.length; i++) {
      const m = mismatch(ref[i], got[i], atol, `${path}[${i}]`);
      if (m) return m;
    }
    return null;
  }
  if (typeof ref === 'number' || typeof ref === 'boolean') {
    if (typeof got !== 'number' && typeof got !== 'boolean') return `${path}: expected a number, got ${JSON.stringify(got)}`;
    const r = Number(ref),
      g = Number(got);
    if (Number.isNaN(r) && Number.isNaN(g)) return null;
    return Math.abs(r - g) <= atol + RTOL * Math.abs(g) ? null : `${path}: ${g} vs reference ${r} (diff ${Math.abs(r - g)})`;
  }
  if (typeof ref === 'string') return ref === got ? null : `${path}: ${JSON.stringify(got)} vs ${JSON.stringify(ref)}`;
  if (typeof got !== 'object' || Array.isArray(got)) return `${path}: expected a dict`;
  const rk = Object.keys(ref).sort(),
    gk = Object.keys(got).sort();
  if (rk.join('\u0000') !== gk.join('\u0000')) return `${path}: keys ${gk} vs ${rk}`;
  for (const k of rk) {
    const m = mismatch(ref[k], got[k], atol, `${path}.${k}`);
    if (m) return m;
  }
  return null;
}

function tolerance(ref: FemValue): number {
  return Math.max(ATOL, SCALE_ATOL * maxAbs(ref));
}

function isEigenOutput(id: string): boolean {
  return id.includes('solve_eigenvalue') || id.includes('elastic_critical_load');
}

function checkEigen(c: GoldenCase, got: FemValue): void {
  const ref = c.output as [number, number[]];
  expect(Array.isArray(got) && got.length === 2, 'output is (lambda, mode)').toBe(true);
  const [lambda, mode] = got as [number, number[]];
  expect(mismatch(ref[0], lambda, ATOL, 'lambda')).toBeNull();
  expect(Array.isArray(mode) && mode.length === ref[1].length, 'mode length').toBe(true);
  const norm = Math.hypot(...mode);
  expect(Math.abs(norm - 1)).toBeLessThan(1e-8);
  if (c.notes?.mode_vector_unique_up_to_sign_and_scale === false) return;
  const atol = tolerance(ref[1]);
  const plus = mismatch(ref[1], mode, atol, 'mode');
  const minus = mismatch(
    ref[1],
    mode.map((x) => -x),
    atol,
    'mode',
  );
  expect(plus === null || minus === null, `mode differs up to sign: ${plus}`).toBe(true);
}

describe('FEM-Bench golden files', () => {
  for (const file of goldenFiles) {
    const data = JSON.parse(readFileSync(join(GOLDEN_DIR, file), 'utf8')) as { task_id: string; cases: GoldenCase[] };
    if (filter && !data.task_id.includes(filter)) continue;
    describe(data.task_id, () => {
      const task = FEM_BENCH_TASKS.find((t) => t.id === data.task_id);
      data.cases.forEach((c, index) => {
        it(`case ${index} (${c.source})`, () => {
          expect(task, `task ${data.task_id} is registered`).toBeDefined();
          // The contract's codec (types.ts): non-finite strings → numbers, Python lists marked as such.
          const inputs = decodeFemInputs(c.inputs, c.input_types);
          const expected = c.error ? null : decodeFemValue(c.output, c.output_types);
          if (c.error) {
            let thrown: unknown = null;
            let result: FemValue = null;
            try {
              result = task!.run(inputs);
            } catch (e) {
              thrown = e;
            }
            if (thrown === null && c.notes?.platform_dependent) {
              const [lambda] = result as [number, number[]];
              expect(lambda).toBeGreaterThan(0);
              expect(lambda).toBeLessThan(c.notes.next_distinct_positive_eigenvalue!);
            } else {
              expect(thrown, `expected ${c.error.type}: ${c.error.message}`).toBeInstanceOf(FemTaskError);
              expect((thrown as FemTaskError).type).toBe(c.error.type);
            }
          } else {
            const got = task!.run(inputs);
            if (isEigenOutput(data.task_id)) checkEigen(c, got);
            else expect(mismatch(expected, got, tolerance(expected))).toBeNull();
          }
        });
      });
    });
  }

  it('registers all 33 task ids', () => {
    const golden = goldenFiles.map((f) => f.replace(/\.json$/, ''));
    expect(golden.length).toBe(33);
    const registered = new Set(FEM_BENCH_TASKS.map((t) => t.id));
    expect(golden.filter((id) => !registered.has(id))).toEqual([]);
  });
});
