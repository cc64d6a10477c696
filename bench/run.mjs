#!/usr/bin/env node
// `npm run bench`: the core benchmarks (Node), then the rendering benchmark (headless Chromium).
import { spawnSync } from 'node:child_process';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run('npx', ['tsx', 'bench/core.bench.ts']);
run('npx', ['tsx', 'bench/neighbors.bench.ts']);
run('npx', ['vite', 'build', '--logLevel', 'warn']);
run('node', ['bench/render/run.mjs']);
