/**
 * Particles of the shapes real nanoparticles take, from a crystal StructLab reads: a Wulff polyhedron filled with the
 * crystal's atoms, and ASE 3.22.1's icosahedra, decahedra and (truncated) octahedra for a one-element fcc crystal.
 *
 * Wulff fill (C2NP convention): the crystal as carve.ts lays it out (the cell rebuilt a-along-x unless
 * `keepLatticeFrame`; Atomsk's atom order, the c shift outermost), centred where carve centres a sphere (box: the centre
 * of a repeats³ supercell, for the default 20 a lattice point; origin; or a point), extended as far as the polyhedron
 * needs (no supercell clips it). Each atom at r from the centre c enters the polyhedron scaled by s once
 * s ≥ t(r) = max over faces of n·(r − c)/γ, so sorting t gives the particle of every scale at once: the closed sizes are
 * the counts at each distinct t (equal within 1e-9 relative: symmetry-equivalent atoms enter together), and `rounding`
 * picks one as ASE's wulff_construction does (ase/cluster/wulff.py: closest, the smaller on a tie; above; below). Atoms on
 * a facet plane are inside.
 */
import { cbrt } from '../../math/libm.ts';
import { type Mat3, type Vec3, det, inverse } from '../../math/mat3.ts';
import { LIMITS, groupedNumber } from '../../limits.ts';
import { symmetryDataset } from '../../symmetry/dataset.ts';
import { ClusterError, type ClusterResult, checkClusterSites, checkParticleAtoms, checkWhole } from '../../structure/clusters/common.ts';
import { octahedron } from '../../structure/clusters/cubic.ts';
import { decahedron, decahedronAtoms } from '../../structure/clusters/decahedron.ts';
import { icosahedron, icosahedronAtoms } from '../../structure/clusters/icosahedron.ts';
import type { SurfaceEnergy } from '../../structure/clusters/surface-energies.ts';
import type { WulffRounding } from '../../structure/clusters/wulff.ts';
import { type WulffOptions, type WulffShape, wulffFamilies, wulffShapeInCell } from './wulff-crystal.ts';
import { reducedFormula } from '../../structure/composition.ts';
import { type Structure, fracOf, majorSpecies } from '../../structure/structure.ts';
import { type CarveCenter, atomskCellFromParameters } from './carve.ts';

export interface WulffFillOptions extends WulffOptions {
  /** Atoms wanted. */
  size: number;
  rounding?: WulffRounding;
  /** Where the polyhedron's centre sits (default: the box centre of a `repeats`³ supercell, as carve). */
  center?: CarveCenter;
  /** Replicas per axis of the supercell whose centre `box` names (default 20, as carve). */
  repeats?: number;
  /** Use the lattice matrix as stored instead of rebuilding it a-along-x (carve.ts's option). */
  keepLatticeFrame?: boolean;
}

/** A Wulff particle: its atoms (Atomsk order), the shape and the scale it was cut at. */
export interface WulffParticle {
  symbols: string[];
  positions: Vec3[];
  center: Vec3;
  /** Cell vectors the atoms were laid out with (rows a, b, c): the frame of `positions` and of `shape`. */
  cell: Mat3;
  nAtoms: number;
  /** The shape at unit scale (lengths in units of γ), centred on the origin, in the particle's frame. */
  shape: WulffShape;
  /** Å per unit of γ: the planes of a family of energy γ stand scale·γ Å from the centre. */
  scale: number;
  /** The shape's corners around the particle, Å: center + scale·vertex. */
  corners: Vec3[];
  /** The closed sizes either side of the request (below = 0 when even the smallest particle is larger). */
  below: number;
  above: number;
  warnings: string[];
}

/** The cell carve.ts lays the crystal out with: as stored, or rebuilt a-along-x; refused when flat. */
function carveCell(structure: Structure, keepLatticeFrame: boolean): Mat3 {
  const lattice = structure.lattice!;
  const p = lattice.parameters;
  const cell: Mat3 = keepLatticeFrame
    ? (lattice.matrix.map((r) => [r[0], r[1], r[2]]) as Mat3)
    : atomskCellFromParameters(p.a, p.b, p.c, p.alpha, p.beta, p.gamma);
  const volume = Math.abs(det(cell));
  if (
    !cell.every((r) => r.every(Number.isFinite)) ||
    !(volume >= LIMITS.cellFlatness * Math.hypot(...cell[0]) * Math.hypot(...cell[1]) * Math.hypot(...cell[2]))
  )
    throw new ClusterError('the cell is flat or impossible; no particle can be cut from it');
  return cell;
}

function centerOf(center: CarveCenter | undefined, repeats: number, cell: Mat3): Vec3 {
  const kind = center?.kind ?? 'box';
  if (kind === 'point') {
    const point = (center as { point: Vec3 }).point;
    if (!point.every((x) => Number.isFinite(x) && Math.abs(x) <= LIMITS.coordinateAbs))
      throw new ClusterError(`the centre (${point.join(', ')}) must be finite and within ` + `±${groupedNumber(LIMITS.coordinateAbs)} Å`);
    return [point[0], point[1], point[2]];
  }
  if (kind === 'origin') return [0, 0, 0];
  return [0, 1, 2].map((k) => 0.5 * repeats * (cell[0][k] + cell[1][k] + cell[2][k])) as Vec3;
}

/** Relative tolerance within which two atoms enter the polyhedron at the same scale. */
const SAME_SCALE = 1e-9;

/**
 * The particle of about `size` atoms cut from `structure` by its Wulff shape for `energies` (see the header). Throws a
 * ClusterError sentence for bad energies or an open shape, a LimitError past LIMITS.particleAtoms or clusterSites.
 */
export function fillWulff(structure: Structure, energies: readonly SurfaceEnergy[], options: WulffFillOptions): WulffParticle {
  if (!structure.lattice) throw new ClusterError(`${structure.name || 'the structure'} has no lattice; only a crystal can be cut`);
  if (structure.sites.length === 0) throw new ClusterError(`${structure.name || 'the crystal'} has no atoms`);
  const size = checkWhole(options.size, 'the size', 1);
  checkParticleAtoms('the requested Wulff size', size);
  const rounding = options.rounding ?? 'closest';
  if (!['closest', 'above', 'below'].includes(rounding))
    throw new ClusterError(`the rounding must be closest, above or below, got ${JSON.stringify(rounding)}`);
  const repeats = options.repeats ?? 20;
  checkWhole(repeats, 'repeats', 1);
  const { families, ...group } = wulffFamilies(structure, energies, options);
  const cell = carveCell(structure, options.keepLatticeFrame ?? false);
  const shape = wulffShapeInCell(cell, families, group);
  const center = centerOf(options.center, repeats, cell);

  const faces = shape.faces.map((f) => [f.normal[0] / f.distance, f.normal[1] / f.distance, f.normal[2] / f.distance]);
  const reachPerScale = Math.max(...shape.vertices.map((v) => Math.hypot(v[0], v[1], v[2])));
  const lattice = structure.lattice;
  const symbols = structure.sites.map((s) => majorSpecies(s));
  const fracs = structure.sites.map((s) => fracOf(s, lattice));
  const basis = fracs.map((f) => [0, 1, 2].map((k) => f[0] * cell[0][k] + f[1] * cell[1][k] + f[2] * cell[2][k]));
  const inv = inverse(cell);
  const centreFrac = [0, 1, 2].map((k) => center[0] * inv[0][k] + center[1] * inv[1][k] + center[2] * inv[2][k]);
  const volume = Math.abs(det(cell));
  // The scale holding `size` atoms at the crystal's density; the search below widens until more than `size` are in.
  let scale =
    1.2 * cbrt((size * volume) / (structure.sites.length * shape.volume)) + cbrt(volume) / Math.min(...families.map((f) => f.energy));

  for (;;) {
    const radius = scale * reachPerScale;
    const ranges = [0, 1, 2].map((axis) => {
      const reach = radius * Math.hypot(inv[0][axis], inv[1][axis], inv[2][axis]);
      let lo = Infinity;
      let hi = -Infinity;
      for (const f of fracs) {
        lo = Math.min(lo, f[axis]);
        hi = Math.max(hi, f[axis]);
      }
      return [Math.floor(centreFrac[axis] - reach - hi) - 1, Math.ceil(centreFrac[axis] + reach - lo) + 1];
    });
    const cells = ranges.reduce((n, [a, b]) => n * (b - a + 1), 1);
    checkClusterSites(`the crystal around a Wulff particle of ${size} atoms`, cells * basis.length, 'sites');
    // Thresholds t and positions of every atom with t ≤ scale, in Atomsk order.
    const t: number[] = [];
    const xyz: number[] = [];
    const kind: number[] = [];
    for (let o = ranges[2][0]; o <= ranges[2][1]; o++)
      for (let n = ranges[1][0]; n <= ranges[1][1]; n++)
        for (let m = ranges[0][0]; m <= ranges[0][1]; m++)
          for (let s = 0; s < basis.length; s++) {
            const p = basis[s];
            const x = p[0] + m * cell[0][0] + n * cell[1][0] + o * cell[2][0];
            const y = p[1] + m * cell[0][1] + n * cell[1][1] + o * cell[2][1];
            const z = p[2] + m * cell[0][2] + n * cell[1][2] + o * cell[2][2];
            const dx = x - center[0];
            const dy = y - center[1];
            const dz = z - center[2];
            let th = 0;
            for (const f of faces) th = Math.max(th, f[0] * dx + f[1] * dy + f[2] * dz);
            if (th <= scale) {
              t.push(th);
              xyz.push(x, y, z);
              kind.push(s);
            }
          }
    if (t.length <= size) {
      scale *= 1.5;
      continue;
    }
    // Closed sizes: the count at the end of each run of equal thresholds.
    const sorted = [...t].sort((a, b) => a - b);
    const tol = SAME_SCALE * scale;
    let below = 0;
    let belowAt = -Infinity;
    let above = 0;
    let aboveAt = Infinity;
    for (let i = 0; i < sorted.length; i++) {
      if (i + 1 < sorted.length && sorted[i + 1] - sorted[i] <= tol) continue;
      // A run ending at the search's edge may have equivalents just past it: search wider.
      if (sorted[i] > scale - tol) break;
      const count = i + 1;
      if (count <= size) {
        below = count;
        belowAt = sorted[i];
      }
      if (count >= size) {
        above = count;
        aboveAt = sorted[i];
        break;
      }
    }
    if (above === 0) {
      // The last run may continue past `scale`: look further.
      scale *= 1.5;
      continue;
    }
    const pickAbove = rounding === 'above' || below === 0 || (rounding === 'closest' && above - size < size - below);
    if (rounding === 'below' && below === 0)
      throw new ClusterError(`no Wulff particle of this crystal has at most ${size} atoms here; the smallest has ${above}`);
    const cut = pickAbove ? aboveAt : belowAt;
    const positions: Vec3[] = [];
    const out: string[] = [];
    for (let i = 0; i < t.length; i++)
      if (t[i] <= cut + tol) {
        positions.push([xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]]);
        out.push(symbols[kind[i]]);
      }
    // The scale the particle is drawn at: its outermost atoms on the facets (a single atom: a point).
    const drawn = cut;
    const warnings = [...shape.warnings];
    return {
      symbols: out,
      positions,
      center,
      cell,
      nAtoms: positions.length,
      shape,
      scale: drawn,
      corners: shape.vertices.map((v) => [center[0] + drawn * v[0], center[1] + drawn * v[1], center[2] + drawn * v[2]] as Vec3),
      below,
      above,
      warnings,
    };
  }
}

/** The shapes ASE's builders make, offered for a one-element fcc crystal (or an element). */
export type AseShape = 'icosahedron' | 'decahedron' | 'octahedron' | 'cuboctahedron';

/** What a one-element fcc crystal gives the ASE builders: its element and conventional lattice constant. */
export interface FccCrystal {
  element: string;
  latticeConstant: number;
}

/** The structure types a one-element crystal is named by in the refusal, by space group and sites per primitive cell. */
function structureType(number: number, primitiveSites: number): string | null {
  if (number === 225 && primitiveSites === 1) return 'fcc';
  if (number === 229 && primitiveSites === 1) return 'bcc';
  if (number === 221 && primitiveSites === 1) return 'simple cubic';
  if (number === 194 && primitiveSites === 2) return 'hcp';
  if (number === 227 && primitiveSites === 2) return 'diamond-type';
  return null;
}

/**
 * The element and conventional lattice constant a of a one-element fcc crystal (Fm-3m, one site in the primitive cell;
 * a of spglib's conventional standard cell); anything else is refused with a sentence naming what it is.
 */
export function fccOfCrystal(structure: Structure, what = 'icosahedra, decahedra and octahedra'): FccCrystal {
  const name = structure.name || 'the crystal';
  if (!structure.lattice) throw new ClusterError(`${name} has no lattice; ${what} here are built from fcc crystals`);
  const elements = [...new Set(structure.sites.flatMap((s) => Object.keys(s.species)))];
  const dataset = symmetryDataset(structure);
  const group = dataset ? ` (${dataset.international})` : '';
  if (elements.length !== 1) {
    const formula = structure.sites.length > 0 ? reducedFormula(structure) : name;
    throw new ClusterError(`${formula} has ${elements.length} elements${group}; ${what} here are built from one-element fcc crystals`);
  }
  const element = elements[0];
  if (structure.sites.some((s) => s.species[element] !== 1))
    throw new ClusterError(`${element} has partly occupied sites; ${what} here are built from fully ordered fcc crystals`);
  if (!dataset) throw new ClusterError(`the space group of ${element} cannot be found; ${what} here are built from fcc crystals`);
  const type = structureType(dataset.number, dataset.primStdCell.sites.length);
  if (type !== 'fcc') {
    const is = type ?? `a ${dataset.crystalSystem} crystal with ${dataset.primStdCell.sites.length} atoms per primitive cell`;
    throw new ClusterError(`${element} is ${is}${group}; ${what} here are built from fcc crystals`);
  }
  // A conventional cubic cell as read keeps its own a; any other cell (primitive, rotated) gets spglib's conventional one.
  const p = structure.lattice.parameters;
  const cubic =
    structure.sites.length === 4 &&
    Math.abs(p.b - p.a) <= 1e-6 * p.a &&
    Math.abs(p.c - p.a) <= 1e-6 * p.a &&
    [p.alpha, p.beta, p.gamma].every((x) => Math.abs(x - 90) <= 1e-6);
  return { element, latticeConstant: cubic ? p.a : dataset.stdCell.lattice!.parameters.a };
}

/** How an ASE shape is sized: its own parameters, or `size` (atoms) for the closed shell nearest it. */
export interface AseShapeSize {
  shells?: number;
  p?: number;
  q?: number;
  r?: number;
  length?: number;
  cutoff?: number;
  size?: number;
}

/** An ASE shape built: the cluster, the parameters used, and whether its count is a closed-shell (magic) number. */
export interface AseShapeResult {
  cluster: ClusterResult;
  parameters: Record<string, number>;
  magic: boolean;
}

/** Atoms of ASE's Octahedron(length L, cutoff C): the octahedral number L(2L² + 1)/3 less six square pyramids of C layers. */
export const octahedronAtoms = (length: number, cutoff: number): number =>
  (length * (2 * length * length + 1)) / 3 - cutoff * (cutoff + 1) * (2 * cutoff + 1);

/** Closed-shell octahedra: regular (C = 0), cuboctahedra (L = 2C + 1) and regular truncated octahedra (L = 3C + 1). */
const octahedronMagic = (length: number, cutoff: number): boolean => cutoff === 0 || length === 2 * cutoff + 1 || length === 3 * cutoff + 1;

/** Of `candidates` (parameters and atom counts), the one nearest `size`: the smaller count on a tie, then the first. */
function nearest<T>(size: number, candidates: readonly { count: number; value: T }[]): T {
  let best = candidates[0];
  for (const c of candidates) {
    const d = Math.abs(c.count - size);
    const b = Math.abs(best.count - size);
    if (d < b || (d === b && c.count < best.count)) best = c;
  }
  return best.value;
}

/** Sizes k = 1, 2, … of a family whose count grows with k, up to the first past `size`. */
function upTo<T>(size: number, at: (k: number) => { count: number; value: T }): { count: number; value: T }[] {
  const out: { count: number; value: T }[] = [];
  for (let k = 1; ; k++) {
    const c = at(k);
    out.push(c);
    if (c.count >= size) return out;
  }
}

/**
 * ASE's builder of `shape` for `element` (lattice constant a; ASE's reference one when undefined), sized by its own
 * parameters or by `size`: icosahedron shells; decahedron p, q, r (size: p = q, r as given or 0: the Ino decahedra with
 * the icosahedral numbers 13, 55, 147, …); octahedron length and cutoff (size: the nearest regular, cuboctahedral or
 * regular truncated octahedron, or with a given cutoff the nearest length); cuboctahedron shells k = Octahedron(2k − 1,
 * k − 1).
 */
export function aseShape(shape: AseShape, element: string, latticeConstant: number | undefined, sizing: AseShapeSize): AseShapeResult {
  const size = sizing.size;
  if (size !== undefined) {
    checkWhole(size, 'the size', 1);
    checkParticleAtoms(`the requested ${shape} size`, size);
  }
  switch (shape) {
    case 'icosahedron':
    case 'cuboctahedron': {
      const shells =
        size !== undefined
          ? nearest(
              size,
              upTo(size, (k) => ({ count: icosahedronAtoms(k), value: k })),
            )
          : sizing.shells;
      if (shells === undefined) throw new ClusterError(`the ${shape} needs a number of shells or a size`);
      checkWhole(shells, 'the number of shells', 1);
      if (shape === 'icosahedron') return { cluster: icosahedron(element, shells, latticeConstant), parameters: { shells }, magic: true };
      checkParticleAtoms(`a cuboctahedron of ${shells} shells`, icosahedronAtoms(shells));
      return { cluster: octahedron(element, 2 * shells - 1, shells - 1, latticeConstant), parameters: { shells }, magic: true };
    }
    case 'decahedron': {
      const r = sizing.r ?? 0;
      checkWhole(r, 'r', 0);
      let { p, q } = sizing;
      if (size !== undefined)
        p = q = nearest(
          size,
          upTo(size, (k) => ({ count: decahedronAtoms(k, k, r), value: k })),
        );
      if (p === undefined || q === undefined) throw new ClusterError('the decahedron needs p, q (and r) or a size');
      return { cluster: decahedron(element, p, q, r, latticeConstant), parameters: { p, q, r }, magic: p === q && r === 0 };
    }
    case 'octahedron': {
      let { length, cutoff } = sizing;
      if (size !== undefined) {
        const given = cutoff;
        if (given !== undefined) checkWhole(given, 'the cutoff', 0);
        // Lengths until even the most truncated shape of a length (cutoff ⌊(L − 1)/2⌋, the fewest atoms) passes the size.
        const candidates: { count: number; value: [number, number] }[] = [];
        for (let l = given === undefined ? 1 : 2 * given + 1; ; l++) {
          const cutoffs = given !== undefined ? [given] : [0, (l - 1) / 2, (l - 1) / 3].filter((c) => Number.isInteger(c));
          for (const c of new Set(cutoffs)) candidates.push({ count: octahedronAtoms(l, c), value: [l, c] });
          if (octahedronAtoms(l, given ?? Math.floor((l - 1) / 2)) >= size) break;
        }
        [length, cutoff] = nearest(size, candidates);
      }
      if (length === undefined) throw new ClusterError('the octahedron needs a length or a size');
      const c = cutoff ?? 0;
      if (Number.isSafeInteger(length) && Number.isSafeInteger(c) && length >= 2 * c + 1)
        checkParticleAtoms(`an octahedron of length ${length} and cutoff ${c}`, octahedronAtoms(length, c));
      return {
        cluster: octahedron(element, length, c, latticeConstant),
        parameters: { length, cutoff: c },
        magic: octahedronMagic(length, c),
      };
    }
    default:
      throw new ClusterError(`unknown shape ${JSON.stringify(shape)}`);
  }
}
