/**
 * Scoring a whole C2NP split: one row per structure (the compare page's batch table and `structlab c2np eval`
 * call the same functions) and the split's aggregates as the upstream evaluation computes them
 * (github.com/KurbanIntelligenceLab/C2NP train/task_{1,2}/*_train.py; see metrics.ts):
 *
 * forward (task 1): per-structure RMSD, Hausdorff, ΔHull, rdfE and vratio averaged over the split; structures
 *   with fewer than 2 atoms are skipped; ADiT, DiffCSP and MatterGen drop non-finite values (NaN rdfE when no pair
 *   lies within 10 Å) before averaging, CDVAE and FlowMM average everything (one NaN makes the mean NaN).
 *   Both are reported. An RMSD of unequal atom counts is undefined (upstream it cannot be computed) and is
 *   not averaged; a pair the metrics refuse (a resource limit) is counted as an error, never averaged.
 * inverse (task 2): lattice RMSE over all 6n parameters, space-group and joint accuracy (every parameter
 *   within 0.5, Å and degrees alike).
 *
 * The aggregates are built from `C2npSplitStats`, sufficient statistics that merge exactly: sums are kept
 * exact (ExactSum), so a split scored in shards and merged gives the unsharded report bit for bit. A mean is
 * the correctly rounded sum divided by the count; numpy's pairwise sum differs from it in the last bits only.
 */
import { ExactSum } from '../../math/fsum.ts';
import type { ForwardBatchRow, InverseBatchRow } from './batch.ts';
import { forwardMetrics, JOINT_TOLERANCE, type LatticeParameters } from './metrics.ts';

/** One row of the forward batch table (the metrics of `structlab metrics`, flattened; non-finite values as null). */
export interface ForwardRow {
  index: number;
  id: string;
  n_pred: number;
  n_truth: number;
  rmsd: number | null;
  hausdorff: number | null;
  delta_hull_volume: number | null;
  rdf_error: number | null;
  volume_ratio: number | null;
  aligned_rmsd: number | null;
  max_displacement: number | null;
  matched_fraction: number | null;
  error: string | null;
}

export interface InverseRow {
  id: string;
  pred: LatticeParameters;
  predSpacegroup: number;
  truth: LatticeParameters;
  trueSpacegroup: number;
  /** Σ over the six parameters of (pred − true)². */
  squaredError: number;
  /** Largest |pred − true| over the six parameters. */
  maxError: number;
  spacegroupCorrect: boolean;
  jointCorrect: boolean;
}

const finite = (x: number | null | undefined): number | null => (x === null || x === undefined || !Number.isFinite(x) ? null : x);

/**
 * Scores one forward pair as a table row; a pair the metrics refuse gives a row with `error` set (from
 * `errorText`, passed in so that each caller words errors its own way).
 */
export function forwardBatchRow(
  index: number,
  r: ForwardBatchRow,
  errorText: (e: unknown) => string,
  options: { aligned?: boolean } = {},
): ForwardRow {
  try {
    const m = forwardMetrics(r.pred, r.truth, { radius: r.radius, aligned: options.aligned });
    return {
      index,
      id: r.id,
      n_pred: m.n_pred,
      n_truth: m.n_truth,
      rmsd: m.rmsd,
      hausdorff: finite(m.hausdorff),
      delta_hull_volume: finite(m.delta_hull_volume),
      rdf_error: finite(m.rdf_error),
      volume_ratio: m.volume_ratio,
      aligned_rmsd: finite(m.aligned?.rmsd),
      max_displacement: finite(m.aligned?.max_displacement),
      matched_fraction: finite(m.aligned?.matched_fraction),
      error: null,
    };
  } catch (e) {
    return errorRow(index, r.id, r.pred.symbols.length, r.truth.symbols.length, errorText(e));
  }
}

/** The row of a pair that could not be scored (unreadable file, refused size). */
export function errorRow(index: number, id: string, nPred: number | null, nTruth: number | null, error: string): ForwardRow {
  return {
    index,
    id,
    n_pred: nPred ?? 0,
    n_truth: nTruth ?? 0,
    rmsd: null,
    hausdorff: null,
    delta_hull_volume: null,
    rdf_error: null,
    volume_ratio: null,
    aligned_rmsd: null,
    max_displacement: null,
    matched_fraction: null,
    error,
  };
}

export function inverseBatchRow(r: InverseBatchRow): InverseRow {
  let squaredError = 0,
    maxError = 0;
  for (let k = 0; k < 6; k++) {
    const e = r.predLattice[k] - r.trueLattice[k];
    squaredError += e * e;
    maxError = Math.max(maxError, Math.abs(e));
  }
  const spacegroupCorrect = r.predSpacegroup === r.trueSpacegroup;
  return {
    id: r.id,
    pred: r.predLattice,
    predSpacegroup: r.predSpacegroup,
    truth: r.trueLattice,
    trueSpacegroup: r.trueSpacegroup,
    squaredError,
    maxError,
    spacegroupCorrect,
    jointCorrect: spacegroupCorrect && maxError <= JOINT_TOLERANCE,
  };
}

/** The forward metrics the upstream scripts average over a split. */
export const FORWARD_AGGREGATED = ['rmsd', 'hausdorff', 'delta_hull_volume', 'rdf_error', 'volume_ratio'] as const;
type Aggregated = (typeof FORWARD_AGGREGATED)[number];

/** Sufficient statistics of one forward metric over the rows that have it. */
interface MetricStats {
  /** Exact sum of the finite values. */
  sum: ExactSum;
  finite: number;
  /** Values that are NaN or ±Infinity (rows hold them as null; upstream, rdfE of a particle without a pair < 10 Å). */
  nonFinite: number;
  /** Rows where the metric is undefined: RMSD of unequal atom counts, vratio without a radius. */
  undefined: number;
}

const newMetric = (): MetricStats => ({ sum: new ExactSum(), finite: 0, nonFinite: 0, undefined: 0 });

/** Why each row value is null: a row keeps non-finite values as null, so the row's own fields tell which. */
function nullKind(row: ForwardRow, key: Aggregated): 'nonFinite' | 'undefined' {
  if (key === 'rmsd') return row.n_pred === row.n_truth ? 'nonFinite' : 'undefined';
  if (key === 'volume_ratio') return 'undefined';
  return 'nonFinite';
}

export type C2npSplitKind = 'forward' | 'inverse';

/** The sufficient statistics of a split's aggregates: rows are added one by one (any order), splits merge exactly. */
export class C2npSplitStats {
  rows = 0;
  /** Forward rows that could not be scored (error set). */
  errors = 0;
  /** Forward rows with fewer than 2 atoms on either side (skipped upstream). */
  small = 0;
  readonly metrics = new Map<Aggregated, MetricStats>(FORWARD_AGGREGATED.map((k) => [k, newMetric()]));
  readonly squared = new ExactSum();
  spacegroupCorrect = 0;
  jointCorrect = 0;

  constructor(readonly kind: C2npSplitKind) {}

  addForward(row: ForwardRow): void {
    this.rows++;
    if (row.error !== null) {
      this.errors++;
      return;
    }
    if (row.n_pred < 2 || row.n_truth < 2) {
      this.small++;
      return;
    }
    for (const key of FORWARD_AGGREGATED) {
      const m = this.metrics.get(key)!;
      const v = row[key];
      if (v === null) m[nullKind(row, key)]++;
      else {
        m.sum.add(v);
        m.finite++;
      }
    }
  }

  addInverse(row: InverseRow): void {
    this.rows++;
    this.squared.add(row.squaredError);
    if (row.spacegroupCorrect) this.spacegroupCorrect++;
    if (row.jointCorrect) this.jointCorrect++;
  }

  merge(other: C2npSplitStats): void {
    if (other.kind !== this.kind) throw new TypeError(`cannot merge ${other.kind} statistics into ${this.kind} ones`);
    this.rows += other.rows;
    this.errors += other.errors;
    this.small += other.small;
    for (const key of FORWARD_AGGREGATED) {
      const a = this.metrics.get(key)!,
        b = other.metrics.get(key)!;
      a.sum.addAll(b.sum);
      a.finite += b.finite;
      a.nonFinite += b.nonFinite;
      a.undefined += b.undefined;
    }
    this.squared.addAll(other.squared);
    this.spacegroupCorrect += other.spacegroupCorrect;
    this.jointCorrect += other.jointCorrect;
  }

  /** The split's aggregates (the report's "aggregates"): null where no value was averaged. */
  aggregates(): Record<string, unknown> {
    if (this.kind === 'inverse') {
      const n = this.rows;
      return {
        lattice_rmse: n ? Math.sqrt(this.squared.value() / (6 * n)) : null,
        sg_accuracy: n ? this.spacegroupCorrect / n : null,
        joint_accuracy: n ? this.jointCorrect / n : null,
        count: n,
      };
    }
    const dropNonFinite: Record<string, number | null> = Object.create(null);
    const averageAll: Record<string, number | null> = Object.create(null);
    const counts: Record<string, { averaged: number; non_finite: number; undefined: number }> = Object.create(null);
    for (const key of FORWARD_AGGREGATED) {
      const m = this.metrics.get(key)!;
      const mean = m.finite ? m.sum.value() / m.finite : null;
      dropNonFinite[key] = mean;
      // Averaging everything: one NaN or infinity makes the mean non-finite, written as null.
      averageAll[key] = m.nonFinite ? null : mean;
      counts[key] = { averaged: m.finite, non_finite: m.nonFinite, undefined: m.undefined };
    }
    return {
      drop_non_finite: dropNonFinite,
      average_all: averageAll,
      counts,
      rows: this.rows,
      errors: this.errors,
      skipped_under_2_atoms: this.small,
    };
  }

  /** Plain JSON for a partial report (exact sums as their partials). */
  toJSON(): Record<string, unknown> {
    if (this.kind === 'inverse') {
      return {
        kind: this.kind,
        rows: this.rows,
        squared: this.squared.toJSON(),
        sg_correct: this.spacegroupCorrect,
        joint_correct: this.jointCorrect,
      };
    }
    const metrics: Record<string, unknown> = Object.create(null);
    for (const [key, m] of this.metrics)
      metrics[key] = { sum: m.sum.toJSON(), finite: m.finite, non_finite: m.nonFinite, undefined: m.undefined };
    return { kind: this.kind, rows: this.rows, errors: this.errors, small: this.small, metrics };
  }

  /** Reads what toJSON wrote (from a partial report: hostile input); throws TypeError naming `what`. */
  static fromJSON(value: unknown, what: string): C2npSplitStats {
    const v = value as Record<string, unknown> | null;
    const count = (x: unknown, name: string): number => {
      if (!Number.isSafeInteger(x) || (x as number) < 0) throw new TypeError(`${what}: "${name}" must be a count (a whole number ≥ 0)`);
      return x as number;
    };
    if (!v || typeof v !== 'object' || (v.kind !== 'forward' && v.kind !== 'inverse'))
      throw new TypeError(`${what}: "kind" must be "forward" or "inverse"`);
    const s = new C2npSplitStats(v.kind);
    s.rows = count(v.rows, 'rows');
    if (s.kind === 'inverse') {
      s.squared.addAll(ExactSum.fromJSON(v.squared, `${what}: "squared"`));
      s.spacegroupCorrect = count(v.sg_correct, 'sg_correct');
      s.jointCorrect = count(v.joint_correct, 'joint_correct');
      return s;
    }
    s.errors = count(v.errors, 'errors');
    s.small = count(v.small, 'small');
    const metrics = v.metrics as Record<string, unknown> | null;
    if (!metrics || typeof metrics !== 'object') throw new TypeError(`${what}: "metrics" must be an object`);
    for (const key of FORWARD_AGGREGATED) {
      if (!Object.hasOwn(metrics, key)) throw new TypeError(`${what}: "metrics" lacks "${key}"`);
      const m = metrics[key] as Record<string, unknown> | null;
      if (!m || typeof m !== 'object') throw new TypeError(`${what}: "metrics.${key}" must be an object`);
      const target = s.metrics.get(key)!;
      target.sum.addAll(ExactSum.fromJSON(m.sum, `${what}: "metrics.${key}.sum"`));
      target.finite = count(m.finite, `metrics.${key}.finite`);
      target.nonFinite = count(m.non_finite, `metrics.${key}.non_finite`);
      target.undefined = count(m.undefined, `metrics.${key}.undefined`);
    }
    return s;
  }
}

/** The inverse summary the compare page shows for a loaded batch (the same statistics as `c2np eval`). */
export function inverseBatchSummary(rows: readonly InverseRow[]): {
  lattice_rmse: number;
  sg_accuracy: number;
  joint_accuracy: number;
  count: number;
} {
  const s = new C2npSplitStats('inverse');
  for (const r of rows) s.addInverse(r);
  const a = s.aggregates() as { lattice_rmse: number | null; sg_accuracy: number | null; joint_accuracy: number | null; count: number };
  return {
    lattice_rmse: a.lattice_rmse ?? NaN,
    sg_accuracy: a.sg_accuracy ?? NaN,
    joint_accuracy: a.joint_accuracy ?? NaN,
    count: a.count,
  };
}
