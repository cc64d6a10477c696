/** `structlab atomworld apply` and `atomworld eval` as a user runs them: real processes, exit codes. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inverse, norm, vecMat, type Vec3 } from '../../src/core/math/mat3.ts';
import { parseCif } from '../../src/core/io/cif/reader.ts';
import { majorSpecies } from '../../src/core/structure/structure.ts';
import { REPO_ROOT, SHARED } from '../shared.ts';

function structlab(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'structlab.mjs'), ...args], {
    encoding: 'utf8', input, timeout: 120_000, cwd: REPO_ROOT,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface GoldenCase { id: string; action: string; params: Record<string, unknown>; before_cif: string; after_cif: string }
const CASES_FILE = join(SHARED, 'golden', 'atomworld', 'generated_cases.jsonl');
const cases: GoldenCase[] = readFileSync(CASES_FILE, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

/** Worst per-atom periodic distance (Å) between two CIF texts, or -1 when counts/species/cells differ. */
function worstDistance(ours: string, target: string): number {
  const a = parseCif(ours).structures[0], b = parseCif(target).structures[0];
  if (a.sites.length !== b.sites.length) return -1;
  const pa = a.lattice!.parameters, pb = b.lattice!.parameters;
  for (const k of ['a', 'b', 'c', 'alpha', 'beta', 'gamma'] as const) if (Math.abs(pa[k] - pb[k]) > 1e-7) return -1;
  const inv = inverse(a.lattice!.matrix);
  let worst = 0;
  for (let i = 0; i < a.sites.length; i++) {
    if (majorSpecies(a.sites[i]) !== majorSpecies(b.sites[i])) return -1;
    const fa = a.sites[i].frac ?? vecMat(a.sites[i].xyz, inv), fb = b.sites[i].frac!;
    const d = fa.map((x, k) => { const t = x - fb[k]; return t - Math.round(t); }) as Vec3;
    worst = Math.max(worst, norm(vecMat(d, b.lattice!.matrix)));
  }
  return worst;
}

describe('structlab atomworld apply', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-aw-'));

  it('prints CIF that re-reads to the golden target (first case of each action, 1e-6 Å)', () => {
    const firstOfEach = new Map<string, GoldenCase>();
    for (const c of cases) if (!firstOfEach.has(c.action)) firstOfEach.set(c.action, c);
    expect(firstOfEach.size).toBe(10);
    for (const c of firstOfEach.values()) {
      const r = structlab(['atomworld', 'apply', '-', '--action', c.action, '--params', JSON.stringify(c.params)], c.before_cif);
      expect(r.code, `${c.id}: ${r.stderr}`).toBe(0);
      expect(r.stdout.startsWith('data_image0\n'), c.id).toBe(true);
      const worst = worstDistance(r.stdout, c.after_cif);
      expect(worst, c.id).toBeGreaterThanOrEqual(0);
      expect(worst, c.id).toBeLessThan(1e-6);
    }
  });

  it('exits 2 with one sentence on bad input', () => {
    const file = join(tmp, 'before.cif');
    writeFileSync(file, cases[0].before_cif);
    for (const args of [
      ['atomworld', 'apply', file, '--action', 'teleport', '--params', '{}'],
      ['atomworld', 'apply', file, '--action', 'remove', '--params', '{"index": 999}'],
      ['atomworld', 'apply', file, '--action', 'remove', '--params', '{index: 1'],
      ['atomworld', 'apply', file, '--params', '{"index": 1}'],
      ['atomworld', 'apply', join(tmp, 'missing.cif'), '--action', 'remove', '--params', '{"index": 1}'],
    ]) {
      const r = structlab(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
