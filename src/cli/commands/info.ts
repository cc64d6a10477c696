import { wrapFrac } from '../../core/math/mat3.ts';
import { formula, reducedFormula } from '../../core/structure/composition.ts';
import type { Structure } from '../../core/structure/structure.ts';
import { analyzeSymmetry } from '../../core/symmetry/analyze.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { loadStructureFile, toStrictJson } from '../io.ts';

export const INFO_HELP = `usage: structlab info FILE [--symprec 0.01]

Reads a structure file (CIF, POSCAR/CONTCAR, XYZ, extended XYZ, pymatgen JSON; '-' = stdin) and prints
one JSON document: format, warnings and, per structure, formula, sites, lattice and space group.
  --symprec X   symmetry tolerance in Å for the space-group search (default 0.01)
`;

/** Above this many sites the space-group search is skipped (it grows roughly cubically) and a warning says so. */
export const MAX_SYMMETRY_SITES = 20_000;

export function structureSummary(s: Structure, symprec: number, warnings: string[]) {
  const lattice = s.lattice
    ? { ...s.lattice.parameters, volume: s.lattice.volume, matrix: s.lattice.matrix }
    : null;
  let spacegroup: { number: number; symbol: string } | null = null;
  if (s.lattice) {
    if (s.sites.length > MAX_SYMMETRY_SITES) {
      warnings.push(`${s.name}: ${s.sites.length} sites is above the ${MAX_SYMMETRY_SITES}-site limit for the space-group search; spacegroup is null`);
    } else {
      const sym = analyzeSymmetry(s, symprec);
      if (sym) spacegroup = { number: sym.number, symbol: sym.symbol };
    }
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
  const structures = loaded.structures.map((s) => structureSummary(s, symprec, warnings));
  return toStrictJson({ file: loaded.path, format: loaded.format, warnings, structures });
}
