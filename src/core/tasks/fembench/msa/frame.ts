/**
 * 3D frame (MSA) building blocks with the FEM-Bench reference semantics (elejeune11/FEM-bench):
 * 6 DOF per node [UX, UY, UZ, RX, RY, RZ], element local order [u1 v1 w1 θx1 θy1 θz1 u2 … θz2],
 * 12×12 matrices as row-major Float64Array(144). Errors are FemTaskError with the Python class name.
 */
import {
  bucklingMuSymmetric,
  choleskyFactor,
  cond2,
  dense,
  generalEigenvalues,
  inverseIteration,
  isSymmetric,
  luFactor,
  luSolve,
  multiplicity,
  SingularMatrixError,
  type Dense,
} from '../../../math/linalg.ts';
import { cross, vec3, type Vec3 } from '../../../math/mat3.ts';
import { FemTaskError } from '../types.ts';
import { pow } from '../../../math/libm.ts';

export interface FrameElement {
  node_i: number;
  node_j: number;
  E: number;
  nu: number;
  A: number;
  I_y: number;
  I_z: number;
  J: number;
  /** Only the geometric-stiffness / buckling tasks read it; undefined → KeyError there, as in the reference. */
  I_rho?: number;
  /** A reference vector, not necessarily the local z axis (§3). */
  local_z?: number[] | null;
}

export type Flags = Map<number, readonly unknown[]>;

const EPS = 2.220446049250313e-16;

/** Python's f"{x:.2e}". */
export function pyExp2(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return x.toExponential(2).replace(/e([+-])(\d)$/, 'e$10$2');
}

export function localElasticStiffness(E: number, nu: number, A: number, L: number, Iy: number, Iz: number, J: number): Float64Array {
  const k = new Float64Array(144);
  const G = E / (2 * (1 + nu));
  const set = (i: number, j: number, v: number) => {
    k[i * 12 + j] = v;
    k[j * 12 + i] = v;
  };
  const ea = (E * A) / L,
    gj = (G * J) / L;
  set(0, 0, ea);
  set(6, 6, ea);
  set(0, 6, -ea);
  set(3, 3, gj);
  set(9, 9, gj);
  set(3, 9, -gj);
  const z12 = (12 * E * Iz) / pow(L, 3),
    z6 = (6 * E * Iz) / L ** 2,
    z4 = (4 * E * Iz) / L,
    z2 = (2 * E * Iz) / L;
  set(1, 1, z12);
  set(7, 7, z12);
  set(1, 7, -z12);
  set(1, 5, z6);
  set(1, 11, z6);
  set(5, 7, -z6);
  set(7, 11, -z6);
  set(5, 5, z4);
  set(11, 11, z4);
  set(5, 11, z2);
  const y12 = (12 * E * Iy) / pow(L, 3),
    y6 = (6 * E * Iy) / L ** 2,
    y4 = (4 * E * Iy) / L,
    y2 = (2 * E * Iy) / L;
  set(2, 2, y12);
  set(8, 8, y12);
  set(2, 8, -y12);
  set(2, 4, -y6);
  set(2, 10, -y6);
  set(4, 8, y6);
  set(8, 10, y6);
  set(4, 4, y4);
  set(10, 10, y4);
  set(4, 10, y2);
  return k;
}

/** The 3×3 direction-cosine matrix (rows: local x, y, z in global components), §3 / §6.2. */
export function directionCosines(
  x1: number,
  y1: number,
  z1: number,
  x2: number,
  y2: number,
  z2: number,
  reference: readonly number[] | null | undefined,
  normalizeZ = true,
): Float64Array {
  const dx = x2 - x1,
    dy = y2 - y1,
    dz = z2 - z1;
  const L = norm3(dx, dy, dz);
  if (Math.abs(L) <= 1e-8) throw new FemTaskError('ValueError', 'Beam has zero length (start and end coordinates are identical).');
  const ex = vec3(dx / L, dy / L, dz / L);
  let ref: Vec3;
  if (reference === null || reference === undefined) {
    // numpy isclose(.., 0): |x| ≤ 1e-8 on both x and y cosines → nearly vertical → global Y
    ref = Math.abs(ex[0]) <= 1e-8 && Math.abs(ex[1]) <= 1e-8 ? vec3(0, 1, 0) : vec3(0, 0, 1);
  } else {
    if (reference.length !== 3) throw new FemTaskError('ValueError', 'Reference vector must be a 3-component vector (shape (3,)).');
    ref = vec3(Number(reference[0]), Number(reference[1]), Number(reference[2]));
    const norm = norm3(ref[0], ref[1], ref[2]);
    if (!(Math.abs(norm - 1) <= 1e-8 + 1e-5)) throw new FemTaskError('ValueError', 'Expected a unit vector for reference vector.');
    const c = cross(ref, ex);
    if (norm3(c[0], c[1], c[2]) <= 1e-8) throw new FemTaskError('ValueError', 'Reference vector is parallel to beam axis.');
  }
  let ey = cross(ref, ex);
  const ny = norm3(ey[0], ey[1], ey[2]);
  ey = vec3(ey[0] / ny, ey[1] / ny, ey[2] / ny);
  let ez = cross(ex, ey);
  if (normalizeZ) {
    const nz = norm3(ez[0], ez[1], ez[2]);
    ez = vec3(ez[0] / nz, ez[1] / nz, ez[2] / nz);
  }
  return Float64Array.from([...ex, ...ey, ...ez]);
}

/** sqrt(x·x) as numpy.linalg.norm computes it (Math.hypot rounds differently). */
function norm3(x: number, y: number, z: number): number {
  return Math.sqrt(x * x + y * y + z * z);
}

/** Γ (12×12): four diagonal copies of the direction-cosine matrix. */
export function transformationMatrix(
  x1: number,
  y1: number,
  z1: number,
  x2: number,
  y2: number,
  z2: number,
  reference?: readonly number[] | null,
  normalizeZ = true,
): Float64Array {
  const r = directionCosines(x1, y1, z1, x2, y2, z2, reference, normalizeZ);
  const g = new Float64Array(144);
  for (let b = 0; b < 4; b++) {
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) g[(3 * b + i) * 12 + 3 * b + j] = r[i * 3 + j];
  }
  return g;
}

/** (Γᵀ K) Γ, in numpy's left-to-right order. */
export function toGlobal(k: Float64Array, g: Float64Array): Float64Array {
  const t = new Float64Array(144);
  for (let i = 0; i < 12; i++) {
    for (let j = 0; j < 12; j++) {
      let s = 0;
      for (let m = 0; m < 12; m++) s += g[m * 12 + i] * k[m * 12 + j];
      t[i * 12 + j] = s;
    }
  }
  const out = new Float64Array(144);
  for (let i = 0; i < 12; i++) {
    for (let j = 0; j < 12; j++) {
      let s = 0;
      for (let m = 0; m < 12; m++) s += t[i * 12 + m] * g[m * 12 + j];
      out[i * 12 + j] = s;
    }
  }
  return out;
}

export function mul12(a: Float64Array, x: ArrayLike<number>): Float64Array {
  const y = new Float64Array(12);
  for (let i = 0; i < 12; i++) {
    let s = 0;
    for (let j = 0; j < 12; j++) s += a[i * 12 + j] * x[j];
    y[i] = s;
  }
  return y;
}

export function localGeometricStiffness(
  L: number,
  A: number,
  Irho: number,
  Fx2: number,
  Mx2: number,
  My1: number,
  Mz1: number,
  My2: number,
  Mz2: number,
): Float64Array {
  const k = new Float64Array(144);
  const set = (i: number, j: number, v: number) => {
    k[i * 12 + j] = v;
    k[j * 12 + i] = v;
  };
  set(0, 0, Fx2 / L);
  set(6, 6, Fx2 / L);
  set(0, 6, -Fx2 / L);
  for (const d of [1, 2, 7, 8]) set(d, d, (6 * Fx2) / (5 * L));
  set(3, 3, (Fx2 * Irho) / (A * L));
  set(9, 9, (Fx2 * Irho) / (A * L));
  set(3, 9, (-Fx2 * Irho) / (A * L));
  for (const d of [4, 5, 10, 11]) set(d, d, (2 * Fx2 * L) / 15);
  set(1, 3, My1 / L);
  set(1, 4, Mx2 / L);
  set(1, 5, Fx2 / 10);
  set(1, 7, (-6 * Fx2) / (5 * L));
  set(1, 9, My2 / L);
  set(1, 10, -Mx2 / L);
  set(1, 11, Fx2 / 10);
  set(2, 3, Mz1 / L);
  set(2, 4, -Fx2 / 10);
  set(2, 5, Mx2 / L);
  set(2, 8, (-6 * Fx2) / (5 * L));
  set(2, 9, Mz2 / L);
  set(2, 10, -Fx2 / 10);
  set(2, 11, -Mx2 / L);
  set(3, 4, -(2 * Mz1 - Mz2) / 6);
  set(3, 5, (2 * My1 - My2) / 6);
  set(3, 7, -My1 / L);
  set(3, 8, -Mz1 / L);
  set(3, 10, -(Mz1 + Mz2) / 6);
  set(3, 11, (My1 + My2) / 6);
  set(4, 7, -Mx2 / L);
  set(4, 8, Fx2 / 10);
  set(4, 9, -(Mz1 + Mz2) / 6);
  set(4, 10, (-Fx2 * L) / 30);
  set(4, 11, Mx2 / 2);
  set(5, 7, -Fx2 / 10);
  set(5, 8, -Mx2 / L);
  set(5, 9, (My1 + My2) / 6);
  set(5, 10, -Mx2 / 2);
  set(5, 11, (-Fx2 * L) / 30);
  set(7, 9, -My2 / L);
  set(7, 10, Mx2 / L);
  set(7, 11, -Fx2 / 10);
  set(8, 9, -Mz2 / L);
  set(8, 10, Fx2 / 10);
  set(8, 11, Mx2 / L);
  set(9, 10, (Mz1 - 2 * Mz2) / 6);
  set(9, 11, -(My1 - 2 * My2) / 6);
  return k;
}

const NORMALIZE_Z_IN_HELPERS = true;

type Coords = readonly (readonly number[])[];

/** L and Γ of one element; IndexError for a node that is not in coords, the reference's ValueErrors from Γ. */
export function elementGeometry(coords: Coords, e: FrameElement): { L: number; gamma: Float64Array } {
  const pi = coords[e.node_i],
    pj = coords[e.node_j];
  if (!pi || !pj)
    throw new FemTaskError('IndexError', `index ${pi ? e.node_j : e.node_i} is out of bounds for axis 0 with size ${coords.length}`);
  const L = norm3(pj[0] - pi[0], pj[1] - pi[1], pj[2] - pi[2]);
  const gamma = transformationMatrix(pi[0], pi[1], pi[2], pj[0], pj[1], pj[2], e.local_z ?? null, NORMALIZE_Z_IN_HELPERS);
  return { L, gamma };
}

export function elementLocalStiffness(e: FrameElement, L: number): Float64Array {
  return localElasticStiffness(e.E, e.nu, e.A, L, e.I_y, e.I_z, e.J);
}

/** Internal end forces in local axes: K_local · Γ · u_global (§6.8). */
export function localElementLoads(e: FrameElement, pi: readonly number[], pj: readonly number[], uGlobal: ArrayLike<number>): Float64Array {
  const L = norm3(pj[0] - pi[0], pj[1] - pi[1], pj[2] - pi[2]);
  const gamma = transformationMatrix(pi[0], pi[1], pi[2], pj[0], pj[1], pj[2], e.local_z ?? null, NORMALIZE_Z_IN_HELPERS);
  return mul12(elementLocalStiffness(e, L), mul12(gamma, uGlobal));
}

function scatter(K: Dense, ke: Float64Array, i: number, j: number): void {
  const n = K.n;
  const dofs = [6 * i, 6 * i + 1, 6 * i + 2, 6 * i + 3, 6 * i + 4, 6 * i + 5, 6 * j, 6 * j + 1, 6 * j + 2, 6 * j + 3, 6 * j + 4, 6 * j + 5];
  for (let a = 0; a < 12; a++) for (let b = 0; b < 12; b++) K.a[dofs[a] * n + dofs[b]] += ke[a * 12 + b];
}

export function assembleElasticStiffness(coords: Coords, elements: readonly FrameElement[]): Dense {
  const K = dense(6 * coords.length);
  for (const e of elements) {
    const { L, gamma } = elementGeometry(coords, e);
    scatter(K, toGlobal(elementLocalStiffness(e, L), gamma), e.node_i, e.node_j);
  }
  return K;
}

export function assembleGeometricStiffness(coords: Coords, elements: readonly FrameElement[], u: ArrayLike<number>): Dense {
  const K = dense(6 * coords.length);
  for (const e of elements) {
    const { L, gamma } = elementGeometry(coords, e);
    const ue = new Float64Array(12);
    for (let d = 0; d < 6; d++) {
      ue[d] = u[6 * e.node_i + d];
      ue[6 + d] = u[6 * e.node_j + d];
    }
    const f = mul12(elementLocalStiffness(e, L), mul12(gamma, ue));
    if (e.I_rho === undefined) throw new FemTaskError('KeyError', "'I_rho'");
    const kg = localGeometricStiffness(L, e.A, e.I_rho, f[6], f[9], f[4], f[5], f[10], f[11]);
    scatter(K, toGlobal(kg, gamma), e.node_i, e.node_j);
  }
  return K;
}

export function assembleLoad(loads: Map<number, readonly number[]>, nNodes: number): Float64Array {
  const P = new Float64Array(6 * nNodes);
  for (const [node, values] of loads) {
    // NumPy slicing P[6n:6n+6] += load: negative nodes wrap, too-large ones fail to broadcast.
    const start = node < 0 ? 6 * nNodes + 6 * node : 6 * node;
    if (start < 0 || start + 6 > P.length) {
      throw new FemTaskError('IndexError', `Node ${node} is out of range for ${nNodes} node(s).`);
    }
    for (let d = 0; d < 6; d++) P[start + d] += Number(values[d]);
  }
  return P;
}

export function partitionDofs(bcs: Flags, nNodes: number): { fixed: number[]; free: number[] } {
  const fixed: number[] = [];
  for (let node = 0; node < nNodes; node++) {
    const flags = bcs.get(node);
    if (!flags) continue;
    flags.forEach((flag, d) => {
      if (flag) fixed.push(6 * node + d);
    });
  }
  const isFixed = new Set(fixed);
  const free: number[] = [];
  for (let d = 0; d < 6 * nNodes; d++) if (!isFixed.has(d)) free.push(d);
  return { fixed, free };
}

function principal(m: Dense, idx: readonly number[], symmetrize = false): Dense {
  const n = idx.length;
  const out = dense(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out.a[i * n + j] = m.a[idx[i] * m.n + idx[j]];
  if (symmetrize) {
    for (let i = 0; i < n; i++)
      for (let j = 0; j < i; j++) {
        const s = 0.5 * (out.a[i * n + j] + out.a[j * n + i]);
        out.a[i * n + j] = s;
        out.a[j * n + i] = s;
      }
  }
  return out;
}

/** §6.6: u on free DOFs from K_ff u_f = P_f; reactions r_s = K_sf u_f − P_s; ValueError when cond₂(K_ff) ≥ 1e16. */
export function solveLinear(P: ArrayLike<number>, K: Dense, bcs: Flags, nNodes: number): { u: Float64Array; r: Float64Array } {
  const { fixed, free } = partitionDofs(bcs, nNodes);
  const Kff = principal(K, free);
  const c = cond2(Kff);
  if (!(c < 1e16)) throw new FemTaskError('ValueError', `Cannot solve system: stiffness matrix is ill-conditioned (cond=${pyExp2(c)})`);
  const Pf = free.map((d) => P[d]);
  let uf: Float64Array;
  try {
    uf = luSolve(luFactor(Kff), Pf);
  } catch (err) {
    if (err instanceof SingularMatrixError) throw new FemTaskError('LinAlgError', 'Singular matrix');
    throw err;
  }
  const n = K.n;
  const u = new Float64Array(n);
  free.forEach((d, k) => {
    u[d] = uf[k];
  });
  const r = new Float64Array(n);
  for (const s of fixed) {
    let sum = 0;
    for (let k = 0; k < free.length; k++) sum += K.a[s * n + free[k]] * uf[k];
    r[s] = sum - P[s];
  }
  return { u, r };
}

export interface BucklingResult {
  lambda: number;
  mode: Float64Array;
  /** How many eigenvalues coincide with λ (relative 1e-8): > 1 means the mode is not unique. */
  multiplicity: number;
}

/**
 * The buckling eigenproblem K_e φ = λ (−K_g) φ on the free DOFs.
 * `variant: 'solve_eigenvalue'` follows §6.7 (no symmetrisation, absolute realness test, λ > 1e-10,
 * LAPACK-like arbitrary sign); `'critical_load'` follows §6.12 step 3 (symmetrised, relative realness
 * test, relative positive cut-off, mode scaled so its largest-magnitude entry is positive).
 */
export function solveBuckling(
  Ke: Dense,
  Kg: Dense,
  bcs: Flags,
  nNodes: number,
  variant: 'solve_eigenvalue' | 'critical_load',
): BucklingResult {
  const { free } = partitionDofs(bcs, nNodes);
  const sym = variant === 'critical_load';
  const Kef = principal(Ke, free, sym);
  const Kgf = principal(Kg, free, sym);
  const tail = variant === 'solve_eigenvalue' ? ' Check boundary conditions (remove rigid-body modes) and material/section inputs.' : '';
  const ce = cond2(Kef);
  if (!Number.isFinite(ce) || ce > 1e16)
    throw new FemTaskError('ValueError', `Elastic stiffness (free-free) is ill-conditioned (cond=${pyExp2(ce)}).${tail}`);
  const cg = cond2(Kgf);
  if (!Number.isFinite(cg) || cg > 1e16)
    throw new FemTaskError(
      'ValueError',
      'Geometric stiffness (free-free) is ill-conditioned ' +
        `(cond=${pyExp2(cg)}).${variant === 'solve_eigenvalue' ? ' Check the reference load state and K_g assembly.' : ''}`,
    );

  const n = free.length;
  const negKg = dense(n);
  for (let i = 0; i < n * n; i++) negKg.a[i] = -Kgf.a[i];

  // Eigenvalues λ (real parts and imaginary parts)
  let lamRe: Float64Array, lamIm: Float64Array;
  let symmetricPath = false;
  if (isSymmetric(Kef) && isSymmetric(Kgf)) {
    try {
      choleskyFactor(Kef);
      symmetricPath = true;
    } catch {
      /* not positive definite: general path */
    }
  }
  if (symmetricPath) {
    // A symmetric-definite pencil has real eigenvalues; the QZ reference returns them with (near) zero imaginary parts.
    const mu = bucklingMuSymmetric(Kef, Kgf);
    lamRe = new Float64Array(n);
    lamIm = new Float64Array(n);
    for (let i = 0; i < n; i++) lamRe[i] = mu[i] === 0 ? Infinity : 1 / mu[i];
  } else {
    // λ are the eigenvalues of (−K_g)⁻¹ K_e (−K_g is well conditioned, checked above).
    const f = luFactor(negKg);
    const M = dense(n);
    const col = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) col[i] = Kef.a[i * n + j];
      const x = luSolve(f, col);
      for (let i = 0; i < n; i++) M.a[i * n + j] = x[i];
    }
    const ev = generalEigenvalues(M);
    lamRe = ev.re;
    lamIm = ev.im;
  }

  let cutoff: number;
  if (variant === 'solve_eigenvalue') {
    let maxIm = 0;
    for (let i = 0; i < n; i++) maxIm = Math.max(maxIm, Math.abs(lamIm[i]));
    if (!(maxIm < 1000 * EPS)) {
      throw new FemTaskError(
        'ValueError',
        'Eigen-solution returned significantly complex eigenpairs. This may indicate inconsistent matrices or severe roundoff issues.',
      );
    }
    cutoff = 1e-10;
  } else {
    let maxIm = 0,
      maxAbs = 0;
    for (let i = 0; i < n; i++) {
      maxIm = Math.max(maxIm, Math.abs(lamIm[i]));
      if (Number.isFinite(lamRe[i])) maxAbs = Math.max(maxAbs, Math.sqrt(lamRe[i] * lamRe[i] + lamIm[i] * lamIm[i]));
    }
    const relImag = maxIm / Math.max(maxAbs, 1);
    if (relImag > 1000 * EPS) {
      throw new FemTaskError(
        'ValueError',
        'Eigen-solution returned significantly complex eigenpairs (relative ' +
          `imag=${relImag.toExponential(3).replace(/e([+-])(\d)$/, 'e$10$2')}).`,
      );
    }
    cutoff = Math.max(1e-12, 1000 * EPS * maxAbs);
  }
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const l = lamRe[i];
    if (Number.isFinite(l) && l > cutoff && l < best) best = l;
  }
  if (!Number.isFinite(best)) {
    throw new FemTaskError(
      'ValueError',
      variant === 'solve_eigenvalue'
        ? 'No positive buckling factors found. Verify the sign convention (K_e phi = -lambda K_g phi), boundary conditions, and ' +
            'K_g assembly.'
        : 'No positive buckling factors found.',
    );
  }
  const mode = embedMode(inverseIteration(Kef, best, negKg), variant === 'critical_load', free, Ke.n);
  return { lambda: best, mode, multiplicity: multiplicity(lamRe, best) };
}

/** φ at the free DOFs of a zero vector of length `size`; `critical`: scaled so the largest-magnitude entry is positive (§6.12). */
function embedMode(phi: Float64Array, critical: boolean, free: readonly number[], size: number): Float64Array {
  const n = phi.length;
  if (critical) {
    // np.argmax(|φ|) takes the first of exact ties; entries equal up to round-off (symmetric modes) count as tied.
    let peak = 0;
    for (let i = 0; i < n; i++) peak = Math.max(peak, Math.abs(phi[i]));
    let k = 0;
    while (k < n - 1 && Math.abs(phi[k]) < peak * (1 - 1e-9)) k++;
    if (phi[k] < 0) for (let i = 0; i < n; i++) phi[i] = -phi[i];
  }
  const mode = new Float64Array(size);
  free.forEach((d, i) => {
    mode[d] = phi[i];
  });
  return mode;
}

/** The critical-load mode the dense path gives for a known λ (inverse iteration on the symmetrised free-DOF pencil). */
export function inverseIterationMode(Ke: Dense, Kg: Dense, bcs: Flags, nNodes: number, lambda: number): Float64Array {
  const { free } = partitionDofs(bcs, nNodes);
  const negKg = principal(Kg, free, true);
  for (let i = 0; i < negKg.a.length; i++) negKg.a[i] = -negKg.a[i];
  return embedMode(inverseIteration(principal(Ke, free, true), lambda, negKg), true, free, Ke.n);
}
