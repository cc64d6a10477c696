/**
 * Number and error expectations shared by the unit and e2e tests. Each tolerance is a parameter: it is part of the
 * calling test's contract, so every call states its own.
 */
import { expect } from 'vitest';

/** Expects equal lengths and every component within `tol` of the expected one: |actual − expected| < tol (absolute). */
export function expectVec(actual: readonly number[], expected: readonly number[], tol: number, label = ''): void {
  const what = label ? `${label}: ` : '';
  expect(actual.length, `${what}length`).toBe(expected.length);
  actual.forEach((x, i) => expect(Math.abs(x - expected[i]), `${what}component ${i}: ${x} vs ${expected[i]}`).toBeLessThan(tol));
}

/**
 * Expects |actual − expected| ≤ abs + rel·|expected| (relative to the expected value, with an absolute floor for
 * values near zero). An expected null means the quantity is undefined upstream: actual must be null as well.
 */
export function expectRelClose(actual: number | null, expected: number | null, rel: number, abs = 0, label = ''): void {
  if (expected === null) {
    expect(actual, label).toBeNull();
    return;
  }
  expect(actual, label).not.toBeNull();
  expect(Math.abs(actual! - expected), `${label ? `${label}: ` : ''}${actual} vs ${expected}`).toBeLessThanOrEqual(
    abs + rel * Math.abs(expected),
  );
}

/** The error `fn` throws, expected to be a `kind`; fails when `fn` returns instead. */
export function errorOf<E extends Error>(fn: () => unknown, kind: abstract new (...args: never[]) => E): E {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(kind);
    return e as E;
  }
  throw new Error(`expected a ${kind.name}`);
}

/** A number as a page shows it and the half unit of its last printed digit: "65.02 %" → [65.02, 0.005]; "1.2e-5" too. */
export function shown(value: string): [number, number] {
  const m = /^-?\d+(?:\.(\d+))?(?:e-?\d+)?/.exec(value.trim());
  if (!m) throw new Error(`not a number: ${value}`);
  const exp = /e(-?\d+)/.exec(m[0]);
  return [Number(m[0]), 0.5 * 10 ** -((m[1]?.length ?? 0) - (exp ? Number(exp[1]) : 0))];
}

/** The paths where `a` and `b` differ: structure, keys and non-numbers exactly, numbers within `rel` relative. */
export function sameWithin(a: unknown, b: unknown, rel: number, path = '$'): string[] {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= rel * Math.max(1, Math.abs(b)) ? [] : [`${path}: ${a} ≠ ${b}`];
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [`${path}: ${a.length} items ≠ ${b.length}`];
    return a.flatMap((x, k) => sameWithin(x, b[k], rel, `${path}[${k}]`));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a),
      kb = Object.keys(b);
    if (ka.join() !== kb.join()) return [`${path}: keys ${ka.join()} ≠ ${kb.join()}`];
    return ka.flatMap((k) => sameWithin((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], rel, `${path}.${k}`));
  }
  return a === b ? [] : [`${path}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`];
}
