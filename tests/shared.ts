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

/** Runs `structlab …` as a user would (bin/structlab.mjs: the bundle when fresh, else tsx). */
export function structlab(args: string[], options: { input?: string; env?: Record<string, string>; timeout?: number } = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'structlab.mjs'), ...args], {
    encoding: 'utf8', input: options.input, timeout: options.timeout ?? 120_000, cwd: REPO_ROOT,
    env: options.env ? { ...process.env, ...options.env } : process.env,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
