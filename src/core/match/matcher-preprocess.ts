/**
 * pymatgen 2022.11 `StructureMatcher._preprocess` (pymatgen/analysis/structure_matcher.py) and what it
 * needs: the structures as the matcher sees them, Niggli and primitive reduction, the supercell factor,
 * volume scaling, and the comparator's composition hash (`get_hash`) that `fit` checks first.
 */
import { type Mat3, det, vec3 } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type Structure, fracOf } from '../structure/structure.ts';
import { speciesString } from '../structure/composition.ts';
import { roundHalfEven } from '../structure/lll.ts';
import { niggliReducedLattice } from '../structure/niggli.ts';
import { type PrimitiveOutput, pymatgenPrimitive } from './primitive.ts';
import { checkLimit, LIMITS, LimitError, groupedNumber } from '../limits.ts';
import { type MatcherOptions } from './defaults.ts';
import { pow } from '../math/libm.ts';
import { type WorkAccount, spendMatchWork } from './matcher-workspace.ts';
import { wrap01 } from './shortest-vectors.ts';
import { numpyInverse } from './numpy-arith.ts';

export type ResolvedOptions = Required<MatcherOptions>;
type Comparator = ResolvedOptions['comparator'];

/** A structure as the matcher sees it: lattice rows, fractional coordinates, one comparator key per site. */
export interface MatchStructure {
  matrix: Mat3;
  frac: Float64Array;
  keys: string[];
  /** pymatgen's species string per site (the primitive search sorts and groups by it). */
  labels: string[];
  /** Index of each site in the caller's structure (the first merged site after a primitive reduction). */
  origin: Int32Array;
}

const volumeOf = (m: Mat3): number => Math.abs(det(m));
const occKey = (x: number): string => (Math.round(x * 1e8) / 1e8).toString();

/**
 * Site identity under the comparator: species with oxidation states and occupancies, elements with
 * occupancies, or (orderDisorder) the sorted element set alone.
 */
function siteKey(site: Structure['sites'][number], comparator: Comparator): string {
  if (comparator === 'orderDisorder') return Object.keys(site.species).sort().join(',');
  // One species (almost every site): the same key without the entries, sort and join.
  let only: string | null = null;
  for (const el in site.species) {
    if (only !== null) return mixedSiteKey(site, comparator);
    only = el;
  }
  if (only === null) return '';
  const ox = comparator === 'species' ? site.oxidation?.[only] : undefined;
  return `${only}${ox === undefined || ox === 0 ? '' : `(${ox})`}:${occKey(site.species[only])}`;
}

function mixedSiteKey(site: Structure['sites'][number], comparator: Comparator): string {
  return Object.entries(site.species)
    .map(([el, occ]) => {
      const ox = comparator === 'species' ? site.oxidation?.[el] : undefined;
      return `${el}${ox === undefined || ox === 0 ? '' : `(${ox})`}:${occKey(occ)}`;
    })
    .sort()
    .join(',');
}

/**
 * Fractional composition under the comparator (pymatgen's `get_hash`; by element for 'element' and 'orderDisorder'),
 * compared within 1e-8.
 */
function compositionHash(s: Structure, comparator: Comparator): Map<string, number> {
  const amounts = new Map<string, number>();
  let total = 0;
  // Indexed: per site, mostly before V8 optimises it, where each step of for…of allocated its result.
  const sites = s.sites;
  for (let i = 0; i < sites.length; i++) {
    const site = sites[i];
    for (const el in site.species) {
      const occ = site.species[el];
      const ox = comparator === 'species' ? site.oxidation?.[el] : undefined;
      const k = `${el}${ox === undefined || ox === 0 ? '' : `(${ox})`}`;
      amounts.set(k, (amounts.get(k) ?? 0) + occ);
      total += occ;
    }
  }
  for (const [k, v] of amounts) amounts.set(k, v / total);
  return amounts;
}

/** `fit`'s first refusal: `comparator.get_hash(struct1.composition) != comparator.get_hash(struct2.composition)`. */
export const sameCompositionHash = (a: Structure, b: Structure, comparator: Comparator): boolean =>
  sameHash(compositionHash(a, comparator), compositionHash(b, comparator));

/** Two composition hashes (`compositionHash`) alike within 1e-8. */
export function sameHash(ha: ReadonlyMap<string, number>, hb: ReadonlyMap<string, number>): boolean {
  for (const [k, v] of ha) if (Math.abs(v - (hb.get(k) ?? 0)) > 1e-8) return false;
  for (const [k, v] of hb) if (Math.abs(v - (ha.get(k) ?? 0)) > 1e-8) return false;
  return true;
}

function toMatchStructure(s: Structure, comparator: Comparator): MatchStructure {
  if (!s.lattice) throw new Error(`structure '${s.name}' has no lattice; the matcher compares periodic crystals`);
  const n = s.sites.length;
  const frac = new Float64Array(3 * n);
  s.sites.forEach((site, i) => {
    const f = fracOf(site, s.lattice!);
    frac[3 * i] = f[0];
    frac[3 * i + 1] = f[1];
    frac[3 * i + 2] = f[2];
  });
  return {
    matrix: s.lattice.matrix,
    frac,
    keys: s.sites.map((x) => siteKey(x, comparator)),
    labels: s.sites.map((x) => speciesString(x)),
    origin: identityOrigin(n),
  };
}

/** 0, 1, …, n − 1 (a loop: Int32Array.from with a callback is slow until optimised). */
function identityOrigin(n: number): Int32Array {
  const origin = new Int32Array(n);
  for (let i = 0; i < n; i++) origin[i] = i;
  return origin;
}

/** numpy.allclose(a, b) on two matrices. */
const allClose = (a: Mat3, b: Mat3): boolean =>
  a.every((r, i) => r.every((x, j) => Math.abs(x - b[i][j]) <= 1e-8 + 1e-5 * Math.abs(b[i][j])));

/**
 * `Structure.get_reduced_structure('niggli')`: same Cartesian positions in the Niggli cell, wrapped; unchanged when
 * the cell already is (np.allclose).
 */
function niggliReduce(s: MatchStructure): MatchStructure {
  const reduced = niggliReducedLattice(new Lattice(s.matrix));
  if (allClose(reduced.matrix, s.matrix)) return s;
  const n = s.frac.length / 3;
  const m = s.matrix,
    inv = numpyInverse(reduced.matrix);
  // The matrices' entries read once, not per site: a batch reduces every CIF it reads, mostly before V8 optimises
  // this, where each read of an entry in the loop was a new heap number. The same operations in the same order.
  const [m00, m01, m02, m10, m11, m12, m20, m21, m22] = m.flat();
  const [i00, i01, i02, i10, i11, i12, i20, i21, i22] = inv.flat();
  const sf = s.frac;
  const frac = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const f0 = sf[3 * i],
      f1 = sf[3 * i + 1],
      f2 = sf[3 * i + 2];
    const x = f0 * m00 + f1 * m10 + f2 * m20;
    const y = f0 * m01 + f1 * m11 + f2 * m21;
    const z = f0 * m02 + f1 * m12 + f2 * m22;
    frac[3 * i] = wrap01(x * i00 + y * i10 + z * i20);
    frac[3 * i + 1] = wrap01(x * i01 + y * i11 + z * i21);
    frac[3 * i + 2] = wrap01(x * i02 + y * i12 + z * i22);
  }
  return { ...s, matrix: reduced.matrix, frac };
}

/** pymatgen's `get_primitive_structure(tolerance=0.25)` followed by Niggli reduction; unchanged when already primitive. */
function primitiveReduce(s: MatchStructure, account: WorkAccount): MatchStructure {
  const niggli = (x: PrimitiveOutput): PrimitiveOutput => {
    const r = niggliReduce({ matrix: x.matrix, frac: x.frac, keys: [], labels: [], origin: new Int32Array(0) });
    return { ...x, matrix: r.matrix, frac: r.frac };
  };
  const prim = pymatgenPrimitive({ matrix: s.matrix, frac: s.frac, labels: s.labels }, 0.25, niggli, (units) =>
    spendMatchWork(account, units),
  );
  if (!prim) return s;
  const source = Array.from(prim.source);
  return {
    matrix: prim.matrix,
    frac: prim.frac,
    labels: prim.labels,
    keys: source.map((i) => s.keys[i]),
    origin: Int32Array.from(source, (i) => s.origin[i]),
  };
}

function scaled(s: MatchStructure, factor: number): MatchStructure {
  const m = s.matrix;
  return {
    ...s,
    matrix: [
      vec3(m[0][0] * factor, m[0][1] * factor, m[0][2] * factor),
      vec3(m[1][0] * factor, m[1][1] * factor, m[1][2] * factor),
      vec3(m[2][0] * factor, m[2][1] * factor, m[2][2] * factor),
    ],
  };
}

/**
 * Refuses what the matcher cannot search in bounded time and memory (programmatic callers too, not only
 * the file readers): more than LIMITS.matchSites sites, a lattice that is not finite, longer than
 * LIMITS.coordinateAbs or flatter than LIMITS.cellFlatness (its lattice-point enumeration is unbounded).
 */
export function checkMatchable(s: Structure, what: string): void {
  checkLimit('matchSites', what, s.sites.length, 'sites');
  const m = s.lattice?.matrix;
  if (!m) throw new Error(`${what} has no lattice; only periodic structures can be matched`);
  const lengths = m.map((r) => Math.hypot(r[0], r[1], r[2]));
  if (!lengths.every((l) => Number.isFinite(l) && l > 0 && l <= LIMITS.coordinateAbs)) {
    throw new LimitError(
      'coordinateAbs',
      `${what} has cell lengths ${lengths.join(', ')} Å; they must be positive and at most ${groupedNumber(LIMITS.coordinateAbs)} Å`,
    );
  }
  const flatness = Math.abs(det(m)) / (lengths[0] * lengths[1] * lengths[2]);
  if (!(flatness >= LIMITS.cellFlatness)) {
    throw new LimitError(
      'cellFlatness',
      `${what} has a flat cell (volume / (a·b·c) = ${flatness.toPrecision(3)}; the limit is ${LIMITS.cellFlatness}): it cannot be matched`,
    );
  }
  // Indexed, without a callback per site: see compositionHash.
  const sites = s.sites;
  for (let i = 0; i < sites.length; i++) {
    const xyz = sites[i].xyz;
    if (!(Number.isFinite(xyz[0]) && Number.isFinite(xyz[1]) && Number.isFinite(xyz[2])))
      throw new Error(`${what} has a site with a non-finite position`);
  }
}

/** `_preprocess`' answer: both structures reduced and scaled, and the supercell factor fu of struct1 (or of struct2). */
export interface Preprocessed {
  s1: MatchStructure;
  s2: MatchStructure;
  fu: number;
  s1Supercell: boolean;
}

/** `_get_supercell_size` with supercell_size='num_sites'. */
function supercellSize(s1: MatchStructure, s2: MatchStructure): { fu: number; s1Supercell: boolean } {
  const ratio = s2.keys.length / s1.keys.length;
  if (ratio < 2 / 3) return { fu: roundHalfEven(1 / ratio), s1Supercell: false };
  return { fu: roundHalfEven(ratio), s1Supercell: true };
}

/**
 * What `_preprocess` takes of one structure before it looks at the other, and what a pair reports of it: checked
 * (`checkMatchable`), in the comparator's keys and Niggli-reduced; the comparator's composition hash that `fit`
 * checks first; the site count and cell volume of a mapping's length scale. Plain data (it survives a structured
 * clone): the AtomWorld batch computes it in the thread that reads the CIFs, and another thread matches a pair of
 * them (structure-matcher.ts, `matcherSidesFitAndBestMapping`) as it would match the two structures.
 */
export interface MatcherSide {
  comparator: Comparator;
  composition: Map<string, number>;
  sites: number;
  volume: number;
  reduced: MatchStructure;
}

/** `s` as one side of a pair under `comparator`; throws where matching it would (`checkMatchable`, named `what`). */
export function matcherSide(s: Structure, comparator: Comparator, what: string): MatcherSide {
  checkMatchable(s, what);
  return {
    comparator,
    composition: compositionHash(s, comparator),
    sites: s.sites.length,
    volume: s.lattice!.volume,
    reduced: niggliReduce(toMatchStructure(s, comparator)),
  };
}

/**
 * `_preprocess`: Niggli, primitive, supercell factor, volume scaling to the geometric mean; the reductions charge
 * `account`. Both structures are checked before either is reduced.
 */
export function preprocess(a: Structure, b: Structure, o: ResolvedOptions, account: WorkAccount): Preprocessed {
  checkMatchable(a, 'the first structure');
  checkMatchable(b, 'the second structure');
  return preprocessReduced(niggliReduce(toMatchStructure(a, o.comparator)), niggliReduce(toMatchStructure(b, o.comparator)), o, account);
}

/** `_preprocess` from the Niggli-reduced structures on (`MatcherSide.reduced`). */
export function preprocessReduced(
  niggli1: MatchStructure,
  niggli2: MatchStructure,
  o: ResolvedOptions,
  account: WorkAccount,
): Preprocessed {
  let s1 = niggli1;
  let s2 = niggli2;
  if (o.primitiveCell) {
    s1 = primitiveReduce(s1, account);
    s2 = primitiveReduce(s2, account);
  }
  const { fu, s1Supercell } = o.attemptSupercell ? supercellSize(s1, s2) : { fu: 1, s1Supercell: true };
  const mult = s1Supercell ? fu : 1 / fu;
  if (o.scale) {
    const ratio = pow(volumeOf(s2.matrix) / (volumeOf(s1.matrix) * mult), 1 / 6);
    s1 = scaled(s1, ratio);
    s2 = scaled(s2, 1 / ratio);
  }
  return { s1, s2, fu, s1Supercell };
}
