/**
 * Niggli reduction and lattice mappings as pymatgen 2022.11 (`Lattice.get_niggli_reduced_lattice`,
 * `Lattice.find_all_mappings`): the Grosse-Kunstleve/Sauter/Adams A1–A8 loop on the metric tensor
 * of the LLL-reduced basis, then the reduced parameters mapped back onto real lattice vectors.
 */
import { type Mat3, type Vec3, det, inverse, norm, vec3 } from '../math/mat3.ts';
import { Lattice } from './lattice.ts';
import { lllReduce } from './lll.ts';
import { LIMITS, LimitError, limitSentence, limitsRevision } from '../limits.ts';
import { acos, cbrt, cos } from '../math/libm.ts';
import { kernelArena, kernels } from '../math/kernels.ts';

const RAD = 180 / Math.PI;

/** G' = Mᵀ G M for 3x3 arrays. */
function congruence(g: number[][], mm: number[][]): number[][] {
  const gm = [0, 1, 2].map((i) => [0, 1, 2].map((j) => g[i][0] * mm[0][j] + g[i][1] * mm[1][j] + g[i][2] * mm[2][j]));
  return [0, 1, 2].map((i) => [0, 1, 2].map((j) => mm[0][i] * gm[0][j] + mm[1][i] * gm[1][j] + mm[2][i] * gm[2][j]));
}

/** Niggli-reduced (a, b, c, α, β, γ) of a lattice (pymatgen's loop, epsilon = tol·V^(1/3), ≤ 100 passes). */
export function niggliParameters(lattice: Lattice, tol = 1e-5): [number, number, number, number, number, number] {
  const mat = lllReduce(lattice.matrix).matrix;
  const e = tol * cbrt(lattice.volume);
  let G = [0, 1, 2].map((i) => [0, 1, 2].map((j) => mat[i][0] * mat[j][0] + mat[i][1] * mat[j][1] + mat[i][2] * mat[j][2]));
  const params = () => [G[0][0], G[1][1], G[2][2], 2 * G[1][2], 2 * G[0][2], 2 * G[0][1]];
  const sign = (x: number) => (x > 0 ? 1 : x < 0 ? -1 : 0);
  for (let count = 0; count < 100; count++) {
    let [A, B, C, E, N, Y] = params();
    if (A > B + e || (Math.abs(A - B) < e && Math.abs(E) > Math.abs(N) + e)) {
      G = congruence(G, [
        [0, -1, 0],
        [-1, 0, 0],
        [0, 0, -1],
      ]); // A1
    }
    // pymatgen tests A2 with the values from before A1.
    if (B > C + e || (Math.abs(B - C) < e && Math.abs(N) > Math.abs(Y) + e)) {
      G = congruence(G, [
        [-1, 0, 0],
        [0, 0, -1],
        [0, -1, 0],
      ]); // A2
      continue;
    }
    const l = Math.abs(E) < e ? 0 : sign(E);
    const m = Math.abs(N) < e ? 0 : sign(N);
    const n = Math.abs(Y) < e ? 0 : sign(Y);
    if (l * m * n === 1) {
      const i = l === -1 ? -1 : 1,
        j = m === -1 ? -1 : 1,
        k = n === -1 ? -1 : 1;
      G = congruence(G, [
        [i, 0, 0],
        [0, j, 0],
        [0, 0, k],
      ]); // A3
    } else if (l * m * n === 0 || l * m * n === -1) {
      let i = l === 1 ? -1 : 1,
        j = m === 1 ? -1 : 1,
        k = n === 1 ? -1 : 1;
      if (i * j * k === -1) {
        if (n === 0) k = -1;
        else if (m === 0) j = -1;
        else if (l === 0) i = -1;
      }
      G = congruence(G, [
        [i, 0, 0],
        [0, j, 0],
        [0, 0, k],
      ]); // A4
    }
    [A, B, , E, N, Y] = params();
    if (Math.abs(E) > B + e || (Math.abs(E - B) < e && 2 * N < Y - e) || (Math.abs(E + B) < e && Y < -e)) {
      G = congruence(G, [
        [1, 0, 0],
        [0, 1, -sign(E)],
        [0, 0, 1],
      ]); // A5
      continue;
    }
    if (Math.abs(N) > A + e || (Math.abs(A - N) < e && 2 * E < Y - e) || (Math.abs(A + N) < e && Y < -e)) {
      G = congruence(G, [
        [1, 0, -sign(N)],
        [0, 1, 0],
        [0, 0, 1],
      ]); // A6
      continue;
    }
    if (Math.abs(Y) > A + e || (Math.abs(A - Y) < e && 2 * E < N - e) || (Math.abs(A + Y) < e && N < -e)) {
      G = congruence(G, [
        [1, -sign(Y), 0],
        [0, 1, 0],
        [0, 0, 1],
      ]); // A7
      continue;
    }
    if (E + N + Y + A + B < -e || (Math.abs(E + N + Y + A + B) < e && e < Y + (A + N) * 2)) {
      G = congruence(G, [
        [1, 0, 1],
        [0, 1, 1],
        [0, 0, 1],
      ]); // A8
      continue;
    }
    break;
  }
  const [A, B, C, E, N, Y] = params();
  const a = Math.sqrt(A),
    b = Math.sqrt(B),
    c = Math.sqrt(C);
  return [a, b, c, acos(E / 2 / b / c) * RAD, acos(N / 2 / a / c) * RAD, acos(Y / 2 / a / b) * RAD];
}

export interface LatticeMapping {
  /** Three lattice vectors of the searched lattice (rows, Å) matching the target's parameters. */
  aligned: Mat3;
  /** Their integer coordinates in the searched lattice's basis (rows). */
  scale: Mat3;
}

/**
 * Lattice points (integer coordinates and Cartesian vectors) within `radius` of the origin, in the
 * order pymatgen's `find_points_in_spheres` returns them (pymatgen/optimization/neighbors.pyx): the radius is
 * a C float there; space is cut into cubes of that edge starting at -(r + 1e-8); cubes are visited in (x, y, z)
 * order and, inside a cube, points in descending (i, j, k) (its linked list puts the last image found first).
 * The order decides which of several near-equal triples `find_mapping` returns and the order in which the
 * structure matcher visits lattices.
 */
function latticePointsInSphere(matrix: Mat3, radius: number): { frac: Vec3[]; cart: Vec3[]; dist: number[] } {
  // Enumerate in the LLL basis (few candidates even for skewed cells), then order as pymatgen does.
  const { matrix: reduced, mapping } = lllReduce(matrix);
  const inv = inverse(reduced);
  const bound = [0, 1, 2].map((k) => Math.ceil(Math.max(radius, 1) * Math.hypot(inv[0][k], inv[1][k], inv[2][k])) + 1);
  // A near-singular cell or a huge radius would need unboundedly many points (a flat cell: gigabytes).
  const count = bound.reduce((n, b) => n * (2 * b + 1), 1);
  if (!(count <= LIMITS.latticePoints)) {
    throw new LimitError(
      'latticePoints',
      limitSentence(
        'the lattice-mapping search (a flat or very elongated cell)',
        Number.isFinite(count) ? count : null,
        LIMITS.latticePoints,
        'lattice points',
        'latticePoints',
      ),
    );
  }
  // Below 1 Å pymatgen searches a radius of 1 and keeps the distances within r.
  const rf = Math.fround(radius);
  const re = rf < 1 ? 1 : rf;
  // The points in the sphere, eight numbers each (kernels/lattice-points.ts): i, j, k, the vector, its length, its cube.
  const k = kernels();
  let points: Float64Array;
  for (let capacity = Math.min(count, 4096); ;) {
    const arena = kernelArena();
    const matrixAt = arena.put(Float64Array.from(matrix.flat())),
      mappingAt = arena.put(Float64Array.from(mapping.flat())),
      out = arena.zerosF64(8 * capacity);
    const found = k.latticePoints(
      matrixAt,
      mappingAt,
      bound[0],
      bound[1],
      bound[2],
      re,
      rf,
      Math.fround(re * re),
      0 - re - 1e-8,
      out,
      capacity,
    );
    if (found <= capacity) {
      points = arena.readF64(out, 8 * found);
      break;
    }
    capacity = found;
  }
  const n = points.length / 8;
  const order = Array.from({ length: n }, (_, x) => 8 * x);
  order.sort(
    (x, y) => points[x + 7] - points[y + 7] || points[y] - points[x] || points[y + 1] - points[x + 1] || points[y + 2] - points[x + 2],
  );
  return {
    frac: order.map((x) => vec3(points[x], points[x + 1], points[x + 2])),
    cart: order.map((x) => vec3(points[x + 3], points[x + 4], points[x + 5])),
    dist: order.map((x) => points[x + 6]),
  };
}

/**
 * Whether the angle between u and v (lengths lu, lv), `acos(u·v / lu / lv)` in degrees, is within `tol` of `target`
 * (strictly, as pymatgen). A cosine more than 1e-9 outside the cosines of the window's ends cannot give an angle inside
 * it (far above acos's rounding): most pairs are refused without acos.
 */
function angleWindow(target: number, tol: number): (u: Vec3, v: Vec3, lu: number, lv: number) => boolean {
  const cosLow = cos(Math.min(180, target + tol) / RAD) - 1e-9,
    cosHigh = cos(Math.max(0, target - tol) / RAD) + 1e-9;
  return (u, v, lu, lv) => {
    const c = Math.max(-1, Math.min(1, (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / lu / lv));
    return c >= cosLow && c <= cosHigh && Math.abs(acos(c) * RAD - target) < tol;
  };
}

/**
 * Every triple of lattice vectors of `self` whose lengths are within the relative tolerance `ltol`
 * (strictly) and whose angles are within `angleTol` degrees (strictly, as pymatgen 2022.11) of
 * `other`'s parameters; singular triples are skipped.
 */
export function* findAllMappings(self: Lattice, other: Lattice, ltol: number, angleTol: number): Generator<LatticeMapping> {
  const lengths = other.lengths;
  const [alpha, beta, gamma] = other.angles;
  const pts = latticePointsInSphere(self.matrix, Math.max(...lengths) * (1 + ltol));
  const pick = (l: number) => {
    const idx: number[] = [];
    pts.dist.forEach((d, i) => {
      if (d / l < 1 + ltol && d / l > 1 / (1 + ltol)) idx.push(i);
    });
    return idx;
  };
  const [ia, ib, ic] = lengths.map(pick);
  // No vector for one of the three lengths: no triple at all. The angle tables below are |ib|·|ic| and |ia|·|ic|, which
  // the bound on the triples bounds only while none is empty: a 4 Å cube matched to a 4 × 4 × 0.0004 Å cell had no
  // vector for a and 48,000 for b and for c, and its table of 2.3e9 angles ran out of memory.
  if (ia.length === 0 || ib.length === 0 || ic.length === 0) return;
  const len = (i: number) => norm(pts.cart[i]);
  const la = ia.map(len),
    lb = ib.map(len),
    lc = ic.map(len);
  // alphaOk[j][k]: angle(b_j, c_k) close to alpha; betaOk[i][k]; gammaOk[i][j].
  // Each candidate triple costs little, but a dense enumeration has billions: bound them like the points.
  if (!(ia.length * ib.length * ic.length <= 50 * LIMITS.latticePoints)) {
    throw new LimitError(
      'latticePoints',
      limitSentence('the lattice-mapping search', ia.length * ib.length * ic.length, 50 * LIMITS.latticePoints, 'candidate vector triples'),
    );
  }
  const nearAlpha = angleWindow(alpha, angleTol),
    nearBeta = angleWindow(beta, angleTol),
    nearGamma = angleWindow(gamma, angleTol);
  const alphaOk = ib.map((j, x) => ic.map((k, y) => nearAlpha(pts.cart[j], pts.cart[k], lb[x], lc[y])));
  const betaOk = ia.map((i, x) => ic.map((k, y) => nearBeta(pts.cart[i], pts.cart[k], la[x], lc[y])));
  for (let x = 0; x < ia.length; x++) {
    const gammaRow = ib.map((j, y) => nearGamma(pts.cart[ia[x]], pts.cart[j], la[x], lb[y]));
    for (let y = 0; y < ib.length; y++) {
      if (!gammaRow[y]) continue;
      for (let z = 0; z < ic.length; z++) {
        if (!alphaOk[y][z] || !betaOk[x][z]) continue;
        const scale: Mat3 = [pts.frac[ia[x]], pts.frac[ib[y]], pts.frac[ic[z]]];
        if (Math.abs(det(scale)) < 1e-8) continue;
        yield { aligned: [pts.cart[ia[x]], pts.cart[ib[y]], pts.cart[ic[z]]], scale };
      }
    }
  }
}

/**
 * pymatgen's `get_niggli_reduced_lattice(tol)`: Niggli parameters, realised by the first matching
 * triple of actual lattice vectors (relative length tolerance = epsilon, angles within 1°), with
 * the sign flipped if needed so the basis is right-handed.
 */
export function niggliReducedLattice(lattice: Lattice, tol = 1e-5): Lattice {
  const m = lattice.matrix;
  const limits = limitsRevision();
  for (const r of reducedCells)
    if (r.tol === tol && r.limits === limits && sameCell(r.cell, m)) {
      reducedCells.splice(reducedCells.indexOf(r), 1);
      reducedCells.push(r);
      return new Lattice(r.reduced);
    }
  const reduced = reduceToNiggli(lattice, tol);
  if (reducedCells.length >= REDUCED_CELLS_KEPT) reducedCells.shift();
  reducedCells.push({ cell: new Lattice(m).matrix, tol, limits, reduced: new Lattice(reduced.matrix).matrix });
  return reduced;
}

/**
 * The same nine numbers, −0 apart from 0 (a reduction may keep the sign of a zero). The zero's sign by 1 / x, not
 * `Object.is`: a batch asks this of every kept cell for every pair, mostly before it is optimised, where a builtin
 * call per zero of a cell cost more than the loads (cubic and tetragonal cells have six zeros).
 */
export function sameCell(a: Mat3, b: Mat3): boolean {
  if (a === b) return true;
  for (let i = 0; i < 3; i++) {
    const ra = a[i],
      rb = b[i];
    for (let j = 0; j < 3; j++) {
      const x = ra[j],
        y = rb[j];
      if (x !== y || (x === 0 && 1 / x !== 1 / y)) return false;
    }
  }
  return true;
}

/**
 * The cells last reduced (copies; the reduced one handed out as a new Lattice), most recent last: a batch reduces the
 * same few cells again and again (one target against many answers, answers that keep the input's cell).
 */
const reducedCells: { cell: Mat3; tol: number; limits: number; reduced: Mat3 }[] = [];
const REDUCED_CELLS_KEPT = 16;

function reduceToNiggli(lattice: Lattice, tol: number): Lattice {
  const p = niggliParameters(lattice, tol);
  const target = Lattice.fromParameters(...p);
  const e = tol * cbrt(lattice.volume);
  for (const mapped of findAllMappings(lattice, target, e, 1)) {
    const m = mapped.aligned;
    return det(m) > 0 ? new Lattice(m) : new Lattice(m.map((r) => r.map((x) => -x)));
  }
  throw new Error('no lattice vectors realise the Niggli-reduced cell');
}
