/**
 * Plain XYZ and extended XYZ (ASE conventions), both multi-frame.
 *
 * Plain XYZ: count line, comment line, `El x y z` lines (extra columns ignored); structures are finite.
 * Extended XYZ: the comment line holds `key=value` pairs; `Lattice="ax ay az bx by bz cx cy cz"`
 * makes the frame periodic, `Properties=species:S:1:pos:R:3:...` names the per-atom columns (extra
 * columns go to `site.properties`), everything else goes to `structure.properties` (`pbc` as booleans).
 */
import type { Vec3 } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type Site, type Structure, makeSiteFromCart } from '../structure/structure.ts';
import { elementByNumber, elementBySymbol, elementSymbolOf, parseElementSymbol } from '../structure/elements.ts';
import { type FormatModule, ParseError, type ParseOutput } from './types.ts';
import {
  DECIMAL_NUMBER,
  cellProblem,
  checkLabel,
  checkNumberToken,
  orderedSymbol,
  quoted,
  shortestNumber,
  splitLines as splitAllLines,
} from './common.ts';
import { LIMITS, limitSentence } from '../limits.ts';

// Unambiguous, as DECIMAL_NUMBER: linear even on a long run of digits.
const MATHEMATICA_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)\*\^[+-]?\d+$/;
const INTEGER = /^[+-]?\d+$/;

function splitLines(text: string): string[] {
  const lines = splitAllLines(text);
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  return lines;
}

const tokenize = (line: string): string[] =>
  line
    .trim()
    .split(/\s+/)
    .filter((t) => t !== '');

/** Exactly the characters of the regular-expression class \s (so leadingFields splits as tokenize does). */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The first four fields of a line that has four, as leadingFields(line, 4) splits them. Linear: \s and \S are disjoint. */
const FOUR_FIELDS = /^\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)/;

/**
 * The usual atom line: FOUR_FIELDS whose last three are plain decimals (DECIMAL_NUMBER without Fortran D), which
 * Number reads exactly as readNumber would. One match then stands for the seven regular-expression tests of the
 * general path. Linear: a number's characters and \s are disjoint, and each part of a number is deterministic.
 */
const PLAIN_NUMBER = String.raw`([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)`;
const PLAIN_ATOM_LINE = new RegExp(String.raw`^\s*(\S+)\s+${PLAIN_NUMBER}\s+${PLAIN_NUMBER}\s+${PLAIN_NUMBER}(?=\s|$)`);

/** The first `max` whitespace-separated fields of a line (the atom lines' hot path: no trim/split/filter arrays). */
function leadingFields(line: string, max: number): string[] {
  const out: string[] = [];
  let i = 0;
  const n = line.length;
  while (out.length < max) {
    while (i < n && isSpace(line.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isSpace(line.charCodeAt(i))) i++;
    out.push(line.slice(start, i));
  }
  return out;
}

/** A number in E, Fortran D or Mathematica `*^` notation, or a ParseError naming the line. */
function readNumber(token: string | undefined, lineNo: number, what: string, warnings: string[]): number {
  if (token === undefined) throw new ParseError(`The ${what} is missing.`, lineNo);
  checkNumberToken(token, lineNo, what);
  let value: number;
  if (DECIMAL_NUMBER.test(token)) {
    if (/[dD]/.test(token)) {
      const note = 'Fortran D exponents read as E';
      if (!warnings.some((w) => w.endsWith(note))) warnings.push(`line ${lineNo}: ${note}`);
      value = Number(token.replace(/[dD]/, 'e'));
    } else value = Number(token);
  } else if (MATHEMATICA_NUMBER.test(token)) value = Number(token.replace('*^', 'e'));
  else throw new ParseError(`The value ${quoted(token)} is not a number (${what}).`, lineNo);
  if (!Number.isFinite(value)) throw new ParseError(`The value ${quoted(token)} is too large to represent (${what}).`, lineNo);
  return value;
}

/** Element symbol from an XYZ species token: any capitalisation, an atomic number, or a label like `C1`. */
function speciesFromToken(token: string, lineNo: number): { symbol: string; label?: string } {
  // Too long: refused before it is parsed. A control character: checked once the token would be read as an element,
  // where it would hide in the label ("F\0e" as F); otherwise "not an element symbol" says more.
  if (token.length > LIMITS.labelChars) checkLabel(token, lineNo, 'species');
  if (INTEGER.test(token)) {
    const el = elementByNumber(Number(token));
    if (!el) throw new ParseError(`The species ${quoted(token)} is not an atomic number.`, lineNo);
    return { symbol: el.symbol };
  }
  const direct = elementSymbolOf(token);
  if (direct) return { symbol: direct };
  const parsed = parseElementSymbol(token);
  const el = parsed ? elementBySymbol(parsed.symbol) : undefined;
  if (!el) throw new ParseError(`The species ${quoted(token)} is not an element symbol.`, lineNo);
  checkLabel(token, lineNo, 'species');
  return { symbol: el.symbol, label: token };
}

function readCount(line: string, lineNo: number): number {
  const first = leadingFields(line, 1)[0];
  if (first === undefined || first.length > LIMITS.numberChars || !/^\d+$/.test(first)) {
    throw new ParseError(`Expected the number of atoms of an XYZ frame, not ${quoted(line.trim())}.`, lineNo);
  }
  const count = Number(first);
  // Checked before anything is allocated: a header may claim 1e12 atoms.
  if (count > LIMITS.atoms) {
    throw new ParseError(`${limitSentence('The XYZ frame', count, LIMITS.atoms, 'atoms', 'atoms')}.`, lineNo);
  }
  return count;
}

interface RawFrame {
  count: number;
  comment: string;
  commentLine: number;
  firstAtomLine: number;
}

/** Splits the file into frames (count line, comment line, atom lines); blank lines between frames are skipped. */
function frames(lines: string[]): RawFrame[] {
  const out: RawFrame[] = [];
  let i = 0;
  // All frames together: each counts at least one atom, so a file of empty frames is bounded too.
  let total = 0;
  while (i < lines.length) {
    if (lines[i].trim() === '') {
      i++;
      continue;
    }
    const count = readCount(lines[i], i + 1);
    if (out.length >= LIMITS.fileStructures) {
      throw new ParseError(`${limitSentence('The XYZ file', null, LIMITS.fileStructures, 'frames', 'fileStructures')}.`, i + 1);
    }
    total += Math.max(1, count);
    if (total > LIMITS.fileAtoms) {
      const what = `The XYZ file up to frame ${out.length + 1}`;
      throw new ParseError(
        `${limitSentence(what, total, LIMITS.fileAtoms, 'atoms (frames count at least one each)', 'fileAtoms')}.`,
        i + 1,
      );
    }
    if (i + 1 >= lines.length) {
      throw new ParseError(`The file ends after the atom count on line ${i + 1}; the comment line is missing.`, i + 2);
    }
    if (i + 2 + count > lines.length) {
      const found = Math.max(0, lines.length - (i + 2));
      throw new ParseError(
        `The frame starting on line ${i + 1} declares ${count} atoms but the file ends after ${found}.`,
        lines.length + 1,
      );
    }
    out.push({ count, comment: lines[i + 1], commentLine: i + 2, firstAtomLine: i + 3 });
    i += 2 + count;
  }
  if (out.length === 0) throw new ParseError('The XYZ file is empty.', 1);
  return out;
}

// ---------------------------------------------------------------- plain XYZ

/** One plain-XYZ frame as arrays: what a finite particle needs, without a Site object per atom. */
export interface XyzFrameArrays {
  /** Element symbol per atom. */
  symbols: string[];
  /** The species token per atom where it was a label such as `C1` (else undefined); null when there are none. */
  labels: (string | undefined)[] | null;
  /** xyz triples, Å. */
  coords: Float64Array;
  comment: string;
}

function readFrameArrays(lines: string[], f: RawFrame, warnings: string[]): XyzFrameArrays {
  const symbols: string[] = new Array(f.count);
  const coords = new Float64Array(3 * f.count);
  const labels = readAtomLines(lines, f, warnings, symbols, coords);
  return { symbols, labels, coords, comment: f.comment };
}

/**
 * The atom lines of frame `f` into `symbols` and `coords`; returns the labels (null without any). A function of its own:
 * code after a long loop that V8 optimised in place (here, the frame's comment) sent the whole reader back to the
 * interpreter in every cold process.
 */
function readAtomLines(
  lines: string[],
  f: RawFrame,
  warnings: string[],
  symbols: string[],
  coords: Float64Array,
): (string | undefined)[] | null {
  let labels: (string | undefined)[] | null = null;
  // Particles repeat a handful of species over thousands of lines: resolve each token once.
  const species = new Map<string, { symbol: string; label?: string }>();
  for (let a = 0; a < f.count; a++) {
    const lineNo = f.firstAtomLine + a;
    const line = lines[lineNo - 1];
    const plain = PLAIN_ATOM_LINE.exec(line);
    const fast = plain !== null && withinNumberChars(plain);
    let x = fast ? Number(plain[2]) : NaN,
      y = fast ? Number(plain[3]) : NaN,
      z = fast ? Number(plain[4]) : NaN;
    // Not plain, a number over the length limit or out of range (1e400): the general path reads or refuses it.
    const general = !(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z));
    // One native match for the usual line of four or more fields (the character loop of leadingFields runs
    // interpreted for much of a cold process); fewer fields take that loop, for the message below.
    const match = general ? FOUR_FIELDS.exec(line) : plain;
    const tokens = match ? [match[1], match[2], match[3], match[4]] : leadingFields(line, 4);
    if (tokens.length < 4) {
      throw new ParseError(`Expected an element and three coordinates but found ${tokens.length} values.`, lineNo);
    }
    let sp = species.get(tokens[0]);
    if (!sp) {
      sp = speciesFromToken(tokens[0], lineNo);
      species.set(tokens[0], sp);
    }
    symbols[a] = sp.symbol;
    if (sp.label) (labels ??= new Array(f.count))[a] = sp.label;
    if (general) {
      x = readNumber(tokens[1], lineNo, 'coordinate', warnings);
      y = readNumber(tokens[2], lineNo, 'coordinate', warnings);
      z = readNumber(tokens[3], lineNo, 'coordinate', warnings);
    }
    coords[3 * a] = x;
    coords[3 * a + 1] = y;
    coords[3 * a + 2] = z;
  }
  return labels;
}

/** Whether each number of a PLAIN_ATOM_LINE match is within LIMITS.numberChars (readNumber refuses a longer one). */
function withinNumberChars(m: RegExpExecArray): boolean {
  const most = LIMITS.numberChars;
  return m[2].length <= most && m[3].length <= most && m[4].length <= most;
}

/** Plain XYZ read into arrays (no Site objects): the fast path for particles; same checks and errors as parseXyz. */
export function parseXyzFrames(text: string): { frames: XyzFrameArrays[]; warnings: string[] } {
  const lines = splitLines(text);
  const warnings: string[] = [];
  return { frames: frames(lines).map((f) => readFrameArrays(lines, f, warnings)), warnings };
}

export function parseXyz(text: string): ParseOutput {
  const { frames: arrays, warnings } = parseXyzFrames(text);
  const structures = arrays.map((f, k): Structure => {
    const sites: Site[] = new Array(f.symbols.length);
    for (let a = 0; a < f.symbols.length; a++) {
      const site: Site = { species: { [f.symbols[a]]: 1 }, xyz: [f.coords[3 * a], f.coords[3 * a + 1], f.coords[3 * a + 2]] };
      const label = f.labels?.[a];
      if (label) site.label = label;
      sites[a] = site;
    }
    const comment = f.comment.trim();
    return { name: comment || `frame ${k + 1}`, lattice: null, sites, properties: { comment } };
  });
  return { structures, warnings };
}

// ---------------------------------------------------------------- extended XYZ: info line

type InfoValue = number | boolean | string | number[] | boolean[] | string[];

/** Splits `key=value key2="quoted value" flag` into raw pairs (value null for a bare key). */
export function splitKeyValues(line: string, lineNo: number): { key: string; value: string | null; quoted: boolean }[] {
  const out: { key: string; value: string | null; quoted: boolean }[] = [];
  let i = 0;
  const n = line.length;
  const isSpace = (c: string) => c === ' ' || c === '\t';
  const readQuoted = (): string => {
    const q = line[i++];
    let s = '';
    while (i < n && line[i] !== q) {
      if (line[i] === '\\' && i + 1 < n) {
        i++;
        s += line[i] === 'n' ? '\n' : line[i];
      } else s += line[i];
      i++;
    }
    if (i >= n) throw new ParseError('A quoted value on the comment line is not closed.', lineNo);
    i++;
    return s;
  };
  const readBracketed = (): string => {
    const close = line[i] === '[' ? ']' : '}';
    const start = ++i;
    while (i < n && line[i] !== close) i++;
    if (i >= n) throw new ParseError(`A "${line[start - 1]}" on the comment line is not closed.`, lineNo);
    return line.slice(start, i++);
  };
  while (i < n) {
    while (i < n && isSpace(line[i])) i++;
    if (i >= n) break;
    let key: string;
    if (line[i] === '"' || line[i] === "'") key = readQuoted();
    else {
      const start = i;
      while (i < n && !isSpace(line[i]) && line[i] !== '=') i++;
      key = line.slice(start, i);
    }
    let j = i;
    while (j < n && isSpace(line[j])) j++;
    if (line[j] !== '=') {
      out.push({ key, value: null, quoted: false });
      continue;
    }
    i = j + 1;
    while (i < n && isSpace(line[i])) i++;
    if (i >= n) {
      out.push({ key, value: '', quoted: true });
      break;
    }
    if (line[i] === '"' || line[i] === "'") out.push({ key, value: readQuoted(), quoted: true });
    else if (line[i] === '[' || line[i] === '{') out.push({ key, value: readBracketed(), quoted: true });
    else {
      const start = i;
      while (i < n && !isSpace(line[i])) i++;
      out.push({ key, value: line.slice(start, i), quoted: false });
    }
  }
  return out;
}

const BOOL_TRUE = new Set(['T', 'True', 'true', 'TRUE']);
const BOOL_FALSE = new Set(['F', 'False', 'false', 'FALSE']);
const isBool = (t: string) => BOOL_TRUE.has(t) || BOOL_FALSE.has(t);
const isNum = (t: string) => DECIMAL_NUMBER.test(t) || /^[+-]?(inf|nan)$/i.test(t);
const toNum = (t: string) =>
  /^[+-]?inf$/i.test(t) ? (t.startsWith('-') ? -Infinity : Infinity) : /nan/i.test(t) ? NaN : Number(t.replace(/[dD]/, 'e'));

/**
 * Value typing as ASE's `key_val_str_to_dict`: the value (quotes removed) split on spaces/commas;
 * all numbers → a number or number array; all T/F-like → boolean(s); otherwise the string.
 */
export function typeValue(value: string): InfoValue {
  const tokens = value.split(/[\s,]+/).filter((t) => t !== '');
  if (tokens.length === 0) return value;
  if (tokens.every(isNum)) return tokens.length === 1 ? toNum(tokens[0]) : tokens.map(toNum);
  if (tokens.every(isBool)) return tokens.length === 1 ? BOOL_TRUE.has(tokens[0]) : tokens.map((t) => BOOL_TRUE.has(t));
  return value;
}

interface Column {
  name: string;
  type: 'S' | 'R' | 'I' | 'L';
  count: number;
}

/** Sets an own property even for keys such as `__proto__`: names read from a file never reach a prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function parsePropertiesSpec(spec: string, lineNo: number): Column[] {
  const parts = spec.split(':');
  if (parts.length % 3 !== 0) {
    throw new ParseError(`Properties= must be name:type:count triples, not ${quoted(spec)}.`, lineNo);
  }
  const cols: Column[] = [];
  for (let i = 0; i < parts.length; i += 3) {
    const type = parts[i + 1].toUpperCase();
    const count = Number(parts[i + 2]);
    if (!['S', 'R', 'I', 'L'].includes(type) || !Number.isInteger(count) || count < 1) {
      throw new ParseError(
        `The column ${quoted(`${parts[i]}:${parts[i + 1]}:${parts[i + 2]}`)} in Properties= is not valid (types S, R, I, L).`,
        lineNo,
      );
    }
    cols.push({ name: parts[i], type: type as Column['type'], count });
  }
  return cols;
}

// ---------------------------------------------------------------- extended XYZ: frames

export function parseExtxyz(text: string): ParseOutput {
  const lines = splitLines(text);
  const warnings: string[] = [];
  const structures = frames(lines).map((f, k) => parseExtFrame(lines, f, k, warnings));
  return { structures, warnings };
}

function parseExtFrame(lines: string[], f: RawFrame, k: number, warnings: string[]): Structure {
  const info: Record<string, unknown> = {};
  let lattice: Lattice | null = null;
  let columns: Column[] = parsePropertiesSpec('species:S:1:pos:R:3', f.commentLine);
  let pbc: boolean[] | null = null;
  for (const { key, value } of splitKeyValues(f.comment, f.commentLine)) {
    const lower = key.toLowerCase();
    if (lower === 'lattice' && value !== null) {
      const nums = value.split(/[\s,]+/).filter((t) => t !== '');
      if (nums.length !== 9 || !nums.every(isNum)) {
        throw new ParseError('Lattice= must hold nine numbers.', f.commentLine);
      }
      const v = nums.map(toNum);
      const bad = nums.find((t, i) => !Number.isFinite(v[i]));
      if (bad !== undefined) {
        const why = /^[+-]?(inf|nan)$/i.test(bad) ? 'is not a finite number' : 'is too large to represent';
        throw new ParseError(`The Lattice= value ${quoted(bad)} ${why}.`, f.commentLine);
      }
      try {
        lattice = new Lattice([v.slice(0, 3), v.slice(3, 6), v.slice(6, 9)]);
        void lattice.inverseMatrix; // fail here, with the line number, on a singular cell
      } catch {
        throw new ParseError('The Lattice= vectors do not span a 3D cell.', f.commentLine);
      }
      const cell = cellProblem(lattice);
      if (cell) throw new ParseError(`The Lattice= vectors: ${cell}.`, f.commentLine);
    } else if (lower === 'properties' && value !== null) {
      columns = parsePropertiesSpec(value, f.commentLine);
    } else if (lower === 'pbc' && value !== null) {
      const toks = value.split(/[\s,]+/).filter((t) => t !== '');
      if (toks.length !== 3 || !toks.every((t) => isBool(t) || t === '0' || t === '1')) {
        throw new ParseError('The pbc= value must hold three T/F values.', f.commentLine);
      }
      pbc = toks.map((t) => BOOL_TRUE.has(t) || t === '1');
    } else {
      setOwn(info, key, value === null ? true : typeValue(value));
    }
  }
  pbc ??= lattice ? [true, true, true] : [false, false, false];

  const speciesCol = columns.find((c) => c.name.toLowerCase() === 'species' && c.type === 'S' && c.count === 1);
  const numbersCol = columns.find((c) => c.name === 'Z' && c.type === 'I' && c.count === 1);
  const posCol = columns.find((c) => (c.name === 'pos' || c.name === 'positions') && c.type === 'R' && c.count === 3);
  if (!posCol) throw new ParseError('Properties= has no pos:R:3 column.', f.commentLine);
  if (!speciesCol && !numbersCol) throw new ParseError('Properties= has no species:S:1 column.', f.commentLine);
  const width = columns.reduce((s, c) => s + c.count, 0);

  const sites: Site[] = [];
  for (let a = 0; a < f.count; a++) {
    const lineNo = f.firstAtomLine + a;
    const tokens = tokenize(lines[lineNo - 1]);
    if (tokens.length < width) {
      throw new ParseError(`Expected ${width} values (Properties=) but found ${tokens.length}.`, lineNo);
    }
    let symbol = '';
    let label: string | undefined;
    let xyz: Vec3 = [0, 0, 0];
    const props: Record<string, unknown> = {};
    let t = 0;
    for (const col of columns) {
      const raw = tokens.slice(t, t + col.count);
      t += col.count;
      const values = raw.map((tok): string | number | boolean => {
        if (col.type === 'S') return tok;
        if (col.type === 'L') {
          if (!isBool(tok)) throw new ParseError(`The value ${quoted(tok)} in column ${quoted(col.name)} is not T or F.`, lineNo);
          return BOOL_TRUE.has(tok);
        }
        if (col.type === 'I' && (tok.length > LIMITS.numberChars || !INTEGER.test(tok))) {
          throw new ParseError(`The value ${quoted(tok)} in column ${quoted(col.name)} is not an integer.`, lineNo);
        }
        return col.type === 'I' ? Number(tok) : readNumber(tok, lineNo, col.name, warnings);
      });
      if (col === speciesCol) ({ symbol, label } = speciesFromToken(raw[0], lineNo));
      else if (col === posCol) xyz = values as Vec3;
      else if (col === numbersCol && !speciesCol) ({ symbol } = speciesFromToken(raw[0], lineNo));
      else setOwn(props, col.name, col.count === 1 ? values[0] : values);
    }
    const extra: Partial<Site> = {};
    if (label) extra.label = label;
    if (Object.keys(props).length > 0) extra.properties = props;
    sites.push(makeSiteFromCart(lattice, xyz, { [symbol]: 1 }, extra));
  }
  const nameValue = info.name ?? info.comment ?? info.config_type;
  const name = typeof nameValue === 'string' && nameValue.trim() !== '' ? nameValue.trim() : `frame ${k + 1}`;
  return { name, lattice, sites, properties: { ...info, pbc } };
}

// ---------------------------------------------------------------- writers

const num = (x: number): string => shortestNumber(x, 'XYZ');

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();

/**
 * Plain XYZ for a finite structure. A periodic structure is written as extended XYZ (its lattice
 * on the comment line), which every plain XYZ reader still accepts, so nothing is lost.
 */
export function writeXyz(structure: Structure): string {
  if (structure.lattice) return writeExtxyz(structure);
  const lines = [String(structure.sites.length), oneLine(String(structure.properties?.comment ?? structure.name ?? ''))];
  structure.sites.forEach((site, i) => {
    const el = orderedSymbol(site, i, 'XYZ');
    lines.push(`${el.padEnd(2)} ${site.xyz.map(num).join(' ')}`);
  });
  return lines.join('\n') + '\n';
}

const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface OutColumn {
  name: string;
  type: 'R' | 'I' | 'L' | 'S';
  count: number;
}

/** The type of one per-site value as an extxyz column, or null when it cannot be one. */
function columnOf(v: unknown): { type: OutColumn['type']; count: number } | null {
  const scalar = (x: unknown): OutColumn['type'] | null =>
    typeof x === 'boolean'
      ? 'L'
      : typeof x === 'number' && Number.isFinite(x)
        ? Number.isInteger(x)
          ? 'I'
          : 'R'
        : typeof x === 'string' && /^\S+$/.test(x)
          ? 'S'
          : null;
  if (Array.isArray(v)) {
    if (v.length === 0) return null;
    const types = v.map(scalar);
    if (types.some((t) => t === null)) return null;
    const set = new Set(types);
    if (set.size === 1) return { type: types[0]!, count: v.length };
    if ([...set].every((t) => t === 'I' || t === 'R')) return { type: 'R', count: v.length };
    return null;
  }
  const t = scalar(v);
  return t ? { type: t, count: 1 } : null;
}

/** Per-site properties that every site has with one column shape (integers widen to reals). */
function extraColumns(sites: Site[]): OutColumn[] {
  if (sites.length === 0) return [];
  const out: OutColumn[] = [];
  for (const name of Object.keys(sites[0].properties ?? {})) {
    if (!VALID_NAME.test(name) || ['species', 'pos', 'positions', 'Z'].includes(name)) continue;
    let col: OutColumn | null = null;
    for (const site of sites) {
      const c = columnOf(site.properties?.[name]);
      if (!c || (col && c.count !== col.count)) {
        col = null;
        break;
      }
      if (!col) col = { name, ...c };
      else if (col.type !== c.type) {
        const numeric = (t: string) => t === 'I' || t === 'R';
        if (numeric(col.type) && numeric(c.type)) col.type = 'R';
        else {
          col = null;
          break;
        }
      }
    }
    if (col) out.push(col);
  }
  return out;
}

function formatCell(v: unknown, type: OutColumn['type']): string {
  if (type === 'L') return v ? 'T' : 'F';
  if (type === 'S') return String(v);
  return num(v as number);
}

function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** An info value as extxyz text, or null when it has no extxyz form (nested objects). */
function infoValue(v: unknown): string | null {
  if (typeof v === 'boolean') return v ? 'T' : 'F';
  if (typeof v === 'number') return Number.isFinite(v) ? num(v) : null;
  if (typeof v === 'string') return quote(v);
  if (Array.isArray(v) && v.length > 0) {
    if (v.every((x) => typeof x === 'number' && Number.isFinite(x))) return quote(v.map((x) => num(x as number)).join(' '));
    if (v.every((x) => typeof x === 'boolean')) return quote(v.map((x) => (x ? 'T' : 'F')).join(' '));
  }
  return null;
}

export function writeExtxyz(structure: Structure): string {
  const symbols = structure.sites.map((s, i) => orderedSymbol(s, i, 'Extended XYZ'));
  const extras = extraColumns(structure.sites);
  const header: string[] = [];
  if (structure.lattice) header.push(`Lattice=${quote(structure.lattice.matrix.flat().map(num).join(' '))}`);
  const spec = ['species:S:1', 'pos:R:3', ...extras.map((c) => `${c.name}:${c.type}:${c.count}`)].join(':');
  header.push(`Properties=${spec}`);
  const skip = new Set(['lattice', 'properties', 'pbc']);
  for (const [key, value] of Object.entries(structure.properties ?? {})) {
    if (skip.has(key.toLowerCase()) || !VALID_NAME.test(key)) continue;
    const text = infoValue(value);
    if (text !== null) header.push(`${key}=${text}`);
  }
  const givenPbc = structure.properties?.pbc;
  const pbc =
    Array.isArray(givenPbc) && givenPbc.length === 3 && structure.lattice
      ? givenPbc.map(Boolean)
      : [0, 1, 2].map(() => structure.lattice !== null);
  header.push(`pbc=${quote(pbc.map((b) => (b ? 'T' : 'F')).join(' '))}`);

  const lines = [String(structure.sites.length), header.join(' ')];
  structure.sites.forEach((site, i) => {
    const cells = [symbols[i].padEnd(2), ...site.xyz.map(num)];
    for (const col of extras) {
      const v = site.properties![col.name];
      for (const x of Array.isArray(v) ? v : [v]) cells.push(formatCell(x, col.type));
    }
    lines.push(cells.join(' '));
  });
  return lines.join('\n') + '\n';
}

/** Several structures as consecutive frames of one file (trajectories, conformers). */
export const writeXyzFrames = (structures: Structure[]): string => structures.map(writeXyz).join('');

// ---------------------------------------------------------------- sniffing and modules

function sniffXyz(text: string): boolean {
  const lines = text.replace(/^\s*\n/, '').split(/\r?\n/, 3);
  if (lines.length < 2 || !/^\s*\d+\s*$/.test(lines[0])) return false;
  if (Number(lines[0]) === 0) return true;
  const t = tokenize(lines[2] ?? '');
  return t.length >= 4 && /^[A-Za-z]{1,3}\d*$|^\d{1,3}$/.test(t[0]) && t.slice(1, 4).every((x) => DECIMAL_NUMBER.test(x));
}

function sniffExtxyz(text: string): boolean {
  const lines = text.replace(/^\s*\n/, '').split(/\r?\n/, 3);
  return sniffXyz(text) && /(^|\s)(Lattice|Properties)\s*=/i.test(lines[1] ?? '');
}

export const xyzFormat: FormatModule = {
  id: 'xyz',
  extensions: ['.xyz'],
  sniff: sniffXyz,
  parse: parseXyz,
  write: writeXyz,
};

export const extxyzFormat: FormatModule = {
  id: 'extxyz',
  extensions: ['.extxyz', '.xyz'],
  sniff: sniffExtxyz,
  parse: parseExtxyz,
  write: writeExtxyz,
};
