/**
 * The CLI's worker pool (src/cli/pool.ts), in real threads (pool-test-worker.ts): results in task order whatever
 * the order they finish in, a stream read only as threads have room, a task past its budget or whose thread dies
 * as a row of its own while a fresh thread does the rest, and the fallbacks of the commands that do not isolate.
 * The tests decide when gated tasks finish, through shared memory; nothing is timed.
 */
import { describe, expect, it } from 'vitest';
import { IN_FLIGHT, type PoolOptions, runPool, startEarlyPoolThread } from '../../src/cli/pool.ts';
import { endEarlyWorkers } from '../../src/cli/threads.ts';
import { overrideLimits, resetLimits } from '../../src/core/limits.ts';
import type { PoolTestGates, PoolTestTask } from './pool-test-worker.ts';

const ENTRY = new URL('./pool-test-worker.ts', import.meta.url);
const slots = (n: number) => new Int32Array(new SharedArrayBuffer(4 * n));
const newGates = (n: number): PoolTestGates => ({ released: slots(n), started: slots(n), done: slots(n), startedTotal: slots(1) });
const task = (kind: PoolTestTask['kind'], value: number): PoolTestTask => ({ kind, value });
const values = (n: number, kind: PoolTestTask['kind'] = 'value') => Array.from({ length: n }, (_, k) => task(kind, k));

// Atomics.waitAsync (Node 16 and later) is in TypeScript's ES2024 library, newer than this project's (ES2022).
const { waitAsync } = Atomics as unknown as { waitAsync: (flags: Int32Array, slot: number, value: number) => { value: unknown } };

/** Resolves once a thread has raised `slot` of `flags` to `value` or more. */
async function reached(flags: Int32Array, slot: number, value = 1): Promise<void> {
  for (let now = Atomics.load(flags, slot); now < value; now = Atomics.load(flags, slot)) await waitAsync(flags, slot, now).value;
}

function release(gates: PoolTestGates, slot: number): void {
  Atomics.store(gates.released, slot, 1);
  Atomics.notify(gates.released, slot);
}

/** Runs the pool and collects what it hands on: results by k (in the order given), and warnings. */
async function pool(
  options: Partial<PoolOptions<PoolTestTask, number | string>> & Pick<PoolOptions<PoolTestTask, number | string>, 'tasks'>,
) {
  const results: [number, number | string][] = [];
  const warnings: string[] = [];
  const count = await runPool<PoolTestTask, number | string>({
    entry: ENTRY,
    workerData: newGates(1),
    threads: 1,
    local: (t) => `here ${t.value}`,
    onResult: (k, r) => results.push([k, r]),
    warn: (line) => warnings.push(line),
    ...options,
  });
  return { count, results, warnings };
}

const isolation = {
  budgetMs: 2000,
  timedOut: (t: PoolTestTask) => `timeout ${t.value}`,
  threadFailed: (t: PoolTestTask, why: string) => `failed ${t.value} (${why})`,
  inThisThread: (why: string) => `here: ${why}`,
};

describe('the CLI worker pool', () => {
  it('hands results on in task order when a later task finishes first', async () => {
    const gates = newGates(6);
    const run = pool({ tasks: values(6, 'gated'), threads: 2, workerData: gates });
    // Each thread is held on its first task: finish the later of the two first, then everything.
    await reached(gates.startedTotal, 0, 2);
    const [first, second] = [...gates.started.keys()].filter((k) => Atomics.load(gates.started, k) === 1);
    release(gates, second);
    await reached(gates.done, second);
    expect(Atomics.load(gates.done, first)).toBe(0);
    for (let k = 0; k < 6; k++) release(gates, k);
    const { count, results, warnings } = await run;
    expect(count).toBe(6);
    expect(results).toEqual([0, 1, 2, 3, 4, 5].map((k) => [k, k * 10]));
    expect(warnings).toEqual([]);
  }, 60_000);

  it('many quick tasks, answered in batches by two threads, come out whole and in task order', async () => {
    const n = 500;
    const { count, results, warnings } = await pool({ tasks: values(n), threads: 2, isolate: isolation });
    expect(count).toBe(n);
    expect(results).toEqual(Array.from({ length: n }, (_, k) => [k, 10 * k]));
    expect(warnings).toEqual([]);
  }, 60_000);

  it('reads a stream only as threads have room: never more than threads × IN_FLIGHT tasks ahead of the answers', async () => {
    const threads = 2;
    const n = 12;
    const gates = newGates(n);
    const ahead: number[] = [];
    async function* stream() {
      for (let k = 0; k < n; k++) {
        // k tasks were read before this one; those answered have raised `done`.
        ahead.push(k - gates.done.reduce((a, b) => a + b, 0));
        yield task('gated', k);
      }
    }
    const run = pool({ tasks: stream(), threads, workerData: gates });
    for (let k = 0; k < n; k++) {
      release(gates, k);
      await reached(gates.done, k);
    }
    const { count, results } = await run;
    expect(count).toBe(n);
    expect(results.map(([k]) => k)).toEqual([...Array(n).keys()]);
    expect(ahead).toHaveLength(n);
    expect(Math.max(...ahead)).toBeLessThan(threads * IN_FLIGHT);
  }, 60_000);

  it.each([
    ['past its budget is a timeout row', 'forever', 'timeout 2'],
    ['whose thread dies is an error row', 'crash', 'failed 2 (exited with code 7)'],
  ] as const)(
    'isolate: a task %s, and a fresh thread does the rest',
    async (_, kind, row) => {
      // The thread holds the last task too when the second fails: it must still be done, in the fresh thread.
      const tasks = [task('value', 1), task(kind, 2), task('value', 3)];
      const { results, warnings } = await pool({ tasks, isolate: isolation });
      expect(results).toEqual([
        [0, 10],
        [1, row],
        [2, 30],
      ]);
      expect(warnings).toEqual([]);
    },
    60_000,
  );

  it('without isolate, the tasks of a thread that dies go to the others, and to this thread when none is left', async () => {
    const tasks = [task('value', 1), task('crash', 2), task('value', 3)];
    const { results, warnings } = await pool({ tasks });
    // The thread held its answer to the first task (answers go out in batches) when it died: that task is done again.
    expect(results).toEqual([
      [0, 'here 1'],
      [1, 'here 2'],
      [2, 'here 3'],
    ]);
    expect(warnings).toEqual(['warning: worker threads stopped (a thread exited with code 7); the remaining work runs in this thread']);
  }, 60_000);

  it("a task's exception rejects the run, as it would in this thread", async () => {
    await expect(pool({ tasks: [task('value', 1), task('throw', 2)] })).rejects.toThrow('Error: boom');
  }, 60_000);

  it('a thread started early is the one the pool runs on; one started under other limits, or ended, is not', async () => {
    const threadOf = async () => (await pool({ tasks: [task('thread', 0)], workerData: null, isolate: isolation })).results[0][1];
    const early = startEarlyPoolThread(ENTRY);
    expect(early).toBeGreaterThan(0);
    expect(await threadOf()).toBe(early);
    // Taken once: the next run starts its own.
    expect(await threadOf()).not.toBe(early);
    // Its limits were another run's (--limit): not taken, and ended.
    const stale = startEarlyPoolThread(ENTRY);
    overrideLimits({ atoms: 1234 });
    try {
      expect(await threadOf()).not.toBe(stale);
    } finally {
      resetLimits();
    }
    const ended = startEarlyPoolThread(ENTRY);
    endEarlyWorkers();
    expect(await threadOf()).not.toBe(ended);
  }, 60_000);

  it('threads 0, or no task, start no thread', async () => {
    const missing = { entry: new URL('./no-such-worker.mjs', import.meta.url) };
    expect((await pool({ ...missing, tasks: values(3), threads: 0 })).results).toEqual([
      [0, 'here 0'],
      [1, 'here 1'],
      [2, 'here 2'],
    ]);
    expect(await pool({ ...missing, tasks: [], threads: 4 })).toEqual({ count: 0, results: [], warnings: [] });
  });
});
