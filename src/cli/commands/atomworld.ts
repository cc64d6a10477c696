/** `structlab atomworld apply|evaluate|eval`: dispatches to the subcommand's module. */
import { CliError } from '../errors.ts';
import { ATOMWORLD_APPLY_HELP, runAtomworldApply } from './atomworld-apply.ts';
import { ATOMWORLD_EVAL_HELP, runAtomworldEval } from './atomworld-eval.ts';
import { ATOMWORLD_EVALUATE_HELP, runAtomworldEvaluate } from './atomworld-evaluate.ts';

const SUBCOMMANDS: Record<string, { help: string; run: (argv: string[], warn: (line: string) => void) => string }> = {
  apply: { help: ATOMWORLD_APPLY_HELP, run: runAtomworldApply },
  evaluate: { help: ATOMWORLD_EVALUATE_HELP, run: runAtomworldEvaluate },
  eval: { help: ATOMWORLD_EVAL_HELP, run: runAtomworldEval },
};

export const ATOMWORLD_HELP = `usage: structlab atomworld <apply|evaluate|eval> ...

  apply BEFORE.cif --action NAME --params JSON   the benchmark's ground truth for one action, as CIF
  evaluate --target T.cif --candidate C.txt      judge one raw model answer as the benchmark does
  eval CASES.jsonl ANSWERS.jsonl                 judge a batch (worker threads), per-action summary

Run 'structlab atomworld <subcommand> --help' for its options.
`;

export function runAtomworld(argv: string[], warn: (line: string) => void): string {
  const [name, ...rest] = argv;
  const sub = name ? SUBCOMMANDS[name] : undefined;
  if (!sub) throw new CliError(`atomworld needs a subcommand: ${Object.keys(SUBCOMMANDS).join(', ')} (see structlab atomworld --help)`);
  return sub.run(rest, warn);
}

export function atomworldHelp(argv: string[]): string {
  const sub = argv[0] ? SUBCOMMANDS[argv[0]] : undefined;
  return sub ? sub.help : ATOMWORLD_HELP;
}
