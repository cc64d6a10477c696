/**
 * `structlab/core` (also the package's main entry): every area of the public API in one module.
 * The per-area subpaths (structlab/io, /match, /c2np, …) export the same names.
 */
export * from './structure.ts';
export * from './limits.ts';
export * from './symmetry.ts';
export * from './io.ts';
export * from './match.ts';
export * from './c2np.ts';
export * from './atomworld.ts';
export * from './fembench.ts';
export * from './onng.ts';
