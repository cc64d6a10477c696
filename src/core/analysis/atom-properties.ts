/**
 * Per-atom properties of a structure as colours and ranges: a scalar column as it is, a vector column (forces,
 * velocities, magnetic moments) by its length. Categorical columns (few distinct whole numbers, e.g. selective-
 * dynamics flags) keep their values, so a legend can name them.
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
