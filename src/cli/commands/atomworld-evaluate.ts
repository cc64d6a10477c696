import { ParseError } from '../../core/io/types.ts';
import { evaluateAtomworldAnswer } from '../../core/tasks/atomworld/evaluate.ts';
import { parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { readInputText, toStrictJson } from '../io.ts';
import { quoted } from '../../core/limits.ts';

export const ATOMWORLD_EVALUATE_HELP = `usage: structlab atomworld evaluate --target T.cif --candidate C.txt

Judges one raw model answer as AtomWorld does, stopping at the first failure:
  OutputFormatError   no <cif>...</cif> block (the last one is used)
  CIFParsingError     pymatgen 2022.11 could not build a structure from it
  AtomCountMismatch   different number of sites or composition than the target
  StructureMismatch   StructureMatcher(primitive_cell=False, stol=0.5).fit(target, answer) fails
On success, rmsd and max_dist are get_rms_dist(target, answer), normalised by (V/n)^(1/3).
  --target T.cif      the ground-truth CIF ('-' for standard input)
  --candidate C.txt   the raw model answer text ('-' for standard input)
`;

export function runAtomworldEvaluate(argv: string[], _warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'target', kind: 'string' },
    { name: 'candidate', kind: 'string' },
  ]);
  if (positionals.length > 0)
    throw new CliError(
      `atomworld evaluate takes --target and --candidate, not ${quoted(positionals[0])} (see structlab atomworld evaluate --help)`,
    );
  if (typeof options.target !== 'string' || typeof options.candidate !== 'string')
    throw new CliError('atomworld evaluate needs --target T.cif and --candidate C.txt');
  if (options.target === '-' && options.candidate === '-') throw new CliError('only one of --target and --candidate can be standard input');
  const targetText = readInputText(options.target);
  const answerText = readInputText(options.candidate);
  let result;
  try {
    result = evaluateAtomworldAnswer(targetText, answerText);
  } catch (e) {
    if (e instanceof ParseError)
      throw new CliError(`${options.target}${e.line ? ` line ${e.line}` : ''}: the target CIF cannot be parsed: ${e.message}`);
    throw e;
  }
  return toStrictJson({ correct: result.correct, wrong_type: result.wrongType, rmsd: result.rmsd, max_dist: result.maxDist });
}
