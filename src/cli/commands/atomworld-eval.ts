import { CliError } from '../errors.ts';

// Placeholder until the batch evaluator lands; replaced by its implementation.
export const ATOMWORLD_EVAL_HELP = `usage: structlab atomworld eval CASES.jsonl ANSWERS.jsonl
`;

export function runAtomworldEval(_argv: string[], _warn: (line: string) => void): string {
  throw new CliError('atomworld eval is not implemented yet', 1);
}
