/**
 * Structure ⇄ flat typed arrays, so structures cross worker boundaries as transferable buffers
 * instead of arrays of per-atom objects (a 1M-atom Structure would take seconds to structured-clone).
 */
import type { Mat3, Vec3 } from '../math/mat3.ts';
import { Lattice } from './lattice.ts';
import { type Site, type Structure, fracOf, majorSpecies, readFromCif } from './structure.ts';
import { cbrt } from '../math/libm.ts';

export interface PackedStructure {
  name: string;
  natoms: number;
  /** Lattice rows a, b, c (9 numbers, row-major) or null for a finite structure. */
  lattice: Float64Array | null;
  /** Cartesian positions, 3 per site, Å. */
  cart: Float64Array;
  /** Fractional positions, 3 per site (as given, not wrapped), or null without lattice. */
  frac: Float64Array | null;
  /** Distinct element symbols; the other arrays refer to them by index. */
  elements: string[];
  /** Index into `elements` of each site's dominant species (for colouring and sizing). */
  major: Uint16Array;
  /** Species of site i are entries speciesStart[i] .. speciesStart[i+1]-1 of speciesElement/speciesOcc. */
  speciesStart: Uint32Array;
  speciesElement: Uint16Array;
  speciesOcc: Float64Array;
  /** Site labels (CIF `_atom_site_label`), empty string where absent; null when no site has one. */
  labels: string[] | null;
  /**
   * Numeric per-site columns every site carries with one width (extended XYZ `Properties=` columns such as forces,
   * pymatgen JSON `properties`, POSCAR selective-dynamics flags as 0/1, velocities); absent when there are none.
   */
  properties?: PackedProperty[];
  /** Numeric structure-level values of the file (extended XYZ `energy=`, pymatgen JSON properties), in file order. */
  info?: { name: string; value: number }[];
  /** Structure-level numeric arrays of 2 to 9 values (extended XYZ `stress=`, `virial=`), in file order. */
  infoArrays?: { name: string; values: number[] }[];
  /** A CIF block's `symmetrySource` property (structure.ts `readFromCif`), kept so the symmetry search sees a CIF. */
  symmetrySource?: string;
}

/** One per-site column: `width` numbers per site (1 for a scalar, 3 for a vector), site-major. */
export interface PackedProperty {
  name: string;
  width: number;
  values: Float64Array;
}

/** Most per-site columns packed (a file may carry many; the lab colours by one at a time). */
const MAX_PROPERTIES = 16;
/** Widest column packed (a 3×3 tensor per site). */
const MAX_PROPERTY_WIDTH = 9;

const asNumber = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'boolean' ? Number(v) : null;

/** The numeric columns every site has with the same width (numbers, booleans as 0/1, or arrays of them). */
function packProperties(sites: Structure['sites']): PackedProperty[] {
  const first = sites[0]?.properties;
  if (!first) return [];
  const out: PackedProperty[] = [];
  for (const name of Object.keys(first)) {
    if (out.length >= MAX_PROPERTIES) break;
    const v0 = first[name];
    const width = Array.isArray(v0) ? v0.length : 1;
    if (width < 1 || width > MAX_PROPERTY_WIDTH) continue;
    const values = new Float64Array(width * sites.length);
    let ok = true;
    for (let i = 0; i < sites.length && ok; i++) {
      const v = sites[i].properties && Object.hasOwn(sites[i].properties!, name) ? sites[i].properties![name] : undefined;
      const items = Array.isArray(v) ? v : [v];
      if (items.length !== width) ok = false;
      for (let k = 0; k < width && ok; k++) {
        const x = asNumber(items[k]);
        if (x === null) ok = false;
        else values[width * i + k] = x;
      }
    }
    if (ok) out.push({ name, width, values });
  }
  return out;
}

export function packStructure(s: Structure): PackedStructure {
  const n = s.sites.length;
  const elementIndex = new Map<string, number>();
  const elements: string[] = [];
  const indexOf = (el: string): number => {
    let k = elementIndex.get(el);
    if (k === undefined) {
      k = elements.length;
      elementIndex.set(el, k);
      elements.push(el);
    }
    return k;
  };
  let nSpecies = 0;
  for (const site of s.sites) nSpecies += Object.keys(site.species).length;

  const cart = new Float64Array(3 * n);
  const frac = s.lattice ? new Float64Array(3 * n) : null;
  const major = new Uint16Array(n);
  const speciesStart = new Uint32Array(n + 1);
  const speciesElement = new Uint16Array(nSpecies);
  const speciesOcc = new Float64Array(nSpecies);
  let hasLabel = false;
  const labels: string[] = new Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const site = s.sites[i];
    cart.set(site.xyz, 3 * i);
    if (frac && s.lattice) frac.set(fracOf(site, s.lattice), 3 * i);
    major[i] = indexOf(majorSpecies(site));
    speciesStart[i] = k;
    for (const [el, occ] of Object.entries(site.species)) {
      speciesElement[k] = indexOf(el);
      speciesOcc[k] = occ;
      k++;
    }
    labels[i] = site.label ?? '';
    if (site.label) hasLabel = true;
  }
  speciesStart[n] = k;
  const m = s.lattice?.matrix;
  return {
    name: s.name,
    natoms: n,
    lattice: m ? Float64Array.from([...m[0], ...m[1], ...m[2]]) : null,
    cart,
    frac,
    elements,
    major,
    speciesStart,
    speciesElement,
    speciesOcc,
    labels: hasLabel ? labels : null,
    ...(readFromCif(s) ? { symmetrySource: String(s.properties!.symmetrySource) } : {}),
    ...(() => {
      const properties = packProperties(s.sites);
      return properties.length ? { properties } : {};
    })(),
    ...(() => {
      const info = Object.entries(s.properties ?? {})
        .filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]))
        .slice(0, MAX_PROPERTIES)
        .map(([name, value]) => ({ name, value }));
      return info.length ? { info } : {};
    })(),
    ...(() => {
      const infoArrays = Object.entries(s.properties ?? {})
        .filter(
          (e): e is [string, number[]] =>
            Array.isArray(e[1]) && e[1].length >= 2 && e[1].length <= MAX_PROPERTY_WIDTH && e[1].every((x) => typeof x === 'number'),
        )
        .slice(0, MAX_PROPERTIES)
        .map(([name, values]) => ({ name, values: [...values] }));
      return infoArrays.length ? { infoArrays } : {};
    })(),
  };
}

export function latticeOf(p: PackedStructure): Lattice | null {
  const m = p.lattice;
  return m
    ? new Lattice([
        [m[0], m[1], m[2]],
        [m[3], m[4], m[5]],
        [m[6], m[7], m[8]],
      ] as Mat3)
    : null;
}

/** Rebuilds the plain Structure (species, positions, labels; oxidation states and per-site properties are not packed). */
export function unpackStructure(p: PackedStructure): Structure {
  const lattice = latticeOf(p);
  const sites: Site[] = new Array(p.natoms);
  for (let i = 0; i < p.natoms; i++) {
    const species: Record<string, number> = {};
    for (let k = p.speciesStart[i]; k < p.speciesStart[i + 1]; k++) species[p.elements[p.speciesElement[k]]] = p.speciesOcc[k];
    const site: Site = { species, xyz: [p.cart[3 * i], p.cart[3 * i + 1], p.cart[3 * i + 2]] as Vec3 };
    if (p.frac) site.frac = [p.frac[3 * i], p.frac[3 * i + 1], p.frac[3 * i + 2]];
    if (p.labels && p.labels[i]) site.label = p.labels[i];
    sites[i] = site;
  }
  return { name: p.name, lattice, sites, ...(p.symmetrySource !== undefined ? { properties: { symmetrySource: p.symmetrySource } } : {}) };
}

/** The buffers to list as transferables (comlink `transfer`, `postMessage`). */
export function packedTransferables(p: PackedStructure): ArrayBuffer[] {
  const arrays = [
    p.lattice,
    p.cart,
    p.frac,
    p.major,
    p.speciesStart,
    p.speciesElement,
    p.speciesOcc,
    ...(p.properties ?? []).map((c) => c.values),
  ];
  const out: ArrayBuffer[] = [];
  for (const a of arrays) if (a && a.buffer instanceof ArrayBuffer && !out.includes(a.buffer)) out.push(a.buffer);
  return out;
}

/**
 * An FCC block of about `n` atoms built straight into typed arrays (no parsing, no per-atom objects):
 * the smallest k×k×k block of conventional cells holding ≥ n atoms, cut to exactly n atoms.
 * Used by `?synthetic=N` to measure rendering at 10k…1M atoms.
 */
export function syntheticFcc(n: number, element = 'Cu', a = 3.615): PackedStructure {
  const natoms = Math.max(1, Math.floor(n));
  const k = Math.max(1, Math.ceil(cbrt(natoms / 4)));
  const basis = [
    [0, 0, 0],
    [0.5, 0.5, 0],
    [0.5, 0, 0.5],
    [0, 0.5, 0.5],
  ];
  const cart = new Float64Array(3 * natoms);
  const frac = new Float64Array(3 * natoms);
  let i = 0;
  outer: for (let x = 0; x < k; x++) {
    for (let y = 0; y < k; y++) {
      for (let z = 0; z < k; z++) {
        for (const b of basis) {
          if (i >= natoms) break outer;
          const f = [(x + b[0]) / k, (y + b[1]) / k, (z + b[2]) / k];
          frac.set(f, 3 * i);
          cart.set([f[0] * k * a, f[1] * k * a, f[2] * k * a], 3 * i);
          i++;
        }
      }
    }
  }
  const L = k * a;
  const speciesStart = new Uint32Array(natoms + 1);
  for (let j = 0; j <= natoms; j++) speciesStart[j] = j;
  const speciesOcc = new Float64Array(natoms).fill(1);
  return {
    name: `synthetic FCC ${element} block, ${natoms} atoms`,
    natoms,
    lattice: Float64Array.from([L, 0, 0, 0, L, 0, 0, 0, L]),
    cart,
    frac,
    elements: [element],
    major: new Uint16Array(natoms),
    speciesStart,
    speciesElement: new Uint16Array(natoms),
    speciesOcc,
    labels: null,
  };
}
