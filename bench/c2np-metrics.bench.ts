/**
 * C2NP metrics benchmark on an R = 30 Å pair (8,729 atoms): the true particle (sample R30 rot_0) against
 * a copy with N(0, 0.1²) Å noise per coordinate, and against its rotated copy rot_1. Prints medians (ms) of
 * the `structlab metrics` core (upstream metrics, and with the aligned comparison), and, when python3 with
 * numpy/scipy is present, the upstream definitions (bench/c2np_reference.py) timed as a process, with ratios, on an
 * idle machine and with one core kept busy (issue 13: ≤ 0.5 of the reference's time in both; issue 27: ≤ 0.3).
 * Run: npx tsx bench/c2np-metrics.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { forwardMetrics, type Particle } from '../src/core/tasks/c2np/metrics.ts';
import { busyCore, median, timeMedian } from './stats.ts';
import { REFERENCE } from '../scripts/support/paths.ts';
import { CLI_ROOT, cliBundleIsFresh } from '../bin/cli-bundle.mjs';

const DIR = join(REFERENCE, 'golden', 'c2np', 'sample', 'quaternions', 'illustrative_KMgH3_a4.0213_Borigin', 'R30', 'xyz');
const RADIUS = 30;

function readXyz(path: string): Particle {
  const rows = readFileSync(path, 'utf8')
    .split('\n')
    .slice(2)
    .map((l) => l.trim().split(/\s+/))
    .filter((r) => r.length >= 4);
  return { symbols: rows.map((r) => r[0]), coords: new Float64Array(rows.flatMap((r) => r.slice(1, 4).map(Number))) };
}

const truth = readXyz(join(DIR, 'rot_0.xyz'));
const rotated = readXyz(join(DIR, 'rot_1.xyz'));
let seed = 12345;
const uniform = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) + 0.5) / 2 ** 31;
const noisy: Particle = {
  symbols: truth.symbols,
  coords: truth.coords.map((v) => v + 0.1 * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform())),
};

// Time the bundled CLI, as `npm ci` leaves it. bin/structlab.mjs falls back to tsx (~0.15 s more a run) when a
// source file is newer than the bundle: on a checkout others edit meanwhile, the bundle is rebuilt, untimed, before
// any run it would otherwise be stale for (bin/cli-bundle.mjs, the check bin/structlab.mjs makes).
let rebuilds = 0;
function ensureFreshBundle(): void {
  if (cliBundleIsFresh()) return;
  spawnSync(process.execPath, [join(CLI_ROOT, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });
  rebuilds++;
}
ensureFreshBundle();

const work = mkdtempSync(join(tmpdir(), 'c2np-bench-'));
const noisyPath = join(work, 'noisy.xyz');
writeFileSync(
  noisyPath,
  `${noisy.symbols.length}\nnoisy\n` +
    `${noisy.symbols.map((s, i) => `${s} ${[0, 1, 2].map((d) => String(noisy.coords[3 * i + d])).join(' ')}`).join('\n')}\n`,
);

/** Medians (ms) of 7 interleaved runs of `structlab metrics` (the bundle, as bin/structlab.mjs runs it) and the reference. */
function interleaved(predPath: string): { cli: number; python: number } {
  const cliWall: number[] = [],
    pyWall: number[] = [];
  for (let k = 0; k < 7; k++) {
    ensureFreshBundle();
    let t0 = performance.now();
    const cli = spawnSync(
      process.execPath,
      [resolve(import.meta.dirname, '..', 'bin', 'structlab.mjs'), 'metrics', predPath, join(DIR, 'rot_0.xyz'), '--radius', String(RADIUS)],
      { encoding: 'utf8' },
    );
    cliWall.push(performance.now() - t0);
    if (cli.status !== 0) throw new Error(`structlab metrics failed: ${cli.stderr}`);
    t0 = performance.now();
    const py = spawnSync('python3', [resolve(import.meta.dirname, 'c2np_reference.py'), predPath, join(DIR, 'rot_0.xyz'), String(RADIUS)], {
      encoding: 'utf8',
    });
    pyWall.push(performance.now() - t0);
    if (py.status !== 0) throw new Error(`c2np_reference.py failed: ${py.stderr}`);
  }
  return { cli: median(cliWall), python: median(pyWall) };
}

const results: Record<string, unknown> = { atoms: truth.symbols.length };
// Which python3 the reference runs on (the first on PATH; its numpy/scipy versions set its speed).
const which = spawnSync('python3', ['-c', 'import sys, numpy, scipy; print(sys.executable, numpy.__version__, scipy.__version__)'], {
  encoding: 'utf8',
});
if (which.status === 0) results.python = which.stdout.trim();
const pairs: [string, string, Particle][] = [
  ['noise_0.1A', noisyPath, noisy],
  ['rot1_vs_rot0', join(DIR, 'rot_1.xyz'), rotated],
];
try {
  for (const [name, predPath, pred] of pairs) {
    const upstream = timeMedian(() => forwardMetrics(pred, truth, { radius: RADIUS, aligned: false }), 7, 1);
    const withAligned = timeMedian(() => forwardMetrics(pred, truth, { radius: RADIUS }), 5, 1);
    const entry: Record<string, unknown> = {
      ts_upstream_metrics_ms: upstream.ms,
      ts_with_aligned_ms: withAligned.ms,
      aligned: withAligned.result.aligned,
      rdf_error: upstream.result.rdf_error,
      hausdorff: upstream.result.hausdorff,
    };
    const python = spawnSync('python3', ['-c', 'import numpy, scipy'], { encoding: 'utf8' });
    if (python.status === 0) {
      const wall: number[] = [],
        compute: number[] = [];
      let reference: Record<string, number | null> = {};
      for (let k = 0; k < 5; k++) {
        const t0 = performance.now();
        const r = spawnSync(
          'python3',
          [resolve(import.meta.dirname, 'c2np_reference.py'), predPath, join(DIR, 'rot_0.xyz'), String(RADIUS)],
          { encoding: 'utf8' },
        );
        wall.push(performance.now() - t0);
        if (r.status !== 0) throw new Error(`c2np_reference.py failed: ${r.stderr}`);
        reference = JSON.parse(r.stdout);
        compute.push(reference.compute_ms as number);
      }
      entry.python_process_ms = median(wall);
      entry.python_compute_ms = median(compute);
      // The acceptance figure: whole `structlab metrics` process against the whole Python process, runs
      // interleaved so that load on a shared machine hits both alike; then again with one core kept busy.
      const idle = interleaved(predPath);
      entry.cli_process_ms = idle.cli;
      entry.python_process_interleaved_ms = idle.python;
      entry.ratio_cli_over_python_process = idle.cli / idle.python;
      const busy = busyCore();
      try {
        const loaded = interleaved(predPath);
        entry.other_core_busy = { cli_process_ms: loaded.cli, python_process_ms: loaded.python, ratio: loaded.cli / loaded.python };
      } finally {
        busy.stop();
      }
      entry.ratio_python_process_over_ts = median(wall) / upstream.ms;
      entry.ratio_python_compute_over_ts = median(compute) / upstream.ms;
      // Agreement with the reference, relative, for the headline values.
      const rel = (a: number | null, b: number | null) =>
        a === null || b === null ? null : Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
      entry.rel_diff_vs_reference = {
        hausdorff: rel(upstream.result.hausdorff, reference.hausdorff),
        rdf_error: rel(upstream.result.rdf_error, reference.rdf_error),
        hull_volume_pred: rel(upstream.result.hull_volume_pred, reference.hull_volume_pred),
        rmsd: rel(upstream.result.rmsd, reference.rmsd),
      };
    } else {
      entry.python = 'python3 with numpy/scipy not found: reference not timed';
    }
    results[name] = entry;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

results.bundle_rebuilds = rebuilds;
console.log(JSON.stringify({ suite: 'c2np-metrics', node: process.version, results }, null, 2));
