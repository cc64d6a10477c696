/**
 * Everything the compare view shows for one (prediction, truth) pair: the C2NP metrics plus the per-atom
 * data behind them — displacement of every predicted atom (index-paired as the benchmark pairs them, or after
 * the order- and rigid-motion-invariant alignment), which atoms are missing or extra, and the pair of atoms
 * that sets the Hausdorff distance.
 */
import { alignParticles, applyTransform, DEFAULT_MATCH_TOLERANCE, type Particle } from '../../analysis/alignment.ts';
import { hausdorffWorstPair, type HausdorffPair } from '../../analysis/hausdorff.ts';
import { gaussian, mulberry32 } from '../../math/random.ts';
import { LimitError } from '../../limits.ts';
import { checkParticle, forwardMetrics, type ForwardMetrics } from './metrics.ts';

export interface ParticleComparison {
  metrics: ForwardMetrics;
  /** |p_i − g_i| per predicted atom (rows paired by index); null when the counts differ. */
  pairedDisplacement: Float64Array | null;
  /** The prediction moved onto the truth by the alignment's rigid transform (xyz triples). */
  alignedCoords: Float64Array;
  /** Distance to the matched truth atom after alignment, per predicted atom; NaN for an unpaired atom. */
  alignedDisplacement: Float64Array;
  /** Matched truth atom of each predicted atom (-1: none) and the reverse. */
  predPartner: Int32Array;
  truthPartner: Int32Array;
  /** Truth atoms with no predicted atom within the match tolerance after alignment. */
  missing: Uint32Array;
  /** Predicted atoms with no truth atom within the match tolerance after alignment. */
  extra: Uint32Array;
  /** a = predicted atom, b = truth atom; in the files' own frame, as the benchmark measures it. */
  hausdorffPair: HausdorffPair | null;
  matchTolerance: number;
}

export interface CompareOptions {
  radius?: number;
  matchTolerance?: number;
}

/** Largest particle the compare view accepts (the resource policy's LIMITS.particleAtoms). */

/** A particle the comparison cannot take (too many atoms, none, or absurd coordinates). */
export class CompareSizeError extends LimitError {}

export function compareParticles(pred: Particle, truth: Particle, options: CompareOptions = {}): ParticleComparison {
  for (const [what, p] of [
    ['the prediction', pred],
    ['the truth', truth],
  ] as const) {
    if (p.symbols.length === 0) throw new CompareSizeError('particleAtoms', `${what[0].toUpperCase()}${what.slice(1)} holds no atoms.`);
    try {
      checkParticle(p, what);
    } catch (e) {
      if (e instanceof LimitError) throw new CompareSizeError(e.limit, e.message);
      throw e;
    }
  }
  const tolerance = options.matchTolerance ?? DEFAULT_MATCH_TOLERANCE;
  const np = pred.symbols.length,
    nt = truth.symbols.length;
  const alignment = alignParticles(pred, truth, tolerance);
  const metrics = forwardMetrics(pred, truth, { radius: options.radius, matchTolerance: tolerance, alignment });
  let pairedDisplacement: Float64Array | null = null;
  if (np === nt) {
    pairedDisplacement = new Float64Array(np);
    for (let i = 0; i < np; i++) pairedDisplacement[i] = distance(pred.coords, i, truth.coords, i);
  }
  const alignedCoords = applyTransform(pred.coords, alignment.transform);
  const alignedDisplacement = new Float64Array(np).fill(NaN);
  const predPartner = new Int32Array(np).fill(-1),
    truthPartner = new Int32Array(nt).fill(-1);
  for (const [i, j] of alignment.pairs) {
    predPartner[i] = j;
    truthPartner[j] = i;
    alignedDisplacement[i] = distance(alignedCoords, i, truth.coords, j);
  }
  const missing: number[] = [],
    extra: number[] = [];
  for (let j = 0; j < nt; j++) {
    const i = truthPartner[j];
    if (i < 0 || !(alignedDisplacement[i] <= tolerance)) missing.push(j);
  }
  for (let i = 0; i < np; i++) if (!(alignedDisplacement[i] <= tolerance)) extra.push(i);
  return {
    metrics,
    pairedDisplacement,
    alignedCoords,
    alignedDisplacement,
    predPartner,
    truthPartner,
    missing: Uint32Array.from(missing),
    extra: Uint32Array.from(extra),
    hausdorffPair: hausdorffWorstPair(pred.coords, truth.coords),
    matchTolerance: tolerance,
  };
}

function distance(a: Float64Array, i: number, b: Float64Array, j: number): number {
  return Math.hypot(a[3 * i] - b[3 * j], a[3 * i + 1] - b[3 * j + 1], a[3 * i + 2] - b[3 * j + 2]);
}

export interface Damage {
  /** Gaussian noise σ on every coordinate, Å. */
  noise: number;
  /** How many atoms to delete (chosen at random). */
  remove: number;
  /** How many stray atoms to add just outside the particle (species drawn from the particle). */
  strays: number;
  seed: number;
}

/**
 * A prediction with known faults, for the compare view's demo: noise, deleted atoms, strays. The kept atoms
 * stay in the truth's order, so index-paired metrics are meaningful when nothing is deleted or added.
 */
export function damagedCopy(truth: Particle, damage: Damage): Particle {
  const uniform = mulberry32(damage.seed);
  const normal = gaussian(uniform);
  const n = truth.symbols.length;
  const removed = new Set<number>();
  while (removed.size < Math.min(damage.remove, n - 1)) removed.add(Math.floor(uniform() * n));
  const symbols: string[] = [],
    coords: number[] = [];
  const centre = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) centre[k] += truth.coords[3 * i + k] / n;
  let radius = 0;
  for (let i = 0; i < n; i++) {
    radius = Math.max(
      radius,
      Math.hypot(truth.coords[3 * i] - centre[0], truth.coords[3 * i + 1] - centre[1], truth.coords[3 * i + 2] - centre[2]),
    );
    if (removed.has(i)) continue;
    symbols.push(truth.symbols[i]);
    for (let k = 0; k < 3; k++) coords.push(truth.coords[3 * i + k] + damage.noise * normal());
  }
  for (let s = 0; s < damage.strays; s++) {
    const dir = [normal(), normal(), normal()];
    const len = Math.hypot(dir[0], dir[1], dir[2]) || 1;
    symbols.push(truth.symbols[Math.floor(uniform() * n)]);
    for (let k = 0; k < 3; k++) coords.push(centre[k] + (dir[k] / len) * (radius + 2.5));
  }
  return { symbols, coords: new Float64Array(coords) };
}
