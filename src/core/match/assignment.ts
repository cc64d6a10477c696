/**
 * Minimum-cost assignment of every row to a distinct column (rows ≤ columns), the role of pymatgen's
 * LinearAssignment. munkres (Hungarian with duals) on typed rows (measured faster here than a port of pymatgen's LAPJV);
 * it tolerates pymatgen's 1e20 sentinel for forbidden pairs.
 */
import { munkres } from 'munkres';

/** result[row] = column. Optimal total cost; ties may be broken differently from pymatgen's LAPJV. */
export function minimumCostAssignment(costRows: Float64Array[]): Int32Array {
  const out = new Int32Array(costRows.length).fill(-1);
  if (costRows.length === 0) return out;
  if (uniqueRowMinima(costRows, out)) return out;
  for (const [r, c] of munkres(costRows)) out[r] = c;
  return out;
}

/**
 * When every row has a strictly smallest entry and those entries lie in distinct columns, that
 * choice is the unique optimum (any other assignment pays more in some row and no less in the
 * others), so munkres would return it too. Fills `out` and returns true in that case.
 */
function uniqueRowMinima(costRows: Float64Array[], out: Int32Array): boolean {
  const columns = costRows[0].length;
  const taken = new Uint8Array(columns);
  for (let i = 0; i < costRows.length; i++) {
    const row = costRows[i];
    let best = Infinity,
      second = Infinity,
      at = -1;
    for (let j = 0; j < columns; j++) {
      const x = row[j];
      if (x < best) {
        second = best;
        best = x;
        at = j;
      } else if (x < second) second = x;
    }
    if (!(best < second) || taken[at]) return false;
    taken[at] = 1;
    out[i] = at;
  }
  return true;
}
