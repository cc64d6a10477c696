/**
 * The matcher's options and pymatgen's `StructureMatcher()` defaults, in a module of their own so that
 * the lab's stores can show them without loading the matcher (src/core/match/structure-matcher.ts).
 */
export interface MatcherOptions {
  ltol?: number;
  stol?: number;
  angleTol?: number;
  primitiveCell?: boolean;
  scale?: boolean;
  attemptSupercell?: boolean;
  allowSubset?: boolean;
  /**
   * Site equality: 'species' (element and oxidation state, pymatgen's SpeciesComparator), 'element'
   * (ElementComparator), or 'orderDisorder' (OrderDisorderElementComparator: one site's element set
   * contains the other's, for matching ordered structures onto disordered ones).
   */
  comparator?: 'species' | 'element' | 'orderDisorder';
}

/** The one copy the CLI, the lab and the library use. */
export const MATCHER_DEFAULTS: Readonly<Required<MatcherOptions>> = Object.freeze({
  ltol: 0.2,
  stol: 0.3,
  angleTol: 5,
  primitiveCell: true,
  scale: true,
  attemptSupercell: false,
  allowSubset: false,
  comparator: 'species',
});
