/**
 * What the archive readers (zip.ts, tar.ts) have in common: the one shape of an archive's files, the one rule
 * for which entries a reader of structure files keeps, the deepest folder holding them, and their text.
 */
import { printable } from '../limits.ts';
import { ParseError } from './types.ts';

/** One regular file of an archive, inflated. */
export interface ArchiveEntry {
  /** The entry's path as stored, '/' separated. */
  path: string;
  bytes: Uint8Array;
}

/** Compressed bytes handed to an inflater at once: each push inflates to at most ~1,032 times this. */
export const INFLATE_CHUNK = 16 * 1024;

let crcTable: Uint32Array | null = null;
/** CRC-32 (ISO 3309, as zip and gzip store it) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** How a message names an entry: `the entry "pred/x.cif"`. */
export const entryName = (path: string): string => `the entry "${printable(path, 120)}"`;

/**
 * Whether an archive entry is kept: never a path that leaves the archive's folder (absolute, a drive letter or a
 * '..' part: such an archive was made to escape it), which is bad input (ParseError naming `archive`); not
 * `__MACOSX/` (macOS resource forks) nor a path with a part starting with '.' (.git, .DS_Store, AppleDouble `._x`);
 * otherwise as `wanted` says of the path.
 */
export function keepArchivePath(archive: string, path: string, wanted: (path: string) => boolean): boolean {
  const parts = path.split('/');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || parts.includes('..'))
    throw new ParseError(`${archive} holds the entry "${printable(path, 120)}", whose path leaves the archive's folder`);
  if (parts.some((p) => p === '__MACOSX' || p.startsWith('.'))) return false;
  return wanted(path);
}

/** The deepest folder ("a/b/", or "" for the archive's root) that holds every one of `paths` (not empty). */
export function commonFolder(paths: readonly string[]): string {
  let prefix = paths[0].slice(0, paths[0].lastIndexOf('/') + 1);
  for (const p of paths) while (!p.startsWith(prefix)) prefix = prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
  return prefix;
}

/** Text of an entry: a UTF-8 byte-order mark is dropped and UTF-16 with a byte-order mark is decoded (as the CLI reads files). */
export function entryText(bytes: Uint8Array): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const text = new TextDecoder('utf-8').decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
