/**
 * Streaming plumbing for batch commands: JSONL input read line by line (memory bounded by one line, not the
 * file) and an output file written as rows arrive, under a temporary name renamed into place at the end.
 * Limits (src/core/limits.ts): a streamed batch has at most `batchRows` lines, and each line, being one input
 * row, at most `inputBytes` bytes; the file as a whole may be larger than `inputBytes`.
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { LIMITS, limitSentence } from '../core/limits.ts';
import { CliError } from './errors.ts';
import { checkOutputFile, inputName, reason, temporaryName, type OutputOptions } from './io.ts';

export interface InputLine {
  /** The line without its end (LF or CRLF); a UTF-8 byte-order mark at the start of the file is dropped. */
  text: string;
  /** 1-based line number. */
  line: number;
}

/** Opens a file for streaming (every failure a sentence); '-' is standard input. */
function openInput(path: string): number {
  if (path === '-') return 0;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new CliError(
      (e as NodeJS.ErrnoException).code === 'ENOENT' ? `${path}: no such file` : `${path} cannot be opened (${reason(e)})`,
    );
  }
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw new CliError(`${path} is a folder, not a file`);
  }
  return fd;
}

export interface InputLineAt extends InputLine {
  /** Byte offset of the line in the file and its length in bytes (line end excluded): `readLineAt` reads it again. */
  offset: number;
  bytes: number;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * The lines of a file or of standard input, read synchronously in 1 MiB chunks as the consumer asks for them
 * (blank lines included, so line numbers stay true). UTF-16 input is refused: it cannot be split byte-wise.
 */
export function* readLinesSync(path: string): Generator<InputLineAt> {
  const name = inputName(path);
  const fd = openInput(path);
  const decoder = new TextDecoder('utf-8');
  const chunk = Buffer.allocUnsafe(1 << 20);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 0;
  let position = 0; // bytes consumed before the pending piece
  let first = true;
  const emit = (bytes: Buffer, offset: number): InputLineAt => {
    line++;
    if (line > LIMITS.batchRows) throw new CliError(`${name}: ${limitSentence('the batch', line, LIMITS.batchRows, 'lines', 'batchRows')}`);
    let text = decoder.decode(bytes);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return { text, line, offset, bytes: bytes.length };
  };
  try {
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') {
          Atomics.wait(sleeper, 0, 0, 10); // a non-blocking standard input: wait for more
          continue;
        }
        if (code === 'EOF') break;
        throw new CliError(`${name} cannot be read (${reason(e)})`);
      }
      if (n === 0) break;
      if (first && n >= 2 && ((chunk[0] === 0xff && chunk[1] === 0xfe) || (chunk[0] === 0xfe && chunk[1] === 0xff)))
        throw new CliError(`${name} is UTF-16 text; a batch is read line by line as UTF-8 (convert it, e.g. with iconv)`);
      first = false;
      const data = chunk.subarray(0, n);
      let at = 0;
      for (;;) {
        const nl = data.indexOf(10, at);
        if (nl < 0) break;
        const piece = data.subarray(at, nl);
        const bytes = pending.length ? Buffer.concat([...pending, piece]) : piece;
        if (bytes.length > LIMITS.inputBytes) throw lineTooLong(name, line + 1, bytes.length);
        const offset = position;
        pending = [];
        pendingBytes = 0;
        position = offset + bytes.length + 1;
        yield emit(bytes, offset);
        at = nl + 1;
      }
      if (at < n) {
        // Copied: the chunk buffer is reused by the next read.
        pending.push(Buffer.from(data.subarray(at)));
        pendingBytes += n - at;
        if (pendingBytes > LIMITS.inputBytes) throw lineTooLong(name, line + 1, pendingBytes);
      }
    }
    if (pendingBytes > 0) yield emit(Buffer.concat(pending), position);
  } finally {
    if (path !== '-') closeSync(fd);
  }
}

/** The same lines for an async consumer (a stream feeding a worker pool). */
export async function* readLines(path: string): AsyncGenerator<InputLine> {
  for (const l of readLinesSync(path)) yield { text: l.text, line: l.line };
}

/** A line of a file again, from the offset and length `readLinesSync` gave (decoded as UTF-8). */
export function readLineAt(fd: number, at: { offset: number; bytes: number }): string {
  const buffer = Buffer.allocUnsafe(at.bytes);
  let done = 0;
  while (done < at.bytes) {
    const n = readSync(fd, buffer, done, at.bytes - done, at.offset + done);
    if (n === 0) break;
    done += n;
  }
  const text = buffer.subarray(0, done).toString('utf8');
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  return line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
}

const lineTooLong = (name: string, line: number, bytes: number) =>
  new CliError(`${name} line ${line}: ${limitSentence('the row', bytes, LIMITS.inputBytes, 'bytes', 'inputBytes')}`);

/** Text written this many characters at a time. */
const FLUSH_CHARS = 1 << 20;

/**
 * An output file filled piece by piece: checked at once (never over an input, never over an existing file
 * without --force), written to a temporary name and renamed by `commit`; `abort` leaves nothing behind.
 */
export class StreamedOutput {
  private fd: number;
  private readonly tmp: string;
  private buffer: string[] = [];
  private chars = 0;

  constructor(
    readonly path: string,
    options: OutputOptions,
  ) {
    checkOutputFile(path, options);
    this.tmp = temporaryName(path);
    try {
      this.fd = openSync(this.tmp, 'wx');
    } catch (e) {
      throw new CliError(`${path}: cannot write the output file (${reason(e)})`);
    }
  }

  write(text: string): void {
    this.buffer.push(text);
    this.chars += text.length;
    if (this.chars >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    if (!this.buffer.length) return;
    try {
      writeSync(this.fd, this.buffer.join(''));
    } catch (e) {
      this.abort();
      throw new CliError(`${this.path}: cannot write the output file (${reason(e)}); nothing was written`);
    }
    this.buffer = [];
    this.chars = 0;
  }

  commit(): void {
    this.flush();
    try {
      closeSync(this.fd);
      renameSync(this.tmp, this.path);
    } catch (e) {
      this.abort();
      throw new CliError(`${this.path}: cannot write the output file (${reason(e)}); nothing was written`);
    }
  }

  abort(): void {
    try {
      closeSync(this.fd);
    } catch {
      /* already closed */
    }
    try {
      unlinkSync(this.tmp);
    } catch {
      /* already gone */
    }
  }
}
