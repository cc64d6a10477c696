/**
 * Minimum-cost assignment of every row to a distinct column (rows ≤ columns) for callers outside the matcher's
 * hot loop (the AtomWorld overlay): pymatgen's LinearAssignment (linear-assignment.ts), so that ties are broken
 * as the matcher breaks them. It tolerates pymatgen's 1e20 sentinel for forbidden pairs.
 */
import { createLinearAssignmentWorkspace, linearAssignment } from './linear-assignment.ts';

/** result[row] = column. */
export function minimumCostAssignment(costRows: Float64Array[]): Int32Array {
  const out = new Int32Array(costRows.length).fill(-1);
  if (costRows.length === 0) return out;
  linearAssignment(costRows, createLinearAssignmentWorkspace(costRows[0].length), out);
  return out;
}
