import type { Vec3 } from './mat3.ts';
import { cbrt } from './libm.ts';

/**
 * A spatial hash on wrapped fractional coordinates: finds a stored point within a per-component
 * fractional tolerance, across periodic boundaries. Used to merge coincident sites and to test
 * whether a translated structure lands on itself.
 */
export class PeriodicGrid {
  private readonly cells = new Map<number, number[]>();
  readonly points: Vec3[] = [];
  private readonly n: number;
  constructor(
    private readonly tol: number,
    expectedPoints: number,
  ) {
    // About one point per bin; bins must stay wider than the tolerance.
    const want = Math.max(1, Math.ceil(cbrt(Math.max(1, expectedPoints))));
    this.n = Math.max(1, Math.min(want, Math.floor(1 / (2 * tol)), 1024));
  }
  private key(i: number, j: number, k: number): number {
    const n = this.n;
    return ((((i % n) + n) % n) * n + (((j % n) + n) % n)) * n + (((k % n) + n) % n);
  }
  /** Index of the first stored point within tol (per component, periodic), or -1. */
  find(p: Vec3): number {
    const n = this.n,
      tol = this.tol;
    // Only the bins the tolerance box touches (usually one).
    const i0 = Math.floor((p[0] - tol) * n),
      i1 = Math.floor((p[0] + tol) * n);
    const j0 = Math.floor((p[1] - tol) * n),
      j1 = Math.floor((p[1] + tol) * n);
    const k0 = Math.floor((p[2] - tol) * n),
      k1 = Math.floor((p[2] + tol) * n);
    let best = -1;
    for (let i = i0; i <= i1; i++)
      for (let j = j0; j <= j1; j++)
        for (let k = k0; k <= k1; k++) {
          const list = this.cells.get(this.key(i, j, k));
          if (!list) continue;
          // Indexed: every site of every CIF read is looked up, mostly before V8 optimises this (for…of allocated).
          for (let at = 0; at < list.length; at++) {
            const idx = list[at];
            if (best >= 0 && idx > best) break;
            const q = this.points[idx];
            const d0 = p[0] - q[0],
              d1 = p[1] - q[1],
              d2 = p[2] - q[2];
            if (Math.abs(d0 - Math.round(d0)) <= tol && Math.abs(d1 - Math.round(d1)) <= tol && Math.abs(d2 - Math.round(d2)) <= tol) {
              best = idx;
              break;
            }
          }
        }
    return best;
  }
  add(p: Vec3): number {
    const n = this.n;
    const idx = this.points.length;
    this.points.push(p);
    const k = this.key(Math.floor(p[0] * n), Math.floor(p[1] * n), Math.floor(p[2] * n));
    const list = this.cells.get(k);
    if (list) list.push(idx);
    else this.cells.set(k, [idx]);
    return idx;
  }
}
