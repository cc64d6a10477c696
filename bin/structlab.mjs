#!/usr/bin/env node
// The `structlab` command. Runs the bundle that `npm ci` builds (scripts/build-cli.mjs) when it is
// newer than every source file, or always where there are no sources (the installed package);
// otherwise compiles the TypeScript on the fly through tsx, so an edited checkout never runs stale code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, '.cli-build', 'structlab.mjs');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function bundleIsFresh() {
  if (!existsSync(join(root, 'src'))) return true;
  try {
    return statSync(bundle).mtimeMs > newestSource(join(root, 'src'));
  } catch {
    return false;
  }
}

let main;
if (bundleIsFresh()) {
  ({ main } = await import(bundle));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
