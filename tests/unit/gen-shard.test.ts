/**
 * `gen csp --shard I/N` and `structlab merge`: for N = 1, 3 and 7 the merged partial reports equal the unsharded
 * report byte for byte (single sample and best of K, both conventions' options carried), and merge refuses a
 * partial whose options were tampered with.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';

const dir = mkdtempSync(join(tmpdir(), 'gen-shard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const CSP = join(REFERENCE, 'golden', 'generations', 'csp_visible');

async function run(args: string[]): Promise<string> {
  const r = await structlabInProcess(args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

async function merged(name: string, args: string[], n: number): Promise<string> {
  const partials: string[] = [];
  for (let i = 0; i < n; i++) {
    const partial = join(dir, `${name}-${n}-${i}.json`);
    writeFileSync(partial, await run([...args, '--shard', `${i}/${n}`]));
    partials.push(partial);
  }
  return run(['merge', ...partials.reverse()]);
}

describe('gen csp --shard I/N + merge', () => {
  const cases: [string, string[]][] = [
    ['single', ['gen', 'csp', '--pred', join(CSP, 'pred'), '--truth', join(CSP, 'truth'), '--convention', 'cdvae', '--workers', '0']],
    [
      'multi',
      [
        'gen',
        'csp',
        '--pred',
        join(CSP, 'multi_pred.extxyz'),
        '--truth',
        join(CSP, 'multi_truth.jsonl'),
        '--n-samples',
        '4',
        '--workers',
        '0',
      ],
    ],
  ];
  for (const [name, args] of cases) {
    it(`${name}: N = 1, 3, 7 merge to the unsharded report`, async () => {
      const whole = await run(args);
      expect(JSON.parse(whole).per_truth.length).toBeGreaterThan(7);
      for (const n of [1, 3, 7]) expect(await merged(name, args, n), `N = ${n}`).toBe(whole);
    }, 60_000);
  }

  it('refuses a partial whose options are not a convention and a SMACT table', async () => {
    const args = cases[1][1];
    const partial = JSON.parse(await run([...args, '--shard', '0/1']));
    partial.partial.options.convention = 'constructor';
    const file = join(dir, 'tampered.json');
    writeFileSync(file, JSON.stringify(partial));
    const r = await structlabInProcess(['merge', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/must name a convention/);
    expect(readFileSync(file, 'utf8')).toContain('constructor');
  }, 60_000);
});
