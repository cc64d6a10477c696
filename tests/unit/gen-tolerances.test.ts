/**
 * `gen csp` tolerance presets and explicit tolerances: `strict` (stol 0.3, ltol 0.2, angle_tol 5) against pymatgen
 * 2022.11.7's StructureMatcher(stol=0.3, ltol=0.2, angle_tol=5).get_rms_dist(pred, truth) on every visible pair
 * (golden/generations/csp_strict.json, scripts/make-sg-goldens.py); bad values exit 2 with one sentence.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { cspTolerances } from '../../src/core/tasks/generations/csp.ts';
import { CSP_PRESETS } from '../../src/core/tasks/generations/tolerances.ts';
import { GenInputError } from '../../src/core/tasks/generations/inputs.ts';

const CSP = join(REFERENCE, 'golden', 'generations', 'csp_visible');
const strictGolden = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'generations', 'csp_strict.json'), 'utf8')) as {
  tolerances: { stol: number; ltol: number; angle_tol: number };
  pairs: Record<string, [number, number] | null | { error: string }>;
};
const base = ['gen', 'csp', '--pred', join(CSP, 'pred'), '--truth', join(CSP, 'truth')];
/** As the generations goldens judge rms (scripts/support/generations-compare.ts): pymatgen exits early below 1e-5. */
const EARLY_EXIT = 1e-5;

interface Row {
  id: string;
  reason: string | null;
  matched: boolean;
  rms: number | null;
  max_dist: number | null;
}

const run = async (extra: string[]) => {
  const r = await structlabInProcess([...base, ...extra]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return { text: r.stdout, doc: JSON.parse(r.stdout) };
};

describe('gen csp --tolerances', () => {
  it('the presets are the published values', () => {
    expect(CSP_PRESETS.cdvae).toEqual({ stol: 0.5, angle_tol: 10, ltol: 0.3 });
    expect(CSP_PRESETS.strict).toEqual({ stol: 0.3, angle_tol: 5, ltol: 0.2 });
    expect(strictGolden.tolerances).toEqual({ stol: 0.3, ltol: 0.2, angle_tol: 5 });
  });

  it('strict: every attempted pair matches as pymatgen with the strict tolerances says, with its rms', async () => {
    const { doc } = await run(['--tolerances', 'strict', '--workers', '0']);
    expect(doc.matcher).toEqual({ stol: 0.3, angle_tol: 5, ltol: 0.2 });
    expect(doc.tolerances).toEqual({ preset: 'strict', stol: 0.3, ltol: 0.2, angle_tol: 5 });
    const rows = doc.per_sample as Row[];
    expect(rows).toHaveLength(203);
    let attempted = 0,
      matched = 0;
    for (const row of rows) {
      const e = strictGolden.pairs[row.id];
      expect(e === undefined || (e !== null && !Array.isArray(e)), row.id).toBe(false);
      if (row.reason !== null && row.reason !== 'no_match') continue; // not attempted: validity gates
      attempted++;
      const want = e as [number, number] | null;
      expect(row.matched, row.id).toBe(want !== null);
      if (want) {
        matched++;
        if (want[0] < EARLY_EXIT) expect(row.rms!, row.id).toBeLessThan(EARLY_EXIT);
        else expect(Math.abs(row.rms! - want[0]), row.id).toBeLessThanOrEqual(1e-6);
      }
    }
    // The numbers this check rests on (a change in the set or the gates shows here).
    expect([attempted, matched]).toEqual([165, 112]);
    expect(doc.match_rate).toBe(matched / 203);
    // Stricter tolerances match fewer pairs than CDVAE's on this set.
    const { doc: cdvae } = await run(['--workers', '0']);
    expect(doc.match_rate).toBeLessThan(cdvae.match_rate);
  }, 120_000);

  it('explicit values override a preset; the preset named is the one the values equal, else "custom"', async () => {
    const strict = await run(['--tolerances', 'strict']);
    const explicit = await run(['--stol', '0.3', '--ltol', '0.2', '--angle-tol', '5']);
    // Explicit values equal to a preset's are named by it: the same bytes as the preset.
    expect(explicit.text).toBe(strict.text);
    const same = await run(['--tolerances', 'cdvae', '--stol', '0.5']);
    const plain = await run([]);
    expect(same.text).toBe(plain.text);
    expect(plain.doc.tolerances).toEqual({ preset: 'cdvae', stol: 0.5, ltol: 0.3, angle_tol: 10 });
    const loose = await run(['--tolerances', 'strict', '--stol', '0.5']);
    expect(loose.doc.tolerances).toEqual({ preset: 'custom', stol: 0.5, ltol: 0.2, angle_tol: 5 });
    expect(loose.doc.matcher).toEqual({ stol: 0.5, angle_tol: 5, ltol: 0.2 });
  }, 120_000);

  it('worker threads use the chosen tolerances (same bytes as one thread)', async () => {
    const one = await run(['--tolerances', 'strict', '--workers', '0']);
    const two = await run(['--tolerances', 'strict', '--workers', '2']);
    expect(two.text).toBe(one.text);
  }, 120_000);

  it('refuses a tolerance ≤ 0, NaN, not a number, an angle ≥ 180 and an unknown preset with one sentence', async () => {
    for (const extra of [
      ['--stol', '0'],
      ['--stol', '-0.1'],
      ['--ltol', 'NaN'],
      ['--ltol', 'abc'],
      ['--stol', ''],
      ['--stol', 'Infinity'],
      ['--angle-tol', '180'],
      ['--angle-tol', '1e3'],
      ['--angle-tol', '0'],
      ['--tolerances', 'loose'],
    ]) {
      const r = await structlabInProcess([...base, ...extra]);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^error: --(stol|ltol|angle-tol|tolerances) /);
    }
  }, 60_000);

  it('core: cspTolerances names the preset and refuses bad values', () => {
    expect(cspTolerances('strict')).toEqual({ preset: 'strict', stol: 0.3, ltol: 0.2, angle_tol: 5 });
    expect(cspTolerances('cdvae', { angle_tol: 10 })).toEqual({ preset: 'cdvae', stol: 0.5, ltol: 0.3, angle_tol: 10 });
    expect(cspTolerances('cdvae', { ltol: 0.25 }).preset).toBe('custom');
    expect(cspTolerances('cdvae', { stol: 0.3, ltol: 0.2, angle_tol: 5 }).preset).toBe('strict');
    expect(() => cspTolerances('cdvae', { stol: Number.NaN })).toThrow(GenInputError);
    expect(() => cspTolerances('cdvae', { angle_tol: 179.9 })).not.toThrow();
    expect(() => cspTolerances('cdvae', { angle_tol: 180 })).toThrow('--angle-tol must be below 180 degrees, got 180');
    expect(() => cspTolerances('strict', { ltol: -1 })).toThrow('--ltol must be a number above 0, got -1');
  });
});
