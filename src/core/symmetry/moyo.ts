/**
 * The one place that owns the moyo-wasm module. It must be initialised once per realm
 * (Node process, worker, page) before any symmetry call: in Node from the wasm bytes
 * (its default `init()` tries `fetch` on a file: URL and fails), in the browser from a URL.
 */
import * as moyoWasm from '@spglib/moyo-wasm';

let ready = false;
/** Where the wasm bytes come from when `moyo()` is first called (set by hosts that can read them synchronously). */
let lazyBytes: (() => BufferSource) | null = null;

/** Registers a synchronous source of the wasm bytes; the module is compiled on first use only. */
export function setMoyoBytesLoader(loader: () => BufferSource): void {
  lazyBytes = loader;
}

export function initMoyoSync(wasmBytes: BufferSource): void {
  if (ready) return;
  moyoWasm.initSync({ module: wasmBytes });
  ready = true;
}

export async function initMoyo(wasmUrlOrBytes?: string | URL | BufferSource): Promise<void> {
  if (ready) return;
  await moyoWasm.default(wasmUrlOrBytes === undefined ? undefined : { module_or_path: wasmUrlOrBytes });
  ready = true;
}

export const isMoyoReady = (): boolean => ready;

export type MoyoModule = typeof moyoWasm;

/** The initialised module; throws a clear error when nobody initialised it. */
export function moyo(): MoyoModule {
  if (!ready && lazyBytes) initMoyoSync(lazyBytes());
  if (!ready)
    throw new Error(
      'symmetry engine (moyo-wasm) is not initialised: await initSymmetry() once first (structlab/symmetry; inside this ' +
        'repository initMoyo or initMoyoSync)',
    );
  return moyoWasm;
}
