/** Node-only: initialise moyo-wasm synchronously from the package's wasm bytes. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { initMoyoSync, setMoyoBytesLoader } from '../core/symmetry/moyo.ts';

// Read here rather than through src/lib/symmetry.ts (moyoWasmBytesInNode, the same few lines): that module re-exports
// the symmetry analysis, which would put the whole symmetry engine (0.5 MB of bundle, its tables) into the start-up of
// every CLI command and worker.
const wasmBytes = (): Uint8Array<ArrayBuffer> => {
  const pkgJson = createRequire(import.meta.url).resolve('@spglib/moyo-wasm/package.json');
  return new Uint8Array(readFileSync(join(dirname(pkgJson), 'moyo_wasm_bg.wasm')));
};

export function initMoyoNode(): void {
  initMoyoSync(wasmBytes());
}

/** Compiles moyo on first use only (commands that never touch symmetry skip the ~40 ms compile). */
export function initMoyoNodeLazily(): void {
  setMoyoBytesLoader(wasmBytes);
}
