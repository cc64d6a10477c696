/** File and stream plumbing for the CLI: reading inputs, writing outputs, strict JSON. */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseStructureFile } from '../core/io/registry.ts';
import type { FormatId } from '../core/io/types.ts';
import type { Structure } from '../core/structure/structure.ts';
import { CliError } from './errors.ts';

/** Inputs larger than this are refused rather than risking a multi-minute parse or an out-of-memory crash. */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

export function readInputText(path: string): string {
  if (path === '-') {
    try {
      return readFileSync(0, 'utf8');
    } catch {
      throw new CliError('could not read standard input');
    }
  }
  let size: number;
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new CliError(`${path} is a directory, not a file`);
    size = st.size;
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${path}: no such file or it cannot be read`);
  }
  if (size > MAX_INPUT_BYTES) throw new CliError(`${path} is ${(size / 2 ** 20).toFixed(0)} MiB; the limit is ${MAX_INPUT_BYTES / 2 ** 20} MiB`);
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new CliError(`${path}: the file cannot be read`);
  }
}

export interface LoadedFile {
  path: string;
  format: FormatId;
  structures: Structure[];
  warnings: string[];
}

/** Reads and parses a structure file; every failure becomes "FILE line N: message". */
export function loadStructureFile(path: string): LoadedFile {
  const text = readInputText(path);
  const name = path === '-' ? 'stdin' : path;
  const result = parseStructureFile(text, path === '-' ? '' : basename(path));
  if (!result.ok) throw new CliError(parseFailure(name, result));
  return { path: name, format: result.format, structures: result.structures, warnings: result.warnings };
}

/** "name line N: what is wrong" — the one sentence a parse failure prints. */
export function parseFailure(name: string, failure: { error: string; line?: number }): string {
  const where = failure.line !== undefined ? `${name} line ${failure.line}` : name;
  return `${where}: ${failure.error.replace(/\.\s*$/, '')}`;
}

/** JSON with non-finite numbers as null (the contract never allows NaN or Infinity). */
export function toStrictJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v));
}

export function writeOutputFile(path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch {
    throw new CliError(`${path}: cannot write the output file`);
  }
}
