/**
 * Reading a .zip archive within the resource limits, for inputs people hand over zipped (a folder of CIFs,
 * one JSONL file). The central directory is read here; fflate (101arrowz/fflate, MIT) inflates each entry as a
 * stream. Sizes are checked from the central directory before anything is inflated (LIMITS.inputBytes for the
 * total, LIMITS.fileStructures for the entry count) and again while inflating: an entry that inflates past the
 * size its header declares is refused at that point, so a zip bomb costs neither memory nor time. The entries'
 * shape and the rule for which are kept are shared with tar.ts (archive-entries.ts).
 */
import { Inflate } from 'fflate';
import { LIMITS, LimitError, limitSentence } from '../limits.ts';
import { type ArchiveEntry, INFLATE_CHUNK, crc32, entryName } from './archive-entries.ts';
import { ParseError } from './types.ts';

const EOCD = 0x06054b50,
  CENTRAL = 0x02014b50,
  LOCAL = 0x04034b50;

interface CentralEntry {
  path: string;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/**
 * The entries of a zip archive that `keep` accepts (by path; directories are never kept), inflated, in the
 * central directory's order. `name` names the archive in messages. Throws ParseError for a damaged, encrypted or
 * zip64 archive and for an entry whose data does not match its header; LimitError past the limits.
 */
export function readZip(data: Uint8Array, name: string, keep: (path: string) => boolean = () => true): ArchiveEntry[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const fail = (what: string): never => {
    throw new ParseError(`${name} is not a readable zip archive (${what})`);
  };
  // The end-of-central-directory record: the last 22 bytes, or earlier when the archive carries a comment (≤ 65,535 bytes).
  let end = -1;
  for (let at = data.length - 22; at >= 0 && at >= data.length - 22 - 65_535; at--) {
    if (u32(at) === EOCD) {
      end = at;
      break;
    }
  }
  if (end < 0) fail('no end-of-central-directory record');
  const count = u16(end + 10);
  const dirOffset = u32(end + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) fail('zip64 archives are not supported');
  if (count > LIMITS.fileStructures)
    throw new LimitError('fileStructures', limitSentence(name, count, LIMITS.fileStructures, 'entries', 'fileStructures'));
  const entries: CentralEntry[] = [];
  let at = dirOffset;
  for (let k = 0; k < count; k++) {
    if (at + 46 > data.length || u32(at) !== CENTRAL) fail(`central directory entry ${k + 1} is damaged`);
    const nameLength = u16(at + 28);
    if (at + 46 + nameLength > data.length) fail(`central directory entry ${k + 1} is damaged`);
    const flags = u16(at + 8);
    // Bit 11: the name is UTF-8; otherwise CP437, read here as Latin-1 (exact for ASCII names).
    const rawName = data.subarray(at + 46, at + 46 + nameLength);
    const path = (flags & 0x800 ? new TextDecoder('utf-8').decode(rawName) : String.fromCharCode(...rawName)).replace(/\\/g, '/');
    entries.push({
      path,
      method: u16(at + 10),
      flags,
      crc: u32(at + 16),
      compressedSize: u32(at + 20),
      size: u32(at + 24),
      localOffset: u32(at + 42),
    });
    at += 46 + nameLength + u16(at + 30) + u16(at + 32);
  }
  const kept = entries.filter((e) => !e.path.endsWith('/') && keep(e.path));
  // Before inflating anything: the sizes the headers declare.
  let declared = 0;
  for (const e of kept) {
    if (e.size === 0xffffffff || e.compressedSize === 0xffffffff) fail(`${entryName(e.path)} needs zip64, which is not supported`);
    declared += e.size;
  }
  if (declared > LIMITS.inputBytes)
    throw new LimitError('inputBytes', limitSentence(`${name} inflated`, declared, LIMITS.inputBytes, 'bytes', 'inputBytes'));
  return kept.map((e) => ({ path: e.path, bytes: inflateEntry(data, e, name, u16, u32, fail) }));
}

function inflateEntry(
  data: Uint8Array,
  e: CentralEntry,
  name: string,
  u16: (at: number) => number,
  u32: (at: number) => number,
  fail: (what: string) => never,
): Uint8Array {
  const which = entryName(e.path);
  if (e.flags & 1) fail(`${which} is encrypted`);
  if (e.localOffset + 30 > data.length || u32(e.localOffset) !== LOCAL) fail(`${which} has no local header`);
  const start = e.localOffset + 30 + u16(e.localOffset + 26) + u16(e.localOffset + 28);
  if (start + e.compressedSize > data.length) fail(`${which} is cut short`);
  const raw = data.subarray(start, start + e.compressedSize);
  let out: Uint8Array;
  if (e.method === 0) {
    if (raw.length !== e.size) fail(`${which} is stored with a size that does not match its header`);
    out = raw.slice();
  } else if (e.method === 8) {
    out = new Uint8Array(e.size);
    let filled = 0;
    const inflater = new Inflate((chunk: Uint8Array) => {
      // Checked while inflating: the header's size is all this entry may produce.
      if (filled + chunk.length > e.size) throw new ParseError(`${name}: ${which} inflates past the ${e.size} bytes its header declares`);
      out.set(chunk, filled);
      filled += chunk.length;
    });
    try {
      for (let p = 0; p < raw.length || p === 0; p += INFLATE_CHUNK) {
        const last = p + INFLATE_CHUNK >= raw.length;
        inflater.push(raw.subarray(p, Math.min(raw.length, p + INFLATE_CHUNK)), last);
        if (last) break;
      }
    } catch (err) {
      if (err instanceof ParseError) throw err;
      fail(`${which} cannot be inflated: ${(err as Error).message}`);
    }
    if (filled !== e.size) fail(`${which} inflates to ${filled} bytes, its header declares ${e.size}`);
  } else {
    return fail(`${which} uses compression method ${e.method}; only stored and deflated entries are read`);
  }
  if (crc32(out) !== e.crc) fail(`${which} fails its CRC-32 check`);
  return out;
}
