/**
 * pymatgen 2022.11 `StructureMatcher._get_lattices` and `_get_supercells` (pymatgen/analysis/structure_matcher.py):
 * the candidate lattices of the supercell side that match the other side's lattice, and both sides'
 * fractional coordinates in each of them with the average lattice the distances are measured in.
 */
import { type Mat3, type Vec3, det, vec3 } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type LatticeMapping, sameCell } from '../structure/niggli.ts';
import type { MatchStructure } from './matcher-preprocess.ts';
import { wrap01 } from './shortest-vectors.ts';
import { acosRounded, cosRounded, sinRounded } from './rounded-trig.ts';
import { numpyInverse } from './numpy-arith.ts';

/**
 * `_strict_match(struct1, struct2, fu, s1_supercell)`'s structures: struct1 (after its supercell, if any)
 * has at least as many sites as struct2.
 */
export interface StrictPair {
  struct1: MatchStructure;
  struct2: MatchStructure;
  fu: number;
  s1Supercell: boolean;
}

/**
 * A generator's values replayed to later loops, pulled from it only when first needed: the lattice
 * mappings of one prepared pair serve both the fit pass and the rms pass.
 */
export class Replay<T> implements Iterable<T> {
  private readonly seen: T[] = [];
  /** What the generator threw (a limit refused): thrown again to every later loop, which would otherwise see it end. */
  private failure: { error: unknown } | null = null;
  constructor(private readonly source: Iterator<T>) {}
  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; ; i++) {
      if (i === this.seen.length) {
        if (this.failure) throw this.failure.error;
        let next: IteratorResult<T>;
        try {
          next = this.source.next();
        } catch (error) {
          this.failure = { error };
          throw error;
        }
        if (next.done) return;
        this.seen.push(next.value);
      }
      yield this.seen[i];
    }
  }
}

/** `lattice_points_in_supercell`: fractional (in the supercell) lattice points of the original cell. */
function latticePointsInSupercell(sc: Mat3): Vec3[] {
  const corners: Vec3[] = [];
  for (let c = 0; c < 8; c++) {
    const d = [(c >> 2) & 1, (c >> 1) & 1, c & 1];
    corners.push([0, 1, 2].map((k) => d[0] * sc[0][k] + d[1] * sc[1][k] + d[2] * sc[2][k]) as Vec3);
  }
  const mins = [0, 1, 2].map((k) => Math.min(...corners.map((p) => p[k])));
  const maxs = [0, 1, 2].map((k) => Math.max(...corners.map((p) => p[k])) + 1);
  const inv = numpyInverse(sc);
  const out: Vec3[] = [];
  for (let a = mins[0]; a < maxs[0]; a++)
    for (let b = mins[1]; b < maxs[1]; b++)
      for (let c = mins[2]; c < maxs[2]; c++) {
        const f = vec3(
          a * inv[0][0] + b * inv[1][0] + c * inv[2][0],
          a * inv[0][1] + b * inv[1][1] + c * inv[2][1],
          a * inv[0][2] + b * inv[1][2] + c * inv[2][2],
        );
        if (f.every((x) => x < 1 - 1e-10 && x >= -1e-10)) out.push(f);
      }
  return out;
}

/**
 * pymatgen's `Lattice.parameters` in its order of operations (pymatgen/core/lattice.py): lengths √(x² + y² + z²),
 * angles `arccos(abs_cap(dot(m[j], m[k]) / (l[j] * l[k]))) * 180.0 / pi`, arccos correctly rounded (rounded-trig.ts).
 */
function parameters(m: Mat3, out: Float64Array): void {
  for (let i = 0; i < 3; i++) out[i] = Math.sqrt(m[i][0] * m[i][0] + m[i][1] * m[i][1] + m[i][2] * m[i][2]);
  for (let i = 0; i < 3; i++) {
    const j = (i + 1) % 3,
      k = (i + 2) % 3;
    const c = (m[j][0] * m[k][0] + m[j][1] * m[k][1] + m[j][2] * m[k][2]) / (out[j] * out[k]);
    out[3 + i] = (acosRounded(Math.max(Math.min(c, 1), -1)) * 180.0) / Math.PI;
  }
}

/** pymatgen's `Lattice.from_parameters(a, b, c, alpha, beta, gamma)` (vesta=False) in its order of operations. */
function fromParameters(p: Float64Array): Lattice {
  const [a, b, c] = [p[0], p[1], p[2]];
  const ra = p[3] * (Math.PI / 180),
    rb = p[4] * (Math.PI / 180),
    rg = p[5] * (Math.PI / 180);
  const cosA = cosRounded(ra),
    cosB = cosRounded(rb),
    cosG = cosRounded(rg);
  const sinA = sinRounded(ra),
    sinB = sinRounded(rb);
  const val = Math.max(Math.min((cosA * cosB - cosG) / (sinA * sinB), 1), -1);
  const gammaStar = acosRounded(val);
  return new Lattice([
    vec3(a * sinB, 0, a * cosB),
    vec3(-b * sinA * cosRounded(gammaStar), b * sinA * sinRounded(gammaStar), b * cosA),
    vec3(0, 0, c),
  ]);
}

const P1 = new Float64Array(6);
const P2 = new Float64Array(6);

/** `_get_supercells`' `av_lat`: `Lattice.from_parameters(*((l1.parameters + l2.parameters) / 2))`. */
function averageLattice(l1: Lattice, l2: Lattice): Lattice {
  parameters(l1.matrix, P1);
  parameters(l2.matrix, P2);
  for (let i = 0; i < 6; i++) P1[i] = (P1[i] + P2[i]) / 2;
  return fromParameters(P1);
}

/** `_get_lattices(target_lattice, s, fu)`: the mappings of s's lattice onto the target whose supercell holds fu cells. */
export function* getLattices(mappings: Iterable<LatticeMapping>, fu: number): Generator<LatticeMapping> {
  for (const m of mappings) {
    if (Math.abs(Math.abs(det(m.scale)) - fu) >= 0.5) continue;
    yield m;
  }
}

/** Cartesian positions of a structure's sites (3 per site). */
function cartesianOf(s: MatchStructure): Float64Array {
  const n = s.keys.length;
  const cart = new Float64Array(3 * n);
  // Entries read once, not per site (see wrappedFractions); the same operations in the same order.
  const m = s.matrix,
    f = s.frac;
  const [m00, m01, m02, m10, m11, m12, m20, m21, m22] = m.flat();
  for (let i = 0; i < n; i++) {
    const f0 = f[3 * i],
      f1 = f[3 * i + 1],
      f2 = f[3 * i + 2];
    cart[3 * i] = f0 * m00 + f1 * m10 + f2 * m20;
    cart[3 * i + 1] = f0 * m01 + f1 * m11 + f2 * m21;
    cart[3 * i + 2] = f0 * m02 + f1 * m12 + f2 * m22;
  }
  return cart;
}

/** `sc_generator` with fu > 1: the sites' fractions in the supercell `scale`, each followed by its fu lattice-point copies, wrapped. */
function supercellFractions(s: MatchStructure, inv: Mat3, lp: Vec3[], fu: number, out: Float64Array): void {
  for (let i = 0; i < s.keys.length; i++) {
    const fk = (k: number) => s.frac[3 * i] * inv[0][k] + s.frac[3 * i + 1] * inv[1][k] + s.frac[3 * i + 2] * inv[2][k];
    const f = vec3(fk(0), fk(1), fk(2));
    lp.forEach((p, x) => {
      for (let k = 0; k < 3; k++) out[3 * (i * fu + x) + k] = wrap01(f[k] + p[k]);
    });
  }
}

/**
 * `sc_generator` with fu = 1: Cartesian positions (3 per site) in the fractions of the lattice whose inverse is `inv`,
 * wrapped. The inverse's entries are read once, not per site: this runs for every lattice a match tries, mostly before
 * V8 optimises it, where each read of an entry was a new heap number. The same operations in the same order.
 */
function wrappedFractions(cart: Float64Array, inv: Mat3, out: Float64Array): void {
  const [i00, i01, i02, i10, i11, i12, i20, i21, i22] = inv.flat();
  const n = cart.length / 3;
  for (let i = 0; i < n; i++) {
    const c0 = cart[3 * i],
      c1 = cart[3 * i + 1],
      c2 = cart[3 * i + 2];
    out[3 * i] = wrap01(c0 * i00 + c1 * i10 + c2 * i20);
    out[3 * i + 1] = wrap01(c0 * i01 + c1 * i11 + c2 * i21);
    out[3 * i + 2] = wrap01(c0 * i02 + c1 * i12 + c2 * i22);
  }
}

/** One candidate of `_get_supercells`: the average lattice and the supercell matrix (sc_m). */
export interface Supercell {
  avg: Lattice;
  scale: Mat3;
}

/**
 * `_get_supercells(struct1, struct2, fu, s1_supercell)` over `mappings` (find_all_mappings of the supercell
 * side's lattice onto the other's): for each candidate of `_get_lattices`, writes s1fc into `coords.frac1` and
 * s2fc into `coords.frac2` (the supercell side in the candidate basis, the other side unchanged) and yields it.
 */
export function* getSupercells(
  pair: StrictPair,
  mappings: Iterable<LatticeMapping>,
  coords: { frac1: Float64Array; frac2: Float64Array },
): Generator<Supercell> {
  const { fu, s1Supercell } = pair;
  const big = s1Supercell ? pair.struct1 : pair.struct2;
  const small = s1Supercell ? pair.struct2 : pair.struct1;
  const [bigFrac, smallFrac] = s1Supercell ? [coords.frac1, coords.frac2] : [coords.frac2, coords.frac1];
  const bigCart = fu === 1 ? cartesianOf(big) : null;
  for (const cand of getLattices(mappings, fu)) {
    const c = candidateOf(cand, small.matrix);
    if (bigCart) wrappedFractions(bigCart, c.alignedInverse, bigFrac);
    else {
      c.supercell ??= { inverse: numpyInverse(cand.scale), points: latticePointsInSupercell(cand.scale) };
      supercellFractions(big, c.supercell.inverse, c.supercell.points, fu, bigFrac);
    }
    smallFrac.set(small.frac);
    yield { avg: c.avg, scale: cand.scale };
  }
}

/**
 * What `_get_supercells` derives from a candidate lattice alone (with the other side's cell): kept with the candidate,
 * since a batch's pairs of the same two cells share their candidates (strict-match.ts, pairMappings). The average
 * lattice is handed out again as the same object, which strict-match.ts keeps its own per-lattice work with.
 */
interface Candidate {
  /** The other side's cell these were computed with. */
  small: Mat3;
  alignedInverse: Mat3;
  avg: Lattice;
  supercell?: { inverse: Mat3; points: Vec3[] };
}
const candidates = new WeakMap<LatticeMapping, Candidate>();

function candidateOf(cand: LatticeMapping, small: Mat3): Candidate {
  const kept = candidates.get(cand);
  if (kept && sameCell(kept.small, small)) return kept;
  const aligned = new Lattice(cand.aligned);
  const c: Candidate = {
    small: new Lattice(small).matrix,
    alignedInverse: numpyInverse(aligned.matrix),
    avg: averageLattice(aligned, new Lattice(small)),
  };
  candidates.set(cand, c);
  return c;
}
