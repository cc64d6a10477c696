/**
 * pymatgen 2022.11 `Structure.get_primitive_structure(tolerance=0.25)` (pymatgen/core/structure.py),
 * ported step by step: sites sorted and grouped by species string, candidate translations from the
 * least numerous group, upper-triangular Hermite normal forms for every divisor of the gcd of the
 * group sizes, the clique/size checks, position averaging, recursion, then Niggli reduction.
 */
import { gcd } from '../math/gcd.ts';
import { type Mat3, vec3 } from '../math/mat3.ts';
import { roundHalfEven } from '../structure/lll.ts';
import { numpyInverse } from './numpy-arith.ts';
import { cbrt } from '../math/libm.ts';

export interface PrimitiveInput {
  matrix: Mat3;
  /** Fractional coordinates, 3 per site. */
  frac: Float64Array;
  /** pymatgen's species string per site (sort key and identity). */
  labels: string[];
}

export interface PrimitiveOutput extends PrimitiveInput {
  /** For every output site, the input site whose species and properties it keeps. */
  source: Int32Array;
}

const wrapDiff = (d: number): number => Math.abs(d - Math.round(d));

/** Python `sorted(..., key=label)` (stable) and `itertools.groupby`. */
function groupByLabel(labels: string[]): number[][] {
  const order = labels.map((_, i) => i).sort((x, y) => (labels[x] < labels[y] ? -1 : labels[x] > labels[y] ? 1 : x - y));
  const groups: number[][] = [];
  for (const i of order) {
    const last = groups[groups.length - 1];
    if (last && labels[last[0]] === labels[i]) last.push(i);
    else groups.push([i]);
  }
  return groups;
}

/**
 * The sites of one group bucketed by wrapped fractional position, cells at least one reach wide, so
 * "is some site within reach of this point (periodically)" looks at 27 cells instead of every site:
 * the same predicate as a scan over the group, in O(1) per query instead of O(n) (a scan made the
 * translation filter O(n³): 24 s for an 864-site cell).
 */
class PeriodicSiteGrid {
  private readonly cells: number[];
  /** Per axis and cell: the cell and its periodic neighbours, each once. */
  private readonly around: number[][][];
  private readonly buckets = new Map<number, number[]>();
  constructor(
    private readonly frac: Float64Array,
    sites: readonly number[],
    reach: readonly number[],
  ) {
    // Cells per axis: as many as fit the reach (a reach of ½ or more: one cell), at most ~2 per site.
    const most = Math.max(1, Math.ceil(2 * cbrt(sites.length)));
    this.cells = reach.map((w) => Math.max(1, Math.min(most, Math.floor(1 / Math.max(w, 1e-12)))));
    this.around = this.cells.map((m) => Array.from({ length: m }, (_, x) => [...new Set([x, (x + 1) % m, (x + m - 1) % m])]));
    for (const j of sites) {
      const key = this.keyOf(this.cellIndex(frac[3 * j], 0), this.cellIndex(frac[3 * j + 1], 1), this.cellIndex(frac[3 * j + 2], 2));
      let bucket = this.buckets.get(key);
      if (!bucket) this.buckets.set(key, (bucket = []));
      bucket.push(j);
    }
  }

  private cellIndex(x: number, axis: number): number {
    const m = this.cells[axis];
    return Math.min(m - 1, Math.floor((x - Math.floor(x)) * m));
  }

  private keyOf(a: number, b: number, c: number): number {
    return (a * this.cells[1] + b) * this.cells[2] + c;
  }

  /** Whether some site j has wrapDiff(v[k] − (frac_j[k] − frac_f[k])) < reach[k] on every axis (pymatgen's expression). */
  hasSiteNear(f: number, v: readonly number[], reach: readonly number[]): boolean {
    const fr = this.frac;
    const point = [fr[3 * f] + v[0], fr[3 * f + 1] + v[1], fr[3 * f + 2] + v[2]];
    const a0 = this.cellIndex(point[0], 0),
      b0 = this.cellIndex(point[1], 1),
      c0 = this.cellIndex(point[2], 2);
    for (const a of this.around[0][a0])
      for (const b of this.around[1][b0])
        for (const c of this.around[2][c0]) {
          const bucket = this.buckets.get(this.keyOf(a, b, c));
          if (!bucket) continue;
          for (const j of bucket) {
            if (
              wrapDiff(v[0] - (fr[3 * j] - fr[3 * f])) < reach[0] &&
              wrapDiff(v[1] - (fr[3 * j + 1] - fr[3 * f + 1])) < reach[1] &&
              wrapDiff(v[2] - (fr[3 * j + 2] - fr[3 * f + 2])) < reach[2]
            )
              return true;
          }
        }
    return false;
  }
}

const factors = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1).filter((i) => n % i === 0);

/**
 * Charges `units` of work (site or translation comparisons) to the caller's budget, which throws past it: the
 * Hermite-normal-form enumeration below grows with the divisors of the site count (tens of millions of
 * candidate cells for 1,990 sites, each checked against every surviving translation), as in pymatgen.
 */
export type SpendWork = (units: number) => void;

/** One primitive-reduction step; null when no smaller cell is found. */
function reduceOnce(s: PrimitiveInput, tolerance: number, spend: SpendWork): PrimitiveOutput | null {
  const frac = (i: number, k: number) => s.frac[3 * i + k];
  const abc = s.matrix.map((r) => Math.sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]));
  const superFtol = abc.map((l) => tolerance / l);
  const groups = groupByLabel(s.labels);
  // Least numerous group (first on ties, as Python's min).
  let smallest = groups[0];
  for (const g of groups) if (g.length < smallest.length) smallest = g;
  let minVecs: number[][] = smallest.map((i) => [0, 1, 2].map((k) => frac(i, k) - frac(smallest[0], k)));
  // Keep only translations that map every site onto a site of its own species (twice the tolerance).
  const bySize = [...groups].sort((a, b) => a.length - b.length);
  const reach = superFtol.map((t) => 2 * t);
  for (const g of bySize) {
    const near = new PeriodicSiteGrid(s.frac, g, reach);
    spend(g.length * minVecs.length);
    for (const f of g) {
      minVecs = minVecs.filter((v) => near.hasSiteNear(f, v, reach));
    }
  }
  // Sites closer than twice the tolerance may not merge (except a site with itself); per group, row-major |g|×|g|.
  const nonNeighbours = groups.map((g) => {
    const n = g.length;
    spend(n * n);
    const out = new Uint8Array(n * n);
    for (let x = 0; x < n; x++)
      for (let y = 0; y < n; y++) {
        const i = g[x],
          j = g[y];
        out[x * n + y] =
          i === j ||
          wrapDiff(frac(j, 0) - frac(i, 0)) > reach[0] ||
          wrapDiff(frac(j, 1) - frac(i, 1)) > reach[1] ||
          wrapDiff(frac(j, 2) - frac(i, 2)) > reach[2]
            ? 1
            : 0;
      }
    return out;
  });
  const numFu = groups.map((g) => g.length).reduce(gcd);
  for (const size of factors(numFu)) {
    if (size === 1) continue;
    for (const a of factors(size)) {
      for (const e of factors(size / a)) {
        const g = size / a / e;
        for (let b = 0; b < a; b++)
          for (let c = 0; c < a; c++)
            for (let f = 0; f < e; f++) {
              // Measured: a candidate (its inverse, then each surviving translation) costs about 64 + 2 per translation.
              spend(64 + 2 * minVecs.length);
              const m: Mat3 = [vec3(a, b, c), vec3(0, e, f), vec3(0, 0, g)];
              const invM = numpyInverse(m);
              // Every row of inv(m) must be one of the surviving translations.
              if (!invM.every((row) => minVecs.some((v) => [0, 1, 2].every((k) => wrapDiff(row[k] - v[k]) < superFtol[k])))) continue;
              const result = tryCell(s, groups, nonNeighbours, m, invM, size, tolerance, spend);
              if (result) return result;
            }
      }
    }
  }
  return null;
}

function tryCell(
  s: PrimitiveInput,
  groups: number[][],
  nonNeighbours: Uint8Array[],
  m: Mat3,
  invM: Mat3,
  size: number,
  tolerance: number,
  spend: SpendWork,
): PrimitiveOutput | null {
  const newMatrix = [0, 1, 2].map((i) =>
    [0, 1, 2].map((k) => invM[i][0] * s.matrix[0][k] + invM[i][1] * s.matrix[1][k] + invM[i][2] * s.matrix[2][k]),
  ) as Mat3;
  const ftol = newMatrix.map((r) => tolerance / Math.sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]));
  const coords: number[] = [];
  const labels: string[] = [];
  const source: number[] = [];
  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi];
    const allFrac = g.map((i) => [0, 1, 2].map((k) => s.frac[3 * i] * m[0][k] + s.frac[3 * i + 1] * m[1][k] + s.frac[3 * i + 2] * m[2][k]));
    // adj[x·n + y]: sites x and y of the group fall onto one site of the new cell (row-major, flat).
    const n = g.length;
    const nn = nonNeighbours[gi];
    // Filled a column at a time so that a wrong cell is given up at its first column whose count is not `size`.
    const adj = new Uint8Array(n * n);
    for (let y = 0; y < n; y++) {
      spend(n);
      const ay = allFrac[y];
      let count = 0;
      for (let x = 0; x < n; x++) {
        const ax = allFrac[x];
        const v =
          nn[x * n + y] && wrapDiff(ay[0] - ax[0]) < ftol[0] && wrapDiff(ay[1] - ax[1]) < ftol[1] && wrapDiff(ay[2] - ax[2]) < ftol[2]
            ? 1
            : 0;
        adj[x * n + y] = v;
        count += v;
      }
      if (count !== size) return null;
    }
    const membersOf = (x: number): number[] => {
      const out: number[] = [];
      for (let y = 0; y < n; y++) if (adj[x * n + y]) out.push(y);
      return out;
    };
    for (let x = 0; x < n; x++) {
      const members = membersOf(x);
      if (!members.every((a) => members.every((b) => adj[a * n + b]))) return null;
    }
    const wrapped = allFrac.map((f) => f.map((x) => x - Math.floor(x)));
    const added = new Array(n).fill(false);
    for (let x = 0; x < n; x++) {
      if (added[x]) continue;
      const members = membersOf(x);
      for (const i of members) added[i] = true;
      const p = [...wrapped[members[0]]];
      members.slice(1).forEach((j, t) => {
        for (let k = 0; k < 3; k++) {
          const off = wrapped[j][k] - p[k];
          p[k] += (off - roundHalfEven(off)) / (t + 2);
        }
      });
      coords.push(...p);
      labels.push(s.labels[g[members[0]]]);
      source.push(g[members[0]]);
    }
  }
  return { matrix: newMatrix, frac: Float64Array.from(coords), labels, source: Int32Array.from(source) };
}

/**
 * The primitive cell (recursively reduced; the caller Niggli-reduces it) or null when the cell is
 * already primitive at `tolerance` Å. `source` maps output sites to input sites.
 */
export function pymatgenPrimitive(
  s: PrimitiveInput,
  tolerance = 0.25,
  niggli: (x: PrimitiveOutput) => PrimitiveOutput = (x) => x,
  spend: SpendWork = () => {},
): PrimitiveOutput | null {
  const once = reduceOnce(s, tolerance, spend);
  if (!once) return null;
  const deeper = pymatgenPrimitive(once, tolerance, niggli, spend);
  const result = deeper ? { ...deeper, source: Int32Array.from(deeper.source, (i) => once.source[i]) } : once;
  return niggli(result);
}
