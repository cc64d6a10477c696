/**
 * What the passes over one prepared pair (src/core/match/structure-matcher.ts) reuse: the scratch arrays
 * of `_strict_match`, sized once for its orientation, and the account of the work spent.
 */
import { LIMITS, LimitError, limitSentence } from '../limits.ts';
import type { LllSites, ShortestVectorScratch } from './shortest-vectors.ts';
import { type LinearAssignmentWorkspace, createLinearAssignmentWorkspace } from './linear-assignment.ts';

/**
 * Scratch of `_strict_match` for n1 struct1 columns and n2 struct2 rows, reused for every candidate
 * lattice and translation; nothing a pass returns points into it.
 */
export interface MatcherWorkspace extends ShortestVectorScratch {
  /** `_get_supercells`' s1fc and s2fc: both sides' fractional coordinates in the candidate lattice. */
  frac1: Float64Array;
  frac2: Float64Array;
  /** t: the trial translation (fractions); t_s2fc: struct2's fractions moved by it. */
  shift: Float64Array;
  translated2: Float64Array;
  /** `_cart_dists`' mean vector of the assigned pairs (Å) and the normalised distances once it is removed. */
  mean: Float64Array;
  dist: Float64Array;
  /** `LinearAssignment(d_2)`'s scratch and its solution (mapping[row] = column). */
  assignment: LinearAssignmentWorkspace;
  mapping: Int32Array;
}

const lllSites = (n: number): LllSites => ({
  frac: new Float64Array(3 * n),
  wrapped: new Float64Array(3 * n),
  cart: new Float64Array(3 * n),
});

export function createWorkspace(n1: number, n2: number): MatcherWorkspace {
  // Every pair starts outside the box; the search sets back only what it changed. The rows are views of one
  // array, which the assignment reads in place when the problem is square.
  const d2Matrix = new Float64Array(n2 * n1).fill(1e20);
  return {
    n1,
    n2,
    frac1: new Float64Array(3 * n1),
    frac2: new Float64Array(3 * n2),
    shift: new Float64Array(3),
    translated2: new Float64Array(3 * n2),
    mean: new Float64Array(3),
    dist: new Float64Array(n2),
    assignment: createLinearAssignmentWorkspace(n1),
    mapping: new Int32Array(n2),
    lll1: lllSites(n1),
    lll2: lllSites(n2),
    d2Matrix,
    d2: Array.from({ length: n2 }, (_, i) => d2Matrix.subarray(i * n1, (i + 1) * n1)),
    vecs: new Float64Array(3 * n2 * n1),
    inBox: new Uint8Array(n2 * n1),
    boxColumns: new Int32Array(n2 * n1),
    boxCount: new Int32Array(n2),
    classes: { count: 0, of: new Int32Array(0), allowedStart: new Int32Array(0), allowed: new Int32Array(0) },
  };
}

/** Site-pair evaluations (prefilter comparisons, shortest vectors, assignment rows) spent on one pair, held to LIMITS.matchWork. */
export interface WorkAccount {
  spent: number;
}

/**
 * Adds `units` site-pair evaluations to the pair's account; past LIMITS.matchWork the match is refused.
 * The count, not the clock, decides, so a verdict never depends on the machine's load. Large cells of high
 * symmetry are what reach it: get_rms_dist tries every lattice mapping × every translation (48 × 256 for a
 * cubic 256-site cell: 1.6e9 evaluations, 18 s), as pymatgen does.
 */
export function spendMatchWork(account: WorkAccount, units: number): void {
  account.spent += units;
  if (account.spent > LIMITS.matchWork) {
    throw new LimitError(
      'matchWork',
      limitSentence(
        'matching these structures (every lattice mapping × translation of a large, highly symmetric cell)',
        null,
        LIMITS.matchWork,
        'site-pair evaluations',
        'matchWork',
      ),
    );
  }
}
