/** Node-only: initialise moyo-wasm synchronously from the package's wasm bytes. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { initMoyoSync } from '../core/symmetry/moyo.ts';

export function initMoyoNode(): void {
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve('@spglib/moyo-wasm/package.json'));
  initMoyoSync(readFileSync(join(pkgDir, 'moyo_wasm_bg.wasm')));
}
