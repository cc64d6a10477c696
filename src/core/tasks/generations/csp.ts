/**
 * CSP metrics: match rate and RMSE as jiaor17/DiffCSP `scripts/compute_metrics.py` (`RecEval` for one
 * sample, `RecEvalBatch` for K) and txie-93/cdvae `scripts/compute_metrics.py` (`RecEval`) compute them:
 * `StructureMatcher(ltol=0.3, stol=0.5, angle_tol=10).get_rms_dist(pred, truth)` on the pairs each
 * convention attempts. README.md in this folder.
 */
import { type MatcherOptions, matcherRmsDist } from '../../match/structure-matcher.ts';
import type { CspGroup } from './inputs.ts';
import type { SmactTable } from './smact.ts';
import { type Assessment, type ValidityReason, assessStructure } from './validity.ts';

export type CspConvention = 'diffcsp' | 'cdvae';
export const CSP_CONVENTIONS: readonly CspConvention[] = ['diffcsp', 'cdvae'];

/** `RecEval.__init__`: the matcher's tolerances; everything else pymatgen's defaults. */
export const CSP_MATCHER = Object.freeze({ stol: 0.5, angle_tol: 10, ltol: 0.3 });
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
}

export interface CspResult {
  command: 'csp';
  convention: CspConvention;
  smact: SmactTable;
  matcher: typeof CSP_MATCHER;
  n: number;
  n_samples: number;
  n_predictions: number;
  match_rate: number;
  rmse: number | null;
  valid_fraction: number;
  truth_valid_fraction: number;
  per_truth: CspTruthRow[];
  per_sample: CspSampleRow[];
}

export interface CspOptions {
  convention: CspConvention;
  smact: SmactTable;
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
): CspSampleRow {
  let reason: CspReason | null = null;
  let result: { rms: number; maxDist: number } | null = null;
  if (!p.valid) reason = p.reasons[0];
  else if (gateOnTruth && !truthValid) reason = 'truth_invalid';
  else {
    try {
      result = matcherRmsDist(pred, truth, CSP_MATCHER_OPTIONS);
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
  let best: CspSampleRow | null = null;
  let validPredictions = 0;
  const samples: CspSampleRow[] = [];
  for (const { k, pred } of g.samples) {
    const p = assessStructure(pred.structure, options.smact, diffcspCut);
    if (p.valid) validPredictions++;
    const row = scoreCspSample(g.truth.id, k, pred.structure, g.truth.structure, p, t.valid, gateOnTruth, options.onMatcherError);
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
export function cspSummary(rows: readonly CspGroupRows[], nSamples: number, options: Pick<CspOptions, 'convention' | 'smact'>): CspResult {
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
  return {
    command: 'csp',
    convention: options.convention,
    smact: options.smact,
    matcher: CSP_MATCHER,
    n,
    n_samples: nSamples,
    n_predictions: nPred,
    match_rate: n ? matchedTruths / n : 0,
    rmse: matchedTruths ? rmsSum / matchedTruths : null,
    valid_fraction: nPred ? validPreds / nPred : 0,
    truth_valid_fraction: n ? validTruths / n : 0,
    per_truth: rows.map((r) => r.truth),
    per_sample: perSample,
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
