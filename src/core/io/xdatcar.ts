/**
 * VASP XDATCAR: the positions of an MD run or a relaxation, one structure per frame.
 *
 * A header as a POSCAR's (title, scale, three lattice lines, species names (VASP 5) and atom counts), then blocks of
 * "Direct configuration=     N" and one position per atom. With a fixed cell the header comes once; with a variable
 * cell (ISIF=3) VASP writes it again before every configuration. As pymatgen's Xdatcar (pymatgen/io/vasp/outputs.py)
 * and ASE's read_vasp_xdatcar (ase/io/vasp.py) read it, a frame is the POSCAR made of its header and its block, so the
 * header is read by the POSCAR reader (src/core/io/poscar.ts): a negative scale is the cell volume, Cartesian blocks
 * are scaled. A header followed by another header (no configuration between) is replaced by it: a frame of a
 * variable-cell file cut out with the file's first header in front (src/core/io/frame-index.ts) reads as that frame.
 * A VASP 4 header (no species line) is read only when its title names the elements, as ASE reads such a POSCAR.
 */
import type { Structure } from '../structure/structure.ts';
import { det, mat3 } from '../math/mat3.ts';
import { LIMITS, limitSentence } from '../limits.ts';
import { DECIMAL_NUMBER, quoted, splitLines } from './common.ts';
import { parsePoscar, symbolsFromComment, writePoscar } from './poscar.ts';
import { type FormatModule, type FrameFormat, type FrameHeader, type LineSource, ParseError, type ParseOutput } from './types.ts';

/** The line that opens a block of positions: "Direct configuration=  1", "Cartesian configuration= 1", "Direct". */
const CONFIGURATION = /^\s*(direct|cartesian)\b\s*(configuration\b.*)?$/i;
const isInteger = (t: string | undefined): boolean => t !== undefined && t.length <= LIMITS.numberChars && /^\d+$/.test(t);
const firstToken = (line: string): string | undefined => line.trim().split(/\s+/)[0];

/**
 * Reads a header one line at a time: title, scale, three lattice lines, species lines (not starting with a whole
 * number; VASP 5) and as many count lines (one without species: VASP 4), as the POSCAR reader pairs them. It knows
 * where it ends without looking at the next line, so a streamed index (src/core/io/frame-index.ts) can cut there.
 */
class HeaderScan {
  private n = 0;
  private species = 0;
  private countLines = 0;
  atoms = 0;
  vasp4 = false;
  readonly lattice: number[] = [];
  scale = 1;
  title = '';

  get done(): boolean {
    return this.countLines > 0 && this.countLines >= Math.max(1, this.species);
  }

  push(text: string, lineNo: number): void {
    const k = this.n++;
    if (k === 0) this.title = text.trim();
    else if (k === 1) this.scale = numberOf(firstToken(text), lineNo, 'scale factor');
    else if (k <= 4) {
      const t = text.trim().split(/\s+/);
      if (t.length < 3) throw new ParseError(`Expected 3 numbers (lattice vector) but found ${t.length} values.`, lineNo);
      for (let i = 0; i < 3; i++) this.lattice.push(numberOf(t[i], lineNo, 'lattice vector'));
    } else if (isInteger(firstToken(text))) {
      if (k === 5) this.vasp4 = true;
      this.countLines++;
      for (const t of text.trim().split(/\s+/)) {
        if (!isInteger(t)) break;
        this.atoms += Number(t);
        if (this.atoms > LIMITS.atoms)
          throw new ParseError(`${limitSentence('The XDATCAR frame', this.atoms, LIMITS.atoms, 'atoms', 'atoms')}.`, lineNo);
      }
      if (this.done && this.atoms === 0) throw new ParseError('The XDATCAR header declares no atoms.', lineNo);
    } else if (this.countLines > 0 || text.trim() === '' || CONFIGURATION.test(text) || ++this.species > 10) {
      throw new ParseError(`Expected the atom counts of the XDATCAR header, not ${quoted(text.trim())}.`, lineNo);
    }
  }

  /** The cell volume the header sets, Å³ (a negative scale is the volume itself). */
  volume(): number {
    const raw = Math.abs(det(mat3([this.lattice.slice(0, 3), this.lattice.slice(3, 6), this.lattice.slice(6, 9)])));
    return this.scale < 0 ? -this.scale : raw * Math.abs(this.scale * this.scale * this.scale);
  }
}

function numberOf(token: string | undefined, lineNo: number, what: string): number {
  if (token === undefined) throw new ParseError(`The ${what} is missing.`, lineNo);
  if (token.length > LIMITS.numberChars || !DECIMAL_NUMBER.test(token))
    throw new ParseError(`The value ${quoted(token)} is not a number (${what}).`, lineNo);
  return Number(token.replace(/[dD]/, 'e'));
}

/** Character range [start, end) of the text. */
export interface TextRange {
  start: number;
  end: number;
}

/** One frame of an XDATCAR text: its header (shared or its own) and its block, as character ranges, and its first line. */
export interface XdatcarFrame {
  header: TextRange;
  /** 1-based line of the header's first line. */
  headerLine: number;
  block: TextRange;
  /** 1-based line of the block's configuration line. */
  line: number;
  atoms: number;
}

/** Lines of a text with their character offsets, one at a time (no array of all lines). */
class TextLines {
  offset = 0;
  lineNo = 1;
  constructor(private readonly text: string) {}

  next(): { text: string; lineNo: number; start: number } | null {
    if (this.offset >= this.text.length) return null;
    const start = this.offset;
    let nl = this.text.indexOf('\n', start);
    if (nl < 0) nl = this.text.length;
    const end = nl > start && this.text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    this.offset = nl + 1;
    return { text: this.text.slice(start, end), lineNo: this.lineNo++, start };
  }
}

/**
 * The frames of an XDATCAR text: for each, the header that applies and its block of positions. Linear in the text;
 * throws ParseError (with the line) for a header that cannot be read, a missing configuration line or a block cut
 * short, and past LIMITS.fileStructures frames.
 */
export function xdatcarFrameBoundaries(text: string): XdatcarFrame[] {
  const src = new TextLines(text);
  const frames: XdatcarFrame[] = [];
  let header: TextRange | null = null;
  let headerLine = 1;
  let atoms = 0;
  let line = src.next();
  while (line && line.text.trim() === '') line = src.next();
  if (!line) throw new ParseError('The XDATCAR file is empty.', 1);
  for (;;) {
    // Trailing blank lines end the file.
    while (line && line.text.trim() === '' && header) line = src.next();
    if (!line) break;
    if (!CONFIGURATION.test(line.text) || !header) {
      const scan = new HeaderScan();
      const start = line.start;
      headerLine = line.lineNo;
      for (;;) {
        scan.push(line.text, line.lineNo);
        if (scan.done) break;
        line = src.next();
        if (!line) throw new ParseError('The file ends inside the XDATCAR header.', src.lineNo);
      }
      header = { start, end: src.offset };
      atoms = scan.atoms;
      line = src.next();
      if (!line) throw new ParseError('The file ends after the XDATCAR header; no configuration follows.', src.lineNo);
      continue;
    }
    if (frames.length >= LIMITS.fileStructures)
      throw new ParseError(`${limitSentence('The XDATCAR', null, LIMITS.fileStructures, 'frames', 'fileStructures')}.`, line.lineNo);
    const blockStart = line.start;
    const configLine = line.lineNo;
    for (let i = 0; i < atoms; i++) {
      const pos = src.next();
      if (!pos || pos.text.trim() === '' || CONFIGURATION.test(pos.text))
        throw new ParseError(
          `Expected ${atoms} atom positions after the configuration on line ${configLine} but found ${i}.`,
          configLine + i + 1,
        );
    }
    frames.push({ header, headerLine, block: { start: blockStart, end: src.offset }, line: configLine, atoms });
    line = src.next();
  }
  if (frames.length === 0) throw new ParseError('The XDATCAR holds no configuration.', src.lineNo);
  return frames;
}

/** Text of a range, ending with a newline. */
const slice = (text: string, r: TextRange): string => {
  const s = text.slice(r.start, r.end);
  return s.endsWith('\n') ? s : `${s}\n`;
};

/** Every frame of an XDATCAR as a structure (named "frame N", the title kept as the comment). */
export function parseXdatcar(text: string): ParseOutput {
  const frames = xdatcarFrameBoundaries(text);
  const warnings = new Set<string>();
  let atoms = 0;
  let lastHeader: TextRange | null = null;
  const structures = frames.map((f, k): Structure => {
    atoms += f.atoms;
    if (atoms > LIMITS.fileAtoms)
      throw new ParseError(`${limitSentence('The XDATCAR', atoms, LIMITS.fileAtoms, 'atoms in all its frames', 'fileAtoms')}.`, f.line);
    const head = slice(text, f.header);
    const headLines = splitLines(head).length - 1;
    if (f.header !== lastHeader) checkSpecies(head, f.headerLine);
    lastHeader = f.header;
    let out: ParseOutput;
    try {
      out = parsePoscar(head + slice(text, f.block));
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      // Lines of the POSCAR made for the frame back to the file's.
      const at = e.line === undefined ? undefined : e.line <= headLines ? f.headerLine + e.line - 1 : f.line + e.line - headLines - 1;
      throw new ParseError(e.message.replace(/\bPOSCAR\b/g, 'XDATCAR frame'), at);
    }
    for (const w of out.warnings) warnings.add(w.replace(/^line (\d+)/, (_, n: string) => `frame ${k + 1} line ${Number(n)}`));
    const s = out.structures[0];
    return { ...s, name: `frame ${k + 1}`, properties: { comment: s.name } };
  });
  return { structures, warnings: [...warnings] };
}

/** A VASP 4 header (counts on line 6) is read only when its title names the elements, one per count. */
function checkSpecies(head: string, headerLine: number): void {
  const lines = splitLines(head);
  if (!isInteger(firstToken(lines[5] ?? ''))) return;
  const counts = (lines[5] ?? '').trim().split(/\s+/).filter(isInteger).length;
  if (symbolsFromComment(lines[0]).length < counts) {
    throw new ParseError(
      `The XDATCAR header has no species line (VASP 4) and its title names fewer than ${counts} elements; ` +
        'add the element names above the atom counts (VASP 5).',
      headerLine + 5,
    );
  }
}

/**
 * The frame hooks of src/core/io/frame-index.ts for an XDATCAR streamed in chunks: the first header is the index's
 * shared header; each frame is its configuration block, preceded by its own header in a variable-cell file (the
 * reader above reads "first header + own header + block" as that frame). A fresh object per index: it keeps the
 * line that ended a header between calls.
 */
export function xdatcarFrameFormat(): FrameFormat {
  let atoms = 0;
  let volume: number | null = null;
  const readHeader = async (src: LineSource, first: { text: string; lineNo: number }): Promise<void> => {
    const scan = new HeaderScan();
    for (let line: { text: string; lineNo: number } | null = first; ;) {
      scan.push(line.text, line.lineNo);
      if (scan.done) break;
      line = await src.line();
      if (!line) throw new ParseError('The file ends inside the XDATCAR header.', src.lineNo);
    }
    atoms = scan.atoms;
    const v = scan.volume();
    volume = Number.isFinite(v) ? v : null;
  };
  return {
    name: 'xdatcar',
    async header(src) {
      let first = await src.line();
      while (first && first.text.trim() === '') first = await src.line();
      if (!first) throw new ParseError('The XDATCAR file is empty.', 1);
      await readHeader(src, first);
    },
    async frame(src): Promise<FrameHeader | null> {
      let line = await src.line();
      while (line && line.text.trim() === '') line = await src.line();
      if (!line) return null;
      if (!CONFIGURATION.test(line.text)) {
        await readHeader(src, line);
        line = await src.line();
        if (!line || !CONFIGURATION.test(line.text))
          throw new ParseError(
            'Expected a configuration line ("Direct configuration= N") after the XDATCAR header.',
            line?.lineNo ?? src.lineNo,
          );
      }
      const configLine = line.lineNo;
      const found = await src.skip(atoms);
      if (found < atoms)
        throw new ParseError(
          `Expected ${atoms} atom positions after the configuration on line ${configLine} but found ${found}.`,
          src.lineNo,
        );
      return { atoms, values: [], volume };
    },
  };
}

/** One structure as a one-frame XDATCAR (VASP 5 header, Direct coordinates). */
export function writeXdatcar(structure: Structure): string {
  const poscar = writePoscar(structure).split('\n');
  // writePoscar: comment, scale, 3 lattice lines, species, counts, [Selective dynamics], Direct, positions[, velocities].
  const n = structure.sites.length;
  const direct = poscar.findIndex((l, i) => i >= 7 && l === 'Direct');
  const positions = poscar.slice(direct + 1, direct + 1 + n).map((l) =>
    l
      .split(/\s+/)
      .filter((t) => t !== '')
      .slice(0, 3),
  );
  return [...poscar.slice(0, 7), 'Direct configuration=     1', ...positions.map((p) => `  ${p.join('  ')}`)].join('\n') + '\n';
}

/** Content test: a POSCAR-like header whose positions open with "Direct configuration=". */
function sniffXdatcar(text: string): boolean {
  const head = text.slice(0, 4096).split(/\r?\n/, 40);
  return head.slice(5, 40).some((l) => /^\s*(direct|cartesian)\s+configuration\s*=/i.test(l));
}

export const xdatcarFormat: FormatModule = {
  id: 'xdatcar',
  extensions: ['XDATCAR'],
  sniff: sniffXdatcar,
  parse: parseXdatcar,
  write: writeXdatcar,
};
