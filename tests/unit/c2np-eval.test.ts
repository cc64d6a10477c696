/**
 * `structlab c2np eval` against the upstream metric values (metric_cases.json: the benchmark's own numpy/scipy
 * functions), the upstream split aggregation (a plain mean of those values, with the drops of C2NP's scripts)
 * and the compare page's batch (the same core functions the page's worker calls).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pairFilesByName, parseC2npBatch } from '../../src/core/tasks/c2np/batch.ts';
import { forwardBatchRow, inverseBatchRow, inverseBatchSummary } from '../../src/core/tasks/c2np/batch-eval.ts';
import { inverseMetrics } from '../../src/core/tasks/c2np/metrics.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const golden: any = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'c2np', 'metric_cases.json'), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'c2np-eval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type P = { symbols: string[]; coords: number[][] };
const xyz = (p: P, comment = '') =>
  `${p.symbols.length}\n${comment}\n${p.symbols.map((s, i) => `${s} ${p.coords[i].join(' ')}`).join('\n')}\n`;
const jsonParticle = (p: P) => ({ symbols: p.symbols, positions: p.coords });

const forwardLines: string[] = golden.cases.map(
  (c: { name: string; pred: P; gt: P; R_for_vratio: number }) =>
    JSON.stringify({ id: c.name, pred: jsonParticle(c.pred), truth: jsonParticle(c.gt), radius: c.R_for_vratio }) + '\n',
);
const forwardPath = join(dir, 'forward.jsonl');
writeFileSync(forwardPath, forwardLines.join(''));

const t = golden.task2_example;
const inversePath = join(dir, 'inverse.jsonl');
writeFileSync(
  inversePath,
  t.per_sample
    .map((s: { pred_lattice: number[]; pred_sg: number }) =>
      JSON.stringify({ pred_lattice: s.pred_lattice, pred_sg: s.pred_sg, true_lattice: t.true_lattice, true_sg: t.true_spacegroup }),
    )
    .join('\n'),
);

async function evalJson(args: string[]) {
  const r = await structlabInProcess(['c2np', 'eval', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout);
}

const rel = (actual: number | null, expected: number, tol: number) => {
  expect(actual).not.toBeNull();
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(tol * Math.abs(expected) + 1e-12);
};

describe('c2np eval: forward split (metric_cases.json)', () => {
  it('aggregates equal the upstream mean of the upstream per-structure values, with the undefined RMSDs left out', async () => {
    const report = await evalJson([forwardPath, '--workers', '0', '--no-aligned']);
    expect(report.kind).toBe('forward');
    const values = (key: string) => golden.cases.map((c: { metrics: Record<string, number | null> }) => c.metrics[key]);
    const mean = (xs: (number | null)[]) => {
      const v = xs.filter((x): x is number => x !== null);
      return v.reduce((a, b) => a + b, 0) / v.length;
    };
    const a = report.aggregates;
    rel(a.drop_non_finite.rmsd, mean(values('rmsd_c2np')), 1e-12);
    rel(a.drop_non_finite.hausdorff, mean(values('hausdorff')), 1e-12);
    rel(a.drop_non_finite.rdf_error, mean(values('rdf_energy')), 1e-12);
    // Upstream hulls are Qhull QJ (joggled): ~1e-10 relative from the exact hull.
    rel(a.drop_non_finite.delta_hull_volume, mean(values('delta_hull_vol')), 1e-6);
    rel(a.drop_non_finite.volume_ratio, mean(values('vratio_pred')), 1e-6);
    // Every value is finite here, so the two upstream conventions agree.
    expect(a.average_all).toEqual(a.drop_non_finite);
    const undefinedRmsd = values('rmsd_c2np').filter((x: number | null) => x === null).length;
    expect(undefinedRmsd).toBeGreaterThan(0);
    expect(a.counts.rmsd).toEqual({ averaged: golden.cases.length - undefinedRmsd, non_finite: 0, undefined: undefinedRmsd });
    expect(a.rows).toBe(golden.cases.length);
    expect(a.errors).toBe(0);
  });

  it('rows equal the compare page batch rows (same core), in input order, in worker threads as in this thread', async () => {
    const page = parseC2npBatch(forwardLines.join(''));
    expect(page.kind).toBe('forward');
    const expected = page.kind === 'forward' ? page.rows.map((r, k) => forwardBatchRow(k, r, String)) : [];
    for (const workers of ['0', '2']) {
      const rows = join(dir, `rows-${workers}.jsonl`);
      await evalJson([forwardPath, '--workers', workers, '--rows', rows]);
      const got = readFileSync(rows, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(got).toEqual(JSON.parse(JSON.stringify(expected)));
    }
  });

  it('drops NaN rdf_error for ADiT/DiffCSP/MatterGen, and the CDVAE/FlowMM mean becomes null; skips particles under 2 atoms', async () => {
    const far = {
      symbols: ['H', 'H'],
      positions: [
        [0, 0, 0],
        [20, 0, 0],
      ],
    }; // no pair within 10 Å: rdfE is NaN
    const near = {
      symbols: ['H', 'H'],
      positions: [
        [0, 0, 0],
        [1, 0, 0],
      ],
    };
    const one = { symbols: ['H'], positions: [[0, 0, 0]] };
    const path = join(dir, 'edge.jsonl');
    writeFileSync(
      path,
      [
        { pred: near, truth: near },
        { pred: far, truth: far },
        { pred: one, truth: one },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const a = (await evalJson([path, '--workers', '0', '--no-aligned'])).aggregates;
    expect(a.drop_non_finite.rdf_error).toBe(0);
    expect(a.average_all.rdf_error).toBeNull();
    expect(a.counts.rdf_error).toEqual({ averaged: 1, non_finite: 1, undefined: 0 });
    expect(a.skipped_under_2_atoms).toBe(1);
    expect(a.drop_non_finite.volume_ratio).toBeNull(); // no radius anywhere
    expect(a.counts.volume_ratio.undefined).toBe(2);
  });

  it('a junk line is skipped and named; the rest is scored', async () => {
    const path = join(dir, 'junk.jsonl');
    writeFileSync(path, `${forwardLines[0]}not json\n\n${forwardLines[1]}`);
    const r = await structlabInProcess(['c2np', 'eval', path, '--workers', '0', '--no-aligned']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/line 2: not valid JSON/);
    const report = JSON.parse(r.stdout);
    expect(report.skipped).toEqual([{ file: path, line: 2, error: expect.stringMatching(/^not valid JSON/) }]);
    expect(report.aggregates.rows).toBe(2);
  });
});

describe('c2np eval: inverse split (task2_example)', () => {
  it('lattice RMSE, space-group and joint accuracy as upstream, and as the compare page summarises', async () => {
    const report = await evalJson([inversePath, '--workers', '0']);
    expect(report.kind).toBe('inverse');
    rel(report.aggregates.lattice_rmse, t.lattice_rmse, 1e-12);
    expect(report.aggregates.sg_accuracy).toBe(t.sg_accuracy);
    expect(report.aggregates.joint_accuracy).toBe(t.joint_accuracy);
    const page = parseC2npBatch(readFileSync(inversePath, 'utf8'));
    if (page.kind !== 'inverse') throw new Error('expected inverse rows');
    expect(report.aggregates).toEqual(inverseBatchSummary(page.rows.map(inverseBatchRow)));
    rel(report.aggregates.lattice_rmse, inverseMetrics(page.rows).lattice_rmse, 1e-15);
  });
});

describe('c2np eval: two folders', () => {
  const preds = join(dir, 'preds'),
    truths = join(dir, 'truths');
  const cases = golden.cases.slice(0, 4);
  // Paired by path below the folder (a/…), by unique name (flat/ vs deep/), and one file without a partner.
  const predFiles = [
    `R7/${cases[0].name}.xyz`,
    `R7/${cases[1].name}.xyz`,
    `flat/${cases[2].name}.xyz`,
    `flat/${cases[3].name}.xyz`,
    'extra.xyz',
  ];
  const truthFiles = [`R7/${cases[0].name}.xyz`, `R7/${cases[1].name}.xyz`, `deep/x/${cases[2].name}.xyz`, `deep/${cases[3].name}.xyz`];
  for (const [k, f] of predFiles.entries()) {
    mkdirSync(join(preds, f, '..'), { recursive: true });
    writeFileSync(join(preds, f), xyz(k < 4 ? cases[k].pred : cases[0].pred));
  }
  for (const [k, f] of truthFiles.entries()) {
    mkdirSync(join(truths, f, '..'), { recursive: true });
    writeFileSync(join(truths, f), xyz(cases[k].gt));
  }

  it('pairs as the compare page pairs, scores every pair, lists the unpaired file', async () => {
    const rows = join(dir, 'folder-rows.jsonl');
    const r = await structlabInProcess(['c2np', 'eval', '--pred', preds, '--truth', truths, '--workers', '0', '--rows', rows]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.unpaired).toEqual(['preds/extra.xyz']);
    const paired = pairFilesByName(
      predFiles.map((f) => ({ path: `preds/${f}` })),
      truthFiles.map((f) => ({ path: `truths/${f}` })),
    );
    const got = readFileSync(rows, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(got.map((x: { id: string }) => x.id)).toEqual([...paired.pairs.map(([p]) => p.path)].sort());
    for (const row of got) {
      const c = cases.find((x: { name: string }) => row.id.endsWith(`/${x.name}.xyz`));
      rel(row.hausdorff, c.metrics.hausdorff, 1e-9);
      if (c.metrics.rmsd_c2np !== null) rel(row.rmsd, c.metrics.rmsd_c2np, 1e-9);
    }
  });

  it('refuses to write over an existing rows file without --force, and over an input even with it', async () => {
    const rows = join(dir, 'exists.jsonl');
    writeFileSync(rows, 'keep');
    const r = await structlabInProcess(['c2np', 'eval', forwardPath, '--workers', '0', '--rows', rows]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already exists; pass --force/);
    expect(readFileSync(rows, 'utf8')).toBe('keep');
    const over = await structlabInProcess(['c2np', 'eval', forwardPath, '--workers', '0', '--rows', forwardPath, '--force']);
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/refusing to write over an input/);
  });
});
