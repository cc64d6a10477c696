import { spawnSync } from 'node:child_process';
/** Locates the reference data (the shared folder beside the repository, or $STRUCTLAB_SHARED) for tests and benchmarks. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED = process.env.STRUCTLAB_SHARED ?? resolve(REPO_ROOT, '..', 'shared');

if (!existsSync(SHARED)) throw new Error(`reference data not found at ${SHARED} (set STRUCTLAB_SHARED)`);

export const CORPUS_FILES = join(SHARED, 'corpus', 'files');
export const CORPUS_GOLDEN = join(SHARED, 'corpus', 'golden');

export const corpusFileNames = (): string[] => readdirSync(CORPUS_FILES).sort();
export const readCorpusText = (name: string): string => readFileSync(join(CORPUS_FILES, name), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const readCorpusGolden = (name: string): any => JSON.parse(readFileSync(join(CORPUS_GOLDEN, `${name}.json`), 'utf8'));

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
