/**
 * The one way the lab reads a user's file (pickers, folders, drops) or takes pasted text: the size is checked
 * against LIMITS.inputBytes (src/core/limits.ts) before a byte is read, so a 4 GB file picked by mistake is
 * refused with a sentence instead of freezing the tab. A folder is one input: its files together are held to
 * the same limit.
 */
import { archiveKind, gzippedName, readArchive } from '../core/io/archive.ts';
import { keepArchivePath } from '../core/io/archive-entries.ts';
import { naturalCompare } from '../core/io/frame-index.ts';
import { gunzip } from '../core/io/gzip.ts';
import { inputBytesProblem, LIMITS, printable, groupedNumber } from '../core/limits.ts';
import { errorText } from '../core/errors.ts';

export interface Sized {
  name: string;
  size: number;
}

/** A refusal for input over the policy; stores show its message as their error. */
export class InputSizeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputSizeError';
  }
}

/** The file's path inside a picked folder, else its name. */
export const filePath = (f: File): string => (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name;

/**
 * The sentence refusing `files` (null when they may be read): any one over `limit`, or, when `together` names
 * them as a whole (a folder), their sum over it. Pure, so the check is unit-tested without a 256 MiB file.
 */
export function filesSizeProblem(files: readonly Sized[], together?: string, limit: number = LIMITS.inputBytes): string | null {
  let total = 0;
  for (const f of files) {
    const size = Number.isFinite(f.size) && f.size >= 0 ? f.size : Infinity;
    const problem = inputBytesProblem(printable(f.name, 120), size, limit);
    if (problem) return problem;
    total += size;
  }
  if (together !== undefined && files.length > 1)
    return inputBytesProblem(`${printable(together, 120)} (${files.length} files together)`, total, limit);
  return null;
}

/** UTF-8 bytes of `text` without encoding it (pasted text is held to the same limit as a file). */
export function textBytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The sentence refusing pasted text over the limit, or null. */
export function pastedTextProblem(name: string, text: string, limit: number = LIMITS.inputBytes): string | null {
  // Three bytes per UTF-16 unit at most: short text needs no count.
  return text.length * 3 <= limit ? null : inputBytesProblem(name, textBytes(text), limit);
}

async function readChecked(f: File): Promise<string> {
  try {
    return await f.text();
  } catch (e) {
    throw new Error(`Could not read ${printable(filePath(f), 120)}: ${errorText(e)}`, { cause: e });
  }
}

/** The text of one file, after its size is checked (InputSizeError with the sentence when it is over). */
export async function readTextFile(file: File, limit: number = LIMITS.inputBytes): Promise<string> {
  const problem = filesSizeProblem([file], undefined, limit);
  if (problem) throw new InputSizeError(problem);
  return readChecked(file);
}

/** The bytes of one file (a zip), after its size is checked (InputSizeError with the sentence when it is over). */
export async function readBytesFile(file: File, limit: number = LIMITS.inputBytes): Promise<ArrayBuffer> {
  const problem = filesSizeProblem([file], undefined, limit);
  if (problem) throw new InputSizeError(problem);
  try {
    return await file.arrayBuffer();
  } catch (e) {
    throw new Error(`Could not read ${printable(filePath(file), 120)}: ${errorText(e)}`, { cause: e });
  }
}

/** The texts of several files read as one input named `together` (a folder): each and their sum are checked first. */
export async function readTextFiles(
  files: readonly File[],
  together: string,
  limit: number = LIMITS.inputBytes,
): Promise<{ path: string; text: string }[]> {
  const problem = filesSizeProblem(files, together, limit);
  if (problem) throw new InputSizeError(problem);
  // One at a time: a folder's files are read in order, and a failure stops before the rest are read.
  const out: { path: string; text: string }[] = [];
  for (const f of files) out.push({ path: filePath(f), text: await readChecked(f) });
  return out;
}

/**
 * The files of a drop, folders included: a dropped folder arrives as one unreadable entry in
 * `dataTransfer.files`, so its entries are walked (readEntries returns them in batches until an empty one).
 * Each file keeps its path inside the dropped folder as `webkitRelativePath`, as the folder picker gives it, so
 * a dropped folder pairs and names exactly as a picked one. More than LIMITS.batchRows files are refused.
 * The entries are taken before the first await: a drop's items are readable only during its event.
 */
export async function droppedFiles(data: DataTransfer): Promise<File[]> {
  const entries = [...data.items].map((item) => item.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
  if (!entries.some((e) => e.isDirectory)) return [...data.files];
  const out: File[] = [];
  const visit = async (entry: FileSystemEntry, dir: string): Promise<void> => {
    if (out.length > LIMITS.batchRows)
      throw new InputSizeError(`the dropped folders hold more than ${groupedNumber(LIMITS.batchRows)} files`);
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isFile) {
      const file = await new Promise<File>((ok, fail) => (entry as FileSystemFileEntry).file(ok, fail));
      // A dropped file's own webkitRelativePath is empty: its path inside the drop is set on the instance.
      if (dir) Object.defineProperty(file, 'webkitRelativePath', { value: path });
      out.push(file);
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((ok, fail) => reader.readEntries(ok, fail));
        if (batch.length === 0) break;
        for (const child of batch) await visit(child, path);
      }
    }
  };
  for (const entry of entries) await visit(entry, '');
  return out;
}

/**
 * Picked files with every container opened: a gzipped file (`POSCAR.gz`, `x.cif.gz`) becomes the file it stands for,
 * an archive (.zip, .tar, .tar.gz/.tgz: MatterGen's generated_trajectories.zip of `gen_i.extxyz`) its files, each
 * keeping its path inside the archive as `webkitRelativePath`. Each container's size is checked before it is read and
 * its inflated bytes while inflating (src/core/io/archive.ts); entries are chosen by the shared rule (no __MACOSX,
 * no dot parts, no path leaving the archive). Other files pass unchanged.
 */
export async function openContainers(files: readonly File[]): Promise<File[]> {
  const out: File[] = [];
  for (const f of files) {
    const inner = gzippedName(f.name);
    if (inner === null && archiveKind(f.name) === null) {
      out.push(f);
      continue;
    }
    const bytes = new Uint8Array(await readBytesFile(f));
    if (inner !== null) {
      // Fresh ArrayBuffers (never shared): the cast only narrows the type File wants.
      out.push(new File([gunzip(bytes, f.name) as Uint8Array<ArrayBuffer>], inner));
      continue;
    }
    for (const e of readArchive(bytes, f.name, (path) => keepArchivePath(f.name, path, () => true))) {
      const file = new File([e.bytes as Uint8Array<ArrayBuffer>], e.path.slice(e.path.lastIndexOf('/') + 1));
      Object.defineProperty(file, 'webkitRelativePath', { value: `${f.name}/${e.path}` });
      out.push(file);
    }
  }
  return out;
}

/**
 * The one file an input that takes one structure gets from a pick (Nanoparticle, Compare, AtomWorld): `x.cif.gz` is
 * `x.cif`, an archive holding exactly one file is that file, and one holding none or several is refused with a sentence
 * naming it. A plain file comes back as the same File, so it reads byte for byte as before.
 */
export async function openOneContainer(file: File): Promise<File> {
  const files = await openContainers([file]);
  if (files.length === 1) return files[0];
  const held = files.length === 0 ? 'no files' : `${files.length} files`;
  throw new Error(`${printable(file.name, 120)} holds ${held}, but this input takes one structure file.`);
}

/** openContainers for an input that takes several files (a folder): each archive's files in natural order of their paths. */
export async function openContainersInOrder(files: readonly File[]): Promise<File[]> {
  const out: File[] = [];
  for (const f of files) {
    const opened = await openContainers([f]);
    if (archiveKind(f.name) !== null) opened.sort((a, b) => naturalCompare(filePath(a), filePath(b)));
    out.push(...opened);
  }
  return out;
}
