/**
 * Worker threads for CLI commands, from the bundle (.cli-build/<name>.mjs, built by scripts/build-cli.mjs) or,
 * in an edited checkout, from the TypeScript sources through tsx (src/cli/commands/<name>.ts).
 */
import { Worker, type TransferListItem } from 'node:worker_threads';

export function startCliWorker(name: string, workerData: unknown, transferList: TransferListItem[] = []): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(fromSource ? `./commands/${name}.ts` : `./${name}.mjs`, import.meta.url);
  const options = { workerData, transferList };
  if (!fromSource) return new Worker(entry, options);
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
