/**
 * The display pipeline, DOM-free so it runs in the io worker (or on the main thread for synthetic
 * scenes): wrap into the cell → supercell n×m×k → boundary images → bonds → polyhedra, all as flat
 * typed arrays the viewer uploads as instance buffers. Pure; unit-testable in Node.
 */
import { type BondList, computeBonds, coordinationPolyhedra } from '../src/core/structure/bonds.ts';
import { elementBySymbol } from '../src/core/structure/elements.ts';
import type { Mat3 } from '../src/core/math/mat3.ts';
import { Lattice } from '../src/core/structure/lattice.ts';
import { type PackedStructure, latticeOf } from '../src/core/structure/packed.ts';
import type { Site, Structure } from '../src/core/structure/structure.ts';

export interface DisplayOptions {
  supercell: [number, number, number];
  /** Repeat atoms lying on a cell face/edge/corner on the opposite side(s), as VESTA does. */
  boundaryImages: boolean;
  bonds: boolean;
  /** Multiplier on the sum of covalent radii (bonds.ts convention). */
  bondTolerance: number;
  polyhedra: boolean;
  /** Above this many drawn atoms, bonds and polyhedra are skipped (they cost more than the atoms). */
  maxBondedAtoms: number;
}

export const DEFAULT_DISPLAY_OPTIONS: DisplayOptions = {
  supercell: [1, 1, 1], boundaryImages: true, bonds: true, bondTolerance: 1.15, polyhedra: false, maxBondedAtoms: 50_000,
};

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
const wrap = (x: number): number => {
  const w = x - Math.floor(x);
  return w >= 1 - 1e-10 ? 0 : w;
};

export function displayTransferables(d: DisplayData): ArrayBuffer[] {
  return [d.positions, d.element, d.site, d.cellOffset, d.bondStart, d.bondEnd, d.bondElements, d.polyTriangles, d.polyElement]
    .map((a) => a.buffer as ArrayBuffer);
}

/** Large A-site cations whose polyhedra hide the framework (VESTA and matterviz leave them out too). */
const SPECTATORS = new Set(['Na', 'K', 'Rb', 'Cs', 'Fr', 'Sr', 'Ba', 'Ra', 'La', 'Ce', 'Pr', 'Nd', 'Pm', 'Sm', 'Eu', 'Gd', 'Tb', 'Dy', 'Ho', 'Er', 'Tm', 'Yb', 'Lu']);

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
  const [na, nb, nc] = lattice ? opt.supercell.map((v) => Math.max(1, Math.floor(v))) as [number, number, number] : [1, 1, 1];
  const ncells = na * nb * nc;
  const ncore = n * ncells;
  const M = lattice?.matrix;

  // Fractional coordinates of the supercell atoms in units of the unit cell (cell t, site s → t*n + s).
  const coreFrac = lattice ? new Float64Array(3 * ncore) : null;
  const coreOffset = new Int16Array(3 * ncore);
  if (coreFrac && p.frac) {
    let t = 0;
    for (let x = 0; x < na; x++) for (let y = 0; y < nb; y++) for (let z = 0; z < nc; z++, t++) {
      for (let s = 0; s < n; s++) {
        const k = 3 * (t * n + s);
        coreFrac[k] = wrap(p.frac[3 * s]) + x;
        coreFrac[k + 1] = wrap(p.frac[3 * s + 1]) + y;
        coreFrac[k + 2] = wrap(p.frac[3 * s + 2]) + z;
        coreOffset[k] = x; coreOffset[k + 1] = y; coreOffset[k + 2] = z;
      }
    }
  }

  // Boundary images: an atom at fractional 0 along an axis also appears at the far face.
  const imageFrac: number[] = [];
  const imageOf: number[] = [];
  if (coreFrac && opt.boundaryImages) {
    const size = [na, nb, nc];
    for (let i = 0; i < ncore; i++) {
      const f = [coreFrac[3 * i], coreFrac[3 * i + 1], coreFrac[3 * i + 2]];
      const onFace = [0, 1, 2].map((ax) => f[ax] < EPS);
      if (!onFace[0] && !onFace[1] && !onFace[2]) continue;
      for (let mask = 1; mask < 8; mask++) {
        let ok = true;
        const g = [...f];
        for (let ax = 0; ax < 3; ax++) if (mask & (1 << ax)) { if (!onFace[ax]) { ok = false; break; } g[ax] += size[ax]; }
        if (!ok) continue;
        imageFrac.push(g[0], g[1], g[2]);
        imageOf.push(i);
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
      const f = i < ncore ? [coreFrac[3 * i], coreFrac[3 * i + 1], coreFrac[3 * i + 2]] : imageFrac.slice(3 * (i - ncore), 3 * (i - ncore) + 3);
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
  if ((opt.bonds || opt.polyhedra) && ncore > opt.maxBondedAtoms) {
    notes.push(`Bonds and polyhedra are off above ${opt.maxBondedAtoms.toLocaleString('en')} atoms (this scene has ${ncore.toLocaleString('en')}).`);
  } else if (opt.bonds || opt.polyhedra) {
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
    const bonds = computeBonds(superStructure, { tolerance: opt.bondTolerance });
    const count = bonds.i.length;
    if (opt.bonds) {
      // A bond to a periodic image is drawn from both ends (i → image of j, j → image of i), so each
      // cell atom shows all its bonds and the stubs end exactly where the image atoms are drawn.
      const segs: number[] = [];
      const els: number[] = [];
      const SL = superLattice?.matrix;
      for (let b = 0; b < count; b++) {
        const i = bonds.i[b];
        const j = bonds.j[b];
        const im = [bonds.image[3 * b], bonds.image[3 * b + 1], bonds.image[3 * b + 2]];
        const shift = [0, 0, 0];
        if (SL) for (let ax = 0; ax < 3; ax++) shift[ax] = im[0] * SL[0][ax] + im[1] * SL[1][ax] + im[2] * SL[2][ax];
        const pi = [cart64[3 * i], cart64[3 * i + 1], cart64[3 * i + 2]];
        const pj = [cart64[3 * j], cart64[3 * j + 1], cart64[3 * j + 2]];
        segs.push(...pi, pj[0] + shift[0], pj[1] + shift[1], pj[2] + shift[2]);
        els.push(element[i], element[j]);
        if (im[0] !== 0 || im[1] !== 0 || im[2] !== 0) {
          segs.push(...pj, pi[0] - shift[0], pi[1] - shift[1], pi[2] - shift[2]);
          els.push(element[j], element[i]);
        }
      }
      nbonds = els.length / 2;
      bondStart = new Float32Array(3 * nbonds);
      bondEnd = new Float32Array(3 * nbonds);
      for (let b = 0; b < nbonds; b++) {
        bondStart.set(segs.slice(6 * b, 6 * b + 3), 3 * b);
        bondEnd.set(segs.slice(6 * b + 3, 6 * b + 6), 3 * b);
      }
      bondElements = Uint16Array.from(els);
    }
    if (opt.polyhedra) {
      const polys = coordinationPolyhedra(superStructure, anionBonds(p, bonds, n), 4, polyhedronCentre(p, n));
      let ntri = 0;
      for (const poly of polys) ntri += poly.faces.length / 3;
      polyTriangles = new Float32Array(9 * ntri);
      polyElement = new Uint16Array(ntri);
      let t = 0;
      for (const poly of polys) {
        for (let f = 0; f < poly.faces.length; f += 3, t++) {
          for (let v = 0; v < 3; v++) polyTriangles.set(poly.vertices.subarray(3 * poly.faces[f + v], 3 * poly.faces[f + v] + 3), 9 * t + 3 * v);
          polyElement[t] = element[poly.center];
        }
      }
    }
  }

  return {
    natoms, elements: p.elements, positions, element, site, cellOffset, nimages,
    bondStart, bondEnd, bondElements, nbonds, polyTriangles, polyElement,
    cell: p.lattice ? Float64Array.from(p.lattice) : null,
    supercell: [na, nb, nc],
    notes,
  };
}
