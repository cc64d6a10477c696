/**
 * WebM for the lab's movies: a muxer that lays encoded VP8/VP9 frames on an exact timeline (frame k at k·1000/fps ms,
 * a Duration in Info, the frame rate as the track's DefaultDuration), and a reader of the video frames of a WebM file,
 * so a browser's MediaRecorder output (timed by the wall clock, no Duration) can be laid on the same timeline again.
 *
 * Element IDs, types and nesting follow the Matroska specification (RFC 9559, "Matroska Schema") and WebM's subset
 * (the WebM Project's "Container Guidelines"); sizes and IDs are EBML variable-size integers (RFC 8794, "Variable-Size
 * Integer"); a SimpleBlock is a track number, a signed 16-bit timestamp relative to its Cluster's and a flags byte
 * (RFC 9559, "SimpleBlock Structure").
 */
import { ParseError } from './types.ts';

/** The Matroska element IDs used here, with their marker bits (RFC 9559, "Matroska Schema"). */
const ID = {
  EBML: 0x1a45dfa3,
  EBMLVersion: 0x4286,
  EBMLReadVersion: 0x42f7,
  EBMLMaxIDLength: 0x42f2,
  EBMLMaxSizeLength: 0x42f3,
  DocType: 0x4282,
  DocTypeVersion: 0x4287,
  DocTypeReadVersion: 0x4285,
  Segment: 0x18538067,
  SeekHead: 0x114d9b74,
  Seek: 0x4dbb,
  SeekID: 0x53ab,
  SeekPosition: 0x53ac,
  Info: 0x1549a966,
  TimestampScale: 0x2ad7b1,
  Duration: 0x4489,
  MuxingApp: 0x4d80,
  WritingApp: 0x5741,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  TrackUID: 0x73c5,
  TrackType: 0x83,
  FlagLacing: 0x9c,
  DefaultDuration: 0x23e383,
  CodecID: 0x86,
  Video: 0xe0,
  PixelWidth: 0xb0,
  PixelHeight: 0xba,
  Cluster: 0x1f43b675,
  Timestamp: 0xe7,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
  ReferenceBlock: 0xfb,
  Cues: 0x1c53bb6b,
  CuePoint: 0xbb,
  CueTime: 0xb3,
  CueTrackPositions: 0xb7,
  CueTrack: 0xf7,
  CueClusterPosition: 0xf1,
} as const;

export type WebmCodec = 'V_VP8' | 'V_VP9';

/** One encoded frame: its bytes and whether it decodes on its own (a key frame). */
export interface WebmFrame {
  data: Uint8Array;
  key: boolean;
}

export interface WebmMovie {
  codec: WebmCodec;
  width: number;
  height: number;
  /** Frames per second: frame k starts at k·1000/fps ms, rounded to the millisecond (the timestamp scale). */
  fps: number;
  frames: readonly WebmFrame[];
}

/** Where frame k starts, in ms: the timeline both the muxer and the recorder use. */
export const frameTimeMs = (k: number, fps: number): number => Math.round((k * 1000) / fps);

// ---- writing ----

/** An element ID's bytes: the ID already carries its length marker (RFC 8794, "Element ID"). */
function idBytes(id: number): number[] {
  const out: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) out.unshift(v & 0xff);
  return out;
}

/** A data size as the shortest variable-size integer; all-ones values mean "unknown" and are skipped. */
function sizeBytes(size: number, width = 0): number[] {
  let length = 1;
  while (size >= 2 ** (7 * length) - 1) length++;
  length = Math.max(length, width);
  if (length > 8) throw new RangeError(`an EBML size of ${size} bytes does not fit 8 octets`);
  const out = new Array<number>(length);
  let v = size;
  for (let k = length - 1; k >= 0; k--) {
    out[k] = v % 256;
    v = Math.floor(v / 256);
  }
  out[0] |= 0x80 >> (length - 1);
  return out;
}

/** An unsigned integer in `width` octets (0: as few as it needs, at least one). */
function uintBytes(value: number, width = 0): number[] {
  const out: number[] = [];
  for (let v = value; v > 0; v = Math.floor(v / 256)) out.unshift(v % 256);
  while (out.length < Math.max(1, width)) out.unshift(0);
  return out;
}

type Part = Uint8Array | number[];

function concat(parts: readonly Part[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const element = (id: number, ...body: Part[]): Uint8Array => {
  const data = concat(body);
  return concat([idBytes(id), sizeBytes(data.length), data]);
};
const uint = (id: number, value: number, width = 0) => element(id, uintBytes(value, width));
const text = (id: number, value: string) =>
  element(
    id,
    Array.from(value, (c) => c.charCodeAt(0) & 0x7f),
  );
function float64(id: number, value: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value);
  return element(id, bytes);
}

/**
 * The WebM file of `movie`: one video track; a Cluster starts at every key frame (and wherever a block's timestamp would
 * no longer fit its 16 bits); Cues point at each Cluster and a SeekHead at Info, Tracks and Cues, so players seek
 * without reading the whole file. The first frame must be a key frame.
 */
export function muxWebm(movie: WebmMovie): Uint8Array {
  const { codec, width, height, fps, frames } = movie;
  if (!(fps > 0)) throw new RangeError(`frames per second must be positive, not ${fps}`);
  if (frames.length === 0) throw new RangeError('a movie needs at least one frame');
  if (!frames[0].key) throw new RangeError('the first frame of a movie must be a key frame');
  const header = element(
    ID.EBML,
    uint(ID.EBMLVersion, 1),
    uint(ID.EBMLReadVersion, 1),
    uint(ID.EBMLMaxIDLength, 4),
    uint(ID.EBMLMaxSizeLength, 8),
    text(ID.DocType, 'webm'),
    uint(ID.DocTypeVersion, 4),
    uint(ID.DocTypeReadVersion, 2),
  );
  const info = element(
    ID.Info,
    uint(ID.TimestampScale, 1_000_000), // 1 ms
    text(ID.MuxingApp, 'StructLab'),
    text(ID.WritingApp, 'StructLab'),
    float64(ID.Duration, (frames.length * 1000) / fps),
  );
  const tracks = element(
    ID.Tracks,
    element(
      ID.TrackEntry,
      uint(ID.TrackNumber, 1),
      uint(ID.TrackUID, 1),
      uint(ID.TrackType, 1), // video
      uint(ID.FlagLacing, 0),
      uint(ID.DefaultDuration, Math.round(1e9 / fps)), // ns
      text(ID.CodecID, codec),
      element(ID.Video, uint(ID.PixelWidth, width), uint(ID.PixelHeight, height)),
    ),
  );
  // Clusters: each a Timestamp and its SimpleBlocks.
  const clusters: { time: number; blocks: Uint8Array[] }[] = [];
  frames.forEach((frame, k) => {
    const time = frameTimeMs(k, fps);
    let cluster = clusters[clusters.length - 1];
    if (!cluster || frame.key || time - cluster.time > 32_767) {
      cluster = { time, blocks: [] };
      clusters.push(cluster);
    }
    const relative = time - cluster.time;
    const head = [0x81, (relative >> 8) & 0xff, relative & 0xff, frame.key ? 0x80 : 0x00]; // track 1, timestamp, flags
    cluster.blocks.push(element(ID.SimpleBlock, head, frame.data));
  });
  const clusterBytes = clusters.map((c) => element(ID.Cluster, uint(ID.Timestamp, c.time), ...c.blocks));
  // The SeekHead's positions are written in 8 octets each, so its size is known before the positions are.
  const seekHead = (positions: number[]) =>
    element(
      ID.SeekHead,
      ...[ID.Info, ID.Tracks, ID.Cues].map((id, k) =>
        element(ID.Seek, element(ID.SeekID, idBytes(id)), uint(ID.SeekPosition, positions[k], 8)),
      ),
    );
  const seekLength = seekHead([0, 0, 0]).length;
  const infoAt = seekLength;
  const tracksAt = infoAt + info.length;
  let at = tracksAt + tracks.length;
  const cuePoints: Uint8Array[] = [];
  clusters.forEach((c, k) => {
    cuePoints.push(
      element(ID.CuePoint, uint(ID.CueTime, c.time), element(ID.CueTrackPositions, uint(ID.CueTrack, 1), uint(ID.CueClusterPosition, at))),
    );
    at += clusterBytes[k].length;
  });
  const cues = element(ID.Cues, ...cuePoints);
  const segment = element(ID.Segment, seekHead([infoAt, tracksAt, at]), info, tracks, ...clusterBytes, cues);
  return concat([header, segment]);
}

// ---- reading ----

/** The video frames of a WebM (or Matroska) file, in file order, and what the track says of them. */
export interface WebmVideo {
  codec: string;
  width: number;
  height: number;
  /** Info's Duration in ms, when the file has one. */
  durationMs: number | null;
  frames: { timeMs: number; key: boolean; data: Uint8Array }[];
}

/** The Segment's own children: an unknown-size Cluster ends where one of these begins (RFC 9559, "Unknown Data Size"). */
const SEGMENT_CHILDREN = new Set<number>([ID.SeekHead, ID.Info, ID.Tracks, ID.Cluster, ID.Cues, 0x1254c367, 0x1941a469, 0x1043a770]);
const MASTERS = new Set<number>([ID.Segment, ID.Info, ID.Tracks, ID.TrackEntry, ID.Video, ID.Cluster, ID.BlockGroup]);

/**
 * Reads the first video track's frames of `data` (`name` names it in errors). Laced blocks are refused (a video
 * track has none in the files browsers write). Throws ParseError for what is not a readable WebM file.
 */
export function readWebm(data: Uint8Array, name: string): WebmVideo {
  const fail = (what: string): never => {
    throw new ParseError(`${name} is not a readable WebM file (${what})`);
  };
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  /** A variable-size integer at `at`: its value (null: the all-ones "unknown") and its length. */
  const vint = (at: number, keepMarker: boolean): { value: number | null; length: number } => {
    if (at >= data.length) fail('it ends inside an element header');
    const first = data[at];
    let length = 1;
    while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
    if (length > 8 || at + length > data.length) fail(`a bad variable-size integer at byte ${at}`);
    let value = keepMarker ? first : first & (0xff >> length);
    let ones = value === 0xff >> length;
    for (let k = 1; k < length; k++) {
      value = value * 256 + data[at + k];
      ones &&= data[at + k] === 0xff;
    }
    return { value: !keepMarker && ones ? null : value, length };
  };
  const readUint = (at: number, size: number) => {
    let v = 0;
    for (let k = 0; k < size; k++) v = v * 256 + data[at + k];
    return v;
  };
  const readText = (at: number, size: number) => String.fromCharCode(...data.subarray(at, at + size)).replace(/\0+$/, '');

  const out: WebmVideo = { codec: '', width: 0, height: 0, durationMs: null, frames: [] };
  // What the walk finds (an object: the walk's closures assign it).
  const found = { scaleNs: 1_000_000, duration: null as number | null, docType: '', videoTrack: -1, clusterTime: 0 };
  let track = { number: 0, type: 0, codec: '', width: 0, height: 0 };
  const blocks: { track: number; time: number; key: boolean; data: Uint8Array }[] = [];

  const block = (at: number, size: number, simple: boolean, keyInGroup: boolean) => {
    const t = vint(at, false);
    const head = at + t.length;
    if (t.value === null || head + 3 > at + size) fail('a block too short for its header');
    const flags = data[head + 2];
    if (flags & 0x06) fail('laced frames in a block');
    blocks.push({
      track: t.value!,
      time: found.clusterTime + view.getInt16(head),
      key: simple ? (flags & 0x80) !== 0 : keyInGroup,
      data: data.slice(head + 3, at + size),
    });
  };

  /** Walks the children of a master element from `at` to `end` (Infinity: unknown size, ends at a Segment child). */
  const walk = (at: number, end: number, parent: number): number => {
    while (at < Math.min(end, data.length)) {
      const id = vint(at, true);
      if (end === Infinity && parent === ID.Cluster && SEGMENT_CHILDREN.has(id.value!)) return at;
      const size = vint(at + id.length, false);
      const body = at + id.length + size.length;
      if (size.value === null && !MASTERS.has(id.value!)) fail(`an element of unknown size at byte ${at}`);
      const stop = size.value === null ? Infinity : body + size.value;
      if (stop !== Infinity && stop > data.length) fail(`an element runs past the end at byte ${at}`);
      switch (id.value) {
        case ID.DocType:
          found.docType = readText(body, size.value!);
          break;
        case ID.TimestampScale:
          found.scaleNs = readUint(body, size.value!);
          break;
        case ID.Duration:
          found.duration = size.value === 4 ? view.getFloat32(body) : size.value === 8 ? view.getFloat64(body) : fail('a bad Duration');
          break;
        case ID.TrackEntry:
          track = { number: 0, type: 0, codec: '', width: 0, height: 0 };
          walk(body, stop, id.value);
          if (track.type === 1 && found.videoTrack < 0) {
            found.videoTrack = track.number;
            Object.assign(out, { codec: track.codec, width: track.width, height: track.height });
          }
          break;
        case ID.TrackNumber:
          track.number = readUint(body, size.value!);
          break;
        case ID.TrackType:
          track.type = readUint(body, size.value!);
          break;
        case ID.PixelWidth:
          track.width = readUint(body, size.value!);
          break;
        case ID.PixelHeight:
          track.height = readUint(body, size.value!);
          break;
        case ID.CodecID:
          track.codec = readText(body, size.value!);
          break;
        case ID.Timestamp:
          if (parent === ID.Cluster) found.clusterTime = readUint(body, size.value!);
          break;
        case ID.SimpleBlock:
          block(body, size.value!, true, false);
          break;
        case ID.BlockGroup: {
          // A Block in a group is a key frame unless the group references another block (RFC 9559, "ReferenceBlock").
          let blockAt = -1,
            blockSize = 0,
            referenced = false;
          for (let c = body; c < stop;) {
            const cid = vint(c, true);
            const cs = vint(c + cid.length, false);
            const cb = c + cid.length + cs.length;
            if (cs.value === null) fail('an unknown size inside a BlockGroup');
            if (cid.value === ID.Block) [blockAt, blockSize] = [cb, cs.value!];
            if (cid.value === ID.ReferenceBlock) referenced = true;
            c = cb + cs.value!;
          }
          if (blockAt >= 0) block(blockAt, blockSize, false, !referenced);
          break;
        }
        case ID.EBML:
        case ID.Segment:
        case ID.Info:
        case ID.Tracks:
        case ID.Video:
        case ID.Cluster: {
          const next = walk(body, stop, id.value);
          if (stop === Infinity) {
            at = next;
            continue;
          }
          break;
        }
        default:
          break;
      }
      if (stop === Infinity) fail(`an element of unknown size at byte ${at}`);
      at = stop;
    }
    return Math.min(end, data.length);
  };
  if (data.length < 4 || view.getUint32(0) !== ID.EBML) fail('no EBML header');
  walk(0, data.length, 0);
  if (found.docType !== 'webm' && found.docType !== 'matroska') fail(`DocType "${found.docType}"`);
  if (found.videoTrack < 0) fail('no video track');
  const ms = found.scaleNs / 1_000_000;
  out.durationMs = found.duration === null ? null : found.duration * ms;
  out.frames = blocks.filter((b) => b.track === found.videoTrack).map((b) => ({ timeMs: b.time * ms, key: b.key, data: b.data }));
  return out;
}
