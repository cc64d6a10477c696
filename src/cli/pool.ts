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
import { parentPort, receiveMessageOnPort, type Worker } from 'node:worker_threads';
import { errorText } from '../core/errors.ts';
import { endWorker, startCliWorker, startEarlyWorker } from './threads.ts';

/**
 * Tasks a pool thread holds at most. A thread starts with MIN_IN_FLIGHT and is given enough to stay busy for about
 * QUEUED_WORK_MS (from its own average task time): quick tasks travel in bulk, slow ones are spread over the threads.
 */
export const IN_FLIGHT = 32;
const MIN_IN_FLIGHT = 2;
const QUEUED_WORK_MS = 50;
/**
 * A thread answers in batches: when no task is waiting, when REPLY_BATCH answers are held, or when the first held
 * answer is REPLY_AFTER_MS old (checked between tasks). Each message wakes the other thread, and on a machine with
 * few cores the wake-up took the posting thread off its core: an answer per task cost `atomworld eval` ≈ 10% of
 * its time on two cores (0.18 ms a message, against 0.02 ms with an idle machine).
 */
const REPLY_BATCH = 8;
const REPLY_AFTER_MS = 20;
/** Heap of one pool thread: past it the thread ends with an error (its tasks go elsewhere), never the process. */
const POOL_LIMITS = { maxOldGenerationSizeMb: 2048 };

/** Starts a pool thread of `entry` (workerData null) before the command reaches runPool, which then takes it. */
export const startEarlyPoolThread = (entry: string | URL): number | null => startEarlyWorker(entry, POOL_LIMITS);
/** Results held for reordering at most, per thread, by default: a slow task stalls the reading of new ones, not memory. */
const WINDOW_PER_THREAD = 2 * IN_FLIGHT;
/** With `isolate`, a thread that has not reported ready this long after launch is taken as unable to run here. */
const START_TIMEOUT_MS = 60_000;
/** With `isolate`, failed starts in a row that are retried; after one more the remaining tasks run in this thread. */
const START_ATTEMPTS = 3;

/** Milliseconds on a clock that every thread reads alike (each thread's `performance.now()` has its own origin). */
const sharedClock = () => performance.timeOrigin + performance.now();

/**
 * What a thread is doing, in memory it shares with the pool, so that a task's start costs no message: `task[0]`
 * is the k of the task it runs (-1 between tasks), `since[0]` when that task started (sharedClock). The thread
 * writes `since` before `task`, so a reader that sees k sees a time no earlier than k's start.
 */
interface RunningSlot {
  task: Int32Array;
  since: Float64Array;
}

const runningSlot = (buffer: SharedArrayBuffer): RunningSlot => ({
  task: new Int32Array(buffer, 0, 1),
  since: new Float64Array(buffer, 8, 1),
});

/** A pool thread first takes its running slot, then reports ready, then answers tasks in batches. */
type PoolReply<R> = { ready: true } | { answers: PoolAnswer<R>[] };
type PoolAnswer<R> = { k: number; result: R } | { k: number; error: string };

/** What the pool sends a thread: its running slot once, first; then task k. */
type PoolRequest<T> = { slot: SharedArrayBuffer } | { k: number; task: T };

/**
 * The worker side of the pool: answers every task message with `handle(task)`. Called once at the end of a
 * worker entry, after its own set-up (adoptCommandLimits, module loading), which is not charged to any task's budget.
 */
export function servePool<T, R>(handle: (task: T) => R): void {
  const port = parentPort!;
  let slot: RunningSlot | null = null;
  let held: PoolAnswer<R>[] = [];
  let heldSince = 0;
  const flush = () => {
    port.postMessage({ answers: held } satisfies PoolReply<R>);
    held = [];
  };
  const run = ({ k, task }: { k: number; task: T }): PoolAnswer<R> => {
    slot!.since[0] = sharedClock();
    Atomics.store(slot!.task, 0, k);
    try {
      return { k, result: handle(task) };
    } catch (e) {
      return { k, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    } finally {
      Atomics.store(slot!.task, 0, -1);
    }
  };
  port.on('message', (first: PoolRequest<T>) => {
    if ('slot' in first) {
      slot = runningSlot(first.slot);
      port.postMessage({ ready: true } satisfies PoolReply<R>);
      return;
    }
    // The tasks that arrived meanwhile are taken here, in order; answers go out as the batch rules above say.
    for (let request: PoolRequest<T> | undefined = first; request && 'k' in request;) {
      if (held.length > 0 && sharedClock() - heldSince >= REPLY_AFTER_MS) flush();
      const answer = run(request);
      if (held.length === 0) heldSince = sharedClock();
      held.push(answer);
      request = receiveMessageOnPort(port)?.message as PoolRequest<T> | undefined;
      if (!request || held.length >= REPLY_BATCH || 'error' in answer) flush();
    }
  });
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
  /** What it runs now (shared with it). */
  slot: RunningSlot;
  /** Tasks it may hold: MIN_IN_FLIGHT … IN_FLIGHT, from its average task time. */
  capacity: number;
  /** Answers so far, and when it was first sent a task (sharedClock): its average task time. */
  answered: number;
  firstSent: number;
  /** With `isolate`: the timer that looks at its running task's budget. */
  watch: NodeJS.Timeout | null;
  startTimer: NodeJS.Timeout | null;
}

/** The task a thread runs and since when, or null between tasks. */
function runningTask(slot: RunningSlot): { k: number; since: number } | null {
  for (;;) {
    const k = Atomics.load(slot.task, 0);
    if (k < 0) return null;
    const since = slot.since[0];
    // The same k after reading the time: that time is k's start, or a later task's about to begin (later, never earlier).
    if (Atomics.load(slot.task, 0) === k) return { k, since };
  }
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
    if (t.watch) clearTimeout(t.watch);
    endWorker(t.worker);
  };
  /** Ends a thread; the tasks it held but did not run go back to the queue. */
  const end = (t: PoolThread<T>, except?: number) => {
    retire(t);
    if (except !== undefined) t.held.delete(except);
    requeue(t.held);
  };
  /** The ready thread with room that holds the fewest tasks, so that tasks spread over the threads. */
  const leastHeld = (): PoolThread<T> | undefined => {
    let best: PoolThread<T> | undefined;
    for (const t of live) if (t.ready && t.held.size < t.capacity && (!best || t.held.size < best.held.size)) best = t;
    return best;
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
      worker = startCliWorker(o.entry, o.workerData, [], POOL_LIMITS);
    } catch (e) {
      startFailed(errorText(e));
      return;
    }
    const slot = new SharedArrayBuffer(16);
    const t: PoolThread<T> = {
      worker,
      ready: false,
      held: new Map(),
      slot: runningSlot(slot),
      capacity: MIN_IN_FLIGHT,
      answered: 0,
      firstSent: 0,
      watch: null,
      startTimer: null,
    };
    t.slot.task[0] = -1;
    worker.postMessage({ slot } satisfies PoolRequest<T>);
    live.add(t);
    if (isolate) {
      t.startTimer = setTimeout(() => {
        retire(t);
        startFailed(`no thread started within ${START_TIMEOUT_MS / 1000} s`);
        poke();
      }, START_TIMEOUT_MS);
    }
    const lost = (why: string, exited: boolean) => {
      if (!live.has(t)) return;
      if (!isolate) {
        end(t);
        if (live.size === 0) fallBack(exited ? `a thread ${why}` : why, everReady);
      } else if (!t.ready) {
        end(t);
        startFailed(why);
      } else {
        // The task it was on; between tasks, the first it held (it takes them in order).
        const running = runningTask(t.slot)?.k;
        const k = running !== undefined && t.held.has(running) ? running : t.held.keys().next().value;
        const task = k === undefined ? undefined : t.held.get(k);
        end(t, k);
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
        poke();
        return;
      }
      for (const answer of msg.answers) {
        if ('error' in answer) failure ??= new Error(answer.error);
        else if (t.held.has(answer.k)) {
          t.held.delete(answer.k);
          record(answer.k, answer.result);
          t.answered++;
        }
      }
      const perTask = (sharedClock() - t.firstSent) / Math.max(1, t.answered);
      t.capacity = Math.max(MIN_IN_FLIGHT, Math.min(IN_FLIGHT, Math.floor(QUEUED_WORK_MS / perTask)));
      poke();
    });
    worker.on('error', (e) => lost(threadError(e), false));
    worker.on('exit', (code) => lost(`exited with code ${code}`, true));
  };
  for (let t = 0; t < threads; t++) launch();

  const source = Symbol.asyncIterator in o.tasks ? o.tasks[Symbol.asyncIterator]() : o.tasks[Symbol.iterator]();
  /**
   * With `isolate`, looks at the task a thread runs when its budget could be over, and ends the thread when it is:
   * the first look one budget after a send (no task it holds can have started earlier), then at the running task's
   * own deadline, or soon again while the thread is between tasks.
   */
  const watch = (t: PoolThread<T>, ms: number) => {
    t.watch = setTimeout(() => {
      t.watch = null;
      if (!live.has(t) || t.held.size === 0) return;
      const running = runningTask(t.slot);
      if (!running || !t.held.has(running.k)) return watch(t, Math.min(isolate!.budgetMs, QUEUED_WORK_MS));
      const left = running.since + isolate!.budgetMs - sharedClock();
      if (left > 0) return watch(t, left);
      const task = t.held.get(running.k) as T;
      record(running.k, isolate!.timedOut(task));
      end(t, running.k);
      replace();
      poke();
    }, ms);
  };
  const send = (t: PoolThread<T>, k: number, task: T) => {
    if (t.held.size === 0 && t.answered === 0) t.firstSent = sharedClock();
    t.held.set(k, task);
    t.worker.postMessage({ k, task } satisfies PoolRequest<T>);
    if (isolate && !t.watch) watch(t, isolate.budgetMs);
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
      const free = leastHeld();
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
