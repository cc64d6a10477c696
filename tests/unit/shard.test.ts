/**
 * `--shard I/N` and `structlab merge`: for N = 1, 3 and 7 the merged partial reports equal the unsharded report
 * byte for byte (c2np eval: the report, and the rows files after sorting; atomworld eval and fem check: the whole report), and
 * merge refuses an incomplete or mixed set. The exact sums behind the aggregates are checked against BigInt
 * arithmetic (an independent exact method) in every order.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExactSum } from '../../src/core/math/fsum.ts';
import { mulberry32 } from '../../src/core/math/random.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';

const dir = mkdtempSync(join(tmpdir(), 'shard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<string> {
  const r = await structlabInProcess(args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

/** Runs `args` as N shards, writing each partial report (and rows file) to disk; returns the merge's stdout. */
async function sharded(name: string, args: string[], n: number, rows: boolean): Promise<{ merged: string; rows: string[] }> {
  const partials: string[] = [];
  const rowLines: string[] = [];
  for (let i = 0; i < n; i++) {
    const rowsFile = join(dir, `${name}-${n}-${i}.rows.jsonl`);
    const out = await run([...args, '--shard', `${i}/${n}`, ...(rows ? ['--rows', rowsFile] : [])]);
    const partial = join(dir, `${name}-${n}-${i}.json`);
    writeFileSync(partial, out);
    partials.push(partial);
    if (rows) rowLines.push(...readFileSync(rowsFile, 'utf8').split('\n').filter(Boolean));
  }
  return { merged: await run(['merge', ...partials.reverse()]), rows: rowLines.sort() };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const golden: any = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'c2np', 'metric_cases.json'), 'utf8'));
type P = { symbols: string[]; coords: number[][] };
const jsonParticle = (p: P) => ({ symbols: p.symbols, positions: p.coords });

describe('c2np eval --shard I/N + merge', () => {
  const input = join(dir, 'forward.jsonl');
  const far = {
    symbols: ['H', 'H'],
    positions: [
      [0, 0, 0],
      [20, 0, 0],
    ],
  }; // NaN rdfE: a dropped value
  const lines = [
    ...golden.cases.map((c: { name: string; pred: P; gt: P; R_for_vratio: number }) =>
      JSON.stringify({ id: c.name, pred: jsonParticle(c.pred), truth: jsonParticle(c.gt), radius: c.R_for_vratio }),
    ),
    'not a row',
    JSON.stringify({ id: 'far', pred: far, truth: far }),
    '',
    JSON.stringify({ id: 'no truth', pred: far }),
  ];
  writeFileSync(input, lines.join('\n'));
  const args = ['c2np', 'eval', input, '--workers', '0', '--no-aligned'];

  it('N = 1, 3, 7 merge to the unsharded report; the shards rows are the unsharded rows', async () => {
    const rowsFile = join(dir, 'forward.rows.jsonl');
    const whole = await run([...args, '--rows', rowsFile]);
    const wholeRows = readFileSync(rowsFile, 'utf8').split('\n').filter(Boolean).sort();
    expect(JSON.parse(whole).skipped).toHaveLength(2);
    for (const n of [1, 3, 7]) {
      const { merged, rows } = await sharded('fwd', args, n, true);
      expect(merged, `N = ${n}`).toBe(whole);
      expect(rows, `N = ${n}`).toEqual(wholeRows);
    }
  });

  it('two folders: N = 3 merges to the unsharded report (unpaired files listed once)', async () => {
    const preds = join(dir, 'preds'),
      truths = join(dir, 'truths');
    mkdirSync(preds);
    mkdirSync(truths);
    golden.cases.slice(0, 5).forEach((c: { name: string; pred: P; gt: P }) => {
      const xyz = (p: P) => `${p.symbols.length}\n\n${p.symbols.map((s, i) => `${s} ${p.coords[i].join(' ')}`).join('\n')}\n`;
      writeFileSync(join(preds, `${c.name}.xyz`), xyz(c.pred));
      writeFileSync(join(truths, `${c.name}.xyz`), xyz(c.gt));
    });
    writeFileSync(join(preds, 'lonely.xyz'), '1\n\nH 0 0 0\n');
    const folderArgs = ['c2np', 'eval', '--pred', preds, '--truth', truths, '--workers', '0', '--radius', '7'];
    const whole = await run(folderArgs);
    expect(JSON.parse(whole).unpaired).toEqual(['preds/lonely.xyz']);
    expect((await sharded('dir', folderArgs, 3, false)).merged).toBe(whole);
  });

  it('merge refuses a missing shard, a repeated one, other options and other commands', async () => {
    const parts = [0, 1, 2].map((i) => join(dir, `fwd-3-${i}.json`));
    const bad = async (files: string[], message: RegExp) => {
      const r = await structlabInProcess(['merge', ...files]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    };
    await bad(parts.slice(0, 2), /shard 2 of 3 is missing/);
    await bad([parts[0], parts[0], parts[1], parts[2]], /both shard 0\/3/);
    const aligned = join(dir, 'aligned-0.json');
    writeFileSync(aligned, await run(['c2np', 'eval', input, '--workers', '0', '--shard', '0/3']));
    await bad([aligned, parts[1], parts[2]], /other options/);
    await bad([input], /not (valid JSON|a partial report)/);
    await bad([join(dir, 'fwd-7-0.json'), parts[1]], /one of 3 shards but .* one of 7/);
  });
});

describe('atomworld eval --shard I/N + merge', () => {
  const oracle = readFileSync(join(REFERENCE, 'golden', 'atomworld', 'eval_oracle.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .filter((_, k) => k % 9 === 0);
  const id = (r: { case_id: string; candidate: string }) => `${r.case_id}|${r.candidate}`;
  const cases = join(dir, 'cases.jsonl'),
    answers = join(dir, 'answers.jsonl');
  writeFileSync(
    cases,
    [...oracle.map((r) => JSON.stringify({ id: id(r), action: r.action, after_cif: r.target_cif })), '{"junk": true}'].join('\n'),
  );
  // The last case has no answer: OutputFormatError in whichever shard holds it.
  writeFileSync(
    answers,
    oracle
      .slice(0, -1)
      .map((r) => JSON.stringify({ id: id(r), answer: `<cif>\n${r.candidate_cif}\n</cif>` }))
      .join('\n'),
  );

  it('N = 1, 3, 7 merge to the unsharded report, byte for byte', async () => {
    const args = ['atomworld', 'eval', cases, answers, '--workers', '0'];
    const whole = await run(args);
    const report = JSON.parse(whole);
    expect(report.cases).toHaveLength(oracle.length);
    expect(report.skipped).toHaveLength(1);
    for (const n of [1, 3, 7]) expect((await sharded('aw', args, n, false)).merged, `N = ${n}`).toBe(whole);
  });
});

describe('fem check --outputs-dir --shard I/N + merge', () => {
  it('N = 1, 3 merge to the unsharded report; each file is judged as fem check --outputs judges it alone', async () => {
    const id = 'FEM_2D_tri_quadrature_CC0_H0_T0';
    const cases = join(REFERENCE, 'golden', 'fembench_models', 'verification', `${id}.json`);
    const outputs = join(dir, 'fem-outputs');
    mkdirSync(outputs);
    const good = await run(['fem', 'run', id, '--cases', cases]);
    const doc = JSON.parse(good);
    writeFileSync(join(outputs, 'a-good.json'), good);
    doc.results[1] = { error: { type: 'ValueError', message: 'boom' } };
    writeFileSync(join(outputs, 'b-wrong.json'), JSON.stringify(doc));
    writeFileSync(join(outputs, 'c-broken.json'), '{"results": ');
    writeFileSync(join(outputs, 'd-good.json'), good);
    const args = ['fem', 'check', id, '--cases', cases, '--outputs-dir', outputs];
    const whole = await run(args);
    const report = JSON.parse(whole);
    expect(report.files.map((f: { file: string }) => f.file)).toEqual(['a-good.json', 'b-wrong.json', 'c-broken.json', 'd-good.json']);
    expect([report.passed, report.total]).toEqual([2, 4]);
    const alone = JSON.parse(await run(['fem', 'check', id, '--cases', cases, '--outputs', join(outputs, 'b-wrong.json')]));
    expect(report.files[1]).toEqual({ file: 'b-wrong.json', ...alone });
    expect(report.files[2].error).toMatch(/not valid JSON|JSON/);
    for (const n of [1, 3]) expect((await sharded('fem', args, n, false)).merged, `N = ${n}`).toBe(whole);
  });
});

describe('ExactSum (the sums behind mergeable aggregates)', () => {
  it('equals the correctly rounded BigInt sum, whatever the order and however the terms are split between shards', () => {
    const random = mulberry32(13);
    const SCALE = 200n; // every term is a multiple of 2^-200: exact as a BigInt times 2^-200
    for (let trial = 0; trial < 50; trial++) {
      const terms = Array.from({ length: 200 }, () => {
        const e = Math.floor(random() * 120) - 60;
        return (random() - 0.5) * 2 ** e * (random() < 0.1 ? 1e6 : 1);
      });
      let exact = 0n;
      for (const x of terms) {
        // x = m · 2^k with integer m: scale by 2^200 exactly through repeated doubling of an integer mantissa.
        let m = x,
          k = 0;
        while (!Number.isInteger(m)) {
          m *= 2;
          k++;
        }
        exact += BigInt(m) << (SCALE - BigInt(k));
      }
      const expected = Number(exact) / 2 ** 200;
      const whole = new ExactSum();
      for (const x of terms) whole.add(x);
      expect(whole.value()).toBe(expected);
      const shards = [new ExactSum(), new ExactSum(), new ExactSum()];
      [...terms].reverse().forEach((x, k) => shards[k % 3].add(x));
      const merged = new ExactSum();
      for (const s of shards.reverse()) merged.addAll(ExactSum.fromJSON(JSON.parse(JSON.stringify(s)), 'sum'));
      expect(merged.value()).toBe(expected);
    }
  });
});
