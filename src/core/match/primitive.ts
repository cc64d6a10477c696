/**
 * pymatgen 2022.11 `Structure.get_primitive_structure(tolerance=0.25)` (algorithms.md §1.2, 3b),
 * ported step by step: sites sorted and grouped by species string, candidate translations from the
 * least numerous group, upper-triangular Hermite normal forms for every divisor of the gcd of the
 * group sizes, the clique/size checks, position averaging, recursion, then Niggli reduction.
 */
import { type Mat3, inverse } from '../math/mat3.ts';

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
    if (last && labels[last[0]] === labels[i]) last.push(i); else groups.push([i]);
  }
  return groups;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const factors = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1).filter((i) => n % i === 0);

/** One primitive-reduction step; null when no smaller cell is found. */
function reduceOnce(s: PrimitiveInput, tolerance: number): PrimitiveOutput | null {

  const frac = (i: number, k: number) => s.frac[3 * i + k];
  const abc = s.matrix.map((r) => Math.hypot(r[0], r[1], r[2]));
  const superFtol = abc.map((l) => tolerance / l);
  const groups = groupByLabel(s.labels);
  // Least numerous group (first on ties, as Python's min).
  let smallest = groups[0];
  for (const g of groups) if (g.length < smallest.length) smallest = g;
  let minVecs: number[][] = smallest.map((i) => [0, 1, 2].map((k) => frac(i, k) - frac(smallest[0], k)));
  // Keep only translations that map every site onto a site of its own species (twice the tolerance).
  const bySize = [...groups].sort((a, b) => a.length - b.length);
  for (const g of bySize) {
    for (const f of g) {
      minVecs = minVecs.filter((v) => g.some((j) => [0, 1, 2].every((k) => wrapDiff(v[k] - (frac(j, k) - frac(f, k))) < 2 * superFtol[k])));
    }
  }
  // Sites closer than twice the tolerance may not merge (except a site with itself).
  const nonNeighbours = groups.map((g) => g.map((i) => g.map((j) => i === j || [0, 1, 2].some((k) => wrapDiff(frac(j, k) - frac(i, k)) > 2 * superFtol[k]))));
  const numFu = groups.map((g) => g.length).reduce(gcd);
  for (const size of factors(numFu)) {
    if (size === 1) continue;
    for (const a of factors(size)) {
      for (const e of factors(size / a)) {
        const g = size / a / e;
        for (let b = 0; b < a; b++) for (let c = 0; c < a; c++) for (let f = 0; f < e; f++) {
          const m: Mat3 = [[a, b, c], [0, e, f], [0, 0, g]];
          const invM = inverse(m);
          // Every row of inv(m) must be one of the surviving translations.
          if (!invM.every((row) => minVecs.some((v) => [0, 1, 2].every((k) => wrapDiff(row[k] - v[k]) < superFtol[k])))) continue;
          const result = tryCell(s, groups, nonNeighbours, m, invM, size, tolerance);
          if (result) return result;
        }
      }
    }
  }
  return null;
}

function tryCell(s: PrimitiveInput, groups: number[][], nonNeighbours: boolean[][][], m: Mat3, invM: Mat3, size: number, tolerance: number): PrimitiveOutput | null {
  const newMatrix = [0, 1, 2].map((i) => [0, 1, 2].map((k) => invM[i][0] * s.matrix[0][k] + invM[i][1] * s.matrix[1][k] + invM[i][2] * s.matrix[2][k])) as Mat3;
  const ftol = newMatrix.map((r) => tolerance / Math.hypot(r[0], r[1], r[2]));
  const coords: number[] = [];
  const labels: string[] = [];
  const source: number[] = [];
  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi];
    const allFrac = g.map((i) => [0, 1, 2].map((k) => s.frac[3 * i] * m[0][k] + s.frac[3 * i + 1] * m[1][k] + s.frac[3 * i + 2] * m[2][k]));
    const adj = g.map((_, x) => g.map((__, y) => nonNeighbours[gi][x][y] && [0, 1, 2].every((k) => wrapDiff(allFrac[y][k] - allFrac[x][k]) < ftol[k])));
    for (let y = 0; y < g.length; y++) {
      let count = 0;
      for (let x = 0; x < g.length; x++) if (adj[x][y]) count++;
      if (count !== size) return null;
    }
    for (const row of adj) {
      const members = row.flatMap((v, i) => (v ? [i] : []));
      if (!members.every((x) => members.every((y) => adj[x][y]))) return null;
    }
    const wrapped = allFrac.map((f) => f.map((x) => x - Math.floor(x)));
    const added = new Array(g.length).fill(false);
    adj.forEach((row, x) => {
      if (added[x]) return;
      const members = row.flatMap((v, i) => (v ? [i] : []));
      for (const i of members) added[i] = true;
      const p = [...wrapped[members[0]]];
      members.slice(1).forEach((j, t) => {
        for (let k = 0; k < 3; k++) { const off = wrapped[j][k] - p[k]; p[k] += (off - Math.round(off)) / (t + 2); }
      });
      coords.push(...p);
      labels.push(s.labels[g[members[0]]]);
      source.push(g[members[0]]);
    });
  }
  return { matrix: newMatrix, frac: Float64Array.from(coords), labels, source: Int32Array.from(source) };
}

/**
 * The primitive cell (recursively reduced; the caller Niggli-reduces it) or null when the cell is
 * already primitive at `tolerance` Å. `source` maps output sites to input sites.
 */
export function pymatgenPrimitive(s: PrimitiveInput, tolerance = 0.25, niggli: (x: PrimitiveOutput) => PrimitiveOutput = (x) => x): PrimitiveOutput | null {
  const once = reduceOnce(s, tolerance);
  if (!once) return null;
  const deeper = pymatgenPrimitive(once, tolerance, niggli);
  const result = deeper ? { ...deeper, source: Int32Array.from(deeper.source, (i) => once.source[i]) } : once;
  return niggli(result);
}
