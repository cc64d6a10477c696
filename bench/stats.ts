/** Timing statistics shared by the benchmarks. */

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
