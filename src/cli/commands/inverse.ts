import { LIMITS, groupedNumber } from '../../core/limits.ts';
import { InverseError, solveInverse } from '../../core/tasks/c2np/inverse.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { loadStructureFile, toStrictJson } from '../io.ts';
import { structureSummary } from './info.ts';

export const INVERSE_HELP = `usage: structlab inverse PARTICLE [--symprec 0.1]

Recovers the bulk crystal of a finite particle (XYZ or any structure file; only species and Cartesian
positions are used; any orientation, surface-truncated, noise up to ~0.1 Å): finds the translation
lattice, folds the atoms into one cell and prints the conventional lattice parameters, the space
group (spglib setting) and the recovered cell as JSON. At most ${groupedNumber(LIMITS.particleAtoms)} atoms.
  --symprec X   symmetry tolerance in Å (default 0.1; larger ones up to X + the measured scatter
                are tried on noisy input and the most symmetric answer is kept)
`;

export function runInverse(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [{ name: 'symprec', kind: 'string' }]);
  if (positionals.length !== 1) throw new CliError('inverse takes exactly one PARTICLE file (see structlab inverse --help)');
  const symprec = numberOption(options, 'symprec', 0.1, 1e-5, 10);
  const loaded = loadStructureFile(positionals[0]);
  if (loaded.structures.length > 1) warn(`${loaded.path}: ${loaded.structures.length} frames; the first is used`);
  for (const w of loaded.warnings) warn(w);
  let result;
  try {
    result = solveInverse(loaded.structures[0], symprec);
  } catch (e) {
    if (e instanceof InverseError) throw new CliError(`${loaded.path}: ${e.message}`);
    throw e;
  }
  const warnings: string[] = [];
  const cell = structureSummary(result.cell, symprec, warnings);
  // The summary's own search uses symprec alone; the solver's answer (noise-aware) is the one reported.
  cell.spacegroup = result.spacegroup;
  for (const w of warnings) warn(w);
  const { a, b, c, alpha, beta, gamma } = result.lattice;
  return toStrictJson({ lattice: { a, b, c, alpha, beta, gamma }, spacegroup: result.spacegroup, cell });
}
