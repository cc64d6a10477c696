/** Seeded randomness for the tests: defined in scripts/support/random.ts, which the benchmarks share. */
export * from '../scripts/support/random.ts';
