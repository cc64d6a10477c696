/**
 * What the sample detail draws, as plain arrays (pure, unit-tested): the overlay's lines and marks after the
 * matcher's mapping, the too-close pairs with their labels, and the facts table of the two structures.
 */
import type { Vec3 } from '../../core/math/mat3.ts';
import { pairDistance } from '../../core/tasks/atomworld/lab/overlay.ts';
import { DISPLACEMENT_RAMP, rampColor, type Rgb } from '../../viewer/colors.ts';
import type { TextLabel } from '../../viewer/Lines.tsx';
import type { MatchExplanation } from '../../core/tasks/generations/explain.ts';
import type { ClosePairView, SampleOverlay, StructureSide } from '../../../workers/generations-api.ts';
import { fixed, fmt } from '../../ui/format.ts';

export interface OverlayDrawing {
  /** Line segments (6 numbers each): the counterpart's site → the predicted site the mapping joined to it. */
  points: number[];
  /** Per-vertex colours: the pair's distance on DISPLACEMENT_RAMP, 0 → the tolerance (stol in Å); beyond it red. */
  colors: number[];
  /** Counterpart sites of pairs farther than the tolerance. */
  beyond: Vec3[];
  /** Predicted sites with no partner, and counterpart sites with no partner. */
  unmatchedPrediction: Vec3[];
  unmatchedOther: Vec3[];
}

/** The overlay's lines and marks (SampleOverlay: target = the counterpart, answer = the prediction). */
export function overlayDrawing(o: SampleOverlay): OverlayDrawing {
  const points: number[] = [],
    colors: number[] = [],
    beyond: Vec3[] = [];
  for (const p of o.pairs) {
    points.push(...o.targetCart[p.a], ...o.answerCart[p.b]);
    const d = pairDistance(p);
    const c = rampColor(DISPLACEMENT_RAMP, o.tolerance > 0 ? d / o.tolerance : 1);
    colors.push(...c, ...c);
    if (d > o.tolerance) beyond.push(o.targetCart[p.a]);
  }
  return {
    points,
    colors,
    beyond,
    unmatchedPrediction: o.extra.map((i) => o.answerCart[i]),
    unmatchedOther: o.missing.map((i) => o.targetCart[i]),
  };
}

export const CLOSE_COLOR: Rgb = [0.86, 0.1, 0.1];

/** `0.312 Å`: the label of a too-close pair (three decimals: the cutoff is 0.5 Å). */
export const closeLabel = (distance: number): string => `${fixed(distance, 3)} Å`;

/** The too-close pairs as red segments (site i → the nearest image of site j) with their distance at the midpoint. */
export function closePairDrawing(pairs: readonly ClosePairView[]): {
  points: number[];
  colors: number[];
  labels: TextLabel[];
  ends: Vec3[];
} {
  const points: number[] = [],
    colors: number[] = [],
    labels: TextLabel[] = [],
    ends: Vec3[] = [];
  for (const p of pairs) {
    points.push(...p.from, ...p.to);
    colors.push(...CLOSE_COLOR, ...CLOSE_COLOR);
    ends.push(p.from, p.to);
    const mid: Vec3 = [(p.from[0] + p.to[0]) / 2, (p.from[1] + p.to[1]) / 2, (p.from[2] + p.to[2]) / 2];
    labels.push({ position: mid, text: closeLabel(p.distance) });
  }
  return { points, colors, labels, ends };
}

export interface FactRow {
  label: string;
  prediction: string;
  other: string | null;
  /** The two differ (by more than the printed digits). */
  differs: boolean;
}

/** Lattice parameters, volume, density, composition and space group of the prediction beside its counterpart. */
export function factRows(p: StructureSide, o: StructureSide | null): FactRow[] {
  const rows: [string, (s: StructureSide) => string][] = [
    ['formula', (s) => s.formula],
    ['sites', (s) => String(s.nsites)],
    ['space group', (s) => s.spaceGroup ?? '—'],
    ['a (Å)', (s) => fixed(s.lattice.a, 3)],
    ['b (Å)', (s) => fixed(s.lattice.b, 3)],
    ['c (Å)', (s) => fixed(s.lattice.c, 3)],
    ['α (°)', (s) => fixed(s.lattice.alpha, 2)],
    ['β (°)', (s) => fixed(s.lattice.beta, 2)],
    ['γ (°)', (s) => fixed(s.lattice.gamma, 2)],
    ['volume (Å³)', (s) => fixed(s.volume, 2)],
    ['density (g/cm³)', (s) => fixed(s.density, 3)],
    ['min distance (Å)', (s) => fmt(s.minDistance, 3)],
  ];
  return rows.map(([label, f]) => {
    const prediction = f(p),
      other = o ? f(o) : null;
    return { label, prediction, other, differs: other !== null && other !== prediction };
  });
}

/** The caption of the counterpart's role. */
export const ROLE_TEXT: Record<StructureSide['role'], string> = {
  prediction: 'prediction',
  truth: 'truth',
  duplicate_of: 'duplicate of',
  reference_match: 'reference match',
};

/** One sample in the gallery: `key` names its thumbnail in the cache (unique per run and sample). */
export interface GallerySample {
  index: number;
  key: string;
  id: string;
  /** The failure reason it is grouped by; null: none (valid and matched / unique). */
  reason: string | null;
}

/** The issue's order of failure reasons; others follow by name, samples without one last. */
const REASON_ORDER = [
  'atoms_too_close',
  'volume_too_small',
  'charge_imbalance',
  'electronegativity',
  'oxidation_combinations_over_limit',
  'truth_invalid',
  'matcher_error',
  'no_match',
  'duplicate',
  'not_novel',
];

/** Samples grouped by reason, groups in REASON_ORDER, samples in their given order within a group. */
export function groupByReason(samples: readonly GallerySample[]): { reason: string | null; samples: GallerySample[] }[] {
  const groups = new Map<string | null, GallerySample[]>();
  for (const s of samples) {
    const g = groups.get(s.reason);
    if (g) g.push(s);
    else groups.set(s.reason, [s]);
  }
  const rank = (r: string | null) =>
    r === null ? REASON_ORDER.length + 1 : REASON_ORDER.includes(r) ? REASON_ORDER.indexOf(r) : REASON_ORDER.length;
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || (a ?? '').localeCompare(b ?? ''))
    .map(([reason, s]) => ({ reason, samples: s }));
}

/** The verdict's words and class: a near miss is told apart from a wrong structure. */
export function whyHeadline(e: MatchExplanation): { text: string; tone: 'ok' | 'near' | 'far' } {
  switch (e.verdict) {
    case 'matched':
      return { text: 'Matched at the set tolerances', tone: 'ok' };
    case 'nearMiss':
      return { text: `Near miss: rejected at the ${e.stage} stage, a tolerance within 10 % would match`, tone: 'near' };
    case 'wrongStructure':
      return { text: 'A different structure: rejected at the composition stage, no tolerance helps', tone: 'far' };
    case 'noMatch':
      return { text: `No match: rejected at the ${e.stage} stage`, tone: 'far' };
    default:
      return { text: 'The matcher failed on this pair', tone: 'far' };
  }
}

export interface StageNumber {
  label: string;
  value: string;
  /** What passing needs (e.g. `< 1.3`), when the row is a test. */
  needs?: string;
  /** The row fails its test. */
  fails?: boolean;
}

const g3 = (x: number): string => fmt(x, 3);
const lengthsText = (v: readonly number[]): string => v.map((x) => fixed(x, 3)).join(', ');

/** The numbers of the stage that rejected the pair (of the match, when it matched). */
export function stageNumbers(e: MatchExplanation): StageNumber[] {
  const t = e.tolerances;
  const rows: StageNumber[] = [];
  if (e.stage === 'composition' && e.sites && e.composition) {
    const s = e.sites;
    rows.push({
      label: 'sites compared',
      value: `${s.compared[0]} vs ${s.compared[1]}${s.fu > 1 ? ` (supercell ×${s.fu})` : ''}`,
      needs: 'equal',
      fails: e.composition.reason === 'siteCount',
    });
    rows.push({ label: 'sites given → reduced', value: `${s.prediction} → ${s.reduced[0]} vs ${s.truth} → ${s.reduced[1]}` });
    for (const d of e.composition.differences) rows.push({ label: d.species, value: `${d.prediction} vs ${d.truth}`, fails: true });
  } else if (e.stage === 'lattice' && e.lattice) {
    const c = e.lattice.closest;
    rows.push({
      label: `lattices of the ${e.lattice.searched} within tolerance`,
      value: String(e.lattice.candidates),
      needs: '≥ 1',
      fails: true,
    });
    if (c) {
      rows.push({
        label: 'closest length ratio',
        value: g3(c.lengthRatio),
        needs: `< ${g3(1 + t.ltol)}`,
        fails: c.lengthRatio >= 1 + t.ltol,
      });
      rows.push({
        label: 'closest angle difference (°)',
        value: g3(c.angleDiff),
        needs: `< ${g3(t.angleTol)}`,
        fails: c.angleDiff >= t.angleTol,
      });
      rows.push({ label: 'its lengths (Å)', value: lengthsText(c.lengths), needs: lengthsText(c.targetLengths) });
      rows.push({ label: 'its angles (°)', value: lengthsText(c.angles), needs: lengthsText(c.targetAngles) });
    }
  } else if ((e.stage === 'sites' || e.stage === 'matched') && e.lattice) {
    rows.push({ label: 'lattices within ltol, angle_tol', value: String(e.lattice.candidates) });
    const a = e.assignment;
    if (a) {
      rows.push({ label: 'best rms', value: g3(a.rms), needs: `< ${g3(t.stol)}`, fails: e.stage === 'sites' && a.reason === 'rms' });
      rows.push({ label: 'max distance', value: g3(a.maxDist) });
      rows.push({
        label: 'worst site',
        value: `prediction ${a.worst.prediction} (${a.worst.species}) → truth ${a.worst.truth}: ${g3(a.worst.distance)}`,
        fails: e.stage === 'sites' && a.reason === 'box',
      });
    }
  }
  return rows;
}

/** "Would match at stol > 0.523 (set 0.5)…": the sweep's smallest tolerances, each with the other two as set. */
export function sweepText(e: MatchExplanation): string {
  const s = e.sweep;
  if (e.verdict === 'matched') return '';
  if (e.stage === 'composition') return 'No tolerance makes it match: the sites or species differ.';
  if (!s) return '';
  const t = e.tolerances;
  const parts: string[] = [];
  if (s.stol !== null) parts.push(`stol ${s.stolGate === 'rms' ? '>' : '≥'} ${g3(s.stol)} (set ${t.stol})`);
  if (s.ltol !== null) parts.push(`ltol > ${g3(s.ltol)} (set ${t.ltol})`);
  if (s.angleTol !== null) parts.push(`angle_tol > ${g3(s.angleTol)}° (set ${t.angleTol}°)`);
  const limited = s.limited ? ' (the sweep stopped at the work limit)' : '';
  return parts.length
    ? `Would match at ${parts.join(', or ')}${limited}.`
    : `No tolerance within the sweep (ltol ≤ 1, angle_tol ≤ 60°) matches${limited}.`;
}
