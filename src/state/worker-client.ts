/**
 * A page store's worker: one worker at a time, started on first use; `cancel()` terminates it (the only way to
 * stop a synchronous computation) and the next call starts a fresh one. Calls in flight are rejected with
 * CancelledError. `request` adds what the page stores share: a busy label, the error as a sentence, and
 * answers to superseded requests dropped.
 */
import * as Comlink from 'comlink';
import type { Result } from '../../workers/result.ts';

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class WorkerClient<Api> {
  private worker: Worker | null = null;
  private api: Comlink.Remote<Api> | null = null;
  private pending = new Set<(e: Error) => void>();
  /** Counts the workers started; a store that loads data into its worker re-sends it when this changes. */
  epoch = 0;
  /** Bumped by every `request` and by `cancel`; answers to older requests are dropped. */
  generation = 0;

  /** `start` must contain the `new Worker(new URL('…', import.meta.url))` expression itself, for Vite to bundle it. */
  constructor(private readonly start: () => Worker) {}

  /** The worker's API, starting a worker if none runs (calls made on it are not rejected by `cancel`). */
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

  /** Runs `fn` against the worker; the promise rejects with CancelledError if `cancel()` comes first. */
  run<T>(fn: (api: Comlink.Remote<Api>) => Promise<T>): Promise<T> {
    const api = this.ensure();
    return new Promise<T>((resolve, reject) => {
      this.pending.add(reject);
      fn(api).then(resolve, reject).finally(() => this.pending.delete(reject));
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
  ): Promise<void> {
    const gen = ++this.generation;
    set({ busy, error: null });
    try {
      const result = await this.run(call);
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
    const rejects = [...this.pending];
    this.pending.clear();
    for (const r of rejects) r(error);
  }
}

export const progressCallback = (fn: (stage: string) => void) => Comlink.proxy(fn);
