/**
 * The golden files' JSON encoding (fem-bench.md §8) in both directions.
 *
 * Decoding turns the strings "NaN"/"Infinity"/"-Infinity" back into numbers and remembers which
 * arrays were Python lists or tuples rather than NumPy arrays (a few references reject plain lists).
 * Encoding turns non-finite numbers into those strings so the result is strict JSON.
 */
import type { FemValue } from './types.ts';

const PYTHON_SEQUENCE = Symbol('fembench.pythonSequence');

/** A golden `input_types` / `output_types` descriptor. */
export type FemTypeDescriptor =
  | string
  | { t: 'ndarray'; dtype?: string; shape?: number[] }
  | { t: 'list' | 'tuple'; items?: FemTypeDescriptor[] }
  | { t: 'dict'; key_type?: string; items?: Record<string, FemTypeDescriptor> };

const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, '-Infinity': Number.NEGATIVE_INFINITY };

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
  if (typeof value === 'string') {
    const stringTyped = type === 'str';
    if (!stringTyped && value in NON_FINITE) return NON_FINITE[value];
    return value;
  }
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) {
    const descriptor = typeof type === 'object' ? type : undefined;
    if (descriptor && (descriptor.t === 'list' || descriptor.t === 'tuple')) {
      const items = descriptor.items;
      return markPythonSequence(value.map((v, k) => decodeFemValue(v, items?.[k])));
    }
    return value.map((v) => decodeFemValue(v, descriptor?.t === 'ndarray' ? descriptor : undefined));
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.__callable__ !== undefined) return record as { [key: string]: FemValue };
    const items = typeof type === 'object' && type.t === 'dict' ? type.items : undefined;
    const out: { [key: string]: FemValue } = {};
    for (const [k, v] of Object.entries(record)) out[k] = decodeFemValue(v, items?.[k]);
    return out;
  }
  throw new Error(`cannot decode a ${typeof value} as a FEM-Bench value`);
}

/** Decodes a golden case's `inputs` with its `input_types`. */
export function decodeFemInputs(inputs: Record<string, unknown>, inputTypes?: Record<string, FemTypeDescriptor>): Record<string, FemValue> {
  const out: Record<string, FemValue> = {};
  for (const [name, value] of Object.entries(inputs)) out[name] = decodeFemValue(value, inputTypes?.[name]);
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
    const out: { [key: string]: FemValue } = {};
    for (const [k, v] of Object.entries(value)) out[k] = encodeFemValue(v);
    return out;
  }
  return value;
}

/** The 1D body force: {__callable__: 'polynomial', coefficients: [c0, c1, …]} → f(x) = Σ c_k x^k. */
export function decodePolynomialCallable(value: FemValue, name: string): (x: number) => number {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value.__callable__ !== 'polynomial' || !Array.isArray(value.coefficients)) {
    throw new Error(`${name} must be a callable encoded as {"__callable__": "polynomial", "coefficients": [...]}`);
  }
  const coefficients = value.coefficients.map((c) => Number(c));
  return (x: number) => {
    let sum = 0;
    for (let k = coefficients.length - 1; k >= 0; k--) sum = sum * x + coefficients[k];
    return sum;
  };
}
