/**
 * Exact floating-point summation (Shewchuk's non-overlapping partials, as CPython's math.fsum:
 * github.com/python/cpython Modules/mathmodule.c, math_fsum). The sum is held exactly and rounded once, so it
 * does not depend on the order of the terms: a split scored in shards and merged gives the bits of the
 * unsharded run. Overflow to ±Infinity or a NaN term makes the sum non-finite, as a plain sum would.
 */
export class ExactSum {
  /** Non-overlapping partials, smallest magnitude first; their exact sum is the sum of every term added. */
  private partials: number[] = [];
  /** Sum of non-finite terms (NaN, ±Infinity) and of overflowed partials; 0 while everything is finite. */
  private special = 0;

  add(x: number): void {
    if (!Number.isFinite(x)) {
      this.special += x;
      return;
    }
    const p = this.partials;
    let i = 0;
    for (let j = 0; j < p.length; j++) {
      let y = p[j];
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (!Number.isFinite(hi)) {
        // The exact sum overflows: it is ±Infinity, as a plain sum would report.
        this.special += hi;
        this.partials = [];
        return;
      }
      if (lo !== 0) p[i++] = lo;
      x = hi;
    }
    p.length = i;
    p.push(x);
  }

  /** Adds every term another sum has seen (exactly: merging is order-independent). */
  addAll(other: ExactSum): void {
    this.special += other.special;
    for (const x of other.partials) this.add(x);
  }

  /** The exact sum rounded once to the nearest double (ties to even), as math.fsum. */
  value(): number {
    if (this.special !== 0) return this.special; // NaN !== 0 too
    const p = this.partials;
    let n = p.length;
    if (n === 0) return 0;
    let hi = p[--n];
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = p[--n];
      hi = x + y;
      const yr = hi - x;
      lo = y - yr;
      if (lo !== 0) break;
    }
    // Half-way case: round towards the sign of the next partial, as math.fsum does.
    if (n > 0 && ((lo < 0 && p[n - 1] < 0) || (lo > 0 && p[n - 1] > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }

  /** The state as plain numbers (JSON: non-finite values are written as strings so they survive). */
  toJSON(): { partials: number[]; special: number | string } {
    return { partials: [...this.partials], special: Number.isFinite(this.special) ? this.special : String(this.special) };
  }

  /** Reads what toJSON wrote; throws a TypeError naming `what` for anything else. */
  static fromJSON(value: unknown, what: string): ExactSum {
    const v = value as { partials?: unknown; special?: unknown } | null;
    const special =
      typeof v?.special === 'number'
        ? v.special
        : v?.special === 'NaN' || v?.special === 'Infinity' || v?.special === '-Infinity'
          ? Number(v.special)
          : null;
    if (!v || !Array.isArray(v.partials) || !v.partials.every((x) => typeof x === 'number' && Number.isFinite(x)) || special === null) {
      throw new TypeError(`${what} must be {"partials": [finite numbers], "special": number}`);
    }
    const s = new ExactSum();
    // Re-adding keeps the invariant even for partials that were edited by hand.
    for (const x of v.partials as number[]) s.add(x);
    s.special = special;
    return s;
  }
}
