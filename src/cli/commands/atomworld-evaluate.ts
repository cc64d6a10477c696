import { CliError } from '../errors.ts';

// Placeholder until the evaluator lands; replaced by its implementation.
export const ATOMWORLD_EVALUATE_HELP = `usage: structlab atomworld evaluate --target T.cif --candidate C.txt
`;

export function runAtomworldEvaluate(_argv: string[], _warn: (line: string) => void): string {
  throw new CliError('atomworld evaluate is not implemented yet', 1);
}
