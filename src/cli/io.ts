/** File and stream plumbing for the CLI: reading inputs, writing outputs safely, strict JSON. */
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { archiveKind, gzippedName, readArchive } from '../core/io/archive.ts';
import { entryText, keepArchivePath } from '../core/io/archive-entries.ts';
import { gunzip } from '../core/io/gzip.ts';
import { parseStructureFile } from '../core/io/registry.ts';
import { type FormatId, ParseError } from '../core/io/types.ts';
import { LIMITS, checkLimit, inputBytesProblem, formatBytes } from '../core/limits.ts';
import type { Structure } from '../core/structure/structure.ts';
import { CliError, reason } from './errors.ts';

/** How an input is named in messages: '-' is standard input. */
export const inputName = (path: string): string => (path === '-' ? 'stdin' : path);

/** A short reason for a failed file-system call (src/cli/errors.ts, where main's stdout handler reaches it too). */
export { reason };

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Reads a descriptor to its end in chunks, refusing past `LIMITS.inputBytes` (so /dev/zero or an endless
 * pipe is refused instead of exhausting memory). EAGAIN (a non-blocking stdin) is waited out.
 */
function readCapped(fd: number, name: string): Buffer {
  const limit = LIMITS.inputBytes;
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1 << 20, limit + 1 - total));
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(sleeper, 0, 0, 10);
        continue;
      }
      if ((e as NodeJS.ErrnoException).code === 'EOF') break;
      throw new CliError(`${name} cannot be read (${reason(e)})`);
    }
    if (n === 0) break;
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    total += n;
    if (total > limit) throw new CliError(`${name} is over ${formatBytes(limit)}; the limit is ${formatBytes(limit)} per input`);
  }
  return Buffer.concat(chunks, total);
}

/** Text of an input: a UTF-8 byte-order mark is dropped and UTF-16 with a byte-order mark is decoded. */
export function decodeInput(bytes: Buffer): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Reads a file or standard input ('-') as text, within `LIMITS.inputBytes`; every failure is a sentence. */
export function readInputText(path: string): string {
  return decodeInput(readInputBytes(path));
}

/** Reads a file or standard input ('-') as bytes, within `LIMITS.inputBytes`; every failure is a sentence. */
function readInputBytes(path: string): Buffer {
  if (path === '-') return readCapped(0, 'standard input');
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new CliError(
      (e as NodeJS.ErrnoException).code === 'ENOENT' ? `${path}: no such file` : `${path} cannot be opened (${reason(e)})`,
    );
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new CliError(`${path} is a folder, not a file`);
    const tooBig = st.isFile() ? inputBytesProblem(path, st.size) : null;
    if (tooBig) throw new CliError(tooBig);
    return readCapped(fd, path);
  } finally {
    closeSync(fd);
  }
}

export interface LoadedFile {
  path: string;
  format: FormatId;
  structures: Structure[];
  warnings: string[];
}

/** Entry names of an archive that are read as structure files: the endings and VASP names the readers know. */
const STRUCTURE_ENTRY = /(\.(cif|vasp|poscar|xyz|extxyz|json|jsonl)$)|(^|[^a-z])(poscar|contcar|xdatcar)([^a-z]|$)/i;

/**
 * Reads and parses a structure file; every failure becomes "FILE line N: message". A gzipped file (`x.cif.gz`) is
 * read as the file it stands for; an archive (.zip, .tar, .tar.gz/.tgz) as one file holding the structures of all
 * its structure files, in archive order (src/core/io/archive.ts; sizes checked before and while inflating).
 */
export function loadStructureFile(path: string): LoadedFile {
  if (path !== '-' && archiveKind(path) !== null) return loadArchive(path);
  const inner = path === '-' ? null : gzippedName(basename(path));
  const text = inner === null ? readInputText(path) : containerRead(() => entryText(gunzip(readInputBytes(path), path)));
  return parseLoaded(inputName(path), text, path === '-' ? '' : (inner ?? basename(path)));
}

/** The result of reading a container, its ParseError (a damaged or hostile one) as the CLI's one sentence. */
function containerRead<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (e instanceof ParseError) throw new CliError(e.message.replace(/\.\s*$/, ''));
    throw e;
  }
}

function loadArchive(path: string): LoadedFile {
  const bytes = readInputBytes(path);
  const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);
  const entries = containerRead(() => readArchive(bytes, path, (p) => keepArchivePath(path, p, (q) => STRUCTURE_ENTRY.test(base(q)))));
  if (entries.length === 0) throw new CliError(`${path} holds no structure file`);
  const out: LoadedFile = { path, format: 'cif', structures: [], warnings: [] };
  let atoms = 0;
  entries.forEach((e, k) => {
    const loaded = parseLoaded(`${path}/${e.path}`, entryText(e.bytes), base(e.path));
    if (k === 0) out.format = loaded.format;
    out.structures.push(...loaded.structures);
    out.warnings.push(...loaded.warnings.map((w) => `${e.path}: ${w}`));
    for (const s of loaded.structures) atoms += s.sites.length;
    checkLimit('fileStructures', path, out.structures.length, 'structures');
    checkLimit('fileAtoms', path, atoms, 'atoms in all its structures');
  });
  return out;
}

function parseLoaded(name: string, text: string, fileName: string): LoadedFile {
  let result: ReturnType<typeof parseStructureFile>;
  try {
    result = parseStructureFile(text, fileName);
  } catch (e) {
    // A parser that throws instead of returning its failure (a limit, an allocation) still names the file.
    if (e instanceof Error && !(e instanceof TypeError) && !(e instanceof ReferenceError)) {
      throw new CliError(parseFailure(name, { error: e.message, line: (e as { line?: number }).line }));
    }
    throw e;
  }
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

// ---------------------------------------------------------------------------------------------------
// Writing: never over an input, never over an existing file or into a non-empty folder without --force,
// and never a partial file (a temporary name in the same folder, then a rename).

export interface OutputOptions {
  /** --force: an existing output file may be replaced, a non-empty output folder written into. */
  force?: boolean;
  /** Input files of the command ('-' ignored): an output may never be one of them, --force or not. */
  inputs?: readonly string[];
  /** Input folders: an output may never lie inside one (nor be one). */
  sources?: readonly string[];
}

interface Identity {
  real: string;
  dev: number;
  ino: number;
}

function identity(path: string): Identity | null {
  try {
    const st = statSync(path);
    return { real: realpathSync(path), dev: st.dev, ino: st.ino };
  } catch {
    return null;
  }
}

/** The absolute, symlink-free form of a path that may not exist yet (its nearest existing ancestor resolved). */
function realPathOf(path: string): string {
  const abs = resolve(path);
  const rest: string[] = [];
  let at = abs;
  for (;;) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      const parent = dirname(at);
      if (parent === at) return abs;
      rest.push(basename(at));
      at = parent;
    }
  }
}

const inside = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);

/** Throws when writing `path` would replace one of the inputs or lie inside a source folder. */
function refuseOverInputs(path: string, options: OutputOptions): void {
  const real = realPathOf(path);
  const target = identity(path);
  for (const input of options.inputs ?? []) {
    if (input === '-') continue;
    const id = identity(input);
    const same = id
      ? (target && ((id.dev === target.dev && id.ino === target.ino) || id.real === target.real)) || id.real === real
      : resolve(input) === resolve(path);
    if (same) throw new CliError(`${path} is the input ${input}; refusing to write over an input (choose another output)`);
  }
  for (const source of options.sources ?? []) {
    if (inside(real, realPathOf(source)))
      throw new CliError(`${path} lies inside the source folder ${source}; refusing to write into an input folder`);
  }
}

/**
 * Checks that `path` may be written (call it before long work, so a refusal comes at once):
 * not an input, not a folder, not an existing file unless --force; its folder must exist.
 */
export function checkOutputFile(path: string, options: OutputOptions = {}): void {
  if (path === '' || path === '-')
    throw new CliError(`the output needs a file name${path === '-' ? ' (standard output is not supported here)' : ''}`);
  refuseOverInputs(path, options);
  let st: Stats | null = null;
  try {
    st = statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new CliError(`${path} cannot be written (${reason(e)})`);
  }
  if (st?.isDirectory()) throw new CliError(`${path} is a folder; the output must be a file name`);
  if (st?.isFile() && !options.force) throw new CliError(`${path} already exists; pass --force to replace it`);
  if (!st) {
    const parent = dirname(resolve(path));
    let pst: Stats;
    try {
      pst = statSync(parent);
    } catch {
      throw new CliError(`${path}: the folder ${dirname(path)} does not exist`);
    }
    if (!pst.isDirectory()) throw new CliError(`${path}: ${dirname(path)} is not a folder`);
  }
}

// node:crypto only when a file is written: loading it (~4 ms) would add to the start-up of every command.
const randomHex = (bytes: number): string => process.getBuiltinModule('node:crypto').randomBytes(bytes).toString('hex');

export const temporaryName = (path: string): string =>
  join(dirname(resolve(path)), `.${basename(path).slice(0, 100)}.${process.pid}-${randomHex(4)}.tmp`);

/** Writes `text` to `path` through a temporary file and a rename; on failure nothing is left behind. */
export function writeOutputSafely(path: string, text: string | Uint8Array, options: OutputOptions = {}): void {
  checkOutputFile(path, options);
  let st: Stats | null = null;
  try {
    st = statSync(path);
  } catch {
    /* a new file */
  }
  if (st && !st.isFile()) {
    // A device or a pipe (/dev/null, /dev/stdout, /dev/full): written in place, never replaced by a rename.
    try {
      writeFileSync(path, text);
    } catch (e) {
      throw new CliError(`${path}: cannot write the output (${reason(e)})`);
    }
    return;
  }
  const tmp = temporaryName(path);
  try {
    writeFileSync(tmp, text, { flag: 'wx' });
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* never created */
    }
    throw new CliError(`${path}: cannot write the output file (${reason(e)}); nothing was written`);
  }
}

/**
 * An output folder being filled: files go to a staging folder (renamed into place on commit) or, with --force into a non-empty
 * folder, one by one.
 */
export interface OutputDir {
  /** The final path of a file (what the command reports). */
  pathOf(relative: string): string;
  write(relative: string, text: string | Uint8Array): void;
}

/**
 * Checks DIR for writing (not a source folder or inside one, not an input, empty unless --force) before
 * long work; returns whether it exists and is non-empty.
 */
export function checkOutputDir(dir: string, options: OutputOptions = {}): { nonEmpty: boolean } {
  if (dir === '' || dir === '-') throw new CliError('the output needs a folder name');
  const real = realPathOf(dir);
  for (const source of options.sources ?? []) {
    const src = realPathOf(source);
    if (inside(real, src))
      throw new CliError(
        `--out ${dir} is ${real === src ? 'the source folder' : 'inside the source folder'} ${source}; choose an output folder ` +
          'outside the inputs',
      );
  }
  for (const input of options.inputs ?? []) {
    if (input !== '-' && realPathOf(input) === real) throw new CliError(`--out ${dir} is the input ${input}; choose another output folder`);
  }
  let st: Stats;
  try {
    st = statSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { nonEmpty: false };
    throw new CliError(`${dir} cannot be used as the output folder (${reason(e)})`);
  }
  if (!st.isDirectory()) throw new CliError(`--out ${dir} exists and is not a folder`);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (e) {
    throw new CliError(`${dir} cannot be read (${reason(e)})`);
  }
  if (entries.length > 0 && !options.force) throw new CliError(`--out ${dir} is not empty; pass --force to write into it`);
  return { nonEmpty: entries.length > 0 };
}

/**
 * Fills the folder `dir` with `fill(out)`. A new or empty folder is built under a temporary name beside it
 * and renamed into place at the end, so a failure leaves nothing; with --force into a non-empty folder, each
 * file is written safely and the files this run created are removed again on failure.
 */
export function writeOutputDir<T>(dir: string, options: OutputOptions, fill: (out: OutputDir) => T): T {
  const { nonEmpty } = checkOutputDir(dir, options);
  const finalDir = realPathOf(dir);
  if (!nonEmpty) {
    const parent = dirname(finalDir);
    try {
      mkdirSync(parent, { recursive: true });
    } catch (e) {
      throw new CliError(`${dir}: cannot create the output folder (${reason(e)})`);
    }
    let staging: string;
    try {
      staging = mkdtempSync(join(parent, `.${basename(finalDir).slice(0, 100)}.structlab-`));
    } catch (e) {
      throw new CliError(`${dir}: cannot create the output folder (${reason(e)})`);
    }
    const out: OutputDir = {
      pathOf: (relative) => join(finalDir, relative),
      write: (relative, text) => {
        const target = join(staging, relative);
        try {
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, text);
        } catch (e) {
          throw new CliError(`${join(dir, relative)}: cannot write the output file (${reason(e)}); nothing was written`);
        }
      },
    };
    try {
      const result = fill(out);
      if (existsSync(finalDir)) rmdirSync(finalDir); // empty, checked above
      renameSync(staging, finalDir);
      return result;
    } catch (e) {
      rmSync(staging, { recursive: true, force: true });
      if (e instanceof CliError) throw e;
      if ((e as NodeJS.ErrnoException)?.code)
        throw new CliError(`${dir}: cannot create the output folder (${reason(e)}); nothing was written`);
      throw e;
    }
  }
  const created: string[] = [];
  const out: OutputDir = {
    pathOf: (relative) => join(finalDir, relative),
    write: (relative, text) => {
      const target = join(finalDir, relative);
      try {
        mkdirSync(dirname(target), { recursive: true });
      } catch (e) {
        throw new CliError(`${join(dir, relative)}: cannot create its folder (${reason(e)})`);
      }
      const isNew = !existsSync(target);
      writeOutputSafely(target, text, { ...options, force: true });
      if (isNew) created.push(target);
    },
  };
  try {
    return fill(out);
  } catch (e) {
    for (const file of created) {
      try {
        unlinkSync(file);
      } catch {
        /* already gone */
      }
    }
    throw e;
  }
}
