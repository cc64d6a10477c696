import type { Structure } from '../structure/structure.ts';

export type FormatId = 'cif' | 'poscar' | 'xyz' | 'extxyz' | 'pymatgen-json' | 'xdatcar' | 'jsonl';

/** A parse failure: a message and, where known, the 1-based line it refers to. */
export class ParseError extends Error {
  readonly line?: number;
  constructor(message: string, line?: number) {
    super(message);
    this.name = 'ParseError';
    this.line = line;
  }
}

export interface ParseOutput {
  structures: Structure[];
  /** Non-fatal problems, human sentences (e.g. "line 12: D exponent read as E"). */
  warnings: string[];
}

/** Every format module has the same face: metadata, sniffing, a pure parse and a pure write. */
export interface FormatModule {
  id: FormatId;
  /** Lower-case file-name endings (".cif") or whole base names ("POSCAR") it claims. */
  extensions: string[];
  /** Cheap content test used when the name says nothing. */
  sniff(text: string): boolean;
  /** Throws ParseError on bad input. */
  parse(text: string): ParseOutput;
  /** Serialises one structure; throws Error when the format cannot hold it (e.g. POSCAR without lattice). */
  write(structure: Structure): string;
}

export type ParseResult =
  ({ ok: true; format: FormatId } & ParseOutput) | { ok: false; format: FormatId | null; error: string; line?: number };

// Streamed multi-frame files (io/frame-index.ts indexes them; a format plugs in through FrameFormat).

/** One decoded line: its text (without CR LF), its 1-based number and the byte offset where it starts. */
export interface FrameLine {
  text: string;
  lineNo: number;
  offset: number;
}

/** The lines of the source as a format hook reads them. */
export interface LineSource {
  /** The next line, decoded, or null at the end. */
  line(): Promise<FrameLine | null>;
  /** Skips up to n lines without decoding them; answers how many there were (fewer only at the end). */
  skip(n: number): Promise<number>;
  /** Byte offset of the next line. */
  readonly offset: number;
  /** 1-based number of the next line. */
  readonly lineNo: number;
}

/** What a format hook reports of one frame; the index adds its byte range. */
export interface FrameHeader {
  atoms: number;
  values: [string, number][];
  volume: number | null;
}

export interface FrameFormat {
  name: string;
  /** Reads what precedes the first frame and every frame shares (XDATCAR); absent: frames stand alone. */
  header?(src: LineSource): Promise<void>;
  /** Reads one frame (its header lines decoded, its atom lines skipped); null when the source has no more frames. */
  frame(src: LineSource, k: number): Promise<FrameHeader | null>;
}
