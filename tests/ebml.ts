/**
 * A small EBML reader for the tests, written apart from src/core/io/webm.ts so that the muxer is checked against an
 * independent reading of RFC 8794 (EBML) and RFC 9559 (Matroska): elements as a tree, IDs with their marker bits.
 */

export interface EbmlElement {
  id: number;
  /** Offset of the element's first ID byte, and of its data. */
  start: number;
  dataStart: number;
  size: number;
  children: EbmlElement[];
}

/** The Matroska master elements the tests descend into. */
const MASTER = new Set([
  0x1a45dfa3, // EBML
  0x18538067, // Segment
  0x114d9b74, // SeekHead
  0x4dbb, // Seek
  0x1549a966, // Info
  0x1654ae6b, // Tracks
  0xae, // TrackEntry
  0xe0, // Video
  0x1f43b675, // Cluster
  0xa0, // BlockGroup
  0x1c53bb6b, // Cues
  0xbb, // CuePoint
  0xb7, // CueTrackPositions
]);

function readVint(bytes: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number } {
  const first = bytes[at];
  let length = 1;
  let mask = 0x80;
  while (!(first & mask)) {
    mask >>= 1;
    length++;
    if (length > 8) throw new Error(`bad vint at ${at}`);
  }
  let value = keepMarker ? first : first & (mask - 1);
  for (let k = 1; k < length; k++) value = value * 256 + bytes[at + k];
  return { value, length };
}

/** Every element from `from` to `to`, known sizes only (what the muxer writes). */
export function parseEbml(bytes: Uint8Array, from = 0, to = bytes.length): EbmlElement[] {
  const out: EbmlElement[] = [];
  let at = from;
  while (at < to) {
    const id = readVint(bytes, at, true);
    const size = readVint(bytes, at + id.length, false);
    const dataStart = at + id.length + size.length;
    if (dataStart + size.value > to) throw new Error(`element 0x${id.value.toString(16)} at ${at} runs past its parent`);
    const children = MASTER.has(id.value) ? parseEbml(bytes, dataStart, dataStart + size.value) : [];
    out.push({ id: id.value, start: at, dataStart, size: size.value, children });
    at = dataStart + size.value;
  }
  return out;
}

export const child = (e: EbmlElement, id: number): EbmlElement | undefined => e.children.find((c) => c.id === id);
export const childrenOf = (e: EbmlElement, id: number): EbmlElement[] => e.children.filter((c) => c.id === id);

export function uintOf(bytes: Uint8Array, e: EbmlElement): number {
  let v = 0;
  for (let k = 0; k < e.size; k++) v = v * 256 + bytes[e.dataStart + k];
  return v;
}

export const textOf = (bytes: Uint8Array, e: EbmlElement): string =>
  Buffer.from(bytes.subarray(e.dataStart, e.dataStart + e.size)).toString('latin1');

export function floatOf(bytes: Uint8Array, e: EbmlElement): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset + e.dataStart, e.size);
  return e.size === 4 ? view.getFloat32(0) : view.getFloat64(0);
}

/** What a test checks of a WebM file: header, track, duration and every video block on the absolute timeline. */
export interface WebmSummary {
  docType: string;
  codec: string;
  width: number;
  height: number;
  /** Info's Duration in ms (TimestampScale applied). */
  durationMs: number;
  /** Track DefaultDuration (ns), when present. */
  defaultDurationNs: number | null;
  /** Each block's frame: start time, key flag, and where its bytes lie in the file. */
  blocks: { timeMs: number; key: boolean; offset: number; size: number }[];
  segment: EbmlElement;
}

export function summarizeWebm(bytes: Uint8Array): WebmSummary {
  const top = parseEbml(bytes);
  const header = top.find((e) => e.id === 0x1a45dfa3);
  const segment = top.find((e) => e.id === 0x18538067);
  if (!header || !segment) throw new Error('no EBML header or Segment');
  const info = child(segment, 0x1549a966)!;
  const scaleEl = child(info, 0x2ad7b1);
  const scaleMs = (scaleEl ? uintOf(bytes, scaleEl) : 1_000_000) / 1e6;
  const entry = child(child(segment, 0x1654ae6b)!, 0xae)!;
  const video = child(entry, 0xe0)!;
  const dd = child(entry, 0x23e383);
  const blocks: WebmSummary['blocks'] = [];
  for (const cluster of childrenOf(segment, 0x1f43b675)) {
    const base = uintOf(bytes, child(cluster, 0xe7)!);
    for (const b of cluster.children) {
      const simple = b.id === 0xa3;
      const block = simple ? b : b.id === 0xa0 ? child(b, 0xa1) : undefined;
      if (!block) continue;
      const track = readVint(bytes, block.dataStart, false);
      const head = block.dataStart + track.length;
      const rel = new DataView(bytes.buffer, bytes.byteOffset + head, 2).getInt16(0);
      const key = simple ? (bytes[head + 2] & 0x80) !== 0 : !child(b, 0xfb);
      blocks.push({ timeMs: (base + rel) * scaleMs, key, offset: head + 3, size: block.size - track.length - 3 });
    }
  }
  return {
    docType: textOf(bytes, child(header, 0x4282)!),
    codec: textOf(bytes, child(entry, 0x86)!),
    width: uintOf(bytes, child(video, 0xb0)!),
    height: uintOf(bytes, child(video, 0xba)!),
    durationMs: floatOf(bytes, child(info, 0x4489)!) * scaleMs,
    defaultDurationNs: dd ? uintOf(bytes, dd) : null,
    blocks,
    segment,
  };
}
