/**
 * FEM page, model outputs: the page's verdict must equal the benchmark's own (`benchmark_verdict` of every
 * published answer in fembench_models, 2 models × 33 tasks); per-entry differences are checked on a perturbation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareOutputs, entryDiffs, parseCasesDoc, parseOutputsDoc } from '../../src/core/tasks/fembench/lab/model-outputs.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const MODELS = join(REFERENCE, 'golden', 'fembench_models');
const text = (p: string) => readFileSync(p, 'utf8');

describe('model outputs against the reference', () => {
  for (const model of ['gemini-2.5-pro', 'llama-4-scout']) {
    it(`${model}: the verdict equals benchmark_verdict on every task`, () => {
      const files = readdirSync(join(MODELS, model)).filter((f) => f.endsWith('.json'));
      expect(files.length).toBe(33);
      let agree = 0;
      const disagreements: string[] = [];
      for (const f of files) {
        const cases = parseCasesDoc(text(join(MODELS, 'verification', f)), f);
        const outputs = parseOutputsDoc(text(join(MODELS, model, f)), f);
        const report = compareOutputs(outputs.taskId!, cases.cases, outputs);
        if (report.passed === outputs.benchmarkVerdict) agree++;
        else disagreements.push(f);
      }
      expect(disagreements).toEqual([]);
      expect(agree).toBe(33);
    }, 120_000);
  }

  it('lists the differing entries with |Δ| and builds a heat map for a matrix', () => {
    const ref = [
      [1, 2],
      [3, 4],
    ];
    const gen = [
      [1, 2],
      [3, 4.01],
    ];
    const { entries, matrices } = entryDiffs(ref, gen);
    expect(entries).toHaveLength(4);
    const bad = entries.filter((e) => !e.ok);
    expect(bad).toHaveLength(1);
    expect(bad[0].path).toBe('[1][1]');
    expect(bad[0].diff).toBeCloseTo(0.01, 12);
    expect(matrices).toHaveLength(1);
    expect(matrices[0]).toMatchObject({ rows: 2, cols: 2, ok: [true, true, true, false] });
    // within tolerance (|Δ| ≤ 1e-8 + 1e-5·|gen|) counts as equal
    expect(entryDiffs([100], [100.0009]).entries[0].ok).toBe(true);
  });

  it('explains unusable files', () => {
    expect(() => parseOutputsDoc('{"cases": []}', 'x.json')).toThrow(/x.json has no "results" list/);
    expect(() => parseCasesDoc('not json', 'c.json')).toThrow(/c.json is not valid JSON/);
    expect(() => parseCasesDoc('{"cases": [{"x": 1}]}', 'c.json')).toThrow(/case 1 has no "inputs"/);
  });
});
