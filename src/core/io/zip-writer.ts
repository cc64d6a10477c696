/**
 * Writing a .zip archive of stored (uncompressed) entries: the lab's PNG sequences, whose PNGs are compressed already.
 * The layout is PKWARE's APPNOTE.TXT (sections 4.3.7 local file header, 4.3.12 central directory header, 4.3.16 end of
 * central directory record), without zip64: an archive is refused past 4 GiB or 65,535 entries. zip.ts reads it back.
 */
import { crc32 } from './archive-entries.ts';

export interface ZipEntryInput {
  /** The entry's path inside the archive ("/" between folders), ASCII or UTF-8. */
  name: string;
  data: Uint8Array;
}

/** MS-DOS date and time (APPNOTE 4.4.6) of `date`, in its local time as zip tools read it; 1980 is the earliest. */
function dosDateTime(date: Date): { time: number; day: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    day: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** The archive of `entries`, in order, stored (method 0), each with its CRC-32; `date` is every entry's modification time. */
export function writeZip(entries: readonly ZipEntryInput[], date = new Date()): Uint8Array {
  if (entries.length > 0xffff) throw new RangeError(`a zip without zip64 holds at most 65,535 entries, not ${entries.length}`);
  const { time, day } = dosDateTime(date);
  const encoder = new TextEncoder();
  const names = entries.map((e) => encoder.encode(e.name));
  const localSize = entries.reduce((n, e, k) => n + 30 + names[k].length + e.data.length, 0);
  const centralSize = names.reduce((n, name) => n + 46 + name.length, 0);
  const total = localSize + centralSize + 22;
  if (total > 0xffffffff) throw new RangeError('a zip without zip64 holds at most 4 GiB');
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  const utf8 = names.map((name, k) => name.length !== entries[k].name.length); // general purpose bit 11: the name is UTF-8
  const offsets: number[] = [];
  const crcs = entries.map((e) => crc32(e.data));
  let at = 0;
  entries.forEach((e, k) => {
    offsets.push(at);
    view.setUint32(at, 0x04034b50, true);
    view.setUint16(at + 4, 20, true); // version needed: 2.0
    view.setUint16(at + 6, utf8[k] ? 0x0800 : 0, true);
    view.setUint16(at + 8, 0, true); // stored
    view.setUint16(at + 10, time, true);
    view.setUint16(at + 12, day, true);
    view.setUint32(at + 14, crcs[k], true);
    view.setUint32(at + 18, e.data.length, true);
    view.setUint32(at + 22, e.data.length, true);
    view.setUint16(at + 26, names[k].length, true);
    view.setUint16(at + 28, 0, true);
    out.set(names[k], at + 30);
    out.set(e.data, at + 30 + names[k].length);
    at += 30 + names[k].length + e.data.length;
  });
  const dirAt = at;
  entries.forEach((e, k) => {
    view.setUint32(at, 0x02014b50, true);
    view.setUint16(at + 4, 20, true); // made by: MS-DOS attributes, version 2.0
    view.setUint16(at + 6, 20, true);
    view.setUint16(at + 8, utf8[k] ? 0x0800 : 0, true);
    view.setUint16(at + 10, 0, true);
    view.setUint16(at + 12, time, true);
    view.setUint16(at + 14, day, true);
    view.setUint32(at + 16, crcs[k], true);
    view.setUint32(at + 20, e.data.length, true);
    view.setUint32(at + 24, e.data.length, true);
    view.setUint16(at + 28, names[k].length, true);
    // Extra field, comment, disk number, internal and external attributes: none.
    view.setUint32(at + 42, offsets[k], true);
    out.set(names[k], at + 46);
    at += 46 + names[k].length;
  });
  view.setUint32(at, 0x06054b50, true);
  view.setUint16(at + 8, entries.length, true);
  view.setUint16(at + 10, entries.length, true);
  view.setUint32(at + 12, at - dirAt, true);
  view.setUint32(at + 16, dirAt, true);
  return out;
}
