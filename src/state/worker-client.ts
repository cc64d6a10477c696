/**
 * A page store's worker: one worker at a time, started on first use; `cancel()` terminates it (the only way to
 * stop a synchronous computation) and the next call starts a fresh one. Calls in flight are rejected with
 * CancelledError. Stores talk to it through `request` only: it shows a busy label, turns every failure (the
 * worker's Result error, a job past its budget, a worker that died) into the store's error sentence, renews the
 * budget with each progress report, and drops the answers and progress of requests that a later one or
 * `cancel` superseded. Which request is the latest is the client's business: stores hold Tickets, never counters.
 *
 * Every call has a time budget (LIMITS.workerJobMilliseconds unless the call names its own): a job past it is
 * ended the same way, by terminating the worker, and rejected with WorkerTimeoutError, whose message the store
 * shows; the next call starts a fresh worker. A long job that reports progress (through `request`'s `progress`) gets a
 * fresh budget with every report, so in a batch the budget bounds each case (the gap between two reports),
 * not the whole batch, and a batch that stops reporting is stopped.
 */
import * as Comlink from 'comlink';
import { LIMITS } from '../core/limits.ts';
import { errorText, type Result } from '../../workers/result.ts';

export { errorText };

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
    super(
      `The job took longer than ${seconds} s${sinceProgress ? ' since its last progress report' : ''} and was stopped; the next ` +
        'job starts a fresh worker.',
    );
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

/** The busy and error fields every page store has. */
export interface Status {
  busy: string | null;
  error: string | null;
}

/** One user action's place in its lane: `current` until a later request in the lane, `supersede` or `cancel`. */
export interface Ticket {
  readonly current: boolean;
}

/** Wraps a progress callback for the worker (see `request`). */
export type Progress = <A extends unknown[]>(fn: (...args: A) => void) => ((...args: A) => void) & Comlink.ProxyMarked;

export interface RequestOptions extends RunOptions {
  /** A later step of the same action (its ticket from `begin`), instead of a new request that supersedes the lane's last. */
  ticket?: Ticket;
  /** Requests supersede the earlier ones of their lane only ('main' unless named): a case view never drops a batch. */
  lane?: string;
  /** Where the busy label and the error go; without it they are the caller's to show. */
  status?: (patch: Status) => void;
  /** Shown (with the error cleared) when the request starts; omitted: busy and error are left as they are. */
  busy?: string;
  /** The sentence shown for a failure: `message` is the worker's Result error, or the thrown error's message, and
   * `thrown` the error when the job itself failed (past its budget, the worker died); only called while current. */
  error?: (message: string, thrown: unknown) => string;
  /** On success, leave busy as it is (more steps of the action follow). */
  keepBusy?: boolean;
}

export class WorkerClient<Api> {
  private worker: Worker | null = null;
  private api: Comlink.Remote<Api> | null = null;
  private pending = new Set<Job>();
  private started = 0;
  /** Counts every ticket issued; `latest` holds each lane's newest (a lane absent: superseded). */
  private generation = 0;
  private latest = new Map<string, number>();

  /** `start` must contain the `new Worker(new URL('…', import.meta.url))` expression itself, for Vite to bundle it. */
  constructor(private readonly start: () => Worker) {}

  /** Counts the workers started; a store that loads data into its worker re-sends it when this changes. */
  get epoch(): number {
    return this.started;
  }

  private ensure(): Comlink.Remote<Api> {
    if (!this.api) {
      const worker = this.start();
      worker.addEventListener('error', (e) => this.fail(new Error(`The worker stopped: ${e.message || 'unknown error'}.`)));
      this.worker = worker;
      this.api = Comlink.wrap<Api>(worker);
      this.started++;
    }
    return this.api;
  }

  /**
   * Runs `fn` against the worker; the promise rejects with CancelledError if `cancel()` comes first, and with
   * WorkerTimeoutError (the worker terminated) if the budget runs out first. The budget under `request`; stores
   * call `request` (tests/unit/worker-client.test.ts holds them to it).
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
      let answer: Promise<T>;
      try {
        answer = fn(api);
      } catch (e) {
        settle();
        reject(e);
        return;
      }
      answer.then(
        (v) => {
          settle();
          resolve(v);
        },
        (e) => {
          settle();
          reject(e);
        },
      );
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

  /** A new action in `lane`: every earlier ticket of the lane stops being current. */
  begin(lane = 'main'): Ticket {
    const gen = ++this.generation;
    this.latest.set(lane, gen);
    const latest = this.latest;
    return {
      get current() {
        return latest.get(lane) === gen;
      },
    };
  }

  /** Drops the answers of every request in flight, in every lane, and lets the worker run on. */
  supersede(): void {
    this.latest.clear();
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  /**
   * Runs one request for a store: `call` gets the worker's API and `progress`, which wraps a callback for the
   * worker (a Comlink proxy) so that every report renews the budget and reaches the store only while the request
   * is current and unfinished (reports come through their own port and can trail the answer). Answers the
   * worker's Result, a thrown failure as a Result error (both as `options.error` words them, and shown through
   * `options.status`), or undefined when the request was superseded or cancelled: then nothing was shown.
   */
  async request<T>(
    call: (api: Comlink.Remote<Api>, progress: Progress) => Promise<Result<T>>,
    options: RequestOptions = {},
  ): Promise<Result<T> | undefined> {
    const ticket = options.ticket ?? this.begin(options.lane);
    if (!ticket.current) return undefined;
    const { status } = options;
    if (status && options.busy !== undefined) status({ busy: options.busy, error: null });
    let finished = false;
    const progress: Progress = (fn) =>
      Comlink.proxy((...args) => {
        this.touch();
        if (!finished && ticket.current) fn(...args);
      });
    let result: Result<T>;
    let thrown: unknown;
    try {
      result = await this.run((api) => call(api, progress), options);
    } catch (e) {
      thrown = e;
      result = { ok: false, error: errorText(e) };
    } finally {
      finished = true;
    }
    if (!ticket.current) return undefined;
    if (!result.ok) {
      const error = options.error ? options.error(result.error, thrown) : result.error;
      status?.({ busy: null, error });
      return { ok: false, error };
    }
    if (!options.keepBusy) status?.({ busy: null, error: null });
    return result;
  }

  /** Ends the job in flight (terminating the worker) and supersedes every request. */
  cancel(): void {
    this.supersede();
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
