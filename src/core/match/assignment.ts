/**
 * Minimum-cost assignment of every row to a distinct column (rows ≤ columns), the role of pymatgen's
 * LinearAssignment. munkres (Hungarian with duals) on typed rows, as algorithms.md §3.3 measured;
 * it tolerates pymatgen's 1e20 sentinel for forbidden pairs.
 */
import { munkres } from 'munkres';

/** result[row] = column. Optimal total cost; ties may be broken differently from pymatgen's LAPJV. */
export function minimumCostAssignment(costRows: Float64Array[]): Int32Array {
  const out = new Int32Array(costRows.length).fill(-1);
  if (costRows.length === 0) return out;
  for (const [r, c] of munkres(costRows)) out[r] = c;
  return out;
}
