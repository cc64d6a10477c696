/** `structlab atomworld apply` and `atomworld eval` as a user runs them: real processes, exit codes. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inverse, norm, vecMat, type Vec3 } from '../../src/core/math/mat3.ts';
import { parseCif } from '../../src/core/io/cif/reader.ts';
import { majorSpecies } from '../../src/core/structure/structure.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlab, structlabInProcess } from '../cli-runner.ts';

interface GoldenCase {
  id: string;
  action: string;
  params: Record<string, unknown>;
  before_cif: string;
  after_cif: string;
  prompt: string;
}
const CASES_FILE = join(REFERENCE, 'golden', 'atomworld', 'generated_cases.jsonl');
const cases: GoldenCase[] = readFileSync(CASES_FILE, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

/** Worst per-atom periodic distance (Å) between two CIF texts, or -1 when counts/species/cells differ. */
function worstDistance(ours: string, target: string): number {
  const a = parseCif(ours).structures[0],
    b = parseCif(target).structures[0];
  if (a.sites.length !== b.sites.length) return -1;
  const pa = a.lattice!.parameters,
    pb = b.lattice!.parameters;
  for (const k of ['a', 'b', 'c', 'alpha', 'beta', 'gamma'] as const) if (Math.abs(pa[k] - pb[k]) > 1e-7) return -1;
  const inv = inverse(a.lattice!.matrix);
  let worst = 0;
  for (let i = 0; i < a.sites.length; i++) {
    if (majorSpecies(a.sites[i]) !== majorSpecies(b.sites[i])) return -1;
    const fa = a.sites[i].frac ?? vecMat(a.sites[i].xyz, inv),
      fb = b.sites[i].frac!;
    const d = fa.map((x, k) => {
      const t = x - fb[k];
      return t - Math.round(t);
    }) as Vec3;
    worst = Math.max(worst, norm(vecMat(d, b.lattice!.matrix)));
  }
  return worst;
}

interface OracleRow {
  case_id: string;
  action: string;
  candidate: string;
  target_cif: string;
  candidate_cif: string;
  expected: { correct: boolean; wrong_type: string | null; rmsd: number | null; max_dist: number | null };
}
const oracle: OracleRow[] = readFileSync(join(REFERENCE, 'golden', 'atomworld', 'eval_oracle.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

describe('structlab atomworld apply', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-aw-'));

  it('prints CIF that re-reads to the golden target (first case of each action, 1e-6 Å)', () => {
    const firstOfEach = new Map<string, GoldenCase>();
    for (const c of cases) if (!firstOfEach.has(c.action)) firstOfEach.set(c.action, c);
    expect(firstOfEach.size).toBe(10);
    for (const c of firstOfEach.values()) {
      const r = structlab(['atomworld', 'apply', '-', '--action', c.action, '--params', JSON.stringify(c.params)], { input: c.before_cif });
      expect(r.code, `${c.id}: ${r.stderr}`).toBe(0);
      expect(r.stdout.startsWith('data_image0\n'), c.id).toBe(true);
      const worst = worstDistance(r.stdout, c.after_cif);
      expect(worst, c.id).toBeGreaterThanOrEqual(0);
      expect(worst, c.id).toBeLessThan(1e-6);
    }
  });

  it('exits 2 with one sentence on bad input', async () => {
    const file = join(tmp, 'before.cif');
    writeFileSync(file, cases[0].before_cif);
    for (const args of [
      ['atomworld', 'apply', file, '--action', 'teleport', '--params', '{}'],
      ['atomworld', 'apply', file, '--action', 'remove', '--params', '{"index": 999}'],
      ['atomworld', 'apply', file, '--action', 'remove', '--params', '{index: 1'],
      ['atomworld', 'apply', file, '--params', '{"index": 1}'],
      ['atomworld', 'apply', join(tmp, 'missing.cif'), '--action', 'remove', '--params', '{"index": 1}'],
    ]) {
      const r = await structlabInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('structlab atomworld eval', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-aweval-'));
  // Every third oracle pair (pymatgen 2022.11 verdicts): ground truth, unchanged input and the typical mistakes.
  const rows = oracle.filter((_, k) => k % 3 === 0);
  const idOf = (r: OracleRow) => `${r.case_id}|${r.candidate}`;
  const casesFile = join(tmp, 'cases.jsonl'),
    answersFile = join(tmp, 'answers.jsonl');
  writeFileSync(casesFile, rows.map((r) => JSON.stringify({ id: idOf(r), action: r.action, after_cif: r.target_cif })).join('\n'));
  // The last case gets no answer row: it must count as OutputFormatError.
  writeFileSync(
    answersFile,
    rows
      .slice(0, -1)
      .map((r) => JSON.stringify({ id: idOf(r), answer: `Sure.\n<cif>\n${r.candidate_cif}\n</cif>` }))
      .join('\n'),
  );

  it('judges a batch in worker threads as pymatgen did (verdicts, max_dist 1e-6) with a per-action summary', async () => {
    const r = await structlabInProcess(['atomworld', 'eval', casesFile, answersFile, '--workers', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/1 case\(s\) have no answer/);
    const out = JSON.parse(r.stdout);
    expect(out.cases.map((c: { id: string }) => c.id)).toEqual(rows.map(idOf));
    const expected = rows.map((row, k) =>
      k === rows.length - 1 ? { correct: false, wrong_type: 'OutputFormatError', max_dist: null } : row.expected,
    );
    out.cases.forEach((c: { id: string; correct: boolean; wrong_type: string | null; max_dist: number | null }, k: number) => {
      expect([c.correct, c.wrong_type], c.id).toEqual([expected[k].correct, expected[k].wrong_type]);
      if (c.correct) expect(Math.abs(c.max_dist! - expected[k].max_dist!), c.id).toBeLessThan(1e-6);
    });
    // Summary recomputed from the oracle's verdicts.
    const byAction: Record<string, { n: number; ok: number; dist: number[]; errors: Record<string, number> }> = {};
    rows.forEach((row, k) => {
      const a = (byAction[row.action] ??= { n: 0, ok: 0, dist: [], errors: {} });
      a.n++;
      if (expected[k].correct) {
        a.ok++;
        a.dist.push(expected[k].max_dist!);
      } else a.errors[expected[k].wrong_type!] = (a.errors[expected[k].wrong_type!] ?? 0) + 1;
    });
    expect(Object.keys(out.by_action).sort()).toEqual(Object.keys(byAction).sort());
    for (const [action, a] of Object.entries(byAction)) {
      const got = out.by_action[action];
      expect(got.n).toBe(a.n);
      expect(got.success_rate).toBeCloseTo(a.ok / a.n, 12);
      expect(got.errors).toEqual(a.errors);
      if (a.dist.length) expect(got.mean_max_dist).toBeCloseTo(a.dist.reduce((x, y) => x + y, 0) / a.dist.length, 6);
      else expect(got.mean_max_dist).toBeNull();
    }
    // In this thread (--workers 0) the output is identical.
    const single = await structlabInProcess(['atomworld', 'eval', casesFile, answersFile, '--workers', '0']);
    expect(single.code, single.stderr).toBe(0);
    expect(single.stdout).toBe(r.stdout);
  });

  it('--lint adds each case’s lint codes and a per-action count; golden delete_below "Including itself" prompts are flagged', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'aw-lint-'));
    const deleteBelow = cases.filter((c) => c.action === 'delete_below');
    const withPrompt = join(tmp, 'cases.jsonl'),
      answers = join(tmp, 'answers.jsonl');
    writeFileSync(withPrompt, deleteBelow.map((c) => JSON.stringify(c)).join('\n'));
    writeFileSync(answers, deleteBelow.map((c) => JSON.stringify({ id: c.id, answer: `<cif>${c.after_cif}</cif>` })).join('\n'));
    const r = await structlabInProcess(['atomworld', 'eval', withPrompt, answers, '--workers', '0', '--lint']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // Independent of the lint code: the prompts that literally say so.
    const saysIncluding = new Set(deleteBelow.filter((c) => /including itself/i.test(c.prompt)).map((c) => String(c.id)));
    expect(saysIncluding.size).toBeGreaterThan(0);
    for (const c of out.cases) expect(c.lint.includes('delete_below_including_itself'), c.id).toBe(saysIncluding.has(String(c.id)));
    expect(out.by_action.delete_below.lint_flagged).toBeGreaterThanOrEqual(saysIncluding.size);
    // Without --lint the output keeps its documented shape (structlab atomworld eval --help).
    const plain = JSON.parse((await structlabInProcess(['atomworld', 'eval', withPrompt, answers, '--workers', '0'])).stdout);
    expect(Object.keys(plain.cases[0])).toEqual(['id', 'action', 'correct', 'wrong_type', 'rmsd', 'max_dist']);
  });

  it('exits 2 with one sentence on bad input', async () => {
    const broken = join(tmp, 'broken.jsonl');
    writeFileSync(broken, '{"id": "a", "action": "move", "after_cif": "x"}\n{not json\n');
    const noTarget = join(tmp, 'no-target.jsonl');
    writeFileSync(noTarget, '{"id": "a", "action": "move"}\n');
    const empty = join(tmp, 'empty.jsonl');
    writeFileSync(empty, '');
    for (const args of [
      ['atomworld', 'eval', empty, answersFile],
      ['atomworld', 'eval', noTarget, answersFile],
      ['atomworld', 'eval', join(tmp, 'missing.jsonl'), answersFile],
      ['atomworld', 'eval', casesFile],
    ]) {
      const r = await structlabInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await structlabInProcess(['atomworld', 'eval', empty, answersFile])).stderr).toMatch(/holds no cases/);
    expect((await structlabInProcess(['atomworld', 'eval', noTarget, answersFile])).stderr).toMatch(/line 1: case "a" has no "after_cif"/);
    // A junk line is skipped, named by line on stderr and in "skipped"; the other cases are judged.
    const r = await structlabInProcess(['atomworld', 'eval', broken, answersFile, '--workers', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/broken\.jsonl line 2: not valid JSON/);
    const out = JSON.parse(r.stdout);
    expect(out.cases.map((c: { id: string }) => c.id)).toEqual(['a']);
    expect(out.skipped).toEqual([{ file: broken, line: 2, error: expect.stringMatching(/not valid JSON/) }]);
  });
});

describe('atomworld eval: the answers index', () => {
  it('holds the first answers as text within its budget and reads the rest again from the file, alike', async () => {
    const { AnswerIndex } = await import('../../src/cli/commands/atomworld-eval.ts');
    const dir = mkdtempSync(join(tmpdir(), 'structlab-answers-'));
    const answers = ['<cif>\ndata_a\n</cif>', 'é ünïcode <cif>data_b</cif>', 'x'.repeat(50), 'last'];
    const path = join(dir, 'answers.jsonl');
    // A byte-order mark, CRLF line ends, a blank line and a junk line: places are kept in bytes, texts in characters.
    writeFileSync(path, '\ufeff' + answers.map((a, k) => JSON.stringify({ id: `c${k}`, answer: a })).join('\r\n\r\nnot json\r\n') + '\r\n');
    for (const budget of [0, answers[0].length + answers[1].length, 1 << 20]) {
      const skipped: { file: string; line: number; error: string }[] = [];
      const index = new AnswerIndex(path, skipped, budget);
      expect(
        answers.map((_, k) => index.get(`c${k}`)),
        `budget ${budget}`,
      ).toEqual(answers);
      expect(index.get('c9')).toBeNull();
      expect(skipped.map((s) => s.line)).toEqual([3, 6, 9]);
      index.close();
    }
  });
});
