// The WebAssembly kernels of src/core (AssemblyScript, compiled by scripts/build-kernels.mjs into
// src/core/math/kernels-binary.generated.ts). Memory is laid out by the caller, from heapBase() up.
export { countPairs, slabColumns } from './pair-histogram';
export { centre } from './hull';
export { quickhull } from './quickhull';
export { pairSums, rigidMotion } from './superpose';
export { gridColumns, lllSites, meanRemovedDistances, shortestVectors, strictValue, translateCompare } from './match';
export { assign, assignmentScratchBytes, assignmentSolution } from './assignment';
export { latticePoints } from './lattice-points';

/** The first byte after the module's own static data: callers place their arrays from here. */
export function heapBase(): usize {
  return __heap_base;
}
