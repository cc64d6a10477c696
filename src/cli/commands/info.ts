import { wrapFrac } from '../../core/math/mat3.ts';
import { formula, reducedFormula } from '../../core/structure/composition.ts';
import type { Structure } from '../../core/structure/structure.ts';
import { analyzeSymmetry, symmetryUnavailable } from '../../core/symmetry/analyze.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { loadStructureFile, toStrictJson } from '../io.ts';

export const INFO_HELP = `usage: structlab info FILE [--symprec 0.01]

Reads a structure file (CIF, POSCAR/CONTCAR, XYZ, extended XYZ, pymatgen JSON; '-' = stdin) and prints
one JSON document: format, warnings and, per structure, formula, sites, lattice and space group.
  --symprec X   symmetry tolerance in Å for the space-group search (default 0.01)
`;

export function structureSummary(s: Structure, symprec: number, warnings: string[]) {
  const lattice = s.lattice
    ? { ...s.lattice.parameters, volume: s.lattice.volume, matrix: s.lattice.matrix }
    : null;
  let spacegroup: { number: number; symbol: string } | null = null;
  const skipped = symmetryUnavailable(s);
  if (s.lattice && skipped) warnings.push(`${s.name}: ${skipped}; spacegroup is null`);
  const sym = analyzeSymmetry(s, symprec);
  if (sym) spacegroup = { number: sym.number, symbol: sym.symbol };
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
  const structures = loaded.structures.map((s) => structureSummary(s, symprec, warnings));
  return toStrictJson({ file: loaded.path, format: loaded.format, warnings, structures });
}
