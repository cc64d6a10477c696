/**
 * `structlab/match`: pymatgen's StructureMatcher (2022.11 semantics: `fit`, `get_rms_dist`), with its
 * defaults as one constant. Distances are normalised by (V/n)^(1/3), as pymatgen reports them.
 */
export {
  MATCHER_DEFAULTS,
  type MatcherOptions,
  matcherFit,
  matcherRmsDist,
  matcherFitAndRmsDist,
  matcherBestMapping,
  matcherFitAndBestMapping,
  checkMatchable,
  type BestMapping,
  type SitePair,
} from '../core/match/structure-matcher.ts';
