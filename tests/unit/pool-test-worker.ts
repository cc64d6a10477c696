/**
 * Worker entry of tests/unit/cli-pool.test.ts: tasks that answer, name their thread, wait for the test to release
 * them, never end, end their thread or throw.
 */
import { threadId, workerData } from 'node:worker_threads';
import { servePool } from '../../src/cli/pool.ts';

export type PoolTestTask = { kind: 'value' | 'gated' | 'forever' | 'crash' | 'throw' | 'thread'; value: number };

/**
 * Shared with the test, one slot per gated task (by its value): the test sets `released`, the thread `started`
 * and `done`; `startedTotal[0]` counts the gated tasks started.
 */
export interface PoolTestGates {
  released: Int32Array;
  started: Int32Array;
  done: Int32Array;
  startedTotal: Int32Array;
}

const gates = workerData as PoolTestGates;
const raise = (flags: Int32Array, slot: number) => {
  Atomics.store(flags, slot, 1);
  Atomics.notify(flags, slot);
};

servePool((task: PoolTestTask): number => {
  if (task.kind === 'crash') process.exit(7);
  if (task.kind === 'throw') throw new Error('boom');
  if (task.kind === 'thread') return threadId;
  if (task.kind === 'forever') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  if (task.kind === 'gated') {
    raise(gates.started, task.value);
    Atomics.add(gates.startedTotal, 0, 1);
    Atomics.notify(gates.startedTotal, 0);
    Atomics.wait(gates.released, task.value, 0);
    raise(gates.done, task.value);
  }
  return task.value * 10;
});
