/**
 * "Why no match": which stage of pymatgen 2022.11's `get_rms_dist(pred, truth)`
 * (pymatgen/analysis/structure_matcher.py) refuses a pair, with that stage's numbers, and the smallest
 * tolerances at which the pair would match. README.md in this folder, section "Why no match".
 *
 * Stages, in the matcher's order: `_preprocess` (Niggli, primitive, supercell factor, volume scaling) and
 * `_strict_match`'s refusals before any lattice (site counts without allow_subset; no species-consistent
 * assignment) → composition; `_get_lattices` finds no lattice of the searched side within ltol/angle_tol
 * → lattice; every lattice × translation fails the per-axis box (`is_coord_subset_pbc`) or has rms ≥ stol
 * → sites; else matched.
 *
 * The sweep: stol is found by bisection over `_strict_match` runs on the once-reduced pair (to 1e-9),
 * then made exact when the rms is the gate (the smallest stol is then the rms itself; it matches just
 * above); when the per-axis box is the gate the bisection's upper end is given (within 1e-9). ltol and
 * angle_tol are exact: a candidate lattice passes `find_all_mappings` iff its worst length ratio − 1 < ltol
 * and its worst angle difference < angle_tol, and more candidates only add mappings, so the smallest ltol
 * is the requirement of the first candidate, in ascending order, whose sites match at stol. Candidates are
 * enumerated up to ltol 1 (length ratio 2) and 60°. The sweeps together are held to one LIMITS.matchWork.
 */
import type { Mat3, Vec3 } from '../../math/mat3.ts';
import { errorText } from '../../errors.ts';
import { LimitError } from '../../limits.ts';
import type { LatticeMapping } from '../../structure/niggli.ts';
import { type BestMapping, type MatcherOptions, type MatcherProbe, MATCHER_DEFAULTS, prepareMatch } from '../../match/structure-matcher.ts';
import { speciesString } from '../../structure/composition.ts';
import type { Structure } from '../../structure/structure.ts';
import { acos } from '../../math/libm.ts';

/** A lattice or sites failure whose smallest sufficient tolerance is within this factor of the set one is a near miss. */
const NEAR_MISS = 1.1;
/** How far the lattice sweep enumerates candidates: length ratio 1 + LTOL_CAP, angle difference ANGLE_CAP degrees. */
const LTOL_CAP = 1;
const ANGLE_CAP = 60;
/** Absolute precision of the stol bisection. */
const STOL_PRECISION = 1e-9;

export interface MatchExplanation {
  /** The stage that refused the pair ('matched' when none did; 'error' when the matcher threw). */
  stage: 'composition' | 'lattice' | 'sites' | 'matched' | 'error';
  /**
   * 'wrongStructure': site counts or species differ, no tolerance helps; 'nearMiss': a tolerance at most 10 %
   * above the set one would match; 'noMatch': the rest.
   */
  verdict: 'matched' | 'nearMiss' | 'noMatch' | 'wrongStructure' | 'error';
  /** One sentence for the panel. */
  message: string;
  tolerances: { ltol: number; stol: number; angleTol: number };
  /** Site counts: as given, after Niggli/primitive reduction, and as compared (× the supercell factor fu). */
  sites: { prediction: number; truth: number; reduced: [number, number]; compared: [number, number]; fu: number } | null;
  composition: {
    reason: 'siteCount' | 'species';
    /** Species whose counts (as compared) differ, prediction vs truth. */
    differences: { species: string; prediction: number; truth: number }[];
  } | null;
  lattice: {
    /** Whose lattice is searched for vectors matching the other's (pymatgen's supercell side). */
    searched: 'prediction' | 'truth';
    /** Candidate lattices within ltol and angle_tol. */
    candidates: number;
    /** The candidate nearest to passing (smallest max(ratio − 1)/ltol, Δangle/angle_tol)), within the sweep's caps. */
    closest: {
      /** Worst of max(l/l₀, l₀/l) over the three vectors (passes iff < 1 + ltol). */
      lengthRatio: number;
      /** Worst |angle − angle₀| in degrees (passes iff < angle_tol). */
      angleDiff: number;
      lengths: Vec3;
      angles: Vec3;
      targetLengths: Vec3;
      targetAngles: Vec3;
    } | null;
  } | null;
  /** The best assignment over every lattice and translation, with no per-axis box (what stol would need). */
  assignment: {
    rms: number;
    maxDist: number;
    /** 'rms': the best rms is ≥ stol; 'box': it is below stol but a site is outside the per-axis stol box. */
    reason: 'rms' | 'box' | null;
    /** The farthest pair of that assignment: site indices (a representative after primitive reduction), normalised distance. */
    worst: { prediction: number; truth: number; species: string; distance: number };
  } | null;
  /** get_rms_dist's answer at the set tolerances. */
  match: { rms: number; maxDist: number } | null;
  /** The smallest tolerances that match, each with the other two as set (null: none within the caps, or not searched). */
  sweep: {
    stol: number | null;
    /** 'rms': exact (matches just above); 'box': the bisection's upper end (within 1e-9). */
    stolGate: 'rms' | 'box' | null;
    ltol: number | null;
    angleTol: number | null;
    /** True when a sweep stopped at LIMITS (matchWork or latticePoints). */
    limited: boolean;
  } | null;
}

interface Candidate {
  mapping: LatticeMapping;
  ratio: number;
  angleDiff: number;
  lengths: Vec3;
  angles: Vec3;
}

const RAD = 180 / Math.PI;
const lengthOf = (v: Vec3): number => Math.hypot(v[0], v[1], v[2]);
const angleOf = (u: Vec3, v: Vec3): number =>
  acos(Math.max(-1, Math.min(1, (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / lengthOf(u) / lengthOf(v)))) * RAD;
const anglesOf = (m: Mat3): Vec3 => [angleOf(m[1], m[2]), angleOf(m[0], m[2]), angleOf(m[0], m[1])];
const num = (x: number): string => (Math.abs(x) >= 1e-3 || x === 0 ? x.toPrecision(3) : x.toExponential(2));

function candidate(mapping: LatticeMapping, targetLengths: Vec3, targetAngles: Vec3): Candidate {
  const lengths = mapping.aligned.map(lengthOf) as Vec3;
  const angles = anglesOf(mapping.aligned);
  let ratio = 1,
    angleDiff = 0;
  for (let k = 0; k < 3; k++) {
    ratio = Math.max(ratio, lengths[k] / targetLengths[k], targetLengths[k] / lengths[k]);
    angleDiff = Math.max(angleDiff, Math.abs(angles[k] - targetAngles[k]));
  }
  return { mapping, ratio, angleDiff, lengths, angles };
}

/** The smallest stol at which some lattice × translation matches (see the module comment). */
function stolSweep(probe: MatcherProbe, stol: number, unboxed: BestMapping): { value: number; gate: 'rms' | 'box' } | null {
  const found = (s: number) => probe.run(s, undefined, true) !== null;
  let lo = 0,
    hi = stol;
  if (!found(hi)) {
    lo = hi;
    hi = Math.max(2 * stol, 2 * unboxed.rms, 1e-6);
    for (let i = 0; !found(hi); i++) {
      if (i === 40) return null;
      lo = hi;
      hi *= 2;
    }
  }
  for (let i = 0; hi - lo > STOL_PRECISION && i < 80; i++) {
    const mid = (lo + hi) / 2;
    if (found(mid)) hi = mid;
    else lo = mid;
  }
  const at = probe.run(hi);
  if (at && at.rms >= lo) return { value: at.rms, gate: 'rms' };
  return { value: hi, gate: 'box' };
}

/** The requirement of the first candidate (ascending) whose sites match at stol. */
function firstMatching(probe: MatcherProbe, stol: number, sorted: { need: number; c: Candidate }[]): number | null {
  for (const { need, c } of sorted) if (probe.run(stol, [c.mapping], true)) return need;
  return null;
}

const sitesWord = (n: number): string => `${n} site${n === 1 ? '' : 's'}`;

/**
 * Explains `get_rms_dist(pred, truth)` under `options` (pymatgen's defaults for what is unset; CSP:
 * ltol 0.3, stol 0.5, angleTol 10): the stage that refuses the pair, its numbers and the sweep.
 */
export function explainMatch(pred: Structure, truth: Structure, options?: MatcherOptions): MatchExplanation {
  const o = { ...MATCHER_DEFAULTS, ...Object.fromEntries(Object.entries(options ?? {}).filter(([, v]) => v !== undefined)) };
  const tolerances = { ltol: o.ltol, stol: o.stol, angleTol: o.angleTol };
  const base: MatchExplanation = {
    stage: 'error',
    verdict: 'error',
    message: '',
    tolerances,
    sites: null,
    composition: null,
    lattice: null,
    assignment: null,
    match: null,
    sweep: null,
  };
  let probe: MatcherProbe;
  try {
    probe = prepareMatch(pred, truth, o).probe();
  } catch (e) {
    return { ...base, message: `the matcher refused the pair: ${errorText(e)}` };
  }
  const ex: MatchExplanation = {
    ...base,
    sites: {
      prediction: pred.sites.length,
      truth: truth.sites.length,
      reduced: probe.reducedSites,
      compared: probe.comparedSites,
      fu: probe.fu,
    },
  };
  try {
    return explainStages(pred, probe, ex, o);
  } catch (e) {
    return { ...ex, stage: 'error', verdict: 'error', message: `the matcher refused the pair: ${errorText(e)}` };
  }
}

function explainStages(pred: Structure, probe: MatcherProbe, ex: MatchExplanation, o: Required<MatcherOptions>): MatchExplanation {
  const [cp, ct] = probe.comparedSites;
  const [rp, rt] = probe.reducedSites;
  const reducedNote = o.primitiveCell ? ' after primitive reduction' : ' after Niggli reduction';
  if (probe.refused) {
    const species = [...new Set([...probe.counts[0].keys(), ...probe.counts[1].keys()])].sort();
    const differences = species
      .map((s) => ({ species: s, prediction: probe.counts[0].get(s) ?? 0, truth: probe.counts[1].get(s) ?? 0 }))
      .filter((d) => d.prediction !== d.truth);
    const fuNote = probe.fu > 1 ? ` (supercell ×${probe.fu} of the ${probe.searched === 'a' ? 'prediction' : 'truth'})` : '';
    const message =
      probe.refused === 'siteCount'
        ? `sites: ${cp} vs ${ct}${reducedNote}${fuNote} (prediction ${sitesWord(ex.sites!.prediction)} → ${rp}, ` +
          `truth ${sitesWord(ex.sites!.truth)} → ${rt}); no site-to-site mapping exists`
        : `species: ${differences.map((d) => `${d.species} ${d.prediction} vs ${d.truth}`).join(', ')} ` +
          `(prediction vs truth${reducedNote}); the truth's species cannot all be found in the prediction`;
    return {
      ...ex,
      stage: 'composition',
      verdict: 'wrongStructure',
      message,
      composition: { reason: probe.refused, differences },
    };
  }

  const within = probe.mappings(o.ltol, o.angleTol).length;
  probe.resetWork();
  const match = probe.run(o.stol);
  probe.resetWork();
  const unboxed = within > 0 ? probe.run(Infinity) : null;

  // The sweeps share one LIMITS.matchWork account.
  probe.resetWork();
  let limited = false;
  const guarded = <T>(f: () => T): T | null => {
    try {
      return f();
    } catch (e) {
      if (!(e instanceof LimitError)) throw e;
      limited = true;
      return null;
    }
  };
  const targetLengths = probe.targetLattice.lengths;
  const targetAngles = probe.targetLattice.angles;
  const cands = guarded(() => probe.mappings(LTOL_CAP, ANGLE_CAP).map((m) => candidate(m, targetLengths, targetAngles)));
  const stol = unboxed ? guarded(() => stolSweep(probe, o.stol, unboxed)) : null;
  const byLtol = (cands ?? []).filter((c) => c.angleDiff < o.angleTol).map((c) => ({ need: c.ratio - 1, c }));
  const byAngle = (cands ?? []).filter((c) => c.ratio - 1 < o.ltol).map((c) => ({ need: c.angleDiff, c }));
  byLtol.sort((x, y) => x.need - y.need);
  byAngle.sort((x, y) => x.need - y.need);
  const ltol = cands ? guarded(() => firstMatching(probe, o.stol, byLtol)) : null;
  const angleTol = cands ? guarded(() => firstMatching(probe, o.stol, byAngle)) : null;
  const sweep = { stol: stol?.value ?? null, stolGate: stol?.gate ?? null, ltol, angleTol, limited };

  let closest: Candidate | null = null;
  const score = (c: Candidate) => Math.max((c.ratio - 1) / o.ltol, c.angleDiff / o.angleTol);
  for (const c of cands ?? []) if (!closest || score(c) < score(closest)) closest = c;
  const searched = probe.searched === 'a' ? 'prediction' : 'truth';
  const target = searched === 'prediction' ? 'truth' : 'prediction';
  const lattice: MatchExplanation['lattice'] = {
    searched,
    candidates: within,
    closest: closest && {
      lengthRatio: closest.ratio,
      angleDiff: closest.angleDiff,
      lengths: closest.lengths,
      angles: closest.angles,
      targetLengths,
      targetAngles,
    },
  };
  const best = match ?? unboxed;
  let assignment: MatchExplanation['assignment'] = null;
  if (best) {
    let worst = best.pairs[0];
    for (const p of best.pairs) if (p.distance > worst.distance) worst = p;
    assignment = {
      rms: best.rms,
      maxDist: best.maxDist,
      reason: match ? null : best.rms >= o.stol ? 'rms' : 'box',
      worst: { prediction: worst.a, truth: worst.b, species: speciesString(pred.sites[worst.a]), distance: worst.distance },
    };
  }
  const near =
    (sweep.stol !== null && sweep.stol <= NEAR_MISS * o.stol) ||
    (sweep.ltol !== null && sweep.ltol <= NEAR_MISS * o.ltol) ||
    (sweep.angleTol !== null && sweep.angleTol <= NEAR_MISS * o.angleTol);
  const verdict = match ? 'matched' : near ? 'nearMiss' : 'noMatch';
  const result = { ...ex, lattice, assignment, match: match && { rms: match.rms, maxDist: match.maxDist }, sweep, verdict } as const;
  const sweepNote = sweepSentence(sweep);
  if (match) {
    return { ...result, stage: 'matched', message: `matched: rms ${num(match.rms)}, max ${num(match.maxDist)} (normalised by (V/n)^⅓)` };
  }
  if (within === 0) {
    const c = lattice.closest;
    const off = c
      ? `the closest is off by length ratio ${num(c.lengthRatio)} (needs < ${num(1 + o.ltol)}) and ` +
        `${num(c.angleDiff)}° (needs < ${num(o.angleTol)}°)`
      : `none is within length ratio ${1 + LTOL_CAP} and ${ANGLE_CAP}°`;
    return {
      ...result,
      stage: 'lattice',
      message:
        `lattice: no lattice of the ${searched} is within ltol ${o.ltol} and angle_tol ${o.angleTol}° of the ${target}'s; ` +
        `${off}${sweepNote}`,
    };
  }
  const a = assignment!;
  const why =
    a.reason === 'rms'
      ? `the best assignment has rms ${num(a.rms)} ≥ stol ${o.stol}`
      : `the best assignment (rms ${num(a.rms)}) puts a site outside the stol box for every translation`;
  return {
    ...result,
    stage: 'sites',
    message:
      `sites: ${within} lattice${within === 1 ? '' : 's'} found, but ${why}; worst site: prediction ${a.worst.prediction} ` +
      `(${a.worst.species}) at ${num(a.worst.distance)}${sweepNote}`,
  };
}

function sweepSentence(s: NonNullable<MatchExplanation['sweep']>): string {
  const parts: string[] = [];
  if (s.stol !== null) parts.push(`stol ${num(s.stol)}`);
  if (s.ltol !== null) parts.push(`ltol ${num(s.ltol)}`);
  if (s.angleTol !== null) parts.push(`angle_tol ${num(s.angleTol)}°`);
  return parts.length ? `; it would match just above ${parts.join(' or ')}` : '; no tolerance within the sweep matches';
}
