// Where the CLI bundle lives (scripts/build-cli.mjs writes it) and whether it is current: bin/structlab.mjs runs it
// only then, and the benches rebuild it when it is not (they must time the bundle, never the tsx fallback).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLI_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI_BUNDLE = join(CLI_ROOT, '.cli-build', 'structlab.mjs');
/** The source files the bundle was built from, relative to the repository (a JSON list; the build writes it last). */
export const CLI_INPUTS = join('.cli-build', 'inputs.json');

/**
 * Whether the bundle under `root` is newer than every source file it was built from (the list the build wrote),
 * or there are no sources (the installed package). A file added since is only bundled once an input imports it, and
 * that input is then newer; a file the UI alone uses is not an input, so editing it keeps the bundle. Stale when
 * the list or an input is missing. About 250 stat calls on every start of a checkout, in cold code.
 */
export function bundleIsFresh(root) {
  if (!existsSync(join(root, 'src'))) return true;
  try {
    const built = statSync(join(root, '.cli-build', 'structlab.mjs')).mtimeMs;
    const inputs = JSON.parse(readFileSync(join(root, CLI_INPUTS), 'utf8'));
    // Plain concatenation, not path.join: cold code on every start.
    for (const input of inputs) if (statSync(`${root}/${input}`).mtimeMs >= built) return false;
    return inputs.length > 0;
  } catch {
    return false;
  }
}

/** bundleIsFresh for this checkout's CLI. */
export const cliBundleIsFresh = () => bundleIsFresh(CLI_ROOT);
