/**
 * The 21 MSA_3D reference tasks of FEM-bench. Tiers (T1/T2/T3) of a task share one implementation:
 * the reference gives bit-identical outputs across tiers.
 */
import { dense, toRows, type Dense } from '../../../math/linalg.ts';
import { checkDenseRows, checkFemSize, checkFrameNodes, negativeDimensions, pyIndex, pyTypeName } from '../sizes.ts';
import { FemTaskError, type FemTask, type FemValue } from '../types.ts';
import {
  assembleElasticStiffness,
  assembleGeometricStiffness,
  assembleLoad,
  localElasticStiffness,
  localElementLoads,
  localGeometricStiffness,
  partitionDofs,
  solveBuckling,
  solveLinear,
  transformationMatrix,
  type Flags,
  type FrameElement,
} from './frame.ts';
import { criticalLoadFast } from './frame-fast.ts';

// ---------------------------------------------------------------------------------------------
// Decoding golden-encoded inputs

function num(v: FemValue | undefined, name: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  throw new FemTaskError('TypeError', `${name} must be a number.`);
}

function vec(v: FemValue | undefined, name: string): number[] {
  if (!Array.isArray(v)) throw new FemTaskError('TypeError', `${name} must be a list or array of numbers.`);
  return v.map((x, i) => num(x, `${name}[${i}]`));
}

/** `weight`: the share of the case's one dense solve this matrix stands for (a pencil's two matrices: ½ each). */
function mat(v: FemValue | undefined, name: string, weight = 1): Dense {
  if (!Array.isArray(v)) throw new FemTaskError('TypeError', `${name} must be a square matrix.`);
  const n = v.length;
  checkDenseRows(n, name, weight);
  const m = dense(n);
  v.forEach((row, i) => {
    const r = vec(row, name);
    if (r.length !== n) throw new FemTaskError('ValueError', `${name} must be square; row ${i + 1} has ${r.length} entries for ${n} rows.`);
    for (let j = 0; j < n; j++) m.a[i * n + j] = r[j];
  });
  return m;
}

/** `dense`: K is dense (6n)², so the node count is bounded before anything is assembled (the fast path bounds its own work). */
function coords(v: FemValue | undefined, dense = true): number[][] {
  if (!Array.isArray(v)) throw new FemTaskError('TypeError', 'node_coords must be an (n, 3) array.');
  if (dense) checkFrameNodes(v.length, 'node_coords');
  return v.map((row, i) => {
    const r = vec(row, `node_coords[${i}]`);
    if (r.length !== 3) throw new FemTaskError('ValueError', `node_coords row ${i + 1} must have 3 coordinates.`);
    return r;
  });
}

function isDict(v: FemValue | undefined): v is { [key: string]: FemValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function key(obj: { [key: string]: FemValue }, k: string, ctx: string): FemValue {
  if (!Object.hasOwn(obj, k)) throw new FemTaskError('KeyError', `'${k}'`);
  void ctx;
  return obj[k];
}

function element(v: FemValue, index: number): FrameElement {
  if (!isDict(v)) throw new FemTaskError('TypeError', `elements[${index}] must be a dict.`);
  const ctx = `elements[${index}]`;
  const lz = Object.hasOwn(v, 'local_z') ? v.local_z : undefined;
  return {
    node_i: Object.hasOwn(v, 'node_i') ? num(v.node_i, `${ctx}.node_i`) : 0,
    node_j: Object.hasOwn(v, 'node_j') ? num(v.node_j, `${ctx}.node_j`) : 1,
    E: num(key(v, 'E', ctx), `${ctx}.E`),
    nu: num(key(v, 'nu', ctx), `${ctx}.nu`),
    A: num(key(v, 'A', ctx), `${ctx}.A`),
    I_y: num(key(v, 'I_y', ctx), `${ctx}.I_y`),
    I_z: num(key(v, 'I_z', ctx), `${ctx}.I_z`),
    J: num(key(v, 'J', ctx), `${ctx}.J`),
    I_rho: Object.hasOwn(v, 'I_rho') ? num(v.I_rho, `${ctx}.I_rho`) : undefined,
    local_z: lz === undefined || lz === null ? null : vec(lz, `${ctx}.local_z`),
  };
}

function elements(v: FemValue | undefined): FrameElement[] {
  if (!Array.isArray(v)) throw new FemTaskError('TypeError', 'elements must be a list of dicts.');
  checkFemSize('femElements', 'elements', v.length, 'elements');
  return v.map(element);
}

/** A JSON key of an int-keyed dict as Python's int, or null when it is not one ("1.5", "__proto__", "01"). */
function intKey(k: string): number | null {
  if (!/^-?(0|[1-9][0-9]{0,15})$/.test(k)) return null;
  const n = Number(k);
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * Int-keyed dict (string keys in JSON) → Map; flags kept as given (any truthy value = fixed). The
 * reference only looks up the keys 0..n_nodes−1 (`boundary_conditions.get(n)`), so other keys are ignored.
 */
function flags(v: FemValue | undefined): Flags {
  if (!isDict(v)) throw new FemTaskError('AttributeError', `'${pyTypeName(v)}' object has no attribute 'get'`);
  const m: Flags = new Map();
  for (const [k, f] of Object.entries(v)) {
    const node = intKey(k);
    if (node === null) continue;
    if (!Array.isArray(f)) throw new FemTaskError('TypeError', `'${pyTypeName(f)}' object is not iterable`);
    m.set(node, f);
  }
  return m;
}

/** nodal_loads: `P[_node_dofs(n)] += np.asarray(load, dtype=float)` — a load broadcasts from 1 or 6 values. */
function loads(v: FemValue | undefined): Map<number, number[]> {
  if (!isDict(v)) throw new FemTaskError('AttributeError', `'${pyTypeName(v)}' object has no attribute 'items'`);
  const m = new Map<number, number[]>();
  for (const [k, f] of Object.entries(v)) {
    const node = intKey(k);
    if (node === null) throw new FemTaskError('TypeError', `nodal_loads key '${k}' is not an int node index`);
    const values = Array.isArray(f) ? vec(f, `nodal_loads[${k}]`) : [num(f, `nodal_loads[${k}]`)];
    if (values.length !== 6 && values.length !== 1) {
      throw new FemTaskError(
        'ValueError',
        `shape mismatch: value array of shape (${values.length},) could not be broadcast to indexing result of shape (6,)`,
      );
    }
    m.set(node, values.length === 1 ? new Array<number>(6).fill(values[0]) : values);
  }
  return m;
}

/**
 * n_nodes of the partition-based tasks: `range(n_nodes)` needs an int (TypeError otherwise); a negative
 * count is an empty range. With a dense matrix of `rows` rows, DOFs past it are numpy's IndexError.
 */
function nodeCount(v: FemValue | undefined, rows?: number): number {
  const n = pyIndex(v);
  if (rows !== undefined && 6 * n > rows)
    throw new FemTaskError('IndexError', `index ${rows} is out of bounds for axis 0 with size ${rows}`);
  if (rows === undefined) checkFemSize('femElements', 'n_nodes', n, 'nodes');
  return n;
}

/** numpy fancy indexing of a vector: every index must exist. */
function needLength(v: ArrayLike<number>, length: number, name: string): void {
  if (v.length < length)
    throw new FemTaskError('IndexError', `index ${v.length} is out of bounds for axis 0 with size ${v.length} (${name})`);
}

const rows12 = (a: Float64Array): number[][] => toRows({ n: 12, a });
const list = (a: ArrayLike<number>): number[] => Array.from(a);

// ---------------------------------------------------------------------------------------------
// Task bodies

function runLocalElastic(i: Record<string, FemValue>): FemValue {
  const g = (k: string) => num(i[k], k);
  return rows12(localElasticStiffness(g('E'), g('nu'), g('A'), g('L'), g('Iy'), g('Iz'), g('J')));
}

function runTransformation(i: Record<string, FemValue>): FemValue {
  const g = (k: string) => num(i[k], k);
  const ref = i.reference_vector;
  const r = ref === undefined || ref === null ? null : vec(ref, 'reference_vector');
  return rows12(transformationMatrix(g('x1'), g('y1'), g('z1'), g('x2'), g('y2'), g('z2'), r));
}

function runLocalGeometric(i: Record<string, FemValue>): FemValue {
  const g = (k: string) => num(i[k], k);
  return rows12(localGeometricStiffness(g('L'), g('A'), g('I_rho'), g('Fx2'), g('Mx2'), g('My1'), g('Mz1'), g('My2'), g('Mz2')));
}

function runPartition(i: Record<string, FemValue>): FemValue {
  const n = nodeCount(i.n_nodes);
  // `boundary_conditions.get` is only reached when range(n_nodes) is not empty.
  const { fixed, free } = partitionDofs(n > 0 ? flags(i.boundary_conditions) : new Map(), n);
  return [fixed, free];
}

function runLoad(i: Record<string, FemValue>): FemValue {
  const n = nodeCount(i.n_nodes);
  negativeDimensions(6 * n);
  return list(assembleLoad(loads(i.nodal_loads), n));
}

function runSolveLinear(i: Record<string, FemValue>): FemValue {
  const P = vec(i.P_global, 'P_global');
  const K = mat(i.K_global, 'K_global');
  const n = nodeCount(i.n_nodes, K.n);
  needLength(P, 6 * n, 'P_global');
  const { u, r } = solveLinear(P, K, flags(i.boundary_conditions), n);
  return [list(u), list(r)];
}

function runSolveEigenvalue(i: Record<string, FemValue>): FemValue {
  const Ke = mat(i.K_e_global, 'K_e_global', 0.5);
  const Kg = mat(i.K_g_global, 'K_g_global', 0.5);
  const n = nodeCount(i.n_nodes, Math.min(Ke.n, Kg.n));
  const res = solveBuckling(Ke, Kg, flags(i.boundary_conditions), n, 'solve_eigenvalue');
  return [res.lambda, list(res.mode)];
}

function runLocalElementLoads(i: Record<string, FemValue>): FemValue {
  const info = i.ele_info;
  if (!isDict(info)) throw new FemTaskError('TypeError', 'ele_info must be a dict.');
  const e = element(Object.assign(Object.create(null) as { [key: string]: FemValue }, { node_i: 0, node_j: 1 }, info), 0);
  const g = (k: string) => num(i[k], k);
  return list(localElementLoads(e, [g('xi'), g('yi'), g('zi')], [g('xj'), g('yj'), g('zj')], vec(i.u_dofs_global, 'u_dofs_global')));
}

function runAssembleElastic(i: Record<string, FemValue>): FemValue {
  return toRows(assembleElasticStiffness(coords(i.node_coords), elements(i.elements)));
}

function runAssembleGeometric(i: Record<string, FemValue>): FemValue {
  const xyz = coords(i.node_coords);
  const els = elements(i.elements);
  const u = vec(i.u_global, 'u_global');
  needLength(u, 6 * xyz.length, 'u_global');
  return toRows(assembleGeometricStiffness(xyz, els, u));
}

function runLinearElastic(i: Record<string, FemValue>): FemValue {
  const xyz = coords(i.node_coords);
  const K = assembleElasticStiffness(xyz, elements(i.elements));
  const P = assembleLoad(loads(i.nodal_loads), xyz.length);
  const { u, r } = solveLinear(P, K, flags(i.boundary_conditions), xyz.length);
  return [list(u), list(r)];
}

/**
 * Frames of at least this many DOFs try the banded fast path first (frame-fast.ts); it hands back to the dense path
 * whenever its outcome could differ. Smaller frames (every golden case) take the dense path, which is quick there.
 */
const FAST_PATH_MIN_DOFS = 96;

/** §6.12. The reference's realness test is LAPACK-dependent (§7.3); our symmetric-definite path returns exactly real values. */
function runCriticalLoad(i: Record<string, FemValue>): FemValue {
  const { xyz, els, bcs, nodalLoads } = decodeFrameCase(i);
  if (6 * xyz.length >= FAST_PATH_MIN_DOFS) {
    const fast = criticalLoadFast(xyz, els, bcs, nodalLoads);
    if (fast) return [fast.lambda, list(fast.mode)];
  }
  checkFrameNodes(xyz.length, 'node_coords');
  const res = criticalLoadDense(xyz, els, bcs, nodalLoads);
  return [res.lambda, list(res.mode)];
}

/** A frame case's inputs decoded as the frame tasks read them; the loads when the reference reads them (after assembling K). */
export function decodeFrameCase(i: Record<string, FemValue>) {
  const xyz = coords(i.node_coords, false);
  const els = elements(i.elements);
  const bcs = flags(i.boundary_conditions);
  return { xyz, els, bcs, nodalLoads: () => loads(i.nodal_loads) };
}

/** §6.12 on the dense reference path (frame.ts). */
export function criticalLoadDense(xyz: number[][], els: FrameElement[], bcs: Flags, nodalLoads: () => Map<number, number[]>) {
  const K = assembleElasticStiffness(xyz, els);
  const P = assembleLoad(nodalLoads(), xyz.length);
  const { u } = solveLinear(P, K, bcs, xyz.length);
  const Kg = assembleGeometricStiffness(xyz, els, u);
  return solveBuckling(K, Kg, bcs, xyz.length, 'critical_load');
}

// ---------------------------------------------------------------------------------------------

const FRAME = '(node_coords (n,3), elements: list[dict]';
const BC = 'boundary_conditions: dict[int, 6 flags]';

function tiers(base: string, tierIds: string[], signature: string, description: string, run: FemTask['run']): FemTask[] {
  return tierIds.map((t) => ({ id: `${base}_${t}`, signature, description, run }));
}

/** The 21 MSA_3D reference tasks. */
export const MSA_TASKS: FemTask[] = [
  ...tiers(
    'MSA_3D_assemble_global_geometric_stiffness_CC1_H4',
    ['T1', 'T2', 'T3'],
    `${FRAME}, u_global (6n,)) -> K_g (6n, 6n)`,
    'Global geometric stiffness of a 3D frame from a displacement state (elements need I_rho).',
    runAssembleGeometric,
  ),
  ...tiers(
    'MSA_3D_assemble_global_linear_elastic_stiffness_CC0_H2',
    ['T1', 'T3'],
    `${FRAME}) -> K (6n, 6n)`,
    'Global elastic stiffness of a 3D frame.',
    runAssembleElastic,
  ),
  {
    id: 'MSA_3D_assemble_global_load_CC0_H0_T0',
    signature: '(nodal_loads: dict[int, 6 values], n_nodes: int) -> P (6n,)',
    description: 'Global nodal load vector.',
    run: runLoad,
  },
  ...tiers(
    'MSA_3D_elastic_critical_load_CC1_H10',
    ['T1', 'T2', 'T3'],
    `${FRAME}, ${BC}, nodal_loads) -> (lambda_cr, mode (6n,))`,
    'Elastic critical load factor and buckling mode of a 3D frame.',
    runCriticalLoad,
  ),
  ...tiers(
    'MSA_3D_linear_elastic_CC0_H6',
    ['T1', 'T3'],
    `${FRAME}, ${BC}, nodal_loads) -> (u (6n,), r (6n,))`,
    'Linear static analysis of a 3D frame: displacements and support reactions.',
    runLinearElastic,
  ),
  {
    id: 'MSA_3D_local_elastic_stiffness_CC0_H0_T0',
    signature: '(E, nu, A, L, Iy, Iz, J) -> ndarray (12, 12)',
    description: '12×12 local elastic stiffness of a 3D Euler-Bernoulli beam.',
    run: runLocalElastic,
  },
  ...tiers(
    'MSA_3D_local_element_loads_CC0_H2',
    ['T1', 'T3'],
    '(ele_info: dict, xi, yi, zi, xj, yj, zj, u_dofs_global (12,)) -> (12,)',
    'Internal end forces of one beam element in local axes.',
    runLocalElementLoads,
  ),
  {
    id: 'MSA_3D_local_geometric_stiffness_CC1_H0_T0',
    signature: '(L, A, I_rho, Fx2, Mx2, My1, Mz1, My2, Mz2) -> ndarray (12, 12)',
    description: '12×12 local geometric stiffness of a 3D beam.',
    run: runLocalGeometric,
  },
  {
    id: 'MSA_3D_partition_DOFs_CC0_H0_T0',
    signature: '(boundary_conditions: dict, n_nodes: int) -> (fixed, free)',
    description: 'Fixed and free DOF indices.',
    run: runPartition,
  },
  ...tiers(
    'MSA_3D_solve_eigenvalue_CC1_H1',
    ['T1', 'T3'],
    '(K_e_global, K_g_global, boundary_conditions, n_nodes) -> (lambda, mode (6n,))',
    'Smallest positive buckling factor of K_e phi = -lambda K_g phi on the free DOFs.',
    runSolveEigenvalue,
  ),
  ...tiers(
    'MSA_3D_solve_linear_CC0_H1',
    ['T1', 'T3'],
    '(P_global, K_global, boundary_conditions, n_nodes) -> (u, r)',
    'Partitioned linear solve with reactions.',
    runSolveLinear,
  ),
  {
    id: 'MSA_3D_transformation_matrix_CC0_H0_T0',
    signature: '(x1, y1, z1, x2, y2, z2, reference_vector=None) -> ndarray (12, 12)',
    description: '12×12 beam transformation matrix Γ.',
    run: runTransformation,
  },
];
