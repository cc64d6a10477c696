/**
 * `runPool` (threads.ts) for a stream: tasks are pulled from an async source only when a thread has room, and
 * results are handed on in task order, so memory is bounded by the pool (threads × tasks in flight, plus a
 * reorder window), never by the length of the input. Worker entries answer with `servePool`, as for runPool.
 */
import type { Worker } from 'node:worker_threads';
import { IN_FLIGHT, POOL_HEAP_MB, startCliWorker, type PoolReply } from './threads.ts';

export interface StreamPoolOptions<T, R> {
  /** The worker entry (src/cli/commands/<entry>.ts, .cli-build/<entry>.mjs), which calls `servePool`. */
  entry: string;
  workerData: unknown;
  /** Pulled lazily: the next task is read only when a thread can take it. */
  tasks: AsyncIterable<T>;
  /** 0: everything runs in this thread. */
  threads: number;
  /** The same work in this thread: for threads 0, and when threads cannot start or all die. */
  local: (task: T) => R;
  /** Each result, in task order (k = 0, 1, 2, …). */
  onResult: (k: number, result: R) => void;
  warn: (line: string) => void;
}

/** Results held for reordering at most, per thread: a slow task stalls the reading of new ones, not memory. */
const WINDOW_PER_THREAD = 32;

/** Resolves to the number of tasks once every result has been handed to `onResult`. */
export async function runStreamPool<T, R>(o: StreamPoolOptions<T, R>): Promise<number> {
  let next = 0; // index of the next task read
  let emitted = 0; // results handed on so far
  const results = new Map<number, R>();
  const emit = (k: number, result: R) => {
    results.set(k, result);
    while (results.has(emitted)) {
      const r = results.get(emitted)!;
      results.delete(emitted);
      o.onResult(emitted++, r);
    }
  };
  if (o.threads <= 0) {
    for await (const task of o.tasks) emit(next++, o.local(task));
    return next;
  }

  interface Slot {
    worker: Worker;
    held: Map<number, T>;
    ready: boolean;
  }
  const slots = new Set<Slot>();
  const retry: [number, T][] = []; // tasks of a thread that died, sent again first
  let failure: Error | null = null;
  let localOnly: string | null = null;
  let wake: (() => void) | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const window = WINDOW_PER_THREAD * Math.max(1, o.threads);

  const launch = () => {
    let worker: Worker;
    try {
      worker = startCliWorker(o.entry, o.workerData, [], { maxOldGenerationSizeMb: POOL_HEAP_MB });
    } catch (e) {
      if (slots.size === 0) localOnly = e instanceof Error ? e.message : String(e);
      return;
    }
    const slot: Slot = { worker, held: new Map(), ready: false };
    slots.add(slot);
    const lost = (why: string) => {
      if (!slots.has(slot)) return;
      slots.delete(slot);
      worker.removeAllListeners();
      worker.on('error', () => {
        /* ending it may still report */
      });
      void worker.terminate();
      for (const entry of slot.held) retry.push(entry);
      if (slots.size === 0) localOnly = why;
      poke();
    };
    worker.on('message', (msg: PoolReply<R>) => {
      if ('ready' in msg) slot.ready = true;
      else if ('error' in msg) failure ??= new Error(msg.error);
      else if (slot.held.delete(msg.k)) emit(msg.k, msg.result);
      poke();
    });
    worker.on('error', (e) => lost((e as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'out of memory' : e.message));
    worker.on('exit', (code) => lost(`a thread exited with code ${code}`));
  };
  for (let t = 0; t < o.threads; t++) launch();

  const iterator = o.tasks[Symbol.asyncIterator]();
  let exhausted = false;
  const runHere = (k: number, task: T) => emit(k, o.local(task));
  try {
    for (;;) {
      if (failure) throw failure;
      if (localOnly !== null) {
        o.warn(`warning: worker threads stopped (${localOnly}); the remaining work runs in this thread`);
        for (const s of slots) void s.worker.terminate();
        slots.clear();
        retry.sort((a, b) => a[0] - b[0]);
        for (const [k, task] of retry.splice(0)) runHere(k, task);
        if (!exhausted) for (let r = await iterator.next(); !r.done; r = await iterator.next()) runHere(next++, r.value);
        return next;
      }
      if (exhausted && retry.length === 0 && emitted === next) return next;
      const free = [...slots].find((s) => s.ready && s.held.size < IN_FLIGHT);
      if (free && retry.length > 0) {
        const [k, task] = retry.shift()!;
        free.held.set(k, task);
        free.worker.postMessage({ k, task });
        continue;
      }
      if (free && !exhausted && next - emitted < window) {
        const r = await iterator.next();
        if (r.done) exhausted = true;
        else if (slots.has(free)) {
          const k = next++;
          free.held.set(k, r.value);
          free.worker.postMessage({ k, task: r.value });
        } else retry.push([next++, r.value]); // the thread died while the task was being read
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    for (const s of slots) void s.worker.terminate();
    slots.clear();
    if (!exhausted) await iterator.return?.(undefined);
  }
}
