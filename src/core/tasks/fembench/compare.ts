/**
 * The benchmark's function-correctness comparator, `_values_match(reference, generated, atol=1e-8,
 * rtol=1e-5)` (elejeune11/FEM-bench; see README.md here), on JSON-encoded values.
 *
 * The JSON loses which sequences were NumPy arrays. The reference side is typed from its golden
 * `output_types` descriptor when given, else inferred: a rectangular nested list of numbers is an
 * array. The candidate side is taken as it arrives: a list meets an array reference through
 * `np.asarray` (shape must match exactly), a list reference element-wise. Candidate encodings:
 * {"re","im"} complex numbers (complex arrays arrive flattened), "NaN"/"Infinity"/"-Infinity".
 *
 * Numbers match as numpy.isclose: |ref − gen| ≤ atol + rtol·|gen| (the tolerance scales with the
 * candidate), NaN equals NaN, infinities equal only themselves.
 */
import type { FemTypeDescriptor } from './codec.ts';
import type { FemValue } from './types.ts';

export const HARNESS_ATOL = 1e-8;
export const HARNESS_RTOL = 1e-5;
const MAX_DEPTH = 100;

export interface Tolerance {
  atol: number;
  rtol: number;
}
const HARNESS: Tolerance = { atol: HARNESS_ATOL, rtol: HARNESS_RTOL };

/** A complex number from the candidate's {"re","im"} encoding. */
class Complex {
  constructor(
    readonly re: number,
    readonly im: number,
  ) {}
}
type Scalar = number | Complex;

/** A Map: a candidate string "toString" or "__proto__" must not find Object.prototype's members. */
const NON_FINITE = new Map<string, number>([
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
]);
const isNonFinite = (v: string): boolean => NON_FINITE.has(v);

function finiteOrEncoded(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return NON_FINITE.get(v) ?? null;
  return null;
}

/** {"re": x, "im": y} (exactly those keys) → Complex; anything else → null. */
function asComplex(v: unknown): Complex | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const keys = Object.keys(v);
  if (keys.length !== 2 || !Object.hasOwn(v, 're') || !Object.hasOwn(v, 'im')) return null;
  const re = finiteOrEncoded((v as Record<string, unknown>).re);
  const im = finiteOrEncoded((v as Record<string, unknown>).im);
  return re === null || im === null ? null : new Complex(re, im);
}

/** A number-like value (numbers, bools, non-finite strings, complex encodings) or null. */
function asScalar(v: unknown): Scalar | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') return NON_FINITE.get(v) ?? null;
  return asComplex(v);
}

function modulus(x: Scalar): number {
  return typeof x === 'number' ? Math.abs(x) : Math.hypot(x.re, x.im);
}

function parts(x: Scalar): [number, number] {
  return typeof x === 'number' ? [x, 0] : [x.re, x.im];
}

/** numpy.isclose(ref, gen, atol, rtol, equal_nan=True). */
export function isCloseScalar(ref: Scalar, gen: Scalar, tol: Tolerance = HARNESS): boolean {
  const [ar, ai] = parts(ref);
  const [br, bi] = parts(gen);
  const aNaN = Number.isNaN(ar) || Number.isNaN(ai);
  const bNaN = Number.isNaN(br) || Number.isNaN(bi);
  if (aNaN || bNaN) return aNaN && bNaN;
  const aFinite = Number.isFinite(ar) && Number.isFinite(ai);
  const bFinite = Number.isFinite(br) && Number.isFinite(bi);
  if (!aFinite || !bFinite) return ar === br && ai === bi;
  return Math.hypot(ar - br, ai - bi) <= tol.atol + tol.rtol * modulus(gen);
}

function formatScalar(x: Scalar): string {
  return typeof x === 'number' ? String(x) : `${x.re}${x.im < 0 ? '-' : '+'}${Math.abs(x.im)}j`;
}

interface NumericArray {
  shape: number[];
  data: Scalar[];
}

/**
 * np.asarray of a candidate value: rectangular nesting of number-likes. Returns 'ragged' when the
 * nesting is inhomogeneous (numpy ≥ 1.24 raises) and 'object' when a leaf is not a number.
 */
function toNumericArray(v: unknown): NumericArray | 'ragged' | 'object' {
  const data: Scalar[] = [];
  let objectLeaf = false;
  const shapeOf = (x: unknown, depth: number): number[] | null => {
    if (Array.isArray(x)) {
      // NumPy has at most 64 dimensions; deeper candidate nesting is not an array (and must not overflow the stack).
      if (depth >= MAX_DEPTH) return null;
      if (x.length === 0) return [0];
      let inner: number[] | null = null;
      for (const item of x) {
        const s = shapeOf(item, depth + 1);
        if (s === null) return null;
        if (inner === null) inner = s;
        else if (s.length !== inner.length || s.some((d, k) => d !== inner![k])) return null;
      }
      return [x.length, ...inner!];
    }
    const s = asScalar(x);
    if (s === null) objectLeaf = true;
    else data.push(s);
    return [];
  };
  const shape = shapeOf(v, 0);
  if (shape === null) return 'ragged';
  if (objectLeaf) return 'object';
  return { shape, data };
}

function isRectangularNumeric(v: FemValue): boolean {
  if (!Array.isArray(v)) return false;
  const r = toNumericArray(v);
  return typeof r !== 'string';
}

function shapeText(shape: number[]): string {
  return `(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'object') return asComplex(v) ? 'a complex number' : 'a dict';
  if (typeof v === 'string') return isNonFinite(v) ? 'a number' : 'a string';
  return 'a number';
}

/** Is the reference value at this position a NumPy array? From the descriptor, else inferred. */
function referenceIsArray(ref: FemValue, type: FemTypeDescriptor | undefined): boolean {
  if (typeof type === 'object' && type !== null) return type.t === 'ndarray';
  return isRectangularNumeric(ref);
}

function compareArrays(ref: NumericArray, gen: NumericArray, path: string, tol: Tolerance): string | null {
  let genShape = gen.shape;
  // Complex arrays arrive flattened: restore the reference's shape when the sizes agree.
  if (gen.data.some((x) => x instanceof Complex) && genShape.length === 1 && ref.shape.length > 1 && gen.data.length === ref.data.length) {
    genShape = ref.shape;
  }
  if (genShape.length !== ref.shape.length || genShape.some((d, k) => d !== ref.shape[k])) {
    return `${path}: shape ${shapeText(gen.shape)} differs from the reference's ${shapeText(ref.shape)}`;
  }
  for (let k = 0; k < ref.data.length; k++) {
    if (!isCloseScalar(ref.data[k], gen.data[k], tol)) {
      return `${path}: entry ${k} (row-major) is ${formatScalar(gen.data[k])}, the reference has ${formatScalar(ref.data[k])}`;
    }
  }
  return null;
}

function matchAt(
  ref: FemValue,
  gen: unknown,
  type: FemTypeDescriptor | undefined,
  path: string,
  depth: number,
  tol: Tolerance,
): string | null {
  if (depth >= MAX_DEPTH) return `${path}: nesting deeper than ${MAX_DEPTH}`;
  if (ref === null || gen === null || gen === undefined) {
    return ref === null && gen === null ? null : `${path}: ${describe(gen)} where the reference has ${describe(ref)}`;
  }

  if (Array.isArray(ref) && referenceIsArray(ref, type)) {
    const refArray = toNumericArray(ref);
    if (typeof refArray === 'string') return `${path}: the reference array is not numeric`;
    if (Array.isArray(gen)) {
      const genArray = toNumericArray(gen);
      if (genArray === 'ragged') return `${path}: the candidate is a ragged nested list (not an array)`;
      if (genArray === 'object') return `${path}: the candidate array holds non-numeric entries`;
      return compareArrays(refArray, genArray, path, tol);
    }
    const genScalar = asScalar(gen);
    // `array == scalar` decides only for a one-element array (exact equality); otherwise it is ambiguous.
    if (genScalar !== null && refArray.data.length === 1) {
      const [ar, ai] = parts(refArray.data[0]);
      const [br, bi] = parts(genScalar);
      return ar === br && ai === bi ? null : `${path}: ${formatScalar(genScalar)} where the reference has a one-element array`;
    }
    return `${path}: ${describe(gen)} where the reference has an array of shape ${shapeText(refArray.shape)}`;
  }

  if (Array.isArray(ref)) {
    if (!Array.isArray(gen)) return `${path}: ${describe(gen)} where the reference has a sequence of ${ref.length}`;
    if (gen.length !== ref.length) return `${path}: ${gen.length} items where the reference has ${ref.length}`;
    const items =
      typeof type === 'object' && type !== null && (type.t === 'tuple' || type.t === 'list') && Array.isArray(type.items)
        ? type.items
        : undefined;
    for (let k = 0; k < ref.length; k++) {
      const m = matchAt(ref[k], gen[k], items?.[k], `${path}[${k}]`, depth + 1, tol);
      if (m) return m;
    }
    return null;
  }

  if (typeof ref === 'number' || typeof ref === 'boolean' || (typeof ref === 'string' && isNonFinite(ref))) {
    const refScalar = asScalar(ref)!;
    const genScalar = asScalar(gen);
    if (genScalar !== null) {
      return isCloseScalar(refScalar, genScalar, tol)
        ? null
        : `${path}: ${formatScalar(genScalar)}, the reference has ${formatScalar(refScalar)}`;
    }
    // A one-element candidate array against a scalar: `scalar == array` is exact equality.
    if (Array.isArray(gen)) {
      const genArray = toNumericArray(gen);
      if (typeof genArray !== 'string' && genArray.data.length === 1) {
        const [ar, ai] = parts(refScalar);
        const [br, bi] = parts(genArray.data[0]);
        if (ar === br && ai === bi) return null;
      }
    }
    return `${path}: ${describe(gen)} where the reference has a number`;
  }

  if (typeof ref === 'string') {
    return gen === ref ? null : `${path}: ${JSON.stringify(gen)} where the reference has ${JSON.stringify(ref)}`;
  }

  // A dict.
  const complexRef = asComplex(ref);
  if (complexRef) {
    const genScalar = asScalar(gen);
    if (genScalar === null) return `${path}: ${describe(gen)} where the reference has a complex number`;
    return isCloseScalar(complexRef, genScalar, tol)
      ? null
      : `${path}: ${formatScalar(genScalar)}, the reference has ${formatScalar(complexRef)}`;
  }
  if (gen === null || typeof gen !== 'object' || Array.isArray(gen)) return `${path}: ${describe(gen)} where the reference has a dict`;
  const refKeys = Object.keys(ref).sort();
  const genKeys = Object.keys(gen).sort();
  if (refKeys.length !== genKeys.length || refKeys.some((k, i) => k !== genKeys[i])) {
    return `${path}: keys [${genKeys.join(', ')}] differ from the reference's [${refKeys.join(', ')}]`;
  }
  const items = typeof type === 'object' && type !== null && type.t === 'dict' && type.items ? type.items : undefined;
  for (const key of refKeys) {
    // Own keys only (equal key sets were checked above): a key "constructor" is data, not Object's member.
    const m = matchAt(
      ref[key],
      (gen as Record<string, unknown>)[key],
      items && Object.hasOwn(items, key) ? items[key] : undefined,
      `${path}.${key}`,
      depth + 1,
      tol,
    );
    if (m) return m;
  }
  return null;
}

/**
 * Why `gen` does not match `ref` under the harness rules, or null when it matches.
 * `refType` is the reference's golden `output_types` descriptor, when known.
 */
export function valuesMismatch(ref: FemValue, gen: unknown, refType?: FemTypeDescriptor, tol: Tolerance = HARNESS): string | null {
  return matchAt(ref, gen, refType, '$', 0, tol);
}

export function valuesMatch(ref: FemValue, gen: unknown, refType?: FemTypeDescriptor, tol: Tolerance = HARNESS): boolean {
  return valuesMismatch(ref, gen, refType, tol) === null;
}

/** One task result: the output, or the exception raised. */
export type FemResult = { output: FemValue } | { error: { type: string; message: string } };

export interface CaseVerdict {
  match: boolean;
  detail: string;
}

/**
 * The per-case verdict for a task: an exception on either side fails the case, otherwise the harness
 * match. A mode of opposite sign is rejected, as the benchmark rejects it: our eigen solver returns LAPACK's
 * sign on every verification input (solve_eigenvalue T1/T3, all 12 golden cases checked).
 */
export function compareCase(
  taskId: string,
  reference: FemResult,
  candidate: unknown,
  refType?: FemTypeDescriptor,
  alternative?: AlternativeCheck,
): CaseVerdict {
  if ('error' in reference) return { match: false, detail: `the reference raised ${reference.error.type}: ${reference.error.message}` };
  if (candidate === null || typeof candidate !== 'object' || Array.isArray(candidate)) {
    return { match: false, detail: 'the candidate result is neither {"output": …} nor {"error": …}' };
  }
  const record = candidate as Record<string, unknown>;
  if (Object.hasOwn(record, 'error')) {
    const error =
      record.error !== null && typeof record.error === 'object' ? (record.error as { type?: unknown; message?: unknown }) : null;
    const type = error && Object.hasOwn(error, 'type') && typeof error.type === 'string' ? error.type : 'error';
    const message = error && Object.hasOwn(error, 'message') && typeof error.message === 'string' ? error.message : '';
    return { match: false, detail: `the candidate raised ${type}${message ? `: ${message}` : ''}` };
  }
  if (!Object.hasOwn(record, 'output')) return { match: false, detail: 'the candidate result has no "output"' };
  const mismatch = valuesMismatch(reference.output, record.output, refType);
  if (mismatch === null) return { match: true, detail: 'match' };
  if (alternative && alternative(reference.output, record.output))
    return { match: true, detail: 'match (an equally valid answer: the reference mode is not unique)' };
  return { match: false, detail: mismatch };
}

/** Task-specific acceptance of a candidate output the strict match rejects (see FemTask.sameSolution). */
export type AlternativeCheck = (referenceOutput: FemValue, candidateOutput: unknown) => boolean;

/** The task verdict: every case must match (the benchmark's `matches_reference`). */
export function compareResults(
  taskId: string,
  references: FemResult[],
  candidates: unknown[],
  refTypes?: (FemTypeDescriptor | undefined)[],
  alternatives?: (AlternativeCheck | undefined)[],
): { passed: boolean; cases: CaseVerdict[] } {
  const cases = references.map((reference, k) =>
    k < candidates.length
      ? compareCase(taskId, reference, candidates[k], refTypes?.[k], alternatives?.[k])
      : { match: false, detail: 'no candidate result for this case' },
  );
  return { passed: cases.every((c) => c.match), cases };
}
