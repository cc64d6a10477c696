/**
 * Per-atom properties of a structure as colours, sizes and ranges: a scalar column as it is, a vector column (forces,
 * velocities, magnetic moments) by its length. Categorical columns (few distinct whole numbers per site, e.g. selective-
 * dynamics flags, tags, fixed masks; booleans are packed as 0/1) keep their values, so a legend can name them.
 */
import type { PackedProperty } from '../structure/packed.ts';

/** One number per site: the value of a scalar column, the Euclidean length of a vector column. */
export function propertyScalars(p: PackedProperty): Float64Array {
  const n = p.values.length / p.width;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (p.width === 1) out[i] = p.values[i];
    else {
      let s = 0;
      for (let k = 0; k < p.width; k++) s += p.values[p.width * i + k] * p.values[p.width * i + k];
      out[i] = Math.sqrt(s);
    }
  }
  return out;
}

/** Smallest and largest value (both 0 for no values). */
export function valueRange(values: ArrayLike<number>): [number, number] {
  if (values.length === 0) return [0, 0];
  let lo = Infinity,
    hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    if (values[i] < lo) lo = values[i];
    if (values[i] > hi) hi = values[i];
  }
  return [lo, hi];
}

/** How a column is shown: its name, and "|name|" for a vector column coloured by its length. */
export const propertyLabel = (p: Pick<PackedProperty, 'name' | 'width'>): string => (p.width === 1 ? p.name : `|${p.name}|`);

/** Most distinct values (per-site tuples) a whole-number column may have to be shown as categories with a legend. */
export const CATEGORIES_MAX = 12;

/** A categorical column: its distinct per-site values (ascending), how many sites hold each, and each site's category. */
export interface PropertyCategories {
  /** Each category's value as written in the legend: the number, or the tuple's numbers separated by spaces. */
  labels: string[];
  counts: number[];
  /** Per site, the index of its category in `labels`. */
  siteCategory: Uint8Array;
}

/**
 * The categories of a column whose values are all whole numbers and whose sites hold at most CATEGORIES_MAX distinct
 * values (a vector column: distinct tuples, e.g. selective dynamics "1 1 0"); null for any other column (a ramp).
 */
export function propertyCategories(p: PackedProperty): PropertyCategories | null {
  const n = p.values.length / p.width;
  if (n === 0) return null;
  for (let i = 0; i < p.values.length; i++) if (!Number.isInteger(p.values[i])) return null;
  // Keys in a Map (file values never reach an object's prototype); at most CATEGORIES_MAX + 1 are ever held.
  const index = new Map<string, number>();
  const tuples: number[][] = [];
  const raw = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const tuple = Array.from(p.values.subarray(p.width * i, p.width * (i + 1)));
    const key = tuple.join(' ');
    let k = index.get(key);
    if (k === undefined) {
      if (tuples.length === CATEGORIES_MAX) return null;
      k = tuples.length;
      index.set(key, k);
      tuples.push(tuple);
    }
    raw[i] = k;
  }
  // Ascending by value (tuples element by element), so the legend reads in order whatever the sites' order.
  const order = tuples
    .map((_, k) => k)
    .sort((a, b) => {
      for (let c = 0; c < p.width; c++) if (tuples[a][c] !== tuples[b][c]) return tuples[a][c] - tuples[b][c];
      return 0;
    });
  const rank = new Uint8Array(tuples.length);
  order.forEach((k, r) => (rank[k] = r));
  const counts = new Array<number>(tuples.length).fill(0);
  const siteCategory = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    siteCategory[i] = rank[raw[i]];
    counts[siteCategory[i]]++;
  }
  return { labels: order.map((k) => tuples[k].join(' ')), counts, siteCategory };
}

/** Smallest and largest radius factor of "size by": the range's low end draws at 0.4×, its high end at 1.6×. */
export const SIZE_FACTOR_RANGE: readonly [number, number] = [0.4, 1.6];

/**
 * Per drawn atom, the radius factor of its site's value mapped linearly from [lo, hi] onto SIZE_FACTOR_RANGE (values
 * outside clamp to the ends; a constant or an empty range gives 1×); null when a drawn atom's site has no value.
 */
export function radiusFactorsBySite(
  site: ArrayLike<number>,
  values: ArrayLike<number>,
  [lo, hi]: readonly [number, number],
): Float32Array | null {
  const [f0, f1] = SIZE_FACTOR_RANGE;
  const out = new Float32Array(site.length);
  for (let i = 0; i < site.length; i++) {
    const v = values[site[i]];
    if (v === undefined) return null;
    const t = hi > lo ? Math.max(0, Math.min(1, (v - lo) / (hi - lo))) : 0.5;
    out[i] = f0 + (f1 - f0) * (Number.isFinite(t) ? t : 0.5);
  }
  return out;
}
