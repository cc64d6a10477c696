import { wrapFrac } from '../../core/math/mat3.ts';
import { formula, reducedFormula } from '../../core/structure/composition.ts';
import type { Structure } from '../../core/structure/structure.ts';
import { analyzeSymmetry, symmetryUnavailable } from '../../core/symmetry/analyze.ts';
import { LIMITS, LimitError, limitSentence, groupedNumber } from '../../core/limits.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { loadStructureFile, toStrictJson } from '../io.ts';

export const INFO_HELP = `usage: structlab info FILE [--symprec 0.01]

Reads a structure file (CIF, POSCAR/CONTCAR, XYZ, extended XYZ, pymatgen JSON; '-' = stdin) and prints
one JSON document: format, warnings and, per structure, formula, sites, lattice and space group.
  --symprec X   symmetry tolerance in Å for the space-group search (default 0.01)
Space groups are searched for the first ${groupedNumber(LIMITS.symmetrySearches)} periodic structures of a file (a warning
says when there are more: --limit symmetrySearches=N raises it).
`;

/** `searchSymmetry` false: the run's budget of space-group searches is spent (spacegroup null, warned once by the caller). */
export function structureSummary(s: Structure, symprec: number, warnings: string[], searchSymmetry = true) {
  const lattice = s.lattice ? { ...s.lattice.parameters, volume: s.lattice.volume, matrix: s.lattice.matrix } : null;
  let spacegroup: { number: number; symbol: string } | null = null;
  let sym: ReturnType<typeof analyzeSymmetry> = null;
  let overBudget = false;
  try {
    sym = searchSymmetry ? analyzeSymmetry(s, symprec) : null;
  } catch (e) {
    // One cell past the search's work limit leaves the other structures of the file their groups.
    if (!(e instanceof LimitError)) throw e;
    warnings.push(`${s.name}: ${e.message}; spacegroup is null`);
    overBudget = true;
  }
  if (sym) spacegroup = { number: sym.number, symbol: sym.symbol };
  else if (searchSymmetry && s.lattice && !overBudget) {
    // Only when there is no answer: the reason check repeats the neighbour search analyzeSymmetry made.
    const skipped = symmetryUnavailable(s, symprec);
    if (skipped) warnings.push(`${s.name}: ${skipped}; spacegroup is null`);
  }
  return {
    name: s.name,
    formula: formula(s),
    reduced_formula: reducedFormula(s),
    nsites: s.sites.length,
    lattice,
    sites: s.sites.map((site) => ({
      species: site.species,
      frac: site.frac ? site.frac.map((x) => wrapFrac(x)) : null,
      xyz: site.xyz,
    })),
    spacegroup,
  };
}

export function runInfo(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [{ name: 'symprec', kind: 'string' }]);
  if (positionals.length !== 1) throw new CliError('info takes exactly one FILE (see structlab info --help)');
  const symprec = numberOption(options, 'symprec', 0.01, 1e-8, 10);
  const loaded = loadStructureFile(positionals[0]);
  const warnings = [...loaded.warnings];
  // Each search costs milliseconds: a file of many thousand cells (a long trajectory, many CIF blocks)
  // gets space groups for the first LIMITS.symmetrySearches periodic structures and says so.
  let periodic = 0;
  const structures = loaded.structures.map((s) =>
    structureSummary(s, symprec, warnings, !s.lattice || ++periodic <= LIMITS.symmetrySearches),
  );
  if (periodic > LIMITS.symmetrySearches) {
    const what = 'periodic structures to search for a space group';
    warnings.push(
      `${limitSentence('the file', periodic, LIMITS.symmetrySearches, what, 'symmetrySearches')}: ` +
        `spacegroup is null after the first ${groupedNumber(LIMITS.symmetrySearches)}`,
    );
  }
  return toStrictJson({ file: loaded.path, format: loaded.format, warnings, structures });
}
