/**
 * Worker threads for CLI commands, from the bundle (.cli-build/<name>.mjs, built by scripts/build-cli.mjs) or,
 * in an edited checkout, from the TypeScript sources through tsx (src/cli/commands/<name>.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';
import { limitOverrides, overrideLimits, setLimitHint } from '../core/limits.ts';
import { cliLimitHint } from './errors.ts';

/** Environment variable through which a thread inherits the limits its command was run with (--limit). */
const LIMITS_VARIABLE = 'STRUCTLAB_LIMIT_OVERRIDES';

/** Called first in every worker entry: the command's --limit overrides and the CLI's way of naming them. */
export function adoptCommandLimits(): void {
  setLimitHint(cliLimitHint);
  const inherited = process.env[LIMITS_VARIABLE];
  if (inherited) overrideLimits(JSON.parse(inherited) as Record<string, number>);
}

/**
 * Starts a worker thread: the entry `name` of the CLI, or the module at a URL (through tsx when it is TypeScript).
 * `resourceLimits` caps its heap: a thread past it ends with an ERR_WORKER_OUT_OF_MEMORY error event instead of
 * bringing the whole process down.
 */
export function startCliWorker(
  name: string | URL,
  workerData: unknown,
  transferList: TransferListItem[] = [],
  resourceLimits?: ResourceLimits,
): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const env = { ...process.env, [LIMITS_VARIABLE]: JSON.stringify(limitOverrides()) };
  const options = { workerData, transferList, env, ...(resourceLimits ? { resourceLimits } : {}) };
  if (typeof name === 'string' && !fromSource) {
    // In the bundle this code may sit in .cli-build/chunks/; the worker entries are in .cli-build/.
    const entry = [`./${name}.mjs`, `../${name}.mjs`].map((p) => new URL(p, import.meta.url)).find((u) => existsSync(fileURLToPath(u)));
    if (!entry) throw new Error(`the worker entry ${name}.mjs is missing from the CLI bundle (run npm ci or node scripts/build-cli.mjs)`);
    return new Worker(entry, options);
  }
  const entry = typeof name === 'string' ? new URL(`./commands/${name}.ts`, import.meta.url) : name;
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  // From the sources the thread registers tsx before loading its entry.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

/** The worker's one answer: its first message, or a rejection if it fails or exits without one. */
export function workerResult<T>(worker: Worker): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    worker.once('message', (m: T) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`worker thread exited (${code}) without a result`)));
  });
}
