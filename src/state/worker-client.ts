/**
 * A page store's worker: one worker at a time, started on first use; `cancel()` terminates it (the only way to
 * stop a synchronous computation) and the next call starts a fresh one. Calls in flight are rejected with
 * CancelledError. `request` adds what the page stores share: a busy label, the error as a sentence, and
 * answers to superseded requests dropped.
 *
 * Every call has a time budget (LIMITS.workerJobMilliseconds unless the call names its own): a job past it is
 * ended the same way, by terminating the worker, and rejected with WorkerTimeoutError, whose message the store
 * shows; the next call starts a fresh worker. A long job that reports progress through `progress()` gets a
 * fresh budget with every report, so in a batch the budget bounds each case (the gap between two reports),
 * not the whole batch, and a batch that stops reporting is stopped.
 */
import * as Comlink from 'comlink';
import { LIMITS } from '../core/limits.ts';
import type { Result } from '../../workers/result.ts';

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

/** A worker job ended because it ran past its time budget. */
export class WorkerTimeoutError extends Error {
  readonly budgetMs: number;
  constructor(budgetMs: number, sinceProgress: boolean) {
    const seconds = budgetMs >= 10_000 ? Math.round(budgetMs / 1000) : Number((budgetMs / 1000).toFixed(1));
    super(`The job took longer than ${seconds} s${sinceProgress ? ' since its last progress report' : ''} and was stopped; the next job starts a fresh worker.`);
    this.name = 'WorkerTimeoutError';
    this.budgetMs = budgetMs;
  }
}

export interface RunOptions {
  /** This call's budget in ms instead of LIMITS.workerJobMilliseconds (Infinity: none). */
  budgetMs?: number;
}

interface Job {
  reject: (e: Error) => void;
  budgetMs: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  touched: boolean;
}

/** setTimeout fires at once for delays above 2³¹−1 ms; longer budgets mean no timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class WorkerClient<Api> {
  private worker: Worker | null = null;
  private api: Comlink.Remote<Api> | null = null;
  private pending = new Set<Job>();
  /** Counts the workers started; a store that loads data into its worker re-sends it when this changes. */
  epoch = 0;
  /** Bumped by every `request` and by `cancel`; answers to older requests are dropped. */
  generation = 0;

  /** `start` must contain the `new Worker(new URL('…', import.meta.url))` expression itself, for Vite to bundle it. */
  constructor(private readonly start: () => Worker) {}

  /** The worker's API, starting a worker if none runs (calls made on it have no budget and are not rejected by
   * `cancel`: stores go through `run` or `request`). */
  remote(): Comlink.Remote<Api> {
    return this.ensure();
  }

  private ensure(): Comlink.Remote<Api> {
    if (!this.api) {
      const worker = this.start();
      worker.addEventListener('error', (e) => this.fail(new Error(`The worker stopped: ${e.message || 'unknown error'}.`)));
      this.worker = worker;
      this.api = Comlink.wrap<Api>(worker);
      this.epoch++;
    }
    return this.api;
  }

  /**
   * Runs `fn` against the worker; the promise rejects with CancelledError if `cancel()` comes first, and with
   * WorkerTimeoutError (the worker terminated) if the budget runs out first.
   */
  run<T>(fn: (api: Comlink.Remote<Api>) => Promise<T>, options: RunOptions = {}): Promise<T> {
    const api = this.ensure();
    const budgetMs = options.budgetMs ?? LIMITS.workerJobMilliseconds;
    return new Promise<T>((resolve, reject) => {
      const job: Job = { reject, budgetMs, timer: undefined, touched: false };
      this.pending.add(job);
      this.arm(job);
      const settle = () => {
        clearTimeout(job.timer);
        this.pending.delete(job);
      };
      fn(api).then((v) => { settle(); resolve(v); }, (e) => { settle(); reject(e); });
    });
  }

  private arm(job: Job): void {
    clearTimeout(job.timer);
    if (!(job.budgetMs > 0) || job.budgetMs > MAX_TIMER_MS) return;
    job.timer = setTimeout(() => {
      if (this.pending.has(job)) this.fail(new WorkerTimeoutError(job.budgetMs, job.touched));
    }, job.budgetMs);
  }

  /** A sign of life from the worker: every job in flight gets a fresh budget. */
  touch(): void {
    for (const job of this.pending) {
      job.touched = true;
      this.arm(job);
    }
  }

  /** A progress callback for the worker (a Comlink proxy) whose every report also renews the budget. */
  progress<A extends unknown[]>(fn: (...args: A) => void): ((...args: A) => void) & Comlink.ProxyMarked {
    return Comlink.proxy((...args: A) => {
      this.touch();
      fn(...args);
    });
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Runs one request for a store: `busy` shows while it runs; a failure becomes the store's error; a request
   * superseded by a later one or by cancel changes nothing. */
  async request<T>(
    set: (patch: { busy: string | null; error: string | null }) => void,
    busy: string,
    call: (api: Comlink.Remote<Api>) => Promise<Result<T>>,
    done: (value: T) => void,
    options: RunOptions = {},
  ): Promise<void> {
    const gen = ++this.generation;
    set({ busy, error: null });
    try {
      const result = await this.run(call, options);
      if (gen !== this.generation) return;
      if (!result.ok) { set({ busy: null, error: result.error }); return; }
      set({ busy: null, error: null });
      done(result.value);
    } catch (e) {
      if (gen === this.generation) set({ busy: null, error: errorText(e) });
    }
  }

  cancel(): void {
    this.generation++;
    this.fail(new CancelledError());
  }

  private fail(error: Error): void {
    this.worker?.terminate();
    this.worker = null;
    this.api = null;
    const jobs = [...this.pending];
    this.pending.clear();
    for (const job of jobs) {
      clearTimeout(job.timer);
      job.reject(error);
    }
  }
}
