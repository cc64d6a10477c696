/**
 * `structlab/symmetry`: the symmetry engine (moyo-wasm) and what it answers. The engine is WebAssembly
 * and must be initialised once per realm (process, worker, page) before any symmetry call — the CIF
 * reader expands symmetry operations with it, so before parsing CIFs too. Calling it earlier throws
 * "symmetry engine (moyo-wasm) is not initialised".
 */
import { initMoyo, isMoyoReady } from '../core/symmetry/moyo.ts';

export { analyzeSymmetry, spaceGroupSymbol, standardizedCell, symmetryUnavailable, type SymmetryInfo } from '../core/symmetry/analyze.ts';

/** Where the wasm can come from: its bytes, or a URL (browsers; bundlers resolve the package's default). */
export type SymmetryWasmSource = ArrayBuffer | ArrayBufferView<ArrayBuffer> | string | URL;

/**
 * Node's copy of the wasm bytes in the installed @spglib/moyo-wasm, or null outside Node. Uses
 * `process.getBuiltinModule` (Node ≥ 20.16) rather than an `import 'node:fs'`, so this module loads in
 * browsers and bundlers unchanged.
 */
export function moyoWasmBytesInNode(): Uint8Array<ArrayBuffer> | null {
  const proc = (globalThis as { process?: NodeJS.Process }).process;
  if (!proc?.versions?.node || typeof proc.getBuiltinModule !== 'function') return null;
  const fs = proc.getBuiltinModule('node:fs');
  const { createRequire } = proc.getBuiltinModule('node:module');
  const path = proc.getBuiltinModule('node:path');
  const pkgJson = createRequire(import.meta.url).resolve('@spglib/moyo-wasm/package.json');
  return new Uint8Array(fs.readFileSync(path.join(path.dirname(pkgJson), 'moyo_wasm_bg.wasm')));
}

/**
 * Initialises the symmetry engine; await it once before reading CIFs or asking for symmetry. In Node
 * it reads the wasm from the installed @spglib/moyo-wasm package; elsewhere, without `wasm`, the
 * package's own URL is fetched. Repeated calls do nothing.
 */
export async function initSymmetry(wasm?: SymmetryWasmSource): Promise<void> {
  if (isMoyoReady()) return;
  await initMoyo(wasm ?? moyoWasmBytesInNode() ?? undefined);
}

/** True once initSymmetry (or the lab's own start-up) has run in this realm. */
export const isSymmetryReady = (): boolean => isMoyoReady();
