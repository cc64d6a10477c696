/**
 * Sizes read from FEM-Bench inputs (counts, node numbers, array lengths), checked as the numpy reference
 * would fail on them and against the resource policy (LIMITS.femDofs / femElements) before anything is
 * allocated. The reference functions are elejeune11/FEM-bench tasks/<task_id>.py.
 */
import { checkLimit, LimitError, limitSentence, LIMITS, type LimitName, groupedNumber } from '../../limits.ts';
import { FemTaskError, type FemValue } from './types.ts';
import { cbrt, pow } from '../../math/libm.ts';

/** Python's type name of a decoded JSON value, for the reference's own TypeError wording. */
export function pyTypeName(v: FemValue | undefined): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  return 'dict';
}

/** The value as a Python int where one is needed (range(n), np.zeros(n), np.linspace(num=n)); bools are ints. */
export function pyIndex(v: FemValue | undefined): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  throw new FemTaskError('TypeError', `'${pyTypeName(v)}' object cannot be interpreted as an integer`);
}

/** A number for Python arithmetic or comparison with an int (`n + 1`, `n < 1`): numbers and bools only. */
export function pyNumber(v: FemValue | undefined, operation: string): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  throw new FemTaskError('TypeError', `unsupported operand type(s) for ${operation}: '${pyTypeName(v)}' and 'int'`);
}

/** np.zeros(n) / np.empty(n) on a negative n. */
export function negativeDimensions(n: number): void {
  if (n < 0) throw new FemTaskError('ValueError', 'negative dimensions are not allowed');
}

/** The resource policy on a size read from the inputs (throws LimitError; the runner reports it as "ResourceLimit"). */
export function checkFemSize(
  limit: Extract<LimitName, 'femDofs' | 'femElements'>,
  what: string,
  actual: number,
  unit: string,
  weight = 1,
): void {
  checkLimit(limit, what, actual, unit);
  spendWork(weight * (limit === 'femDofs' ? pow(Math.max(actual, 0) / LIMITS.femDofs, 3) : Math.max(actual, 0) / LIMITS.femElements));
}

/** Refuses a frame of `nodes` nodes whose dense 6n × 6n matrices the policy does not allow. */
export function checkFrameNodes(nodes: number, what = 'the frame'): void {
  checkFemSize('femDofs', `${what} (${groupedNumber(nodes)} nodes × 6)`, 6 * nodes, 'degrees of freedom');
}

/**
 * Refuses a banded solve of `n` rows and half-bandwidth `w` (the fast path of the frame tasks) whose work n·w² is more
 * than that of the largest accepted dense problem (femDofs³), as the lab's frame check does (lab/frame-model.ts).
 */
export function checkBandedWork(n: number, w: number): void {
  const equivalent = Math.ceil(cbrt(n * (w + 1) * (w + 1)));
  checkFemSize(
    'femDofs',
    `the frame's banded solve (${n} free DOFs, half-bandwidth ${w})`,
    equivalent,
    'degrees of freedom of a dense problem of equal work',
  );
}

/** Refuses a dense matrix input of `n` rows before it is copied. */
export function checkDenseRows(n: number, name: string, weight = 1): void {
  checkFemSize('femDofs', name, n, 'rows (degrees of freedom)', weight);
}

/**
 * The work budget of a run of many cases (LIMITS.femRunWork): each size check spends its share of the
 * largest accepted case (dense: (dofs / femDofs)³, linear: n / femElements), each case at least one
 * element's worth, so that a file of many accepted cases cannot add up to minutes. Inactive (null)
 * outside `withWorkBudget`, e.g. when a page solves one model.
 */
let budget: { left: number } | null = null;

export function spendWork(units: number): void {
  if (budget === null) return;
  budget.left -= units;
  if (budget.left < 0) {
    throw new LimitError(
      'femRunWork',
      limitSentence(
        'the cases of this run together',
        null,
        LIMITS.femRunWork,
        'units of work (one unit: the largest accepted case; split the cases file)',
        'femRunWork',
      ),
    );
  }
}

export function withWorkBudget<T>(fn: () => T, units: number = LIMITS.femRunWork): T {
  const outer = budget;
  budget = { left: units };
  try {
    return fn();
  } finally {
    budget = outer;
  }
}
