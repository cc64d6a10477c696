/** The compare worker's interface (C2NP predictions against ground truth), shared by worker and client. */
import type { ForwardMetrics, InverseMetrics } from '../src/core/tasks/c2np/metrics.ts';
import type { Result } from './result.ts';

export type { Result };

export interface ParticleArrays {
  name: string;
  natoms: number;
  /** Index into the pair's `elements`. */
  element: Uint16Array;
  positions: Float32Array;
}

/** One compared pair, ready to draw. */
export interface PairView {
  id: string;
  elements: string[];
  pred: ParticleArrays & {
    /** The prediction moved onto the truth by the aligned comparison's rigid motion. */
    aligned: Float32Array;
  };
  truth: ParticleArrays;
  metrics: ForwardMetrics;
  /** Per predicted atom; null when the counts differ. */
  pairedDisplacement: Float32Array | null;
  /** Per predicted atom after alignment; NaN where unpaired. */
  alignedDisplacement: Float32Array;
  missing: Uint32Array;
  extra: Uint32Array;
  /** a: predicted atom, b: truth atom (files' own frame). */
  hausdorffPair: { a: number; b: number; distance: number } | null;
  matchTolerance: number;
  warnings: string[];
}

export type { ForwardRow, InverseRow } from '../src/core/tasks/c2np/batch-eval.ts';
import type { ForwardRow, InverseRow } from '../src/core/tasks/c2np/batch-eval.ts';

export interface BatchInfo {
  kind: 'forward' | 'inverse';
  count: number;
  /** Files that found no partner (folder batches). */
  unpaired: string[];
  /** Inverse batches are scored at once. */
  inverse?: { rows: InverseRow[]; summary: InverseMetrics };
}

export interface InputFile {
  /** Path below the chosen folder, or the file name. */
  path: string;
  text: string;
}

export interface CompareWorkerApi {
  comparePair(pred: InputFile, truth: InputFile, radius: number | null): Promise<Result<PairView>>;
  /** The built-in demo: a real C2NP-convention particle and a damaged copy of it. */
  demoPair(cellText: string, cellName: string, radius: number): Promise<Result<PairView>>;
  loadBatchJsonl(file: InputFile): Promise<Result<BatchInfo>>;
  loadBatchFiles(preds: InputFile[], truths: InputFile[]): Promise<Result<BatchInfo>>;
  /** Scores every pair of the loaded forward batch, reporting progress after each. */
  runBatch(onProgress?: (done: number, total: number) => void): Promise<Result<ForwardRow[]>>;
  /** The full comparison of the batch's pair `index`, to draw it. */
  batchPair(index: number): Promise<Result<PairView>>;
}

/** Largest particle the compare view takes (the aligned assignment is the costly part). */
