#!/usr/bin/env node
// Bundles the `structlab` CLI (runs on `npm ci` / `npm install` through `prepare`), so a command starts in ~0.15 s
// instead of compiling TypeScript on every run: an ES module whose commands load as chunks, and each worker thread's
// entry as one CommonJS file. bin/structlab.mjs uses the bundle only while it is newer than every source file it was
// built from (.cli-build/inputs.json), and falls back to tsx otherwise.
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
  entryPoints: { structlab: join(root, 'src', 'cli', 'main.ts') },
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
/**
 * The worker threads' entries (atomworld eval, metrics, gen, c2np eval), next to the CLI bundle: each one CommonJS
 * file with all it imports, moyo-wasm's JavaScript included (an ES module package, which `require` cannot load here;
 * its WebAssembly is still read from the package's folder, src/node/moyo.ts). A thread loads its entry with the
 * CommonJS loader, one synchronous read and compile, where an ES module entry first set up the module loader and then
 * read its chunks one message to the file system's thread pool at a time: the judging thread of `atomworld eval` was
 * ready in 60 ms against 80 ms from the chunks (69 ms from one ES module file), with 0.89x the CPU. `import.meta`
 * becomes the file's URL, and `resolve` from it (threads.ts asks only when it runs from the sources).
 */
const workers = await build({
  entryPoints: Object.fromEntries(
    ['atomworld-eval-worker', 'metrics-align-worker', 'gen-worker', 'c2np-eval-worker'].map((name) => [
      name,
      join(root, 'src', 'cli', 'commands', `${name}.ts`),
    ]),
  ),
  outdir: join(root, '.cli-build'),
  absWorkingDir: root,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  define: { 'import.meta.url': 'importMetaUrl', 'import.meta.resolve': 'importMetaResolve' },
  banner: {
    js: [
      // First, as esbuild would put it: the sources are ES modules, strict throughout.
      "'use strict';",
      "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;",
      "const importMetaResolve = (specifier) => require('node:url').pathToFileURL(require.resolve(specifier)).href;",
    ].join('\n'),
  },
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
const sources = new Set([...Object.keys(metafile.inputs), ...Object.keys(workers.metafile.inputs)].filter((p) => p.startsWith('src/')));
const inputs = [...sources, ...kernelSources];
writeFileSync(join(root, CLI_INPUTS), `${JSON.stringify(inputs)}\n`);
