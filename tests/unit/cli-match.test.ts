/** `structlab match` and `structlab atomworld evaluate` as a user runs them: JSON on stdout, exit 2 on bad input. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';

const records = readFileSync(join(REFERENCE, 'golden', 'atomworld', 'real_samples_icml_fullprec.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const tmp = mkdtempSync(join(tmpdir(), 'structlab-match-'));
const rotate = records[0];
const targetPath = join(tmp, 'target.cif');
const answerPath = join(tmp, 'answer.txt');
writeFileSync(targetPath, rotate.after_cif);
writeFileSync(answerPath, `Sure.\n<cif>\n${rotate.model_generated_cif}\n</cif>\n`);

describe('structlab match / atomworld evaluate', () => {
  it('atomworld evaluate prints the official verdict and metrics of a real record', async () => {
    const r = await structlabInProcess(['atomworld', 'evaluate', '--target', targetPath, '--candidate', answerPath]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.correct).toBe(rotate.evaluator.correct);
    expect(out.wrong_type).toBe(rotate.evaluator.wrong_type);
    expect(Math.abs(out.rmsd - rotate.evaluator.rmsd)).toBeLessThan(1e-6);
    expect(Math.abs(out.max_dist - rotate.evaluator.max_dist)).toBeLessThan(1e-6);
    const noTags = join(tmp, 'plain.txt');
    writeFileSync(noTags, 'no answer');
    expect(JSON.parse((await structlabInProcess(['atomworld', 'evaluate', '--target', targetPath, '--candidate', noTags])).stdout)).toEqual(
      { correct: false, wrong_type: 'OutputFormatError', rmsd: null, max_dist: null },
    );
  });

  it('match follows AtomWorld settings when given them, and defaults otherwise', async () => {
    const modelPath = join(tmp, 'model.cif');
    writeFileSync(modelPath, rotate.model_generated_cif);
    const r = await structlabInProcess(['match', targetPath, modelPath, '--primitive-cell', 'false', '--stol', '0.5']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.match).toBe(true);
    expect(Math.abs(out.rms - rotate.evaluator.rmsd)).toBeLessThan(1e-6);
    const self = JSON.parse((await structlabInProcess(['match', targetPath, targetPath])).stdout);
    expect(self.match).toBe(true);
    expect(self.rms).toBeLessThan(1e-8);
  });

  it('exits 2 with one sentence on bad input', async () => {
    for (const args of [
      ['match', targetPath],
      ['match', targetPath, join(tmp, 'missing.cif')],
      ['match', targetPath, targetPath, '--primitive-cell', 'maybe'],
      ['match', targetPath, targetPath, '--stol', 'abc'],
      ['atomworld', 'evaluate', '--target', targetPath],
      ['atomworld', 'evaluate', '--target', answerPath, '--candidate', answerPath],
    ]) {
      const r = await structlabInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
