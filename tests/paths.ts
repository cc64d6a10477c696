/** The repository's paths for the tests: defined in scripts/support/paths.ts, which the benchmarks and scripts share. */
export * from '../scripts/support/paths.ts';
