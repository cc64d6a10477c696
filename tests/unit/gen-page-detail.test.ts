/**
 * The Generations page's sample detail, its pure parts: the overlay's lines and marks after the matcher's mapping
 * (a hand-made cubic pair), the too-close pairs with their labels, the facts table and the gallery's groups.
 */
import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../../src/core/math/mat3.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type Structure, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import { overlayGeometry } from '../../src/core/tasks/atomworld/lab/overlay.ts';
import { closePairs } from '../../src/core/tasks/generations/validity.ts';
import { DISPLACEMENT_RAMP } from '../../src/viewer/colors.ts';
import {
  CLOSE_COLOR,
  closePairDrawing,
  factRows,
  groupByReason,
  overlayDrawing,
  type GallerySample,
} from '../../src/pages/generations/detail-model.ts';
import type { SampleOverlay, StructureSide } from '../../workers/generations-api.ts';

const cubic = (a: number, atoms: [string, Vec3][]): Structure => {
  const lattice = Lattice.fromParameters(a, a, a, 90, 90, 90);
  return { name: 'test', lattice, sites: atoms.map(([el, f]) => makeSiteFromFrac(lattice, f, { [el]: 1 })) };
};

describe('overlay drawing', () => {
  // Na 0.4 Å off, Cl 0.4 Å off, K 1.2 Å off (beyond stol = 1 Å); the second Cl pair (2.83 Å) is farther than the
  // assignment's 2.5 Å cut, so that truth site and that predicted site are unmatched.
  const truth = cubic(4, [
    ['Na', [0, 0, 0]],
    ['Cl', [0.5, 0.5, 0.5]],
    ['Cl', [0.5, 0, 0]],
    ['K', [0, 0, 0.5]],
  ]);
  const pred = cubic(4, [
    ['Na', [0.1, 0, 0]],
    ['Cl', [0.5, 0.5, 0.6]],
    ['Cl', [0, 0.5, 0]],
    ['K', [0, 0, 0.8]],
  ]);
  const geometry = overlayGeometry(truth, pred, null, 2.5);
  const overlay: SampleOverlay = { ...geometry, source: 'assignment', lengthScale: 1, tolerance: 1 };

  it('joins each counterpart site to its predicted partner, coloured by distance over stol in Å', () => {
    const d = overlayDrawing(overlay);
    expect(d.points.length).toBe(6 * overlay.pairs.length);
    expect(d.colors.length).toBe(6 * overlay.pairs.length);
    overlay.pairs.forEach((p, k) => {
      expect(d.points.slice(6 * k, 6 * k + 3)).toEqual(overlay.targetCart[p.a]);
      expect(d.points.slice(6 * k + 3, 6 * k + 6)).toEqual(overlay.answerCart[p.b]);
    });
    // The Na pair is 0.4 Å apart: 0.4 of the way along the ramp (between its 2nd and 3rd stops, 0.2 past the 2nd).
    const na = overlay.pairs.findIndex((p) => p.a === 0);
    expect(overlay.pairs[na].distance).toBeCloseTo(0.4, 12);
    const f = 0.4 * 3 - 1;
    const expected = [0, 1, 2].map((c) => DISPLACEMENT_RAMP[1][c] * (1 - f) + DISPLACEMENT_RAMP[2][c] * f);
    for (let c = 0; c < 3; c++) expect(d.colors[6 * na + c]).toBeCloseTo(expected[c], 12);
  });

  it('marks pairs beyond stol and the unmatched sites of both sides', () => {
    const d = overlayDrawing(overlay);
    const far = overlay.pairs.filter((p) => p.distance > 1);
    expect(far.map((p) => p.a)).toEqual([3]);
    expect(d.beyond).toEqual(far.map((p) => overlay.targetCart[p.a]));
    const farIndex = overlay.pairs.indexOf(far[0]);
    expect(d.colors.slice(6 * farIndex, 6 * farIndex + 3)).toEqual(DISPLACEMENT_RAMP[3]);
    expect(d.unmatchedOther).toEqual(overlay.missing.map((i) => overlay.targetCart[i]));
    expect(d.unmatchedPrediction).toEqual(overlay.extra.map((i) => overlay.answerCart[i]));
    expect([overlay.missing, overlay.extra]).toEqual([[2], [2]]);
  });

  it("uses the matcher's distance for the colour when the pair has one", () => {
    const withMatcher: SampleOverlay = {
      ...overlay,
      source: 'matcher',
      pairs: overlay.pairs.map((p) => ({ ...p, matcherDistance: 0 })),
    };
    const d = overlayDrawing(withMatcher);
    expect(d.beyond).toEqual([]);
    for (let k = 0; k < withMatcher.pairs.length; k++) expect(d.colors.slice(6 * k, 6 * k + 3)).toEqual(DISPLACEMENT_RAMP[0]);
  });
});

describe('too-close pairs', () => {
  it('draws each pair to the nearest image of its second site, labelled with its distance at the midpoint', () => {
    // 0.25 Å apart across the cell face: site 1 at x = 4.75 Å is nearest to site 0 through the image at −0.25 Å.
    const s = cubic(5, [
      ['O', [0, 0, 0]],
      ['O', [0.95, 0, 0]],
      ['Mg', [0.5, 0.5, 0.5]],
    ]);
    const cp = closePairs(s);
    expect(cp.length).toBe(1);
    const from: Vec3 = [0, 0, 0];
    const to: Vec3 = [cp[0].frac[0] * 5, cp[0].frac[1] * 5, cp[0].frac[2] * 5];
    const d = closePairDrawing([{ i: cp[0].i, j: cp[0].j, distance: cp[0].distance, from, to }]);
    expect(d.points).toEqual([...from, ...to]);
    expect(Math.hypot(to[0] - from[0], to[1] - from[1], to[2] - from[2])).toBeCloseTo(0.25, 12);
    expect(d.colors).toEqual([...CLOSE_COLOR, ...CLOSE_COLOR]);
    expect(d.labels.map((l) => l.text)).toEqual(['0.250 Å']);
    d.labels[0].position.forEach((x, k) => expect(x).toBeCloseTo((from[k] + to[k]) / 2, 12));
    expect(d.ends).toEqual([from, to]);
  });
});

describe('facts table', () => {
  const side = (over: Partial<StructureSide>): StructureSide =>
    ({
      role: 'prediction',
      id: 'x',
      formula: 'Na1 Cl1',
      nsites: 2,
      spaceGroup: 'Fm-3m (225)',
      lattice: { a: 4, b: 4, c: 4, alpha: 90, beta: 90, gamma: 90 },
      volume: 64,
      density: 1.5166,
      minDistance: 2,
      ...over,
    }) as StructureSide;

  it('shows both structures side by side and flags the rows that differ', () => {
    const rows = factRows(side({}), side({ role: 'truth', lattice: { a: 4.2, b: 4, c: 4, alpha: 90, beta: 90, gamma: 90 } }));
    const byLabel = Object.fromEntries(rows.map((r) => [r.label, r]));
    expect(byLabel['a (Å)']).toEqual({ label: 'a (Å)', prediction: '4.000', other: '4.200', differs: true });
    expect(byLabel['b (Å)'].differs).toBe(false);
    expect(byLabel['space group'].prediction).toBe('Fm-3m (225)');
    expect(byLabel['density (g/cm³)'].prediction).toBe('1.517');
    expect(rows.map((r) => r.label)).toEqual([
      'formula',
      'sites',
      'space group',
      'a (Å)',
      'b (Å)',
      'c (Å)',
      'α (°)',
      'β (°)',
      'γ (°)',
      'volume (Å³)',
      'density (g/cm³)',
      'min distance (Å)',
    ]);
  });

  it('has no second column without a counterpart, and a dash for a missing space group', () => {
    const rows = factRows(side({ spaceGroup: null, minDistance: null }), null);
    expect(rows.every((r) => r.other === null && !r.differs)).toBe(true);
    expect(rows.find((r) => r.label === 'space group')!.prediction).toBe('—');
    expect(rows.find((r) => r.label === 'min distance (Å)')!.prediction).toBe('—');
  });
});

describe('gallery groups', () => {
  it('orders groups as the issue lists the reasons, unknown ones by name, samples without a reason last', () => {
    const s = (index: number, reason: string | null): GallerySample => ({ index, key: `k${index}`, id: `s${index}`, reason });
    const groups = groupByReason([s(0, null), s(1, 'no_match'), s(2, 'atoms_too_close'), s(3, 'zeta'), s(4, 'no_match'), s(5, 'alpha')]);
    expect(groups.map((g) => g.reason)).toEqual(['atoms_too_close', 'no_match', 'alpha', 'zeta', null]);
    expect(groups[1].samples.map((x) => x.index)).toEqual([1, 4]);
  });
});
