/**
 * `structlab/fembench`: the FEM-Bench reference tasks (33 ids), a runner for their JSON cases and the
 * harness's comparison of a model's outputs. See src/core/tasks/fembench/README.md.
 */
export { FEM_BENCH_TASKS, femTask, parameterNames } from '../core/tasks/fembench/registry.ts';
export { type FemTask, type FemValue, FemTaskError } from '../core/tasks/fembench/types.ts';
export { RESOURCE_LIMIT, type FemCaseRecord, decodeCaseInputs, runFemCase, runFemCases } from '../core/tasks/fembench/runner.ts';
export {
  HARNESS_ATOL,
  HARNESS_RTOL,
  type Tolerance,
  type FemResult,
  type CaseVerdict,
  valuesMatch,
  valuesMismatch,
  compareCase,
  compareResults,
} from '../core/tasks/fembench/compare.ts';
export { type FemTypeDescriptor, decodeFemValue, encodeFemValue } from '../core/tasks/fembench/codec.ts';
