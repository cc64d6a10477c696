/**
 * CIF 1.1 lexer and data model (blocks, items, loops). Also reads CIF 2.0 files that keep to
 * the CIF 1.1 subset (plus triple-quoted strings and bracketed lists, which become plain text).
 * Tags are case-insensitive: items are keyed by the lower-case tag.
 */
import { ParseError } from '../types.ts';
import { LIMITS, limitSentence, printable } from '../../limits.ts';

export interface CifValue {
  text: string;
  /** Quoted or text-field values are never the special `?` / `.` markers. */
  quoted: boolean;
  line: number;
}

export interface CifLoop {
  tags: string[];
  line: number;
  rows: number;
}

export interface CifItem {
  /** The tag as written (original case). */
  tag: string;
  values: CifValue[];
  loop: CifLoop | null;
  line: number;
}

export interface CifBlock {
  name: string;
  line: number;
  items: Map<string, CifItem>;
  loops: CifLoop[];
}

export interface CifDocument {
  blocks: CifBlock[];
  warnings: string[];
  version: 1 | 2;
}

/** Unquoted `?` (unknown) or `.` (inapplicable). */
export const isNull = (v: CifValue | undefined): boolean => !v || (!v.quoted && (v.text === '?' || v.text === '.'));

type TokenKind = 'data' | 'global' | 'save' | 'loop' | 'stop' | 'tag' | 'value';
interface Token {
  kind: TokenKind;
  text: string;
  quoted: boolean;
  line: number;
}

/** Tags whose loops carry the structure; a malformed loop of these cannot be read safely. */
const STRUCTURAL_TAG = /^_(atom_site[._](?!aniso)|atom_type|cell|symmetry|space_group)/i;

const isWs = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
/**
 * A run of whitespace other than a line end, and a bare word (up to the next whitespace of isWs), from lastIndex: the
 * regex engine's scan instead of a loop per character, which a short run (a CLI process) spends interpreted.
 */
const BLANKS = /[ \t\r\v\f]*/y;
const WORD = /[^ \t\n\r\v\f]*/y;
/** First letters (lower case) of the keywords data_, global_, loop_, save_ and stop_. */
const KEYWORD_START = new Set([100, 103, 108, 115]);

/** Normalises line ends, strips a BOM and a trailing Ctrl-Z (DOS end-of-file). */
function prepare(text: string, warnings: string[]): string {
  let t = text;
  if (t.charCodeAt(0) === 0xfeff) t = t.slice(1);
  t = t.replace(/\r\n?/g, '\n');
  const ctrlZ = t.indexOf('\x1a');
  if (ctrlZ >= 0) {
    const after = t.slice(ctrlZ + 1);
    const line = t.slice(0, ctrlZ).split('\n').length;
    if (after.trim() === '') {
      warnings.push(`line ${line}: Ctrl-Z end-of-file marker ignored`);
      t = t.slice(0, ctrlZ);
    } else {
      throw new ParseError('stray Ctrl-Z (0x1A) character in the middle of the file', line);
    }
  }
  return t;
}

/** A word or quoted string over LIMITS.tokenChars is refused before it is kept. */
function checkTokenLength(length: number, line: number, what: string): void {
  if (length > LIMITS.tokenChars) throw new ParseError(`${limitSentence(`A ${what}`, length, LIMITS.tokenChars, 'characters')}`, line);
}

/** Where a quoted value not closed on its line ends, if it does: see `closedOnLaterLine`. */
interface QuoteRun {
  /** Index of the closing quote, or -1 when a new item or the end of the input comes first. */
  closer: number;
  closerLine: number;
  /** Start of the line where the scan stopped (the closer's line, an item's line, or the input's length). */
  stopLineStart: number;
}

/**
 * From the end of a line (`nl`, the index of its '\n', line number `line`) where a `quote` was opened and not
 * closed, finds the quote that closes it on a later line: the first `quote` followed by whitespace or the end of
 * the input, before any line that starts an item (a tag, `loop_`, `data_`, `save_`, `global_`, `stop_`, or a `;`
 * text field). Blank lines and comments are passed over. One pass over the lines it reads.
 */
function closedOnLaterLine(text: string, nl: number, line: number, quote: number): QuoteRun {
  const n = text.length;
  let start = nl + 1;
  let ln = line + 1;
  while (start < n) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = n;
    let k = start;
    while (k < end && isWs(text.charCodeAt(k))) k++;
    const first = text.charCodeAt(k);
    if (k < end && first !== 35 /* # */) {
      if (first === 95 /* _ */ || text.charCodeAt(start) === 59 /* ; */) return { closer: -1, closerLine: 0, stopLineStart: start };
      let w = k;
      while (w < end && !isWs(text.charCodeAt(w))) w++;
      const word = text.slice(k, Math.min(w, k + 8)).toLowerCase();
      if (/^(loop_|global_|stop_)$/.test(word) || word.startsWith('data_') || word.startsWith('save_')) {
        return { closer: -1, closerLine: 0, stopLineStart: start };
      }
      for (let j = k; j < end; j++) {
        const d = text.charCodeAt(j);
        if (d === 35 /* # */ && isWs(text.charCodeAt(j - 1))) break; // a comment, as pymatgen strips it
        if (d === quote && (j + 1 >= n || isWs(text.charCodeAt(j + 1)))) return { closer: j, closerLine: ln, stopLineStart: start };
      }
    }
    start = end + 1;
    ln++;
  }
  return { closer: -1, closerLine: 0, stopLineStart: n };
}

function tokenize(text: string, warnings: string[], version: 1 | 2, lenientQuotes: boolean): Token[] {
  const tokens: Token[] = [];
  // Every token costs an object: the count is bounded before memory is.
  const push = (t: Token): void => {
    if (tokens.length >= LIMITS.cifTokens)
      throw new ParseError(`${limitSentence('The CIF file', null, LIMITS.cifTokens, 'words and values', 'cifTokens')}`, t.line);
    tokens.push(t);
  };
  let unclosedQuotes = 0;
  // Lenient quotes: the last scan for each quote character (each line is scanned once), and the closing quote found.
  const quoteRuns = new Map<number, QuoteRun>();
  let quoteRunCloser = -1;
  const n = text.length;
  let i = 0;
  let line = 1;
  let atLineStart = true;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      i++;
      atLineStart = true;
      continue;
    }
    if (isWs(c)) {
      BLANKS.lastIndex = i + 1;
      BLANKS.test(text);
      i = BLANKS.lastIndex;
      atLineStart = false;
      continue;
    }
    // Comment to end of line.
    if (c === 35 /* # */) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
      continue;
    }
    // Text field: ';' at the very start of a line, up to the next line starting with ';'.
    if (c === 59 /* ; */ && atLineStart) {
      const startLine = line;
      let j = i + 1;
      let end = -1;
      while (j < n) {
        const nl = text.indexOf('\n', j);
        if (nl < 0) break;
        if (text.charCodeAt(nl + 1) === 59) {
          end = nl;
          break;
        }
        j = nl + 1;
      }
      if (end < 0) throw new ParseError('unclosed text field (no line starting with ; to end it)', startLine);
      const body = text.slice(i + 1, end);
      for (let k = i; k < end + 2; k++) if (text.charCodeAt(k) === 10) line++;
      push({ kind: 'value', text: body, quoted: true, line: startLine });
      i = end + 2;
      atLineStart = false;
      continue;
    }
    atLineStart = false;
    // CIF 2 triple-quoted strings.
    if (version === 2 && (text.startsWith("'''", i) || text.startsWith('"""', i))) {
      const q = text.slice(i, i + 3);
      const end = text.indexOf(q, i + 3);
      if (end < 0) throw new ParseError(`unclosed triple-quoted string`, line);
      const body = text.slice(i + 3, end);
      push({ kind: 'value', text: body, quoted: true, line });
      for (const ch of body) if (ch === '\n') line++;
      i = end + 3;
      continue;
    }
    // Quoted string: ends at a matching quote followed by whitespace or end of input (CIF 1.1).
    if (c === 39 /* ' */ || c === 34 /* " */) {
      let j = i + 1;
      let end = -1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 10) break;
        if (d === c && (j + 1 >= n || isWs(text.charCodeAt(j + 1)) || (version === 2 && ',]}:'.includes(text[j + 1])))) {
          end = j;
          break;
        }
        j++;
      }
      if (end < 0) {
        const unclosed = (): ParseError => new ParseError(`unclosed quote: ${printable(text.slice(i, Math.min(j, i + 40)))}`, line);
        if (!lenientQuotes) throw unclosed();
        // A quote not closed on its line but on a later one (a value that runs over several lines, against
        // CIF 1.1; pymatgen's srycoo.cif). pymatgen's CifBlock._process_string (materialsproject/pymatgen,
        // pymatgen/io/cif.py) matches quoted strings line by line and skips such a quote, reading the rest as
        // plain words: the tag takes the first word, the others are stray values. The same here, with a
        // warning; the closing quote is skipped the same way. A quote closed nowhere stays an error.
        if (i !== quoteRunCloser) {
          const cached = quoteRuns.get(c);
          const run = cached && j < cached.stopLineStart ? cached : closedOnLaterLine(text, j, line, c);
          quoteRuns.set(c, run);
          if (run.closer < 0) throw unclosed();
          quoteRunCloser = run.closer;
          if (unclosedQuotes++ === 0) {
            warnings.push(
              `line ${line}: a quoted value runs on to line ${run.closerLine}, against CIF 1.1; read as plain words, as ` +
                'pymatgen reads it (the tag keeps only the first word)',
            );
          }
        }
        i++;
        continue;
      }
      checkTokenLength(end - i - 1, line, 'quoted value');
      push({ kind: 'value', text: text.slice(i + 1, end), quoted: true, line });
      i = end + 1;
      continue;
    }
    // CIF 2 lists/tables: keep the bracketed text as one value.
    if (version === 2 && (c === 91 /* [ */ || c === 123) /* { */) {
      let depth = 0;
      let j = i;
      const startLine = line;
      for (; j < n; j++) {
        const ch = text[j];
        if (ch === '\n') line++;
        if (ch === '[' || ch === '{') depth++;
        else if (ch === ']' || ch === '}') {
          depth--;
          if (depth === 0) {
            j++;
            break;
          }
        }
      }
      if (depth !== 0) throw new ParseError('unclosed list or table', startLine);
      push({ kind: 'value', text: text.slice(i, j), quoted: true, line: startLine });
      i = j;
      continue;
    }
    // Bare word.
    WORD.lastIndex = i;
    WORD.test(text);
    const j = WORD.lastIndex;
    checkTokenLength(j - i, line, 'word');
    const word = text.slice(i, j);
    i = j;
    if (c === 95 /* _ */) {
      push({ kind: 'tag', text: word, quoted: false, line });
      continue;
    }
    // Only a word starting with d, g, l or s can be a keyword (data_, global_, loop_, save_, stop_).
    const lower = KEYWORD_START.has(c | 0x20) ? word.toLowerCase() : '';
    if (lower.startsWith('data_')) {
      push({ kind: 'data', text: word.slice(5), quoted: false, line });
    } else if (lower === 'loop_') {
      push({ kind: 'loop', text: word, quoted: false, line });
    } else if (lower === 'global_') {
      push({ kind: 'global', text: word, quoted: false, line });
    } else if (lower.startsWith('save_')) {
      push({ kind: 'save', text: word.slice(5), quoted: false, line });
    } else if (lower === 'stop_') {
      push({ kind: 'stop', text: word, quoted: false, line });
    } else {
      if (c === 36 /* $ */ && word.length > 1)
        warnings.push(`line ${line}: save-frame reference '${printable(word)}' read as a plain value`);
      if (c === 91 /* [ */ || c === 93 /* ] */)
        warnings.push(`line ${line}: value '${printable(word)}' starts with a reserved character; read as plain text`);
      push({ kind: 'value', text: word, quoted: false, line });
    }
  }
  return tokens;
}

/**
 * Parses CIF text into blocks. Throws ParseError (with the 1-based line) on real syntax errors;
 * unambiguous oddities are kept with a warning in `warnings`. `lenientQuotes` reads a quote that is
 * not closed on its line as pymatgen does (see `tokenize`) instead of refusing it.
 */
export function parseCifDocument(input: string, options: { lenientQuotes?: boolean } = {}): CifDocument {
  const warnings: string[] = [];
  const text = prepare(input, warnings);
  const version: 1 | 2 = /^#\\#CIF_2\.0/.test(text) ? 2 : 1;
  const tokens = tokenize(text, warnings, version, options.lenientQuotes === true);
  const blocks: CifBlock[] = [];
  let block: CifBlock | null = null;
  let inSave = false;
  const seenNames = new Map<string, number>();

  const setItem = (b: CifBlock, tag: string, item: CifItem): void => {
    const key = tag.toLowerCase();
    if (b.items.has(key)) {
      warnings.push(
        `line ${item.line}: duplicate tag ${printable(tag)} in block ${printable(b.name) || '(global)'}; the later value is used`,
      );
    }
    b.items.set(key, item);
  };

  let stray = 0;
  let k = 0;
  while (k < tokens.length) {
    const t = tokens[k];
    if (t.kind === 'data' || t.kind === 'global') {
      const name = t.kind === 'global' ? 'global_' : t.text;
      if (t.kind === 'data' && name === '') warnings.push(`line ${t.line}: data block without a name`);
      const lower = name.toLowerCase();
      if (seenNames.has(lower))
        warnings.push(`line ${t.line}: duplicate data block name '${printable(name)}' (first at line ${seenNames.get(lower)})`);
      else seenNames.set(lower, t.line);
      if (blocks.length >= LIMITS.fileStructures) {
        throw new ParseError(limitSentence('The CIF file', null, LIMITS.fileStructures, 'data blocks', 'fileStructures'), t.line);
      }
      block = { name, line: t.line, items: new Map(), loops: [] };
      blocks.push(block);
      inSave = false;
      k++;
      continue;
    }
    if (t.kind === 'save') {
      // Save frames (dictionaries) carry no structure: skip their content.
      inSave = t.text !== '';
      k++;
      continue;
    }
    if (inSave) {
      k++;
      continue;
    }
    if (!block) {
      throw new ParseError(
        `${t.kind === 'tag' ? `tag ${printable(t.text)}` : `'${printable(t.text, 30)}'`} appears before any data_ block header`,
        t.line,
      );
    }
    if (t.kind === 'stop') {
      warnings.push(`line ${t.line}: stop_ ignored`);
      k++;
      continue;
    }
    if (t.kind === 'tag' && t.text.toLowerCase() === '_eof') {
      // `_eof` (Crystallographica writes it, as in pymatgen's srycoo.cif) ends the block: pymatgen's
      // CifBlock.from_string (materialsproject/pymatgen, pymatgen/io/cif.py) stops reading the block there.
      let skipped = 0;
      k++;
      while (k < tokens.length && tokens[k].kind !== 'data' && tokens[k].kind !== 'global') {
        skipped++;
        k++;
      }
      if (skipped > 0) {
        warnings.push(
          `line ${t.line}: _eof ends block ${printable(block.name)}; the ${skipped} word${skipped === 1 ? '' : 's'} after it ` +
            'ignored, as pymatgen reads it',
        );
      }
      continue;
    }
    if (t.kind === 'tag') {
      const next = tokens[k + 1];
      if (!next || next.kind !== 'value') {
        throw new ParseError(`tag ${printable(t.text)} has no value`, t.line);
      }
      setItem(block, t.text, {
        tag: t.text,
        values: [{ text: next.text, quoted: next.quoted, line: next.line }],
        loop: null,
        line: t.line,
      });
      k += 2;
      continue;
    }
    if (t.kind === 'loop') {
      const loop: CifLoop = { tags: [], line: t.line, rows: 0 };
      const tagLines: number[] = [];
      k++;
      while (k < tokens.length && tokens[k].kind === 'tag') {
        loop.tags.push(tokens[k].text);
        tagLines.push(tokens[k].line);
        k++;
      }
      if (loop.tags.length === 0) throw new ParseError('loop_ without tags', t.line);
      const values: Token[] = [];
      while (k < tokens.length && tokens[k].kind === 'value') {
        values.push(tokens[k]);
        k++;
      }
      const nTags = loop.tags.length;
      if (values.length % nTags !== 0) {
        const lastLine = values.length ? values[values.length - 1].line : t.line;
        const message =
          `loop of ${printable(loop.tags[0])}${nTags > 1 ? ` (and ${nTags - 1} more tags)` : ''} ` +
          `has ${values.length} values, not ` +
          `a multiple of its ${nTags} tags (loop ends at line ${lastLine})`;
        // A broken loop of structural data is fatal; a broken bibliography/geometry loop only loses itself.
        if (loop.tags.some((tag) => STRUCTURAL_TAG.test(tag))) throw new ParseError(message, t.line);
        warnings.push(`line ${t.line}: ${message}; loop ignored`);
        continue;
      }
      if (values.length === 0) warnings.push(`line ${t.line}: empty loop of ${printable(loop.tags[0])}`);
      loop.rows = values.length / nTags;
      block.loops.push(loop);
      loop.tags.forEach((tag, col) => {
        // The tokens themselves serve as values (a Token is a CifValue): no second object per value.
        const vals: CifValue[] = new Array(loop.rows);
        for (let r = 0; r < loop.rows; r++) vals[r] = values[r * nTags + col];
        setItem(block!, tag, { tag, values: vals, loop, line: tagLines[col] });
      });
      continue;
    }
    // A value with no tag: a stray word. Keep going with a warning (e.g. `'R 3' ccc`); after a few, one count.
    if (stray++ < 3) warnings.push(`line ${t.line}: value '${printable(t.text, 40)}' has no tag; ignored`);
    k++;
  }
  if (stray > 3) warnings.push(`${stray - 3} more values without a tag ignored`);
  return { blocks, warnings, version };
}
