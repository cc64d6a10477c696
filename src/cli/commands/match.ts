import { MATCHER_DEFAULTS, type MatcherOptions, matcherFitAndRmsDist } from '../../core/match/structure-matcher.ts';
import type { Structure } from '../../core/structure/structure.ts';
import { type ParsedArgs, numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { loadStructureFile, toStrictJson } from '../io.ts';
import { quoted } from '../../core/limits.ts';

export const MATCH_HELP = `usage: structlab match A B [--ltol 0.2] [--stol 0.3] [--angle-tol 5] [--primitive-cell true|false] \
[--scale true|false] [--attempt-supercell true|false]

Compares two crystals (any structure file with a lattice; the first structure of each) with
pymatgen's StructureMatcher (2022.11 semantics):
  match      StructureMatcher.fit(A, B): some lattice/translation/assignment puts every site
             within stol (normalised distance)
  rms        get_rms_dist(A, B): rms of the smallest-rms match, normalised by (V/n)^(1/3), not Å
  max_dist   the largest site distance of that same match (same units; may exceed stol)
  rms and max_dist are null when no match is within stol.
  --ltol 0.2               relative lattice-length tolerance
  --stol 0.3               site tolerance, normalised by (V/n)^(1/3)
  --angle-tol 5            lattice-angle tolerance, degrees
  --primitive-cell true    reduce both to primitive cells first
  --scale true             scale both to the same volume per atom
  --attempt-supercell false  allow one structure to be a supercell of the other
  --allow-subset false     allow B's sites to be a subset of A's (or the reverse)
  --comparator species     species (oxidation states count) or element
`;

function booleanOption(options: ParsedArgs['options'], name: string, fallback: boolean): boolean {
  const raw = options[name];
  if (raw === undefined) return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new CliError(`--${name} must be true or false, got ${quoted(String(raw))}`);
}

function loadCrystal(path: string, warn: (line: string) => void): Structure {
  const loaded = loadStructureFile(path);
  for (const w of loaded.warnings) warn(`warning: ${w}`);
  if (loaded.structures.length === 0) throw new CliError(`${loaded.path} holds no structure`);
  if (loaded.structures.length > 1) warn(`warning: ${loaded.path} holds ${loaded.structures.length} structures; comparing the first`);
  const s = loaded.structures[0];
  if (!s.lattice) throw new CliError(`${loaded.path} has no lattice; match compares periodic crystals`);
  if (s.sites.length === 0) throw new CliError(`${loaded.path} holds no atoms`);
  return s;
}

export function runMatch(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'ltol', kind: 'string' },
    { name: 'stol', kind: 'string' },
    { name: 'angle-tol', kind: 'string' },
    { name: 'primitive-cell', kind: 'string' },
    { name: 'scale', kind: 'string' },
    { name: 'attempt-supercell', kind: 'string' },
    { name: 'allow-subset', kind: 'string' },
    { name: 'comparator', kind: 'string' },
  ]);
  if (positionals.length !== 2) throw new CliError('match takes two structure files A and B (see structlab match --help)');
  const comparator = options.comparator ?? MATCHER_DEFAULTS.comparator;
  if (comparator !== 'species' && comparator !== 'element')
    throw new CliError(`--comparator must be species or element, got ${quoted(String(comparator))}`);
  const matcher: MatcherOptions = {
    ltol: numberOption(options, 'ltol', MATCHER_DEFAULTS.ltol, 0, 10),
    stol: numberOption(options, 'stol', MATCHER_DEFAULTS.stol, 0, 10),
    angleTol: numberOption(options, 'angle-tol', MATCHER_DEFAULTS.angleTol, 0, 180),
    primitiveCell: booleanOption(options, 'primitive-cell', MATCHER_DEFAULTS.primitiveCell),
    scale: booleanOption(options, 'scale', MATCHER_DEFAULTS.scale),
    attemptSupercell: booleanOption(options, 'attempt-supercell', MATCHER_DEFAULTS.attemptSupercell),
    allowSubset: booleanOption(options, 'allow-subset', MATCHER_DEFAULTS.allowSubset),
    comparator,
  };
  if (matcher.allowSubset && matcher.attemptSupercell) throw new CliError('--allow-subset cannot be combined with --attempt-supercell');
  const a = loadCrystal(positionals[0], warn),
    b = loadCrystal(positionals[1], warn);
  const { fit, rms } = matcherFitAndRmsDist(a, b, matcher);
  return toStrictJson({ match: fit, rms: rms?.rms ?? null, max_dist: rms?.maxDist ?? null });
}
