/** Timing statistics shared by the benchmarks. */
import { spawn } from 'node:child_process';

/** Median; for an even count, the mean of the two middle values. */
export function median(xs: number[]): number {
  if (xs.length === 0) throw new Error('median of no values');
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Median wall time in ms of `repeats` calls of `fn` after `warmup` untimed ones (JIT), and the last call's result. */
export function timeMedian<T>(fn: () => T, repeats: number, warmup = 0): { ms: number; result: T } {
  for (let w = 0; w < warmup; w++) fn();
  const samples: number[] = [];
  let result!: T;
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    result = fn();
    samples.push(performance.now() - t0);
  }
  return { ms: median(samples), result };
}

/**
 * Keeps one core busy (a child process spinning) until `stop` is called: the issue-13 rows are measured "with the
 * other core busy" as well, since on a 2-core machine a second thread or a JIT helper then competes with the run.
 */
export function busyCore(): { stop: () => void } {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  return { stop: () => void child.kill('SIGKILL') };
}

/** Whether this bench was asked to keep one core busy while it measures (`--busy`). */
export const BUSY = process.argv.includes('--busy');
