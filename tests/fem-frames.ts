/** Generated 3D grid frames for the tests: defined in scripts/support/fem-frames.ts, which the FEM benchmark shares. */
export * from '../scripts/support/fem-frames.ts';
