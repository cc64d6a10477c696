/**
 * Comparison of two particles that is invariant to atom order and rigid motion and works for different
 * atom counts: seed a rotation, then alternate optimal per-species assignment (munkres, Hungarian,
 * rectangular allowed) with the optimal proper rotation for the matched pairs (Horn's quaternion form of
 * Kabsch: det = +1 always, so reflections are never returned), until the assignment no longer changes.
 */
import { munkres } from 'munkres';
import type { Mat3, Vec3 } from '../math/mat3.ts';
import { PointGrid } from './hausdorff.ts';
import { addCoordinates } from './hull.ts';
import { kernelArena, kernels } from '../math/kernels.ts';

export interface Particle {
  symbols: string[];
  /** xyz triples, one per symbol. */
  coords: Float64Array;
}

export interface RigidTransform {
  /** Applied as x' = R·x + t. */
  rotation: Mat3;
  translation: Vec3;
}

export interface AlignmentResult {
  /** √(mean squared distance over matched pairs) after superposition, Å (per-atom, N denominator). */
  rmsd: number;
  /** Largest matched-pair distance after superposition, Å. */
  maxDisplacement: number;
  /** Matched pairs within `tolerance`, divided by max(nPred, nTruth). */
  matchedFraction: number;
  tolerance: number;
  /** pairs[k] = [predIndex, truthIndex]. */
  pairs: [number, number][];
  /** Moves the prediction onto the truth. */
  transform: RigidTransform;
  iterations: number;
  /** False when an assignment step exceeded HUNGARIAN_WORK and paired some atoms greedily (garbage input). */
  optimal: boolean;
}

/** A matched pair counts as "matched" when it lies within this many Å after superposition. */
export const DEFAULT_MATCH_TOLERANCE = 0.5;

const MAX_ITERATIONS = 10;
/**
 * Seeds one pass refines at most: an fcc particle gives ~1,200 (24 centres × 12 × 12 neighbours at the loose
 * edge tolerance); atoms piled on a few spots would give millions.
 */
const MAX_SEEDS = 4096;
/** Mean capped squared nearest distance (Å²) below which a seed is taken as found (0.1 Å rms). */
const LOOSE_SEED_SCORE = 0.01;

export function applyTransform(coords: Float64Array, { rotation: R, translation: t }: RigidTransform): Float64Array {
  // A WebAssembly kernel (kernels/superpose.ts): the same loop in TypeScript ran interpreted for most of a cold process.
  const n = coords.length / 3;
  const arena = kernelArena();
  const out = arena.zerosF64(3 * n);
  const motion = Float64Array.of(R[0][0], R[0][1], R[0][2], R[1][0], R[1][1], R[1][2], R[2][0], R[2][1], R[2][2], t[0], t[1], t[2]);
  kernels().rigidMotion(arena.put(coords), n, arena.put(motion), out);
  return arena.readF64(out, 3 * n);
}

/**
 * Eigen-decomposition of a symmetric 4×4 matrix by cyclic Jacobi; returns the eigenvector of the largest eigenvalue.
 * The matrices are flat Float64Arrays (m[4p + q]): rows as arrays are made in more than one elements kind (a row
 * of small integers, or built in the interpreter or in optimised code) and each kind sent the compiled loop back.
 */
function largestEigenvector4(a: number[][]): number[] {
  const m = new Float64Array(16),
    v = new Float64Array(16);
  for (let p = 0; p < 4; p++) {
    for (let q = 0; q < 4; q++) m[4 * p + q] = a[p][q];
    v[5 * p] = 1;
  }
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < 4; p++) for (let q = p + 1; q < 4; q++) off += m[4 * p + q] * m[4 * p + q];
    if (off < 1e-30) break;
    for (let p = 0; p < 4; p++)
      for (let q = p + 1; q < 4; q++) {
        if (Math.abs(m[4 * p + q]) < 1e-300) continue;
        const theta = (m[4 * q + q] - m[4 * p + p]) / (2 * m[4 * p + q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1),
          s = t * c;
        for (let k = 0; k < 4; k++) {
          const mkp = m[4 * k + p],
            mkq = m[4 * k + q];
          m[4 * k + p] = c * mkp - s * mkq;
          m[4 * k + q] = s * mkp + c * mkq;
        }
        for (let k = 0; k < 4; k++) {
          const mpk = m[4 * p + k],
            mqk = m[4 * q + k];
          m[4 * p + k] = c * mpk - s * mqk;
          m[4 * q + k] = s * mpk + c * mqk;
        }
        for (let k = 0; k < 4; k++) {
          const vkp = v[4 * k + p],
            vkq = v[4 * k + q];
          v[4 * k + p] = c * vkp - s * vkq;
          v[4 * k + q] = s * vkp + c * vkq;
        }
      }
  }
  let best = 0;
  for (let k = 1; k < 4; k++) if (m[5 * k] > m[5 * best]) best = k;
  return [v[best], v[4 + best], v[8 + best], v[12 + best]];
}

/** Proper rotation + translation minimising Σ‖R·p_i + t − q_i‖² over the listed pairs (Horn 1987). */
export function superpose(moving: Float64Array, target: Float64Array, pairs: [number, number][]): RigidTransform {
  const n = pairs.length;
  // The sums run in a WebAssembly kernel (kernels/superpose.ts): as TypeScript they ran interpreted for most of a
  // cold process, boxing every partial sum.
  const flat = new Int32Array(2 * n);
  for (let k = 0; k < n; k++) {
    flat[2 * k] = pairs[k][0];
    flat[2 * k + 1] = pairs[k][1];
  }
  const arena = kernelArena();
  const sumsAt = arena.zerosF64(15);
  kernels().pairSums(arena.put(moving), arena.put(target), arena.put(flat), n, sumsAt);
  const [cpx, cpy, cpz, cqx, cqy, cqz, xx, xy, xz, yx, yy, yz, zx, zy, zz] = arena.readF64(sumsAt, 15);
  const cp = [cpx, cpy, cpz],
    cq = [cqx, cqy, cqz];
  const N = [
    [xx + yy + zz, yz - zy, zx - xz, xy - yx],
    [yz - zy, xx - yy - zz, xy + yx, zx + xz],
    [zx - xz, xy + yx, -xx + yy - zz, yz + zy],
    [xy - yx, zx + xz, yz + zy, -xx - yy + zz],
  ];
  const q = n < 2 ? [1, 0, 0, 0] : largestEigenvector4(N);
  const w = q[0],
    x = q[1],
    y = q[2],
    z = q[3];
  const rotation: Mat3 = [
    [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z],
  ];
  const translation: Vec3 = [0, 1, 2].map(
    (r) => cq[r] - (rotation[r][0] * cp[0] + rotation[r][1] * cp[1] + rotation[r][2] * cp[2]),
  ) as Vec3;
  return { rotation, translation };
}

function indicesBySpecies(symbols: string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (let i = 0; i < symbols.length; i++) {
    const list = out.get(symbols[i]);
    if (list) list.push(i);
    else out.set(symbols[i], [i]);
  }
  return out;
}

function pick(coords: Float64Array, indices: number[]): Float64Array {
  const out = new Float64Array(indices.length * 3);
  for (let k = 0; k < indices.length; k++) {
    const i = indices[k];
    out[3 * k] = coords[3 * i];
    out[3 * k + 1] = coords[3 * i + 1];
    out[3 * k + 2] = coords[3 * i + 2];
  }
  return out;
}

const dist2 = (a: Float64Array, i: number, b: Float64Array, j: number) => {
  const dx = a[3 * i] - b[3 * j],
    dy = a[3 * i + 1] - b[3 * j + 1],
    dz = a[3 * i + 2] - b[3 * j + 2];
  return dx * dx + dy * dy + dz * dz;
};

/**
 * The pairing by nearest neighbour, when it is already optimal: each atom of the smaller side pays at least its
 * nearest distance in any assignment, so if those nearest partners are all distinct the assignment is optimal
 * and the O(n³) Hungarian step can be skipped (the usual case once a good prediction is superposed).
 */
function nearestIfOptimal(
  rows: number[],
  pred: Float64Array,
  cols: number[],
  truth: Float64Array,
  colsGrid: PointGrid | undefined,
): [number, number][] | null {
  const predSmaller = rows.length <= cols.length;
  const [small, smallXyz, large, largeXyz] = predSmaller ? [rows, pred, cols, truth] : [cols, truth, rows, pred];
  const grid = (predSmaller ? colsGrid : undefined) ?? new PointGrid(pick(largeXyz, large));
  const taken = new Uint8Array(large.length);
  const out: [number, number][] = [];
  for (let m = 0; m < small.length; m++) {
    const i = small[m];
    grid.nearestSquared(smallXyz[3 * i], smallXyz[3 * i + 1], smallXyz[3 * i + 2], -1, Infinity);
    const k = grid.lastNearest;
    if (k < 0 || taken[k]) return null;
    taken[k] = 1;
    out.push(predSmaller ? [i, large[k]] : [large[k], i]);
  }
  return out;
}

/**
 * Work (rows · cols · min(rows, cols), the Hungarian method's O(n³)) one optimal assignment may take: about a
 * third of a second here. A block beyond it (hundreds of mutually close atoms: a garbage prediction, or atoms
 * piled on one spot) is paired greedily instead and the result is marked not optimal.
 */
export const HUNGARIAN_WORK = 1e9;
/** Candidate pairs within the cap that one assignment may list before it pairs greedily instead. */
const CAPPED_PAIR_BUDGET = 4_000_000;

export interface Assignment {
  pairs: [number, number][];
  /** False when some block was too large for an optimal assignment and was paired greedily. */
  optimal: boolean;
}

/**
 * Optimal one-to-one pairing within each species on squared distances (pairs across species never form).
 * With `cap`, a pair's cost is min(d², cap²): beyond the cap every pairing costs the same, so a stray atom
 * cannot push a chain of good pairs each one neighbour along (which plain least squares prefers).
 */
export function assignBySpecies(
  predSpecies: Map<string, number[]>,
  pred: Float64Array,
  truthSpecies: Map<string, number[]>,
  truth: Float64Array,
  cap = Infinity,
): [number, number][] {
  return assignBySpeciesBounded(predSpecies, pred, truthSpecies, truth, cap).pairs;
}

/**
 * assignBySpecies with its bounded-work report (see HUNGARIAN_WORK). `truthGrids`: each species' truth atoms
 * (in truthSpecies order) as a PointGrid already built, reused instead of building one per call.
 */
export function assignBySpeciesBounded(
  predSpecies: Map<string, number[]>,
  pred: Float64Array,
  truthSpecies: Map<string, number[]>,
  truth: Float64Array,
  cap = Infinity,
  truthGrids?: ReadonlyMap<string, { grid: PointGrid }>,
): Assignment {
  const pairs: [number, number][] = [];
  let optimal = true;
  for (const [symbol, rows] of predSpecies) {
    const cols = truthSpecies.get(symbol);
    if (!cols || rows.length === 0) continue;
    const shortcut = nearestIfOptimal(rows, pred, cols, truth, truthGrids?.get(symbol)?.grid);
    if (shortcut) {
      pairs.push(...shortcut);
      continue;
    }
    // With a finite cap only pairs closer than it differ in cost, so the problem splits into the connected
    // groups of such pairs (each solved on its own, exactly) plus an arbitrary pairing of what is left.
    const blocks = Number.isFinite(cap) ? cappedBlocks(rows, pred, cols, truth, cap) : [{ rows, cols }];
    if (!blocks) {
      optimal = false;
      pairs.push(...greedyPairs(rows, pred, cols, truth));
      continue;
    }
    const leftRows: number[] = [],
      leftCols: number[] = [];
    const cap2 = cap * cap;
    for (const block of blocks) {
      const found = hungarianOrGreedy(block.rows, pred, block.cols, truth, cap);
      if (!found.optimal) optimal = false;
      const usedRows = new Set<number>(),
        usedCols = new Set<number>();
      for (const [i, j] of found.pairs) {
        if (Number.isFinite(cap) && !(dist2(pred, i, truth, j) < cap2)) continue; // a tie at cap²: leftover
        pairs.push([i, j]);
        usedRows.add(i);
        usedCols.add(j);
      }
      for (const i of block.rows) if (!usedRows.has(i)) leftRows.push(i);
      for (const j of block.cols) if (!usedCols.has(j)) leftCols.push(j);
    }
    // Leftovers all cost cap²: any pairing is optimal; the one with the least plain d² reads best.
    if (leftRows.length && leftCols.length) {
      const found = hungarianOrGreedy(leftRows, pred, leftCols, truth, Infinity);
      pairs.push(...found.pairs);
    }
  }
  return { pairs: byPredIndex(pairs, pred.length / 3), optimal };
}

/** The pairs in increasing prediction index (each appears once): placed by index, no comparison sort. */
function byPredIndex(pairs: [number, number][], np: number): [number, number][] {
  const at = new Int32Array(np).fill(-1);
  placePairs(pairs, at);
  return pairsAt(pairs, at);
}

// Two loops, two functions: a function compiled on the fly in its first loop was dropped back to the
// interpreter at its second.

/** at[i] = the index in pairs of the pair of prediction atom i. */
function placePairs(pairs: [number, number][], at: Int32Array): void {
  for (let k = 0; k < pairs.length; k++) at[pairs[k][0]] = k;
}

function pairsAt(pairs: [number, number][], at: Int32Array): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < at.length; i++) if (at[i] >= 0) out.push(pairs[at[i]]);
  return out;
}

/** The Hungarian method on one block, or the greedy pairing when the block exceeds HUNGARIAN_WORK. */
function hungarianOrGreedy(rows: number[], pred: Float64Array, cols: number[], truth: Float64Array, cap: number): Assignment {
  if (rows.length === 0 || cols.length === 0) return { pairs: [], optimal: true };
  if (rows.length * cols.length * Math.min(rows.length, cols.length) > HUNGARIAN_WORK) {
    return { pairs: greedyPairs(rows, pred, cols, truth), optimal: false };
  }
  const cap2 = cap * cap;
  // Rows as views of one buffer: a third of the memory of number[][].
  const buffer = new Float64Array(rows.length * cols.length);
  const matrix: Float64Array[] = [];
  for (let r = 0; r < rows.length; r++) {
    const row = buffer.subarray(r * cols.length, (r + 1) * cols.length);
    for (let c = 0; c < cols.length; c++) row[c] = Math.min(cap2, dist2(pred, rows[r], truth, cols[c]));
    matrix.push(row);
  }
  return { pairs: munkres(matrix).map(([r, c]) => [rows[r], cols[c]] as [number, number]), optimal: true };
}

/**
 * The groups of atoms linked by pairs closer than `cap` (union–find over a cell list of cap-sized cells);
 * atoms with no such pair form no group (they are leftovers). Null when the close pairs exceed
 * CAPPED_PAIR_BUDGET (atoms piled together), where only a greedy pairing is affordable.
 */
function cappedBlocks(
  rows: number[],
  pred: Float64Array,
  cols: number[],
  truth: Float64Array,
  cap: number,
): { rows: number[]; cols: number[] }[] | null {
  const cap2 = cap * cap;
  const grid = new PointGrid(pick(truth, cols), cap);
  const parent = Int32Array.from({ length: rows.length + cols.length }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const linked = new Uint8Array(rows.length + cols.length);
  let budget = CAPPED_PAIR_BUDGET;
  for (let r = 0; r < rows.length; r++) {
    const i = rows[r];
    const ok = grid.forEachWithin(pred[3 * i], pred[3 * i + 1], pred[3 * i + 2], cap2, (c) => {
      if (--budget < 0) return false;
      linked[r] = linked[rows.length + c] = 1;
      const x = find(r),
        y = find(rows.length + c);
      if (x !== y) parent[x] = y;
      return true;
    });
    if (!ok) return null;
  }
  const groups = new Map<number, { rows: number[]; cols: number[] }>();
  const group = (k: number) => {
    const root = find(k);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { rows: [], cols: [] }));
    return g;
  };
  const out: { rows: number[]; cols: number[] }[] = [];
  const single = { rows: [] as number[], cols: [] as number[] };
  rows.forEach((i, r) => (linked[r] ? group(r).rows.push(i) : single.rows.push(i)));
  cols.forEach((j, c) => (linked[rows.length + c] ? group(rows.length + c).cols.push(j) : single.cols.push(j)));
  out.push(...groups.values());
  // Unlinked atoms: a block of their own whose pairs all cost cap² (they end as leftovers).
  out.push({ rows: single.rows, cols: [] }, { rows: [], cols: single.cols });
  return out;
}

/**
 * Each atom of the smaller side, in index order, takes its nearest free partner (a cell-list walk per atom,
 * at most a few candidates each for real particles); whatever finds no free partner is paired in index order.
 * Not optimal: used only past the work bounds above, and reported so.
 */
function greedyPairs(rows: number[], pred: Float64Array, cols: number[], truth: Float64Array): [number, number][] {
  const predSmaller = rows.length <= cols.length;
  const [small, smallXyz, large, largeXyz] = predSmaller ? [rows, pred, cols, truth] : [cols, truth, rows, pred];
  const grid = new PointGrid(pick(largeXyz, large));
  const taken = new Uint8Array(large.length);
  const out: [number, number][] = [];
  const waiting: number[] = [];
  for (const i of small) {
    grid.nearestSquared(smallXyz[3 * i], smallXyz[3 * i + 1], smallXyz[3 * i + 2], -1, Infinity);
    const k = grid.lastNearest;
    if (k < 0 || taken[k]) {
      waiting.push(i);
      continue;
    }
    taken[k] = 1;
    out.push(predSmaller ? [i, large[k]] : [large[k], i]);
  }
  let k = 0;
  for (const i of waiting) {
    while (taken[k]) k++;
    taken[k] = 1;
    out.push(predSmaller ? [i, large[k]] : [large[k], i]);
  }
  return out;
}

const centroid = (c: Float64Array): Vec3 => {
  const s = new Float64Array(3);
  addCoordinates(c, s);
  const n = c.length / 3;
  return n ? [s[0] / n, s[1] / n, s[2] / n] : [0, 0, 0];
};

const compose = (outer: RigidTransform, inner: RigidTransform): RigidTransform => {
  const R: Mat3 = [0, 1, 2].map((r) =>
    [0, 1, 2].map(
      (c) =>
        outer.rotation[r][0] * inner.rotation[0][c] +
        outer.rotation[r][1] * inner.rotation[1][c] +
        outer.rotation[r][2] * inner.rotation[2][c],
    ),
  ) as Mat3;
  const t = inner.translation;
  const translation = [0, 1, 2].map(
    (r) => outer.rotation[r][0] * t[0] + outer.rotation[r][1] * t[1] + outer.rotation[r][2] * t[2] + outer.translation[r],
  ) as Vec3;
  return { rotation: R, translation };
};

/** Per species, the truth's atoms of that species (truth indices) and a PointGrid of them, in that order. */
type TruthGrids = Map<string, TruthGrid>;
type TruthGrid = { grid: PointGrid; indices: number[] };

const IDENTITY: Mat3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/**
 * Candidate starting transforms: the centroid-aligned identity, plus every way of laying a reference triad of
 * the prediction (the atom nearest its centroid and two non-collinear near neighbours) onto a triad of the
 * truth with the same species and edge lengths. The triads make the result independent of how far the
 * prediction is rotated; the inertia tensor cannot, being isotropic for cubic particles.
 */
function seedTransforms(
  pred: Particle,
  truth: Particle,
  truthGrids: TruthGrids,
  edgeTolerance: number,
): { seeds: RigidTransform[]; keys: string[]; anchor: number } {
  const cp = centroid(pred.coords),
    cg = centroid(truth.coords);
  const seeds: RigidTransform[] = [{ rotation: IDENTITY, translation: [cg[0] - cp[0], cg[1] - cp[1], cg[2] - cp[2]] }];
  // What each seed was made from (a seed is a function of its triad alone): the looser pass skips those tried.
  const keys = ['centroid'];
  const P = pred.coords,
    G = truth.coords,
    np = pred.symbols.length,
    ng = truth.symbols.length;
  if (np < 3 || ng < 3) return { seeds, keys, anchor: -1 };
  const centre = new Float64Array(cp);
  let r = 0;
  for (let i = 1; i < np; i++) if (dist2(P, i, centre, 0) < dist2(P, r, centre, 0)) r = i;
  const byDistance = nearestAtoms(P, r, 60);
  const u = byDistance[0];
  const vec = (c: Float64Array, i: number, j: number): Vec3 => [
    c[3 * j] - c[3 * i],
    c[3 * j + 1] - c[3 * i + 1],
    c[3 * j + 2] - c[3 * i + 2],
  ];
  const ru = vec(P, r, u);
  const v = byDistance.slice(1, 60).find((k) => {
    const rv = vec(P, r, k);
    const cr = [ru[1] * rv[2] - ru[2] * rv[1], ru[2] * rv[0] - ru[0] * rv[2], ru[0] * rv[1] - ru[1] * rv[0]];
    return Math.hypot(cr[0], cr[1], cr[2]) > 0.3 * Math.hypot(...ru) * Math.hypot(...rv);
  });
  if (v === undefined) return { seeds, keys, anchor: -1 };
  const dru = Math.sqrt(dist2(P, r, P, u)),
    drv = Math.sqrt(dist2(P, r, P, v)),
    duv = Math.sqrt(dist2(P, u, P, v));
  const framePred = frame(vec(P, r, u), vec(P, r, v));
  const rOffset = Math.sqrt(dist2(P, r, centre, 0));
  const truthCentre = new Float64Array(cg);
  const candidates: number[] = [];
  for (let c = 0; c < ng; c++)
    if (truth.symbols[c] === pred.symbols[r] && Math.sqrt(dist2(G, c, truthCentre, 0)) <= rOffset + 3) candidates.push(c);
  const centres = candidates.sort((a, b) => dist2(G, a, truthCentre, 0) - dist2(G, b, truthCentre, 0)).slice(0, 24);
  // The atoms of `symbol` whose distance from c is within edgeTolerance of d, in index order. Only those within
  // d + edgeTolerance can be: the species grid lists them (a hair more; the test is exact) instead of a scan of all.
  const near = (c: number, symbol: string, d: number) => {
    const out: number[] = [];
    const entry = truthGrids.get(symbol);
    if (!entry) return out;
    const reach2 = (d + edgeTolerance) ** 2 * (1 + 1e-9);
    entry.grid.forEachWithin(G[3 * c], G[3 * c + 1], G[3 * c + 2], reach2, (g) => {
      const j = entry.indices[g];
      if (j !== c && Math.abs(Math.sqrt(dist2(G, c, G, j)) - d) <= edgeTolerance) out.push(j);
      return true;
    });
    return out.sort((a, b) => a - b);
  };
  // Atoms piled on a few spots make every triad fit: bound the candidate triads tried, not only the seeds kept.
  let tries = 50 * MAX_SEEDS;
  for (const c of centres) {
    const us = near(c, pred.symbols[u], dru),
      vs = near(c, pred.symbols[v], drv);
    for (const u2 of us)
      for (const v2 of vs) {
        if (--tries < 0) return { seeds, keys, anchor: r };
        if (u2 === v2 || Math.abs(Math.sqrt(dist2(G, u2, G, v2)) - duv) > edgeTolerance) continue;
        const frameTruth = frame(vec(G, c, u2), vec(G, c, v2));
        // A collinear or coincident truth triad (within the loose tolerance) has no frame.
        if (!frameTruth.every((axis) => axis.every(Number.isFinite))) continue;
        // R = F_truth · F_predᵀ (columns are the frame axes).
        const R = [0, 1, 2].map((i) =>
          [0, 1, 2].map(
            (j) => frameTruth[0][i] * framePred[0][j] + frameTruth[1][i] * framePred[1][j] + frameTruth[2][i] * framePred[2][j],
          ),
        ) as Mat3;
        const t: Vec3 = [0, 1, 2].map((i) => G[3 * c + i] - (R[i][0] * P[3 * r] + R[i][1] * P[3 * r + 1] + R[i][2] * P[3 * r + 2])) as Vec3;
        seeds.push({ rotation: R, translation: t });
        keys.push(`${c},${u2},${v2}`);
        if (seeds.length >= MAX_SEEDS) return { seeds, keys, anchor: r };
      }
  }
  return { seeds, keys, anchor: r };
}

/** Orthonormal right-handed frame (three axis vectors) from two non-collinear edges. */
function frame(a: Vec3, b: Vec3): [Vec3, Vec3, Vec3] {
  const la = Math.hypot(...a);
  const e1: Vec3 = [a[0] / la, a[1] / la, a[2] / la];
  const k = b[0] * e1[0] + b[1] * e1[1] + b[2] * e1[2];
  const w: Vec3 = [b[0] - k * e1[0], b[1] - k * e1[1], b[2] - k * e1[2]];
  const lw = Math.hypot(...w);
  const e2: Vec3 = [w[0] / lw, w[1] / lw, w[2] / lw];
  const e3: Vec3 = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
  return [e1, e2, e3];
}

/**
 * Nearest-neighbour refinement of a seed (ICP on same-species nearest atoms within `cap` Å) over successive
 * atom subsets, then its score on `scoreSample`: the mean capped squared nearest distance. The subsets grow
 * outwards from the triad's anchor atom: a noisy triad gives a rotation several degrees off, which near the
 * anchor moves atoms far less than a lattice spacing, so the local pairs are right and each stage improves it.
 */
function refineSeed(
  pred: Particle,
  seed: RigidTransform,
  stages: AtomSubset[],
  scoreSample: AtomSubset,
  cap: number,
): { transform: RigidTransform; score: number } {
  let transform = seed;
  // Only the subset's atoms are moved (a seed is tried on a few hundred atoms, not the whole particle).
  const nearestPairs = ({ atoms: subset, grids }: AtomSubset) => {
    const { rotation: R, translation: t } = transform;
    const moved = new Float64Array(subset.length * 3);
    const target = new Float64Array(subset.length * 3);
    const pairs: [number, number][] = [];
    let sum = 0;
    for (let k = 0; k < subset.length; k++) {
      const i = subset[k];
      const x = pred.coords[3 * i],
        y = pred.coords[3 * i + 1],
        z = pred.coords[3 * i + 2];
      const mx = R[0][0] * x + R[0][1] * y + R[0][2] * z + t[0];
      const my = R[1][0] * x + R[1][1] * y + R[1][2] * z + t[1];
      const mz = R[2][0] * x + R[2][1] * y + R[2][2] * z + t[2];
      moved[3 * k] = mx;
      moved[3 * k + 1] = my;
      moved[3 * k + 2] = mz;
      const entry = grids[k];
      if (!entry) {
        sum += cap * cap;
        continue;
      }
      const d2 = entry.grid.nearestSquared(mx, my, mz, -1, cap);
      sum += Math.min(d2, cap * cap);
      if (d2 <= cap * cap) {
        const j = entry.grid.lastNearest;
        target[3 * k] = entry.grid.xyz[3 * j];
        target[3 * k + 1] = entry.grid.xyz[3 * j + 1];
        target[3 * k + 2] = entry.grid.xyz[3 * j + 2];
        pairs.push([k, k]);
      }
    }
    return { pairs, moved, target, score: sum / Math.max(1, subset.length) };
  };
  for (const subset of stages) {
    const { pairs, moved, target } = nearestPairs(subset);
    if (pairs.length < 3) continue;
    transform = compose(superpose(moved, target, pairs), transform);
  }
  return { transform, score: nearestPairs(scoreSample).score };
}

/** Atoms of the prediction, each with the truth's grid of its species (undefined: the truth has none). */
interface AtomSubset {
  atoms: number[];
  grids: (TruthGrid | undefined)[];
}

/** Radii (Å) around the anchor atom of the growing refinement stages. */
const STAGE_RADII = [4.5, 7, 10, 14];

/**
 * The `count` atoms nearest atom r (r itself left out), nearest first, equal distances in index order: the head of a
 * stable sort of all atoms by distance, found in one pass instead of sorting them all.
 */
function nearestAtoms(P: Float64Array, r: number, count: number): number[] {
  // Fixed-length arrays and a fill count: an array grown by stores dropped the compiled loop back to the interpreter.
  const atoms = new Int32Array(count),
    d2s = new Float64Array(count);
  return Array.from(atoms.subarray(0, keepNearest(P, r, atoms, d2s)));
}

/** nearestAtoms' scan, into atoms and their squared distances d2s (as long as the count wanted); returns how many. */
function keepNearest(P: Float64Array, r: number, atoms: Int32Array, d2s: Float64Array): number {
  const count = atoms.length;
  let filled = 0;
  for (let i = 0; i < P.length / 3; i++) {
    if (i === r) continue;
    const d2 = dist2(P, i, P, r);
    if (filled === count && d2 >= d2s[count - 1]) continue;
    let k = filled === count ? count - 1 : filled++;
    for (; k > 0 && d2s[k - 1] > d2; k--) {
      atoms[k] = atoms[k - 1];
      d2s[k] = d2s[k - 1];
    }
    atoms[k] = i;
    d2s[k] = d2;
  }
  return filled;
}

/** At most `limit` evenly spaced entries. */
const thin = (xs: number[], limit: number) => (xs.length <= limit ? xs : xs.filter((_, k) => k % Math.ceil(xs.length / limit) === 0));

/**
 * Superposes `pred` onto `truth` allowing any atom order, any rigid motion (proper rotations only) and
 * different atom counts (unmatched atoms are left out of rmsd and count against matchedFraction).
 */
export function alignParticles(pred: Particle, truth: Particle, tolerance = DEFAULT_MATCH_TOLERANCE): AlignmentResult {
  const predSpecies = indicesBySpecies(pred.symbols),
    truthSpecies = indicesBySpecies(truth.symbols);
  const grids: TruthGrids = new Map();
  for (const [symbol, indices] of truthSpecies) grids.set(symbol, { grid: new PointGrid(pick(truth.coords, indices)), indices });
  const np = pred.symbols.length;
  const stride = Math.max(1, Math.floor(np / 200));
  const sample: number[] = [];
  for (let i = 0; i < np; i += stride) sample.push(i);
  // Each subset's species grids looked up once, not once per seed.
  const subsetOf = (atoms: number[]): AtomSubset => ({ atoms, grids: atoms.map((i) => grids.get(pred.symbols[i])) });
  const sampleSubset = subsetOf(sample);
  let best: { transform: RigidTransform; score: number } | null = null;
  // The looser pass finds the tight pass's seeds again (the same triads, the same stages): refined again they would
  // give the same score, which never replaces an equal best, so they are skipped (half the work on a noisy particle).
  const tried = new Set<string>();
  // Tight triad edges first (exact or near-exact predictions); a noisy prediction distorts its triad, so if
  // nothing fits well, look again with looser edges.
  for (const edgeTolerance of [0.4, 1.2]) {
    if (best && best.score < LOOSE_SEED_SCORE) break;
    const { seeds, keys, anchor } = seedTransforms(pred, truth, grids, edgeTolerance);
    const stages: AtomSubset[] = [];
    if (anchor >= 0) {
      // Only atoms within the largest stage radius matter: sorting those alone gives the same order (a stable sort).
      const reach2 = STAGE_RADII[STAGE_RADII.length - 1] ** 2;
      const fromAnchor: [number, number][] = [];
      for (let i = 0; i < np; i++) {
        const d2 = dist2(pred.coords, i, pred.coords, anchor);
        if (d2 <= reach2) fromAnchor.push([i, d2]);
      }
      fromAnchor.sort((x, y) => x[1] - y[1]);
      for (const radius of STAGE_RADII)
        stages.push(
          subsetOf(
            thin(
              fromAnchor.filter((x) => x[1] <= radius * radius).map((x) => x[0]),
              400,
            ),
          ),
        );
    }
    stages.push(sampleSubset, sampleSubset, sampleSubset);
    for (let k = 0; k < seeds.length; k++) {
      if (tried.has(keys[k])) continue;
      tried.add(keys[k]);
      const refined = refineSeed(pred, seeds[k], stages, sampleSubset, 1.0);
      if (!best || refined.score < best.score) best = refined;
      if (best.score < 1e-12) break;
    }
  }
  let transform = best ? best.transform : { rotation: IDENTITY, translation: [0, 0, 0] as Vec3 };
  // Pairs farther apart than this after superposition are outliers (missing, extra or misplaced atoms).
  const outlierCutoff = Math.max(2 * tolerance, 1);
  let pairs: [number, number][] = [];
  let iterations = 0,
    optimal = true;
  for (; iterations < MAX_ITERATIONS; iterations++) {
    const moved = applyTransform(pred.coords, transform);
    const step = assignBySpeciesBounded(predSpecies, moved, truthSpecies, truth.coords, outlierCutoff, grids);
    const next = step.pairs;
    optimal = step.optimal;
    const unchanged = next.length === pairs.length && next.every((p, k) => p[0] === pairs[k][0] && p[1] === pairs[k][1]);
    pairs = next;
    if (pairs.length === 0) break;
    // Fit the rigid motion to the inliers only: a stray or missing atom forces a far pair on the assignment,
    // and one 10 Å pair would tilt the whole superposition.
    const cutoff2 = outlierCutoff ** 2;
    const inliers = pairs.filter((p) => dist2(moved, p[0], truth.coords, p[1]) <= cutoff2);
    transform = compose(superpose(moved, truth.coords, inliers.length >= 3 ? inliers : pairs), transform);
    if (unchanged) break;
  }
  const moved = applyTransform(pred.coords, transform);
  let sum = 0,
    worst = 0,
    within = 0;
  for (let k = 0; k < pairs.length; k++) {
    const d2 = dist2(moved, pairs[k][0], truth.coords, pairs[k][1]);
    sum += d2;
    worst = Math.max(worst, d2);
    if (d2 <= tolerance * tolerance) within++;
  }
  const denominator = Math.max(np, truth.symbols.length);
  return {
    rmsd: pairs.length ? Math.sqrt(sum / pairs.length) : NaN,
    maxDisplacement: pairs.length ? Math.sqrt(worst) : NaN,
    matchedFraction: denominator ? within / denominator : NaN,
    tolerance,
    pairs,
    transform,
    iterations: iterations + 1,
    optimal,
  };
}
