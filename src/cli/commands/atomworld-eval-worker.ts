/**
 * Worker thread of `structlab atomworld eval`: judges its share of the cases, counts progress in the
 * shared array and hands the verdicts back on its port. The main thread waits with Atomics (the
 * command is synchronous), so every signal goes through the shared array, never through events.
 */
import { type MessagePort, workerData } from 'node:worker_threads';
import { initMoyoNodeLazily } from '../../node/moyo.ts';
import { type AtomworldJob, type AtomworldCaseVerdict, judgeAtomworldJob } from '../../core/tasks/atomworld/batch.ts';

export interface EvalWorkerData {
  jobs: AtomworldJob[];
  /** Int32: [0] cases done by all workers, [1 + slot] 1 once started, [1 + workers + slot] 1 once finished. */
  shared: SharedArrayBuffer;
  slot: number;
  workers: number;
  port: MessagePort;
}

const data = workerData as EvalWorkerData;
const flags = new Int32Array(data.shared);
Atomics.store(flags, 1 + data.slot, 1);
let results: AtomworldCaseVerdict[] | { error: string };
try {
  initMoyoNodeLazily();
  results = data.jobs.map((job) => {
    const verdict = judgeAtomworldJob(job);
    Atomics.add(flags, 0, 1);
    Atomics.notify(flags, 0);
    return verdict;
  });
} catch (e) {
  results = { error: e instanceof Error ? e.message : String(e) };
}
data.port.postMessage(results);
Atomics.store(flags, 1 + data.workers + data.slot, 1);
// Wake the main thread, which waits on the progress counter.
Atomics.notify(flags, 0);
data.port.close();
