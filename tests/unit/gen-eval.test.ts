/**
 * `structlab gen eval`: every run of the de novo goldens (denovo_visible/expected.json) and the eval
 * bad-input runs of csp_visible/expected.json through the CLI in this process, compared with the goldens'
 * tolerances (scripts/support/generations-compare.ts); the de novo quirks (greedy uniqueness in input order,
 * Wasserstein distances over valid predictions and all truths, fractions as exact ratios); the energies
 * file's rules.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import { evaluateDenovo, type DenovoOptions, wasserstein1 } from '../../src/core/tasks/generations/denovo.ts';
import type { GenItem } from '../../src/core/tasks/generations/inputs.ts';
import { compareGenOutput } from '../../scripts/support/generations-compare.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';

const GOLDEN = join(REFERENCE, 'golden', 'generations');
const PATH_OPTIONS = new Set(['--pred', '--truth', '--reference', '--e-above-hull']);

interface Run {
  name: string;
  command: string[];
  exit: number;
  output?: unknown;
  stderr?: string;
}

const runsOf = (folder: string): Run[] => JSON.parse(readFileSync(join(GOLDEN, folder, 'expected.json'), 'utf8')).runs;

/** The run's arguments after "gen", with the path of each input option resolved against the case folder. */
const argsIn = (folder: string, command: string[]): string[] =>
  command.map((a, i) => (i > 0 && PATH_OPTIONS.has(command[i - 1]) ? join(GOLDEN, folder, a) : a));

describe('gen eval reproduces the de novo goldens', () => {
  for (const run of runsOf('denovo_visible')) {
    it(
      run.name,
      async () => {
        const r = await structlabInProcess(argsIn('denovo_visible', run.command));
        expect(r.stderr).toBe('');
        expect(r.code).toBe(run.exit);
        expect(compareGenOutput(JSON.parse(r.stdout), run.output)).toEqual([]);
      },
      120_000,
    );
  }
});

describe('gen eval refuses bad input with exit 2 and one sentence', () => {
  const runs = runsOf('csp_visible').filter((r) => r.command[1] === 'eval');
  it('the goldens have the three eval error runs', () => expect(runs.map((r) => r.name)).toEqual(['error_5', 'error_6', 'error_7']));
  for (const run of runs) {
    it(`${run.name}: ${run.command.slice(2).join(' ')}`, async () => {
      const r = await structlabInProcess(argsIn('csp_visible', run.command));
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim().length).toBeGreaterThan(0);
    });
  }
});

/** A low-symmetry NaCl-like cell; `shift` moves the first atom along a (fractional). */
const LATTICE = Lattice.fromParameters(5.1, 5.9, 6.7, 79, 96, 107);
const BASE: [string, number, number, number][] = [
  ['Na', 0.1, 0.2, 0.3],
  ['Na', 0.6, 0.7, 0.1],
  ['Cl', 0.35, 0.55, 0.8],
  ['Cl', 0.85, 0.05, 0.55],
];
function cell(shift: number, sites = BASE, lattice = LATTICE): Structure {
  return {
    name: 'x',
    lattice,
    sites: sites.map(([el, x, y, z], i) => makeSiteFromFrac(lattice, [x + (i === 0 ? shift : 0), y, z], { [el]: 1 })),
  };
}
/** The same composition with the last Cl moved next to the second Na: structurally invalid, compositionally valid. */
const CLOSE: typeof BASE = [...BASE.slice(0, 3), ['Cl', 0.605, 0.7, 0.1]];
const item = (id: string, structure: Structure): GenItem => ({ id, structure, where: id });
const OPTIONS: DenovoOptions = { convention: 'diffcsp', smact: 'legacy', matcher: 'ordered', stabilityThreshold: 0.1 };

describe('gen eval quirks', () => {
  // A→B and B→C are within the matcher's tolerance, A→C is not (checked with pymatgen 2022.11's
  // StructureMatcher(): fit(B, A) True, fit(C, B) True, fit(C, A) False for a shift of 0.18).
  const A = item('A', cell(0)),
    B = item('B', cell(0.18)),
    C = item('C', cell(0.36));

  it('uniqueness is greedy in input order against kept structures only (matching is not transitive)', () => {
    for (const matcher of ['ordered', 'disordered'] as const) {
      const r = evaluateDenovo({ predictions: [A, B, C] }, { ...OPTIONS, matcher });
      expect(r.per_sample.map((s) => [s.id, s.unique, s.duplicate_of])).toEqual([
        ['A', true, null],
        ['B', false, 'A'],
        // C matches B, but B was not kept: C is compared with A only.
        ['C', true, null],
      ]);
      expect(r.uniqueness).toBe(2 / 3);
    }
    // In another order the kept set changes: C kept, then B matches C (the first kept match is reported).
    const r = evaluateDenovo({ predictions: [C, B, A] }, OPTIONS);
    expect(r.per_sample.map((s) => [s.id, s.unique, s.duplicate_of])).toEqual([
      ['C', true, null],
      ['B', false, 'C'],
      ['A', true, null],
    ]);
  });

  it('novelty reports the first matching reference structure in the reference order', () => {
    const r = evaluateDenovo({ predictions: [B], reference: [item('r-C', C.structure), item('r-A', A.structure)] }, OPTIONS);
    expect(r.per_sample[0].novel).toBe(false);
    expect(r.per_sample[0].reference_match).toBe('r-C');
    expect(r.novelty).toBe(0);
  });

  it('Wasserstein distances use only valid predictions but every truth structure', () => {
    // Invalid structures (a Cl atom 0.03–0.05 Å from a Na atom) among the predictions and the truths.
    const big = Lattice.fromParameters(10.2, 11.8, 13.4, 79, 96, 107);
    const valid = cell(0),
      sparse = cell(0, BASE, big),
      closeBig = cell(0, CLOSE, big),
      close = cell(0, CLOSE);
    const r = evaluateDenovo(
      { predictions: [item('p', valid), item('bad', closeBig)], truth: [item('t1', sparse), item('t2', close)] },
      OPTIONS,
    );
    expect(r.per_sample[1].reasons).toEqual(['atoms_too_close']);
    const [dense, dilute] = [r.per_sample[0].density, r.per_sample[1].density];
    expect(dense).toBeCloseTo(8 * dilute, 10);
    // Valid predictions {dense} against both truths {dilute, dense}: W1 = (dense − dilute) / 2.
    expect(r.wasserstein.density).toBeCloseTo((dense - dilute) / 2, 12);
    expect(r.wasserstein.n_elements).toBe(0);
    // Without a valid prediction, or without truths, the distances are null.
    const none = evaluateDenovo({ predictions: [item('bad', close)], truth: [item('t1', sparse)] }, OPTIONS);
    expect(none.wasserstein).toEqual({ density: null, n_elements: null });
    expect(evaluateDenovo({ predictions: [item('p', valid)] }, OPTIONS).wasserstein).toEqual({ density: null, n_elements: null });
  });

  it('W1 is scipy.stats.wasserstein_distance with equal weights (values from scipy 1.10)', () => {
    expect(wasserstein1([0, 1, 3], [5, 6, 8])).toBe(5);
    expect(wasserstein1([1.5, 2.25], [1, 1, 3, 0.5])).toBeCloseTo(0.875, 15);
    expect(wasserstein1([2], [1, 4, 4.5])).toBeCloseTo(1.8333333333333335, 15);
    expect(wasserstein1([], [1])).toBeNull();
  });

  it('fractions are exact ratios k / n over all predictions, invalid ones included', () => {
    const close = cell(0, CLOSE);
    const preds = [item('A', A.structure), item('bad', close), item('C', C.structure)];
    const energies = new Map<string, number | null>([
      ['A', 0.1],
      ['bad', null],
      ['C', 0.1000001],
    ]);
    const r = evaluateDenovo({ predictions: preds, reference: [item('r', B.structure)], energies }, OPTIONS);
    expect(r.validity).toEqual({ structural: 2 / 3, compositional: 1, overall: 2 / 3 });
    expect(r.uniqueness).toBe(1);
    // A and C both match B in the reference.
    expect(r.novelty).toBe(1 / 3);
    expect(r.unique_novel).toBe(1 / 3);
    // 0.1 is stable (≤ threshold), 0.1000001 is not, null never is.
    expect(r.per_sample.map((s) => s.stable)).toEqual([true, false, false]);
    expect(r.stable).toBe(1 / 3);
    expect(r.sun).toBe(0);
    expect(r.per_sample.map((s) => s.sun)).toEqual([false, false, false]);
  });
});

describe('the energies file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'structlab-gen-eval-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const line = (id: string, s: Structure) =>
    JSON.stringify({
      id,
      structure: {
        '@module': 'pymatgen.core.structure',
        '@class': 'Structure',
        lattice: { matrix: s.lattice!.matrix },
        sites: s.sites.map((site) => ({ species: [{ element: Object.keys(site.species)[0], occu: 1 }], abc: site.frac, properties: {} })),
      },
    });
  const preds = join(dir, 'preds.jsonl');
  writeFileSync(preds, [line('__proto__', cell(0)), line('constructor', cell(0.36))].join('\n') + '\n');
  const energies = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('keys such as __proto__ and constructor are ordinary ids', async () => {
    const ok = energies('ok.json', '{"__proto__": 0.05, "constructor": null}');
    const r = await structlabInProcess(['gen', 'eval', '--pred', preds, '--e-above-hull', ok]);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.per_sample.map((s: { e_above_hull: number | null }) => s.e_above_hull)).toEqual([0.05, null]);
    expect(out.stable).toBe(0.5);
    expect(out.sun).toBeNull();
  });

  it('an id without an entry (even one Object.prototype has), or a non-number, is bad input', async () => {
    for (const text of ['{"__proto__": 0.05}', '{"__proto__": 0.05, "constructor": "0.1"}', '[0.1, 0.2]', '{"__proto__": 0.05,']) {
      const p = energies('bad.json', text);
      const r = await structlabInProcess(['gen', 'eval', '--pred', preds, '--e-above-hull', p]);
      expect(r.code, text).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n'), text).toHaveLength(1);
      expect(r.stderr).toContain('bad.json');
    }
  });
});
