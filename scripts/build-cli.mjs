#!/usr/bin/env node
// Bundles the `structlab` CLI into one ES module (runs on `npm ci` / `npm install` through `prepare`),
// so a command starts in ~0.15 s instead of compiling TypeScript on every run. bin/structlab.mjs
// uses the bundle only while it is newer than every source file it was built from (.cli-build/inputs.json), and
// falls back to tsx otherwise.
import { build } from 'esbuild';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_INPUTS } from '../bin/cli-bundle.mjs';
import { ensureKernels } from './build-kernels.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Packages loaded on first use instead of at start-up: every command that reads structure files loads the format
 * registry, and with it fflate (gunzip, unzip), whose module start-up builds its Huffman tables (~10 ms); munkres
 * (~3 ms) serves only alignments that need the Hungarian step. A stand-in module exports the names the sources
 * import and loads the package (its CommonJS build, synchronously) when one is first called or constructed.
 */
const LAZY_PACKAGES = { fflate: { classes: ['Gunzip', 'Inflate'] }, munkres: { functions: ['munkres'] } };
const lazyPackages = {
  name: 'lazy-packages',
  setup(b) {
    b.onResolve({ filter: /^(fflate|munkres)$/ }, (args) =>
      args.namespace === 'lazy-package' ? { path: args.path, external: true } : { path: args.path, namespace: 'lazy-package' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-package' }, ({ path }) => {
      const { classes = [], functions = [] } = LAZY_PACKAGES[path];
      const load = `let m;\nconst load = () => (m ??= createRequire(import.meta.url)(${JSON.stringify(path)}));\n`;
      const exports = [
        // A constructor that returns an object gives that object to `new`: callers get the package's own instance.
        ...classes.map((c) => `export function ${c}(...a) {\n  return new (load().${c})(...a);\n}\n`),
        ...functions.map((f) => `export function ${f}(...a) {\n  return load().${f}(...a);\n}\n`),
      ];
      return { contents: `import { createRequire } from 'node:module';\n${load}${exports.join('')}`, loader: 'js', resolveDir: root };
    });
  },
};

// The WebAssembly kernels the bundle embeds, compiled first when their sources changed.
await ensureKernels();
// Chunk names carry content hashes: start clean so old chunks do not pile up.
rmSync(join(root, '.cli-build'), { recursive: true, force: true });
const { metafile } = await build({
  // Worker threads (atomworld eval, metrics, gen) need their own entries next to the CLI bundle.
  entryPoints: {
    structlab: join(root, 'src', 'cli', 'main.ts'),
    'atomworld-eval-worker': join(root, 'src', 'cli', 'commands', 'atomworld-eval-worker.ts'),
    'metrics-align-worker': join(root, 'src', 'cli', 'commands', 'metrics-align-worker.ts'),
    'gen-worker': join(root, 'src', 'cli', 'commands', 'gen-worker.ts'),
    'c2np-eval-worker': join(root, 'src', 'cli', 'commands', 'c2np-eval-worker.ts'),
  },
  outdir: join(root, '.cli-build'),
  // Input paths in the metafile relative to the repository, whatever the working directory.
  absWorkingDir: root,
  outExtension: { '.js': '.mjs' },
  // Commands are imported lazily by main.ts; splitting puts each in its own chunk.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Packages are bundled too (an import resolved through a package's exports map and loaded as a module of its own
  // cost 3–4% of a `structlab metrics` run, measured with quickhull3d), except moyo-wasm, whose module is read from
  // the package's folder (src/node/moyo.ts), and the lazy ones above.
  external: ['@spglib/moyo-wasm'],
  plugins: [lazyPackages],
  metafile: true,
  logLevel: 'warning',
});
// The source files the bundle was built from (bin/cli-bundle.mjs: it is current while none is newer than it).
// Written last: a build that fails before this leaves no list, and the bundle counts as stale.
// The kernels' sources count too: the bundle embeds what they compile to (src/core/math/kernels-binary.generated.ts).
const kernelSources = readdirSync(join(root, 'kernels'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `kernels/${f}`);
const inputs = [...Object.keys(metafile.inputs).filter((p) => p.startsWith('src/')), ...kernelSources];
writeFileSync(join(root, CLI_INPUTS), `${JSON.stringify(inputs)}\n`);
