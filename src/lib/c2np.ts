/**
 * `structlab/c2np`: the C2NP benchmark (KurbanIntelligenceLab/C2NP): carve a nanoparticle from a
 * crystal (Atomsk's convention), the task-1 metrics of a predicted particle, the task-2 (inverse)
 * metrics, and the particle files of the dataset layout. See src/core/tasks/c2np in the repository.
 */
export {
  carveParticle,
  atomskCellFromParameters,
  SPHERE_TIE_TOLERANCE,
  type CarveOptions,
  type CarveCenter,
  type CarvedParticle,
} from '../core/tasks/c2np/carve.ts';
export {
  forwardMetrics,
  averageForwardMetrics,
  inverseMetrics,
  c2npRmsd,
  sphereVolume,
  checkParticle,
  JOINT_TOLERANCE,
  type Particle,
  type ForwardMetrics,
  type ForwardOptions,
  type InverseMetrics,
  type InverseSample,
} from '../core/tasks/c2np/metrics.ts';
export { compareParticles, CompareSizeError, type ParticleComparison, type CompareOptions } from '../core/tasks/c2np/compare.ts';
export { alignParticles, type AlignmentResult, type RigidTransform } from '../core/analysis/alignment.ts';
export { solveInverse, InverseError, type InverseResult } from '../core/tasks/c2np/inverse.ts';
export {
  C2NP_RADII,
  ID_RADII,
  OOD_RADII,
  type C2npSplit,
  splitOfRadius,
  type ParticleCoordinates,
  parseParticleXyz,
  formatRawXyz,
  ParticleFormatError,
} from '../core/tasks/c2np/dataset.ts';
export { particleFromFile } from '../core/tasks/c2np/batch.ts';
export {
  type QuaternionXyzw,
  quaternionToMatrix,
  applyRotation,
  type RotationSet,
  parseRotationSets,
} from '../core/tasks/c2np/rotation.ts';
