/**
 * De novo generation metrics (`gen eval`): validity fractions (txie-93/cdvae `scripts/compute_metrics.py`
 * GenEval.get_validity), density and element-count Wasserstein distances (GenEval.get_density_wdist,
 * get_num_elem_wdist), uniqueness, novelty and S.U.N. (microsoft/mattergen `evaluation/metrics/structure.py`,
 * `metrics/energy.py`, `utils/dataset_matcher.py`). Per-sample rows carry the reasons, the duplicate and the
 * reference match, for the failure-inspection view. README.md here describes the conventions.
 */
import { elementCounts, reducedFormula } from '../../structure/composition.ts';
import { elementBySymbol } from '../../structure/elements.ts';
import type { Structure } from '../../structure/structure.ts';
import type { GenItem } from './inputs.ts';
import { type GenMatcherName, mattergenFit } from './mattergen-matcher.ts';
import { PYMATGEN_ATOMIC_MASS } from './pymatgen-elements.ts';
import type { SmactTable } from './smact.ts';
import { GEN_SYMPREC, type GenSpaceGroup, type SpaceGroupDistribution, genSpaceGroup, spaceGroupDistribution } from './space-groups.ts';
import { PYMATGEN_ANGLE_TOLERANCE } from '../../symmetry/analyze.ts';
import { type ValidityReason, assessStructure } from './validity.ts';
import { COVERAGE_CUTOFFS, type CoverageMetrics, coverageMetrics, meanPairwiseDistance, scaleCompositionFingerprint } from './coverage.ts';
import { type CoverageFingerprint, coverageFingerprint } from './fingerprints.ts';

export type DenovoConvention = 'diffcsp' | 'cdvae' | 'mattergen';

export interface DenovoOptions {
  convention: DenovoConvention;
  smact: SmactTable;
  matcher: GenMatcherName;
  /** eV/atom; MatterGen's DEFAULT_STABILITY_THRESHOLD is 0.1. */
  stabilityThreshold: number;
  /** Adds each prediction's space group (symprec 0.1) and the distributions of the predictions and the reference. */
  spaceGroups?: boolean;
  /** Told of each comparison the matcher could not finish (counted as no match): the judged id, the other id. */
  onMatcherError?: (error: unknown, id: string, otherId: string) => void;
  /** CDVAE's coverage (COV-R/P, AMSD, AMCD) against the truth set, and comp_div / struct_div, at these cutoffs. */
  coverage?: CoverageOptions;
  /** Told of prediction `index`'s duplicate (an earlier prediction) or reference match as an item: ids in a set may
   * repeat (src/core/tasks/generations/inputs.ts), so the row's id names it only for a reader. */
  onCounterpart?: (index: number, role: 'duplicate_of' | 'reference_match', other: GenItem) => void;
}

export interface DenovoInput {
  predictions: readonly GenItem[];
  /** The training set for novelty (R), in its input order. */
  reference?: readonly GenItem[];
  /** The test set for the Wasserstein distances (T). */
  truth?: readonly GenItem[];
  /** E above hull per prediction id (eV/atom, null = failed job); every prediction has an entry. */
  energies?: ReadonlyMap<string, number | null>;
  /** With coverage: the fingerprints of each prediction and truth, when computed elsewhere (threads); else made here. */
  fingerprints?: { predictions: CoverageFingerprint[]; truth: CoverageFingerprint[] };
}

/** A data set with CDVAE's coverage cutoffs (COV_Cutoffs). */
export type CoverageDataset = keyof typeof COVERAGE_CUTOFFS;

export interface CoverageOptions {
  /** The data set whose COV_Cutoffs these are (compute_metrics.py), or null for cutoffs given by hand. */
  dataset: CoverageDataset | null;
  struc: number;
  comp: number;
}

export interface DenovoSample {
  id: string;
  formula: string;
  nsites: number;
  volume: number;
  density: number;
  n_elements: number;
  min_distance: number | null;
  struct_valid: boolean;
  comp_valid: boolean;
  valid: boolean;
  reasons: ValidityReason[];
  unique: boolean;
  duplicate_of: string | null;
  novel: boolean | null;
  reference_match: string | null;
  e_above_hull: number | null;
  stable: boolean | null;
  sun: boolean | null;
  /** With space groups: the prediction's, null when no group was found. */
  space_group?: GenSpaceGroup | null;
  /** With coverage: the distance of its fingerprints to the nearest truth's (null without fingerprints), and why none. */
  struc_precision_dist?: number | null;
  comp_precision_dist?: number | null;
  fingerprint_error?: string | null;
}

/** The `gen eval` document, keys in the contract's order. */
export interface DenovoResult {
  command: 'eval';
  convention: DenovoConvention;
  smact: SmactTable;
  matcher: GenMatcherName;
  stability_threshold: number;
  n: number;
  n_valid: number;
  n_reference: number | null;
  n_truth: number | null;
  validity: { structural: number; compositional: number; overall: number };
  uniqueness: number;
  novelty: number | null;
  unique_novel: number | null;
  stable: number | null;
  sun: number | null;
  wasserstein: { density: number | null; n_elements: number | null };
  /** With coverage: compute_cov's metrics against the truth set, and the diversities of the valid predictions. */
  coverage?: DenovoCoverage;
  comp_div?: number | null;
  struct_div?: number | null;
  /** With space groups: symprec, and the distribution of the predictions and of the reference (null without one). */
  space_groups?: {
    symprec: number;
    angle_tolerance: number;
    predictions: SpaceGroupDistribution;
    reference: SpaceGroupDistribution | null;
  };
  per_sample: DenovoSample[];
}

/** pymatgen's amu in grams (scipy CODATA 2018, `Mass(…, "amu").to("g")`). */
const AMU_GRAMS = 1.6605390666e-24;

/**
 * pymatgen `Structure.density`, g/cm³: composition weight (pymatgen 2022.11 masses, summed per element in composition
 * order) over the volume.
 */
export function pymatgenDensity(s: Structure): number {
  let weight = 0;
  for (const [el, count] of elementCounts(s)) weight += PYMATGEN_ATOMIC_MASS[elementBySymbol(el)!.Z - 1] * Math.abs(count);
  return (weight * AMU_GRAMS) / (s.lattice!.volume * 1e-24);
}

/**
 * `scipy.stats.wasserstein_distance(u, v)` with equal weights: ∫ |F_u(x) − F_v(x)| dx over the two
 * empirical CDFs, evaluated between consecutive values of the merged sample. Null when either is empty.
 */
export function wasserstein1(u: readonly number[], v: readonly number[]): number | null {
  if (u.length === 0 || v.length === 0) return null;
  const us = [...u].sort((a, b) => a - b),
    vs = [...v].sort((a, b) => a - b);
  const all = [...us, ...vs].sort((a, b) => a - b);
  let iu = 0,
    iv = 0,
    total = 0;
  for (let k = 0; k + 1 < all.length; k++) {
    const x = all[k];
    // searchsorted(…, 'right'): how many values are ≤ x.
    while (iu < us.length && us[iu] <= x) iu++;
    while (iv < vs.length && vs[iv] <= x) iv++;
    total += Math.abs(iu / us.length - iv / vs.length) * (all[k + 1] - x);
  }
  return total;
}

/** A matcher failure (a work limit, a degenerate cell) is no match, as a failed comparison cannot make two structures equal. */
function fits(a: GenItem, b: GenItem, options: DenovoOptions): boolean {
  try {
    return mattergenFit(a.structure, b.structure, options.matcher);
  } catch (e) {
    options.onMatcherError?.(e, a.id, b.id);
    return false;
  }
}

export interface DenovoProgress {
  /** Predictions whose uniqueness and novelty are decided. */
  done: number;
  total: number;
}

/** One prediction's row before uniqueness, novelty and energies (independent of the others: any thread may compute it). */
export function denovoRow(p: GenItem, options: Pick<DenovoOptions, 'convention' | 'smact' | 'spaceGroups'>): DenovoSample {
  const a = assessStructure(p.structure, options.smact, options.convention === 'diffcsp');
  return {
    id: p.id,
    formula: reducedFormula(p.structure),
    nsites: a.nsites,
    volume: a.volume,
    density: pymatgenDensity(p.structure),
    n_elements: elementCounts(p.structure).size,
    min_distance: a.minDistance,
    struct_valid: a.structValid,
    comp_valid: a.compValid,
    valid: a.valid,
    reasons: a.reasons,
    unique: true,
    duplicate_of: null,
    novel: null,
    reference_match: null,
    e_above_hull: null,
    stable: null,
    sun: null,
    ...(options.spaceGroups ? { space_group: genSpaceGroup(p.structure) } : {}),
  };
}

/** The first of `candidates` (in their order) that `item` matches, or null: one greedy uniqueness step, or novelty. */
function firstMatch(item: GenItem, candidates: readonly GenItem[], options: DenovoOptions): GenItem | null {
  for (const c of candidates) if (fits(item, c, options)) return c;
  return null;
}

/**
 * Greedy uniqueness within one reduced formula (members in input order): each is a duplicate of the first kept
 * member it matches, kept otherwise. Formulas never meet, so each formula's members may be judged in any thread.
 * Returns `duplicate_of` per member.
 */
export function uniqueWithinFormula(members: readonly GenItem[], options: DenovoOptions): (string | null)[] {
  const kept: GenItem[] = [];
  return members.map((m) => {
    const d = firstMatch(m, kept, options);
    if (!d) kept.push(m);
    return d ? d.id : null;
  });
}

/** Novelty of one prediction: the first reference structure of the same reduced formula (in R's order) it matches, or null. */
export function referenceMatch(pred: GenItem, sameFormula: readonly GenItem[], options: DenovoOptions): string | null {
  return firstMatch(pred, sameFormula, options)?.id ?? null;
}

/** Reference items grouped by reduced formula, each group in R's order. */
export function referenceByFormula(reference: readonly GenItem[]): Map<string, GenItem[]> {
  const groups = new Map<string, GenItem[]>();
  for (const r of reference) {
    const f = reducedFormula(r.structure);
    const g = groups.get(f);
    if (g) g.push(r);
    else groups.set(f, [r]);
  }
  return groups;
}

/** Computes the `gen eval` document in this thread. `onProgress` is called after each prediction's comparisons. */
export function evaluateDenovo(input: DenovoInput, options: DenovoOptions, onProgress?: (p: DenovoProgress) => void): DenovoResult {
  const preds = input.predictions;
  const n = preds.length;
  const rows = preds.map((p) => denovoRow(p, options));
  const references = input.reference ? referenceByFormula(input.reference) : null;
  const kept = new Map<string, GenItem[]>();
  const fingerprintCount = options.coverage && !input.fingerprints ? n + (input.truth?.length ?? 0) : 0;
  rows.forEach((row, i) => {
    // Uniqueness: greedy in input order against the structures kept so far (same reduced formula), in the order kept.
    const candidates = kept.get(row.formula) ?? [];
    const d = firstMatch(preds[i], candidates, options);
    if (d) {
      row.unique = false;
      row.duplicate_of = d.id;
      options.onCounterpart?.(i, 'duplicate_of', d);
    } else kept.set(row.formula, [...candidates, preds[i]]);
    // Novelty: the first matching reference structure in R's order.
    if (references) {
      const m = firstMatch(preds[i], references.get(row.formula) ?? [], options);
      row.reference_match = m?.id ?? null;
      row.novel = m === null;
      if (m) options.onCounterpart?.(i, 'reference_match', m);
    }
    onProgress?.({ done: i + 1, total: n + fingerprintCount });
  });
  if (!options.coverage) return denovoSummary(input, rows, options);
  // Fingerprints last: the progress line counts them after the comparisons.
  let done = n;
  const fingerprintsOf = (items: readonly GenItem[]) =>
    items.map((it) => {
      const fp = coverageFingerprint(it.structure);
      onProgress?.({ done: ++done, total: n + fingerprintCount });
      return fp;
    });
  const fingerprints = input.fingerprints ?? { predictions: fingerprintsOf(preds), truth: fingerprintsOf(input.truth ?? []) };
  return denovoSummary({ ...input, fingerprints }, rows, options);
}

export interface DenovoCoverage extends CoverageMetrics {
  /** The data set whose cutoffs these are (CDVAE's COV_Cutoffs), null for cutoffs given by hand. */
  dataset: CoverageDataset | null;
  /** Predictions and truths with fingerprints (upstream drops the predictions without; cov_precision still divides by n). */
  n_predictions: number;
  n_truth: number;
}

/**
 * compute_cov against the truth set and get_fp_pdist over the valid predictions (txie-93/cdvae scripts/compute_metrics.py
 * GenEval.get_coverage, get_comp_diversity, get_struct_diversity), each prediction's row given its nearest-truth
 * distances. Upstream samples 1,000 valid predictions for the diversities (unseeded) and fails with fewer; all valid
 * ones are used here, as for the Wasserstein distances. A truth without fingerprints is left out (upstream fails).
 */
function coverageOf(
  input: DenovoInput,
  rows: DenovoSample[],
  cutoffs: CoverageOptions,
): Pick<DenovoResult, 'coverage' | 'comp_div' | 'struct_div'> {
  const fps = input.fingerprints;
  if (!fps || !input.truth) throw new Error('coverage needs the truth set and the fingerprints');
  const truth = fps.truth.filter((f) => f.struct !== null && f.comp !== null);
  if (truth.length === 0) throw new Error('coverage needs a truth structure with fingerprints; the truth set has none');
  const cov = coverageMetrics(
    fps.predictions.map((f) => f.struct),
    fps.predictions.map((f) => f.comp),
    truth.map((f) => f.struct!),
    truth.map((f) => f.comp!),
    { struc: cutoffs.struc, comp: cutoffs.comp },
  );
  let k = 0;
  rows.forEach((row, i) => {
    const f = fps.predictions[i];
    const has = f.struct !== null && f.comp !== null;
    row.struc_precision_dist = has ? cov.distances.struc_precision_dist[k] : null;
    row.comp_precision_dist = has ? cov.distances.comp_precision_dist[k] : null;
    row.fingerprint_error = f.error;
    if (has) k++;
  });
  const valid = fps.predictions.filter((f, i) => rows[i].valid && f.struct !== null && f.comp !== null);
  const diversity = (xs: readonly (Float64Array | readonly number[])[]) => (xs.length >= 2 ? meanPairwiseDistance(xs) : null);
  return {
    coverage: {
      ...cov.metrics,
      dataset: cutoffs.dataset,
      n_predictions: k,
      n_truth: truth.length,
    },
    comp_div: diversity(valid.map((f) => scaleCompositionFingerprint(f.comp!))),
    struct_div: diversity(valid.map((f) => f.struct!)),
  };
}

/**
 * The `gen eval` document from every prediction's row with `unique`, `duplicate_of`, `novel` and `reference_match`
 * decided: energies, S.U.N., fractions and Wasserstein distances.
 */
export function denovoSummary(input: DenovoInput, rows: DenovoSample[], options: Omit<DenovoOptions, 'onMatcherError'>): DenovoResult {
  const n = rows.length;
  if (input.energies) {
    for (const row of rows) {
      const e = input.energies.get(row.id) ?? null;
      row.e_above_hull = e;
      row.stable = e !== null && e <= options.stabilityThreshold;
      row.sun = row.novel === null ? null : row.stable && row.unique && row.novel;
    }
  }
  const count = (f: (r: DenovoSample) => boolean) => rows.filter(f).length;
  const valid = rows.filter((r) => r.valid);
  const truthStructures = input.truth?.map((t) => t.structure);
  return {
    command: 'eval',
    convention: options.convention,
    smact: options.smact,
    matcher: options.matcher,
    stability_threshold: options.stabilityThreshold,
    n,
    n_valid: valid.length,
    n_reference: input.reference ? input.reference.length : null,
    n_truth: input.truth ? input.truth.length : null,
    validity: {
      structural: count((r) => r.struct_valid) / n,
      compositional: count((r) => r.comp_valid) / n,
      overall: valid.length / n,
    },
    uniqueness: count((r) => r.unique) / n,
    novelty: input.reference ? count((r) => r.novel === true) / n : null,
    unique_novel: input.reference ? count((r) => r.unique && r.novel === true) / n : null,
    stable: input.energies ? count((r) => r.stable === true) / n : null,
    sun: input.energies && input.reference ? count((r) => r.sun === true) / n : null,
    wasserstein: {
      density: truthStructures
        ? wasserstein1(
            valid.map((r) => r.density),
            truthStructures.map(pymatgenDensity),
          )
        : null,
      n_elements: truthStructures
        ? wasserstein1(
            valid.map((r) => r.n_elements),
            truthStructures.map((s) => elementCounts(s).size),
          )
        : null,
    },
    ...(options.coverage ? coverageOf(input, rows, options.coverage) : {}),
    ...(options.spaceGroups
      ? {
          space_groups: {
            symprec: GEN_SYMPREC,
            angle_tolerance: PYMATGEN_ANGLE_TOLERANCE,
            predictions: spaceGroupDistribution(rows.map((r) => r.space_group ?? null)),
            reference: input.reference ? spaceGroupDistribution(input.reference.map((r) => genSpaceGroup(r.structure))) : null,
          },
        }
      : {}),
    per_sample: rows,
  };
}
