/** The generations goldens' comparison for the tests: defined in scripts/support/generations-compare.ts, which the benchmark shares. */
export * from '../scripts/support/generations-compare.ts';
