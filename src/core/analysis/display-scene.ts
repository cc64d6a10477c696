/**
 * The display pipeline, DOM-free so it runs in the io worker (or on the main thread for synthetic
 * scenes): wrap into the cell → supercell n×m×k → boundary images → bonds → polyhedra, all as flat
 * typed arrays the viewer uploads as instance buffers. Pure; unit-testable in Node.
 */
import {
  type BondList,
  DEFAULT_BOND_TOLERANCE,
  computeBonds,
  convexHullFaces,
  coordinationPolyhedra,
  parseBondCutoffs,
} from '../structure/bonds.ts';
import { elementBySymbol } from '../structure/elements.ts';
import { type Mat3, wrapFrac } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type PackedStructure, latticeOf } from '../structure/packed.ts';
import type { Site, Structure } from '../structure/structure.ts';
import { groupedNumber } from '../limits.ts';

export interface DisplayOptions {
  supercell: [number, number, number];
  /** Repeat atoms lying on a cell face/edge/corner on the opposite side(s), as VESTA does. */
  boundaryImages: boolean;
  bonds: boolean;
  /** Multiplier on the sum of covalent radii (bonds.ts convention). */
  bondTolerance: number;
  /** Per-pair cutoffs as text (`Mg-H 2.1, Cs-Ca 0`), see parseBondCutoffs. */
  bondCutoffs: string;
  polyhedra: boolean;
  /** Polyhedra from these neighbour lists (the Local environment panel's) instead of the covalent-radius bonds. */
  polyhedronNeighbors: PolyhedronNeighbors | null;
  /** Above this many drawn atoms, bonds and polyhedra are skipped (they cost more than the atoms). */
  maxBondedAtoms: number;
}

export const DEFAULT_DISPLAY_OPTIONS: DisplayOptions = {
  supercell: [1, 1, 1],
  boundaryImages: true,
  bonds: true,
  bondTolerance: DEFAULT_BOND_TOLERANCE,
  bondCutoffs: '',
  polyhedra: false,
  polyhedronNeighbors: null,
  maxBondedAtoms: 50_000,
};

/**
 * Per site of the structure, the neighbours whose convex hull is its polyhedron, drawn around every drawn copy of the
 * site (supercells and boundary images included); sites with fewer than 4 neighbours get none.
 */
export interface PolyhedronNeighbors {
  /** Site i's neighbours are entries start[i] … start[i + 1] − 1 (n + 1 numbers). */
  start: Uint32Array;
  /** The neighbour's site. */
  site: Uint32Array;
  /** 3 integers per neighbour: its lattice image relative to the fractional coordinates as given (PackedStructure.frac). */
  image: Int32Array;
}

export interface DisplayData {
  natoms: number;
  elements: string[];
  /** Cartesian positions of every drawn atom (cell atoms first, then boundary images), 3 each. */
  positions: Float32Array;
  /** Index into `elements`. */
  element: Uint16Array;
  /** Index of the site in the loaded structure this atom is a copy of. */
  site: Uint32Array;
  /** Lattice translation (in unit cells) of this copy relative to the loaded site's wrapped position. */
  cellOffset: Int16Array;
  /** Number of atoms that are boundary images (they are the last `nimages` atoms). */
  nimages: number;
  /** Bond segments from start to end, 3 numbers each, with the element index of each end. */
  bondStart: Float32Array;
  bondEnd: Float32Array;
  bondElements: Uint16Array;
  nbonds: number;
  /** Coordination polyhedra as one triangle soup: 9 numbers per triangle, centre element per triangle. */
  polyTriangles: Float32Array;
  polyElement: Uint16Array;
  /** Unit-cell rows (9) and supercell multipliers, or null for a finite structure. */
  cell: Float64Array | null;
  supercell: [number, number, number];
  notes: string[];
}

const EPS = 1e-4;
/** Atoms within EPS of a face count as on it (0.99999 → 0), so they get their boundary copies. */
const wrap = (x: number): number => wrapFrac(x, EPS);

/** More drawn atoms than this would need gigabytes of buffers: refused with a message instead. */
export const MAX_DRAWN_ATOMS = 4_000_000;

export function displayTransferables(d: DisplayData): ArrayBuffer[] {
  return [d.positions, d.element, d.site, d.cellOffset, d.bondStart, d.bondEnd, d.bondElements, d.polyTriangles, d.polyElement].map(
    (a) => a.buffer as ArrayBuffer,
  );
}

/** Large A-site cations whose polyhedra hide the framework (VESTA and matterviz leave them out too). */
const SPECTATORS = new Set([
  'Na',
  'K',
  'Rb',
  'Cs',
  'Fr',
  'Sr',
  'Ba',
  'Ra',
  'La',
  'Ce',
  'Pr',
  'Nd',
  'Pm',
  'Sm',
  'Eu',
  'Gd',
  'Tb',
  'Dy',
  'Ho',
  'Er',
  'Tm',
  'Yb',
  'Lu',
]);

/** Anions: the most electronegative element present, and any with Pauling X ≥ 2.5 (O, N, S, halogens…). */
function anionMask(p: PackedStructure): boolean[] {
  const X = p.elements.map((el) => elementBySymbol(el)?.X ?? NaN);
  const maxX = Math.max(...X.filter(Number.isFinite));
  return X.map((x) => p.elements.length > 1 && (x >= 2.5 || x >= maxX));
}

function polyhedronCentre(p: PackedStructure, n: number): (i: number) => boolean {
  const anion = anionMask(p);
  return (i) => {
    const e = p.major[i % n];
    return !anion[e] && !SPECTATORS.has(p.elements[e]);
  };
}

/** Only cation–anion bonds make polyhedron vertices (metal–metal contacts would distort the hulls). */
function anionBonds(p: PackedStructure, bonds: BondList, n: number): BondList {
  const anion = anionMask(p);
  const keep: number[] = [];
  for (let b = 0; b < bonds.i.length; b++) {
    if (anion[p.major[bonds.i[b] % n]] !== anion[p.major[bonds.j[b] % n]]) keep.push(b);
  }
  const pick3 = (a: Int32Array) => Int32Array.from(keep.flatMap((b) => [a[3 * b], a[3 * b + 1], a[3 * b + 2]]));
  return {
    i: Uint32Array.from(keep, (b) => bonds.i[b]),
    j: Uint32Array.from(keep, (b) => bonds.j[b]),
    image: pick3(bonds.image),
    length: Float64Array.from(keep, (b) => bonds.length[b]),
  };
}

export function buildDisplay(p: PackedStructure, options: Partial<DisplayOptions> = {}): DisplayData {
  const opt = { ...DEFAULT_DISPLAY_OPTIONS, ...options };
  const lattice = latticeOf(p);
  const notes: string[] = [];
  const n = p.natoms;
  const [na, nb, nc] = lattice ? (opt.supercell.map((v) => Math.max(1, Math.floor(v))) as [number, number, number]) : [1, 1, 1];
  const ncells = na * nb * nc;
  const ncore = n * ncells;
  if (ncore > MAX_DRAWN_ATOMS) {
    throw new Error(
      `a ${na}×${nb}×${nc} supercell of ${groupedNumber(n)} atoms would draw ${groupedNumber(ncore)} atoms; the ` +
        `limit is ${groupedNumber(MAX_DRAWN_ATOMS)}, so choose a smaller supercell`,
    );
  }
  const M = lattice?.matrix;

  // Fractional coordinates of the supercell atoms in units of the unit cell (cell t, site s → t*n + s).
  const coreFrac = lattice ? new Float64Array(3 * ncore) : null;
  const coreOffset = new Int16Array(3 * ncore);
  if (coreFrac && p.frac) {
    let t = 0;
    for (let x = 0; x < na; x++)
      for (let y = 0; y < nb; y++)
        for (let z = 0; z < nc; z++, t++) {
          for (let s = 0; s < n; s++) {
            const k = 3 * (t * n + s);
            coreFrac[k] = wrap(p.frac[3 * s]) + x;
            coreFrac[k + 1] = wrap(p.frac[3 * s + 1]) + y;
            coreFrac[k + 2] = wrap(p.frac[3 * s + 2]) + z;
            coreOffset[k] = x;
            coreOffset[k + 1] = y;
            coreOffset[k + 2] = z;
          }
        }
  }

  // Boundary images: an atom at fractional 0 along an axis also appears at the far face.
  const imageFrac: number[] = [];
  const imageOf: number[] = [];
  /** Shift of each image in supercell vectors (0 or 1 per axis). */
  const imageShift: number[] = [];
  if (coreFrac && opt.boundaryImages) {
    const size = [na, nb, nc];
    for (let i = 0; i < ncore; i++) {
      const f = [coreFrac[3 * i], coreFrac[3 * i + 1], coreFrac[3 * i + 2]];
      const onFace = [0, 1, 2].map((ax) => f[ax] < EPS);
      if (!onFace[0] && !onFace[1] && !onFace[2]) continue;
      for (let mask = 1; mask < 8; mask++) {
        let ok = true;
        const g = [...f];
        for (let ax = 0; ax < 3; ax++)
          if (mask & (1 << ax)) {
            if (!onFace[ax]) {
              ok = false;
              break;
            }
            g[ax] += size[ax];
          }
        if (!ok) continue;
        imageFrac.push(g[0], g[1], g[2]);
        imageOf.push(i);
        imageShift.push(mask & 1, (mask >> 1) & 1, (mask >> 2) & 1);
      }
    }
  }
  const nimages = imageOf.length;
  const natoms = ncore + nimages;
  const positions = new Float32Array(3 * natoms);
  const element = new Uint16Array(natoms);
  const site = new Uint32Array(natoms);
  const cellOffset = new Int16Array(3 * natoms);
  cellOffset.set(coreOffset);
  const cart64 = new Float64Array(3 * natoms);
  for (let i = 0; i < natoms; i++) {
    const core = i < ncore ? i : imageOf[i - ncore];
    site[i] = core % n;
    element[i] = p.major[core % n];
    if (M && coreFrac) {
      const f =
        i < ncore ? [coreFrac[3 * i], coreFrac[3 * i + 1], coreFrac[3 * i + 2]] : imageFrac.slice(3 * (i - ncore), 3 * (i - ncore) + 3);
      for (let ax = 0; ax < 3; ax++) {
        cart64[3 * i + ax] = f[0] * M[0][ax] + f[1] * M[1][ax] + f[2] * M[2][ax];
        if (i >= ncore) cellOffset[3 * i + ax] = Math.floor(f[ax] + 1e-9);
      }
    } else {
      cart64.set(p.cart.subarray(3 * i, 3 * i + 3), 3 * i);
    }
  }
  positions.set(cart64);

  let bondStart = new Float32Array(0);
  let bondEnd = new Float32Array(0);
  let bondElements = new Uint16Array(0);
  let polyTriangles = new Float32Array(0);
  let polyElement = new Uint16Array(0);
  let nbonds = 0;
  const neighborLists = opt.polyhedra && M && p.frac ? opt.polyhedronNeighbors : null;
  if (neighborLists && neighborLists.start.length !== n + 1)
    throw new Error(`the polyhedron neighbours are for ${neighborLists.start.length - 1} sites, the structure has ${n}`);
  if ((opt.bonds || opt.polyhedra) && ncore > opt.maxBondedAtoms) {
    notes.push(`Bonds and polyhedra are off above ${groupedNumber(opt.maxBondedAtoms)} atoms (this scene has ${groupedNumber(ncore)}).`);
  } else if (opt.bonds || (opt.polyhedra && !neighborLists)) {
    const superLattice = M ? new Lattice([0, 1, 2].map((r) => M[r].map((v) => v * [na, nb, nc][r])) as Mat3) : null;
    const sites: Site[] = new Array(ncore);
    for (let i = 0; i < ncore; i++) {
      const s = i % n;
      const species: Record<string, number> = {};
      for (let k = p.speciesStart[s]; k < p.speciesStart[s + 1]; k++) species[p.elements[p.speciesElement[k]]] = p.speciesOcc[k];
      const xyz: [number, number, number] = [cart64[3 * i], cart64[3 * i + 1], cart64[3 * i + 2]];
      sites[i] = coreFrac
        ? { species, xyz, frac: [coreFrac[3 * i] / na, coreFrac[3 * i + 1] / nb, coreFrac[3 * i + 2] / nc] }
        : { species, xyz };
    }
    const superStructure: Structure = { name: p.name, lattice: superLattice, sites };
    const bonds = computeBonds(superStructure, { tolerance: opt.bondTolerance, overrides: parseBondCutoffs(opt.bondCutoffs) });
    if (opt.bonds) {
      const drawn = drawBondSegments(bonds, ncore, imageOf, imageShift, cart64, superLattice?.matrix ?? null);
      nbonds = drawn.elementsOf.length;
      bondStart = drawn.start;
      bondEnd = drawn.end;
      bondElements = new Uint16Array(2 * nbonds);
      for (let b = 0; b < nbonds; b++) {
        bondElements[2 * b] = element[drawn.elementsOf[b][0]];
        bondElements[2 * b + 1] = element[drawn.elementsOf[b][1]];
      }
    }
    if (opt.polyhedra && !neighborLists) {
      const polys = coordinationPolyhedra(superStructure, anionBonds(p, bonds, n), 4, polyhedronCentre(p, n));
      let ntri = 0;
      for (const poly of polys) ntri += poly.faces.length / 3;
      polyTriangles = new Float32Array(9 * ntri);
      polyElement = new Uint16Array(ntri);
      let t = 0;
      for (const poly of polys) {
        for (let f = 0; f < poly.faces.length; f += 3, t++) {
          for (let v = 0; v < 3; v++)
            polyTriangles.set(poly.vertices.subarray(3 * poly.faces[f + v], 3 * poly.faces[f + v] + 3), 9 * t + 3 * v);
          polyElement[t] = element[poly.center];
        }
      }
    }
  }
  if (neighborLists && M && p.frac && ncore <= opt.maxBondedAtoms) {
    ({ polyTriangles, polyElement } = neighborPolyhedra(neighborLists, p.frac, M, site, cart64, element));
  }

  return {
    natoms,
    elements: p.elements,
    positions,
    element,
    site,
    cellOffset,
    nimages,
    bondStart,
    bondEnd,
    bondElements,
    nbonds,
    polyTriangles,
    polyElement,
    cell: p.lattice ? Float64Array.from(p.lattice) : null,
    supercell: [na, nb, nc],
    notes,
  };
}

/**
 * The polyhedra of given neighbour lists around every drawn atom: each site's hull is found once, on its neighbours'
 * offsets L·(f_j + image − f_i) from the site (f as given, the frame the images refer to, so the display's own
 * wrapping does not matter), and placed at every drawn copy of the site.
 */
function neighborPolyhedra(
  lists: PolyhedronNeighbors,
  frac: Float64Array,
  M: Mat3,
  site: Uint32Array,
  cart: Float64Array,
  element: Uint16Array,
): { polyTriangles: Float32Array<ArrayBuffer>; polyElement: Uint16Array<ArrayBuffer> } {
  const n = lists.start.length - 1;
  const offsets: (Float64Array | null)[] = new Array(n).fill(null);
  const faces: (Uint32Array | null)[] = new Array(n).fill(null);
  for (let i = 0; i < n; i++) {
    const [a, b] = [lists.start[i], lists.start[i + 1]];
    if (b - a < 4) continue;
    const d = new Float64Array(3 * (b - a));
    for (let k = a; k < b; k++) {
      const j = lists.site[k];
      const f = [0, 1, 2].map((ax) => frac[3 * j + ax] + lists.image[3 * k + ax] - frac[3 * i + ax]);
      for (let ax = 0; ax < 3; ax++) d[3 * (k - a) + ax] = f[0] * M[0][ax] + f[1] * M[1][ax] + f[2] * M[2][ax];
    }
    const hull = convexHullFaces(d);
    if (hull.length > 0) [offsets[i], faces[i]] = [d, hull];
  }
  let ntri = 0;
  for (let atom = 0; atom < site.length; atom++) ntri += (faces[site[atom]]?.length ?? 0) / 3;
  const polyTriangles = new Float32Array(9 * ntri);
  const polyElement = new Uint16Array(ntri);
  let t = 0;
  for (let atom = 0; atom < site.length; atom++) {
    const [d, hull] = [offsets[site[atom]], faces[site[atom]]];
    if (!d || !hull) continue;
    for (let f = 0; f < hull.length; f += 3, t++) {
      for (let v = 0; v < 3; v++)
        for (let ax = 0; ax < 3; ax++) polyTriangles[9 * t + 3 * v + ax] = cart[3 * atom + ax] + d[3 * hull[f + v] + ax];
      polyElement[t] = element[atom];
    }
  }
  return { polyTriangles, polyElement };
}

/**
 * Bond segments between the drawn atoms. Every drawn copy of an atom (the cell atom or a boundary
 * image) looks up its bond partners at their periodic images: a partner that is drawn gets a full bond
 * (each pair once); a partner that is not drawn gets a half-bond stub from the cell atom towards it,
 * so every cell atom shows its whole coordination and no bond spans the cell.
 */
function drawBondSegments(
  bonds: BondList,
  ncore: number,
  imageOf: number[],
  imageShift: number[],
  cart: Float64Array,
  superMatrix: Mat3 | null,
): { start: Float32Array<ArrayBuffer>; end: Float32Array<ArrayBuffer>; elementsOf: [number, number][] } {
  const key = (core: number, sx: number, sy: number, sz: number) => `${core},${sx},${sy},${sz}`;
  // Drawn copies of each core atom: [instance, shift] pairs.
  const copies: [number, number, number, number][][] = Array.from({ length: ncore }, (_, i) => [[i, 0, 0, 0]]);
  const instanceAt = new Map<string, number>();
  for (let i = 0; i < ncore; i++) instanceAt.set(key(i, 0, 0, 0), i);
  for (let k = 0; k < imageOf.length; k++) {
    const inst = ncore + k;
    const [sx, sy, sz] = [imageShift[3 * k], imageShift[3 * k + 1], imageShift[3 * k + 2]];
    copies[imageOf[k]].push([inst, sx, sy, sz]);
    instanceAt.set(key(imageOf[k], sx, sy, sz), inst);
  }
  const shiftVector = (sx: number, sy: number, sz: number): [number, number, number] => {
    if (!superMatrix) return [0, 0, 0];
    return [0, 1, 2].map((ax) => sx * superMatrix[0][ax] + sy * superMatrix[1][ax] + sz * superMatrix[2][ax]) as [number, number, number];
  };
  const start: number[] = [];
  const end: number[] = [];
  const elementsOf: [number, number][] = [];
  const at = (inst: number) => [cart[3 * inst], cart[3 * inst + 1], cart[3 * inst + 2]];
  for (let b = 0; b < bonds.i.length; b++) {
    const i = bonds.i[b];
    const j = bonds.j[b];
    const [ix, iy, iz] = [bonds.image[3 * b], bonds.image[3 * b + 1], bonds.image[3 * b + 2]];
    // From every drawn copy of i to j's matching copy; from every copy of j back to i for stubs.
    for (const [from, sx, sy, sz] of copies[i]) {
      const partner = instanceAt.get(key(j, sx + ix, sy + iy, sz + iz));
      if (partner !== undefined) {
        start.push(...at(from));
        end.push(...at(partner));
        elementsOf.push([from, partner]);
      } else if (from < ncore) {
        const t = shiftVector(ix, iy, iz);
        const p = at(from),
          q = at(j);
        start.push(...p);
        end.push(...[0, 1, 2].map((ax) => (p[ax] + q[ax] + t[ax]) / 2));
        elementsOf.push([from, from]);
      }
    }
    for (const [from, sx, sy, sz] of copies[j]) {
      if (from >= ncore || instanceAt.has(key(i, sx - ix, sy - iy, sz - iz))) continue;
      const t = shiftVector(ix, iy, iz);
      const p = at(from),
        q = at(i);
      start.push(...p);
      end.push(...[0, 1, 2].map((ax) => (p[ax] + q[ax] - t[ax]) / 2));
      elementsOf.push([from, from]);
    }
  }
  return { start: new Float32Array(start), end: new Float32Array(end), elementsOf };
}
