#!/usr/bin/env node
// The `structlab` command. Runs the bundle that `npm ci` builds (scripts/build-cli.mjs) when it is
// newer than every source file it was built from, or always where there are no sources (the installed package);
// otherwise compiles the TypeScript on the fly through tsx, so an edited checkout never runs stale code.
import { CLI_BUNDLE, cliBundleIsFresh } from './cli-bundle.mjs';

let main, streamFailureLine;
if (cliBundleIsFresh()) {
  ({ main, streamFailureLine } = await import(CLI_BUNDLE));
} else {
  // An edited kernel (kernels/*.ts) is compiled first, as the build would (scripts/build-kernels.mjs).
  await (await import('../scripts/build-kernels.mjs')).ensureKernels();
  const { register } = await import('tsx/esm/api');
  register();
  ({ main, streamFailureLine } = await import('../src/cli/main.ts'));
}
// A write to standard output that fails (> /dev/full: ENOSPC; | head -c 1: EPIPE) arrives as an 'error' event,
// before or after main returns; unhandled it ends the process with a stack trace. One sentence and exit 2 instead,
// as for a file that cannot be written (README, "Exit codes"). Standard error failing leaves nowhere to say it.
let stdoutFailed = false;
process.stdout.on('error', (e) => {
  if (stdoutFailed) return;
  stdoutFailed = true;
  process.stderr.write(streamFailureLine('standard output', e));
  process.exitCode = 2;
});
process.stderr.on('error', () => {
  process.exitCode ||= 2;
});
const code = await main(process.argv.slice(2), {
  stdout: (text) => {
    if (!stdoutFailed) process.stdout.write(text);
  },
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = stdoutFailed ? 2 : code;
