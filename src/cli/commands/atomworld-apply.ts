import { CliError } from '../errors.ts';

// Placeholder until the command lands; replaced by its implementation.
export const ATOMWORLD_APPLY_HELP = `usage: structlab atomworld apply BEFORE.cif --action NAME --params JSON
`;

export function runAtomworldApply(_argv: string[], _warn: (line: string) => void): string {
  throw new CliError('atomworld apply is not implemented yet', 1);
}
