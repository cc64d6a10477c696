#!/usr/bin/env node
/**
 * `node scripts/run-parallel.mjs A B …`: runs `npm run A`, `npm run B`, … at once and exits non-zero when any
 * fails. npm test uses it for its single-threaded steps (the type check, the ESLint / Prettier / knip gate, the
 * lab's build for the e2e tests), which otherwise leave the second core idle. Each step's output is held and
 * printed whole when it ends, so the log reads as if they ran one after another.
 */
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs SCRIPT [SCRIPT …] (names of package.json scripts)');
  process.exit(2);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const codes = await Promise.all(
  scripts.map(
    (name) =>
      new Promise((resolve) => {
        const child = spawn(npm, ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        const chunks = [];
        child.stdout.on('data', (d) => chunks.push(d));
        child.stderr.on('data', (d) => chunks.push(d));
        child.on('error', (e) => {
          process.stdout.write(`npm run ${name}: ${e.message}\n`);
          resolve(1);
        });
        child.on('close', (code, signal) => {
          process.stdout.write(Buffer.concat(chunks));
          if (code !== 0) process.stdout.write(`npm run ${name} failed (${signal ?? `exit ${code}`})\n`);
          resolve(code ?? 1);
        });
      }),
  ),
);
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
