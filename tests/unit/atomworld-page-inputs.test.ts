/**
 * The AtomWorld page's input reading, sorting and exports. Expected verdicts are the benchmark's own
 * (the `evaluator` / `expected` fields of the golden records); summary numbers are recounted here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeAtomworldJob, summariseAtomworld } from '../../src/core/tasks/atomworld/batch.ts';
import {
  type CaseRow,
  InputFormatError,
  actionsCsv,
  casesCsv,
  readAtomworldInputs,
  resultsJson,
  sortCaseRows,
} from '../../src/core/tasks/atomworld/lab/inputs.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const goldenPath = (name: string) => join(REFERENCE, 'golden', 'atomworld', name);
const golden = (name: string) => ({ path: name, text: readFileSync(goldenPath(name), 'utf8') });
const judge = (c: ReturnType<typeof readAtomworldInputs>['cases'][number]) =>
  judgeAtomworldJob({ id: c.id, action: c.action, targetCif: c.targetCif, answer: c.answer });

describe('reading AtomWorld inputs', () => {
  it('real_samples_icml_fullprec: one file carries case and answer; all 6 verdicts are the official ones (rmsd, max_dist to 1e-6)', () => {
    const { cases, warnings } = readAtomworldInputs(golden('real_samples_icml_fullprec.jsonl'), null);
    expect(cases).toHaveLength(6);
    expect(warnings).toEqual([]);
    for (const c of cases) {
      expect(c.answer).toMatch(/^<cif>\n[\s\S]*\n<\/cif>$/);
      const v = judge(c);
      expect(v.correct).toBe(c.official!.correct);
      expect(v.wrong_type).toBe(c.official!.wrong_type);
      if (c.official!.rmsd === null) expect(v.rmsd).toBeNull();
      else {
        expect(Math.abs(v.rmsd! - c.official!.rmsd)).toBeLessThan(1e-6);
        expect(Math.abs(v.max_dist! - c.official!.max_dist!)).toBeLessThan(1e-6);
      }
    }
  });

  it('eval_oracle layout (case_id, target_cif, candidate_cif, expected): first 12 verdicts equal the expected ones', () => {
    const text = readFileSync(goldenPath('eval_oracle.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .slice(0, 12)
      .join('\n');
    const { cases } = readAtomworldInputs({ path: 'oracle.jsonl', text }, null);
    expect(cases).toHaveLength(12);
    expect(new Set(cases.map((c) => c.id)).size).toBe(12);
    for (const c of cases) {
      const v = judge(c);
      expect([c.id, v.correct, v.wrong_type]).toEqual([c.id, c.official!.correct, c.official!.wrong_type]);
    }
  });

  it('cases + answers files: answers by id, a missing answer is warned about and counts as OutputFormatError', () => {
    const rows = readFileSync(goldenPath('generated_cases.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .slice(0, 3)
      .map((l) => JSON.parse(l));
    const casesFile = { path: 'cases.jsonl', text: rows.map((r) => JSON.stringify(r)).join('\n') };
    const answersFile = {
      path: 'answers.jsonl',
      text:
        rows
          .slice(0, 2)
          .map((r) => JSON.stringify({ id: r.id, answer: `ok\n<cif>\n${r.after_cif}\n</cif>` }))
          .join('\n') + '\n{"id": "nobody", "answer": "x"}\n',
    };
    const { cases, warnings } = readAtomworldInputs(casesFile, answersFile);
    expect(cases.map((c) => c.answer === null)).toEqual([false, false, true]);
    expect(warnings.join(' ')).toMatch(/1 case\(s\) have no answer/);
    expect(warnings.join(' ')).toMatch(/1 answer\(s\) in answers.jsonl match no case/);
    const verdicts = cases.map(judge);
    expect(verdicts.map((v) => v.correct)).toEqual([true, true, false]);
    expect(verdicts[2].wrong_type).toBe('OutputFormatError');
  });

  it('bad lines are skipped and named by file and line; nothing else is lost; a file with no usable case is an error', () => {
    const good = '{"id": 1, "action": "move", "after_cif": "x"}';
    const read = (text: string, answers?: string) =>
      readAtomworldInputs({ path: 'c.jsonl', text }, answers === undefined ? null : { path: 'a.jsonl', text: answers });
    const junk = read(
      `${good}\n\n{oops\n{"id": 2, "action": "move"}\n{"action": "move", "after_cif": "y"}\n[1]\n` +
        '{"id": 3, "action": "swap", "after_cif": "z"}',
    );
    expect(junk.cases.map((c) => c.id)).toEqual(['1', '3']);
    expect(junk.skipped).toEqual([
      { file: 'c.jsonl', line: 3, error: expect.stringMatching(/not valid JSON/) },
      { file: 'c.jsonl', line: 4, error: 'case "2" has no "after_cif" (the target CIF)' },
      { file: 'c.jsonl', line: 5, error: 'the case has no "id"' },
      { file: 'c.jsonl', line: 6, error: expect.stringMatching(/expected a JSON object/) },
    ]);
    expect(junk.warnings.slice(0, 4)).toEqual(junk.skipped.map((s) => `${s.file} line ${s.line}: ${s.error}; the line was skipped.`));
    const answers = read(good, '{"id": 1, "answer": 5}\nnot json');
    expect(answers.skipped.map((s) => [s.file, s.line])).toEqual([
      ['a.jsonl', 1],
      ['a.jsonl', 2],
    ]);
    expect(answers.cases[0].answer).toBeNull();
    expect(() => read('{oops')).toThrow(/c.jsonl holds no usable case \(c.jsonl line 1: not valid JSON/);
    expect(() => read('[1, 2]')).toThrow(InputFormatError);
    expect(() => read('   ')).toThrow(/empty/);
    expect(() => read('[1, 2')).toThrow(/not valid JSON/);
  });
});

const row = (index: number, over: Partial<CaseRow>): CaseRow => ({
  index,
  id: `c${index}`,
  action: 'move',
  correct: false,
  wrong_type: 'StructureMismatch',
  rmsd: null,
  max_dist: null,
  lint: [],
  official: null,
  ...over,
});

describe('case list and exports', () => {
  const rows = [
    row(0, { correct: true, wrong_type: null, rmsd: 0.2, max_dist: 0.3, lint: ['a'] }),
    row(1, { action: 'swap' }),
    row(2, { correct: true, wrong_type: null, rmsd: 0.1, max_dist: 0.5 }),
    row(3, { action: 'swap', wrong_type: 'OutputFormatError', lint: ['a', 'b'] }),
  ];

  it('sorts numbers both ways with missing values last, ties in file order', () => {
    expect(sortCaseRows(rows, 'rmsd', false).map((r) => r.index)).toEqual([2, 0, 1, 3]);
    expect(sortCaseRows(rows, 'rmsd', true).map((r) => r.index)).toEqual([0, 2, 1, 3]);
    expect(sortCaseRows(rows, 'lint', true).map((r) => r.index)).toEqual([3, 0, 1, 2]);
    expect(sortCaseRows(rows, 'action', false).map((r) => r.index)).toEqual([0, 2, 1, 3]);
  });

  it('per-case and per-action CSV / JSON hold the counted numbers', () => {
    const summary = summariseAtomworld(rows);
    const csv = casesCsv(rows).trim().split('\r\n');
    expect(csv).toHaveLength(5);
    expect(csv[0]).toBe('id,action,correct,wrong_type,rmsd,max_dist,lint,official_correct,official_wrong_type');
    expect(csv[4]).toBe('c3,swap,false,OutputFormatError,,,a b,,');
    const actions = actionsCsv(summary).trim().split('\r\n');
    expect(actions[0]).toBe('action,n,success_rate,mean_max_dist,OutputFormatError,StructureMismatch');
    // move: 2 of 2 right, mean max_dist (0.3 + 0.5) / 2; swap: none right.
    expect(actions[1]).toBe(`move,2,1,${(0.3 + 0.5) / 2},0,0`);
    expect(actions[2]).toBe('swap,2,0,,1,1');
    const json = JSON.parse(resultsJson(rows, summary));
    expect(json.cases).toHaveLength(4);
    expect(json.by_action.swap.errors).toEqual({ StructureMismatch: 1, OutputFormatError: 1 });
  });
});
