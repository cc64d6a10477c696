/**
 * What the cluster builders share: ASE 3.22.1's element data (ase/cluster/util.py `get_element_info`, the cubic
 * factories' `get_lattice_constant`), its centring (ase/atoms.py `Atoms.center(about=0)`), NumPy's rounding and
 * summation, and the result type. ASE (gitlab.com/ase/ase, LGPL-2.1+) was read, not copied.
 */
import { cbrt, log } from '../../math/libm.ts';
import { checkLimit, quoted } from '../../limits.ts';
import { vec3 } from '../../math/mat3.ts';
import { isElementSymbol } from '../elements.ts';
import type { Structure } from '../structure.ts';
import referenceStates from './reference-states.json' with { type: 'json' };

/** Bad builder input (or an input ASE itself fails on): one sentence about it. */
export class ClusterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClusterError';
  }
}

/** A built cluster: a finite structure (lattice null), its atom count and the lattice constant used. */
export interface ClusterResult {
  structure: Structure;
  nAtoms: number;
  /** Å: the one given, else ASE's reference state of the element. */
  latticeConstant: number;
  /** Flat Cartesian positions (x0, y0, z0, x1, …), Å, the atoms in ASE's order. */
  positions: Float64Array;
}

interface ReferenceState {
  symmetry: string;
  a?: number;
}

const STATES: Record<string, ReferenceState | undefined> = (referenceStates as { elements: Record<string, ReferenceState> }).elements;

/** Refuses anything but an element symbol spelled as ASE's `atomic_numbers` spells it (`Cu`, not `cu`). */
function checkElement(symbol: string): void {
  if (typeof symbol !== 'string' || !isElementSymbol(symbol)) throw new ClusterError(`${quoted(String(symbol))} is not an element symbol`);
}

/** A given lattice constant must be a positive finite number of Å. */
function checkLatticeConstant(a: number): number {
  if (!(typeof a === 'number' && Number.isFinite(a) && a > 0))
    throw new ClusterError(`the lattice constant must be a positive number of Å, got ${a}`);
  return a;
}

/**
 * The lattice constant of `symbol`: the given one, else ASE's reference `a` when the element's reference state is one
 * of `allowed` (ase/cluster/util.py accepts fcc, bcc and sc; the cubic factories only their own structure).
 */
export function latticeConstantOf(symbol: string, given: number | undefined, allowed: readonly string[], builder: string): number {
  checkElement(symbol);
  if (given !== undefined) return checkLatticeConstant(given);
  const state = STATES[symbol];
  if (!state) throw new ClusterError(`ASE has no reference crystal structure for ${symbol}; give a lattice constant`);
  if (!allowed.includes(state.symmetry) || state.a === undefined)
    throw new ClusterError(
      `${builder} cannot guess the lattice constant of ${symbol}, whose reference structure in ASE is ${state.symmetry} ` +
        `(it needs ${allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed[0]}); ` +
        'give a lattice constant',
    );
  return state.a;
}

/** A whole number within [min, max], or a sentence naming it. */
export function checkWhole(value: number, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!(typeof value === 'number' && Number.isInteger(value))) throw new ClusterError(`${name} must be a whole number, got ${value}`);
  if (value < min) throw new ClusterError(`${name} must be at least ${min}, got ${value}`);
  if (value > max) throw new ClusterError(`${name} must be at most ${max}, got ${value}`);
  return value;
}

/** Refuses a particle of more than LIMITS.particleAtoms atoms (before it is built, where the count is known). */
export function checkParticleAtoms(what: string, n: number): void {
  checkLimit('particleAtoms', what, n, 'atoms');
}

/** Lattice sites one build may look at (LIMITS.clusterSites); a facet's layers count against it too. */
export function checkClusterSites(what: string, n: number, unit = 'lattice sites'): void {
  checkLimit('clusterSites', what, n, unit);
}

/** NumPy's `rint`: round half to even. */
export function rint(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Dekker's exact product: hi + lo = a·b. */
function twoProduct(a: number, b: number): [number, number] {
  const hi = a * b;
  const split = (x: number): [number, number] => {
    const c = 134217729 * x; // 2^27 + 1
    const big = c - (c - x);
    return [big, x - big];
  };
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return [hi, ah * bh - hi + ah * bl + al * bh + al * bl];
}

/**
 * `x ** (1.0 / 3.0)` as glibc's pow returns it (correctly rounded), for a positive normal x: the exponent is the double
 * (2^54 − 1) / (3·2^54), so x^p = cbrt(x)·x^(−1/(3·2^54)). The cube root is refined to about 2^−100 (one Newton step in
 * double-double), the tiny second factor is 1 − ln(x)/(3·2^54), and one rounding gives the result. fdlibm's pow
 * (Math.pow) differs in the last bit for about one x in ten, which moves ase/cluster/wulff.py's layer counts.
 */
export function powOneThird(x: number): number {
  const c = cbrt(x);
  const [p, e] = twoProduct(c, c);
  const [c3, f] = twoProduct(p, c);
  // x − c³ with c³ = c3 + f + e·c; x − c3 is exact (Sterbenz), the rest is far below an ulp of x.
  const r = x - c3 - f - e * c;
  const delta = r / (3 * p);
  return c + (delta - (c * log(x)) / (3 * 2 ** 54));
}

/**
 * ASE's `atoms.center(about=(0, 0, 0))` on a cluster whose cell is the unit cube or empty (ase/atoms.py): each axis
 * shifted by ½(1 − max − min) − ½, i.e. the bounding box centred on the origin, in ASE's arithmetic. In place.
 */
export function centerAboutOrigin(positions: Float64Array): void {
  const n = positions.length / 3;
  for (let axis = 0; axis < 3; axis++) {
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < n; i++) {
      const v = positions[3 * i + axis];
      if (i === 0 || v < lo) lo = v;
      if (i === 0 || v > hi) hi = v;
    }
    const shift = 0.5 * (1 - hi - lo) - 0.5;
    for (let i = 0; i < n; i++) positions[3 * i + axis] += shift;
  }
}

/** The finite structure (lattice null) of `positions`, every atom `symbol`. */
export function clusterResult(symbol: string, positions: Float64Array, latticeConstant: number, name: string): ClusterResult {
  const n = positions.length / 3;
  const sites = new Array(n);
  for (let i = 0; i < n; i++)
    sites[i] = { species: { [symbol]: 1 }, xyz: vec3(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]) };
  return { structure: { name, lattice: null, sites, properties: { comment: name } }, nAtoms: n, latticeConstant, positions };
}
