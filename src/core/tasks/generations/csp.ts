/**
 * CSP metrics: match rate and RMSE as jiaor17/DiffCSP `scripts/compute_metrics.py` (`RecEval` for one
 * sample, `RecEvalBatch` for K) and txie-93/cdvae `scripts/compute_metrics.py` (`RecEval`) compute them:
 * `StructureMatcher(ltol=0.3, stol=0.5, angle_tol=10).get_rms_dist(pred, truth)` on the pairs each
 * convention attempts (those tolerances by default; a preset or explicit ones through `tolerances`), optionally with
 * both space groups per pair. README.md in this folder.
 */
import { type MatcherOptions, matcherRmsDist } from '../../match/structure-matcher.ts';
import { type CspGroup, GenInputError } from './inputs.ts';
import {
  CSP_DEFAULT_TOLERANCES,
  CSP_MATCHER,
  type CspMatcherTolerances,
  type CspPreset,
  type CspTolerances,
  cspTolerancesProblem,
  namedTolerances,
} from './tolerances.ts';
import { type GenSpaceGroup, GEN_SYMPREC, genSpaceGroup } from './space-groups.ts';
import { PYMATGEN_ANGLE_TOLERANCE } from '../../symmetry/analyze.ts';
import type { SmactTable } from './smact.ts';
import { type Assessment, type ValidityReason, assessStructure } from './validity.ts';

export type CspConvention = 'diffcsp' | 'cdvae';
export const CSP_CONVENTIONS: readonly CspConvention[] = ['diffcsp', 'cdvae'];

/**
 * A preset with explicit values over it (tolerances.ts). Throws GenInputError (one sentence) for a value that is not
 * a positive finite number, or an angle of 180° or more.
 */
export function cspTolerances(preset: CspPreset, explicit: Partial<CspMatcherTolerances> = {}): CspTolerances {
  const t = namedTolerances(preset, explicit);
  const problem = cspTolerancesProblem(t, { stol: '--stol', ltol: '--ltol', angle_tol: '--angle-tol' });
  if (problem) throw new GenInputError(problem);
  return t;
}

const matcherOptionsOf = (t: Readonly<CspTolerances>): MatcherOptions => ({ ltol: t.ltol, stol: t.stol, angleTol: t.angle_tol });
/** The same tolerances as the matcher's options. */
export const CSP_MATCHER_OPTIONS: Readonly<MatcherOptions> = Object.freeze({
  ltol: CSP_MATCHER.ltol,
  stol: CSP_MATCHER.stol,
  angleTol: CSP_MATCHER.angle_tol,
});

export type CspReason = ValidityReason | 'truth_invalid' | 'no_match' | 'matcher_error';

export interface CspTruthRow {
  id: string;
  nsites: number;
  truth_valid: boolean;
  matched: boolean;
  rms: number | null;
  max_dist: number | null;
  best_sample: number | null;
}

export interface CspSampleRow {
  /** The truth's id. */
  id: string;
  sample: number;
  nsites: number;
  min_distance: number | null;
  struct_valid: boolean;
  comp_valid: boolean;
  valid: boolean;
  reason: CspReason | null;
  matched: boolean;
  rms: number | null;
  max_dist: number | null;
  /** With space groups (`--space-groups`): both groups at symprec 0.1 (null: no group found) and whether they agree
   * (null when either is unknown). */
  truth_space_group?: GenSpaceGroup | null;
  pred_space_group?: GenSpaceGroup | null;
  same_space_group?: boolean | null;
}

/** With space groups: the pairs by agreement of their groups, and the match rate among same-group pairs. */
export interface CspSpaceGroupSummary {
  symprec: number;
  /** Degrees, as pymatgen's SpacegroupAnalyzer passes it to spglib. */
  angle_tolerance: number;
  n_pairs: number;
  n_same: number;
  n_different: number;
  n_unknown: number;
  /** Matched pairs among the same-space-group pairs; null when there are none. */
  match_rate_same: number | null;
  /** Pairs the matcher matched although their space groups differ. */
  n_matched_different: number;
}

export interface CspResult {
  command: 'csp';
  convention: CspConvention;
  smact: SmactTable;
  matcher: CspMatcherTolerances;
  tolerances: CspTolerances;
  n: number;
  n_samples: number;
  n_predictions: number;
  match_rate: number;
  rmse: number | null;
  valid_fraction: number;
  truth_valid_fraction: number;
  space_groups?: CspSpaceGroupSummary;
  per_truth: CspTruthRow[];
  per_sample: CspSampleRow[];
}

export interface CspOptions {
  convention: CspConvention;
  smact: SmactTable;
  /** The matcher's tolerances (default CDVAE's, CSP_DEFAULT_TOLERANCES). */
  tolerances?: Readonly<CspTolerances>;
  /** Adds both space groups to every pair (about 1 ms a structure) and their summary. */
  spaceGroups?: boolean;
  /** Called after each truth's samples are scored. */
  onProgress?: (done: number, total: number) => void;
  /** Called with each exception the matcher raised (the pair counts as unmatched, `matcher_error`, as upstream's try/except). */
  onMatcherError?: (error: unknown, truthId: string, sample: number) => void;
}

/** One prediction scored against its truth: the row, given both assessments. */
export function scoreCspSample(
  truthId: string,
  sample: number,
  pred: CspGroup['truth']['structure'],
  truth: CspGroup['truth']['structure'],
  p: Assessment,
  truthValid: boolean,
  gateOnTruth: boolean,
  onMatcherError?: CspOptions['onMatcherError'],
  matcherOptions: MatcherOptions = CSP_MATCHER_OPTIONS,
): CspSampleRow {
  let reason: CspReason | null = null;
  let result: { rms: number; maxDist: number } | null = null;
  if (!p.valid) reason = p.reasons[0];
  else if (gateOnTruth && !truthValid) reason = 'truth_invalid';
  else {
    try {
      result = matcherRmsDist(pred, truth, matcherOptions);
      if (!result) reason = 'no_match';
    } catch (e) {
      reason = 'matcher_error';
      onMatcherError?.(e, truthId, sample);
    }
  }
  return {
    id: truthId,
    sample,
    nsites: p.nsites,
    min_distance: p.minDistance,
    struct_valid: p.structValid,
    comp_valid: p.compValid,
    valid: p.valid,
    reason,
    matched: result !== null,
    rms: result ? result.rms : null,
    max_dist: result ? result.maxDist : null,
  };
}

/** One truth's rows: its per-truth row, its samples' rows (k ascending) and the counts the summary adds up. */
export interface CspGroupRows {
  truth: CspTruthRow;
  samples: CspSampleRow[];
  validPredictions: number;
}

/**
 * Scores one truth and its samples (independent of every other truth, so batches may run in any thread). DiffCSP
 * with one sample attempts a pair only when the prediction and the truth are valid (`c1.valid and c2.valid`); with
 * K samples (`RecEvalBatch`) and in CDVAE only the prediction's validity counts. The best of K is the smallest rms
 * (ties: smallest k).
 */
export function cspGroupRows(g: CspGroup, nSamples: number, options: CspOptions): CspGroupRows {
  const diffcspCut = options.convention === 'diffcsp';
  const gateOnTruth = options.convention === 'diffcsp' && nSamples === 1;
  const t = assessStructure(g.truth.structure, options.smact, diffcspCut);
  const matcherOptions = matcherOptionsOf(options.tolerances ?? CSP_DEFAULT_TOLERANCES);
  const truthGroup = options.spaceGroups ? genSpaceGroup(g.truth.structure) : null;
  let best: CspSampleRow | null = null;
  let validPredictions = 0;
  const samples: CspSampleRow[] = [];
  for (const { k, pred } of g.samples) {
    const p = assessStructure(pred.structure, options.smact, diffcspCut);
    if (p.valid) validPredictions++;
    const row = scoreCspSample(
      g.truth.id,
      k,
      pred.structure,
      g.truth.structure,
      p,
      t.valid,
      gateOnTruth,
      options.onMatcherError,
      matcherOptions,
    );
    if (options.spaceGroups) {
      const predGroup = genSpaceGroup(pred.structure);
      row.truth_space_group = truthGroup;
      row.pred_space_group = predGroup;
      row.same_space_group = truthGroup && predGroup ? truthGroup.number === predGroup.number : null;
    }
    samples.push(row);
    if (row.rms !== null && (best === null || row.rms < best.rms!)) best = row;
  }
  const b = best as CspSampleRow | null;
  const truth: CspTruthRow = {
    id: g.truth.id,
    nsites: g.truth.structure.sites.length,
    truth_valid: t.valid,
    matched: b !== null,
    rms: b ? b.rms : null,
    max_dist: b ? b.max_dist : null,
    best_sample: b ? b.sample : null,
  };
  return { truth, samples, validPredictions };
}

/** The `gen csp` document from every truth's rows, in the groups' order (sums in that order, so any split gives the same bits). */
export function cspSummary(
  rows: readonly CspGroupRows[],
  nSamples: number,
  options: Pick<CspOptions, 'convention' | 'smact' | 'tolerances' | 'spaceGroups'>,
): CspResult {
  let validPreds = 0,
    validTruths = 0,
    matchedTruths = 0,
    rmsSum = 0;
  for (const r of rows) {
    validPreds += r.validPredictions;
    if (r.truth.truth_valid) validTruths++;
    if (r.truth.rms !== null) {
      matchedTruths++;
      rmsSum += r.truth.rms;
    }
  }
  const n = rows.length;
  const perSample = rows.flatMap((r) => r.samples);
  const nPred = perSample.length;
  const t = options.tolerances ?? CSP_DEFAULT_TOLERANCES;
  // Rows merged from shards carry their space groups: the summary follows the rows.
  const withGroups = options.spaceGroups === true || perSample.some((r) => r.same_space_group !== undefined);
  return {
    command: 'csp',
    convention: options.convention,
    smact: options.smact,
    matcher: { stol: t.stol, angle_tol: t.angle_tol, ltol: t.ltol },
    tolerances: { preset: t.preset, stol: t.stol, ltol: t.ltol, angle_tol: t.angle_tol },
    n,
    n_samples: nSamples,
    n_predictions: nPred,
    match_rate: n ? matchedTruths / n : 0,
    rmse: matchedTruths ? rmsSum / matchedTruths : null,
    valid_fraction: nPred ? validPreds / nPred : 0,
    truth_valid_fraction: n ? validTruths / n : 0,
    ...(withGroups ? { space_groups: spaceGroupSummary(perSample) } : {}),
    per_truth: rows.map((r) => r.truth),
    per_sample: perSample,
  };
}

function spaceGroupSummary(pairs: readonly CspSampleRow[]): CspSpaceGroupSummary {
  let same = 0,
    different = 0,
    matchedSame = 0,
    matchedDifferent = 0;
  for (const r of pairs) {
    if (r.same_space_group === true) {
      same++;
      if (r.matched) matchedSame++;
    } else if (r.same_space_group === false) {
      different++;
      if (r.matched) matchedDifferent++;
    }
  }
  return {
    symprec: GEN_SYMPREC,
    angle_tolerance: PYMATGEN_ANGLE_TOLERANCE,
    n_pairs: pairs.length,
    n_same: same,
    n_different: different,
    n_unknown: pairs.length - same - different,
    match_rate_same: same ? matchedSame / same : null,
    n_matched_different: matchedDifferent,
  };
}

/** The CSP metrics of paired sets (inputs.ts `pairCsp`), in this thread: cspGroupRows per truth, then cspSummary. */
export function cspMetrics(groups: readonly CspGroup[], options: CspOptions): CspResult {
  const nSamples = groups[0]?.samples.length ?? 1;
  const rows = groups.map((g, done) => {
    const r = cspGroupRows(g, nSamples, options);
    options.onProgress?.(done + 1, groups.length);
    return r;
  });
  return cspSummary(rows, nSamples, options);
}
