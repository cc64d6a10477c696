import { CliError } from '../errors.ts';

// Placeholder until the command lands; replaced by its implementation.
export const ONNG_HELP = `usage: structlab onng obfuscate --level K [--out DIR] | onng analyze OUTCOMES.csv | onng verify
`;

export function runOnng(_argv: string[], _warn: (line: string) => void): string {
  throw new CliError('onng is not implemented yet', 1);
}
