/**
 * `gen csp --shard I/N` and `structlab merge`: for N = 1, 3 and 7 the merged partial reports equal the unsharded
 * report byte for byte (single sample and best of K, both conventions' options carried, the strict and custom
 * matcher tolerances carried), and merge refuses a partial whose options were tampered with or a set made with
 * different tolerances.
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
    ['strict', ['gen', 'csp', '--pred', join(CSP, 'pred'), '--truth', join(CSP, 'truth'), '--tolerances', 'strict', '--workers', '0']],
    ['custom', ['gen', 'csp', '--pred', join(CSP, 'pred'), '--truth', join(CSP, 'truth'), '--ltol', '0.25', '--workers', '0']],
  ];
  for (const [name, args] of cases) {
    it(`${name}: N = 1, 3, 7 merge to the unsharded report`, async () => {
      const whole = await run(args);
      expect(JSON.parse(whole).per_truth.length).toBeGreaterThan(7);
      for (const n of [1, 3, 7]) expect(await merged(name, args, n), `N = ${n}`).toBe(whole);
    }, 60_000);
  }

  it('the tolerances change the report, so merge must carry them', async () => {
    const reports = await Promise.all(cases.map(([, args]) => run(args)));
    const tolerances = reports.map((r) => JSON.parse(r).tolerances);
    expect(tolerances.map((t) => t.preset)).toEqual(['cdvae', 'cdvae', 'strict', 'custom']);
    expect(JSON.parse(reports[2]).match_rate).not.toBe(JSON.parse(reports[0]).match_rate);
  }, 60_000);

  it('refuses partials made with different tolerances, and tolerances gen csp would not write', async () => {
    const a = join(dir, 'mixed-0.json');
    const b = join(dir, 'mixed-1.json');
    writeFileSync(a, await run([...cases[0][1], '--shard', '0/2']));
    writeFileSync(b, await run([...cases[2][1], '--shard', '1/2']));
    const r = await structlabInProcess(['merge', a, b]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/mixed-1\.json was made with other matcher tolerances than \S*mixed-0\.json \(\{"preset":"strict"/);
    const partial = JSON.parse(await run([...cases[2][1], '--shard', '0/1']));
    for (const [key, value, message] of [
      ['stol', -1, /tolerances": --stol must be a number above 0, got -1/],
      ['angle_tol', 180, /tolerances": --angle-tol must be below 180 degrees/],
      ['preset', 'cdvae', /"partial\.options\.tolerances" must be \{preset/],
      ['ltol', '0.2', /"partial\.options\.tolerances" must be \{preset/],
    ] as const) {
      const file = join(dir, `tampered-${key}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          ...partial,
          partial: {
            ...partial.partial,
            options: { ...partial.partial.options, tolerances: { ...partial.partial.options.tolerances, [key]: value } },
          },
        }),
      );
      const bad = await structlabInProcess(['merge', file]);
      expect(bad.code, key).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr, key).toMatch(message);
    }
  }, 60_000);

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
