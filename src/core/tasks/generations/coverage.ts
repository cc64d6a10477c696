/**
 * CDVAE's coverage and diversity metrics of generated crystals against a test set (txie-93/cdvae
 * scripts/eval_utils.py compute_cov, filter_fps, get_fp_pdist; scripts/compute_metrics.py GenEval, COV_Cutoffs),
 * from per-structure fingerprints computed elsewhere: the structure fingerprint (the mean over sites of matminer's
 * CrystalNNFingerprint "ops", 61 numbers) and the raw composition fingerprint (src/core/analysis/magpie, 132 numbers),
 * which is scaled here with CDVAE's CompScaler as compute_cov scales it. README.md here.
 *
 * Bit-level choices, so the numbers equal numpy/scipy's: a Euclidean distance is the sum of squared differences in
 * index order, then the square root (scipy 1.10 cdist/pdist 'euclidean'); the minimum of a row or column is NaN when
 * any distance in it is (np.min); means are numpy's: pairwise summation within blocks of 8192 values (numpy's buffer
 * size), the block sums added in order, over the count.
 */
import scaler from './cdvae-comp-scaler.json' with { type: 'json' };
import { pairwiseSum } from '../../math/statistics.ts';

/** A fingerprint vector; null stands for a structure whose fingerprint could not be computed (upstream None). */
type Fingerprint = ArrayLike<number>;

export interface CoverageCutoffs {
  /** Structure-fingerprint distance at or below which a pair is close. */
  struc: number;
  /** Scaled composition-fingerprint distance at or below which a pair is close. */
  comp: number;
}

/** CDVAE's COV_Cutoffs per dataset (txie-93/cdvae scripts/compute_metrics.py). */
export const COVERAGE_CUTOFFS = {
  mp20: { struc: 0.4, comp: 10 },
  carbon: { struc: 0.2, comp: 4 },
  perovskite: { struc: 0.2, comp: 4 },
} as const satisfies Record<string, CoverageCutoffs>;

export interface CoverageMetrics {
  /** Fraction of truths with a prediction within both cutoffs. */
  cov_recall: number;
  /** Predictions within both cutoffs of some truth, over all predictions (those without fingerprints included). */
  cov_precision: number;
  /** Mean over truths of the nearest prediction's structure distance. */
  amsd_recall: number;
  /** Mean over the fingerprinted predictions of the nearest truth's structure distance. */
  amsd_precision: number;
  amcd_recall: number;
  amcd_precision: number;
  struc_cutoff: number;
  comp_cutoff: number;
}

/** compute_cov's combined_dist_dict, plus which predictions those rows are. */
export interface CoverageDistances {
  /** Indices of the predictions with both fingerprints, in order: the rows of the `*_precision_dist` arrays. */
  kept: number[];
  /** Per truth: the distance to the nearest kept prediction. */
  struc_recall_dist: number[];
  comp_recall_dist: number[];
  /** Per kept prediction: the distance to the nearest truth. */
  struc_precision_dist: number[];
  comp_precision_dist: number[];
}

const MEANS: readonly number[] = scaler.means;
const STDS: readonly number[] = scaler.stds;

/** CDVAE's CompScaler.transform (cdvae/common/data_utils.py StandardScaler, replace_nan_token=0): (x − mean) / std, NaN → 0. */
export function scaleCompositionFingerprint(fp: Fingerprint): Float64Array {
  if (fp.length !== MEANS.length) {
    throw new Error(`A composition fingerprint has ${fp.length} numbers; CDVAE's scaler takes ${MEANS.length} (Magpie).`);
  }
  const out = new Float64Array(fp.length);
  for (let k = 0; k < fp.length; k++) {
    const t = (fp[k] - MEANS[k]) / STDS[k];
    out[k] = Number.isNaN(t) ? 0 : t;
  }
  return out;
}

/**
 * compute_cov(crys, gt_crys, struc_cutoff, comp_cutoff): predictions lacking either fingerprint are left out of the
 * distances but counted in cov_precision's denominator, as upstream counts num_gen_crystals before filtering.
 * Composition fingerprints are raw (unscaled). Throws an Error where upstream raises: arrays of different lengths,
 * vectors of different lengths, a truth without fingerprints, or no prediction or truth to compare.
 */
export function coverageMetrics(
  predStruct: readonly (Fingerprint | null)[],
  predComp: readonly (Fingerprint | null)[],
  truthStruct: readonly Fingerprint[],
  truthComp: readonly Fingerprint[],
  cutoffs: CoverageCutoffs,
): { metrics: CoverageMetrics; distances: CoverageDistances } {
  if (predStruct.length !== predComp.length) {
    throw new Error(`Coverage: ${predStruct.length} structure but ${predComp.length} composition fingerprints of predictions.`);
  }
  if (truthStruct.length !== truthComp.length) {
    throw new Error(`Coverage: ${truthStruct.length} structure but ${truthComp.length} composition fingerprints of truths.`);
  }
  const kept: number[] = [];
  predStruct.forEach((s, i) => {
    if (s != null && predComp[i] != null) kept.push(i);
  });
  if (kept.length === 0) throw new Error('Coverage: no prediction has both fingerprints, so there is nothing to compare.');
  if (truthStruct.length === 0) throw new Error('Coverage: there are no truth structures to compare with.');
  if (truthStruct.some((f) => f == null) || truthComp.some((f) => f == null)) {
    throw new Error('Coverage: every truth structure needs both fingerprints (CDVAE cannot leave a truth out).');
  }
  const predS = packRows(
      kept.map((i) => predStruct[i]!),
      'structure',
    ),
    truthS = packRows(truthStruct, 'structure', predS.dim);
  const predC = packRows(
      kept.map((i) => scaleCompositionFingerprint(predComp[i]!)),
      'composition',
    ),
    truthC = packRows(truthComp.map(scaleCompositionFingerprint), 'composition');
  const struc = nearestDistances(predS, truthS),
    comp = nearestDistances(predC, truthC);

  let recalled = 0,
    precise = 0;
  for (let j = 0; j < truthS.rows; j++) if (struc.colMin[j] <= cutoffs.struc && comp.colMin[j] <= cutoffs.comp) recalled++;
  for (let i = 0; i < predS.rows; i++) if (struc.rowMin[i] <= cutoffs.struc && comp.rowMin[i] <= cutoffs.comp) precise++;
  return {
    metrics: {
      cov_recall: recalled / truthS.rows,
      cov_precision: precise / predStruct.length,
      amsd_recall: numpyMean(struc.colMin),
      amsd_precision: numpyMean(struc.rowMin),
      amcd_recall: numpyMean(comp.colMin),
      amcd_precision: numpyMean(comp.rowMin),
      struc_cutoff: cutoffs.struc,
      comp_cutoff: cutoffs.comp,
    },
    distances: {
      kept,
      struc_recall_dist: Array.from(struc.colMin),
      comp_recall_dist: Array.from(comp.colMin),
      struc_precision_dist: Array.from(struc.rowMin),
      comp_precision_dist: Array.from(comp.rowMin),
    },
  };
}

/**
 * get_fp_pdist: the mean Euclidean distance over all pairs i < j (scipy's pdist, numpy's mean); NaN for fewer than
 * two fingerprints (the mean of nothing). CDVAE's comp_div passes scaleCompositionFingerprint's vectors, struct_div the
 * structure fingerprints, both of the valid predictions.
 */
export function meanPairwiseDistance(fps: readonly Fingerprint[]): number {
  const m = packRows(fps, 'pairwise');
  const { rows: n, dim: d, data } = m;
  // The distances stream through one numpy-sized block, so memory stays flat for any n.
  const block = new Float64Array(NUMPY_BUFFER);
  let filled = 0,
    total = 0;
  for (let i = 0; i < n; i++) {
    const a = i * d;
    for (let j = i + 1; j < n; j++) {
      const b = j * d;
      let s = 0;
      for (let k = 0; k < d; k++) {
        const t = data[a + k] - data[b + k];
        s += t * t;
      }
      block[filled++] = Math.sqrt(s);
      if (filled === NUMPY_BUFFER) {
        total += pairwiseSum(block, 0, filled);
        filled = 0;
      }
    }
  }
  if (filled > 0) total += pairwiseSum(block, 0, filled);
  return total / ((n * (n - 1)) / 2);
}

interface Rows {
  rows: number;
  dim: number;
  /** Row-major rows × dim. */
  data: Float64Array;
}

function packRows(fps: readonly Fingerprint[], what: string, dim = fps.length ? fps[0].length : 0): Rows {
  const data = new Float64Array(fps.length * dim);
  fps.forEach((fp, i) => {
    if (fp.length !== dim) throw new Error(`Coverage: ${what} fingerprints of different lengths (${fp.length} and ${dim}).`);
    data.set(fp, i * dim);
  });
  return { rows: fps.length, dim, data };
}

/** NaN-propagating minimum, as np.minimum reduces. */
const nanMin = (m: number, d: number): number => (d < m || Number.isNaN(d) ? d : m);

/**
 * The row and column minima of cdist(a, b) without the matrix: each distance is a sequential sum (scipy's order);
 * four columns run side by side so their independent sums overlap in the CPU.
 */
function nearestDistances(a: Rows, b: Rows): { rowMin: Float64Array; colMin: Float64Array } {
  const d = a.dim,
    A = a.data,
    B = b.data;
  const rowMin = new Float64Array(a.rows).fill(Infinity),
    colMin = new Float64Array(b.rows).fill(Infinity);
  for (let i = 0; i < a.rows; i++) {
    const p = i * d;
    let r = Infinity;
    let j = 0;
    for (; j + 4 <= b.rows; j += 4) {
      const q0 = j * d,
        q1 = q0 + d,
        q2 = q1 + d,
        q3 = q2 + d;
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0;
      for (let k = 0; k < d; k++) {
        const x = A[p + k];
        const t0 = x - B[q0 + k],
          t1 = x - B[q1 + k],
          t2 = x - B[q2 + k],
          t3 = x - B[q3 + k];
        s0 += t0 * t0;
        s1 += t1 * t1;
        s2 += t2 * t2;
        s3 += t3 * t3;
      }
      const d0 = Math.sqrt(s0),
        d1 = Math.sqrt(s1),
        d2 = Math.sqrt(s2),
        d3 = Math.sqrt(s3);
      r = nanMin(nanMin(nanMin(nanMin(r, d0), d1), d2), d3);
      colMin[j] = nanMin(colMin[j], d0);
      colMin[j + 1] = nanMin(colMin[j + 1], d1);
      colMin[j + 2] = nanMin(colMin[j + 2], d2);
      colMin[j + 3] = nanMin(colMin[j + 3], d3);
    }
    for (; j < b.rows; j++) {
      const q = j * d;
      let s = 0;
      for (let k = 0; k < d; k++) {
        const t = A[p + k] - B[q + k];
        s += t * t;
      }
      const dist = Math.sqrt(s);
      r = nanMin(r, dist);
      colMin[j] = nanMin(colMin[j], dist);
    }
    rowMin[i] = r;
  }
  return { rowMin, colMin };
}

/** numpy's ufunc buffer size: a float64 sum is reduced pairwise within blocks of this many values. */
const NUMPY_BUFFER = 8192;

/** np.mean of a float64 vector: numpy's pairwise sums of 8192-value blocks, added in order, over the count. */
function numpyMean(a: Float64Array): number {
  let total = 0;
  for (let start = 0; start < a.length; start += NUMPY_BUFFER) total += pairwiseSum(a, start, Math.min(NUMPY_BUFFER, a.length - start));
  return total / a.length;
}
