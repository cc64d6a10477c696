/**
 * The Generations page's "why no match" panel, its pure parts: the headline that tells a near miss from a wrong
 * structure, the numbers of the rejecting stage and the sweep's sentence, on explanations of hand-made pairs.
 */
import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../../src/core/math/mat3.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type Structure, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import { type MatchExplanation, explainMatch } from '../../src/core/tasks/generations/explain.ts';
import { stageNumbers, sweepText, whyHeadline } from '../../src/pages/generations/detail-model.ts';

const orthorhombic = (abc: Vec3, atoms: [string, Vec3][]): Structure => {
  const lattice = Lattice.fromParameters(abc[0], abc[1], abc[2], 90, 90, 90);
  return { name: 'test', lattice, sites: atoms.map(([el, f]) => makeSiteFromFrac(lattice, f, { [el]: 1 })) };
};
const CSP = { ltol: 0.3, stol: 0.5, angleTol: 10 };
const truth = orthorhombic(
  [4, 4, 4],
  [
    ['Na', [0, 0, 0]],
    ['Cl', [0.5, 0.5, 0.5]],
  ],
);

describe('why no match', () => {
  it('a different species: rejected at the composition stage, told as a wrong structure that no tolerance fixes', () => {
    const pred = orthorhombic(
      [4, 4, 4],
      [
        ['Na', [0, 0, 0]],
        ['K', [0.5, 0.5, 0.5]],
      ],
    );
    const e = explainMatch(pred, truth, CSP);
    expect(e.stage).toBe('composition');
    expect(whyHeadline(e)).toEqual({ text: 'A different structure: rejected at the composition stage, no tolerance helps', tone: 'far' });
    const rows = stageNumbers(e);
    expect(rows.find((r) => r.label === 'sites compared')).toEqual({
      label: 'sites compared',
      value: '2 vs 2',
      needs: 'equal',
      fails: false,
    });
    expect(rows.filter((r) => r.fails).map((r) => `${r.label} ${r.value}`)).toEqual(['Cl 0 vs 1', 'K 1 vs 0']);
    expect(sweepText(e)).toBe('No tolerance makes it match: the sites or species differ.');
  });

  it('a stretched cell: rejected at the lattice stage with the closest candidate and the ltol it would need', () => {
    const pred = orthorhombic(
      [4, 4, 6.4],
      [
        ['Na', [0, 0, 0]],
        ['Cl', [0.5, 0.5, 0.5]],
      ],
    );
    const e = explainMatch(pred, truth, CSP);
    expect(e.stage).toBe('lattice');
    expect(e.verdict).toBe('noMatch');
    expect(whyHeadline(e).text).toBe('No match: rejected at the lattice stage');
    const c = e.lattice!.closest!;
    const rows = stageNumbers(e);
    expect(rows.slice(0, 3)).toEqual([
      { label: 'lattices of the prediction within tolerance', value: '0', needs: '≥ 1', fails: true },
      { label: 'closest length ratio', value: c.lengthRatio.toPrecision(3), needs: '< 1.30', fails: true },
      { label: 'closest angle difference (°)', value: '0.00', needs: '< 10.0', fails: false },
    ]);
    expect(sweepText(e)).toBe(`Would match at ltol > ${e.sweep!.ltol!.toPrecision(3)} (set 0.3).`);
  });

  const sites = (stol: number | null, stolGate: 'rms' | 'box' | null, verdict: 'nearMiss' | 'noMatch'): MatchExplanation => ({
    stage: 'sites',
    verdict,
    message: 'sites: …',
    tolerances: CSP,
    sites: { prediction: 3, truth: 3, reduced: [3, 3], compared: [3, 3], fu: 1 },
    composition: null,
    lattice: { searched: 'prediction', candidates: 4, closest: null },
    assignment: { rms: 0.52, maxDist: 0.7, reason: 'rms', worst: { prediction: 2, truth: 1, species: 'O', distance: 0.7 } },
    match: null,
    sweep: { stol, stolGate, ltol: null, angleTol: null, limited: false },
  });

  it('a near miss at the sites stage: the rms against stol, the worst site, and the stol it would match at', () => {
    const e = sites(0.52, 'rms', 'nearMiss');
    expect(whyHeadline(e)).toEqual({ text: 'Near miss: rejected at the sites stage, a tolerance within 10 % would match', tone: 'near' });
    expect(stageNumbers(e)).toEqual([
      { label: 'lattices within ltol, angle_tol', value: '4' },
      { label: 'best rms', value: '0.520', needs: '< 0.500', fails: true },
      { label: 'max distance', value: '0.700' },
      { label: 'worst site', value: 'prediction 2 (O) → truth 1: 0.700', fails: false },
    ]);
    expect(sweepText(e)).toBe('Would match at stol > 0.520 (set 0.5).');
    expect(sweepText(sites(0.61, 'box', 'noMatch'))).toBe('Would match at stol ≥ 0.610 (set 0.5).');
    expect(sweepText(sites(null, null, 'noMatch'))).toBe('No tolerance within the sweep (ltol ≤ 1, angle_tol ≤ 60°) matches.');
  });

  it('a matched pair has no sweep sentence', () => {
    const e = explainMatch(truth, truth, CSP);
    expect(e.verdict).toBe('matched');
    expect(whyHeadline(e).tone).toBe('ok');
    expect(sweepText(e)).toBe('');
  });
});
