/**
 * The CLI's one pool of worker threads, for every batch command (gen csp, gen eval, c2np eval, atomworld eval).
 * Tasks are pulled from their source only when a thread has room, so a stream is never held whole; results are
 * handed on in task order, and memory is bounded by the pool (threads × tasks in flight, plus a reorder window).
 * Worker entries answer with `servePool`.
 *
 * Two ways to survive a thread that fails:
 * - by default its tasks go to the other threads, and when no thread is left the rest run in this thread (the
 *   results are the same either way: gen, c2np eval);
 * - with `isolate`, tasks may run for ever or exhaust a thread (atomworld eval): each has a time budget, and a task
 *   past it, or whose thread dies under it (a crash, ERR_WORKER_OUT_OF_MEMORY), becomes a row of its own while a
 *   fresh thread takes over the rest.
 * An exception a task raises rejects the run in either case, as it would have in this thread.
 */
import { parentPort, type Worker } from 'node:worker_threads';
import { errorText } from '../core/errors.ts';
import { startCliWorker } from './threads.ts';

/** Tasks a pool thread holds at once: one running, one waiting, so it never idles on the round trip. */
export const IN_FLIGHT = 2;
/** Heap of one pool thread: past it the thread ends with an error (its tasks go elsewhere), never the process. */
const POOL_HEAP_MB = 2048;
/** Results held for reordering at most, per thread, by default: a slow task stalls the reading of new ones, not memory. */
const WINDOW_PER_THREAD = 32;
/** With `isolate`, a thread that has not reported ready this long after launch is taken as unable to run here. */
const START_TIMEOUT_MS = 60_000;
/** With `isolate`, failed starts in a row that are retried; after one more the remaining tasks run in this thread. */
const START_ATTEMPTS = 3;

/** A pool thread reports ready, then answers each task: started (its time budget starts), then its result or error. */
type PoolReply<R> = { ready: true } | { started: number } | { k: number; result: R } | { k: number; error: string };

/** What the pool sends a thread: task k. */
interface PoolRequest<T> {
  k: number;
  task: T;
}

/**
 * The worker side of the pool: answers every task message with `handle(task)`. Called once at the end of a
 * worker entry, after its own set-up (adoptCommandLimits, warm-up), which is not charged to any task's budget.
 */
export function servePool<T, R>(handle: (task: T) => R): void {
  const port = parentPort!;
  port.on('message', ({ k, task }: PoolRequest<T>) => {
    port.postMessage({ started: k } satisfies PoolReply<R>);
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

/** Tasks that may run for ever or bring their thread down: each is judged alone, in a thread that can be replaced. */
export interface PoolIsolation<T, R> {
  /** A task's time budget, from the moment its thread starts it. */
  budgetMs: number;
  /** The result of a task past its budget (its thread is ended and replaced). */
  timedOut: (task: T) => R;
  /** The result of a task whose thread died under it (`why`: "out of memory", the error, "exited with code N"). */
  threadFailed: (task: T, why: string) => R;
  /** The warning when the rest runs in this thread, without a budget; `threadsRan`: some thread had started. */
  inThisThread: (why: string, threadsRan: boolean) => string;
}

export interface PoolOptions<T, R> {
  /** The worker entry (src/cli/commands/<entry>.ts, .cli-build/<entry>.mjs, or a module's URL), which calls `servePool`. */
  entry: string | URL;
  /** Handed to every thread once (shared inputs, so tasks can be small: indices). */
  workerData: unknown;
  /** Pulled lazily: the next task is read only when a thread can take it. An array starts at most one thread per task. */
  tasks: Iterable<T> | AsyncIterable<T>;
  /** 0: everything runs in this thread. */
  threads: number;
  /** The same work in this thread: for threads 0, and when threads cannot start or all die. */
  local: (task: T) => R;
  /** Each result, in task order (k = 0, 1, 2, …). */
  onResult: (k: number, result: R) => void;
  warn: (line: string) => void;
  /** Results held for reordering at most (default 32 a thread); Infinity where the caller keeps every result anyway. */
  reorderWindow?: number;
  isolate?: PoolIsolation<T, R>;
}

interface PoolThread<T> {
  worker: Worker;
  ready: boolean;
  /** Tasks sent and not answered, in the order sent (the thread takes them in that order). */
  held: Map<number, T>;
  /** The task the thread said it started, with its budget's timer (isolate only). */
  running: { k: number; timer: NodeJS.Timeout } | null;
  startTimer: NodeJS.Timeout | null;
}

const threadError = (e: Error) => ((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out of memory' : e.message);

/** Resolves to the number of tasks once every result has been handed to `onResult`. */
export async function runPool<T, R>(o: PoolOptions<T, R>): Promise<number> {
  let next = 0; // index of the next task read
  let emitted = 0; // results handed on so far
  const results = new Map<number, R>();
  const record = (k: number, result: R) => {
    if (k < emitted || results.has(k)) return;
    results.set(k, result);
    while (results.has(emitted)) {
      const r = results.get(emitted)!;
      results.delete(emitted);
      o.onResult(emitted++, r);
    }
  };
  const threads = Array.isArray(o.tasks) ? Math.min(o.threads, o.tasks.length) : o.threads;
  if (threads <= 0) {
    for await (const task of o.tasks) record(next++, o.local(task));
    return next;
  }

  const isolate = o.isolate;
  const live = new Set<PoolThread<T>>();
  /** Tasks of a thread that ended before answering them, sent again first (lowest k first). */
  const retry: [number, T][] = [];
  const requeue = (tasks: Iterable<[number, T]>) => {
    retry.push(...tasks);
    retry.sort((a, b) => a[0] - b[0]);
  };
  let failure: Error | null = null;
  /** Set when the rest runs in this thread: the warning that says why. */
  let fallback: string | null = null;
  const fallBack = (why: string, threadsRan: boolean) => {
    fallback ??= isolate
      ? isolate.inThisThread(why, threadsRan)
      : `warning: worker threads stopped (${why}); the remaining work runs in this thread`;
  };
  let everReady = false;
  let failedStarts = 0;
  let exhausted = false;
  let wake: (() => void) | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const window = o.reorderWindow ?? WINDOW_PER_THREAD * threads;

  const retire = (t: PoolThread<T>) => {
    live.delete(t);
    if (t.startTimer) clearTimeout(t.startTimer);
    if (t.running) clearTimeout(t.running.timer);
    t.worker.removeAllListeners();
    t.worker.on('error', () => {
      /* ending it may still report */
    });
    void t.worker.terminate();
  };
  const startFailed = (why: string) => {
    failedStarts++;
    if (live.size > 0) return; // the other threads carry on
    if (!isolate) fallBack(why, everReady);
    else if (!everReady) fallBack(why, false);
    else if (failedStarts > START_ATTEMPTS) fallBack(why, true);
    else launch();
  };
  /** Tasks in all, where the source is an array. */
  const total = Array.isArray(o.tasks) ? o.tasks.length : Infinity;
  /** With `isolate`, a thread that ended is replaced while tasks remain. */
  const replace = () => {
    if (retry.length > 0 || (!exhausted && next < total)) launch();
  };

  const launch = () => {
    if (failure || fallback !== null) return;
    let worker: Worker;
    try {
      worker = startCliWorker(o.entry, o.workerData, [], { maxOldGenerationSizeMb: POOL_HEAP_MB });
    } catch (e) {
      startFailed(errorText(e));
      return;
    }
    const t: PoolThread<T> = { worker, ready: false, held: new Map(), running: null, startTimer: null };
    live.add(t);
    if (isolate) {
      t.startTimer = setTimeout(() => {
        retire(t);
        startFailed(`no thread started within ${START_TIMEOUT_MS / 1000} s`);
        poke();
      }, START_TIMEOUT_MS);
    }
    /** Ends the thread; the tasks it held but did not run go back to the queue. */
    const end = (except?: number) => {
      retire(t);
      if (except !== undefined) t.held.delete(except);
      requeue(t.held);
    };
    const lost = (why: string, exited: boolean) => {
      if (!live.has(t)) return;
      if (!isolate) {
        end();
        if (live.size === 0) fallBack(exited ? `a thread ${why}` : why, everReady);
      } else if (!t.ready) {
        end();
        startFailed(why);
      } else {
        // The thread takes its tasks in order: the first it held is the one it was on, even if its "started" was lost.
        const k = t.running?.k ?? t.held.keys().next().value;
        const task = k === undefined ? undefined : t.held.get(k);
        end(k);
        if (k !== undefined) record(k, isolate.threadFailed(task as T, why));
        replace();
      }
      poke();
    };
    worker.on('message', (msg: PoolReply<R>) => {
      if ('ready' in msg) {
        t.ready = everReady = true;
        failedStarts = 0;
        if (t.startTimer) clearTimeout(t.startTimer);
      } else if ('started' in msg) {
        const k = msg.started;
        if (isolate && t.held.has(k)) {
          const timer = setTimeout(() => {
            const task = t.held.get(k) as T;
            t.running = null;
            record(k, isolate.timedOut(task));
            end(k);
            replace();
            poke();
          }, isolate.budgetMs);
          t.running = { k, timer };
        }
        return;
      } else if ('error' in msg) failure ??= new Error(msg.error);
      else if (t.held.has(msg.k)) {
        if (t.running?.k === msg.k) clearTimeout(t.running.timer);
        t.running = null;
        t.held.delete(msg.k);
        record(msg.k, msg.result);
      }
      poke();
    });
    worker.on('error', (e) => lost(threadError(e), false));
    worker.on('exit', (code) => lost(`exited with code ${code}`, true));
  };
  for (let t = 0; t < threads; t++) launch();

  const source = Symbol.asyncIterator in o.tasks ? o.tasks[Symbol.asyncIterator]() : o.tasks[Symbol.iterator]();
  const send = (t: PoolThread<T>, k: number, task: T) => {
    t.held.set(k, task);
    t.worker.postMessage({ k, task } satisfies PoolRequest<T>);
  };
  try {
    for (;;) {
      if (failure) throw failure;
      if (fallback !== null) {
        o.warn(fallback);
        for (const t of [...live]) retire(t);
        for (const [k, task] of retry.splice(0)) record(k, o.local(task));
        if (!exhausted) for (let r = await source.next(); !r.done; r = await source.next()) record(next++, o.local(r.value));
        exhausted = true;
        return next;
      }
      if (exhausted && retry.length === 0) {
        if (emitted === next) return next;
        for (const t of [...live]) if (t.ready && t.held.size === 0) retire(t); // nothing left for it
      }
      const free = [...live].find((t) => t.ready && t.held.size < IN_FLIGHT);
      if (free && retry.length > 0) {
        const [k, task] = retry.shift()!;
        send(free, k, task);
        continue;
      }
      if (free && !exhausted && next - emitted < window) {
        const r = await source.next();
        if (r.done) exhausted = true;
        else if (live.has(free)) send(free, next++, r.value);
        else requeue([[next++, r.value]]); // the thread ended while the task was being read
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    for (const t of [...live]) retire(t);
    if (!exhausted) await source.return?.(undefined);
  }
}
