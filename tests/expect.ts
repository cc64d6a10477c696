/**
 * Number and error expectations shared by the unit tests. Each tolerance is a parameter: it is part of the calling
 * test's contract, so every call states its own.
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
