/**
 * The CIF check of the AtomWorld evaluator: "can pymatgen 2022.11 build a Structure from this text?"
 * (`CifParser.from_string(text).get_structures(primitive=False)`), layered on the lenient reader
 * without changing it. On top of what the lenient reader already rejects (no cell, Cartesian-only
 * sites, no atoms, unreadable numbers or symmetry, a site whose occupancies sum above 1), pymatgen 2022.11
 * fails when two atoms of the same element sit on the same position (the lenient reader drops the repeat;
 * pymatgen adds the occupancies up above 1: "Species occupancies sum to more than 1!"), and
 * it snaps coordinates within 1e-4 (relative) of 1/3 and 2/3 to the exact values in every file,
 * not only in symmetric ones. Its sites come in pymatgen's sorted order in every file too: the matcher tries
 * translations and breaks ties between equal assignments in site order, so a P1 answer with its species interleaved
 * would otherwise be matched through another, equally good, image (rmsd 2.0e-8 instead of pymatgen's 1.6e-8).
 */
import { parseCif } from '../../io/cif/reader.ts';
import { ParseError } from '../../io/types.ts';
import type { Structure } from '../../structure/structure.ts';

/**
 * The first structure pymatgen would return, or a ParseError saying why pymatgen would fail.
 * Like pymatgen, a block that fails is skipped and the next one is used.
 */
export function parseCifStrict(text: string): Structure {
  const { structures, warnings } = parseCif(text, { pymatgenSiteOrder: 'all' });
  let firstProblem = '';
  for (const s of structures) {
    const problem = strictProblem(s, warnings);
    if (problem === null) return s;
    firstProblem ||= problem;
  }
  throw new ParseError(firstProblem);
}

function strictProblem(s: Structure, warnings: string[]): string | null {
  const ofBlock = (w: string) => w.includes(`block ${s.name}:`);
  const duplicate = warnings.find((w) => ofBlock(w) && w.includes('repeat a symmetry-equivalent atom'));
  if (duplicate) return `two atoms of the same element share a position, so the occupancies sum to more than 1 (${duplicate})`;
  if (!s.lattice) return `block ${s.name} has no unit cell`;
  return null;
}
