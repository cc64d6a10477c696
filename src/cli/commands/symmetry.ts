import type { Structure } from '../../core/structure/structure.ts';
import { niggliReducedLattice } from '../../core/structure/niggli.ts';
import { symmetryDataset } from '../../core/symmetry/dataset.ts';
import { PYMATGEN_ANGLE_TOLERANCE, symmetryUnavailable } from '../../core/symmetry/analyze.ts';
import { type ParsedArgs, numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { quoted } from '../../core/limits.ts';
import { toStrictJson } from '../io.ts';
import { latticeJson, loadPeriodic } from './xtal-input.ts';

export const SYMMETRY_HELP = `usage: structlab symmetry FILE [--symprec 0.01] [--angle-tolerance 5] [--index K]

spglib's symmetry dataset of the first (or K-th) structure of FILE: space group (number, symbol, Hall),
point group, every operation of the input cell, per site its Wyckoff letter, orbit and site symmetry,
the standardized conventional and primitive cells (spglib's choice, idealized) and the Niggli-reduced lattice.
  --symprec S           distance tolerance in Å (default 0.01)
  --angle-tolerance A   angle tolerance in degrees of the lattice's symmetry search (default 5, as pymatgen's
                        SpacegroupAnalyzer passes it; -1: spglib's own default, lengths only)
  --index K             which structure of a multi-structure file (0-based, default 0)
`;

/** `--angle-tolerance A`: degrees in (0, 90), or any negative value for spglib's default (printed as -1). */
function angleToleranceOption(options: ParsedArgs['options']): number {
  const raw = options['angle-tolerance'];
  if (raw === undefined) return PYMATGEN_ANGLE_TOLERANCE;
  const a = Number(raw);
  if (typeof raw !== 'string' || raw.trim() === '' || !Number.isFinite(a) || a === 0 || a >= 90)
    throw new CliError(`--angle-tolerance takes degrees between 0 and 90, or -1 for spglib's default, got ${quoted(String(raw))}`);
  return a < 0 ? -1 : a;
}

const cellJson = (s: Structure) => ({
  lattice: latticeJson(s.lattice!),
  sites: s.sites.map((site) => ({ species: site.species, frac: site.frac })),
});

export function runSymmetry(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'symprec', kind: 'string' },
    { name: 'angle-tolerance', kind: 'string' },
    { name: 'index', kind: 'string' },
  ]);
  if (positionals.length !== 1) throw new CliError('symmetry takes exactly one FILE (see structlab symmetry --help)');
  const symprec = numberOption(options, 'symprec', 0.01, 1e-8, 10);
  const angleTolerance = angleToleranceOption(options);
  const { path, structure } = loadPeriodic(positionals[0], options, 'symmetry');
  const d = symmetryDataset(structure, symprec, angleTolerance);
  if (!d) {
    const why = symmetryUnavailable(structure, symprec);
    throw new CliError(`${path}: symmetry search failed${why ? ` (${why})` : ''}`);
  }
  return toStrictJson({
    file: path,
    symprec,
    angle_tolerance: angleTolerance,
    number: d.number,
    international: d.international,
    hall_number: d.hallNumber,
    hall: d.hall,
    point_group: d.pointGroup,
    crystal_system: d.crystalSystem,
    n_operations: d.operations.length,
    operations: d.operations.map((o) => ({ rotation: o.rot, translation: o.trans })),
    sites: d.sites.map((s) => ({ species: s.species, frac: s.frac, wyckoff: s.wyckoff, orbit: s.orbit, site_symmetry: s.siteSymmetry })),
    std_cell: cellJson(d.stdCell),
    prim_std_cell: cellJson(d.primStdCell),
    transformation_matrix: d.transformationMatrix,
    origin_shift: d.originShift,
    niggli_lattice: latticeJson(niggliReducedLattice(structure.lattice)),
    pymatgen_conventional_standard: null,
    pymatgen_primitive_standard: null,
  });
}
