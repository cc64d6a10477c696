/**
 * Worker threads for CLI commands, from the bundle (.cli-build/<name>.mjs, built by scripts/build-cli.mjs) or,
 * in an edited checkout, from the TypeScript sources through tsx (src/cli/commands/<name>.ts).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, parentPort, type ResourceLimits, type TransferListItem } from 'node:worker_threads';
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
 * Starts a worker thread. `resourceLimits` caps its heap: a thread past it ends with an
 * ERR_WORKER_OUT_OF_MEMORY error event instead of bringing the whole process down.
 */
export function startCliWorker(
  name: string,
  workerData: unknown,
  transferList: TransferListItem[] = [],
  resourceLimits?: ResourceLimits,
): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const env = { ...process.env, [LIMITS_VARIABLE]: JSON.stringify(limitOverrides()) };
  const options = { workerData, transferList, env, ...(resourceLimits ? { resourceLimits } : {}) };
  if (!fromSource) {
    // In the bundle this code may sit in .cli-build/chunks/; the worker entries are in .cli-build/.
    const entry = [`./${name}.mjs`, `../${name}.mjs`].map((p) => new URL(p, import.meta.url)).find((u) => existsSync(fileURLToPath(u)));
    if (!entry) throw new Error(`the worker entry ${name}.mjs is missing from the CLI bundle (run npm ci or node scripts/build-cli.mjs)`);
    return new Worker(entry, options);
  }
  const entry = new URL(`./commands/${name}.ts`, import.meta.url);
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

/** A worker thread of `runPool` reports ready, then answers each task with its result or the error it raised. */
export type PoolReply<R> = { ready: true } | { k: number; result: R } | { k: number; error: string };

/**
 * The worker side of `runPool`: adopts the command's limits, then answers every `{k, task}` message with
 * `handle(task)`. Called once at the top of a worker entry, after its own set-up.
 */
export function servePool<T, R>(handle: (task: T) => R): void {
  const port = parentPort!;
  port.on('message', ({ k, task }: { k: number; task: T }) => {
    let reply: PoolReply<R>;
    try {
      reply = { k, result: handle(task) };
    } catch (e) {
      reply = { k, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies PoolReply<R>);
}

export interface PoolOptions<T, R> {
  /** The worker entry (src/cli/commands/<entry>.ts, .cli-build/<entry>.mjs), which calls `servePool`. */
  entry: string;
  /** Handed to every thread once (the inputs, so tasks can be small: indices). */
  workerData: unknown;
  tasks: readonly T[];
  threads: number;
  /** The same work in this thread: used when threads cannot start or one dies (results are the same either way). */
  local: (task: T) => R;
  onResult: (k: number, result: R) => void;
  warn: (line: string) => void;
}

/** Tasks a pool thread holds at once: one running, one waiting, so it never idles on the round trip. */
export const IN_FLIGHT = 2;
/** Heap of one pool thread: past it the thread ends with an error (its tasks go elsewhere), never the process. */
export const POOL_HEAP_MB = 2048;

/**
 * Runs independent tasks in up to `threads` worker threads, each task once; `onResult` sees each result as it
 * comes (in any order: callers place results by `k`). A thread that fails to start or dies hands its tasks back;
 * when no thread is left the rest run here, with one warning. An exception a task raises in a thread rejects, as
 * it would have in this thread.
 */
export function runPool<T, R>(o: PoolOptions<T, R>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const queue: number[] = o.tasks.map((_, k) => k);
    const done = new Set<number>();
    const live = new Set<Worker>();
    let finished = false;
    let warned = false;
    const finish = (error?: unknown) => {
      if (finished) return;
      finished = true;
      for (const w of live) void w.terminate();
      live.clear();
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error(String(error)));
    };
    const record = (k: number, result: R) => {
      if (done.has(k)) return;
      done.add(k);
      o.onResult(k, result);
      if (done.size === o.tasks.length) finish();
    };
    const runHere = (why: string) => {
      if (!warned) o.warn(`warning: worker threads stopped (${why}); the remaining work runs in this thread`);
      warned = true;
      try {
        while (queue.length > 0) {
          const k = queue.shift()!;
          if (!done.has(k)) record(k, o.local(o.tasks[k]));
        }
      } catch (e) {
        finish(e);
      }
    };
    const launch = () => {
      if (finished) return; // e.g. an earlier start failed and this thread already did the work
      let worker: Worker;
      try {
        worker = startCliWorker(o.entry, o.workerData, [], { maxOldGenerationSizeMb: POOL_HEAP_MB });
      } catch (e) {
        if (live.size === 0) runHere(e instanceof Error ? e.message : String(e));
        return;
      }
      live.add(worker);
      const held = new Set<number>();
      const feed = () => {
        while (!finished && held.size < IN_FLIGHT && queue.length > 0) {
          const k = queue.shift()!;
          held.add(k);
          worker.postMessage({ k, task: o.tasks[k] });
        }
        if (held.size === 0 && queue.length === 0) {
          live.delete(worker);
          void worker.terminate();
        }
      };
      const lost = (why: string) => {
        if (!live.has(worker)) return;
        live.delete(worker);
        worker.removeAllListeners();
        worker.on('error', () => {
          /* ending it may still report */
        });
        void worker.terminate();
        queue.unshift(...[...held].filter((k) => !done.has(k)));
        if (live.size === 0 && !finished && done.size < o.tasks.length) runHere(why);
      };
      worker.on('message', (msg: PoolReply<R>) => {
        if (finished) return void worker.terminate();
        if ('ready' in msg) return feed();
        held.delete(msg.k);
        if ('error' in msg) return finish(new Error(msg.error));
        record(msg.k, msg.result);
        feed();
      });
      worker.on('error', (e) => lost((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out of memory' : e.message));
      worker.on('exit', (code) => lost(`a thread exited with code ${code}`));
    };
    if (o.tasks.length === 0) return finish();
    for (let t = 0; t < Math.min(o.threads, o.tasks.length); t++) launch();
  });
}
