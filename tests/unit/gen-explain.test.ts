/** "Why no match" (src/core/tasks/generations/explain.ts) on the golden CSP pairs and on hand-made ones. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { type MatchExplanation, explainMatch } from '../../src/core/tasks/generations/explain.ts';
import { setFromFolder } from '../../src/core/tasks/generations/inputs.ts';
import { matcherRmsDist } from '../../src/core/match/structure-matcher.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import type { Mat3, Vec3 } from '../../src/core/math/mat3.ts';

const CASE = join(REFERENCE, 'golden', 'generations', 'csp_visible');
const CSP = { ltol: 0.3, stol: 0.5, angleTol: 10 };
/** The generations goldens' rule (scripts/support/generations-compare.ts): pymatgen's early exit makes any rms below 1e-5 right. */
const EARLY_EXIT = 1e-5;

interface Row {
  id: string;
  valid: boolean;
  matched: boolean;
  rms: number | null;
}

const read = (dir: string) => readdirSync(join(CASE, dir)).map((name) => ({ name, text: readFileSync(join(CASE, dir, name), 'utf8') }));

describe('explainMatch on csp_visible (golden csp_single_cdvae)', () => {
  const preds = setFromFolder('prediction', 'pred', read('pred'));
  const truths = new Map(setFromFolder('truth', 'truth', read('truth')).map((t) => [t.id, t.structure]));
  const rows: Row[] = JSON.parse(readFileSync(join(CASE, 'expected.json'), 'utf8')).runs.find(
    (r: { name: string }) => r.name === 'csp_single_cdvae',
  ).output.per_sample;
  const explained = new Map<string, { pred: Structure; truth: Structure; ex: MatchExplanation }>();

  it('agrees with the golden verdict and rms on every valid pair (203 pairs, 170 valid)', () => {
    expect(preds.length).toBe(203);
    let valid = 0;
    const stages: Record<string, number> = {};
    for (const p of preds) {
      const truth = truths.get(p.id)!;
      const ex = explainMatch(p.structure, truth, CSP);
      explained.set(p.id, { pred: p.structure, truth, ex });
      stages[ex.stage] = (stages[ex.stage] ?? 0) + 1;
      expect(JSON.parse(JSON.stringify(ex))).toEqual(ex);
      const row = rows.find((r) => r.id === p.id)!;
      if (!row.valid) continue;
      valid++;
      expect(ex.stage === 'matched', p.id).toBe(row.matched);
      expect(ex.verdict === 'matched', p.id).toBe(row.matched);
      if (row.matched) {
        const rms = ex.match!.rms;
        if (row.rms! < EARLY_EXIT) expect(rms, p.id).toBeLessThan(EARLY_EXIT);
        else expect(Math.abs(rms - row.rms!), p.id).toBeLessThanOrEqual(1e-6);
      } else {
        expect(ex.match, p.id).toBeNull();
        expect(ex.stage, p.id).not.toBe('error');
      }
    }
    expect(valid).toBe(170);
    // Every stage occurs in the visible set (deleted atoms, replaced elements, stretched axes, random positions).
    expect(Object.keys(stages).sort()).toEqual(['composition', 'lattice', 'matched', 'sites']);
  }, 300_000);

  it('the stol sweep is tight: just above the reported stol matches, 1e-3 below does not', () => {
    const misses = [...explained.values()].filter(({ ex }) => ex.stage === 'sites');
    expect(misses.length).toBeGreaterThan(10);
    for (const { pred, truth, ex } of misses) {
      const s = ex.sweep!.stol!;
      expect(s).toBeGreaterThan(CSP.stol);
      expect(matcherRmsDist(pred, truth, { ...CSP, stol: s + 1e-6 })).not.toBeNull();
      expect(matcherRmsDist(pred, truth, { ...CSP, stol: s - 1e-3 })).toBeNull();
      // The gate is the rms itself, or (box) the stol the per-axis box needs, above the unboxed rms.
      if (ex.sweep!.stolGate === 'rms') expect(s).toBe(ex.assignment!.rms);
      else expect(s).toBeGreaterThan(ex.assignment!.rms);
    }
  });

  it('the ltol and angle_tol sweeps are tight where they find a value', () => {
    let checked = 0;
    for (const { pred, truth, ex } of explained.values()) {
      if (ex.stage !== 'lattice' && ex.stage !== 'sites') continue;
      for (const key of ['ltol', 'angleTol'] as const) {
        const v = ex.sweep![key];
        if (v === null) continue;
        checked++;
        expect(v).toBeGreaterThan(CSP[key]);
        expect(matcherRmsDist(pred, truth, { ...CSP, [key]: v + 1e-6 }), `${key} ${v}`).not.toBeNull();
        expect(matcherRmsDist(pred, truth, { ...CSP, [key]: v - 1e-3 }), `${key} ${v}`).toBeNull();
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('lattice-stage pairs report a closest candidate beyond the tolerances, and no stol helps', () => {
    const lattice = [...explained.values()].filter(({ ex }) => ex.stage === 'lattice');
    expect(lattice.length).toBeGreaterThan(3);
    for (const { ex } of lattice) {
      const c = ex.lattice!.closest!;
      expect(ex.lattice!.candidates).toBe(0);
      expect(c.lengthRatio >= 1 + CSP.ltol || c.angleDiff >= CSP.angleTol).toBe(true);
      expect(ex.sweep!.stol).toBeNull();
    }
  });

  it('pymatgen-made numbers (pymatgen 2022.11, /usr/lib/python3/dist-packages)', () => {
    // StructureMatcher(ltol=0.3, stol=100, angle_tol=10).get_rms_dist(pred, truth) (no box) and the smallest stol
    // by bisection over get_rms_dist to 1e-9, on the files read with Structure.from_file.
    const expected: [string, number, number, number][] = [
      ['mp-999502', 0.5344563968777205, 0.6559374599467864, 0.5344563974067569],
      ['mvc-14229', 0.7011356033947984, 1.3666937749853885, 0.701135603711009],
      ['mp-1189139', 0.6873750469052327, 1.2732055537696008, 0.7220903243869543],
      ['mp-777409', 0.5304115445717109, 0.9237652697351773, 0.5304115451872349],
      ['mp-1246596', 0.5930952411568198, 1.6778444053338866, 0.7454293621703982],
    ];
    for (const [id, rms, maxDist, stol] of expected) {
      const ex = explained.get(id)!.ex;
      expect(ex.stage, id).toBe('sites');
      expect(ex.assignment!.rms).toBeCloseTo(rms, 9);
      expect(ex.assignment!.maxDist).toBeCloseTo(maxDist, 9);
      expect(Math.abs(ex.sweep!.stol! - stol), id).toBeLessThan(2e-9);
    }
    expect(explained.get('mp-1189139')!.ex.sweep!.stolGate).toBe('box');
    expect(explained.get('mp-1189139')!.ex.assignment!.reason).toBe('rms');
  });
});

// ------------------------------------------------------------------ hand-made pairs

const M: Mat3 = [
  [4.1, 0, 0],
  [0.6, 5.2, 0],
  [0.4, -0.7, 6.1],
];
const SITES: [string, Vec3][] = [
  ['Na', [0.1, 0.2, 0.3]],
  ['Cl', [0.6, 0.55, 0.7]],
  ['K', [0.3, 0.8, 0.1]],
  ['Br', [0.85, 0.1, 0.5]],
  ['O', [0.45, 0.35, 0.9]],
  ['O', [0.2, 0.6, 0.6]],
];
const RANDOM: Vec3[] = [
  [0.71, 0.05, 0.42],
  [0.13, 0.91, 0.77],
  [0.52, 0.33, 0.18],
  [0.29, 0.64, 0.95],
  [0.88, 0.47, 0.26],
  [0.05, 0.21, 0.58],
];
function crystal(matrix: Mat3, sites: [string, Vec3][]): Structure {
  const lattice = new Lattice(matrix);
  return { name: 'x', lattice, sites: sites.map(([el, f]) => makeSiteFromFrac(lattice, f, { [el]: 1 })) };
}
const truth = crystal(M, SITES);

describe('explainMatch on hand-made pairs', () => {
  it('an identical pair matches with rms 0 and the sweep reaches down to it', () => {
    const ex = explainMatch(truth, truth, CSP);
    expect(ex).toEqual(expect.objectContaining({ stage: 'matched', verdict: 'matched' }));
    expect(ex.match!.rms).toBeLessThan(1e-12);
    expect(ex.sweep!.stol!).toBeLessThan(1e-9);
  });

  it('a deleted atom stops at the site count, a replaced element at the species: wrong structure, no sweep', () => {
    const deleted = explainMatch(crystal(M, SITES.slice(0, 5)), truth, CSP);
    expect(deleted).toEqual(expect.objectContaining({ stage: 'composition', verdict: 'wrongStructure', sweep: null }));
    expect(deleted.composition).toEqual({ reason: 'siteCount', differences: [{ species: 'O', prediction: 1, truth: 2 }] });
    expect(deleted.sites!.compared).toEqual([5, 6]);
    expect(deleted.message).toMatch(/^sites: 5 vs 6 after primitive reduction/);
    const replaced = explainMatch(crystal(M, [['Li', SITES[0][1]], ...SITES.slice(1)]), truth, CSP);
    expect(replaced.composition).toEqual({
      reason: 'species',
      differences: [
        { species: 'Li', prediction: 1, truth: 0 },
        { species: 'Na', prediction: 0, truth: 1 },
      ],
    });
  });

  it('c stretched by 1.5 stops at the lattice: worst length ratio 1.5^(2/3) after the volume scaling', () => {
    const stretched = crystal([M[0], M[1], M[2].map((x) => x * 1.5) as Vec3], SITES);
    const ex = explainMatch(stretched, truth, CSP);
    // ltol 0.3104 would match: within 10 % of 0.3, a near miss.
    expect(ex).toEqual(expect.objectContaining({ stage: 'lattice', verdict: 'nearMiss' }));
    expect(ex.lattice!.candidates).toBe(0);
    expect(ex.lattice!.closest!.lengthRatio).toBeCloseTo(1.5 ** (2 / 3), 9);
    expect(ex.lattice!.closest!.angleDiff).toBeLessThan(1e-6);
    // pymatgen: the smallest ltol by bisection over get_rms_dist (to 1e-10) is 0.31037070945603773.
    expect(ex.sweep!.ltol!).toBeCloseTo(1.5 ** (2 / 3) - 1, 12);
    expect(Math.abs(ex.sweep!.ltol! - 0.31037070945603773)).toBeLessThan(1e-7);
    expect(ex.sweep!.stol).toBeNull();
    expect(ex.message).toMatch(/^lattice: no lattice of the prediction is within ltol 0\.3/);
    // Without the volume scaling the ratio is the stretch itself.
    expect(explainMatch(stretched, truth, { ...CSP, scale: false }).lattice!.closest!.lengthRatio).toBeCloseTo(1.5, 9);
  });

  it('random positions in the right lattice stop at the sites, with the best rms and the worst site', () => {
    const random = crystal(
      M,
      SITES.map(([el], i) => [el, RANDOM[i]]),
    );
    const ex = explainMatch(random, truth, CSP);
    expect(ex).toEqual(expect.objectContaining({ stage: 'sites', match: null }));
    expect(ex.lattice!.candidates).toBeGreaterThan(0);
    // pymatgen: get_rms_dist with stol 100 gives (0.5364218646867678, 0.9096943424015133); the smallest stol by
    // bisection is 0.5364218647009693.
    expect(ex.assignment!.rms).toBeCloseTo(0.5364218646867678, 10);
    expect(ex.assignment!.maxDist).toBeCloseTo(0.9096943424015133, 10);
    expect(ex.assignment!.reason).toBe('rms');
    expect(ex.sweep!.stol!).toBeCloseTo(0.5364218646867678, 10);
    expect(ex.verdict).toBe('nearMiss');
    const w = ex.assignment!.worst;
    expect(w.distance).toBe(ex.assignment!.maxDist);
    expect(w.species).toBe(SITES[w.prediction][0]);
    expect(ex.message).toMatch(/^sites: \d+ lattices? found, but the best assignment has rms 0\.536 ≥ stol 0\.5/);
    // At a wider stol the same pair matches, and the explanation says so.
    expect(explainMatch(random, truth, { ...CSP, stol: 0.6 }).stage).toBe('matched');
  });

  it('a pair the matcher refuses (no lattice) is an error explanation, not a throw', () => {
    const molecule: Structure = { name: 'm', lattice: null, sites: [] };
    const ex = explainMatch(molecule, truth, CSP);
    expect(ex).toEqual(expect.objectContaining({ stage: 'error', verdict: 'error' }));
    expect(ex.message).toMatch(/no lattice/);
  });
});
