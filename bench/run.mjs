#!/usr/bin/env node
// `npm run bench`: core benchmarks in Node, then the rendering and first-view benchmarks in headless Chromium
// against a `vite preview` of a fresh build. Every figure is a median; see each script's header.
import { spawn, spawnSync } from 'node:child_process';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run('npx', ['tsx', 'bench/core.bench.ts']);
run('npx', ['tsx', 'bench/symmetry.bench.ts']);
run('npx', ['tsx', 'bench/neighbors.bench.ts']);
run('npx', ['tsx', 'bench/c2np-metrics.bench.ts']);
run('npx', ['tsx', 'bench/c2np-inverse.bench.ts']);
run('npx', ['tsx', 'bench/fem.bench.ts']);
run('npx', ['tsx', 'bench/fem-cli.bench.ts']);
run('npx', ['tsx', 'bench/atomworld.bench.ts']);
run('npx', ['tsx', 'bench/generations.bench.ts']);
run('npx', ['tsx', 'bench/coverage.bench.ts']);
run('npx', ['vite', 'build', '--logLevel', 'warn']);

const port = 4179;
const url = `http://127.0.0.1:${port}/`;
const preview = spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { stdio: 'ignore' });
try {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`vite preview did not answer on ${url}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const r = spawnSync('node', ['bench/render/run.mjs', '--url', url, ...process.argv.slice(2)], { stdio: 'inherit' });
  // First view of #/structure: time to the first frame with atoms, and the JS and wasm loaded by then.
  const f = spawnSync('node', ['bench/render/first-view.mjs', '--url', url], { stdio: 'inherit' });
  // Trajectory playback: frames per second of a streamed 10k-atom x 1,000-frame run, and the memory it takes.
  const t = spawnSync('npx', ['tsx', 'bench/trajectory.bench.ts', '--url', url], { stdio: 'inherit' });
  process.exitCode = (r.status ?? 1) || (f.status ?? 1) || (t.status ?? 1);
} finally {
  preview.kill('SIGTERM');
}
