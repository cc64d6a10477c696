/** The Generations worker's interface (sets, CSP and de novo metrics, one sample's detail), shared by worker and client. */
import type { PatternComparison } from '../src/core/analysis/xrd-compare.ts';
import type { DisplayData } from '../src/core/analysis/display-scene.ts';
import type { Mat3, Vec3 } from '../src/core/math/mat3.ts';
import type { OverlayGeometry } from '../src/core/tasks/atomworld/lab/overlay.ts';
import type { CspConvention, CspResult, CspSampleRow } from '../src/core/tasks/generations/csp.ts';
import type { CspTolerances } from '../src/core/tasks/generations/tolerances.ts';
import type { HullPlotData } from '../src/core/analysis/hull-plot.ts';
import type { CoverageOptions, DenovoConvention, DenovoResult, DenovoSample } from '../src/core/tasks/generations/denovo.ts';
import type { MatchExplanation } from '../src/core/tasks/generations/explain.ts';
import type { GenMatcherName } from '../src/core/tasks/generations/mattergen-matcher.ts';
import type { SmactTable } from '../src/core/tasks/generations/smact.ts';
import type { FormatId } from '../src/core/io/types.ts';
import type { Structure } from '../src/core/structure/structure.ts';
import type { Result } from './result.ts';

export type {
  Result,
  FormatId,
  CspResult,
  CspSampleRow,
  DenovoResult,
  DenovoSample,
  CspConvention,
  DenovoConvention,
  GenMatcherName,
  SmactTable,
};

/** A file as read on the main thread: `path` is its path inside a picked folder, else its name. */
export interface InputFile {
  path: string;
  text: string;
}

/** The sets a run reads: CSP predictions and truths; de novo predictions, a reference set (novelty), a truth set (Wasserstein). */
export type SetRole = 'pred' | 'truth' | 'reference' | 'test';

export interface LoadedSet {
  role: SetRole;
  /** The folder or file name the set came from. */
  source: string;
  count: number;
  /** Truths the prediction file carries itself (a .pt's input_data_batch, Chemeleon's ref_structure): CSP needs no truth set. */
  ownTruths?: number;
  /** Predictions per truth such a file holds (Chemeleon's gen_structure_{n} columns). */
  samples?: number;
}

export type GenMode = 'csp' | 'denovo';

export interface CspRunOptions {
  convention: CspConvention;
  smact: SmactTable;
  nSamples: number;
  /** The matcher's tolerances (`gen csp --tolerances/--stol/--ltol/--angle-tol`). */
  tolerances: CspTolerances;
  /** Both space groups per pair and the same-space-group match rate (`--space-groups`). */
  spaceGroups: boolean;
}

export interface DenovoRunOptions {
  convention: DenovoConvention;
  smact: SmactTable;
  matcher: GenMatcherName;
  stabilityThreshold: number;
  /** Each prediction's space group and the distributions (`gen eval --space-groups`). */
  spaceGroups: boolean;
  /** CDVAE's coverage against the test set (`gen eval --coverage D` / `--cov-cutoffs S,C`); null: off. */
  coverage: CoverageOptions | null;
}

/** One fingerprint kind on its principal plane (src/core/analysis/pca.ts), fitted on the truths and predictions together. */
export interface FingerprintPlane {
  /** Share of the variance along PC1 and PC2. */
  explained: [number, number];
  /** Per per_sample row: [PC1, PC2], null without fingerprints. */
  predictions: ([number, number] | null)[];
  /** Per test structure, in the set's order: [PC1, PC2], null without fingerprints. */
  truth: ([number, number] | null)[];
}

/** The de novo run's 2D map of the coverage fingerprints: structure (61 numbers) and scaled composition (132 numbers). */
export interface FingerprintMap {
  structure: FingerprintPlane;
  composition: FingerprintPlane;
  /** The test structures' ids, in the set's order. */
  truthIds: string[];
}

/**
 * A run's document, exactly as `structlab gen csp` / `gen eval` print it, and the matcher failures it counted as no match;
 * a de novo run with coverage also has the fingerprint map, kept beside the document (the CLI prints no map).
 */
export type GenRun =
  | { mode: 'csp'; result: CspResult; matcherErrors: string[] }
  | { mode: 'denovo'; result: DenovoResult; matcherErrors: string[]; map?: FingerprintMap };

/** Two sites nearer than 0.5 Å (upstream's structural cutoff), with both ends as drawn (the structure's display frame). */
export interface ClosePairView {
  i: number;
  j: number;
  /** Å. */
  distance: number;
  /** Site i as drawn, and the nearest image of site j (may lie outside the cell). */
  from: Vec3;
  to: Vec3;
}

/** One structure of the detail view, in ASE's frame (a ∥ x), as AtomWorld draws its structures. */
export interface StructureSide {
  /** What it is in this view: prediction, truth, duplicate_of, reference_match. */
  role: 'prediction' | 'truth' | 'duplicate_of' | 'reference_match';
  id: string;
  /** Where it came from: "pred/x.cif", "multi.extxyz frame 3". */
  where: string;
  display: DisplayData;
  cell: Mat3;
  lattice: { a: number; b: number; c: number; alpha: number; beta: number; gamma: number };
  /** Å³. */
  volume: number;
  /** g/cm³ (pymatgen's Structure.density). */
  density: number;
  /** pymatgen's composition.formula ("Fe4 O6") and reduced formula. */
  formula: string;
  reducedFormula: string;
  nsites: number;
  /** Space group by moyo (symprec 0.01), e.g. "Pnma (62)"; null when the search fails. */
  spaceGroup: string | null;
  minDistance: number | null;
  closePairs: ClosePairView[];
  /** The structure itself (for export in any format). */
  structure: Structure;
}

/** The prediction (solid) and its counterpart after the matcher's mapping, in the counterpart's cell (AtomWorld's overlay). */
export interface SampleOverlay extends OverlayGeometry {
  /** matcher: the get_rms_dist mapping (CSP's tolerances, or the de novo matcher's defaults); assignment: same-element pairs of
   * least total distance (no matcher mapping). The target is the counterpart, the answer the prediction. */
  source: 'matcher' | 'assignment';
  /** (V/n)^(1/3) of the counterpart, Å: the matcher's distance unit. */
  lengthScale: number;
  /** stol in Å: pairs beyond it are beyond the tolerance. */
  tolerance: number;
}

export interface SampleView {
  mode: GenMode;
  /** Index into the run's per_sample rows. */
  index: number;
  row: CspSampleRow | DenovoSample;
  prediction: StructureSide;
  /** CSP: the truth; de novo: the structure it duplicates, else its reference match; null when there is none. */
  other: StructureSide | null;
  overlay: SampleOverlay | null;
  /** Why the pair does not match (src/core/tasks/generations/explain.ts), for CSP pairs the matcher rejected; null otherwise. */
  explain: MatchExplanation | null;
  /** De novo with total energies and a hull reference: the hull plot of the sample's chemical system, or why there is none. */
  hull: HullView | null;
}

/** The hull plot of a binary or ternary system (src/core/analysis/hull-plot.ts), or the sentence saying why there is none. */
export type HullView = { plot: HullPlotData; omitted: number } | { why: string };

/** Which hull input: per-prediction total energies, or the reference entries of the hull. */
export type HullInputKind = 'energies' | 'reference';

/** A structure written as a file's text, with the file's name. */
export interface SampleFile {
  fileName: string;
  text: string;
}

export interface GenerationsWorkerApi {
  /** Reads one set: several files (a folder), or one .extxyz/.xyz, .jsonl or MP-20 .csv file; kept for the runs.
   * `files` empty: drops it. */
  loadSet(role: SetRole, files: InputFile[], folder: string): Promise<Result<LoadedSet | null>>;
  /** Reads one set from a container's bytes (a .zip/.tar/.tar.gz/.gz of structure files or one set file inside, or a
   * CDVAE/DiffCSP .pt result file); kept for the runs. */
  loadZip(role: SetRole, name: string, bytes: ArrayBuffer): Promise<Result<LoadedSet>>;
  /** The demo's predictions (src/core/tasks/generations/demo.ts), made from the truths of an MP-20-style CSV; kept for the runs. */
  loadDemoPredictions(truthCsv: string, name: string): Promise<Result<LoadedSet>>;
  /** E above hull per prediction id ({"id": eV/atom or null}); null drops them. */
  loadEnergies(file: InputFile | null): Promise<Result<number>>;
  /** Total energies per prediction (.extxyz, .json, .csv) or the hull's reference entries (.jsonl, .json, .csv), as
   * `gen eval --energies E --hull-reference R` reads them; the count read; null drops them. */
  loadHullInput(kind: HullInputKind, file: InputFile | null): Promise<Result<number>>;
  /** The CSP metrics of the loaded predictions and truths; `progress(done, total)` every few truths. */
  runCsp(options: CspRunOptions, progress: (done: number, total: number) => void): Promise<Result<GenRun>>;
  /** The de novo metrics of the loaded predictions (with the reference, test set and energies when loaded). */
  runDenovo(options: DenovoRunOptions, progress: (done: number, total: number) => void): Promise<Result<GenRun>>;
  /** The prediction of per_sample row `index` as drawn (periodic, no bonds), for the gallery's thumbnails. */
  thumbnail(index: number): Promise<Result<DisplayData>>;
  /** Per_sample row `index`'s prediction or its counterpart written in `format` (src/core/io/registry.ts), with a file name. */
  exportSample(index: number, side: 'prediction' | 'other', format: FormatId): Promise<Result<SampleFile>>;
  /** Everything the detail view draws for per_sample row `index` of the last run. */
  sampleView(index: number): Promise<Result<SampleView>>;
  /** The powder patterns of per_sample row `index`'s prediction and its counterpart, compared (`structlab xrd-compare`'s defaults). */
  xrdCompare(index: number): Promise<Result<PatternComparison>>;
}
