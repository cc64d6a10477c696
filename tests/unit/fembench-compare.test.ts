/**
 * The benchmark comparator (`_values_match`, atol 1e-8, rtol 1e-5 relative to the candidate).
 * Expected verdicts come from the golden files: the reference outputs must match themselves, known
 * perturbations must not, and on the published model answers the verdict must equal the benchmark's.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeFemInputs, encodeFemValue } from '../../src/core/tasks/fembench/codec.ts';
import { type FemResult, compareResults, isCloseScalar, valuesMatch } from '../../src/core/tasks/fembench/compare.ts';
import { alternativeSolutionCheck } from '../../src/core/tasks/fembench/equivalence.ts';
import { femTask } from '../../src/core/tasks/fembench/registry.ts';
import { FemTaskError, type FemValue } from '../../src/core/tasks/fembench/types.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const GOLDEN = join(REFERENCE, 'golden', 'fembench');
const MODELS = join(REFERENCE, 'golden', 'fembench_models');
const TASK_IDS = readdirSync(GOLDEN)
  .filter((f) => /^(FEM|MSA)_.*\.json$/.test(f))
  .map((f) => f.replace(/\.json$/, ''))
  .sort();
/** A case of a golden or answers file: JSON as the reference tools wrote it, checked by the assertions that read it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type GoldenCase = any;
const readJson = (path: string): GoldenCase => JSON.parse(readFileSync(path, 'utf8'));

/** Scales the largest-magnitude number by (1 + factor); null if none is ≥ 1e-3 in magnitude. */
function perturbLargest(value: FemValue, factor: number): FemValue | null {
  let best: { path: (string | number)[]; v: number } | null = null;
  const walk = (v: FemValue, path: (string | number)[]) => {
    if (typeof v === 'number' && Math.abs(v) >= 1e-3 && (!best || Math.abs(v) > Math.abs(best.v))) best = { path, v };
    else if (Array.isArray(v)) v.forEach((x, k) => walk(x, [...path, k]));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(value, []);
  if (!best) return null;
  const copy = structuredClone(value);
  const { path, v } = best as { path: (string | number)[]; v: number };
  if (path.length === 0) return v * (1 + factor);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let target: any = copy;
  for (const key of path.slice(0, -1)) target = target[key];
  target[path[path.length - 1]] = v * (1 + factor);
  return copy;
}

describe('harness number semantics', () => {
  it('numpy isclose: tolerance scales with the candidate, NaN equals NaN, infinities only themselves', () => {
    // |a − b| = 10.000005 lies between atol + rtol·|a| (10.00000001) and atol + rtol·|b| (10.0001).
    expect(isCloseScalar(1e6, 1e6 + 10.000005)).toBe(true);
    expect(isCloseScalar(1e6 + 10.000005, 1e6)).toBe(false);
    expect(isCloseScalar(0, 1e-8)).toBe(true);
    expect(isCloseScalar(0, 2e-8)).toBe(false);
    expect(isCloseScalar(Number.NaN, Number.NaN)).toBe(true);
    expect(isCloseScalar(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)).toBe(true);
    expect(isCloseScalar(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY)).toBe(false);
  });

  it('candidate encodings: non-finite strings, complex {re, im}, ints and bools for floats', () => {
    expect(valuesMatch([1, Number.NaN], [1, 'NaN'])).toBe(true);
    expect(valuesMatch([1, 2], [1, 'Infinity'])).toBe(false);
    expect(valuesMatch(2.5, { re: 2.5, im: 0 })).toBe(true);
    expect(valuesMatch(2.5, { re: 2.5, im: 1e-3 })).toBe(false);
    expect(valuesMatch([3, 4], [3, 4])).toBe(true);
    expect(valuesMatch([1, 0], [true, false])).toBe(true);
    // A complex 2×2 array arrives flattened.
    expect(
      valuesMatch(
        [
          [1, 2],
          [3, 4],
        ],
        [
          { re: 1, im: 0 },
          { re: 2, im: 0 },
          { re: 3, im: 0 },
          { re: 4, im: 0 },
        ],
      ),
    ).toBe(true);
    expect(
      valuesMatch(
        [
          [1, 2],
          [3, 4],
        ],
        [
          { re: 1, im: 0 },
          { re: 2, im: 0 },
          { re: 3, im: 0 },
        ],
      ),
    ).toBe(false);
  });

  it('structure: exact shapes and dict keys, tuples may be lists, ragged candidates fail', () => {
    expect(valuesMatch([[1, 2, 3]], [1, 2, 3])).toBe(false);
    expect(valuesMatch([1, 2, 3], [[1], [2], [3]])).toBe(false);
    expect(valuesMatch({ a: [1], b: 2 }, { a: [1], b: 2, c: 3 })).toBe(false);
    expect(valuesMatch({ a: [1], b: 2 }, { b: 2, a: [1] })).toBe(true);
    expect(valuesMatch([[1, 2], [3]], [[1, 2], [3]])).toBe(true);
    expect(
      valuesMatch(
        [
          [1, 2],
          [3, 4],
        ],
        [[1, 2], [3]],
      ),
    ).toBe(false);
    expect(valuesMatch(null, null)).toBe(true);
    expect(valuesMatch(null, 0)).toBe(false);
    expect(valuesMatch('x', 'x')).toBe(true);
  });
});

describe('golden reference outputs', () => {
  it('covers the 33 tasks', () => expect(TASK_IDS).toHaveLength(33));

  for (const id of TASK_IDS) {
    it(`${id}: accepts the reference, rejects 1e-4 relative perturbation, a wrong shape and swapped tuple items`, () => {
      const golden = readJson(join(GOLDEN, `${id}.json`));
      let perturbed = 0;
      for (const c of golden.cases) {
        if (c.error) continue;
        const out = c.output as FemValue;
        expect(valuesMatch(out, out, c.output_types), c.source).toBe(true);
        expect(valuesMatch(out, structuredClone(out)), c.source).toBe(true);
        const bumped = perturbLargest(out, 1e-4);
        if (bumped !== null) {
          perturbed++;
          expect(valuesMatch(out, bumped, c.output_types), c.source).toBe(false);
        }
        if (Array.isArray(out)) {
          expect(valuesMatch(out, [out], c.output_types), `${c.source} nested`).toBe(false);
          expect(valuesMatch(out, out.slice(1), c.output_types), `${c.source} shortened`).toBe(false);
        }
        if (c.output_types?.t === 'tuple' && Array.isArray(out) && out.length === 2 && !valuesMatch(out[0], out[1])) {
          expect(valuesMatch(out, [out[1], out[0]], c.output_types), `${c.source} swapped`).toBe(false);
        }
      }
      expect(perturbed).toBeGreaterThan(0);
    });
  }
});

describe("verdicts on the published model answers equal the benchmark's", () => {
  const models = readdirSync(MODELS).filter((m) => m !== 'verification' && statSync(join(MODELS, m)).isDirectory());
  const files = models.flatMap((model) =>
    readdirSync(join(MODELS, model))
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ model, file: f })),
  );

  it('has answers of two models for all 33 tasks', () => {
    expect(models.length).toBeGreaterThanOrEqual(2);
    expect(files.length).toBe(33 * models.length);
  });

  for (const { model, file } of files) {
    const id = file.replace(/\.json$/, '');
    it(`${model} ${id}`, () => {
      const answers = readJson(join(MODELS, model, file));
      const verification = readJson(join(MODELS, 'verification', file));
      const golden = readJson(join(GOLDEN, file));
      const goldenCases = verification.cases.map((vc: GoldenCase) =>
        golden.cases.find((gc: GoldenCase) => gc.source === vc.source || (gc.also_from ?? []).includes(vc.source)),
      );
      expect(goldenCases.every(Boolean)).toBe(true);

      // Against the golden reference outputs (covers every task, with and without the type descriptors).
      const goldenRefs: FemResult[] = goldenCases.map((c: GoldenCase) => (c.error ? { error: c.error } : { output: c.output }));
      expect(
        compareResults(
          id,
          goldenRefs,
          answers.results,
          goldenCases.map((c: GoldenCase) => c.output_types),
        ).passed,
      ).toBe(answers.benchmark_verdict);
      expect(compareResults(id, goldenRefs, answers.results).passed).toBe(answers.benchmark_verdict);

      // Against our own reference: every task of the golden set is registered.
      const found = femTask(id);
      expect(found, `${id} is not registered`).toBeDefined();
      const task = found!;
      const ours: FemResult[] = verification.cases.map((c: GoldenCase) => {
        try {
          return { output: encodeFemValue(task.run(decodeFemInputs(c.inputs, c.input_types))) };
        } catch (e) {
          if (e instanceof FemTaskError) return { error: { type: e.type, message: e.message } };
          throw e;
        }
      });
      const same = alternativeSolutionCheck(task);
      const alternatives = verification.cases.map((c: GoldenCase) =>
        same ? (ref: FemValue, cand: unknown) => same(decodeFemInputs(c.inputs, c.input_types), ref, cand) : undefined,
      );
      // A repeated eigenvalue's mode is not unique: without an equivalence check our reference may pick
      // another vector of the eigenspace, so every such task must have one.
      const nonUnique = goldenCases.some((c: GoldenCase) => c.notes?.mode_vector_unique_up_to_sign_and_scale === false);
      expect(!nonUnique || same !== undefined, `${id} has repeated eigenvalues but no equivalence check`).toBe(true);
      const verdict = compareResults(id, ours, answers.results, undefined, alternatives);
      expect(verdict.passed, JSON.stringify(verdict.cases)).toBe(answers.benchmark_verdict);
    });
  }
});

describe('non-unique buckling modes (repeated critical eigenvalue)', () => {
  const id = 'MSA_3D_elastic_critical_load_CC1_H10_T3';
  const task = femTask(id);
  const golden = readJson(join(GOLDEN, `${id}.json`));
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const cases = golden.cases.filter((c: any) => !c.error);

  it('accepts the golden mode of every repeated-eigenvalue case against our reference, nothing else', () => {
    expect(task, `${id} is not registered`).toBeDefined();
    const check = alternativeSolutionCheck(task!);
    expect(check, `${id} has no equivalence check`).toBeDefined();
    const same = check!;
    let repeated = 0,
      simple = 0;
    for (const c of cases) {
      const inputs = decodeFemInputs(c.inputs, c.input_types);
      const ours = encodeFemValue(task!.run(inputs)) as [number, number[]];
      const gold = c.output as [number, number[]];
      const accepted = valuesMatch(ours, gold) || same(inputs, ours, gold);
      const flipped = [gold[0], gold[1].map((x) => -x)];
      const scaled = [gold[0], gold[1].map((x) => 2 * x)];
      const otherLambda = [gold[0] * 1.001, gold[1]];
      if (c.notes?.mode_vector_unique_up_to_sign_and_scale === false) {
        repeated++;
        expect(accepted, c.source).toBe(true);
      } else {
        simple++;
        expect(valuesMatch(ours, gold), c.source).toBe(true);
        expect(same(inputs, ours, flipped), `${c.source} flipped`).toBe(false);
      }
      expect(same(inputs, ours, scaled), `${c.source} scaled`).toBe(false);
      expect(same(inputs, ours, otherLambda), `${c.source} λ`).toBe(false);
      // A unit vector on the free DOFs that is not an eigenvector.
      const junk = gold[1].map((x, k) => (x === 0 ? 0 : 1 + (k % 3)));
      const n = Math.hypot(...junk);
      expect(same(inputs, ours, [gold[0], junk.map((x) => x / n)]), `${c.source} junk`).toBe(false);
    }
    expect(repeated).toBeGreaterThan(0);
    expect(simple).toBeGreaterThan(0);
  });
});
