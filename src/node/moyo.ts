/** Node-only: initialise moyo-wasm synchronously from the package's wasm bytes. */
import { initMoyoSync, setMoyoBytesLoader } from '../core/symmetry/moyo.ts';
import { moyoWasmBytesInNode } from '../lib/symmetry.ts';

const wasmBytes = (): Uint8Array<ArrayBuffer> => moyoWasmBytesInNode()!;

export function initMoyoNode(): void {
  initMoyoSync(wasmBytes());
}

/** Compiles moyo on first use only (commands that never touch symmetry skip the ~40 ms compile). */
export function initMoyoNodeLazily(): void {
  setMoyoBytesLoader(wasmBytes);
}
