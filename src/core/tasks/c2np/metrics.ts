/**
 * C2NP evaluation metrics (forward and inverse task) with the upstream definitions (github.com/KurbanIntelligenceLab/C2NP), plus an
 * order- and rigid-motion-invariant comparison the upstream benchmark does not have.
 */
import { alignParticles, DEFAULT_MATCH_TOLERANCE, type AlignmentResult, type Particle } from '../../analysis/alignment.ts';
import { hausdorffDistance } from '../../analysis/hausdorff.ts';
import { convexHullVolume } from '../../analysis/hull.ts';
import { rdfError } from '../../analysis/rdf.ts';
import { checkLimit, LIMITS, LimitError, limitSentence } from '../../limits.ts';
import { pow } from '../../math/libm.ts';

export type { Particle } from '../../analysis/alignment.ts';

export interface ForwardMetrics {
  n_pred: number;
  n_truth: number;
  /** √(Σ‖p_i − g_i‖² / (3N)), rows paired by index, no alignment; null when the counts differ. */
  rmsd: number | null;
  hausdorff: number;
  hull_volume_pred: number;
  hull_volume_truth: number;
  delta_hull_volume: number;
  /** NaN (JSON null) when either particle has no pair within 10 Å. */
  rdf_error: number;
  /** Hull volume of the prediction over 4/3·π·R³; null without a radius. */
  volume_ratio: number | null;
  aligned: { rmsd: number; max_displacement: number; matched_fraction: number; tolerance: number } | null;
}

/** Index-paired C2NP RMSD (3N denominator, as every reported baseline's script); null if counts differ. */
export function c2npRmsd(pred: Float64Array, truth: Float64Array): number | null {
  if (pred.length !== truth.length || pred.length === 0) return null;
  return Math.sqrt(sumSquaredDifferences(pred, truth) / pred.length);
}

/** Σ (p_k − g_k)²: the loop alone, so that code compiled on the fly returns to a caller and is not dropped. */
function sumSquaredDifferences(pred: Float64Array, truth: Float64Array): number {
  let sum = 0;
  for (let k = 0; k < pred.length; k++) {
    const d = pred[k] - truth[k];
    sum += d * d;
  }
  return sum;
}

export const sphereVolume = (radius: number) => (4 / 3) * Math.PI * pow(radius, 3);

export interface ForwardOptions {
  /** Particle radius R in Å, for volume_ratio. */
  radius?: number;
  /** Skip the (costlier) aligned comparison. */
  aligned?: boolean;
  matchTolerance?: number;
  /** An alignment already computed for this pair (the compare view needs its pairs too). */
  alignment?: AlignmentResult;
}

/**
 * Refuses what the metrics cannot measure (LimitError, one sentence): more than LIMITS.particleAtoms atoms, a
 * coordinate that is not finite or lies beyond ±LIMITS.coordinateAbs Å (where float64 squared distances lose
 * the Å digits, and past ~1e154 overflow).
 */
export function checkParticle(p: Particle, what: string): void {
  checkLimit('particleAtoms', what, p.symbols.length, 'atoms');
  if (p.coords.length !== 3 * p.symbols.length)
    throw new RangeError(`${what} has ${p.symbols.length} symbols but ${p.coords.length / 3} positions`);
  const c = p.coords;
  for (let k = 0; k < c.length; k++) {
    const v = c[k];
    if (Math.abs(v) <= LIMITS.coordinateAbs) continue;
    const atom = `atom ${Math.floor(k / 3) + 1} of ${what}`;
    if (!Number.isFinite(v)) throw new LimitError('coordinateAbs', `${atom} has a non-finite coordinate (${v})`);
    throw new LimitError('coordinateAbs', limitSentence(`${atom}`, Math.abs(v), LIMITS.coordinateAbs, 'Å in one coordinate'));
  }
}

export function forwardMetrics(pred: Particle, truth: Particle, options: ForwardOptions = {}): ForwardMetrics {
  checkParticle(pred, 'the prediction');
  checkParticle(truth, 'the truth');
  const hullPred = convexHullVolume(pred.coords),
    hullTruth = convexHullVolume(truth.coords);
  // Before the alignment (neither throws on checked particles): the grid search is then first compiled for the
  // Hausdorff queries' fractional stop distances, and the alignment's −1 fits that code; the other way round it was
  // compiled for small integers and dropped to the interpreter at the first Hausdorff query.
  const hausdorff = hausdorffDistance(pred.coords, truth.coords);
  let aligned: ForwardMetrics['aligned'] = null;
  if (options.aligned !== false && pred.symbols.length > 0 && truth.symbols.length > 0) {
    const a = options.alignment ?? alignParticles(pred, truth, options.matchTolerance ?? DEFAULT_MATCH_TOLERANCE);
    aligned = { rmsd: a.rmsd, max_displacement: a.maxDisplacement, matched_fraction: a.matchedFraction, tolerance: a.tolerance };
  }
  return {
    n_pred: pred.symbols.length,
    n_truth: truth.symbols.length,
    rmsd: c2npRmsd(pred.coords, truth.coords),
    hausdorff,
    hull_volume_pred: hullPred,
    hull_volume_truth: hullTruth,
    delta_hull_volume: Math.abs(hullPred - hullTruth),
    rdf_error: rdfError(pred.coords, truth.coords),
    volume_ratio: options.radius !== undefined ? hullPred / sphereVolume(options.radius) : null,
    aligned,
  };
}

/** Split averages as the reported scripts do them: structures with < 2 atoms skipped, non-finite values dropped. */
export function averageForwardMetrics(
  results: ForwardMetrics[],
): Record<'rmsd' | 'hausdorff' | 'delta_hull_volume' | 'rdf_error' | 'volume_ratio', number | null> {
  const kept = results.filter((r) => r.n_pred >= 2 && r.n_truth >= 2);
  const mean = (pick: (r: ForwardMetrics) => number | null) => {
    const xs = kept.map(pick).filter((x): x is number => x !== null && Number.isFinite(x));
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  };
  return {
    rmsd: mean((r) => r.rmsd),
    hausdorff: mean((r) => r.hausdorff),
    delta_hull_volume: mean((r) => r.delta_hull_volume),
    rdf_error: mean((r) => r.rdf_error),
    volume_ratio: mean((r) => r.volume_ratio),
  };
}

/** Lattice as [a, b, c, α, β, γ] in Å and degrees. */
export type LatticeParameters = [number, number, number, number, number, number];

export interface InverseSample {
  predLattice: LatticeParameters;
  predSpacegroup: number;
  trueLattice: LatticeParameters;
  trueSpacegroup: number;
}

/** Every lattice parameter must be within this (Å or degrees alike) for joint accuracy. */
export const JOINT_TOLERANCE = 0.5;

export interface InverseMetrics {
  /** √(Σ_samples Σ_6 (pred − true)² / (6n)); Å and degrees mixed, as upstream. */
  lattice_rmse: number;
  sg_accuracy: number;
  joint_accuracy: number;
  count: number;
}

export function inverseMetrics(samples: InverseSample[]): InverseMetrics {
  if (samples.length === 0) return { lattice_rmse: NaN, sg_accuracy: NaN, joint_accuracy: NaN, count: 0 };
  let squared = 0,
    sgCorrect = 0,
    jointCorrect = 0;
  for (const s of samples) {
    let within = true;
    for (let k = 0; k < 6; k++) {
      const e = (s.predLattice[k] - s.trueLattice[k]) ** 2;
      squared += e;
      if (e > JOINT_TOLERANCE * JOINT_TOLERANCE) within = false;
    }
    const sg = s.predSpacegroup === s.trueSpacegroup;
    if (sg) sgCorrect++;
    if (sg && within) jointCorrect++;
  }
  const n = samples.length;
  return { lattice_rmse: Math.sqrt(squared / (6 * n)), sg_accuracy: sgCorrect / n, joint_accuracy: jointCorrect / n, count: n };
}
