/**
 * Batch commands stream their input: a 1,000,000-row JSONL split (the batchRows limit) is scored by
 * `structlab c2np eval` as a process, through the worker pool, with every row written to a rows file, in
 * well under 1 GB of peak memory (maxRSS of the whole process, threads included). Inverse-task rows are the
 * cheap honest kind: real rows, real metrics, little work each.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';

const dir = mkdtempSync(join(tmpdir(), 'stream-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 1_000_000;
const row = (k: number) =>
  `{"id":"r${k}","pred_lattice":[4,4,4,90,90,${90 + (k % 7) * 0.1}],"pred_sg":${k % 3 ? 221 : 62},` +
  `"true_lattice":[4,4,4,90,90,90],"true_sg":221}\n`;

describe('streamed batch input', () => {
  it('1,000,000 JSONL rows in under 1 GB, every row scored and written in order', () => {
    const input = join(dir, 'split.jsonl');
    const parts: string[] = [];
    for (let k = 0; k < ROWS; k++) parts.push(row(k));
    writeFileSync(input, parts.join(''));
    parts.length = 0;
    const probe = join(dir, 'maxrss.cjs');
    writeFileSync(probe, "process.on('exit', () => process.stderr.write(`maxrss_kb=${process.resourceUsage().maxRSS}\\n`));\n");
    const rows = join(dir, 'rows.jsonl');
    const r = spawnSync(
      process.execPath,
      ['--require', probe, join(REPO_ROOT, 'bin', 'structlab.mjs'), 'c2np', 'eval', input, '--workers', '1', '--rows', rows],
      { encoding: 'utf8', cwd: REPO_ROOT, timeout: 120_000 },
    );
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.aggregates.count).toBe(ROWS);
    // k % 3 === 0 has the wrong space group: 333,334 of them.
    expect(report.aggregates.sg_accuracy).toBe((ROWS - Math.ceil(ROWS / 3)) / ROWS);
    const maxRssKb = Number(/maxrss_kb=(\d+)/.exec(r.stderr)?.[1]);
    expect(maxRssKb).toBeGreaterThan(0);
    expect(maxRssKb * 1024).toBeLessThan(1024 ** 3);
    // The last row of the rows file is the last input row (input order kept through the pool).
    const size = statSync(rows).size;
    const fd = openSync(rows, 'r');
    const tail = Buffer.alloc(400);
    readSync(fd, tail, 0, tail.length, size - tail.length);
    closeSync(fd);
    const last = JSON.parse(tail.toString('utf8').trim().split('\n').pop()!);
    expect(last.index).toBe(ROWS - 1);
    expect(last.id).toBe(`r${ROWS - 1}`);
  }, 120_000);

  it('refuses a batch over the batchRows limit with one sentence naming it', async () => {
    const input = join(dir, 'small.jsonl');
    writeFileSync(input, Array.from({ length: 12 }, (_, k) => row(k)).join(''));
    const r = await structlabInProcess(['--limit', 'batchRows=10', 'c2np', 'eval', input, '--workers', '0']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/small\.jsonl: the batch has 11 lines; the limit is 10 lines \(raise it with --limit batchRows=N\)/);
  });
});
