/**
 * Reading a tar archive (POSIX ustar, GNU tar and pax, as Python's tarfile and GNU tar write them: CrystaLLM ships its
 * CIFs as a `.tar.gz`) within the resource limits. Every 512-byte header's checksum is verified; GNU long names
 * ('L') and pax extended headers ('x': path, size) apply to the entry that follows. Only regular files are read: a
 * link, a device or a FIFO is bad input, as is a path that leaves the archive's folder (checked by `keep`, see
 * archive-entries.ts); directories are skipped. The entry count is held to LIMITS.fileStructures as it is walked;
 * the bytes are the archive's own (a tar does not compress; a .tar.gz is inflated within its limit by gzip.ts).
 */
import { LIMITS, LimitError, limitSentence, printable } from '../limits.ts';
import { type ArchiveEntry, entryName } from './archive-entries.ts';
import { ParseError } from './types.ts';

const BLOCK = 512;
/** Bytes of a GNU long name or a pax header kept at most: real ones are a few hundred bytes. */
const META_BYTES = 1024 * 1024;

const utf8 = new TextDecoder('utf-8');

/** A NUL-terminated text field. */
function field(block: Uint8Array, from: number, length: number): string {
  const bytes = block.subarray(from, from + length);
  const nul = bytes.indexOf(0);
  return utf8.decode(nul < 0 ? bytes : bytes.subarray(0, nul));
}

/** A numeric field: octal digits (padded by spaces or NULs), or GNU's base-256 (high bit set); null when neither. */
function numberField(block: Uint8Array, from: number, length: number): number | null {
  if (block[from] & 0x80) {
    if (block[from] !== 0x80) return null; // negative or ≥ 2^(8·(length-1)): no real size
    let n = 0;
    for (let i = from + 1; i < from + length; i++) n = n * 256 + block[i];
    return Number.isSafeInteger(n) ? n : null;
  }
  const text = String.fromCharCode(...block.subarray(from, from + length))
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  return /^[0-7]{1,22}$/.test(text) ? parseInt(text, 8) : text === '' ? 0 : null;
}

/** pax extended header records ("LEN key=value\n", LEN counting the whole record); null when malformed. */
function paxRecords(bytes: Uint8Array): Map<string, string> | null {
  const out = new Map<string, string>();
  let p = 0;
  while (p < bytes.length) {
    if (bytes[p] === 0) break; // NUL padding after the last record
    let q = p,
      len = 0;
    while (q < bytes.length && bytes[q] >= 0x30 && bytes[q] <= 0x39 && q - p < 8) len = len * 10 + bytes[q++] - 0x30;
    if (q === p || bytes[q] !== 0x20 || len <= q - p + 1 || p + len > bytes.length || bytes[p + len - 1] !== 0x0a) return null;
    const record = utf8.decode(bytes.subarray(q + 1, p + len - 1));
    const eq = record.indexOf('=');
    if (eq <= 0) return null;
    out.set(record.slice(0, eq), record.slice(eq + 1));
    p += len;
  }
  return out;
}

/** '/' parts without '.' and empty ones ("./pred//x.cif" → "pred/x.cif"); a leading '/' is kept, so an absolute path stays one. */
function normalPath(raw: string): string {
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  return (raw.startsWith('/') ? '/' : '') + parts.join('/');
}

/**
 * The regular files of a tar archive that `keep` accepts (by path), in archive order. `name` names the archive in
 * messages. Throws ParseError for a damaged or truncated archive, a header failing its checksum, a link, a device;
 * LimitError past LIMITS.fileStructures entries.
 */
export function readTar(data: Uint8Array, name: string, keep: (path: string) => boolean = () => true): ArchiveEntry[] {
  const fail = (what: string): never => {
    throw new ParseError(`${name} is not a readable tar archive (${what})`);
  };
  const out: ArchiveEntry[] = [];
  let count = 0;
  let longName: string | null = null;
  let pax: Map<string, string> | null = null;
  let at = 0;
  for (;;) {
    if (at === data.length) break; // no end-of-archive blocks: tarfile and GNU tar accept this too
    if (at + BLOCK > data.length) fail(`the header at byte ${at} is cut short`);
    const block = data.subarray(at, at + BLOCK);
    if (block.every((b) => b === 0)) break; // end of archive
    const stored = numberField(block, 148, 8);
    let unsigned = 0,
      signed = 0;
    for (let i = 0; i < BLOCK; i++) {
      const b = i >= 148 && i < 156 ? 0x20 : block[i];
      unsigned += b;
      signed += b > 127 ? b - 256 : b;
    }
    // Some old tars summed signed bytes; both are accepted, as tarfile accepts them.
    if (stored === null || (stored !== unsigned && stored !== signed)) fail(`the header at byte ${at} fails its checksum`);
    const type = String.fromCharCode(block[156]);
    const ustar = String.fromCharCode(...block.subarray(257, 263));
    let size = numberField(block, 124, 12);
    // POSIX ustar splits long names into prefix/name; GNU tar ("ustar  ") uses those bytes for other fields.
    const prefix = ustar === 'ustar\0' ? field(block, 345, 155) : '';
    const raw = longName ?? pax?.get('path') ?? (prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100));
    const paxSize = pax?.get('size');
    if (paxSize !== undefined) size = /^[0-9]{1,16}$/.test(paxSize) ? Number(paxSize) : null;
    if (size === null) fail(`the header at byte ${at} has no readable size`);
    const start = at + BLOCK;
    if (start + size! > data.length) fail(`${entryName(normalPath(raw))} is cut short`);
    const bytes = data.subarray(start, start + size!);
    at = start + Math.ceil(size! / BLOCK) * BLOCK;
    if (type === 'L' || type === 'x' || type === 'K' || type === 'g') {
      if (size! > META_BYTES) fail(`the header at byte ${start - BLOCK} declares ${size} bytes of names`);
      if (type === 'L') longName = field(bytes, 0, bytes.length);
      else if (type === 'x') pax = paxRecords(bytes) ?? fail(`the pax header at byte ${start - BLOCK} is malformed`);
      continue; // 'K' (a long link name) and 'g' (global pax settings) name no entry's path
    }
    longName = null;
    pax = null;
    if (++count > LIMITS.fileStructures)
      throw new LimitError('fileStructures', limitSentence(name, count, LIMITS.fileStructures, 'entries', 'fileStructures'));
    const path = normalPath(raw);
    // V7 tars mark a folder as a regular file whose name ends in '/'.
    if (type === '5' || ((type === '0' || type === '\0') && raw.endsWith('/'))) continue;
    if (type === '1' || type === '2')
      throw new ParseError(`${name} holds ${entryName(path)}, a link; only regular files are read from an archive`);
    if (type !== '0' && type !== '\0' && type !== '7')
      throw new ParseError(
        `${name} holds ${entryName(path)} of tar type "${printable(type)}", not a regular file; only regular files are read`,
      );
    if (path === '') fail(`the header at byte ${start - BLOCK} names no file`);
    if (keep(path)) out.push({ path, bytes: bytes.slice() });
  }
  return out;
}
