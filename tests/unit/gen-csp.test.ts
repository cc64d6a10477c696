/** `structlab gen csp` against the golden runs (csp_visible/expected.json), and the CSP quirks one by one. */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareGenOutput } from '../../scripts/support/generations-compare.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { cspMetrics } from '../../src/core/tasks/generations/csp.ts';
import { type GenItem, pairCsp } from '../../src/core/tasks/generations/inputs.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';

const CASE = join(REFERENCE, 'golden', 'generations', 'csp_visible');

interface Run {
  name: string;
  command: string[];
  exit: number;
  output?: unknown;
  stderr?: string;
}
const runs = (): Run[] => JSON.parse(readFileSync(join(CASE, 'expected.json'), 'utf8')).runs;

/** The golden's relative paths resolved against the case folder (no chdir: tests share the worker's cwd). */
const PATH_OPTIONS = new Set(['--pred', '--truth', '--reference', '--e-above-hull']);
const resolveArgs = (command: string[]): string[] =>
  command.map((arg, i) => (i > 0 && PATH_OPTIONS.has(command[i - 1]) && !isAbsolute(arg) ? join(CASE, arg) : arg));

/**
 * The goldens predate `tolerances` (issue 23): the document names the matcher's tolerances right after `matcher`,
 * CDVAE's by default. Added here key by key, so the rest of the comparison stays whole.
 */
function withTolerances(output: unknown): unknown {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(output as Record<string, unknown>)) {
    out[k] = v;
    if (k === 'matcher') {
      expect(v).toEqual({ stol: 0.5, angle_tol: 10, ltol: 0.3 });
      out.tolerances = { preset: 'cdvae', stol: 0.5, ltol: 0.3, angle_tol: 10 };
    }
  }
  expect('tolerances' in out).toBe(true);
  return out;
}

describe('gen csp: csp_visible/expected.json through the CLI', () => {
  const all = runs();
  it('has the runs the README lists', () => {
    expect(all.filter((r) => r.command[1] === 'csp' && r.exit === 0).length).toBe(4);
    expect(all.filter((r) => r.command[1] === 'csp' && r.exit === 2).length).toBe(5);
  });

  for (const run of all.filter((r) => r.command[1] === 'csp' && r.exit === 0)) {
    it(`${run.name}: ${run.command.slice(2).join(' ')}`, async () => {
      const r = await structlabInProcess(resolveArgs(run.command));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(compareGenOutput(JSON.parse(r.stdout), withTolerances(run.output))).toEqual([]);
    }, 120_000);
  }

  for (const run of all.filter((r) => r.command[1] === 'csp' && r.exit === 2)) {
    it(`${run.name} exits 2 with one sentence: ${run.command.slice(2).join(' ')}`, async () => {
      const r = await structlabInProcess(resolveArgs(run.command));
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^error: \S/);
    });
  }

  it('the comparator can fail: a changed rms, reason or row order is reported', () => {
    const expected = all.find((r) => r.name === 'csp_single_diffcsp')!.output as { per_sample: Record<string, unknown>[] };
    const changed = structuredClone(expected);
    const row = changed.per_sample.find((s) => typeof s.rms === 'number' && (s.rms as number) > 1e-3)!;
    row.rms = (row.rms as number) + 2e-6;
    expect(compareGenOutput(changed, expected).length).toBe(1);
    const reordered = structuredClone(expected);
    reordered.per_sample.reverse();
    expect(compareGenOutput(reordered, expected).length).toBeGreaterThan(0);
  });
});

describe('gen csp: bad input and usage', () => {
  it('refuses a missing path, --n-samples 0 and an unknown convention with one sentence', async () => {
    for (const args of [
      ['gen', 'csp', '--pred', join(CASE, 'nope'), '--truth', join(CASE, 'truth')],
      ['gen', 'csp', '--pred', join(CASE, 'pred'), '--truth', join(CASE, 'truth'), '--n-samples', '0'],
      ['gen', 'csp', '--pred', join(CASE, 'pred'), '--truth', join(CASE, 'truth'), '--convention', 'mattergen'],
      ['gen', 'csp', '--pred', join(CASE, 'pred')],
      ['gen', 'nope'],
    ]) {
      const r = await structlabInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it('reads a folder and its subfolders: ids are the paths below it (csp pairs by them; eval takes one name twice)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'structlab-gen-folders-'));
    try {
      const [name] = readdirSync(join(CASE, 'pred')).sort();
      for (const role of ['pred', 'truth'])
        for (const sub of ['a', 'b/c']) cpSync(join(CASE, role, name), join(tmp, role, sub, name), { recursive: true });
      // Hidden folders are skipped, as the lab's folder picker leaves them.
      cpSync(join(CASE, 'pred', name), join(tmp, 'pred', '.ipynb_checkpoints', name), { recursive: true });
      const id = name.slice(0, name.lastIndexOf('.'));
      const csp = await structlabInProcess(['gen', 'csp', '--pred', join(tmp, 'pred'), '--truth', join(tmp, 'truth')]);
      expect(csp.code, csp.stderr).toBe(0);
      expect(JSON.parse(csp.stdout).per_sample.map((r: { id: string }) => r.id)).toEqual([`a/${id}`, `b/c/${id}`]);
      const denovo = await structlabInProcess(['gen', 'eval', '--pred', join(tmp, 'pred')]);
      expect(denovo.code, denovo.stderr).toBe(0);
      expect(JSON.parse(denovo.stdout).per_sample.map((r: { id: string; duplicate_of: string | null }) => [r.id, r.duplicate_of])).toEqual([
        [`a/${id}`, null],
        [`b/c/${id}`, `a/${id}`],
      ]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('gen --help and gen csp --help', async () => {
    expect((await structlabInProcess(['gen', '--help'])).stdout).toMatch(/csp --pred P --truth T/);
    expect((await structlabInProcess(['gen', 'csp', '--help'])).stdout).toMatch(/--n-samples/);
  });
});

// ------------------------------------------------------------------ quirks (spec section 7), in the core

function crystal(a: number, sites: [string, number, number, number][], matrix?: number[][]): Structure {
  const lattice = matrix ? new Lattice(matrix) : Lattice.cubic(a);
  return { name: 'x', lattice, sites: sites.map(([el, x, y, z]) => makeSiteFromFrac(lattice, [x, y, z], { [el]: 1 })) };
}
const item = (id: string, structure: Structure): GenItem => ({ id, structure, where: id });
const NACL: [string, number, number, number][] = [
  ['Na', 0, 0, 0],
  ['Na', 0.5, 0.5, 0],
  ['Na', 0.5, 0, 0.5],
  ['Na', 0, 0.5, 0.5],
  ['Cl', 0.5, 0, 0],
  ['Cl', 0, 0.5, 0],
  ['Cl', 0, 0, 0.5],
  ['Cl', 0.5, 0.5, 0.5],
];
/** A metallic truth with an extra atom 0.42 Å from another (structurally invalid), like the golden gate-* cases. */
const gateTruth = crystal(4, [
  ['Cu', 0, 0, 0],
  ['Au', 0.5, 0.5, 0.5],
  ['Cu', 0.105, 0, 0],
]);
const gatePred = crystal(4, [
  ['Cu', 0, 0, 0],
  ['Au', 0.5, 0.5, 0.5],
  ['Cu', 0.165, 0, 0],
]);

describe('gen csp quirks', () => {
  it('1: DiffCSP with one sample gates on the truth; CDVAE and K > 1 do not', () => {
    const one = pairCsp([item('t', gatePred)], [item('t', gateTruth)], 1);
    const diffcsp = cspMetrics(one, { convention: 'diffcsp', smact: 'legacy' });
    expect(diffcsp.per_sample[0].reason).toBe('truth_invalid');
    expect(diffcsp.match_rate).toBe(0);
    const cdvae = cspMetrics(one, { convention: 'cdvae', smact: 'legacy' });
    expect(cdvae.per_sample[0]).toEqual(expect.objectContaining({ reason: null, matched: true }));
    const two = pairCsp([item('t__1', gatePred), item('t__2', gatePred)], [item('t', gateTruth)], 2);
    expect(cspMetrics(two, { convention: 'diffcsp', smact: 'legacy' }).per_truth[0]).toEqual(
      expect.objectContaining({ truth_valid: false, matched: true, best_sample: 1 }),
    );
  });

  it('2: a truth whose composition fails SMACT is never matched (its prediction fails too)', () => {
    const fe3o4 = crystal(5, [
      ['Fe', 0, 0, 0],
      ['Fe', 0.5, 0.5, 0],
      ['Fe', 0.5, 0, 0.5],
      ['O', 0.25, 0.25, 0.25],
      ['O', 0.75, 0.75, 0.25],
      ['O', 0.75, 0.25, 0.75],
      ['O', 0.25, 0.75, 0.75],
    ]);
    for (const convention of ['diffcsp', 'cdvae'] as const) {
      const r = cspMetrics(pairCsp([item('t', fe3o4)], [item('t', fe3o4)], 1), { convention, smact: 'legacy' });
      expect(r.per_sample[0].reason).toBe('charge_imbalance');
      expect(r.match_rate).toBe(0);
      expect(r.rmse).toBeNull();
    }
  });

  it('3-5: get_rms_dist(pred, truth): supercells, rotations and uniform scaling match; a deleted atom never does', () => {
    const truth = crystal(5.64, NACL);
    const scaled = crystal(5.64 * 1.1, NACL);
    const deleted = crystal(5.64, NACL.slice(1));
    const r = cspMetrics(pairCsp([item('a', scaled), item('b', deleted)], [item('a', truth), item('b', truth)], 1), {
      convention: 'diffcsp',
      smact: 'legacy',
    });
    expect(r.per_sample[0]).toEqual(expect.objectContaining({ matched: true, reason: null }));
    expect(r.per_sample[0].rms!).toBeLessThan(1e-6);
    expect(r.per_sample[1].matched).toBe(false);
    expect(r.per_sample[1].reason).toBe('charge_imbalance'); // Na3Cl4 fails SMACT before the matcher
    expect(r.rmse).toBe(r.per_truth[0].rms);
    expect(r.match_rate).toBe(0.5);
  });

  it('6: one-site cells report min_distance null and pass the distance test', () => {
    const fe = crystal(2.87, [['Fe', 0, 0, 0]]);
    const r = cspMetrics(pairCsp([item('fe', fe)], [item('fe', fe)], 1), { convention: 'diffcsp', smact: 'legacy' });
    expect(r.per_sample[0]).toEqual(expect.objectContaining({ min_distance: null, struct_valid: true, matched: true }));
  });

  it('best of K: the smallest rms, ties to the smallest k; valid_fraction over all predictions', () => {
    const truth = crystal(5.64, NACL);
    const far = crystal(5.64, [...NACL.slice(0, 7), ['Cl', 0.45, 0.5, 0.5]]);
    const close = crystal(2, [
      ['Na', 0, 0, 0],
      ['Cl', 0.1, 0, 0],
    ]);
    const groups = pairCsp([item('t__3', far), item('t__1', truth), item('t__2', truth), item('t__0', close)], [item('t', truth)], 4);
    const r = cspMetrics(groups, { convention: 'diffcsp', smact: 'legacy' });
    expect(r.per_sample.map((s) => s.sample)).toEqual([0, 1, 2, 3]);
    expect(r.per_sample[0].reason).toBe('atoms_too_close');
    expect(r.per_truth[0].best_sample).toBe(1);
    expect(r.valid_fraction).toBe(3 / 4);
  });
});
