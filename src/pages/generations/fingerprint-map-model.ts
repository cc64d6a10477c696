/**
 * The fingerprint map's geometry (FingerprintMap.tsx draws it): which points there are and in which group, where
 * they fall in a canvas of a given size, and which one the pointer is on. Pure, so it is tested without a browser.
 */
import type { DenovoSample, FingerprintPlane } from '../../../workers/generations-api.ts';

/** test: a truth of the test set; covered: a prediction within both cutoffs of some truth (compute_cov's precision). */
export type MapGroup = 'test' | 'covered' | 'uncovered';

export interface MapPoint {
  group: MapGroup;
  /** The per_sample row of a prediction, the index in the test set of a truth. */
  index: number;
  x: number;
  y: number;
}

/** Whether a prediction counts towards COV-P: both nearest-truth distances within their cutoffs (NaN never does). */
export const isCovered = (row: Pick<DenovoSample, 'struc_precision_dist' | 'comp_precision_dist'>, struc: number, comp: number) =>
  row.struc_precision_dist != null &&
  row.comp_precision_dist != null &&
  row.struc_precision_dist <= struc &&
  row.comp_precision_dist <= comp;

/** The drawable points: the truths first, so that predictions are drawn over them; those without fingerprints left out. */
export function mapPoints(plane: FingerprintPlane, rows: readonly DenovoSample[], cutoffs: { struc: number; comp: number }): MapPoint[] {
  const out: MapPoint[] = [];
  plane.truth.forEach((p, index) => {
    if (p) out.push({ group: 'test', index, x: p[0], y: p[1] });
  });
  plane.predictions.forEach((p, index) => {
    if (!p) return;
    const group = isCovered(rows[index], cutoffs.struc, cutoffs.comp) ? 'covered' : 'uncovered';
    out.push({ group, index, x: p[0], y: p[1] });
  });
  return out;
}

/** CSS pixels kept free around the points, so that a marker at the edge is drawn whole. */
export const MAP_PAD = 10;

/**
 * Each point's place in a `width` × `height` CSS-pixel canvas (x then y per point; y grows downwards): each axis
 * scaled to fill the canvas inside MAP_PAD, as principal components are of very different spreads. A zero spread
 * (one point, or all on a line) puts that axis in the middle.
 */
export function layoutPoints(points: readonly MapPoint[], width: number, height: number): Float32Array {
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity;
  for (const p of points) {
    x0 = Math.min(x0, p.x);
    x1 = Math.max(x1, p.x);
    y0 = Math.min(y0, p.y);
    y1 = Math.max(y1, p.y);
  }
  const w = Math.max(0, width - 2 * MAP_PAD),
    h = Math.max(0, height - 2 * MAP_PAD);
  const at = (v: number, lo: number, hi: number, span: number) => (hi > lo ? ((v - lo) / (hi - lo)) * span : span / 2);
  const out = new Float32Array(2 * points.length);
  points.forEach((p, k) => {
    out[2 * k] = MAP_PAD + at(p.x, x0, x1, w);
    out[2 * k + 1] = MAP_PAD + h - at(p.y, y0, y1, h);
  });
  return out;
}

/**
 * The point nearest (`x`, `y`) within `radius` CSS pixels among those `accept` takes, or −1. Later points win ties, as
 * they are drawn on top.
 */
export function hitTest(
  points: readonly MapPoint[],
  at: Float32Array,
  x: number,
  y: number,
  radius: number,
  accept: (p: MapPoint) => boolean = () => true,
): number {
  let best = -1,
    bestD = radius * radius;
  for (let k = 0; k < points.length; k++) {
    const dx = at[2 * k] - x,
      dy = at[2 * k + 1] - y;
    const d = dx * dx + dy * dy;
    if (d <= bestD && accept(points[k])) [best, bestD] = [k, d];
  }
  return best;
}

/** "PC1 (42.1 % of variance)". */
export const axisCaption = (axis: 1 | 2, share: number): string => `PC${axis} (${(100 * share).toFixed(1)} % of variance)`;
