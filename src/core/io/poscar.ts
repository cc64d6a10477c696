/**
 * VASP POSCAR/CONTCAR reader and writer.
 *
 * Reads VASP 4 (no species line) and VASP 5 files, one or three scale factors (a negative single
 * factor is the target cell volume), `Selective dynamics`, Direct/Cartesian coordinates, trailing
 * species labels, and the velocity block of MD CONTCARs (kept per site as `properties.velocities`);
 * predictor-corrector data after it is ignored.
 */
import type { Mat3, Vec3 } from '../math/mat3.ts';
import { det } from '../math/mat3.ts';
import { Lattice } from '../structure/lattice.ts';
import { type Site, type Structure, fracOf, makeSiteFromCart, makeSiteFromFrac } from '../structure/structure.ts';
import { elementByNumber, elementBySymbol, elementSymbolOf } from '../structure/elements.ts';
import { type FormatModule, ParseError, type ParseOutput } from './types.ts';
import { DECIMAL_NUMBER, cellProblem, checkNumberToken, checkToken, orderedSymbol, quoted, shortestNumber, splitLines } from './common.ts';
import { LIMITS, limitSentence } from '../limits.ts';
import { cbrt } from '../math/libm.ts';

/** Reads lines with 1-based numbers and Fortran-style numbers, collecting warnings. */
class LineReader {
  readonly lines: string[];
  readonly warnings: string[] = [];
  private warnedD = false;

  constructor(text: string) {
    this.lines = splitLines(text);
  }

  /** Line `n` (1-based) or a ParseError naming what was expected there. */
  line(n: number, what: string): string {
    if (n > this.lines.length || (n === this.lines.length && this.lines[n - 1].trim() === '')) {
      throw new ParseError(`The file ends before the ${what}.`, n);
    }
    return this.lines[n - 1];
  }

  number(token: string | undefined, n: number, what: string): number {
    if (token === undefined) throw new ParseError(`The ${what} is missing.`, n);
    checkNumberToken(token, n, what);
    if (!DECIMAL_NUMBER.test(token)) throw new ParseError(`The value ${quoted(token)} is not a number (${what}).`, n);
    if (/[dD]/.test(token)) {
      if (!this.warnedD) this.warnings.push(`line ${n}: Fortran D exponent read as E`);
      this.warnedD = true;
      token = token.replace(/[dD]/, 'e');
    }
    const value = Number(token);
    if (!Number.isFinite(value)) throw new ParseError(`The value ${quoted(token)} is too large to represent (${what}).`, n);
    return value;
  }

  /** The first `count` numbers of line `n`; extra tokens are left to the caller. */
  numbers(n: number, count: number, what: string): { values: number[]; tokens: string[] } {
    const tokens = this.line(n, what)
      .trim()
      .split(/\s+/)
      .filter((t) => t !== '');
    if (tokens.length < count) {
      throw new ParseError(`Expected ${count} numbers (${what}) but found ${tokens.length} values.`, n);
    }
    const values: number[] = [];
    for (let i = 0; i < count; i++) values.push(this.number(tokens[i], n, what));
    return { values, tokens };
  }
}

/** Element symbol from a POSCAR species token: `Fe`, `Fe_pv`, `Fe/abc123` (POTCAR hash), case-insensitive. */
function speciesFromToken(token: string): string | null {
  return elementSymbolOf(token.split('/')[0].split('_')[0]) ?? null;
}

const isNumberToken = (t: string) => t.length <= LIMITS.numberChars && DECIMAL_NUMBER.test(t);
const isInteger = (t: string | undefined) => t !== undefined && t.length <= LIMITS.numberChars && /^\d+$/.test(t);

function parseSelectiveFlag(token: string | undefined, n: number): boolean {
  if (token === undefined) throw new ParseError(`Selective dynamics flags (three T/F values) are missing.`, n);
  const c = token[0].toUpperCase();
  if (c === 'T') return true;
  if (c === 'F') return false;
  throw new ParseError(`The value ${quoted(token)} is not a selective dynamics flag (T or F).`, n);
}

export function parsePoscar(text: string): ParseOutput {
  if (text.trim() === '') throw new ParseError('The POSCAR file is empty.', 1);
  const r = new LineReader(text);
  const comment = r.line(1, 'comment line').trim();

  // Scale: one factor (negative = target volume) or three per-Cartesian-axis factors.
  const scaleTokens = r.line(2, 'scale factor').trim().split(/\s+/);
  const scaleCount =
    scaleTokens.length >= 3 && scaleTokens.slice(0, 3).every((t) => t.length <= LIMITS.numberChars && DECIMAL_NUMBER.test(t)) ? 3 : 1;
  const scales = scaleTokens.slice(0, scaleCount).map((t) => r.number(t, 2, 'scale factor'));
  if (scales.some((s) => s === 0)) throw new ParseError('The scale factor must not be zero.', 2);
  if (scaleCount === 3 && scales.some((s) => s < 0)) {
    throw new ParseError('Three scale factors must all be positive.', 2);
  }

  const raw: Vec3[] = [3, 4, 5].map((n) => r.numbers(n, 3, 'lattice vector').values as Vec3);
  let factor: Vec3;
  if (scaleCount === 3) factor = scales as Vec3;
  else if (scales[0] < 0) {
    const volume = Math.abs(det(raw as Mat3));
    if (volume === 0) throw new ParseError('The lattice vectors (lines 3-5) are linearly dependent.', 3);
    const s = cbrt(-scales[0] / volume);
    factor = [s, s, s];
  } else factor = [scales[0], scales[0], scales[0]];
  const matrix = raw.map((v) => [v[0] * factor[0], v[1] * factor[1], v[2] * factor[2]]) as Mat3;
  if (matrix.some((v) => v.some((x) => !Number.isFinite(x)))) {
    throw new ParseError('The scaled lattice vectors (lines 3-5) are too large to represent.', 3);
  }
  if (Math.abs(det(matrix)) < 1e-12) throw new ParseError('The lattice vectors (lines 3-5) are linearly dependent.', 3);
  let lattice: Lattice;
  try {
    lattice = new Lattice(matrix);
  } catch {
    throw new ParseError('The lattice vectors (lines 3-5) are linearly dependent.', 3);
  }
  const cell = cellProblem(lattice);
  if (cell) throw new ParseError(`The lattice vectors (lines 3-5): ${cell}.`, 3);

  // Line 6: species names (VASP 5) or atom counts (VASP 4). VASP writes more than 20 species groups
  // over several lines; like pymatgen (Poscar.from_str in pymatgen/io/vasp/inputs.py) the species run
  // until the first line (of at most 10) that starts with an integer, and the counts take as many lines.
  let n = 6;
  let speciesNames: string[] | null = null;
  const words = (k: number, what: string) => r.line(k, what).trim().split(/\s+/);
  const line6 = words(6, 'species names or atom counts');
  let countLines = 1;
  if (!isInteger(line6[0])) {
    speciesNames = [];
    let speciesLines = 1;
    while (speciesLines < 10 && 6 + speciesLines <= r.lines.length && !isInteger(words(6 + speciesLines, 'atom counts')[0])) speciesLines++;
    if (!isInteger((r.lines[6 + speciesLines - 1] ?? '').trim().split(/\s+/)[0])) speciesLines = 1;
    for (let k = 6; k < 6 + speciesLines; k++) {
      for (const token of words(k, 'species names')) {
        if (token.startsWith('!') || token.startsWith('#')) break;
        checkToken(token, k, 'species');
        const symbol = speciesFromToken(token);
        if (!symbol) throw new ParseError(`The species ${quoted(token)} is not an element symbol.`, k);
        speciesNames.push(symbol);
      }
    }
    if (speciesLines > 1) {
      r.warnings.push(
        `lines 6-${5 + speciesLines}: the species and the atom counts each run over ${speciesLines} lines; read as pymatgen reads them`,
      );
    }
    countLines = speciesLines;
    n = 6 + speciesLines;
  }
  const counts: number[] = [];
  let total = 0;
  for (let k = n; k < n + countLines; k++) {
    const countTokens = words(k, 'atom counts');
    for (const t of countTokens) {
      if (!isInteger(t)) {
        if ((counts.length === 0 && k === n) || !/^[!#]/.test(t)) {
          throw new ParseError(`The atom count ${quoted(t)} is not a whole number.`, k);
        }
        break;
      }
      counts.push(Number(t));
      total += Number(t);
      // Checked before any position is read: a header may claim 1e12 atoms.
      if (total > LIMITS.atoms) throw new ParseError(`${limitSentence('The POSCAR', total, LIMITS.atoms, 'atoms', 'atoms')}.`, k);
    }
  }
  n += countLines - 1;
  if (speciesNames && counts.length !== speciesNames.length) {
    throw new ParseError(
      `There are ${counts.length} atom counts but ${countLines > 1 ? `lines 6-${5 + countLines} name` : 'line 6 names'} ` +
        `${speciesNames.length} species.`,
      n,
    );
  }
  const nsites = counts.reduce((a, b) => a + b, 0);
  if (nsites === 0) throw new ParseError('The file declares no atoms.', n);
  n++;

  let selective = false;
  if (/^[sS]/.test(r.line(n, 'coordinate type').trim())) {
    selective = true;
    n++;
  }
  const coordLine = r.line(n, 'coordinate type (Direct or Cartesian)').trim();
  if (coordLine === '') throw new ParseError('Expected the coordinate type (Direct or Cartesian) on this line.', n);
  const cartesian = /^[cCkK]/.test(coordLine);
  const firstPos = n + 1;

  // Positions: 3 numbers, then 3 flags under selective dynamics, then an optional species label.
  const coords: Vec3[] = [];
  const flags: [boolean, boolean, boolean][] = [];
  const trailing: (string | undefined)[] = [];
  for (let i = 0; i < nsites; i++) {
    const ln = firstPos + i;
    if (ln > r.lines.length || r.lines[ln - 1].trim() === '') {
      throw new ParseError(`Expected ${nsites} atom positions but found only ${i}.`, ln);
    }
    const { values, tokens } = r.numbers(ln, 3, 'atom position');
    coords.push(values as Vec3);
    let k = 3;
    if (selective) {
      flags.push([parseSelectiveFlag(tokens[3], ln), parseSelectiveFlag(tokens[4], ln), parseSelectiveFlag(tokens[5], ln)]);
      k = 6;
    }
    trailing.push(tokens[k]);
  }

  // Species per site: species line; else trailing labels (pymatgen); else the comment line's
  // element symbols (ASE); else pymatgen's placeholder names H, He, Li… with a warning.
  let symbols: string[] | null = null;
  if (speciesNames) symbols = speciesNames;
  let perSite: string[] | null = null;
  if (!symbols) {
    const labels = trailing.map((t) => (t === undefined ? null : speciesFromToken(t)));
    if (labels.every((l) => l !== null)) perSite = labels as string[];
  }
  if (!symbols && !perSite) {
    const fromComment = symbolsFromComment(comment);
    if (fromComment.length >= counts.length) {
      symbols = fromComment.slice(0, counts.length);
      r.warnings.push(`line 1: no species line; element symbols taken from the comment line (${symbols.join(' ')})`);
    }
  }
  if (!symbols && !perSite) {
    symbols = counts.map((_, i) => elementByNumber(i + 1)!.symbol);
    r.warnings.push(
      `line 6: the species cannot be determined (no species line, labels or symbols in the comment); ` +
        `using placeholder names ${symbols.join(' ')} as pymatgen does`,
    );
  }
  if (!perSite) {
    perSite = [];
    counts.forEach((c, i) => {
      for (let j = 0; j < c; j++) perSite!.push(symbols![i]);
    });
  }

  const sites: Site[] = coords.map((c, i) => {
    const species = { [perSite![i]]: 1 };
    const site = cartesian
      ? makeSiteFromCart(lattice, [c[0] * factor[0], c[1] * factor[1], c[2] * factor[2]], species)
      : makeSiteFromFrac(lattice, c, species);
    if (selective) site.properties = { selective_dynamics: flags[i] };
    return site;
  });

  readVelocities(r, firstPos + nsites, nsites, sites);

  const structure: Structure = { name: comment, lattice, sites, properties: { comment } };
  return { structures: [structure], warnings: r.warnings };
}

/**
 * Element symbols read from a VASP 4 comment line the way ASE does: each word, stripped of digits and
 * `-_,.=`, that spells a run of element symbols (`Na2` → Na, `FeO` → Fe O) contributes them in order;
 * other words are ignored.
 */
export function symbolsFromComment(comment: string): string[] {
  const out: string[] = [];
  for (const word of comment.split(/\s+/)) {
    const bare = word.replace(/[-_,.=0-9]/g, '');
    if (bare === '' || !/^([A-Z][a-z]?)+$/.test(bare)) continue;
    const parts = bare.match(/[A-Z][a-z]?/g)!;
    if (parts.every((p) => elementBySymbol(p)?.symbol === p)) out.push(...parts);
  }
  return out;
}

/**
 * An MD CONTCAR continues, after a blank line, with one Cartesian velocity per atom (optionally
 * under a coordinate-type line). Anything that does not fit that shape is left alone.
 */
function readVelocities(r: LineReader, after: number, nsites: number, sites: Site[]): void {
  let n = after;
  if (n > r.lines.length || r.lines[n - 1].trim() !== '') return;
  n++;
  if (n <= r.lines.length && /^\s*[cCkKdD][a-zA-Z]*\s*$/.test(r.lines[n - 1])) n++;
  const velocities: Vec3[] = [];
  for (let i = 0; i < nsites; i++, n++) {
    const tokens = (r.lines[n - 1] ?? '').trim().split(/\s+/);
    if (tokens.length < 3 || !tokens.slice(0, 3).every(isNumberToken)) {
      if (i > 0 || (r.lines[n - 1] ?? '').trim() !== '') {
        r.warnings.push(`line ${n}: the block after the positions is not a velocity block; it was ignored`);
      }
      return;
    }
    const velocity = tokens.slice(0, 3).map((t) => Number(t.replace(/[dD]/, 'e'))) as Vec3;
    if (!velocity.every(Number.isFinite)) throw new ParseError('A velocity component is too large to represent.', n);
    velocities.push(velocity);
  }
  sites.forEach((site, i) => {
    site.properties = { ...site.properties, velocities: velocities[i] };
  });
}

/** Shortest round-trip text, right-aligned in VASP's columns. */
const num = (x: number): string => ' ' + shortestNumber(x, 'POSCAR').padStart(21);

/**
 * VASP 5 POSCAR. Site order is kept exactly: consecutive runs of one element form one species
 * group, so an element may appear in several groups (`Na Cl Na`), which VASP accepts.
 */
export function writePoscar(structure: Structure): string {
  const lattice = structure.lattice;
  if (!lattice) throw new Error('POSCAR needs a periodic structure; this structure has no lattice.');
  if (structure.sites.length === 0) throw new Error('POSCAR cannot hold a structure without atoms.');
  const groups: { symbol: string; count: number }[] = [];
  for (const [i, site] of structure.sites.entries()) {
    const symbol = orderedSymbol(site, i, 'POSCAR');
    const last = groups[groups.length - 1];
    if (last && last.symbol === symbol) last.count++;
    else groups.push({ symbol, count: 1 });
  }
  const selective = structure.sites.some((s) => isFlags(s.properties?.selective_dynamics));
  const hasVelocities = structure.sites.every((s) => isVec3(s.properties?.velocities));

  const rawComment = String(structure.properties?.comment ?? structure.name ?? '');
  const comment = rawComment.replace(/[\r\n]+/g, ' ').trim() || groups.map((g) => g.symbol + g.count).join(' ');
  const out: string[] = [comment, '1.0'];
  for (const v of lattice.matrix) out.push(v.map(num).join(''));
  out.push(groups.map((g) => ' ' + g.symbol.padStart(4)).join(''));
  out.push(groups.map((g) => ' ' + String(g.count).padStart(4)).join(''));
  if (selective) out.push('Selective dynamics');
  out.push('Direct');
  for (const site of structure.sites) {
    const f = fracOf(site, lattice);
    let line = f.map(num).join('');
    if (selective) {
      const sd = site.properties?.selective_dynamics;
      const fl = isFlags(sd) ? sd : [true, true, true];
      line += ' ' + fl.map((b) => (b ? 'T' : 'F')).join(' ');
    }
    out.push(line);
  }
  if (hasVelocities) {
    out.push('');
    for (const site of structure.sites) out.push((site.properties!.velocities as Vec3).map(num).join(''));
  }
  return out.join('\n') + '\n';
}

const isFlags = (v: unknown): v is boolean[] => Array.isArray(v) && v.length === 3 && v.every((b) => typeof b === 'boolean');
const isVec3 = (v: unknown): v is Vec3 => Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === 'number');

/** Content test: a comment, one or three scale numbers, then three lines of three numbers. */
function sniffPoscar(text: string): boolean {
  const lines = text.split(/\r?\n/, 8).map((l) => l.trim().split(/\s+/));
  if (lines.length < 8) return false;
  const nums = (toks: string[], k: number) => toks.length >= k && toks.slice(0, k).every(isNumberToken);
  if (!(nums(lines[1], 1) && (lines[1].length === 1 || nums(lines[1], 3) || !isNumberToken(lines[1][1])))) return false;
  if (![2, 3, 4].every((i) => nums(lines[i], 3))) return false;
  const countsLine = isInteger(lines[5][0]) ? lines[5] : lines[6];
  return countsLine.length > 0 && countsLine.every((t, i) => isInteger(t) || i > 0);
}

export const poscarFormat: FormatModule = {
  id: 'poscar',
  extensions: ['.vasp', '.poscar', 'POSCAR', 'CONTCAR'],
  sniff: sniffPoscar,
  parse: parsePoscar,
  write: writePoscar,
};
