/**
 * A trajectory frame against a reference crystal (issue 15's per-frame RMSD and verdict): the matcher's layer, above
 * the per-frame numbers of src/core/analysis/frame-metrics.ts. Pure.
 */
import { type PackedStructure, unpackStructure } from '../structure/packed.ts';
import type { Structure } from '../structure/structure.ts';
import { type MatcherOptions, matcherFitAndRmsDist } from './structure-matcher.ts';

/**
 * The frame against a reference crystal with the project's StructureMatcher (pymatgen's defaults unless `options`
 * say otherwise): `match` is fit(frame, reference), `rms` and `maxDist` get_rms_dist's numbers (normalised by
 * (V/n)^(1/3), null when no mapping is within stol) — the fields of `structlab match`. Null for a finite frame.
 * Throws LimitError past LIMITS.matchSites or LIMITS.matchWork.
 */
export function frameAgainstReference(
  p: PackedStructure,
  reference: Structure,
  options?: MatcherOptions,
): { match: boolean; rms: number | null; maxDist: number | null } | null {
  if (!p.lattice || !reference.lattice) return null;
  const { fit, rms } = matcherFitAndRmsDist(unpackStructure(p), reference, options);
  return { match: fit, rms: rms?.rms ?? null, maxDist: rms?.maxDist ?? null };
}
