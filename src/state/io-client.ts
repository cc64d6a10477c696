/**
 * Client of the io worker: one worker at a time; `cancel()` terminates it (the only way to stop a
 * synchronous parse) and the next call starts a fresh one. Calls in flight are rejected with CancelledError.
 */
import * as Comlink from 'comlink';
import type { IoWorkerApi } from '../../workers/io-api.ts';

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export class IoClient {
  private worker: Worker | null = null;
  private api: Comlink.Remote<IoWorkerApi> | null = null;
  private pending = new Set<(e: Error) => void>();

  private ensure(): Comlink.Remote<IoWorkerApi> {
    if (!this.api) {
      // Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
      const worker = new Worker(new URL('../../workers/io.worker.ts', import.meta.url), { type: 'module', name: 'structlab-io' });
      worker.addEventListener('error', (e) => this.fail(new Error(`The worker stopped: ${e.message || 'unknown error'}.`)));
      this.worker = worker;
      this.api = Comlink.wrap<IoWorkerApi>(worker);
    }
    return this.api;
  }

  /** Runs `fn` against the worker; the promise rejects with CancelledError if `cancel()` comes first. */
  run<T>(fn: (api: Comlink.Remote<IoWorkerApi>) => Promise<T>): Promise<T> {
    const api = this.ensure();
    return new Promise<T>((resolve, reject) => {
      this.pending.add(reject);
      fn(api).then(resolve, reject).finally(() => this.pending.delete(reject));
    });
  }

  get busy(): boolean {
    return this.pending.size > 0;
  }

  cancel(): void {
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
