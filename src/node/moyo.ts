/** Node-only: initialise moyo-wasm synchronously from the package's wasm bytes. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { initMoyoSync, setMoyoBytesLoader } from '../core/symmetry/moyo.ts';

function wasmBytes(): Uint8Array<ArrayBuffer> {
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve('@spglib/moyo-wasm/package.json'));
  return new Uint8Array(readFileSync(join(pkgDir, 'moyo_wasm_bg.wasm')));
}

export function initMoyoNode(): void {
  initMoyoSync(wasmBytes());
}

/** Compiles moyo on first use only (commands that never touch symmetry skip the ~40 ms compile). */
export function initMoyoNodeLazily(): void {
  setMoyoBytesLoader(wasmBytes);
}
