/** `structlab atomworld apply|evaluate|eval`: dispatches to the subcommand's module. */
import { CliError } from '../errors.ts';
import { ATOMWORLD_APPLY_HELP, runAtomworldApply } from './atomworld-apply.ts';
import { ATOMWORLD_EVAL_HELP, runAtomworldEval } from './atomworld-eval.ts';
import { ATOMWORLD_EVALUATE_HELP, runAtomworldEvaluate } from './atomworld-evaluate.ts';
import { quoted } from '../../core/limits.ts';

type Subcommand = { help: string; run: (argv: string[], warn: (line: string) => void) => string | Promise<string> };

/** A Map: the subcommand name is user input ("constructor" must not find Object.prototype's). */
const SUBCOMMANDS = new Map<string, Subcommand>([
  ['apply', { help: ATOMWORLD_APPLY_HELP, run: runAtomworldApply }],
  ['evaluate', { help: ATOMWORLD_EVALUATE_HELP, run: runAtomworldEvaluate }],
  ['eval', { help: ATOMWORLD_EVAL_HELP, run: runAtomworldEval }],
]);

export const ATOMWORLD_HELP = `usage: structlab atomworld <apply|evaluate|eval> ...

  apply BEFORE.cif --action NAME --params JSON   the benchmark's ground truth for one action, as CIF
  evaluate --target T.cif --candidate C.txt      judge one raw model answer as the benchmark does
  eval CASES.jsonl ANSWERS.jsonl                 judge a batch (worker threads), per-action summary

Run 'structlab atomworld <subcommand> --help' for its options.
`;

export function runAtomworld(argv: string[], warn: (line: string) => void): string | Promise<string> {
  const [name, ...rest] = argv;
  const sub = name === undefined ? undefined : SUBCOMMANDS.get(name);
  const names = [...SUBCOMMANDS.keys()].join(', ');
  if (!sub) {
    throw new CliError(
      name === undefined
        ? `atomworld needs a subcommand: ${names} (see structlab atomworld --help)`
        : `unknown atomworld subcommand ${quoted(name)} (available: ${names}; see structlab atomworld --help)`,
    );
  }
  return sub.run(rest, warn);
}

export function atomworldHelp(argv: string[]): string {
  const name = argv[0];
  if (name === undefined || name.startsWith('-')) return ATOMWORLD_HELP;
  const sub = SUBCOMMANDS.get(name);
  if (!sub)
    throw new CliError(
      `unknown atomworld subcommand ${quoted(name)} (available: ${[...SUBCOMMANDS.keys()].join(', ')}; see structlab atomworld --help)`,
    );
  return sub.help;
}
