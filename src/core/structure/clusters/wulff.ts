/**
 * Wulff constructions as ASE 3.22.1 builds them (ase/cluster/wulff.py `wulff_construction`, gitlab.com/ase/ase,
 * LGPL-2.1+; read, not copied): surface energies divided by each surface's layer distance, a first guess of layers
 * from size^(1/3), a rescaled second guess, then one layer at a time towards the size until clusters at or below and at
 * or above it are both known; `rounding` picks one (closest: the smaller on a tie).
 */
import {
  type CubicClusterResult,
  type CubicStructure,
  type PatternCache,
  buildCubicCluster,
  checkSurfaces,
  cubicLattice,
  oneLayerDistance,
} from './cubic.ts';
import { ClusterError, checkParticleAtoms, checkWhole, powOneThird, rint } from './common.ts';

export type WulffRounding = 'closest' | 'above' | 'below';

const STRUCTURES: readonly CubicStructure[] = ['fcc', 'bcc', 'sc'];
const ROUNDINGS: readonly WulffRounding[] = ['closest', 'above', 'below'];
/** wulff.py's `delta` and `maxiter`. */
const DELTA = 1e-10;
const MAX_ITERATIONS = 100;

/** ASE's `wulff_construction(symbol, surfaces, energies, size, structure, rounding, latticeconstant)` for fcc, bcc and sc. */
export function wulffConstruction(
  symbol: string,
  surfaces: readonly (readonly number[])[],
  energies: readonly number[],
  size: number,
  structure: CubicStructure,
  rounding: WulffRounding = 'closest',
  latticeConstant?: number,
): CubicClusterResult {
  if (!STRUCTURES.includes(structure)) throw new ClusterError(`the structure must be fcc, bcc or sc, got ${JSON.stringify(structure)}`);
  if (!ROUNDINGS.includes(rounding))
    throw new ClusterError(`the rounding must be closest, above or below, got ${JSON.stringify(rounding)}`);
  checkWhole(size, 'the size', 1);
  checkParticleAtoms('the requested Wulff size', size);
  checkSurfaces(surfaces, 'the Wulff construction');
  if (!Array.isArray(energies) || energies.length !== surfaces.length)
    throw new ClusterError(
      `the Wulff construction needs one energy per surface: ${surfaces.length} surfaces, ${energies?.length ?? 0} energies`,
    );
  for (const e of energies)
    if (!(typeof e === 'number' && Number.isFinite(e) && e > 0))
      throw new ClusterError(`surface energies must be positive numbers, got ${e}`);

  const lattice = cubicLattice(structure, symbol, latticeConstant);
  const cache: PatternCache = new Map();
  // ASE builds a cluster of 5 layers per surface first (for its layer distances); its refusals are ASE's.
  buildCubicCluster(
    lattice,
    symbol,
    surfaces,
    surfaces.map(() => 5),
    undefined,
    cache,
  );
  const scaled = energies.map((e, i) => e / oneLayerDistance(lattice, surfaces[i], cache));

  const make = (factor: number) => {
    const layers = scaled.map((e) => rint(factor * e));
    return { cluster: buildCubicCluster(lattice, symbol, surfaces, layers, undefined, cache), layers };
  };
  let factor = powOneThird(size) / Math.max(...scaled);
  let current = make(factor);
  if (current.cluster.nAtoms === 0) {
    // probably a very flat cluster
    factor = 1 / Math.min(...scaled);
    current = make(factor);
    if (current.cluster.nAtoms === 0)
      throw new ClusterError('the Wulff construction gives no finite cluster for these surfaces and energies');
  }
  const second = make(factor * powOneThird(size / current.cluster.nAtoms));
  if (second.cluster.nAtoms > 0) current = second;

  let below = current.cluster.nAtoms <= size ? current : null;
  let above = current.cluster.nAtoms >= size ? current : null;
  for (let iteration = 1; !below || !above; iteration++) {
    const old = current.layers;
    const larger = current.cluster.nAtoms < size;
    factor = larger
      ? Math.min(...old.map((l, i) => (l + 0.5 + DELTA) / scaled[i]))
      : Math.max(...old.map((l, i) => (l - 0.5 - DELTA) / scaled[i]));
    current = make(factor);
    const steps = current.layers.map((l, i) => l - old[i]);
    const ok = larger ? Math.max(...steps) === 1 && Math.min(...steps) >= 0 : Math.max(...steps) <= 0 && Math.min(...steps) === -1;
    if (!ok) throw new ClusterError('ASE 3.22.1 fails on this Wulff construction (a layer step of its search is not one layer)');
    if (current.cluster.nAtoms <= size) below = current;
    if (current.cluster.nAtoms >= size) above = current;
    // ASE raises at the 100th step even when that step finishes the search.
    if (iteration === MAX_ITERATIONS)
      throw new ClusterError(
        `the Wulff construction does not reach ${size} atoms within ${MAX_ITERATIONS} steps (ASE's runaway iteration)`,
      );
  }
  const chosen =
    rounding === 'below' ? below : rounding === 'above' ? above : above.cluster.nAtoms - size < size - below.cluster.nAtoms ? above : below;
  const name =
    `${symbol} ${structure} Wulff construction, ${chosen.cluster.nAtoms} atoms for size ${size} (${rounding}), ` +
    `layers ${chosen.layers.join(',')} (ASE 3.22.1 wulff_construction)`;
  return { ...chosen.cluster, structure: { ...chosen.cluster.structure, name, properties: { comment: name } } };
}
