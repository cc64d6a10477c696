#!/usr/bin/env node
// Bundles the `structlab` CLI into one ES module (runs on `npm ci` / `npm install` through `prepare`),
// so a command starts in ~0.15 s instead of compiling TypeScript on every run. bin/structlab.mjs
// uses the bundle only while it is newer than every source file, and falls back to tsx otherwise.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Chunk names carry content hashes: start clean so old chunks do not pile up.
rmSync(join(root, '.cli-build'), { recursive: true, force: true });
await build({
  // Worker threads (atomworld eval, metrics, gen) need their own entries next to the CLI bundle.
  entryPoints: {
    structlab: join(root, 'src', 'cli', 'main.ts'),
    'atomworld-eval-worker': join(root, 'src', 'cli', 'commands', 'atomworld-eval-worker.ts'),
    'metrics-align-worker': join(root, 'src', 'cli', 'commands', 'metrics-align-worker.ts'),
    'gen-worker': join(root, 'src', 'cli', 'commands', 'gen-worker.ts'),
    'c2np-eval-worker': join(root, 'src', 'cli', 'commands', 'c2np-eval-worker.ts'),
  },
  outdir: join(root, '.cli-build'),
  outExtension: { '.js': '.mjs' },
  // Commands are imported lazily by main.ts; splitting puts each in its own chunk.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
