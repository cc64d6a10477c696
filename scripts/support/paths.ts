/**
 * Where the tests, benchmarks and scripts find the repository and the reference data it carries (tests/reference/:
 * corpus files and the trusted tools' outputs, each folder's source and licence in its README).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const REFERENCE = join(REPO_ROOT, 'tests', 'reference');

export const CORPUS_FILES = join(REFERENCE, 'corpus', 'files');
export const CORPUS_GOLDEN = join(REFERENCE, 'corpus', 'golden');

export const corpusFileNames = (): string[] => readdirSync(CORPUS_FILES).sort();
export const readCorpusText = (name: string): string => readFileSync(join(CORPUS_FILES, name), 'utf8');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const readCorpusGolden = (name: string): any => JSON.parse(readFileSync(join(CORPUS_GOLDEN, `${name}.json`), 'utf8'));
