/** Small helpers shared by the format readers and writers. */
import { type Site, isOrderedSite } from '../structure/structure.ts';
import type { Lattice } from '../structure/lattice.ts';
import { LIMITS, limitSentence, printable, quoted, groupedNumber } from '../limits.ts';
import { ParseError } from './types.ts';

/**
 * A plain decimal number as POSCAR and XYZ files write it: sign, digits, optional E or Fortran D exponent.
 * Unambiguous (the digits before and after the point cannot trade characters), so a failed match
 * backtracks linearly; callers also cap the token at LIMITS.numberChars first (`checkNumberToken`).
 */
export const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eEdD][+-]?\d+)?$/;

/** Throws a ParseError when a would-be number is longer than LIMITS.numberChars (before any regex or conversion). */
export function checkNumberToken(token: string, line: number | undefined, what: string): void {
  if (token.length > LIMITS.numberChars) {
    throw new ParseError(
      `${limitSentence(`The ${what} "${printable(token, 24)}"`, token.length, LIMITS.numberChars, 'characters')}.`,
      line,
    );
  }
}

/** Throws a ParseError when a token (word, label, quoted string) is longer than LIMITS.tokenChars. */
export function checkToken(token: string, line: number | undefined, what: string): void {
  if (token.length > LIMITS.tokenChars) {
    throw new ParseError(`${limitSentence(`The ${what} "${printable(token, 24)}"`, token.length, LIMITS.tokenChars, 'characters')}.`, line);
  }
}

/**
 * Why an element symbol or atom label cannot be one, or null: longer than LIMITS.labelChars, or holding a control
 * character (a NUL inside "F\0e" would otherwise be read as F and kept in the label, a 1 MB "symbol" as its first
 * letters). `what` names it in the sentence ("species", "atom label").
 */
export function labelProblem(text: string, what: string): string | null {
  if (text.length > LIMITS.labelChars)
    return limitSentence(`the ${what} ${quoted(text, 24)}`, text.length, LIMITS.labelChars, 'characters');
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) return `the ${what} ${quoted(text)} holds a control character`;
  }
  return null;
}

/** Throws labelProblem's sentence as a ParseError at `line`. */
export function checkLabel(text: string, line: number | undefined, what: string): void {
  const problem = labelProblem(text, what);
  if (problem) throw new ParseError(`${problem[0].toUpperCase()}${problem.slice(1)}.`, line);
}

/** Input text quoted in a message (the one helper, src/core/limits.ts): control characters escaped, cut at 40 characters. */
export { quoted };

/**
 * Lines of a text, split at \r\n, \r or \n in one linear pass, trailing blank lines kept; a ParseError
 * past `maxLines` (LIMITS.textLines), before the array of lines outgrows the memory budget.
 */
export function splitLines(text: string, maxLines: number = LIMITS.textLines): string[] {
  // Only \n ends lines (the usual file): the native split, bounded the same (maxLines + 1 lines at most, else the
  // error below), where a character loop runs interpreted for much of a cold process. Its limit is a uint32.
  if (Number.isInteger(maxLines) && maxLines >= 0 && maxLines < 2 ** 32 - 3 && text.indexOf('\r') < 0) {
    const lines = text.split('\n', maxLines + 2);
    if (lines.length > maxLines + 1) throw new ParseError(`${limitSentence('The file', null, maxLines, 'lines')}.`, maxLines + 1);
    return lines;
  }
  const out: string[] = [];
  let start = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (out.length >= maxLines) throw new ParseError(`${limitSentence('The file', null, maxLines, 'lines')}.`, maxLines + 1);
      out.push(text.slice(start, i));
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** Shortest text that reads back as exactly the same double ("-0" written as "0"); throws for ±Infinity/NaN. */
export function shortestNumber(x: number, format: string): string {
  if (!Number.isFinite(x)) throw new Error(`${format} cannot hold the non-finite number ${x}.`);
  return String(x === 0 ? 0 : x);
}

/** The element of an ordered site; throws, naming the 0-based `index` as site index+1, for a mixed or partial site. */
export function orderedSymbol(site: Site, index: number, format: string): string {
  if (!isOrderedSite(site)) {
    const desc = Object.entries(site.species)
      .map(([el, occ]) => `${el}:${occ}`)
      .join(', ');
    throw new Error(`${format} cannot hold partial occupancy (site ${index + 1} has ${desc}); write CIF or JSON instead.`);
  }
  return Object.keys(site.species)[0];
}

/**
 * Why a cell cannot be used, or null: a cell length beyond LIMITS.coordinateAbs, or a cell so flat
 * (volume / (|a||b||c|) below LIMITS.cellFlatness) that neighbour searches and matching would need
 * unbounded numbers of images. Readers call it with their line; the registry calls it for every structure.
 */
export function cellProblem(lattice: Lattice): string | null {
  const lengths = lattice.lengths;
  for (const [k, len] of lengths.entries()) {
    if (len > LIMITS.coordinateAbs) {
      return `the cell length ${'abc'[k]} is ${len.toPrecision(6)} Å; the limit is ${groupedNumber(LIMITS.coordinateAbs)} Å`;
    }
  }
  const flatness = lattice.volume / (lengths[0] * lengths[1] * lengths[2]);
  if (!(flatness >= LIMITS.cellFlatness)) {
    return `the cell is degenerate (nearly flat: volume / (|a||b||c|) is ${flatness.toPrecision(3)}; the limit is ${LIMITS.cellFlatness})`;
  }
  return null;
}
