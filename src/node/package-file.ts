/** Node-only: locate a file shipped with the package, from the sources or from the CLI bundle alike. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of `relativePath` (e.g. "datasets/c2np/rotation_sets.json") in the nearest enclosing package folder that has it. */
export function packageFile(relativePath: string): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, relativePath);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return join(start, relativePath); // not found: the caller's read names it
  }
}
