/**
 * Numbers of one trajectory frame, for the per-frame plots and `structlab traj` (issue 15): the frame's own values
 * (extended XYZ `energy=`, pymatgen JSON properties), the largest force and the stress when the file carries them,
 * volume and lattice parameters of a periodic frame, and the shortest interatomic distance (periodic minimum image).
 * The space group (here) and the comparison with a reference (src/core/match/frame-reference.ts, the matcher's layer)
 * are separate calls: they cost milliseconds to seconds a frame, so the caller decides when to spend them. All pure.
 */
import { type Mat3, perpendicularWidths } from '../math/mat3.ts';
import { cbrt } from '../math/libm.ts';
import { type PackedStructure, latticeOf, unpackStructure } from '../structure/packed.ts';
import { findNeighborsRaw } from '../structure/neighbors.ts';
import { analyzeSymmetry } from '../symmetry/analyze.ts';
import { LIMITS, LimitError, limitSentence, groupedNumber } from '../limits.ts';

export interface FrameMetric {
  name: string;
  value: number;
  unit?: string;
}

/** ASE's extended XYZ units: forces in eV/Å, stress in eV/Å³, virial in eV (ase/io/extxyz.py, ase/stress.py). */
const FORCE_UNIT = 'eV/Å';
const STRESS_UNIT = 'eV/Å³';

/** Per-atom force columns: ASE writes `forces`, some codes `force` or `F`. */
const FORCE_NAMES = new Set(['forces', 'force', 'f']);

/** The largest |F| over the atoms of a 3-wide force column, or null without one. */
function maxForce(p: PackedStructure): number | null {
  const col = p.properties?.find((c) => c.width === 3 && FORCE_NAMES.has(c.name.toLowerCase()));
  if (!col) return null;
  let worst = 0;
  const v = col.values;
  for (let i = 0; i < v.length; i += 3) {
    const f2 = v[i] * v[i] + v[i + 1] * v[i + 1] + v[i + 2] * v[i + 2];
    if (f2 > worst) worst = f2;
  }
  return Math.sqrt(worst);
}

/** A 3×3 tensor (row-major) from 9 values or 6 Voigt values (xx, yy, zz, yz, xz, xy, as ASE orders them). */
function tensorOf(values: readonly number[]): number[] | null {
  if (values.length === 9) return [...values];
  if (values.length === 6) {
    const [xx, yy, zz, yz, xz, xy] = values;
    return [xx, xy, xz, xy, yy, yz, xz, yz, zz];
  }
  return null;
}

/**
 * Stress of the frame in eV/Å³: `stress` as given, or −virial / volume (ASE: virial = −stress · volume); null when
 * neither is present with 6 or 9 values.
 */
function stressTensor(p: PackedStructure, volume: number | null): number[] | null {
  const find = (name: string) => p.infoArrays?.find((e) => e.name.toLowerCase() === name);
  const stress = find('stress');
  if (stress) return tensorOf(stress.values);
  const virial = find('virial');
  const w = virial && volume ? tensorOf(virial.values) : null;
  return w && volume ? w.map((x) => -x / volume) : null;
}

/**
 * An upper bound on the shortest distance between N points of a periodic cell of volume V: spheres of that diameter
 * around every point do not overlap, and no packing fills more than π/√18 of space (Kepler; Hales 2005), so
 * N·(π/6)·d³ ≤ (π/√18)·V, i.e. d ≤ (√2·V/N)^(1/3). One pass of the neighbour search at this cutoff finds the pair.
 */
const packingBound = (volume: number, n: number): number => cbrt((Math.SQRT2 * volume) / n);

/**
 * Refuses a neighbour search at `cutoff` whose pairs would outgrow LIMITS.rdfPairs: atoms piled into a few bins (a
 * collapsed frame) make it quadratic. Bins are those of findNeighborsRaw (src/core/structure/neighbors.ts): at least
 * `cutoff` thick, at most 2 per atom; pairs looked at ≤ Σ over bins of n_b · (27 bins' atoms) ≤ 27 · N · max n_b.
 */
function checkPairWork(cart: Float64Array, cell: Mat3, frac: (i: number, k: number) => number, cutoff: number): void {
  const n = cart.length / 3;
  const widths = perpendicularWidths(cell);
  const nb = widths.map((w) => Math.max(1, Math.floor(w / cutoff)));
  while (nb[0] * nb[1] * nb[2] > Math.max(1, 2 * n)) {
    const k = nb.indexOf(Math.max(...nb));
    nb[k] = Math.max(1, Math.floor(nb[k] / 2));
  }
  const counts = new Uint32Array(nb[0] * nb[1] * nb[2]);
  let most = 0;
  for (let i = 0; i < n; i++) {
    let b = 0;
    for (let k = 0; k < 3; k++) {
      const f = frac(i, k);
      const g = f - Math.floor(f);
      b = b * nb[k] + Math.min(nb[k] - 1, Math.max(0, Math.floor(g * nb[k])));
    }
    if (++counts[b] > most) most = counts[b];
  }
  const reach = [0, 1, 2].map((k) => Math.ceil((cutoff * nb[k]) / widths[k] - 1e-12));
  const visits = (2 * reach[0] + 1) * (2 * reach[1] + 1) * (2 * reach[2] + 1);
  if (n * most * visits > LIMITS.rdfPairs) {
    throw new LimitError(
      'rdfPairs',
      limitSentence(
        `the shortest-distance search of ${groupedNumber(n)} atoms (up to ${groupedNumber(most)} of them within ` +
          `${cutoff.toPrecision(3)} Å of each other)`,
        null,
        LIMITS.rdfPairs,
        'atom pairs',
        'rdfPairs',
      ),
    );
  }
}

/**
 * The shortest distance between two atoms, Å: periodic frames by the minimum image (an atom's own images count, as they
 * do for a one-atom cell), finite ones between distinct atoms; null for a finite frame of one atom. Linear time: a cell
 * list at a cutoff that provably holds the shortest pair (periodic), or doubled from the bounding box's density until
 * a pair is found (finite). Throws LimitError for atoms piled up beyond LIMITS.rdfPairs.
 */
export function minimumDistance(p: PackedStructure): number | null {
  const n = p.natoms;
  const lattice = latticeOf(p);
  if (lattice) {
    if (n === 0) return null;
    const inv = lattice.inverseMatrix;
    const c = p.cart;
    const frac = (i: number, k: number) => c[3 * i] * inv[0][k] + c[3 * i + 1] * inv[1][k] + c[3 * i + 2] * inv[2][k];
    // 1 % over the bound: the search is strict (d < cutoff), and the bound itself is exact.
    const cutoff = packingBound(lattice.volume, n) * 1.01;
    checkPairWork(c, lattice.matrix, frac, cutoff);
    return shortest(findNeighborsRaw(c, lattice.matrix, cutoff).distance);
  }
  if (n < 2) return null;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      const v = p.cart[3 * i + k];
      if (v < lo[k]) lo[k] = v;
      if (v > hi[k]) hi[k] = v;
    }
  }
  const span = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  if (span === 0) return 0;
  const diagonal = Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  // The box with each side at least span/n (a line or a plane of atoms has a zero-volume box).
  const side = (k: number) => Math.max(hi[k] - lo[k], span / n);
  let cutoff = packingBound(side(0) * side(1) * side(2), n) * 1.01;
  for (;;) {
    const extent = [0, 1, 2].map((k) => Math.max(hi[k] - lo[k], cutoff) * (1 + 1e-9) + 1e-9);
    const box: Mat3 = [
      [extent[0], 0, 0],
      [0, extent[1], 0],
      [0, 0, extent[2]],
    ];
    checkPairWork(p.cart, box, (i, k) => (p.cart[3 * i + k] - lo[k]) / extent[k], cutoff);
    const d = shortest(findNeighborsRaw(p.cart, null, cutoff).distance);
    if (d !== null) return d;
    // No pair below the cutoff: the shortest one is longer. Past the box's diagonal every pair is found, so this ends.
    cutoff = Math.min(2 * cutoff, 2 * diagonal);
  }
}

function shortest(distances: Float64Array): number | null {
  if (distances.length === 0) return null;
  let best = Infinity;
  for (const d of distances) if (d < best) best = d;
  return best;
}

/** The names frameMetrics computes; a file value of the same name is listed as "info:NAME". */
const COMPUTED = new Set(['max_force', 'max_stress', 'pressure', 'volume', 'a', 'b', 'c', 'alpha', 'beta', 'gamma', 'min_distance']);

/**
 * The numbers of one frame, in a fixed order: the frame's own numeric values (file order, as named in the file, or
 * "info:NAME" where the name is one computed here), then max_force, max_stress and pressure (−tr σ / 3) when the file
 * carries forces or stress, then volume, a, b, c, alpha, beta, gamma of a periodic frame, then min_distance. Throws
 * LimitError only for a frame of piled-up atoms (see minimumDistance).
 */
export function frameMetrics(p: PackedStructure): FrameMetric[] {
  const out: FrameMetric[] = [];
  for (const { name, value } of p.info ?? []) out.push({ name: COMPUTED.has(name) ? `info:${name}` : name, value });
  const lattice = latticeOf(p);
  const force = maxForce(p);
  if (force !== null) out.push({ name: 'max_force', value: force, unit: FORCE_UNIT });
  const sigma = stressTensor(p, lattice?.volume ?? null);
  if (sigma) {
    let worst = 0;
    for (const x of sigma) worst = Math.max(worst, Math.abs(x));
    out.push({ name: 'max_stress', value: worst, unit: STRESS_UNIT });
    out.push({ name: 'pressure', value: -(sigma[0] + sigma[4] + sigma[8]) / 3, unit: STRESS_UNIT });
  }
  if (lattice) {
    const { a, b, c, alpha, beta, gamma } = lattice.parameters;
    out.push({ name: 'volume', value: lattice.volume, unit: 'Å³' });
    out.push({ name: 'a', value: a, unit: 'Å' }, { name: 'b', value: b, unit: 'Å' }, { name: 'c', value: c, unit: 'Å' });
    out.push(
      { name: 'alpha', value: alpha, unit: '°' },
      { name: 'beta', value: beta, unit: '°' },
      { name: 'gamma', value: gamma, unit: '°' },
    );
  }
  const dmin = minimumDistance(p);
  if (dmin !== null) out.push({ name: 'min_distance', value: dmin, unit: 'Å' });
  return out;
}

/**
 * The space group of a periodic frame at `symprec` (Å), through the same moyo search as `structlab info`
 * (src/core/symmetry/analyze.ts; moyo must be initialised); null for a finite frame or when no search is made.
 */
export function frameSpaceGroup(p: PackedStructure, symprec: number): { number: number; symbol: string } | null {
  if (!p.lattice) return null;
  const sym = analyzeSymmetry(unpackStructure(p), symprec);
  return sym ? { number: sym.number, symbol: sym.symbol } : null;
}
