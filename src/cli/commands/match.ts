import { CliError } from '../errors.ts';

// Placeholder until the command lands; replaced by its implementation.
export const MATCH_HELP = `usage: structlab match A B [--ltol 0.2] [--stol 0.3] [--angle-tol 5] [--primitive-cell true|false] [--scale true|false] [--attempt-supercell true|false]
`;

export function runMatch(_argv: string[], _warn: (line: string) => void): string {
  throw new CliError('match is not implemented yet', 1);
}
