/**
 * Cubic clusters cut by facets as ASE 3.22.1 builds them (gitlab.com/ase/ase, LGPL-2.1+; read, not copied):
 * ase/cluster/factory.py `ClusterFactory` (`set_surfaces_layers`, `set_lattice_size`, `make_cluster`), ase/cluster/base.py
 * `get_layer_distance` (the lattice-sample pattern search) and `miller_to_direction`, ase/cluster/cubic.py's sc, bcc and
 * fcc bases, and ase/cluster/octahedron.py `Octahedron`. NumPy's rounding (`np.round(k, 2)`, half to even) and summation
 * are reproduced, since the block of unit cells ASE cuts from (which can truncate the facets) depends on them.
 */
import { LimitError } from '../../limits.ts';
import { gcd } from '../../math/gcd.ts';
import {
  ClusterError,
  type ClusterResult,
  centerAboutOrigin,
  checkClusterSites,
  checkParticleAtoms,
  checkWhole,
  clusterResult,
  latticeConstantOf,
  rint,
} from './common.ts';
import { pairwiseSum } from '../../math/statistics.ts';

export type CubicStructure = 'fcc' | 'bcc' | 'sc';

/** Fractional atomic bases of ase/cluster/cubic.py. */
const ATOMIC_BASIS: Record<CubicStructure, readonly (readonly number[])[]> = {
  sc: [[0, 0, 0]],
  bcc: [
    [0, 0, 0],
    [0.5, 0.5, 0.5],
  ],
  fcc: [
    [0, 0, 0],
    [0, 0.5, 0.5],
    [0.5, 0, 0.5],
    [0.5, 0.5, 0],
  ],
};

const FACTORY_NAMES: Record<CubicStructure, string> = { sc: 'SimpleCubic', bcc: 'BodyCenteredCubic', fcc: 'FaceCenteredCubic' };

/** A cubic cluster with the layer count of each given surface (for a Wulff construction, the chosen ones). */
export interface CubicClusterResult extends ClusterResult {
  /** The given surfaces reduced to their lowest Miller indices, in the given order. */
  surfaces: number[][];
  layers: number[];
}

/** A cubic lattice: constant a, the fractional basis, and the diagonal of ASE's reciprocal basis (k·a² with k = 1/a³). */
interface CubicLattice {
  structure: CubicStructure;
  a: number;
  basis: readonly (readonly number[])[];
  reciprocal: number;
}

/** The lattice of `structure` for `symbol`: the given constant, else ASE's reference one when its structure matches. */
export function cubicLattice(
  structure: CubicStructure,
  symbol: string,
  latticeConstant?: number,
  builder = FACTORY_NAMES[structure],
): CubicLattice {
  const a = latticeConstantOf(symbol, latticeConstant, [structure], builder);
  return { structure, a, basis: ATOMIC_BASIS[structure], reciprocal: (1 / (a * (a * a))) * (a * a) };
}

/** ase/cluster/factory.py `reduce_miller`: divided by the greatest common divisor, same direction. */
function reduceMiller(hkl: readonly number[]): number[] {
  const d = gcd(gcd(hkl[0], hkl[1]), hkl[2]);
  return hkl.map((x) => x / d + 0);
}

/** `miller_to_direction(miller)`: the unit vector of miller · reciprocal basis, in NumPy's arithmetic. */
function direction(lattice: CubicLattice, miller: readonly number[]): number[] {
  const d = miller.map((m) => m * lattice.reciprocal);
  const norm = Math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  return d.map((x) => x / norm);
}

/** Sites of the lattice sample `get_layer_distance` projects for `miller`. */
const sampleSites = (lattice: CubicLattice, miller: readonly number[]): number =>
  (Math.abs(miller[0]) + 2) * (Math.abs(miller[1]) + 2) * (Math.abs(miller[2]) + 2) * lattice.basis.length;

const TOL = 1e-9;

/**
 * The repeating layer spacings along `miller` (base.py `get_layer_distance`, new=True): a lattice sample of
 * (|h|+2)(|k|+2)(|l|+2) cells is projected on the direction, the distinct projections' gaps searched for the first
 * pattern that covers more than half of them. Reversed when every projection is ≤ 0, as ASE does.
 */
function layerPattern(lattice: CubicLattice, miller: readonly number[]): number[] {
  const [n0, n1, n2] = direction(lattice, miller);
  const size = miller.map((m) => Math.abs(m) + 2);
  const a = lattice.a;
  const projections: number[] = [];
  for (let h = 0; h < size[0]; h++)
    for (let k = 0; k < size[1]; k++)
      for (let l = 0; l < size[2]; l++)
        for (const b of lattice.basis) projections.push(n0 * ((h + b[0]) * a) + n1 * ((k + b[1]) * a) + n2 * ((l + b[2]) * a));
  let d: number[];
  let reverse = false;
  if (projections.every((x) => x < TOL)) {
    d = projections.map(Math.abs).sort((x, y) => x - y);
    reverse = true;
  } else d = projections.filter((x) => x > -TOL).sort((x, y) => x - y);
  const distinct = d.filter((x, i) => i === d.length - 1 || d[i + 1] - x > TOL);
  const gaps = distinct.slice(1).map((x, i) => x - distinct[i]);
  const pattern = findPattern(gaps, miller);
  return reverse ? pattern.reverse() : pattern;
}

/** The pattern search of base.py `get_layer_distance` over the gaps `d`, NumPy's broadcasting rules included. */
function findPattern(d: readonly number[], miller: readonly number[]): number[] {
  const len = d.length;
  const close = (i: number, j: number, n: number) => {
    for (let t = 0; t < n; t++) if (!(Math.abs(d[i + t] - d[j + t]) < TOL)) return false;
    return true;
  };
  for (let i = 0; i < len; i++) {
    for (let n = 1; n <= Math.floor((len - i) / 2); n++) {
      if (!close(i, i + n, n)) continue;
      let counts = 2;
      for (let j = i + 2 * n; j < len; j += n) {
        const tail = Math.min(n, len - j);
        if (tail === n) {
          if (close(j, i, n)) counts++;
        } else if (tail === 1) {
          // d[j:j+1] − d[i:i+n] broadcasts the one gap against all n
          let all = true;
          for (let t = 0; t < n; t++) if (!(Math.abs(d[j] - d[i + t]) < TOL)) all = false;
          if (all) counts++;
        } else {
          throw new ClusterError(
            `ASE 3.22.1 fails on the (${miller.join(',')}) surface: its layer-distance search compares gap runs of ` +
              `${tail} and ${n} (a NumPy broadcasting error)`,
          );
        }
      }
      if ((counts * n) / len > 0.5) return d.slice(i, i + n);
    }
  }
  throw new ClusterError(`ASE 3.22.1 cannot find the layer distance of the (${miller.join(',')}) surface`);
}

/** `get_layer_distance(miller, layers)` from the pattern: the first ⌊layers⌋ spacings plus the fraction of the next. */
function layerDistance(pattern: readonly number[], layers: number): number {
  let p = pattern;
  if (layers < 0) {
    p = pattern.map((x) => -x).reverse();
    layers = -layers;
  }
  const fraction = layers % 1;
  const count = layers - fraction + 1;
  const picked = new Array<number>(count);
  for (let i = 0; i < count; i++) picked[i] = p[i % p.length];
  return pairwiseSum(picked, 0, count - 1) + fraction * picked[count - 1];
}

/** The 48 signed permutations of (h, k, l), duplicates removed: the equivalent reflections of groups 221, 225, 229. */
function equivalentSurfaces(hkl: readonly number[]): number[][] {
  const out: number[][] = [];
  const perms = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  for (const p of perms)
    for (let signs = 0; signs < 8; signs++) {
      const v = p.map((c, i) => (signs & (1 << i) ? -hkl[c] : hkl[c]) + 0);
      if (!out.some((w) => w[0] === v[0] && w[1] === v[1] && w[2] === v[2])) out.push(v);
    }
  return out;
}

interface Facet {
  miller: number[];
  layers: number;
  pattern: number[];
  normal: number[];
}

/** Layer spacings per Miller index, shared by the builds of one Wulff search. */
export type PatternCache = Map<string, number[]>;

/** `get_layer_distance(miller)` (one layer) of a surface as given, not reduced (wulff.py scales the energies by it). */
export function oneLayerDistance(lattice: CubicLattice, miller: readonly number[], cache: PatternCache): number {
  const key = miller.join(',');
  let pattern = cache.get(key);
  if (!pattern) {
    checkClusterSites(`the layer-distance sample of the (${key}) surface`, sampleSites(lattice, miller));
    cache.set(key, (pattern = layerPattern(lattice, miller)));
  }
  return layerDistance(pattern, 1);
}

/** Checks a list of surfaces (h, k, l), as the builders and the Wulff construction take them. */
export function checkSurfaces(surfaces: readonly (readonly number[])[], what: string): void {
  if (!Array.isArray(surfaces) || surfaces.length === 0) throw new ClusterError(`${what} needs at least one surface`);
  for (const s of surfaces) {
    if (!Array.isArray(s) || s.length !== 3 || !s.every((x) => Number.isInteger(x)))
      throw new ClusterError(`each surface must be three whole Miller indices h,k,l, got ${JSON.stringify(s)}`);
    if (s.every((x) => x === 0)) throw new ClusterError('the surface (0,0,0) is not a plane; give h,k,l not all zero');
    if (s.some((x) => Math.abs(x) > 1_000_000)) throw new ClusterError(`the Miller indices of (${s.join(',')}) are too large`);
  }
}

/**
 * `ClusterFactory.__call__(symbol, surfaces, layers, latticeconstant, center)` for a cubic lattice: the surfaces and their
 * symmetry-equivalent ones with their layer counts, the block of unit cells from `set_lattice_size`, the atoms below every
 * facet's l + 0.1 layers, centred on the origin as ASE centres them.
 */
export function buildCubicCluster(
  lattice: CubicLattice,
  symbol: string,
  surfaces: readonly (readonly number[])[],
  layers: readonly number[],
  offset: readonly number[] = [0, 0, 0],
  cache: PatternCache = new Map(),
): CubicClusterResult {
  const factory = FACTORY_NAMES[lattice.structure];
  checkSurfaces(surfaces, factory);
  if (!Array.isArray(layers) || layers.length !== surfaces.length)
    throw new ClusterError(
      `${factory} needs one layer count per surface: ${surfaces.length} surfaces, ${layers?.length ?? 0} layer counts`,
    );
  for (const l of layers) {
    if (!(typeof l === 'number' && Number.isFinite(l) && l >= 0)) throw new ClusterError(`layer counts must be zero or more, got ${l}`);
    checkClusterSites('a facet', l, 'layers');
  }

  // set_surfaces_layers: the given surfaces (reduced), then each one's equivalents not yet listed, with its layers.
  const reduced = surfaces.map(reduceMiller);
  const full = reduced.map((miller, i) => ({ miller, layers: layers[i] }));
  reduced.forEach((s, i) => {
    for (const e of equivalentSurfaces(s))
      if (!full.some((f) => f.miller[0] === e[0] && f.miller[1] === e[1] && f.miller[2] === e[2]))
        full.push({ miller: e, layers: layers[i] });
  });

  let sampled = 0;
  for (const f of full) if (!cache.has(f.miller.join(','))) sampled += sampleSites(lattice, f.miller);
  checkClusterSites(`the layer-distance samples of ${factory}'s ${full.length} facets`, sampled);
  const facets: Facet[] = full.map((f) => {
    const key = f.miller.join(',');
    let pattern = cache.get(key);
    if (!pattern) cache.set(key, (pattern = layerPattern(lattice, f.miller)));
    return { ...f, pattern, normal: direction(lattice, f.miller) };
  });

  // set_lattice_size: the block spans, on each axis, the lattice coordinates of every facet's l layers (rounded to
  // 2 decimals, then away from zero), at least −1 … 1.
  const a = lattice.a;
  const inverse = 1 / a;
  const hi = [1, 1, 1];
  const lo = [-1, -1, -1];
  for (const f of facets) {
    const distance = layerDistance(f.pattern, f.layers);
    for (let i = 0; i < 3; i++) {
      let k = rint(inverse * (f.normal[i] * distance) * 100) / 100;
      if (k > 0) k = Math.ceil(k);
      else if (k < 0) k = Math.floor(k);
      if (k > hi[i]) hi[i] = k;
      if (k < lo[i]) lo[i] = k;
    }
  }
  const center = [0, 1, 2].map((i) => (offset[i] - lo[i]) * a);
  const size = [0, 1, 2].map((i) => hi[i] - lo[i] + 1);
  const basis = lattice.basis;
  const sites = size[0] * size[1] * size[2] * basis.length;
  checkClusterSites(`the block of ${size.join(' × ')} unit cells ${factory} cuts from`, sites);

  // make_cluster: every site of the block below each facet's l + 0.1 layers (measured from the centre).
  const cuts = facets.map((f) => ({ n: f.normal, rmax: layerDistance(f.pattern, f.layers + 0.1) }));
  const kept: number[] = [];
  const basisCart = basis.map((b) => b.map((x) => x * a));
  for (let h = 0; h < size[0]; h++)
    for (let k = 0; k < size[1]; k++)
      for (let l = 0; l < size[2]; l++)
        for (const b of basisCart) {
          const x = b[0] + h * a;
          const y = b[1] + k * a;
          const z = b[2] + l * a;
          const dx = x - center[0];
          const dy = y - center[1];
          const dz = z - center[2];
          let inside = true;
          for (const c of cuts)
            if (!(dx * c.n[0] + dy * c.n[1] + dz * c.n[2] < c.rmax)) {
              inside = false;
              break;
            }
          if (inside) kept.push(x, y, z);
        }
  checkParticleAtoms(`the ${factory} cluster`, kept.length / 3);
  const positions = Float64Array.from(kept);
  centerAboutOrigin(positions);
  const described = reduced.map((s, i) => `(${s.join(',')})×${layers[i]}`).join(' ');
  return {
    ...clusterResult(symbol, positions, a, `${symbol} ${lattice.structure} cluster ${described} (ASE 3.22.1 ${factory})`),
    surfaces: reduced,
    layers: [...layers],
  };
}

/** ASE's `FaceCenteredCubic`, `BodyCenteredCubic` or `SimpleCubic(symbol, surfaces, layers, latticeconstant)`. */
export function cubicCluster(
  structure: CubicStructure,
  symbol: string,
  surfaces: readonly (readonly number[])[],
  layers: readonly number[],
  latticeConstant?: number,
): CubicClusterResult {
  return buildCubicCluster(cubicLattice(structure, symbol, latticeConstant), symbol, surfaces, layers);
}

export const faceCenteredCubic = (
  symbol: string,
  surfaces: readonly (readonly number[])[],
  layers: readonly number[],
  latticeConstant?: number,
) => cubicCluster('fcc', symbol, surfaces, layers, latticeConstant);
export const bodyCenteredCubic = (
  symbol: string,
  surfaces: readonly (readonly number[])[],
  layers: readonly number[],
  latticeConstant?: number,
) => cubicCluster('bcc', symbol, surfaces, layers, latticeConstant);
export const simpleCubic = (
  symbol: string,
  surfaces: readonly (readonly number[])[],
  layers: readonly number[],
  latticeConstant?: number,
) => cubicCluster('sc', symbol, surfaces, layers, latticeConstant);

/**
 * ASE's `Octahedron(symbol, length, cutoff, latticeconstant)` (alloy=False): an fcc cluster with (111) and (100) facets,
 * ⌊length/2⌋ and length − 1 − cutoff layers, centred on a cube centre (½, ½, ½) when length is even.
 */
export function octahedron(symbol: string, length: number, cutoff = 0, latticeConstant?: number): CubicClusterResult {
  checkWhole(length, 'the octahedron length', 1);
  checkWhole(cutoff, 'the cutoff', 0);
  if (length < 2 * cutoff + 1)
    throw new ClusterError(`the cutoff must be at most (length − 1) / 2 = ${(length - 1) / 2}, got ${cutoff} for length ${length}`);
  const even = length % 2 === 0;
  const lattice = cubicLattice('fcc', symbol, latticeConstant, 'Octahedron (fcc)');
  const layers = [even ? length / 2 : (length - 1) / 2, length - 1 - cutoff];
  try {
    const result = buildCubicCluster(
      lattice,
      symbol,
      [
        [1, 1, 1],
        [1, 0, 0],
      ],
      layers,
      even ? [0.5, 0.5, 0.5] : [0, 0, 0],
    );
    const name = `${symbol} octahedron, length ${length}, cutoff ${cutoff} (ASE 3.22.1 Octahedron)`;
    return { ...result, structure: { ...result.structure, name, properties: { comment: name } } };
  } catch (e) {
    if (e instanceof LimitError) throw new LimitError(e.limit, `an octahedron of length ${length}: ${e.message}`);
    throw e;
  }
}
