/**
 * CDVAE / DiffCSP `.pt` result files (src/core/tasks/generations/pt-crystals.ts, inputs.ts setFromPt and pairing)
 * against tests/reference/golden/generations/pt/expected.json: the crystals compute_metrics.py builds (pymatgen
 * 2022.11.7, Lattice.from_parameters) and its RecEval / RecEvalBatch numbers, written by scripts/make-pt-fixtures.py.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { structlabInProcess } from '../cli-runner.ts';
import { describe, expect, it } from 'vitest';
import { readTorchPt } from '../../src/core/io/torch-pt.ts';
import { cspMetrics } from '../../src/core/tasks/generations/csp.ts';
import { GenInputError, pairCsp, setFromCsv, setFromPt } from '../../src/core/tasks/generations/inputs.ts';
import { PtCrystalError, ptCrystals } from '../../src/core/tasks/generations/pt-crystals.ts';
import type { Structure } from '../../src/core/structure/structure.ts';

const DIR = join(__dirname, '../reference/golden/generations/pt');

interface CrystalJson {
  lattice: number[][];
  species: string[];
  frac: number[][];
}
interface Metrics {
  match_rate: number;
  rms_dist: number | null;
  per_truth: (number | null)[];
}
interface GenEvalJson {
  n: number;
  validity: { compositional: number; structural: number; overall: number };
  wdist_density: number;
  wdist_num_elems: number;
  valid: boolean[];
}
interface FileJson {
  eval_dimension: boolean;
  input_data_batch: string | null;
  evals: CrystalJson[][];
  truths: CrystalJson[] | null;
  csv_truths?: CrystalJson[];
  metrics?: Record<string, Metrics>;
  gen_eval?: Record<string, GenEvalJson>;
}
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as { truth_ids: string[]; files: Record<string, FileJson> };
const bytes = (name: string) => readFileSync(join(DIR, name));

/** Lattice within 1e-9 Å (pymatgen's trigonometry vs ours), species and fractional coordinates exact (float32 → float64). */
function expectCrystal(s: Structure, e: CrystalJson, where: string): void {
  s.lattice!.matrix.forEach((row, i) =>
    row.forEach((v, j) => expect(Math.abs(v - e.lattice[i][j]), `${where} lattice ${i},${j}`).toBeLessThan(1e-9)),
  );
  expect(
    s.sites.map((site) => Object.keys(site.species)[0]),
    where,
  ).toEqual(e.species);
  expect(
    s.sites.map((site) => [...site.frac!]),
    where,
  ).toEqual(e.frac);
}

describe('crystals of .pt result files as compute_metrics.py builds them', () => {
  it.each(Object.keys(expected.files))('%s', (name) => {
    const e = expected.files[name];
    const c = ptCrystals(readTorchPt(bytes(name), name), name);
    expect(c.evalDimension).toBe(e.eval_dimension);
    expect(c.inputDataBatch).toBe(e.input_data_batch);
    expect(c.evals.map((x) => x.length)).toEqual(e.evals.map((x) => x.length));
    c.evals.forEach((crystals, k) => crystals.forEach((s, i) => expectCrystal(s, e.evals[k][i], `eval ${k} crystal ${i}`)));
    if (e.truths === null) expect(c.truths).toBe(null);
    else {
      expect(c.truths!.length).toBe(e.truths.length);
      c.truths!.forEach((s, i) => expectCrystal(s, e.truths![i], `truth ${i}`));
    }
  });
});

describe('CSP metrics of .pt result files equal compute_metrics.py', () => {
  const csvTruths = () => setFromCsv('truth', 'truth.csv', readFileSync(join(DIR, 'truth.csv'), 'utf8'));

  const check = (result: ReturnType<typeof cspMetrics>, m: Metrics, ids: string[]) => {
    expect(Math.abs(result.match_rate - m.match_rate)).toBeLessThan(1e-12);
    if (m.rms_dist === null) expect(result.rmse).toBe(null);
    else expect(Math.abs(result.rmse! - m.rms_dist)).toBeLessThan(1e-9);
    const byId = new Map(result.per_truth.map((r) => [r.id, r.rms]));
    ids.forEach((id, i) => {
      const want = m.per_truth[i];
      const got = byId.get(id);
      if (want === null) expect(got, id).toBe(null);
      else expect(Math.abs(got! - want), id).toBeLessThan(1e-9);
    });
  };

  it('DiffCSP eval_diff.pt with the split CSV, one sample (eval 0, RecEval)', () => {
    const preds = setFromPt('prediction', 'eval_diff.pt', bytes('diffcsp_eval_diff.pt'));
    expect(preds.map((p) => p.id).slice(0, 3)).toEqual(['0__0', '1__0', '2__0']);
    const result = cspMetrics(pairCsp(preds, csvTruths(), 1), { convention: 'diffcsp', smact: 'legacy' });
    expect(result.n).toBe(5);
    check(result, expected.files['diffcsp_eval_diff.pt'].metrics!.diffcsp_one, expected.truth_ids);
  });

  it('DiffCSP eval_diff.pt with the split CSV, both evals (--multi_eval, RecEvalBatch)', () => {
    const groups = pairCsp(setFromPt('prediction', 'eval_diff.pt', bytes('diffcsp_eval_diff.pt')), csvTruths(), 2);
    expect(groups.map((g) => g.samples.map((s) => s.pred.id))[0]).toEqual(['mp-10009__0', 'mp-10009__1']);
    const result = cspMetrics(groups, { convention: 'diffcsp', smact: 'legacy' });
    check(result, expected.files['diffcsp_eval_diff.pt'].metrics!.diffcsp_multi, expected.truth_ids);
  });

  it('CDVAE eval_recon.pt with its own input_data_batch (RecEval, batch_idx 0)', () => {
    const name = 'cdvae_eval_recon.pt';
    const truths = setFromPt('truth', name, bytes(name));
    expect(truths.map((t) => t.id)).toEqual(['0', '1', '2', '3', '4']);
    const result = cspMetrics(pairCsp(setFromPt('prediction', name, bytes(name)), truths, 1), { convention: 'cdvae', smact: 'legacy' });
    check(result, expected.files[name].metrics!.cdvae, ['0', '1', '2', '3', '4']);
  });

  it('refuses what cannot be paired, in one sentence naming the file', () => {
    const preds = setFromPt('prediction', 'eval_diff.pt', bytes('diffcsp_eval_diff.pt'));
    expect(() => setFromPt('truth', 'eval_diff.pt', bytes('diffcsp_eval_diff.pt'))).toThrow(
      /eval_diff\.pt has no truths: its input_data_batch is a torch_geometric\.data\.batch\.DataBatch, not a dict of tensors/,
    );
    expect(() => pairCsp(preds, csvTruths().slice(0, 4), 1)).toThrow(/eval_diff\.pt holds 5 crystals per eval and the truth set 4/);
    expect(() => pairCsp(preds, csvTruths(), 3)).toThrow(/eval_diff\.pt holds 2 evals, --n-samples is 3/);
    expect(() => setFromPt('prediction', 'cut.pt', bytes('diffcsp_eval_gen.pt').subarray(0, 2000))).toThrow(GenInputError);
    expect(() => setFromPt('prediction', 'cut.pt', bytes('diffcsp_eval_gen.pt').subarray(0, 2000))).toThrow(/^cut\.pt /);
  });

  it('refuses a .pt without the result arrays', () => {
    const value = readTorchPt(bytes('tensors.pt'), 'tensors.pt');
    expect(() => ptCrystals(value, 'tensors.pt')).toThrow(PtCrystalError);
    expect(() => ptCrystals(value, 'tensors.pt')).toThrow(/tensors\.pt has no "frac_coords"/);
  });
});

describe('structlab with .pt files (in process)', () => {
  it('gen csp --pred eval_diff.pt --truth truth.csv gives compute_metrics.py numbers; --n-samples 2 is --multi_eval', async () => {
    const args = ['gen', 'csp', '--pred', join(DIR, 'diffcsp_eval_diff.pt'), '--truth', join(DIR, 'truth.csv'), '--workers', '1'];
    for (const [k, key] of [
      ['1', 'diffcsp_one'],
      ['2', 'diffcsp_multi'],
    ] as const) {
      const r = await structlabInProcess([...args, '--n-samples', k]);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { match_rate: number; rmse: number };
      const m = expected.files['diffcsp_eval_diff.pt'].metrics![key];
      expect(Math.abs(out.match_rate - m.match_rate)).toBeLessThan(1e-12);
      expect(Math.abs(out.rmse - m.rms_dist!)).toBeLessThan(1e-9);
    }
  });

  it('gen csp --help names the .pt, Chemeleon and archive inputs; gen eval --help names --pt-evals', async () => {
    const csp = await structlabInProcess(['gen', 'csp', '--help']);
    expect(csp.code).toBe(0);
    for (const text of ['CDVAE/DiffCSP .pt result file', "Chemeleon's results.csv", '.tar.gz/.tgz', 'input_data_batch'])
      expect(csp.stdout).toContain(text);
    const ev = await structlabInProcess(['gen', 'eval', '--help']);
    for (const text of ['--pt-evals 0', 'batch_idx=0', 'batch_idx=-2']) expect(ev.stdout).toContain(text);
  });

  it('gen csp --pred eval_recon.pt takes the truths from its input_data_batch', async () => {
    const r = await structlabInProcess([
      'gen',
      'csp',
      '--pred',
      join(DIR, 'cdvae_eval_recon.pt'),
      '--convention',
      'cdvae',
      '--workers',
      '1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { match_rate: number; rmse: number };
    const m = expected.files['cdvae_eval_recon.pt'].metrics!.cdvae;
    expect(Math.abs(out.match_rate - m.match_rate)).toBeLessThan(1e-12);
    expect(Math.abs(out.rmse - m.rms_dist!)).toBeLessThan(1e-9);
  });

  interface GenEvalOut {
    n: number;
    validity: { compositional: number; structural: number; overall: number };
    wasserstein: { density: number; n_elements: number };
    per_sample: { id: string; valid: boolean }[];
  }
  /** The gen task of compute_metrics.py (GenEval validity and Wasserstein distances): rates exact, distances within 1e-9. */
  const checkGen = (out: GenEvalOut, e: GenEvalJson) => {
    expect(out.n).toBe(e.n);
    expect(out.validity).toEqual(e.validity);
    expect(Math.abs(out.wasserstein.density - e.wdist_density)).toBeLessThan(1e-9);
    expect(Math.abs(out.wasserstein.n_elements - e.wdist_num_elems)).toBeLessThan(1e-9);
    expect(out.per_sample.map((r) => r.id)).toEqual(e.valid.map((_, i) => String(i)));
    expect(out.per_sample.map((r) => r.valid)).toEqual(e.valid);
  };
  const genEval = async (args: string[]): Promise<GenEvalOut> => {
    const r = await structlabInProcess(['gen', 'eval', ...args, '--workers', '1']);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as GenEvalOut;
  };

  it('gen eval --pred eval_gen.pt (no eval dimension) reads every crystal, as DiffCSP batch_idx=-2', async () => {
    const out = await genEval(['--pred', join(DIR, 'diffcsp_eval_gen.pt'), '--truth', join(DIR, 'truth.csv')]);
    checkGen(out, expected.files['diffcsp_eval_gen.pt'].gen_eval!['batch_idx_-2']);
  });

  it('gen eval on a .pt with evals takes eval 0 (CDVAE batch_idx=0); --pt-evals all takes every eval', async () => {
    const recon = join(DIR, 'cdvae_eval_recon.pt');
    checkGen(
      await genEval(['--pred', recon, '--truth', recon, '--convention', 'cdvae']),
      expected.files['cdvae_eval_recon.pt'].gen_eval!.batch_idx_0,
    );
    const diff = join(DIR, 'diffcsp_eval_diff.pt');
    checkGen(
      await genEval(['--pred', diff, '--truth', join(DIR, 'truth.csv')]),
      expected.files['diffcsp_eval_diff.pt'].gen_eval!.batch_idx_0,
    );
    const all = await genEval(['--pred', diff, '--pt-evals', 'all']);
    expect(all.n).toBe(10);
    expect(all.per_sample.map((r) => r.id).slice(0, 6)).toEqual(['0__0', '1__0', '2__0', '3__0', '4__0', '0__1']);
    const one = await genEval(['--pred', diff, '--pt-evals', '1']);
    expect(one.per_sample.map((r) => r.id)).toEqual(['0', '1', '2', '3', '4']);
    for (const [value, message] of [
      ['2', /diffcsp_eval_diff\.pt holds 2 evals, --pt-evals is 2/],
      ['first', /--pt-evals takes an eval number \(0, 1, …\) or all, not "first"/],
    ] as const) {
      const bad = await structlabInProcess(['gen', 'eval', '--pred', diff, '--pt-evals', value, '--workers', '1']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(message);
      expect(bad.stdout).toBe('');
    }
  });

  it('convert eval_diff.pt out.extxyz writes every crystal of every eval; a truncated .pt exits 2 writing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pt-'));
    try {
      const out = join(dir, 'out.extxyz');
      const r = await structlabInProcess(['convert', join(DIR, 'diffcsp_eval_diff.pt'), out]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ written: out, nstructures: 10 });
      const back = await structlabInProcess(['gen', 'eval', '--pred', out, '--workers', '1']);
      expect(back.code, back.stderr).toBe(0);
      expect((JSON.parse(back.stdout) as { n: number }).n).toBe(10);
      const cut = join(dir, 'cut.pt');
      writeFileSync(cut, bytes('diffcsp_eval_diff.pt').subarray(0, 3000));
      const bad = await structlabInProcess(['convert', cut, join(dir, 'x.extxyz')]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/cut\.pt is not a readable zip archive/);
      expect(existsSync(join(dir, 'x.extxyz'))).toBe(false);
      const badCsp = await structlabInProcess(['gen', 'csp', '--pred', cut, '--truth', join(DIR, 'truth.csv')]);
      expect(badCsp.code).toBe(2);
      expect(badCsp.stderr).toMatch(/cut\.pt/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
