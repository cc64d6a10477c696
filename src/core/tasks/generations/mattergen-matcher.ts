/**
 * MatterGen's two structure matchers for uniqueness and novelty (microsoft/mattergen
 * `mattergen/evaluation/utils/structure_matcher.py`: DefaultOrderedStructureMatcher,
 * DefaultDisorderedStructureMatcher), on ordered structures, over the pymatgen StructureMatcher port.
 * README.md here describes the steps.
 */
import { MATCHER_DEFAULTS, type MatcherOptions } from '../../match/defaults.ts';
import { matcherFit } from '../../match/structure-matcher.ts';
import { elementAmounts, type Structure } from '../../structure/structure.ts';
import { elementBySymbol } from '../../structure/elements.ts';
import { reducedFormula } from '../../structure/composition.ts';
import { PYMATGEN_ATOMIC_RADIUS } from './pymatgen-elements.ts';

export type GenMatcherName = 'disordered' | 'ordered';

/** `StructureMatcher()` with pymatgen's defaults (ltol 0.2, stol 0.3, angle_tol 5, primitive cell, scale). */
const ORDERED: MatcherOptions = { ...MATCHER_DEFAULTS };

/** The disordered matcher's final fit: the defaults plus attempt_supercell, allow_subset and OrderDisorderElementComparator. */
const DISORDERED: MatcherOptions = { ...MATCHER_DEFAULTS, attemptSupercell: true, allowSubset: true, comparator: 'orderDisorder' };

/** MatterGen's modified Hume-Rothery thresholds (`do_elements_substitute` defaults). */
const RADIUS_THRESHOLD = 0.3;
const X_THRESHOLD = 1.0;

/**
 * `do_elements_substitute`: relative atomic-radius difference ≤ 0.3 and |ΔX| ≤ 1.0 (pymatgen 2022.11
 * `atomic_radius` and `X`). A missing X is NaN upstream (the test is false); a missing radius raises
 * upstream and never substitutes here.
 */
export function elementsSubstitute(e1: string, e2: string): boolean {
  const z1 = elementBySymbol(e1)?.Z,
    z2 = elementBySymbol(e2)?.Z;
  if (z1 === undefined || z2 === undefined) return false;
  const r1 = PYMATGEN_ATOMIC_RADIUS[z1 - 1],
    r2 = PYMATGEN_ATOMIC_RADIUS[z2 - 1];
  if (r1 === null || r2 === null || r1 === undefined || r2 === undefined) return false;
  const relative = Math.abs(r1 - r2) / ((r1 + r2) / 2);
  const dx = Math.abs(elementBySymbol(e1)!.X - elementBySymbol(e2)!.X);
  return relative <= RADIUS_THRESHOLD && dx <= X_THRESHOLD;
}

/** Elements in pymatgen's composition order: first appearance over the sites. */
function compositionOrder(s: Structure): string[] {
  const seen = new Set<string>();
  for (const site of s.sites) for (const el of Object.keys(site.species)) seen.add(el);
  return [...seen];
}

/**
 * `check_is_disordered`: the groups of mutually substitutable elements (connected components of the
 * substitution pairs, MatterGen's `get_cliques_out_of_list_of_pairs`), or null when no pair substitutes.
 * Each group lists its elements in composition order.
 */
export function substitutionGroups(s: Structure): string[][] | null {
  const elements = compositionOrder(s);
  const parent = elements.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const paired = new Set<number>();
  for (let i = 0; i < elements.length; i++)
    for (let j = i + 1; j < elements.length; j++) {
      if (!elementsSubstitute(elements[i], elements[j])) continue;
      paired.add(i).add(j);
      parent[find(j)] = find(i);
    }
  if (paired.size === 0) return null;
  const groups = new Map<number, string[]>();
  for (const i of [...paired].sort((x, y) => x - y)) {
    const root = find(i);
    const g = groups.get(root) ?? [];
    g.push(elements[i]);
    groups.set(root, g);
  }
  return [...groups.values()];
}

/**
 * `make_structure_disordered`: every site of a group element becomes the mixed site {e: x_e / Σ_group x_g},
 * x = the element's atomic fraction in the structure.
 */
export function disorderedCopy(s: Structure, groups: readonly string[][]): Structure {
  const amounts = elementAmounts(s);
  let total = 0;
  for (const v of Object.values(amounts)) total += Math.abs(v);
  const mixed = new Map<string, Record<string, number>>();
  for (const group of groups) {
    const fractions = group.map((el) => amounts[el] / total);
    const sum = fractions.reduce((a, b) => a + b, 0);
    const species: Record<string, number> = {};
    group.forEach((el, k) => (species[el] = fractions[k] / sum));
    for (const el of group) mixed.set(el, species);
  }
  return {
    ...s,
    sites: s.sites.map((site) => {
      const el = Object.keys(site.species)[0];
      const species = mixed.get(el);
      return species ? { ...site, species: { ...species } } : site;
    }),
  };
}

/**
 * `fit(a, b)` of the chosen matcher, for ordered structures. a = the structure being judged (the later
 * one for uniqueness, the prediction for novelty), b = the earlier or reference one: the disordered
 * matcher disorders a only.
 */
export function mattergenFit(a: Structure, b: Structure, matcher: GenMatcherName): boolean {
  if (matcher === 'ordered') return matcherFit(a, b, ORDERED);
  if (reducedFormula(a) !== reducedFormula(b)) return false;
  if (matcherFit(a, b, ORDERED)) return true;
  const groups = substitutionGroups(a);
  if (!groups) return false;
  return matcherFit(disorderedCopy(a, groups), b, DISORDERED);
}
