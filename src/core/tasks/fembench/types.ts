/**
 * The shape every FEM-Bench reference task shares. Inputs and outputs use the golden files' JSON
 * encoding: arrays as nested lists (row-major), tuples as lists, int-keyed dicts
 * with string keys, callables as {__callable__: 'polynomial', coefficients}.
 */
export type FemValue = number | boolean | string | null | FemValue[] | { [key: string]: FemValue };

export interface FemTask {
  /** Full task id, e.g. "MSA_3D_solve_linear_CC0_H1_T1". */
  id: string;
  /** Python-style signature shown to users, e.g. "(E, nu, A, L, Iy, Iz, J) -> ndarray (12, 12)". */
  signature: string;
  /** One-line description. */
  description: string;
  /** Runs the reference on decoded golden inputs (keyed by parameter name); throws FemTaskError as the reference raises. */
  run(inputs: Record<string, FemValue>): FemValue;
  /**
   * Optional: true when `candidate` (a JSON-encoded output) is another valid answer that the reference
   * cannot single out, e.g. a buckling mode inside a repeated eigenvalue's eigenspace (equivalence.ts).
   * The comparator accepts such a candidate when the strict match fails.
   */
  sameSolution?(inputs: Record<string, FemValue>, reference: FemValue, candidate: unknown): boolean;
}

/** An exception the reference raises; `type` is the Python exception class name (e.g. "ValueError"). */
export class FemTaskError extends Error {
  readonly type: string;
  constructor(type: string, message: string) {
    super(message);
    this.name = 'FemTaskError';
    this.type = type;
  }
}
