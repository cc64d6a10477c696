/**
 * pymatgen 2022.11 `StructureMatcher` (`fit`, `get_rms_dist`) ported step by step (pymatgen/analysis/structure_matcher.py),
 * cut along pymatgen's own methods:
 *  - matcher-preprocess.ts: `_preprocess` (Niggli reduction, optional primitive reduction, supercell factor,
 *    volume scaling) and the comparator's composition hash;
 *  - strict-match.ts: `_match`, `_strict_match`, `_get_mask`, `_cmp_fstruct`, `_cart_dists`;
 *  - matcher-lattices.ts: `_get_lattices`, `_get_supercells` (candidate lattices, average lattice);
 *  - shortest-vectors.ts: `pbc_shortest_vectors` in the LLL-reduced average lattice;
 *  - matcher-workspace.ts: the scratch arrays (in WebAssembly memory) and the work account one pair's passes reuse;
 *  - kernels/match.ts and kernels/assignment.ts: the loops over site pairs, the translated prefilter, the shortest
 *    vectors and pymatgen's `LinearAssignment` (its LAPJV, whose tie-breaking decides max_dist and the mapping);
 *  - numpy-arith.ts, rounded-trig.ts: numpy's inverse, norm and pymatgen's lattice arithmetic in pymatgen's order of
 *    operations, so that ties between assignments and lattices fall as they do in pymatgen on a baseline x86-64.
 * Here: one prepared pair (`prepareMatch`) whose answers share one reduction, and the library's entry points over it.
 * Distances are normalised by (V/N)^(1/3), exactly as pymatgen reports them.
 */
import type { Structure } from '../structure/structure.ts';
import { Lattice } from '../structure/lattice.ts';
import { type LatticeMapping, findAllMappings } from '../structure/niggli.ts';
import { cbrt } from '../math/libm.ts';
import { MATCHER_DEFAULTS, type MatcherOptions } from './defaults.ts';
import {
  type MatchStructure,
  type MatcherSide,
  type Preprocessed,
  type ResolvedOptions,
  checkMatchable,
  matcherSide as sideOf,
  preprocess,
  preprocessReduced,
  sameCompositionHash,
  sameHash,
} from './matcher-preprocess.ts';
import { type StrictPair, getLattices } from './matcher-lattices.ts';
import {
  type PairContext,
  type StrictMatch,
  type StrictSearch,
  orientPair,
  strictFitThenRms,
  strictMatch,
  strictMatchRefusal,
} from './strict-match.ts';

export { MATCHER_DEFAULTS, type MatcherOptions, type MatcherSide, checkMatchable };

export interface SitePair {
  /** Site index in a (the caller's order) and the site of b it is matched to. */
  a: number;
  b: number;
  /** Normalised distance after the mean translation is removed (multiply by (V/n)^(1/3) for Å). */
  distance: number;
}

export interface BestMapping {
  rms: number;
  maxDist: number;
  /** One pair per site of the smaller structure (all sites when the counts are equal). */
  pairs: SitePair[];
  /** (V/n)^(1/3) of `a`, Å: the factor that turns the normalised distances into Å. */
  lengthScale: number;
  /** True when a primitive reduction merged sites, so indices name one representative per merged group. */
  approximateIndices: boolean;
}

/** `get_rms_dist`'s answer: the rms and the largest of the normalised distances. */
interface RmsDist {
  rms: number;
  maxDist: number;
}

/**
 * The stages of `get_rms_dist(a, b)` one at a time, to tell which one refuses a pair
 * (src/core/tasks/generations/explain.ts): the pair is reduced once, then `_strict_match` is re-run at
 * another stol or on chosen candidate lattices.
 */
export interface MatcherProbe {
  /** Sites of a and b after Niggli (and primitive) reduction. */
  reducedSites: [number, number];
  /** Sites of a and b as `_strict_match` compares them (the supercell side × fu). */
  comparedSites: [number, number];
  fu: number;
  /** The side whose lattice is searched for vectors matching the other's (pymatgen's supercell side). */
  searched: 'a' | 'b';
  /** Why `_strict_match` stops before any lattice: the site counts or the species differ; null when it searches. */
  refused: 'siteCount' | 'species' | null;
  /** Species (pymatgen's species string) and their counts in a and b as compared (after the supercell factor). */
  counts: [Map<string, number>, Map<string, number>];
  /** The searched and the target lattice after reduction and volume scaling. */
  searchedLattice: Lattice;
  targetLattice: Lattice;
  /** `find_all_mappings(searched, target, ltol, angleTol)` as `_get_lattices` keeps them (|det| within 0.5 of fu). */
  mappings(ltol: number, angleTol: number): LatticeMapping[];
  /**
   * `_strict_match` in rms mode at `stol` (Infinity: no per-axis box, every translation scored) on the
   * options' lattices or on `candidates`; `first` stops at the first mapping within stol. Null: none within stol.
   */
  run(stol: number, candidates?: readonly LatticeMapping[], first?: boolean): BestMapping | null;
  /** Restarts the LIMITS.matchWork account at what the reductions spent (each run adds to it). */
  resetWork(): void;
}

/**
 * Two structures prepared for matching: `_preprocess` runs once, on the first answer that needs it, and
 * `rmsDist` and `bestMapping` share one `get_rms_dist` pass. Every pass charges one LIMITS.matchWork
 * account, as one call does; `resetWork` holds the next pass to the budget on its own, as a separate call is.
 */
export interface PreparedMatch {
  /** pymatgen `StructureMatcher.fit(a, b)`: a match whose largest normalised site distance is ≤ stol. */
  fit(): boolean;
  /** pymatgen `get_rms_dist(a, b)`: (rms, max) of the mapping with the smallest rms; null when none is within stol. */
  rmsDist(): RmsDist | null;
  /**
   * The mapping behind `rmsDist` (smallest rms), in the caller's site indices, for overlays. With a supercell
   * factor the b (or a) index is that of the original cell's site.
   */
  bestMapping(): BestMapping | null;
  probe(): MatcherProbe;
  /** Restarts the LIMITS.matchWork account at what the reductions spent. */
  resetWork(): void;
}

const resolve = (o?: MatcherOptions): ResolvedOptions => {
  // allowSubset with attemptSupercell is accepted, as pymatgen 2022.11's fit accepts it (only group_structures refuses it).
  return { ...MATCHER_DEFAULTS, ...Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) } as ResolvedOptions;
};

export function prepareMatch(a: Structure, b: Structure, options?: MatcherOptions): PreparedMatch {
  return new PreparedPair(structuresInput(a, b), resolve(options));
}

/** What PreparedPair reads of its two structures, or of their sides (`matcherSide`). */
interface PairInput {
  /** `fit`'s first check: the comparator's composition hashes of a and b alike. */
  sameComposition(comparator: ResolvedOptions['comparator']): boolean;
  preprocess(o: ResolvedOptions, account: PairContext['account']): Preprocessed;
  /** a's site count and cell volume, a mapping's length scale. */
  sitesA: number;
  volumeA(): number;
}

const structuresInput = (a: Structure, b: Structure): PairInput => ({
  sameComposition: (comparator) => sameCompositionHash(a, b, comparator),
  preprocess: (o, account) => preprocess(a, b, o, account),
  sitesA: a.sites.length,
  volumeA: () => a.lattice!.volume,
});

function sidesInput(a: MatcherSide, b: MatcherSide, o: ResolvedOptions): PairInput {
  if (a.comparator !== o.comparator || b.comparator !== o.comparator)
    throw new Error(`matcher sides made for the ${a.comparator} and ${b.comparator} comparators, matched with ${o.comparator}`);
  return {
    sameComposition: () => sameHash(a.composition, b.composition),
    preprocess: (options, account) => preprocessReduced(a.reduced, b.reduced, options, account),
    sitesA: a.sites,
    volumeA: () => a.volume,
  };
}

/**
 * One structure as a side of a pair under `options` (its comparator): checked, Niggli-reduced and hashed once, in
 * plain data, so that another thread can match it. `what` names it in a refusal (`checkMatchable`).
 */
export const matcherSide = (s: Structure, options: MatcherOptions | undefined, what: string): MatcherSide =>
  sideOf(s, resolve(options).comparator, what);

/** `_preprocess`' structures, `_match`'s orientation of them, and the work the reductions spent. */
interface Reduced {
  p: Preprocessed;
  pair: StrictPair & { swapped: boolean };
  reductionWork: number;
}

class PreparedPair implements PreparedMatch {
  private readonly ctx: PairContext;
  private reduced: Reduced | null = null;
  private fitAnswer: boolean | null = null;
  private rmsMatch: StrictMatch | null | undefined = undefined;

  constructor(
    private readonly input: PairInput,
    private readonly o: ResolvedOptions,
  ) {
    this.ctx = { options: o, account: { spent: 0 } };
  }

  private prepared(): Reduced {
    if (!this.reduced) {
      const p = this.input.preprocess(this.o, this.ctx.account);
      this.reduced = { p, pair: orientPair(p), reductionWork: this.ctx.account.spent };
    }
    return this.reduced;
  }

  private pass(search: StrictSearch): StrictMatch | null {
    return strictMatch(this.prepared().pair, search, this.ctx);
  }

  fit(): boolean {
    if (this.fitAnswer === null) {
      const o = this.o;
      if (!o.allowSubset && !this.input.sameComposition(o.comparator)) this.fitAnswer = false;
      else {
        const m = this.pass({ stol: o.stol, useRms: false, breakOnMatch: true });
        this.fitAnswer = m !== null && m.value <= o.stol;
      }
    }
    return this.fitAnswer;
  }

  private rmsPass(): StrictMatch | null {
    if (this.rmsMatch === undefined) this.rmsMatch = this.pass({ stol: this.o.stol, useRms: true, breakOnMatch: false });
    return this.rmsMatch;
  }

  rmsDist(): RmsDist | null {
    const m = this.rmsPass();
    if (!m) return null;
    let maxDist = -Infinity;
    for (const d of m.dist) if (d > maxDist) maxDist = d;
    return { rms: m.value, maxDist };
  }

  bestMapping(): BestMapping | null {
    return this.mappingOf(this.rmsPass());
  }

  resetWork(): void {
    this.ctx.account.spent = this.reduced?.reductionWork ?? 0;
  }

  /** `fit()` and, only when it passes, `bestMapping()`, in one traversal of the lattices (strictFitThenRms). */
  fitAndBestMapping(): { fit: boolean; mapping: BestMapping | null } {
    const o = this.o;
    if (!o.allowSubset && !this.input.sameComposition(o.comparator)) return { fit: false, mapping: null };
    const { fit, rms } = strictFitThenRms(this.prepared().pair, o.stol, this.ctx);
    return { fit, mapping: fit ? this.mappingOf(rms) : null };
  }

  /** A match in the caller's site indices of a and b, sorted by a. */
  private mappingOf(match: StrictMatch | null): BestMapping | null {
    if (!match) return null;
    const { struct1, struct2, fu, s1Supercell, swapped } = this.prepared().pair;
    const pairs: SitePair[] = [];
    let maxDist = -Infinity;
    match.mapping.forEach((j, i) => {
      // Supercell copies of a site are consecutive: index = site · fu + copy.
      const siteOf2 = struct2.origin[s1Supercell ? i : Math.floor(i / fu)];
      const siteOf1 = struct1.origin[s1Supercell ? Math.floor(j / fu) : j];
      const [ia, ib] = swapped ? [siteOf2, siteOf1] : [siteOf1, siteOf2];
      pairs.push({ a: ia, b: ib, distance: match.dist[i] });
      if (match.dist[i] > maxDist) maxDist = match.dist[i];
    });
    pairs.sort((x, y) => x.a - y.a || x.b - y.b);
    return {
      rms: match.value,
      maxDist,
      pairs,
      lengthScale: cbrt(this.input.volumeA() / this.input.sitesA),
      approximateIndices: this.o.primitiveCell || fu > 1,
    };
  }

  probe(): MatcherProbe {
    const { p, pair } = this.prepared();
    const tiledA = p.s1Supercell;
    const searchedLattice = new Lattice((tiledA ? p.s1 : p.s2).matrix),
      targetLattice = new Lattice((tiledA ? p.s2 : p.s1).matrix);
    const countsOf = (s: MatchStructure, times: number) => {
      const m = new Map<string, number>();
      for (const l of s.labels) m.set(l, (m.get(l) ?? 0) + times);
      return m;
    };
    return {
      reducedSites: [p.s1.keys.length, p.s2.keys.length],
      comparedSites: [p.s1.keys.length * (tiledA ? p.fu : 1), p.s2.keys.length * (tiledA ? 1 : p.fu)],
      fu: p.fu,
      searched: tiledA ? 'a' : 'b',
      refused: strictMatchRefusal(pair, this.o),
      counts: [countsOf(p.s1, tiledA ? p.fu : 1), countsOf(p.s2, tiledA ? 1 : p.fu)],
      searchedLattice,
      targetLattice,
      mappings: (ltol, angleTol) => Array.from(getLattices(findAllMappings(searchedLattice, targetLattice, ltol, angleTol), p.fu)),
      run: (stol, candidates, first) => this.mappingOf(this.pass({ stol, useRms: true, breakOnMatch: first === true, candidates })),
      resetWork: () => this.resetWork(),
    };
  }
}

/** pymatgen `StructureMatcher.fit(a, b)`: a match whose largest normalised site distance is ≤ stol. */
export const matcherFit = (a: Structure, b: Structure, options?: MatcherOptions): boolean => prepareMatch(a, b, options).fit();

/**
 * pymatgen `get_rms_dist(a, b)`: (rms, max) of the mapping with the smallest rms, normalised by (V/n)^(1/3); null
 * when none is within stol.
 */
export const matcherRmsDist = (a: Structure, b: Structure, options?: MatcherOptions): RmsDist | null =>
  prepareMatch(a, b, options).rmsDist();

/**
 * `matcherFit(a, b)` and `matcherRmsDist(a, b)` with one reduction of both structures: the same two
 * answers (the rms pass runs even when the fit fails, as a separate call would), and each pass is held
 * to LIMITS.matchWork on its own, as it is when called separately.
 */
export function matcherFitAndRmsDist(a: Structure, b: Structure, options?: MatcherOptions): { fit: boolean; rms: RmsDist | null } {
  const m = prepareMatch(a, b, options);
  const fit = m.fit();
  m.resetWork();
  return { fit, rms: m.rmsDist() };
}

/** The mapping behind `matcherRmsDist` (smallest rms), in the caller's site indices, for overlays. */
export const matcherBestMapping = (a: Structure, b: Structure, options?: MatcherOptions): BestMapping | null =>
  prepareMatch(a, b, options).bestMapping();

/**
 * `fit(a, b)` and, only when it passes, the `get_rms_dist` mapping, with one reduction of both
 * structures (the AtomWorld evaluator's two calls); both passes charge one LIMITS.matchWork account.
 */
export function matcherFitAndBestMapping(
  a: Structure,
  b: Structure,
  options?: MatcherOptions,
): { fit: boolean; mapping: BestMapping | null } {
  return new PreparedPair(structuresInput(a, b), resolve(options)).fitAndBestMapping();
}

/**
 * `matcherFitAndBestMapping` of the two structures that `a` and `b` were made from (`matcherSide`, under the same
 * options): the same answer, bit for bit.
 */
export function matcherSidesFitAndBestMapping(
  a: MatcherSide,
  b: MatcherSide,
  options?: MatcherOptions,
): { fit: boolean; mapping: BestMapping | null } {
  const o = resolve(options);
  return new PreparedPair(sidesInput(a, b, o), o).fitAndBestMapping();
}
