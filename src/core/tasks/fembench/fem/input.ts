/** Reading decoded golden inputs (nested arrays) into numbers, vectors and matrices, with Python-like errors. */
import { FemTaskError, type FemValue } from '../types.ts';

export function scalar(value: FemValue | undefined, name: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  // A one-element array behaves as a scalar in NumPy arithmetic.
  if (Array.isArray(value) && value.length === 1) return scalar(value[0], name);
  throw new FemTaskError('TypeError', `${name} must be a number`);
}

/** Shape of a rectangular nested array (throws on ragged input). */
export function shapeOf(value: FemValue | undefined): number[] {
  if (!Array.isArray(value)) return [];
  if (value.length === 0) return [0];
  const inner = shapeOf(value[0]);
  for (const item of value) {
    const s = shapeOf(item);
    if (s.length !== inner.length || s.some((d, k) => d !== inner[k])) {
      throw new FemTaskError('ValueError', 'setting an array element with a sequence. The requested array has an inhomogeneous shape');
    }
  }
  return [value.length, ...inner];
}

/** All numbers of a nested array in row-major order (NumPy ravel). */
export function flatten(value: FemValue | undefined, name: string): number[] {
  const out: number[] = [];
  const walk = (v: FemValue | undefined) => {
    if (Array.isArray(v)) v.forEach(walk);
    else out.push(scalar(v, name));
  };
  walk(value);
  return out;
}

export function vector(value: FemValue | undefined, name: string, length?: number): number[] {
  const v = flatten(value, name);
  if (length !== undefined && v.length !== length)
    throw new FemTaskError('ValueError', `${name} must have ${length} entries, got ${v.length}`);
  return v;
}

export function matrix(value: FemValue | undefined, name: string, rows: number, cols: number): number[][] {
  const shape = shapeOf(value);
  if (shape.length !== 2 || shape[0] !== rows || shape[1] !== cols) {
    throw new FemTaskError('ValueError', `${name} must have shape (${rows}, ${cols}), got (${shape.join(', ')})`);
  }
  return (value as FemValue[]).map((row) => vector(row, name));
}
