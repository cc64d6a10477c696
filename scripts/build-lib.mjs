#!/usr/bin/env node
// Builds the library that package.json's `exports` map publishes (`npm pack` runs it through `prepack`):
// each entry of src/lib to plain ES modules in lib/ (esbuild; shared code in lib/chunks, so every subpath
// sees the same symmetry-engine state), and their type declarations in lib/types (tsc). Dependencies stay
// imports of the installed packages.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureKernels } from './build-kernels.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'lib');
rmSync(out, { recursive: true, force: true });
await ensureKernels();
await build({
  entryPoints: readdirSync(join(root, 'src', 'lib'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, 'src', 'lib', f)),
  outdir: out,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  // Neutral: the same files load in Node and in browser bundlers (initSymmetry probes for Node at run time).
  platform: 'neutral',
  format: 'esm',
  target: 'es2022',
  packages: 'external',
  logLevel: 'warning',
});
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.lib.json')], {
  stdio: 'inherit',
});
