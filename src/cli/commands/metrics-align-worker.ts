/**
 * Worker thread of `structlab metrics`: computes the aligned comparison (the costliest metric) while the main
 * thread computes the benchmark's metrics. It starts while the main thread reads the files and receives the
 * particles from it, so nothing is parsed twice.
 */
import { parentPort } from 'node:worker_threads';
import { alignParticles, type Particle } from '../../core/analysis/alignment.ts';
import { adoptCommandLimits } from '../threads.ts';
import { errorText } from '../../core/errors.ts';

export interface AlignRequest {
  pred: Particle;
  truth: Particle;
  tolerance: number;
}

export type AlignWorkerResult =
  { ok: true; rmsd: number; max_displacement: number; matched_fraction: number; tolerance: number } | { ok: false; error: string };

adoptCommandLimits();
parentPort!.once('message', (request: AlignRequest) => {
  let result: AlignWorkerResult;
  try {
    const a = alignParticles(request.pred, request.truth, request.tolerance);
    result = { ok: true, rmsd: a.rmsd, max_displacement: a.maxDisplacement, matched_fraction: a.matchedFraction, tolerance: a.tolerance };
  } catch (e) {
    result = { ok: false, error: errorText(e) };
  }
  parentPort!.postMessage(result);
});
