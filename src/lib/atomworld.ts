/**
 * `structlab/atomworld`: the AtomWorld benchmark's structure actions (ASE semantics) and its answer
 * evaluator (the official StructureMatcher settings). See src/core/tasks/atomworld/README.md.
 * Actions read and write CIFs: await initSymmetry() (structlab/symmetry) first.
 */
export {
  ATOMWORLD_ACTIONS,
  type AtomworldActionName,
  isAtomworldAction,
  AtomworldActionError,
  type ActionResult,
  type ActionTrace,
  applyAtomworldAction,
  applyAtomworldActionWithTrace,
  applyAtomworldActionToCif,
  readAtomworldCif,
} from '../core/tasks/atomworld/actions.ts';
export {
  type AtomworldWrongType,
  type AtomworldEvaluation,
  ATOMWORLD_MATCHER,
  extractLastCif,
  evaluateAtomworldAnswer,
} from '../core/tasks/atomworld/evaluate.ts';
export {
  type AtomworldJob,
  type AtomworldCaseVerdict,
  type AtomworldActionSummary,
  judgeAtomworldJob,
  summariseAtomworld,
} from '../core/tasks/atomworld/batch.ts';
