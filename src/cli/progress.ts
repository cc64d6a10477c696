/**
 * A progress line on standard error, only when it is a terminal (piped output stays quiet): done/total, the
 * rate and, when the total is known, the time left. `total` null: a streamed input whose length is unknown.
 */
export function progressReporter(what: string, unit = ''): { update(done: number, total: number | null): void; end(): void } {
  let shown = false;
  let last = 0;
  const start = Date.now();
  const clock = (s: number) =>
    s >= 3600
      ? `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`
      : s >= 60
        ? `${Math.floor(s / 60)}m${Math.round(s % 60)}s`
        : `${Math.round(s)}s`;
  return {
    update(done, total) {
      if (!process.stderr.isTTY) return;
      const now = Date.now();
      if (done !== total && now - last < 100) return;
      last = now;
      shown = true;
      const seconds = (now - start) / 1000;
      const rate = seconds > 0 ? done / seconds : 0;
      const eta = total !== null && rate > 0 && done < total ? `, ETA ${clock((total - done) / rate)}` : '';
      const count = total === null ? `${done}` : `${done}/${total}`;
      process.stderr.write(
        `\r${what}: ${count}${unit ? ` ${unit}` : ''}, ${rate >= 10 ? Math.round(rate) : rate.toFixed(1)}/s${eta}\x1b[K`,
      );
    },
    end() {
      if (shown) process.stderr.write('\n');
    },
  };
}
