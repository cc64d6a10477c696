/**
 * The golden files' JSON encoding (see types.ts) in both directions.
 *
 * Decoding turns the strings "NaN"/"Infinity"/"-Infinity" back into numbers and remembers which
 * arrays were Python lists or tuples rather than NumPy arrays (a few references reject plain lists).
 * Encoding turns non-finite numbers into those strings so the result is strict JSON.
 */
import { LIMITS, LimitError, limitSentence } from '../../limits.ts';
import { FemTaskError, type FemValue } from './types.ts';

const PYTHON_SEQUENCE = Symbol('fembench.pythonSequence');

/** A golden `input_types` / `output_types` descriptor. */
export type FemTypeDescriptor =
  | string
  | { t: 'ndarray'; dtype?: string; shape?: number[] }
  | { t: 'list' | 'tuple'; items?: FemTypeDescriptor[] }
  | { t: 'dict'; key_type?: string; items?: Record<string, FemTypeDescriptor> };

/** A Map, not an object: `"toString" in {}` is true, and keys read from files must never reach a prototype. */
const NON_FINITE = new Map<string, number>([
  ['NaN', Number.NaN],
  ['Infinity', Number.POSITIVE_INFINITY],
  ['-Infinity', Number.NEGATIVE_INFINITY],
]);

/** A dict decoded from a file: no prototype, so "__proto__", "constructor" or "toString" are plain keys as in Python. */
export function femDict(): { [key: string]: FemValue } {
  return Object.create(null) as { [key: string]: FemValue };
}

/** True when `value` was decoded from a Python list/tuple (not a NumPy array) according to its type descriptor. */
export function isPythonSequence(value: unknown): boolean {
  return Array.isArray(value) && (value as unknown as Record<symbol, boolean>)[PYTHON_SEQUENCE] === true;
}

function markPythonSequence(list: FemValue[]): FemValue[] {
  Object.defineProperty(list, PYTHON_SEQUENCE, { value: true, enumerable: false });
  return list;
}

/** Decodes one golden value; `type` (optional) is its descriptor. Non-finite strings become numbers. */
export function decodeFemValue(value: unknown, type?: FemTypeDescriptor): FemValue {
  return decodeAt(value, type, 0);
}

function decodeAt(value: unknown, type: FemTypeDescriptor | undefined, depth: number): FemValue {
  if (typeof value === 'string') {
    const stringTyped = type === 'str';
    const number = NON_FINITE.get(value);
    if (!stringTyped && number !== undefined) return number;
    return value;
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  // Nesting is bounded before recursing (a 10⁵-deep list would overflow the stack).
  if (depth >= LIMITS.femDepth) throw new LimitError('femDepth', limitSentence('a FEM input', null, LIMITS.femDepth, 'levels of nesting'));
  const descriptor = typeof type === 'object' && type !== null ? type : undefined;
  if (Array.isArray(value)) {
    if (descriptor && (descriptor.t === 'list' || descriptor.t === 'tuple')) {
      const items = Array.isArray(descriptor.items) ? descriptor.items : undefined;
      return markPythonSequence(value.map((v, k) => decodeAt(v, items?.[k], depth + 1)));
    }
    return value.map((v) => decodeAt(v, descriptor?.t === 'ndarray' ? descriptor : undefined, depth + 1));
  }
  if (typeof value === 'object') {
    const items =
      descriptor?.t === 'dict' && descriptor.items !== null && typeof descriptor.items === 'object' ? descriptor.items : undefined;
    const out = femDict();
    for (const [k, v] of Object.entries(value)) out[k] = decodeAt(v, items && Object.hasOwn(items, k) ? items[k] : undefined, depth + 1);
    return out;
  }
  throw new Error(`cannot decode a ${typeof value} as a FEM-Bench value`);
}

/** Decodes a golden case's `inputs` with its `input_types`; the result has no prototype (keys are data). */
export function decodeFemInputs(inputs: Record<string, unknown>, inputTypes?: Record<string, FemTypeDescriptor>): Record<string, FemValue> {
  const types = inputTypes !== null && typeof inputTypes === 'object' && !Array.isArray(inputTypes) ? inputTypes : undefined;
  const out = femDict();
  for (const [name, value] of Object.entries(inputs))
    out[name] = decodeAt(value, types && Object.hasOwn(types, name) ? types[name] : undefined, 0);
  return out;
}

/** Encodes a task output like the golden files: non-finite numbers as strings, -0 as 0. */
export function encodeFemValue(value: FemValue): FemValue {
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (value === Number.POSITIVE_INFINITY) return 'Infinity';
    if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
    return value === 0 ? 0 : value;
  }
  if (Array.isArray(value)) return value.map(encodeFemValue);
  if (value !== null && typeof value === 'object') {
    const out = femDict();
    for (const [k, v] of Object.entries(value)) out[k] = encodeFemValue(v);
    return out;
  }
  return value;
}

/** The 1D body force: {__callable__: 'polynomial', coefficients: [c0, c1, …]} → f(x) = Σ c_k x^k. */
export function decodePolynomialCallable(value: FemValue, name: string): (x: number) => number {
  if (
    value === null ||
    typeof value !== 'object' ||
    Array.isArray(value) ||
    !Object.hasOwn(value, '__callable__') ||
    value.__callable__ !== 'polynomial' ||
    !Object.hasOwn(value, 'coefficients') ||
    !Array.isArray(value.coefficients)
  ) {
    // Calling anything else, as the reference does with body_force_fn(x), is Python's TypeError.
    const pythonType =
      value === null
        ? 'NoneType'
        : Array.isArray(value)
          ? 'list'
          : typeof value === 'object'
            ? 'dict'
            : typeof value === 'string'
              ? 'str'
              : typeof value === 'boolean'
                ? 'bool'
                : Number.isInteger(value)
                  ? 'int'
                  : 'float';
    throw new FemTaskError('TypeError', `'${pythonType}' object is not callable`);
  }
  const coefficients = value.coefficients.map((c) => {
    if (typeof c === 'number') return c;
    if (typeof c === 'boolean') return c ? 1 : 0;
    throw new FemTaskError('TypeError', `${name}: polynomial coefficients must be numbers`);
  });
  return (x: number) => {
    let sum = 0;
    for (let k = coefficients.length - 1; k >= 0; k--) sum = sum * x + coefficients[k];
    return sum;
  };
}
