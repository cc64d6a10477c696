import { LimitError, type LimitName } from '../core/limits.ts';
import { ParseError } from '../core/io/types.ts';

/** The option that raises a limit, as refusals name it (installed by main and by every worker thread). */
export const cliLimitHint = (name: LimitName): string => (name === 'caseMilliseconds' ? '--case-timeout SECONDS' : `--limit ${name}=N`);

/** A user-facing failure: one human sentence, exit status 2 (bad input) unless stated. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/**
 * The error classes core modules throw for bad input (ParseError and LimitError aside, matched by name so
 * that this module does not load them): each carries a sentence about the input, not a bug.
 */
const INPUT_ERROR_NAMES = new Set([
  'SingularMatrixError',
  'FemTaskError',
  'AtomworldActionError',
  'InputFormatError',
  'ParticleFormatError',
  'BatchFormatError',
  'CompareSizeError',
  'InverseError',
]);

/** A bundler may suffix a renamed class ("InverseError2"); the name without the suffix. */
const className = (e: Error): string => (e.constructor?.name ?? '').replace(/\d+$/, '');

/**
 * The sentence and exit status of an error that is really about the input (exit 2), or null for a bug.
 * Input too large for memory (an array length or buffer V8 refuses, a stack overflow from deep nesting)
 * is the input's fault, too: the policy in src/core/limits.ts should have refused it first.
 */
export function inputFailure(e: unknown): { message: string; exitCode: number } | null {
  if (e instanceof CliError) return { message: e.message, exitCode: e.exitCode };
  if (!(e instanceof Error)) return null;
  const strip = (m: string) => m.replace(/\.\s*$/, '');
  if (e instanceof ParseError) return { message: strip(e.line !== undefined ? `line ${e.line}: ${e.message}` : e.message), exitCode: 2 };
  if (e instanceof LimitError || INPUT_ERROR_NAMES.has(e.name) || INPUT_ERROR_NAMES.has(className(e)))
    return { message: strip(e.message), exitCode: 2 };
  if (
    e instanceof RangeError &&
    /invalid (typed )?array length|array buffer allocation failed|maximum call stack size exceeded|invalid string length/i.test(e.message)
  ) {
    return { message: `the input is too large or too deeply nested to process (${strip(e.message)})`, exitCode: 2 };
  }
  if (e instanceof SyntaxError && /JSON/.test(e.message)) return { message: `not valid JSON (${strip(e.message)})`, exitCode: 2 };
  return null;
}

/** A short reason for a failed file-system call, from its error code. */
export function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EPIPE':
      return 'the reader closed the pipe';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EROFS':
      return 'read-only file system';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    case 'EFBIG':
      return 'the file is too large for the device';
    case 'EIO':
      return 'input/output error';
    default:
      return code ? `system error ${code}` : 'it cannot be accessed';
  }
}

/**
 * The one line printed when standard output (or error) cannot be written, e.g. `structlab info x > /dev/full`
 * (ENOSPC) or `| head -c 1` (EPIPE): the stream's error event would otherwise end the process with a stack trace.
 */
export const streamFailureLine = (stream: string, e: unknown): string => `error: ${stream}: ${reason(e)}\n`;
