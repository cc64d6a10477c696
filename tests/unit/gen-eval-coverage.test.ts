/**
 * `gen eval --coverage` end to end against CDVAE's compute_cov fed by matminer v0.7.3 (golden/generations/coverage.json,
 * scripts/make-coverage-goldens.py): the de novo visible set (329 predictions, 150 truths) read as the CLI reads it,
 * every structure's fingerprints made here (composition within 1e-9 relative, NaN where matminer has NaN; structure
 * within 1e-9 per feature but two, below; the three collapsed cells under 0.1 Å³ without, as in the goldens), the
 * coverage fractions exactly, the mean distances and diversities within 1e-8 and every nearest distance within 1e-5
 * for the three data sets' cutoffs; then the CLI document itself and its bad arguments.
 *
 * The two features with wider bounds (src/core/analysis/local-env/README.md): "body-centered cubic CN_8" counts
 * neighbour pairs in the order CrystalNN lists them, and pymatgen orders neighbours of equal (rounded) weight as
 * qhull happens to list their facets, so a site with tied weights may differ (here by up to 2e-5); "bent 150 degrees
 * CN_2" is acos of a cosine near −1, where numpy's last bit is amplified (here up to 4e-9).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { readGenSet } from '../../src/cli/commands/gen-inputs.ts';
import { COVERAGE_CUTOFFS, coverageMetrics } from '../../src/core/tasks/generations/coverage.ts';
import { type CoverageFingerprint, coverageFingerprint } from '../../src/core/tasks/generations/fingerprints.ts';
import { CRYSTALNN_FINGERPRINT_LABELS } from '../../src/core/analysis/local-env/fingerprint.ts';
import { structlabInProcess } from '../cli-runner.ts';

type Vec = (number | null)[];
interface GoldenItem {
  id: string;
  comp_fp: Vec;
  struct_fp: Vec | null;
  skipped?: boolean;
  valid?: boolean;
}
interface GoldenRun {
  struc_cutoff: number;
  comp_cutoff: number;
  metrics: Record<string, number>;
  /** mp20 only: the distances do not depend on the cutoffs. */
  distances?: Record<'struc_recall_dist' | 'struc_precision_dist' | 'comp_recall_dist' | 'comp_precision_dist', number[]>;
}
const golden = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'generations', 'coverage.json'), 'utf8')).real as {
  pred: GoldenItem[];
  truth: GoldenItem[];
  coverage: Record<keyof typeof COVERAGE_CUTOFFS, GoldenRun>;
  comp_div: number;
  struct_div: number;
};
const SET = join(REFERENCE, 'golden', 'generations', 'denovo_visible');
const predPath = join(SET, 'pred'),
  truthPath = join(SET, 'truth.extxyz');

/** Per structure-fingerprint feature: the bound on |ours − matminer's| (see the header). */
const STRUCT_TOLERANCE = (label: string): number =>
  label === 'body-centered cubic CN_8' ? 1e-4 : label === 'bent 150 degrees CN_2' ? 1e-8 : 1e-9;
const FRACTIONS = ['cov_recall', 'cov_precision'];

/** |a − b| within tol (relative above 1), NaN (null in JSON) equal to NaN. */
function close(a: number, b: number | null, tol: number): boolean {
  if (b === null) return Number.isNaN(a);
  return Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));
}
const worst = (xs: readonly number[], ys: readonly number[]) => Math.max(0, ...xs.map((x, k) => Math.abs(x - ys[k])));

describe('gen eval --coverage against CDVAE + matminer', () => {
  const preds = readGenSet('prediction', predPath);
  const truths = readGenSet('truth', truthPath);
  const fps: { pred: CoverageFingerprint[]; truth: CoverageFingerprint[] } = {
    pred: preds.map((p) => coverageFingerprint(p.structure)),
    truth: truths.map((t) => coverageFingerprint(t.structure)),
  };

  it.each(['pred', 'truth'] as const)('gives every %s structure the goldens’ fingerprints', (role) => {
    const items = role === 'pred' ? preds : truths;
    expect(items.map((p) => p.id)).toEqual(golden[role].map((g) => g.id));
    fps[role].forEach((f, k) => {
      const g = golden[role][k];
      if (g.struct_fp === null) {
        expect([f.struct, f.comp], g.id).toEqual([null, null]);
        expect(f.error).toMatch(/below CDVAE's 0.1 Å³/);
        return;
      }
      expect(f.error, g.id).toBeNull();
      f.struct!.forEach((x, d) => {
        const label = CRYSTALNN_FINGERPRINT_LABELS[d];
        expect(close(x, g.struct_fp![d], STRUCT_TOLERANCE(label)), `${g.id} structure feature ${label}`).toBe(true);
      });
      f.comp!.forEach((x, d) => expect(close(x, g.comp_fp[d], 1e-9), `${g.id} composition feature ${d}`).toBe(true));
    });
  });

  it.each(Object.keys(COVERAGE_CUTOFFS) as (keyof typeof COVERAGE_CUTOFFS)[])('gives compute_cov’s %s numbers', (dataset) => {
    const want = golden.coverage[dataset];
    const got = coverageMetrics(
      fps.pred.map((f) => f.struct),
      fps.pred.map((f) => f.comp),
      fps.truth.map((f) => f.struct!),
      fps.truth.map((f) => f.comp!),
      COVERAGE_CUTOFFS[dataset],
    );
    const metrics = got.metrics as unknown as Record<string, number>;
    for (const [key, value] of Object.entries(want.metrics)) {
      if (FRACTIONS.includes(key)) expect(metrics[key], key).toBe(value);
      else expect(Math.abs(metrics[key] - value), key).toBeLessThanOrEqual(1e-8);
    }
    const distances = golden.coverage.mp20.distances!;
    for (const key of Object.keys(distances) as (keyof typeof distances)[]) {
      expect(got.distances[key].length, key).toBe(distances[key].length);
      expect(worst(got.distances[key], distances[key]), key).toBeLessThanOrEqual(1e-5);
    }
  });

  it('prints them from the CLI with the diversities and per-sample distances', async () => {
    const r = await structlabInProcess(['gen', 'eval', '--pred', predPath, '--truth', truthPath, '--coverage', 'mp20', '--workers', '1']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    const want = golden.coverage.mp20;
    expect(doc.coverage.dataset).toBe('mp20');
    expect([doc.coverage.struc_cutoff, doc.coverage.comp_cutoff]).toEqual([0.4, 10]);
    expect([doc.coverage.n_predictions, doc.coverage.n_truth]).toEqual([326, 150]);
    for (const [key, value] of Object.entries(want.metrics)) {
      if (FRACTIONS.includes(key)) expect(doc.coverage[key], key).toBe(value);
      else expect(Math.abs(doc.coverage[key] - value), key).toBeLessThanOrEqual(1e-8);
    }
    expect(Math.abs(doc.comp_div - golden.comp_div)).toBeLessThanOrEqual(1e-8);
    expect(Math.abs(doc.struct_div - golden.struct_div)).toBeLessThanOrEqual(1e-8);
    const rows: { struc_precision_dist: number | null; comp_precision_dist: number | null; fingerprint_error: string | null }[] =
      doc.per_sample;
    const kept = rows.filter((s) => s.fingerprint_error === null);
    expect(
      worst(
        kept.map((s) => s.struc_precision_dist!),
        want.distances!.struc_precision_dist,
      ),
    ).toBeLessThanOrEqual(1e-5);
    expect(
      worst(
        kept.map((s) => s.comp_precision_dist!),
        want.distances!.comp_precision_dist,
      ),
    ).toBeLessThanOrEqual(1e-9);
    expect(rows.filter((s) => s.fingerprint_error !== null).every((s) => s.struc_precision_dist === null)).toBe(true);
    // Worker threads fingerprint ranges of both sets: the same document, byte for byte.
    const threads = await structlabInProcess([
      'gen',
      'eval',
      '--pred',
      predPath,
      '--truth',
      truthPath,
      '--coverage',
      'mp20',
      '--workers',
      '2',
    ]);
    expect(threads.code, threads.stderr).toBe(0);
    expect(threads.stdout).toBe(r.stdout);
  });

  it('takes cutoffs by hand and refuses bad arguments with a sentence', async () => {
    const byHand = await structlabInProcess(['gen', 'eval', '--pred', predPath, '--truth', truthPath, '--cov-cutoffs', '0.2,4']);
    expect(byHand.code, byHand.stderr).toBe(0);
    const doc = JSON.parse(byHand.stdout).coverage;
    expect(doc.dataset).toBeNull();
    expect(doc.cov_recall).toBe(golden.coverage.carbon.metrics.cov_recall);
    for (const [argv, message] of [
      [['--coverage', 'mp20'], /give it as --truth/],
      [['--truth', truthPath, '--coverage', 'mp21'], /--coverage must be mp20 or carbon or perovskite/],
      [['--truth', truthPath, '--cov-cutoffs', '0.4'], /--cov-cutoffs takes two distances/],
      [['--truth', truthPath, '--cov-cutoffs', '-1,4'], /--cov-cutoffs takes two distances/],
    ] as const) {
      const bad = await structlabInProcess(['gen', 'eval', '--pred', predPath, ...argv]);
      expect(bad.code, argv.join(' ')).toBe(2);
      expect(bad.stderr).toMatch(message);
    }
  });
});
