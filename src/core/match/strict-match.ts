/**
 * pymatgen 2022.11 `StructureMatcher._match` and `_strict_match` with the steps they call, `_get_mask`,
 * `_cmp_fstruct` and `_cart_dists` (pymatgen/analysis/structure_matcher.py): for every candidate lattice
 * and every translation of an anchor site, a per-axis fractional prefilter, the shortest periodic vectors
 * in the LLL-reduced average lattice, an assignment on squared distances and mean-translation removal.
 * Distances are normalised by (V/N)^(1/3), as pymatgen reports them.
 */
import { type Mat3, type Vec3, vec3 } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { lllReduce, roundHalfEven } from '../structure/lll.ts';
import { type LatticeMapping, findAllMappings, sameCell } from '../structure/niggli.ts';
import { limitsRevision } from '../limits.ts';
import { powThird } from './rounded-trig.ts';
import { numpyInverse, pymatgenVolume } from './numpy-arith.ts';
import type { Preprocessed, ResolvedOptions } from './matcher-preprocess.ts';
import { type StrictPair, Replay, getSupercells } from './matcher-lattices.ts';
import { type MatcherWorkspace, PARAM, type WorkAccount, matcherWorkspace, spendMatchWork } from './matcher-workspace.ts';
import {
  type ImageSearch,
  type VectorSearch,
  columnClasses,
  imageSearch,
  prepareVectorSearch,
  shortestVectors,
  useColumnClasses,
} from './shortest-vectors.ts';

/** What the passes over one prepared pair share. */
export interface PairContext {
  options: ResolvedOptions;
  account: WorkAccount;
  /** find_all_mappings of the pair's supercell side onto the other, pulled by the first pass and replayed. */
  mappings?: Replay<LatticeMapping>;
}

/** What one `_strict_match` pass looks for. */
export interface StrictSearch {
  stol: number;
  /** pymatgen's use_rms: minimise the rms of the distances (else the largest). */
  useRms: boolean;
  /** Stop at the first match within stol. */
  breakOnMatch: boolean;
  /** Candidate lattices to try instead of the pair's find_all_mappings (the probe's chosen ones). */
  candidates?: Iterable<LatticeMapping>;
}

/** The best match found: normalised per-site distances of struct2 rows mapped onto struct1 columns. */
export interface StrictMatch {
  value: number;
  dist: Float64Array;
  /** mapping[i2] = index of the struct1 (supercell) site matched to struct2 site i2. */
  mapping: Int32Array;
  /** Fractional translation (in the average lattice) applied to struct2. */
  translation: Vec3;
  scaleMatrix: Mat3;
}

/** `_match`'s choice: the structure with more sites (after the supercell factor) plays struct1. */
export function orientPair(p: Preprocessed): StrictPair & { swapped: boolean } {
  const ratio = p.s1Supercell ? p.fu : 1 / p.fu;
  if (p.s1.keys.length * ratio >= p.s2.keys.length)
    return { struct1: p.s1, struct2: p.s2, fu: p.fu, s1Supercell: p.s1Supercell, swapped: false };
  return { struct1: p.s2, struct2: p.s1, fu: p.fu, s1Supercell: !p.s1Supercell, swapped: true };
}

/**
 * `are_equal` of the comparator on two site keys. OrderDisorderElementComparator: one element set is a
 * subset of the other (so {Cu} equals {Au, Cu}, and {Au, Cu} equals {Au, Cu, Ag}, but {Au} differs from {Cu}).
 */
function keysEqual(comparator: ResolvedOptions['comparator']): (a: string, b: string) => boolean {
  if (comparator !== 'orderDisorder') return (a, b) => a === b;
  const memo = new Map<string, boolean>();
  return (a, b) => {
    if (a === b) return true;
    const key = `${a}|${b}`;
    let r = memo.get(key);
    if (r === undefined) {
      const x = a.split(','),
        y = b.split(',');
      const sub = (p: string[], q: string[]) => p.every((e) => q.includes(e));
      r = sub(x, y) || sub(y, x);
      memo.set(key, r);
    }
    return r;
  };
}

/** `_get_mask`'s answer, sized after the supercell: rows are struct2 (×fu when it is the supercell), columns struct1. */
interface Mask {
  /** 1 = the comparator forbids the pair; n2 rows × n1 columns. */
  mask: Uint8Array;
  n1: number;
  n2: number;
  keys1: string[];
  keys2: string[];
  /** s2_t_ind: the first struct2 row with the most forbidden entries, the anchor of every translation. */
  s2Anchor: number;
  /** s1_t_inds: the struct1 columns the anchor may move onto (one per supercell copy group). */
  s1Targets: number[];
}

/** `_get_mask(struct1, struct2, fu, s1_supercell)`: supercell copies of a site are consecutive (aabbcc). */
function getMask(pair: StrictPair, comparator: ResolvedOptions['comparator']): Mask {
  const { struct1, struct2, fu, s1Supercell } = pair;
  const n1 = struct1.keys.length * (s1Supercell ? fu : 1);
  const n2 = struct2.keys.length * (s1Supercell ? 1 : fu);
  if (n2 > n1) throw new Error('after supercell creation, struct1 must have at least as many sites as struct2');
  const keys1 = s1Supercell ? struct1.keys.flatMap((k) => Array(fu).fill(k)) : struct1.keys;
  const keys2 = s1Supercell ? struct2.keys : struct2.keys.flatMap((k) => Array(fu).fill(k));
  const mask = new Uint8Array(n2 * n1);
  const equal = keysEqual(comparator);
  for (let i = 0; i < n2; i++) for (let j = 0; j < n1; j++) mask[i * n1 + j] = equal(keys2[i], keys1[j]) ? 0 : 1;
  let s2Anchor = 0,
    most = -1;
  for (let i = 0; i < n2; i++) {
    let c = 0;
    for (let j = 0; j < n1; j++) c += mask[i * n1 + j];
    if (c > most) {
      most = c;
      s2Anchor = i;
    }
  }
  let s1Targets: number[] = [];
  for (let j = 0; j < n1; j++) if (!mask[s2Anchor * n1 + j]) s1Targets.push(j);
  // The other copies of a struct1 site are symmetrically equivalent targets.
  if (s1Supercell) s1Targets = s1Targets.filter((_, x) => x % fu === 0);
  return { mask, n1, n2, keys1, keys2, s2Anchor, s1Targets };
}

/** Whether every row gets its own allowed column (mask 0): a maximum bipartite matching (augmenting paths) of size `rows`. */
function allRowsAssignable(mask: Uint8Array, rows: number, cols: number): boolean {
  const colOwner = new Int32Array(cols).fill(-1);
  const seen = new Int32Array(cols).fill(-1);
  const augment = (row: number, stamp: number): boolean => {
    for (let j = 0; j < cols; j++) {
      if (mask[row * cols + j] || seen[j] === stamp) continue;
      seen[j] = stamp;
      if (colOwner[j] < 0 || augment(colOwner[j], stamp)) {
        colOwner[j] = row;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < rows; i++) if (!augment(i, i)) return false;
  return true;
}

/**
 * `_strict_match`'s two refusals before any lattice is searched: different site counts (without
 * allow_subset) and no species-consistent assignment of every struct2 site.
 */
function strictRefusal(m: Mask, o: ResolvedOptions): 'siteCount' | 'species' | null {
  if (!o.allowSubset && m.n1 !== m.n2) return 'siteCount';
  // pymatgen: `LinearAssignment(mask).min_cost > 0` → no species-consistent assignment of every struct2 row.
  if (o.comparator === 'orderDisorder') return allRowsAssignable(m.mask, m.n2, m.n1) ? null : 'species';
  // The comparator is an equivalence: an assignment exists iff every struct2 species fits into struct1's.
  // Indexed: once per pair, per site, mostly before V8 optimises it (each step of for…of allocated).
  const count1 = new Map<string, number>();
  for (let j = 0; j < m.keys1.length; j++) count1.set(m.keys1[j], (count1.get(m.keys1[j]) ?? 0) + 1);
  const count2 = new Map<string, number>();
  for (let i = 0; i < m.keys2.length; i++) count2.set(m.keys2[i], (count2.get(m.keys2[i]) ?? 0) + 1);
  for (const [k, c] of count2) if ((count1.get(k) ?? 0) < c) return 'species';
  return null;
}

/** Why `_strict_match` on this pair stops before any lattice is searched; null when it searches. */
export const strictMatchRefusal = (pair: StrictPair, o: ResolvedOptions): 'siteCount' | 'species' | null =>
  strictRefusal(getMask(pair, o.comparator), o);

/** pymatgen's `Lattice(inv(m).T * 2 * pi).abc`: the reciprocal lengths with its arithmetic. */
const reciprocalLengths = (m: Mat3): Vec3 => {
  const inv = numpyInverse(m);
  const len = (k: number) => {
    const x = inv[0][k] * 2 * Math.PI,
      y = inv[1][k] * 2 * Math.PI,
      z = inv[2][k] * 2 * Math.PI;
    return Math.sqrt(x * x + y * y + z * z);
  };
  return vec3(len(0), len(1), len(2));
};

/** pymatgen's `inv_abc * stol / (np.pi * normalization)` per axis, in its order of operations. */
const boxTolerance = (recip: Vec3, stol: number, normalization: number): Vec3 =>
  vec3(
    (recip[0] * stol) / (Math.PI * normalization),
    (recip[1] * stol) / (Math.PI * normalization),
    (recip[2] * stol) / (Math.PI * normalization),
  );

/** What `_strict_match` derives from one average lattice before it tries translations. */
interface LatticeTrial {
  /** (n1 / V)^(1/3): turns Å into pymatgen's normalised distances. */
  normalization: number;
  /** The shortest-vector search in the LLL-reduced average lattice, with struct1 already in it. */
  search: VectorSearch;
  avgInverse: Mat3;
}

/**
 * The average lattice's numbers into `ws.params` (`frac_tol` for the prefilter; the LLL basis, its images and
 * `lll_frac_tol` for the search), then the search's set-up.
 */
function latticeTrial(avg: Lattice, stol: number, ws: MatcherWorkspace): LatticeTrial {
  const p = averageParts(avg);
  const normalization = powThird(ws.n1 / p.volume);
  ws.params.set(boxTolerance(p.reciprocal, stol, normalization), PARAM.fracTol);
  ws.params.set(boxTolerance(p.lllReciprocal, stol, normalization), PARAM.lllFracTol);
  ws.params.set(p.lllNumbers, PARAM.toLll);
  return { normalization, search: prepareVectorSearch(ws, p.images), avgInverse: p.inverse };
}

/** What `latticeTrial` needs of an average lattice alone (only read), kept with the lattice, which getSupercells reuses. */
interface AverageParts {
  volume: number;
  reciprocal: Vec3;
  inverse: Mat3;
  lllReciprocal: Vec3;
  images: ImageSearch;
  /** PARAM's toLll, lllMatrix and images, in that order (as `ws.params` holds them from PARAM.toLll on). */
  lllNumbers: Float64Array;
}
const averages = new WeakMap<Lattice, AverageParts>();

function averageParts(avg: Lattice): AverageParts {
  let p = averages.get(avg);
  if (!p) {
    const reduced = lllReduce(avg.matrix);
    const images = imageSearch(reduced.matrix);
    const lllNumbers = new Float64Array(PARAM.length - PARAM.toLll);
    lllNumbers.set(numpyInverse(reduced.mapping).flat(), 0);
    lllNumbers.set(reduced.matrix.flat(), PARAM.lllMatrix - PARAM.toLll);
    lllNumbers.set(images.cart, PARAM.images - PARAM.toLll);
    p = {
      volume: pymatgenVolume(avg.matrix),
      reciprocal: reciprocalLengths(avg.matrix),
      inverse: numpyInverse(avg.matrix),
      lllReciprocal: reciprocalLengths(reduced.matrix),
      images,
      lllNumbers,
    };
    averages.set(avg, p);
  }
  return p;
}

/**
 * `t = s1fc[s1i] − s2fc[s2_t_ind]` (into `ws.shift`), `t_s2fc = s2fc + t`, and `_cmp_fstruct` (is_coord_subset_pbc) on
 * it: whether every translated struct2 site has an allowed struct1 site within `frac_tol` per axis. Charges the account
 * for the translated copy (about 4·n2), the comparisons made and, when it passes, the shortest vectors and the
 * assignment that follow (about n1·n2 each).
 */
function translatedSubset(ws: MatcherWorkspace, s1i: number, s2Anchor: number, account: WorkAccount): boolean {
  const { k, at, n1, n2 } = ws;
  const r = k.translateCompare(n1, n2, at.frac1, at.frac2, s1i, s2Anchor, at.shift, at.translated2, at.mask, at.params + 8 * PARAM.fracTol);
  const subset = r % 2 === 1;
  const compared = (r - (subset ? 1 : 0)) / 2;
  spendMatchWork(account, 4 * n2 + (subset ? compared + 2 * n1 * n2 : compared));
  return subset;
}

/**
 * `_cart_dists(s1fc, t_s2fc, avg_l, mask, normalization, lll_frac_tol)`: the assignment of struct2 rows to struct1
 * columns on squared shortest distances (returned), the mean vector (the best rigid translation, Å) into `ws.mean` and
 * the normalised distances after it is removed into `ws.dist`. The mean's fractions (pymatgen's f_translation) are
 * taken for the best match only.
 */
function cartDists(ws: MatcherWorkspace, trial: LatticeTrial): Int32Array {
  const { k, at, n1, n2 } = ws;
  shortestVectors(ws, trial.search);
  // `LinearAssignment(d_2)`: outside the box every distance is 1e20 and the rows list their in-box columns, which a
  // square problem reads alone; a rectangular one is the square padded with zero rows (the rows below n2 of d2).
  if (n1 === n2) k.assign(n1, at.d2, at.assignment, at.boxColumns, at.boxCount, 1e20);
  else k.assign(n1, at.d2, at.assignment, 0, 0, 0);
  k.meanRemovedDistances(n1, n2, at.vecs, at.inBox, at.mapping, at.mean, at.dist, trial.normalization);
  return ws.mapping;
}

/**
 * `_strict_match`'s score of the last assignment (`ws.dist`): `np.linalg.norm(dist) / len(dist) ** 0.5` (use_rms) or
 * `max(dist)`, with numpy's summation (kernels/match.ts).
 */
const strictValue = (ws: MatcherWorkspace, useRms: boolean): number => ws.k.strictValue(ws.n2, ws.at.dist, useRms ? 1 : 0);

/** `total_t = t + t_adj; total_t -= np.round(total_t)`, t_adj being the mean vector in the average lattice's fractions. */
function totalTranslation(t: Float64Array, mean: Float64Array, avgInverse: Mat3): Vec3 {
  const wrapped = (k: number) => {
    const x = t[k] + (mean[0] * avgInverse[0][k] + mean[1] * avgInverse[1][k] + mean[2] * avgInverse[2][k]);
    return x - roundHalfEven(x);
  };
  return vec3(wrapped(0), wrapped(1), wrapped(2));
}

/** The workspace for the pair's mask, with its column classes. */
function workspaceFor(m: Mask): MatcherWorkspace {
  const classes = columnClasses(m.keys1, m.mask, m.n2);
  const ws = matcherWorkspace(m.n1, m.n2, classes.count, classes.allowed.length);
  useColumnClasses(ws, classes, m.mask);
  return ws;
}

/**
 * The pair's find_all_mappings (the supercell side's lattice onto the other's), created once and replayed, and handed
 * on to later pairs of the same two cells. A batch matches each target's cell against answers that keep it, or that
 * share another answer's cell, and the pairs of one cell are not always consecutive: the oracle's 437 pairs made 170
 * searches of 41 pairs of cells when only the last search was kept. Sharing the mappings also shares what is derived
 * from each of them (the candidate's average lattice, matcher-lattices.ts; the LLL search, `averageParts`).
 */
function pairMappings(pair: StrictPair, ctx: PairContext): Iterable<LatticeMapping> {
  if (ctx.mappings) return ctx.mappings;
  const [big, small] = pair.s1Supercell ? [pair.struct1, pair.struct2] : [pair.struct2, pair.struct1];
  const o = ctx.options;
  const limits = limitsRevision();
  const at = keptMappings.findIndex(
    (m) =>
      m.ltol === o.ltol &&
      m.angleTol === o.angleTol &&
      m.limits === limits &&
      sameCell(m.big, big.matrix) &&
      sameCell(m.small, small.matrix),
  );
  if (at >= 0) {
    const [hit] = keptMappings.splice(at, 1);
    keptMappings.push(hit);
    return (ctx.mappings = hit.replay);
  }
  const replay = new Replay(findAllMappings(new Lattice(big.matrix), new Lattice(small.matrix), o.ltol, o.angleTol));
  if (keptMappings.length >= MAPPINGS_KEPT) keptMappings.shift();
  keptMappings.push({
    big: new Lattice(big.matrix).matrix,
    small: new Lattice(small.matrix).matrix,
    ltol: o.ltol,
    angleTol: o.angleTol,
    limits,
    replay,
  });
  return (ctx.mappings = replay);
}

/**
 * The searches of the last pairs of cells (copies of the cells), with the search's tolerances and limits, most recent
 * last; nothing that uses them changes them. Bounded in number: a large cell's search holds many lattice points.
 */
const keptMappings: { big: Mat3; small: Mat3; ltol: number; angleTol: number; limits: number; replay: Replay<LatticeMapping> }[] = [];
const MAPPINGS_KEPT = 16;

/** `_strict_match(struct1, struct2, fu, s1_supercell, use_rms, break_on_match)`: the best match within stol, or null. */
export function strictMatch(pair: StrictPair, search: StrictSearch, ctx: PairContext): StrictMatch | null {
  const m = getMask(pair, ctx.options.comparator);
  if (strictRefusal(m, ctx.options) !== null) return null;
  const ws = workspaceFor(m);
  let best: StrictMatch | null = null;
  for (const { avg, scale } of getSupercells(pair, search.candidates ?? pairMappings(pair, ctx), ws)) {
    const trial = latticeTrial(avg, search.stol, ws);
    for (let t = 0; t < m.s1Targets.length; t++) {
      const s1i = m.s1Targets[t];
      if (!translatedSubset(ws, s1i, m.s2Anchor, ctx.account)) continue;
      const mapping = cartDists(ws, trial);
      const value = strictValue(ws, search.useRms);
      if (best === null || value < best.value) {
        const translation = totalTranslation(ws.shift, ws.mean, trial.avgInverse);
        best = { value, dist: ws.dist.slice(), mapping: mapping.slice(), translation, scaleMatrix: scale };
        if ((search.breakOnMatch || value < 1e-5) && value < search.stol) return best;
      }
    }
  }
  return best && best.value < search.stol ? best : null;
}

/**
 * `_strict_match` for `fit` (use_rms=False, break_on_match=True) and then, when it matches, for `get_rms_dist`
 * (use_rms=True) at one stol, in one traversal: both passes visit the same lattices and translations in the same
 * order and compute the same assignment at each. Fit's pass stops at its first largest distance below stol; the
 * rms pass goes on to its own end (its first rms below 1e-5 can come no earlier, since that largest distance is
 * then below stol too). The account is charged as the two passes would charge it: the traversal up to fit's stop
 * once more when it stops there, nothing more when it never does (no rms pass follows a failed fit).
 */
export function strictFitThenRms(pair: StrictPair, stol: number, ctx: PairContext): { fit: boolean; rms: StrictMatch | null } {
  const m = getMask(pair, ctx.options.comparator);
  if (strictRefusal(m, ctx.options) !== null) return { fit: false, rms: null };
  const ws = workspaceFor(m);
  const spentBefore = ctx.account.spent;
  let fit = false;
  let best: StrictMatch | null = null;
  search: for (const { avg, scale } of getSupercells(pair, pairMappings(pair, ctx), ws)) {
    const trial = latticeTrial(avg, stol, ws);
    // Indexed: every translation of every lattice tried, mostly before V8 optimises it.
    for (let t = 0; t < m.s1Targets.length; t++) {
      const s1i = m.s1Targets[t];
      if (!translatedSubset(ws, s1i, m.s2Anchor, ctx.account)) continue;
      const mapping = cartDists(ws, trial);
      if (!fit && strictValue(ws, false) < stol) {
        fit = true;
        spendMatchWork(ctx.account, ctx.account.spent - spentBefore);
      }
      const value = strictValue(ws, true);
      if (best === null || value < best.value) {
        const translation = totalTranslation(ws.shift, ws.mean, trial.avgInverse);
        best = { value, dist: ws.dist.slice(), mapping: mapping.slice(), translation, scaleMatrix: scale };
        if (value < 1e-5 && value < stol) break search;
      }
    }
  }
  if (!fit) return { fit: false, rms: null };
  return { fit: true, rms: best && best.value < stol ? best : null };
}
