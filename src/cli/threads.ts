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

/** The command's --limit overrides as a thread inherits them (and as an early thread is matched to its command). */
const limitsKey = () => JSON.stringify(limitOverrides());

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
  const early = workerData === null && transferList.length === 0 ? takeEarlyWorker(name, resourceLimits) : null;
  return early ?? launchCliWorker(name, workerData, transferList, resourceLimits);
}

function launchCliWorker(
  name: string | URL,
  workerData: unknown,
  transferList: TransferListItem[],
  resourceLimits?: ResourceLimits,
): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const env = { ...process.env, [LIMITS_VARIABLE]: limitsKey() };
  const options = { workerData, transferList, env, ...(resourceLimits ? { resourceLimits } : {}) };
  if (typeof name === 'string' && !fromSource) {
    // In the bundle this code may sit in .cli-build/chunks/; the worker entries are in .cli-build/.
    const entry = [`./${name}.cjs`, `../${name}.cjs`].map((p) => new URL(p, import.meta.url)).find((u) => existsSync(fileURLToPath(u)));
    if (!entry) throw new Error(`the worker entry ${name}.cjs is missing from the CLI bundle (run npm ci or node scripts/build-cli.mjs)`);
    return new Worker(entry, options);
  }
  const entry = typeof name === 'string' ? new URL(`./commands/${name}.ts`, import.meta.url) : name;
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, options);
  // From the sources the thread registers tsx before loading its entry.
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

/** A thread started before its command needed it (`startEarlyWorker`), until the command takes it or ends. */
interface EarlyWorker {
  worker: Worker;
  limits: string;
  resourceLimits: string;
  /** It failed or exited before it was taken: the command starts a fresh one instead (and sees that one fail). */
  failed: boolean;
}

const earlyWorkers = new Map<string, EarlyWorker>();

/**
 * Starts the thread of worker entry `name` (workerData null) now, so that it loads while the command still reads
 * its own modules and inputs: the first `startCliWorker` of that entry with the same limits takes it. Booting a
 * thread and compiling its entry takes 50–100 ms, and the command's own loading about as long on the other core.
 * Unreferenced until taken, so a command that fails first still exits; `endEarlyWorkers` ends what was not taken.
 * Answers the thread's threadId (null when none could start: the command's own start will say why).
 */
export function startEarlyWorker(name: string | URL, resourceLimits?: ResourceLimits): number | null {
  const key = String(name);
  if (earlyWorkers.has(key)) return null;
  let worker: Worker;
  try {
    worker = launchCliWorker(name, null, [], resourceLimits);
  } catch {
    return null; // the command's own start of it will say why
  }
  const early: EarlyWorker = { worker, limits: limitsKey(), resourceLimits: JSON.stringify(resourceLimits ?? null), failed: false };
  const lost = () => {
    early.failed = true;
  };
  worker.on('error', lost);
  worker.on('exit', lost);
  worker.unref();
  earlyWorkers.set(key, early);
  return worker.threadId;
}

function takeEarlyWorker(name: string | URL, resourceLimits?: ResourceLimits): Worker | null {
  const early = earlyWorkers.get(String(name));
  if (!early) return null;
  earlyWorkers.delete(String(name));
  if (early.failed || early.limits !== limitsKey() || early.resourceLimits !== JSON.stringify(resourceLimits ?? null)) {
    endWorker(early.worker);
    return null;
  }
  early.worker.removeAllListeners();
  early.worker.ref();
  return early.worker;
}

/** Ends the early threads no command took (called when a command ends, so that in-process runs leave none behind). */
export function endEarlyWorkers(): void {
  for (const { worker } of earlyWorkers.values()) endWorker(worker);
  earlyWorkers.clear();
}

/** Ends a thread without waiting, and without hearing from it again (an error while it ends is ignored). */
export function endWorker(worker: Worker): void {
  worker.removeAllListeners();
  worker.on('error', () => {
    /* ending it may still report */
  });
  void worker.terminate();
}

/** The worker's one answer: its first message, or a rejection if it fails or exits without one. */
export function workerResult<T>(worker: Worker): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    worker.once('message', (m: T) => resolve(m));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`worker thread exited (${code}) without a result`)));
  });
}
