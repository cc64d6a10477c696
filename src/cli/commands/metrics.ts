import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { forwardMetrics, type Particle } from '../../core/tasks/c2np/metrics.ts';
import { alignParticles, DEFAULT_MATCH_TOLERANCE } from '../../core/analysis/alignment.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { parseParticleFile } from '../../core/io/registry.ts';
import { parseFailure, readInputText, toStrictJson } from '../io.ts';
import type { AlignRequest, AlignWorkerResult } from './metrics-align-worker.ts';
import { errorText } from '../../core/errors.ts';

export const METRICS_HELP = `usage: structlab metrics PRED TRUTH [--radius R]

Compares a predicted particle with the true one (any structure file, usually C2NP XYZ; the first
structure of each file) with the C2NP task-1 metrics (as C2NP's evaluation defines them), in the files' own frame:
  rmsd               sqrt(sum |p_i - g_i|^2 / (3N)), row i with row i, no alignment; null if counts differ
  hausdorff          symmetric Hausdorff distance, Å (species and order ignored)
  hull_volume_*      convex-hull volumes, Å^3, and delta_hull_volume = |difference|
  rdf_error          sum of squared differences of the 128-bin [0, 10] Å density-normalised
                     pair-distance histograms (null if a particle has no pair within 10 Å)
  volume_ratio       hull volume of PRED / (4/3 pi R^3); null without --radius
  aligned            after the best atom assignment (per species) and rigid superposition (no reflection):
                     per-atom rmsd and max_displacement of the matched pairs, Å, and matched_fraction =
                     pairs within ${DEFAULT_MATCH_TOLERANCE} Å / max(n_pred, n_truth)
  --radius R   particle radius in Å (for volume_ratio)
`;

export function loadParticle(path: string, warn: (line: string) => void): Particle {
  const name = path === '-' ? 'stdin' : path;
  const result = parseParticleFile(readInputText(path), path === '-' ? '' : basename(path));
  if (!result.ok) throw new CliError(parseFailure(name, result));
  for (const w of result.warnings) warn(`warning: ${w}`);
  if (result.particles.length === 0) throw new CliError(`${name} holds no structure`);
  if (result.particles.length > 1) warn(`warning: ${name} holds ${result.particles.length} structures; comparing the first`);
  const { symbols, coords } = result.particles[0];
  if (symbols.length === 0) throw new CliError(`${name} holds no atoms`);
  return { symbols, coords };
}

/**
 * From this many atoms (either particle) the aligned comparison runs in a worker thread, beside the rest. Below it
 * the thread costs more than it saves: its start-up and its own cold compilation of the matcher take about 0.15 s of
 * CPU, as much as the whole alignment of 8,729 atoms in this thread, and when the other cores are busy that is added
 * to the run instead of overlapped (bench/c2np-metrics.bench.ts measures both, idle and with one core busy).
 */
const PARALLEL_ALIGN_ATOMS = 20_000;

export async function runMetrics(argv: string[], warn: (line: string) => void): Promise<string> {
  const { positionals, options } = parseArgs(argv, [{ name: 'radius', kind: 'string' }]);
  if (positionals.length !== 2) throw new CliError('metrics takes PRED and TRUTH (see structlab metrics --help)');
  const radius = options.radius === undefined ? undefined : numberOption(options, 'radius', 0, 1e-6, 1e6);
  const [predPath, truthPath] = positionals;
  // Judge the size from the files before parsing, so the thread starts while this one parses.
  const big = [predPath, truthPath].some((p) => {
    try {
      return statSync(p).size > PARALLEL_ALIGN_ATOMS * 30;
    } catch {
      return false;
    }
  });
  const worker = big ? await startAlignWorker() : null;
  try {
    const pred = loadParticle(predPath, warn),
      truth = loadParticle(truthPath, warn);
    worker?.thread.postMessage({ pred, truth, tolerance: DEFAULT_MATCH_TOLERANCE } satisfies AlignRequest);
    const m = forwardMetrics(pred, truth, { radius, aligned: !worker });
    let aligned = m.aligned;
    if (worker) {
      const r = await worker.result.catch((e: unknown): AlignWorkerResult => ({
        ok: false,
        error: errorText(e),
      }));
      if (r.ok) aligned = r;
      else {
        warn(`warning: the worker thread failed (${r.error}); aligning in this thread`);
        const a = alignParticles(pred, truth, DEFAULT_MATCH_TOLERANCE);
        aligned = { rmsd: a.rmsd, max_displacement: a.maxDisplacement, matched_fraction: a.matchedFraction, tolerance: a.tolerance };
      }
    }
    return toStrictJson({
      n_pred: m.n_pred,
      n_truth: m.n_truth,
      rmsd: m.rmsd,
      hausdorff: m.hausdorff,
      hull_volume_pred: m.hull_volume_pred,
      hull_volume_truth: m.hull_volume_truth,
      delta_hull_volume: m.delta_hull_volume,
      rdf_error: m.rdf_error,
      volume_ratio: m.volume_ratio,
      aligned: aligned && { rmsd: aligned.rmsd, max_displacement: aligned.max_displacement, matched_fraction: aligned.matched_fraction },
    });
  } finally {
    void worker?.thread.terminate();
  }
}

async function startAlignWorker(): Promise<{ thread: Worker; result: Promise<AlignWorkerResult> } | null> {
  try {
    // Loaded here only: node:worker_threads adds ~2 ms to the start-up of every run that has no use for it.
    const { startCliWorker, workerResult } = await import('../threads.ts');
    const thread = startCliWorker('metrics-align-worker', null);
    const result = workerResult<AlignWorkerResult>(thread);
    // When this thread fails first (a refused input), the worker is ended and its promise rejects unawaited.
    result.catch(() => undefined);
    return { thread, result };
  } catch {
    return null; // no threads here: align in this thread
  }
}
