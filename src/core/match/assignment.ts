/**
 * pymatgen's `LinearAssignment` (pymatgen/optimization/linear_assignment.pyx): Jonker–Volgenant LAPJV with pymatgen's
 * epsilon, column order and augmentations, ported step for step to a WebAssembly kernel (kernels/assignment.ts) so
 * that, among assignments of equal cost, the one pymatgen returns is the one returned here (the matcher's max_dist and
 * mapping depend on it). The matcher calls the kernel on its own workspace (strict-match.ts); this is the entry for
 * everything else (the AtomWorld overlay).
 */
import { kernelArena, kernels } from '../math/kernels.ts';

/**
 * Where a square cost matrix may differ from one value `far`: row i's other entries lie among the columns
 * `columns[i·n .. i·n + count[i])`, each listed once (the matcher's squared distances: 1e20 outside the box, a few
 * entries per row of a large cell inside it). The kernel then reads only those where that gives the same numbers.
 */
export interface FarEntries {
  columns: Int32Array;
  count: Int32Array;
  far: number;
}

export interface AssignmentSolution {
  /** rowToColumn[row] = column. */
  rowToColumn: Int32Array;
  /** `min_cost`. */
  cost: number;
  /** The column duals LAPJV ends with (v). */
  duals: Float64Array;
}

/** `LinearAssignment(costs)` of a square row-major n × n matrix, optionally with its far entries described. */
export function linearAssignmentSquare(costs: Float64Array, n: number, sparse?: FarEntries): AssignmentSolution {
  if (costs.length !== n * n) throw new Error('the cost matrix must be n × n');
  const k = kernels();
  const arena = kernelArena();
  const c = arena.put(costs);
  const columns = sparse ? arena.put(sparse.columns) : 0,
    count = sparse ? arena.put(sparse.count) : 0;
  const ws = arena.zerosF64(k.assignmentScratchBytes(n) / 8);
  const cost = k.assign(n, c, ws, columns, count, sparse?.far ?? 0);
  return { rowToColumn: arena.readI32(k.assignmentSolution(ws, n), n), cost, duals: arena.readF64(ws, n) };
}

/**
 * Minimum-cost assignment of every row to a distinct column (rows ≤ columns; result[row] = column), padded with zero
 * rows as pymatgen pads a rectangular problem. It tolerates pymatgen's 1e20 sentinel for forbidden pairs.
 */
export function minimumCostAssignment(costRows: Float64Array[]): Int32Array {
  const rows = costRows.length;
  if (rows === 0) return new Int32Array(0);
  const n = costRows[0].length;
  if (rows > n) throw new Error('cost matrix must have at least as many columns as rows');
  const square = new Float64Array(n * n);
  costRows.forEach((row, i) => {
    if (row.length !== n) throw new Error('cost rows must all have the same length');
    square.set(row, i * n);
  });
  return linearAssignmentSquare(square, n).rowToColumn.slice(0, rows);
}
