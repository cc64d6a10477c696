#!/usr/bin/env node
/**
 * `npm run test:slurm`: docs/scale-out's Slurm scripts on a real one-node Slurm. Starts munged, slurmctld and
 * slurmd under a temporary folder (scripts/slurm/start.sh, on two free loopback ports), runs the vitest project
 * "slurm" (tests/slurm/) with SLURM_CONF pointing at that cluster, and always stops every daemon it started
 * (scripts/slurm/stop.sh), also on failure or Ctrl-C. A cluster that cannot start fails the run, never skips it:
 * CI (.ci/run) installs Debian's munge, slurmctld, slurmd and slurm-client first.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SLURM_SCRIPTS = join(REPO_ROOT, 'scripts', 'slurm');

if (process.argv.length > 2) {
  console.log('usage: npm run test:slurm\nRuns tests/slurm on a one-node Slurm cluster it starts and stops (needs munge and slurm-wlm).');
  process.exit(process.argv.includes('--help') || process.argv.includes('-h') ? 0 : 2);
}

/** Resolves when `port` can be bound on the loopback address. */
const free = (port) =>
  new Promise((done) => {
    const server = createServer();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });

/** slurmctld's port P and slurmd's P + 1, both free (a second cluster on this machine keeps its own). */
async function freePorts() {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20000 + 2 * Math.floor(Math.random() * 10000);
    if ((await free(port)) && (await free(port + 1))) return port;
  }
  throw new Error('test:slurm: found no two free loopback ports for slurmctld and slurmd');
}

const dir = mkdtempSync(join(tmpdir(), 'structlab-slurm-'));
// munged wants every folder above its socket searchable by all users (mkdtemp makes 0700).
chmodSync(dir, 0o755);
const cluster = join(dir, 'cluster');
let stopped = false;
function stop() {
  if (stopped) return 0;
  stopped = true;
  const r = spawnSync('bash', [join(SLURM_SCRIPTS, 'stop.sh'), cluster], { stdio: 'inherit' });
  if (r.status === 0) rmSync(dir, { recursive: true, force: true });
  else console.error(`test:slurm: a daemon did not stop; its files stay in ${dir}`);
  return r.status ?? 1;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stop();
    process.exit(130);
  });
}

let status = 1;
try {
  const port = await freePorts();
  const started = Date.now();
  const start = spawnSync('bash', [join(SLURM_SCRIPTS, 'start.sh'), cluster, String(port)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (start.status !== 0) {
    console.error('test:slurm: the one-node Slurm cluster did not start (above: why); install munge, slurmctld, slurmd and slurm-client.');
  } else {
    const conf = /^SLURM_CONF=(.+)$/m.exec(start.stdout)?.[1];
    console.log(`test:slurm: one-node cluster up in ${Date.now() - started} ms (SLURM_CONF=${conf})`);
    const vitest = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const child = spawnSync(process.execPath, [vitest, 'run', '--project', 'slurm'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, SLURM_CONF: conf },
    });
    status = child.status ?? 1;
  }
} finally {
  status = stop() || status;
}
process.exit(status);
