/** The AtomWorld worker's interface (batch evaluation, case views, two-structure compare), shared by worker and client. */
import type { PatternComparison } from '../src/core/analysis/xrd-compare.ts';
import type { DisplayData } from '../src/core/analysis/display-scene.ts';
import type { Mat3 } from '../src/core/math/mat3.ts';
import type { MatcherOptions } from '../src/core/match/defaults.ts';
import type { ActionTrace } from '../src/core/tasks/atomworld/actions.ts';
import type { LintIssue } from '../src/core/tasks/atomworld/lint.ts';
import type { CaseRow, InputFile } from '../src/core/tasks/atomworld/lab/inputs.ts';
import type { OverlayGeometry } from '../src/core/tasks/atomworld/lab/overlay.ts';
import type { Result } from './result.ts';

export type { Result };

export type { CaseRow, InputFile };

export interface LoadedBatch {
  /** Where the cases came from (file names, or the demo). */
  source: string;
  count: number;
  ids: string[];
  actions: string[];
  warnings: string[];
  /** True when at least one case carries the benchmark's own verdict. */
  hasOfficial: boolean;
}

/** The overlay as drawn: geometry plus how the pairing was found. */
export interface OverlayView extends OverlayGeometry {
  /** matcher: the mapping behind get_rms_dist; assignment: same-element pairs of least total distance in
   * the target's cell (no matcher mapping: the answer failed, or the counts differ). */
  source: 'matcher' | 'assignment';
  /** (V/n)^(1/3) of the target, Å: the matcher's distance unit. */
  lengthScale: number;
  /** stol in Å (stol × lengthScale): pairs farther than this are beyond the tolerance. */
  tolerance: number;
  note: string;
}

export interface CaseView {
  id: string;
  action: string;
  prompt: string;
  params: Record<string, unknown> | null;
  row: CaseRow;
  reason: string | null;
  lint: LintIssue[];
  before: DisplayData | null;
  beforeError: string | null;
  target: DisplayData;
  answer: DisplayData | null;
  /** The model's raw text (always), and why it is not a usable CIF (null when it is). */
  answerText: string;
  answerError: string | null;
  overlay: OverlayView | null;
  /** The action as the engine applies it, in the BEFORE's ASE frame (the frame the viewers use). */
  trace: ActionTrace | null;
  traceError: string | null;
  /** The target's ASE cell (for the supercell's repeated cells). */
  targetCell: Mat3;
}

/** The matcher options the compare mode edits (the one option type, src/core/match/defaults.ts). */
export type MatcherTolerances = Required<Pick<MatcherOptions, 'ltol' | 'stol' | 'angleTol' | 'primitiveCell'>>;

export interface CompareView {
  nameA: string;
  nameB: string;
  natomsA: number;
  natomsB: number;
  formulaA: string;
  formulaB: string;
  fit: boolean;
  rms: number | null;
  maxDist: number | null;
  tolerances: MatcherTolerances;
  a: DisplayData;
  b: DisplayData;
  overlay: OverlayView;
}

export interface AtomworldWorkerApi {
  /** Reads a cases file and an optional answers file (or combined records); keeps them for evaluation. */
  load(cases: InputFile, answers: InputFile | null): Promise<Result<LoadedBatch>>;
  /** The built-in demo cases, derived from a dataset structure. */
  loadDemo(cifText: string, fileName: string): Promise<Result<LoadedBatch>>;
  /** Judges cases start … start+count−1 of the loaded batch (several per message) with their lint codes. */
  evaluate(start: number, count: number): Promise<Result<CaseRow[]>>;
  /** Everything needed to draw case `index`. */
  caseView(index: number): Promise<Result<CaseView>>;
  /** The powder patterns of case `index`'s answer and target, compared (`structlab xrd-compare`'s defaults). */
  xrdCompare(index: number): Promise<Result<PatternComparison>>;
  compare(a: InputFile, b: InputFile, tolerances: MatcherTolerances): Promise<Result<CompareView>>;
}
