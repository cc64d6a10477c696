// Where the CLI bundle lives (scripts/build-cli.mjs writes it) and whether it is current: bin/structlab.mjs runs it
// only then, and the benches rebuild it when it is not (they must time the bundle, never the tsx fallback).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_BUNDLE = join(CLI_ROOT, '.cli-build', 'structlab.mjs');

/** Whether some file under dir was modified at or after `time` (ms); stops at the first. */
function anyModifiedSince(dir, time) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Plain concatenation, not path.join: this walk (~400 entries) runs on every start, in cold code.
    const p = `${dir}/${entry.name}`;
    if (entry.isDirectory() ? anyModifiedSince(p, time) : statSync(p).mtimeMs >= time) return true;
  }
  return false;
}

/** The bundle is newer than every source file, or there are no sources (the installed package). */
export function cliBundleIsFresh() {
  if (!existsSync(join(CLI_ROOT, 'src'))) return true;
  try {
    return !anyModifiedSince(join(CLI_ROOT, 'src'), statSync(CLI_BUNDLE).mtimeMs);
  } catch {
    return false;
  }
}
