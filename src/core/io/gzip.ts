/**
 * Reading a gzip file (RFC 1952: `test.csv.gz`, `POSCAR.gz`, the outer layer of a `.tar.gz`) within the resource
 * limits. fflate (101arrowz/fflate, MIT) inflates it as a stream, in chunks, and the output is counted as it
 * comes: past LIMITS.inputBytes the read stops there, so a gzip bomb costs neither memory nor time. The trailer's
 * ISIZE (a member's size mod 2³²) is not trusted for that (a file cut short ends in compressed bytes, a forged one
 * lies); after inflating every member's CRC-32 and ISIZE are checked, which a file cut short fails.
 */
import { Gunzip } from 'fflate';
import { LIMITS, LimitError, limitSentence } from '../limits.ts';
import { INFLATE_CHUNK, crc32 } from './archive-entries.ts';
import { ParseError } from './types.ts';

/** Whether `bytes` start as a gzip member does (ID1 ID2 CM = 1f 8b 08). */
export const isGzip = (bytes: Uint8Array): boolean => bytes.length >= 3 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 8;

/**
 * The inflated bytes of the gzip file `data` (all its members, concatenated as gzip(1) writes them). `name` names
 * it in messages. Throws ParseError for a file that is not gzip, is damaged or cut short; LimitError past `limit`.
 */
export function gunzip(data: Uint8Array, name: string, limit: number = LIMITS.inputBytes): Uint8Array {
  const fail = (what: string): never => {
    throw new ParseError(`${name} is not a readable gzip file (${what})`);
  };
  if (!isGzip(data)) fail('no gzip header');
  // Header (10 bytes) and trailer (8 bytes) at least.
  if (data.length < 18) fail('it is cut short');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const u32 = (at: number) => view.getUint32(at, true);
  const overLimit = () => new LimitError('inputBytes', limitSentence(`${name} inflated`, null, limit, 'bytes', 'inputBytes'));
  const chunks: Uint8Array[] = [];
  let total = 0;
  /** [compressed offset, output offset] where each member starts. */
  const members: [number, number][] = [[0, 0]];
  const inflater = new Gunzip((chunk: Uint8Array) => {
    total += chunk.length;
    // Checked while inflating: the limit is all a gzip may produce, whatever its trailer says.
    if (total > limit) throw overLimit();
    chunks.push(chunk);
  });
  inflater.onmember = (offset: number) => members.push([offset, total]);
  try {
    for (let p = 0; p < data.length; p += INFLATE_CHUNK) {
      const last = p + INFLATE_CHUNK >= data.length;
      inflater.push(data.subarray(p, Math.min(data.length, p + INFLATE_CHUNK)), last);
    }
  } catch (err) {
    if (err instanceof LimitError) throw err;
    fail(`${(err as Error).message === 'unexpected EOF' ? 'it is cut short' : (err as Error).message}`);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  for (let k = 0; k < members.length; k++) {
    const [start, outStart] = members[k];
    const end = k + 1 < members.length ? members[k + 1][0] : data.length;
    const outEnd = k + 1 < members.length ? members[k + 1][1] : total;
    const which = members.length > 1 ? `member ${k + 1}` : 'it';
    if (end - start < 18) fail(`${which} is cut short`);
    const bytes = out.subarray(outStart, outEnd);
    if (u32(end - 4) !== bytes.length >>> 0 || u32(end - 8) !== crc32(bytes))
      fail(`${which} fails its CRC-32 and size check: cut short or damaged`);
  }
  return out;
}
