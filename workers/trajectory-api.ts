/** The trajectory worker's interface, shared by the worker and its client (types only). */
import type { PackedStructure } from '../src/core/structure/packed.ts';
import type { DisplayData, DisplayOptions } from '../src/core/analysis/display-scene.ts';
import type { Formulas, SymmetryResult } from './io-api.ts';
import type { Result } from './result.ts';

export interface FrameSeries {
  name: string;
  /** One per frame; null where the frame has none (no match within tolerance, no space group found). */
  values: (number | null)[];
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

/** Series computed on request over every frame: the space group at a tolerance, or the match against a reference. */
export type SeriesRequest = { kind: 'spacegroup'; symprec: number } | { kind: 'reference'; name: string; text: string };

export interface TrajectoryWorkerApi {
  /** Indexes one multi-frame file in chunks (the Blob is never read whole); frames are read later, on demand. */
  open(file: Blob, name: string, onProgress?: (stage: string) => void): Promise<Result<TrajectoryInfo>>;
  /** Several structure files as the frames of one trajectory, in natural order of their names (frame_2 before frame_10). */
  openFiles(files: File[], onProgress?: (stage: string) => void): Promise<Result<TrajectoryInfo>>;
  /**
   * The frames of a small multi-frame file as the session holds them (a copy), for the metrics pass and the series
   * only: its frames play from the session's structures. Answers the number of frames.
   */
  openStructures(frames: PackedStructure[], name: string): Promise<Result<number>>;
  /**
   * Frame k read, packed and its scene built (symmetry at `symprec` unless null); a few recent frames are kept. `next`:
   * the frame the player will ask for next (playing), read and built ahead while this one is drawn.
   */
  frame(k: number, options: Partial<DisplayOptions>, symprec: number | null, next: number | null): Promise<Result<TrajectoryFrame>>;
  /**
   * Every frame read once for its metrics (src/core/analysis/frame-metrics.ts: the file's values, max force, stress,
   * volume, lattice parameters, minimum distance): the series every frame has. Frames asked for meanwhile are served
   * between two frames of the pass.
   */
  metrics(onProgress?: (stage: string) => void): Promise<Result<FrameSeries[]>>;
  /** An on-demand series over every frame (see SeriesRequest), with progress. */
  series(request: SeriesRequest, onProgress?: (stage: string) => void): Promise<Result<FrameSeries[]>>;
}
