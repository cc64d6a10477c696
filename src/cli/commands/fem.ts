import { CliError } from '../errors.ts';

// Placeholder until the command lands; replaced by its implementation.
export const FEM_HELP = `usage: structlab fem tasks | fem run TASK_ID --cases FILE.json | fem check TASK_ID --cases FILE.json --outputs OUT.json
`;

export function runFem(_argv: string[], _warn: (line: string) => void): string {
  throw new CliError('fem is not implemented yet', 1);
}
