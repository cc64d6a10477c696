import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { ensureKernels } from './scripts/build-kernels.mjs';

/**
 * The built lab's Content-Security-Policy: everything from its own origin, nothing from the network. Scripts
 * only from files (no inline script, no eval); 'wasm-unsafe-eval' lets the moyo space-group wasm
 * (@spglib/moyo-wasm) compile; workers are files of the app (or blob: URLs); connect-src 'self' covers the
 * wasm and dataset fetches. Styles come from the bundled CSS only: React and the plot and 3D libraries set
 * styles through the CSSOM (element.style), which CSP does not govern, so no 'unsafe-inline' is needed.
 * frame-ancestors is left out because a <meta> policy may not carry it (browsers warn and ignore it).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');

/** Adds the policy to the built index.html as a <meta> (the dev server keeps React's inline refresh preamble). */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'structlab-csp',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) => {
        // An inline script in the built page would be blocked by the policy: fail the build instead.
        if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(html))
          throw new Error('the built index.html has an inline <script>, which the Content-Security-Policy blocks');
        return [
          { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CONTENT_SECURITY_POLICY }, injectTo: 'head-prepend' },
        ];
      },
    },
  };
}

/** The built JS chunks larger than `limitKb` (kB of code, as Vite's own "chunks are larger than" warning counts). */
export function oversizedChunks(bundle: Record<string, { type: string; code?: string }>, limitKb: number): string[] {
  return Object.entries(bundle)
    .filter(([, out]) => out.type === 'chunk' && (out.code ?? '').length / 1000 > limitKb)
    .map(([name, out]) => `${name} (${((out.code ?? '').length / 1000).toFixed(2)} kB)`);
}

/** Fails the build where Vite would only warn: a chunk above build.chunkSizeWarningLimit (Vite's default, 500 kB). */
function chunkSizeLimit(): Plugin {
  let limitKb = 500;
  return {
    name: 'structlab-chunk-size-limit',
    apply: 'build',
    configResolved(config) {
      limitKb = config.build.chunkSizeWarningLimit;
    },
    generateBundle(_options, bundle) {
      const over = oversizedChunks(bundle, limitKb);
      if (over.length > 0)
        this.error(
          `chunks larger than ${limitKb} kB: ${over.join(', ')}; split them (build.rolldownOptions.output.codeSplitting) rather ` +
            'than raising the limit',
        );
    },
  };
}

/** Every file under `dir`, as paths relative to it with '/' separators, sorted. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/**
 * Installable and offline: after the build has written every file (the app, its lazy pages, the workers, the wasm,
 * the embedded datasets), dist/sw.js is scripts/service-worker.js with the list of those files and a version made
 * from their contents, so a new build replaces the cache and an unchanged one keeps it. The page registers it
 * (src/main.tsx); public/manifest.webmanifest makes the lab installable.
 */
function offline(): Plugin {
  let outDir = 'dist';
  return {
    name: 'structlab-offline',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const files = filesUnder(outDir).filter((f) => f !== 'sw.js');
      const hash = createHash('sha256');
      for (const f of files)
        hash
          .update(f)
          .update('\0')
          .update(readFileSync(join(outDir, f)));
      const version = hash.digest('hex').slice(0, 16);
      const precache = ['./', ...files.filter((f) => f !== 'index.html')];
      const template = readFileSync(resolve(import.meta.dirname, 'scripts', 'service-worker.js'), 'utf8');
      writeFileSync(
        join(outDir, 'sw.js'),
        `const VERSION = ${JSON.stringify(version)};\nconst PRECACHE = ${JSON.stringify(precache, null, 1)};\n${template}`,
      );
    },
  };
}

/**
 * Compiles the WebAssembly kernels (kernels/*.ts) when their sources changed since the generated module was made, as
 * the dev server, a build or vitest starts: an edited kernel is never run stale. `npm ci` compiles them first.
 */
function kernels(): Plugin {
  return {
    name: 'structlab-kernels',
    async buildStart() {
      await ensureKernels();
    },
  };
}

export default defineConfig({
  plugins: [kernels(), react(), contentSecurityPolicy(), chunkSizeLimit(), offline()],
  worker: { format: 'es' },
  // The polyfill is a script in the entry chunk today; switched off so it can never become an inline one.
  build: {
    target: 'es2022',
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // The 3D stack is too big for one chunk under the default 500 kB warning: three's core, the rest of three
        // (renderer, controls) and react-three-fiber with its reconciler are a chunk each, loaded with the first 3D
        // page. React and zustand get their own chunk first: a group takes its modules' dependencies along, and
        // inside the fiber chunk they would make the entry import the whole 3D stack.
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|zustand|use-sync-external-store)[\\/]/, priority: 4 },
            { name: 'three-core', test: /[\\/]node_modules[\\/]three[\\/]build[\\/]three\.core\.js$/, priority: 3 },
            { name: 'three', test: /[\\/]node_modules[\\/]three[\\/]/, priority: 2 },
            {
              name: 'react-three-fiber',
              test: /[\\/]node_modules[\\/](@react-three[\\/]fiber|react-reconciler|its-fine|suspend-react|react-use-measure)[\\/]/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  // The same policy as a header, which also covers the worker scripts (a worker takes its policy from its own response).
  preview: { host: '127.0.0.1', port: 4173, strictPort: true, headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } },
  test: {
    // Every core: vitest 4's default leaves one for its main process, which on the 2-core machine ran the unit files
    // one at a time with a core idle (README, "Testing": the measurements). The e2e project runs one file at a time.
    maxWorkers: '100%',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/unit/setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          // One preview server and one Chromium for the run; each file opens its own context (tests/e2e/harness.ts).
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/e2e/setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One file at a time (SwiftShader draws on the CPU), all in one worker process: playwright-core and the
          // harness load once, not per file. Files share no state but their own labs, which setup.ts closes.
          fileParallelism: false,
          isolate: false,
          // After the unit files when one `vitest run` runs both projects (vitest groups projects by maxWorkers).
          sequence: { groupOrder: 1 },
        },
      },
      {
        // docs/scale-out's scripts on a real one-node Slurm: run only by `npm run test:slurm` (scripts/test-slurm.mjs),
        // which starts the cluster, points SLURM_CONF at it and stops it afterwards.
        extends: true,
        test: {
          name: 'slurm',
          include: ['tests/slurm/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/unit/setup.ts'],
          testTimeout: 420_000,
          fileParallelism: false,
        },
      },
      {
        // The cross-check against the real O-NNG data, which is not in the repository (no licence): run only by
        // `npm run test:reference [-- DIR]` (scripts/test-reference.mjs), which names the data folder.
        extends: true,
        test: {
          name: 'reference',
          include: ['tests/reference-suite/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/unit/setup.ts'],
          testTimeout: 120_000,
        },
      },
    ],
  },
});
