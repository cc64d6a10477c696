/** The trajectory worker's interface, shared by the worker and its client (types only). */
import type { PackedStructure } from '../src/core/structure/packed.ts';
import type { DisplayData, DisplayOptions } from '../src/core/analysis/display-scene.ts';
import type { Formulas, SymmetryResult } from './io-api.ts';
import type { Result } from './result.ts';

export interface FrameSeries {
  name: string;
  values: number[];
}

/** An opened trajectory: what the player needs, never the frames themselves. */
export interface TrajectoryInfo {
  name: string;
  format: string;
  frames: number;
  bytes: number;
  /** Per-frame values from the index scan (header values, volume), each with one value per frame. */
  series: FrameSeries[];
}

/** What the worker holds, for the page's readout and the tests: frames parsed and kept, bytes of its index. */
export interface TrajectoryStats {
  cachedFrames: number;
  framesRead: number;
}

export interface TrajectoryFrame {
  structure: PackedStructure;
  formulas: Formulas;
  display: DisplayData;
  /** Null when not asked for (while playing). */
  symmetry: SymmetryResult | null;
  stats: TrajectoryStats;
}

export interface TrajectoryWorkerApi {
  /** Indexes one multi-frame file in chunks (the Blob is never read whole); frames are read later, on demand. */
  open(file: Blob, name: string, onProgress?: (stage: string) => void): Promise<Result<TrajectoryInfo>>;
  /** Several structure files as the frames of one trajectory, in natural order of their names (frame_2 before frame_10). */
  openFiles(files: File[], onProgress?: (stage: string) => void): Promise<Result<TrajectoryInfo>>;
  /** Frame k read, packed and its scene built (symmetry at `symprec` unless null); a few recent frames are kept. */
  frame(k: number, options: Partial<DisplayOptions>, symprec: number | null): Promise<Result<TrajectoryFrame>>;
}
