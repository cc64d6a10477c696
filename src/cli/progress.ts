/** A progress line on standard error, only when it is a terminal (as atomworld eval). */
export function progressReporter(what: string): { update(done: number, total: number): void; end(): void } {
  let shown = false;
  let last = 0;
  return {
    update(done, total) {
      if (!process.stderr.isTTY) return;
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      shown = true;
      process.stderr.write(`\r${what}: ${done}/${total}`);
    },
    end() {
      if (shown) process.stderr.write('\n');
    },
  };
}
