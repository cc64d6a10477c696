/** Runs the `structlab` CLI from tests and benchmarks: in this process, or as its own process. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../scripts/support/paths.ts';

/**
 * Runs `structlab …` in this process through main(argv, io) (src/cli/main.ts): the same exit status, stdout and
 * stderr as the command, without starting a process. Imported on first use, so that only CLI tests install
 * the CLI's limit hints. Standard input, environment and the bin launcher need `structlab` below.
 */
export async function structlabInProcess(
  args: string[],
  options: { stdout?: (text: string) => void } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { main } = await import('../src/cli/main.ts');
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout:
      options.stdout ??
      ((t) => {
        stdout += t;
      }),
    stderr: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}

/** Runs `structlab …` as a user would, in its own process (bin/structlab.mjs: the bundle when fresh, else tsx). */
export function structlab(
  args: string[],
  options: { input?: string; env?: Record<string, string>; timeout?: number } = {},
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'structlab.mjs'), ...args], {
    encoding: 'utf8',
    input: options.input,
    timeout: options.timeout ?? 120_000,
    cwd: REPO_ROOT,
    env: options.env ? { ...process.env, ...options.env } : process.env,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
