/**
 * Worker thread of `structlab metrics`: reads both particles and computes the aligned comparison (the costliest
 * metric) while the main thread computes the benchmark's metrics.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { alignParticles } from '../../core/analysis/alignment.ts';
import { loadParticle } from './metrics.ts';

export interface AlignWorkerData {
  pred: string;
  truth: string;
  tolerance: number;
}

export type AlignWorkerResult =
  | { ok: true; rmsd: number; max_displacement: number; matched_fraction: number; tolerance: number }
  | { ok: false; error: string };

const data = workerData as AlignWorkerData;
let result: AlignWorkerResult;
try {
  const quiet = () => undefined; // the main thread reports the files' warnings
  const a = alignParticles(loadParticle(data.pred, quiet), loadParticle(data.truth, quiet), data.tolerance);
  result = { ok: true, rmsd: a.rmsd, max_displacement: a.maxDisplacement, matched_fraction: a.matchedFraction, tolerance: a.tolerance };
} catch (e) {
  result = { ok: false, error: e instanceof Error ? e.message : String(e) };
}
parentPort!.postMessage(result);
