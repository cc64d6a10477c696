/**
 * A frame index of a multi-frame structure file, built from chunks (a Blob.slice in a worker, a Buffer in Node) so
 * a trajectory of hundreds of megabytes is never one string: each frame's byte range, its atom count and the cheap
 * values of its header (extended XYZ `key=value` numbers such as energy, and the cell volume from `Lattice=`).
 * One pass, linear in the bytes: header lines are decoded, atom lines are only counted (a newline search).
 *
 * Formats plug in through FrameFormat (XYZ / extended XYZ here; a VASP XDATCAR hook reads its shared header and
 * its `configuration` lines the same way). A frame's bytes — with the shared header's in front, where the format
 * has one — are a file the ordinary reader parses (src/core/io/registry.ts), so frames read on demand are read
 * exactly as a whole file would be.
 */
import { det, mat3 } from '../math/mat3.ts';
import { checkLimit, LIMITS, limitSentence } from '../limits.ts';
import type { Structure } from '../structure/structure.ts';
import { parseStructureFile } from './registry.ts';
import { type FrameFormat, type FrameLine, type LineSource, ParseError } from './types.ts';
import { splitKeyValues, typeValue } from './xyz.ts';
import { xdatcarFrameFormat } from './xdatcar.ts';

/** Bytes [start, end) of the source; fewer only at its end. */
export type ChunkReader = (start: number, end: number) => Promise<Uint8Array>;

export interface ByteRange {
  offset: number;
  length: number;
}

export interface IndexedFrame extends ByteRange {
  /** 1-based number of the frame's first line in the file (a frame read alone reports its errors from here). */
  line: number;
  atoms: number;
  /** The header's numeric values by name (energy, free_energy, …), in the order they appear. */
  values: [string, number][];
  /** |det| of the frame's cell, Å³; null for a frame without one. */
  volume: number | null;
}

export interface FrameIndex {
  format: string;
  /** Bytes of the whole source. */
  bytes: number;
  /** Bytes every frame needs in front of its own to read as a file (XDATCAR's title, cell and species); else null. */
  header: ByteRange | null;
  frames: IndexedFrame[];
}

const DEFAULT_CHUNK = 4 * 1024 * 1024;
const NL = 10;
const CR = 13;

/** Lines over a ChunkReader: one chunk held at a time (plus the pieces of a header line that crosses chunks). */
class ChunkLines implements LineSource {
  private buf: Uint8Array = new Uint8Array(0);
  private bufStart = 0;
  private pos = 0;
  private next = 1;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    private readonly read: ChunkReader,
    private readonly size: number,
    private readonly chunk: number,
  ) {}

  get offset(): number {
    return this.bufStart + this.pos;
  }

  get lineNo(): number {
    return this.next;
  }

  /** Loads the chunk after the current one; false at the end of the source. */
  private async fill(): Promise<boolean> {
    const start = this.bufStart + this.buf.length;
    if (start >= this.size) return false;
    const bytes = await this.read(start, Math.min(this.size, start + this.chunk));
    if (bytes.length === 0) throw new Error(`the source ended at byte ${start} of ${this.size}`);
    this.bufStart = start;
    this.buf = bytes;
    this.pos = 0;
    return true;
  }

  async line(): Promise<FrameLine | null> {
    const offset = this.offset;
    const pieces: Uint8Array[] = [];
    let length = 0;
    for (;;) {
      if (this.pos >= this.buf.length && !(await this.fill())) break;
      const nl = this.buf.indexOf(NL, this.pos);
      const end = nl < 0 ? this.buf.length : nl;
      pieces.push(this.buf.subarray(this.pos, end));
      length += end - this.pos;
      checkLimit('trajectoryLineBytes', `Line ${this.next}`, length, 'bytes');
      this.pos = nl < 0 ? end : nl + 1;
      if (nl >= 0) break;
    }
    if (pieces.length === 0) return null;
    let bytes = pieces.length === 1 ? pieces[0] : concat(pieces, length);
    if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    return { text: this.decoder.decode(bytes), lineNo: this.next++, offset };
  }

  async skip(n: number): Promise<number> {
    let done = 0;
    let partial = false;
    while (done < n) {
      if (this.pos >= this.buf.length) {
        if (!(await this.fill())) break;
      }
      const nl = this.buf.indexOf(NL, this.pos);
      if (nl < 0) {
        partial = true;
        this.pos = this.buf.length;
        continue;
      }
      this.pos = nl + 1;
      partial = false;
      done++;
      this.next++;
    }
    // A last line without a newline is a line.
    if (partial && done < n) {
      done++;
      this.next++;
    }
    return done;
  }
}

function concat(pieces: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eEdD][+-]?\d+)?$/;

/** The numeric values and the cell volume of an extended XYZ comment line; a plain comment has none. */
function commentValues(comment: string, lineNo: number): { values: [string, number][]; volume: number | null } {
  const values: [string, number][] = [];
  let volume: number | null = null;
  if (!comment.includes('=')) return { values, volume };
  let pairs: ReturnType<typeof splitKeyValues>;
  try {
    pairs = splitKeyValues(comment, lineNo);
  } catch {
    // A comment the reader refuses is reported when that frame is read; its header has no values here.
    return { values, volume };
  }
  for (const { key, value } of pairs) {
    if (value === null) continue;
    const lower = key.toLowerCase();
    if (lower === 'lattice') {
      const v = value.split(/[\s,]+/).filter((t) => t !== '');
      if (v.length === 9 && v.every((t) => NUMBER.test(t))) {
        const m = v.map((t) => Number(t.replace(/[dD]/, 'e')));
        const vol = Math.abs(det(mat3([m.slice(0, 3), m.slice(3, 6), m.slice(6, 9)])));
        volume = Number.isFinite(vol) ? vol : null;
      }
    } else if (lower !== 'properties' && lower !== 'pbc') {
      const typed = typeValue(value);
      if (typeof typed === 'number' && Number.isFinite(typed) && !values.some(([name]) => name === key)) values.push([key, typed]);
    }
  }
  return { values, volume };
}

/** The atom count of an XYZ count line, as the reader reads it (src/core/io/xyz.ts readCount). */
function xyzCount(line: FrameLine): number {
  const first = line.text.trim().split(/\s+/)[0];
  if (!first || first.length > LIMITS.numberChars || !/^\d+$/.test(first))
    throw new ParseError(`Expected the number of atoms of an XYZ frame, not "${line.text.trim().slice(0, 40)}".`, line.lineNo);
  const count = Number(first);
  if (count > LIMITS.atoms) throw new ParseError(`${limitSentence('The XYZ frame', count, LIMITS.atoms, 'atoms', 'atoms')}.`, line.lineNo);
  return count;
}

/** XYZ and extended XYZ: a count line, a comment line (extended XYZ: key=value pairs), `count` atom lines. */
export const XYZ_FRAMES: FrameFormat = {
  name: 'xyz',
  async frame(src) {
    let first = await src.line();
    // Blank lines between frames are skipped, as the reader skips them.
    while (first && first.text.trim() === '') first = await src.line();
    if (!first) return null;
    const count = xyzCount(first);
    const comment = await src.line();
    if (!comment)
      throw new ParseError(`The file ends after the atom count on line ${first.lineNo}; the comment line is missing.`, first.lineNo + 1);
    const found = await src.skip(count);
    if (found < count)
      throw new ParseError(
        `The frame starting on line ${first.lineNo} declares ${count} atoms but the file ends after ${found}.`,
        src.lineNo,
      );
    return { atoms: count, ...commentValues(comment.text, comment.lineNo) };
  },
};

export interface IndexOptions {
  /** Bytes read per chunk (tests use a few, to put chunk boundaries everywhere). */
  chunkBytes?: number;
  /** Called now and then with the bytes indexed so far. */
  onProgress?: (bytesDone: number) => void | Promise<void>;
}

/**
 * Indexes `size` bytes read through `read` as frames of `format`. Throws ParseError (with the line) for a file the
 * reader would refuse for its frame structure (a bad or truncated count), LimitError past trajectoryBytes or
 * trajectoryFrames. A frame's atom lines are checked when the frame itself is read.
 */
export async function indexFrames(read: ChunkReader, size: number, format: FrameFormat, options: IndexOptions = {}): Promise<FrameIndex> {
  checkLimit('trajectoryBytes', 'The trajectory', size, 'bytes');
  const src = new ChunkLines(read, size, Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK));
  let header: ByteRange | null = null;
  if (format.header) {
    await format.header(src);
    header = { offset: 0, length: src.offset };
  }
  const frames: IndexedFrame[] = [];
  let reported = 0;
  for (;;) {
    const offset = src.offset;
    const line = src.lineNo;
    const f = await format.frame(src, frames.length);
    if (!f) break;
    if (frames.length >= LIMITS.trajectoryFrames)
      throw new ParseError(`${limitSentence('The trajectory', null, LIMITS.trajectoryFrames, 'frames', 'trajectoryFrames')}.`, src.lineNo);
    frames.push({ offset, length: src.offset - offset, line, ...f });
    if (options.onProgress && src.offset - reported >= 16 * 1024 * 1024) {
      reported = src.offset;
      await options.onProgress(reported);
    }
  }
  if (frames.length === 0) throw new ParseError('The file holds no frames.', 1);
  return { format: format.name, bytes: size, header, frames };
}

/** The per-frame series of an index: every value all frames carry, then the cell volume when every frame has a cell. */
export function indexSeries(index: FrameIndex): { name: string; values: number[] }[] {
  const out: { name: string; values: number[] }[] = [];
  const frames = index.frames;
  for (const [name] of frames[0]?.values ?? []) {
    const values: number[] = [];
    for (const f of frames) {
      const hit = f.values.find(([n]) => n === name);
      if (!hit) break;
      values.push(hit[1]);
    }
    if (values.length === frames.length) out.push({ name, values });
  }
  if (frames.length > 0 && frames.every((f) => f.volume !== null)) out.push({ name: 'volume (Å³)', values: frames.map((f) => f.volume!) });
  return out;
}

/**
 * Frame k of an index, from its text (the shared header's, then the frame's own): the reader's structure, named as
 * the whole file's reader names it (`frame k+1` without a name of its own), its errors on the whole file's lines.
 */
export function readFrame(text: string, fileName: string, index: FrameIndex, k: number): Structure {
  const frame = index.frames[k];
  const r = parseStructureFile(text, fileName);
  if (!r.ok) {
    const shift = index.header ? 0 : frame.line - 1;
    throw new ParseError(r.error, r.line === undefined ? undefined : r.line + shift);
  }
  const s = r.structures[0];
  if (r.structures.length !== 1) throw new ParseError(`Frame ${k + 1} reads as ${r.structures.length} structures.`, frame.line);
  return s.name === 'frame 1' ? { ...s, name: `frame ${k + 1}` } : s;
}

/** The frame format of a file the lab can stream, by its name; null for the others (read whole). */
export function frameFormatFor(fileName: string): FrameFormat | null {
  if (/\.(ext)?xyz$/i.test(fileName)) return XYZ_FRAMES;
  // VASP names it XDATCAR; copies are often XDATCAR_300K, run1.XDATCAR: any name holding it, as the registry chooses.
  return fileName.toLowerCase().includes('xdatcar') ? xdatcarFrameFormat() : null;
}

/** File names in natural order: digit runs compare as numbers (frame_2 before frame_10), then as text. */
export function naturalCompare(a: string, b: string): number {
  const parts = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === y) continue;
    const dx = /^\d/.test(x);
    const dy = /^\d/.test(y);
    if (dx && dy) {
      // Compared as numbers without converting (a digit run may be longer than a double holds).
      const tx = x.replace(/^0+(?=\d)/, '');
      const ty = y.replace(/^0+(?=\d)/, '');
      if (tx.length !== ty.length) return tx.length - ty.length;
      if (tx !== ty) return tx < ty ? -1 : 1;
      return x.length - y.length;
    }
    return x < y ? -1 : 1;
  }
  return pa.length - pb.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** A ChunkReader over bytes already in memory (Node, tests). */
export const bytesReader =
  (bytes: Uint8Array): ChunkReader =>
  (start, end) =>
    Promise.resolve(bytes.subarray(start, end));
