/** `structlab fem tasks|run|check` end to end: real processes, JSON on stdout, exit 2 with one sentence on bad input. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlab, structlabInProcess } from '../cli-runner.ts';

const GOLDEN = join(REFERENCE, 'golden', 'fembench');
const MODELS = join(REFERENCE, 'golden', 'fembench_models');

describe('structlab fem', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-fem-'));

  it('fem tasks lists the FEM tasks with signatures', async () => {
    const r = await structlabInProcess(['fem', 'tasks']);
    expect(r.code, r.stderr).toBe(0);
    const { tasks } = JSON.parse(r.stdout);
    const ids = tasks.map((t: { id: string }) => t.id);
    expect(ids).toContain('FEM_2D_quad8_mesh_rectangle_CC0_H0_T0');
    expect(ids.filter((id: string) => id.startsWith('FEM_'))).toHaveLength(12);
    for (const t of tasks) expect(t.signature).toMatch(/^\(.*\) -> /);
  });

  it('fem run reproduces a golden file case by case (outputs within 1e-8 + 1e-5·|ref|, errors by type)', async () => {
    const id = 'FEM_2D_quad8_shape_fcns_and_derivatives_CC0_H0_T0';
    const golden = JSON.parse(readFileSync(join(GOLDEN, `${id}.json`), 'utf8'));
    const r = await structlabInProcess(['fem', 'run', id, '--cases', join(GOLDEN, `${id}.json`)]);
    expect(r.code, r.stderr).toBe(0);
    const { results } = JSON.parse(r.stdout);
    expect(results).toHaveLength(golden.cases.length);
    golden.cases.forEach((c: { output: unknown; error?: { type: string } }, k: number) => {
      if (c.error) {
        expect(results[k].error.type).toBe(c.error.type);
        return;
      }
      const flat = (v: unknown): number[] => (Array.isArray(v) ? v.flatMap(flat) : [v as number]);
      const want = flat(c.output),
        got = flat(results[k].output);
      expect(got).toHaveLength(want.length);
      want.forEach((w, i) => expect(Math.abs(w - got[i])).toBeLessThanOrEqual(1e-8 + 1e-5 * Math.abs(w)));
    });
  });

  it('fem check gives the benchmark verdict on real model answers, and reads stdin', () => {
    for (const [model, id] of [
      ['gemini-2.5-pro', 'FEM_2D_quad_quadrature_CC0_H0_T0'],
      ['llama-4-scout', 'FEM_2D_quad_quadrature_CC0_H0_T0'],
      ['llama-4-scout', 'FEM_1D_uniform_mesh_CC0_H0_T0'],
      // Case 0 has a repeated critical eigenvalue: the model's mode is another vector of the eigenspace than ours.
      ['gemini-2.5-pro', 'MSA_3D_elastic_critical_load_CC1_H10_T1'],
    ]) {
      const answers = readFileSync(join(MODELS, model, `${id}.json`), 'utf8');
      const r = structlab(['fem', 'check', id, '--cases', join(MODELS, 'verification', `${id}.json`), '--outputs', '-'], {
        input: answers,
      });
      expect(r.code, r.stderr).toBe(0);
      const verdict = JSON.parse(r.stdout);
      expect(verdict.passed, `${model} ${id}`).toBe(JSON.parse(answers).benchmark_verdict);
      expect(verdict.cases).toHaveLength(JSON.parse(answers).results.length);
      for (const c of verdict.cases) expect(typeof c.detail).toBe('string');
    }
  });

  it('fem check: the output of fem run passes; an error entry fails its case', async () => {
    const id = 'FEM_2D_tri_quadrature_CC0_H0_T0';
    const cases = join(MODELS, 'verification', `${id}.json`);
    const run = await structlabInProcess(['fem', 'run', id, '--cases', cases]);
    const out = join(tmp, 'out.json');
    writeFileSync(out, run.stdout);
    const ok = JSON.parse((await structlabInProcess(['fem', 'check', id, '--cases', cases, '--outputs', out])).stdout);
    expect(ok.passed).toBe(true);
    const doc = JSON.parse(run.stdout);
    doc.results[1] = { error: { type: 'ValueError', message: 'boom' } };
    writeFileSync(out, JSON.stringify(doc));
    const bad = JSON.parse((await structlabInProcess(['fem', 'check', id, '--cases', cases, '--outputs', out])).stdout);
    expect(bad.passed).toBe(false);
    expect(bad.cases.map((c: { match: boolean }) => c.match)).toEqual([true, false, true]);
  });

  it('exits 2 with one sentence on bad input', async () => {
    const notJson = join(tmp, 'bad.json');
    writeFileSync(notJson, '{"cases": [');
    const noCases = join(tmp, 'nocases.json');
    writeFileSync(noCases, '{"results": []}');
    const cases = join(MODELS, 'verification', 'FEM_2D_tri_quadrature_CC0_H0_T0.json');
    for (const args of [
      ['fem', 'run', 'NOT_A_TASK', '--cases', cases],
      ['fem', 'run', 'FEM_2D_tri_quadrature_CC0_H0_T0', '--cases', join(tmp, 'missing.json')],
      ['fem', 'run', 'FEM_2D_tri_quadrature_CC0_H0_T0', '--cases', notJson],
      ['fem', 'run', 'FEM_2D_tri_quadrature_CC0_H0_T0', '--cases', noCases],
      ['fem', 'run', 'FEM_2D_tri_quadrature_CC0_H0_T0'],
      ['fem', 'check', 'FEM_2D_tri_quadrature_CC0_H0_T0', '--cases', cases],
      ['fem', 'check', 'FEM_2D_tri_quadrature_CC0_H0_T0', '--cases', cases, '--outputs', cases],
      ['fem', 'frobnicate'],
    ]) {
      const r = await structlabInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
