import { majorSpecies, type Structure } from '../structure/structure.ts';
import { type FormatModule, ParseError, type ParseResult } from './types.ts';
import { cifFormat } from './cif/index.ts';
import { poscarFormat } from './poscar.ts';
import { extxyzFormat, parseXyzFrames, xyzFormat } from './xyz.ts';
import { pymatgenJsonFormat } from './pymatgen-json.ts';
import { xdatcarFormat } from './xdatcar.ts';
import { jsonlFramesFormat } from './jsonl-frames.ts';
import { cellProblem } from './common.ts';
import { LIMITS, limitSentence, printable, quoted, groupedNumber } from '../limits.ts';

/** All readable/writable formats. Order matters for content sniffing: most specific first. */
export const FORMATS: FormatModule[] = [
  cifFormat,
  poscarFormat,
  xyzFormat,
  extxyzFormat,
  pymatgenJsonFormat,
  xdatcarFormat,
  jsonlFramesFormat,
];

const byId = (id: FormatModule['id']): FormatModule => FORMATS.find((f) => f.id === id)!;

/** The last path component, without directories (both separators, since names may come from Windows). */
function baseName(fileName: string): string {
  const parts = fileName.split(/[\\/]/);
  return parts[parts.length - 1] ?? '';
}

/** Extended XYZ is announced on the comment line by `Lattice=` or `Properties=`. */
function secondLineIsExtended(text: string): boolean {
  const lines = text.split(/\r?\n/, 3);
  return lines.length >= 2 && /(^|\s)(Lattice|Properties)\s*=/i.test(lines[1]);
}

/**
 * Format chosen from the file name alone, from the formats' `extensions`: a file-name ending (`.cif`)
 * first, then a claimed base name contained in the name, any case (`POSCAR_LaH10`, `x-CONTCAR.MD`).
 * `.xyz` is claimed by plain and extended XYZ; `text` decides between them (plain when absent).
 */
function formatFromName(fileName: string, text: string | null): FormatModule | null {
  const base = baseName(fileName);
  const lower = base.toLowerCase();
  const byEnding = FORMATS.filter((f) => f.extensions.some((e) => e.startsWith('.') && lower.endsWith(e)));
  if (byEnding.length > 1) {
    const extended = byEnding.find((f) => f.id === 'extxyz');
    const plain = byEnding.find((f) => f.id === 'xyz');
    if (extended && plain && byEnding.length === 2) return text !== null && secondLineIsExtended(text) ? extended : plain;
    throw new Error(`formats ${byEnding.map((f) => f.id).join(', ')} all claim the name "${base}"`);
  }
  if (byEnding.length === 1) return byEnding[0];
  // A name holding two VASP file names (a POSCAR turned into an XDATCAR: "x_POSCAR_XDATCAR") is the later one.
  let best: FormatModule | null = null,
    at = -1;
  for (const f of FORMATS)
    for (const e of f.extensions) {
      const k = e.startsWith('.') ? -1 : lower.lastIndexOf(e.toLowerCase());
      if (k > at) {
        best = f;
        at = k;
      }
    }
  return best;
}

/** Picks a format from the file name first, then by sniffing the content. */
export function detectFormat(fileName: string, text: string): FormatModule | null {
  const named = formatFromName(fileName, text);
  if (named) return named;
  // Sniff: extxyz before plain xyz, since every extxyz file is also a valid plain xyz file; JSON Lines before one JSON
  // document, XDATCAR before POSCAR (each first line or header alone reads as the other).
  for (const id of ['jsonl', 'pymatgen-json', 'cif', 'extxyz', 'xyz', 'xdatcar', 'poscar'] as const) {
    const f = byId(id);
    if (f.sniff(text)) return f;
  }
  return null;
}

/** How a structure is named in a message: by number when the file holds several. */
const structureWhich = (name: string, k: number, many: boolean): string =>
  many ? `Structure ${k + 1} ("${printable(name, 40)}")` : `The structure "${printable(name, 40)}"`;

/** The atom counts of one file: no empty structure, each within LIMITS.atoms, all within LIMITS.fileAtoms. */
function countProblem(counts: number[], names: string[]): string | null {
  if (counts.length > LIMITS.fileStructures)
    return `${limitSentence('The file', counts.length, LIMITS.fileStructures, 'structures', 'fileStructures')}.`;
  let total = 0;
  for (const [k, n] of counts.entries()) {
    const which = structureWhich(names[k], k, counts.length > 1);
    if (n === 0) return `${which} has no atoms.`;
    if (n > LIMITS.atoms) return `${limitSentence(which, n, LIMITS.atoms, 'atoms', 'atoms')}.`;
    total += n;
  }
  if (total > LIMITS.fileAtoms) return `${limitSentence('The file', total, LIMITS.fileAtoms, 'atoms in all its structures', 'fileAtoms')}.`;
  return null;
}

/** A Cartesian coordinate triple that is not finite or lies beyond ±LIMITS.coordinateAbs, described; else null. */
function coordinateProblem(which: string, i: number, x: number, y: number, z: number): string | null {
  if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z))
    return `${which}, site ${i + 1}: a coordinate is not a finite number.`;
  const worst = Math.max(Math.abs(x), Math.abs(y), Math.abs(z));
  if (worst > LIMITS.coordinateAbs) {
    return (
      `${which}, site ${i + 1}: a coordinate is ${worst.toPrecision(6)} Å from the origin; the limit is ` +
      `±${groupedNumber(LIMITS.coordinateAbs)} Å.`
    );
  }
  return null;
}

/**
 * The one validation step behind every reader (the readers refuse most of this themselves, with a line):
 * atom counts, finite lattice and coordinates within LIMITS.coordinateAbs, a cell that is not degenerate.
 * Later steps (Cartesian conversion, scale factors) can still overflow, and Infinity must not reach a viewer.
 */
function structureProblem(structures: Structure[]): string | null {
  const counts = countProblem(
    structures.map((s) => s.sites.length),
    structures.map((s) => s.name),
  );
  if (counts) return counts;
  for (const [k, s] of structures.entries()) {
    const which = structureWhich(s.name, k, structures.length > 1);
    if (s.lattice) {
      if (s.lattice.matrix.some((row) => row.some((x) => !Number.isFinite(x))))
        return `${which} has a lattice vector that is not a finite number.`;
      const cell = cellProblem(s.lattice);
      if (cell) return `${which}: ${cell}.`;
    }
    for (const [i, site] of s.sites.entries()) {
      if (site.frac && !site.frac.every(Number.isFinite)) return `${which}, site ${i + 1}: a coordinate is not a finite number.`;
      const p = coordinateProblem(which, i, site.xyz[0], site.xyz[1], site.xyz[2]);
      if (p) return p;
    }
  }
  return null;
}

/** The same checks for particles read straight into arrays (the plain-XYZ fast path). */
function particleProblem(particles: ParticleArrays[]): string | null {
  const counts = countProblem(
    particles.map((p) => p.symbols.length),
    particles.map((p) => p.name),
  );
  if (counts) return counts;
  for (const [k, p] of particles.entries()) {
    const which = structureWhich(p.name, k, particles.length > 1);
    const c = p.coords;
    for (let i = 0; i < p.symbols.length; i++) {
      const problem = coordinateProblem(which, i, c[3 * i], c[3 * i + 1], c[3 * i + 2]);
      if (problem) return problem;
    }
  }
  return null;
}

/** Messages and warnings echo file text: control characters escaped, length bounded, warnings capped. */
const cleanError = (message: string): string => printable(message.replace(/\s*[\r\n]+\s*/g, ' '), 600);
const MAX_WARNINGS = 50;
function cleanWarnings(warnings: string[]): string[] {
  const out = warnings.slice(0, MAX_WARNINGS).map((w) => printable(w, 400));
  if (warnings.length > MAX_WARNINGS) out.push(`${groupedNumber(warnings.length - MAX_WARNINGS)} more warnings not shown`);
  return out;
}

/** A thrown error as a refusal: one clean line, the line number where known. */
function failure(
  format: FormatModule['id'] | null,
  e: unknown,
): { ok: false; format: FormatModule['id'] | null; error: string; line?: number } {
  if (e instanceof ParseError)
    return e.line === undefined
      ? { ok: false, format, error: cleanError(e.message) }
      : { ok: false, format, error: cleanError(e.message), line: e.line };
  // RangeError (call stack, invalid array length) and the like: still one sentence, never a trace.
  const message =
    e instanceof RangeError ? 'The file is too large or too deeply nested to read.' : e instanceof Error ? e.message : String(e);
  return { ok: false, format, error: cleanError(message) };
}

/** Parses a file of any supported format; never throws. */
export function parseStructureFile(text: string, fileName: string): ParseResult {
  let format: FormatModule | null = null;
  try {
    format = detectFormat(fileName, text);
    if (!format) {
      return { ok: false, format: null, error: 'The file format could not be recognised from its name or content.' };
    }
    const out = format.parse(text);
    if (out.structures.length === 0) {
      return { ok: false, format: format.id, error: 'The file holds no structure.' };
    }
    const problem = structureProblem(out.structures);
    if (problem) return { ok: false, format: format.id, error: problem };
    return { ok: true, format: format.id, structures: out.structures, warnings: cleanWarnings(out.warnings) };
  } catch (e) {
    return failure(format?.id ?? null, e);
  }
}

/** Species and Cartesian positions of a finite set of atoms (a nanoparticle). */
export interface ParticleArrays {
  name: string;
  symbols: string[];
  coords: Float64Array;
}

export type ParticleParseResult =
  | { ok: true; format: FormatModule['id']; particles: ParticleArrays[]; warnings: string[] }
  | { ok: false; format: FormatModule['id'] | null; error: string; line?: number };

/**
 * A file read as particles (majority species per site, Cartesian positions). Plain XYZ, the particle format,
 * is read straight into arrays; every other format goes through parseStructureFile. Never throws.
 */
export function parseParticleFile(text: string, fileName: string): ParticleParseResult {
  let format: FormatModule | null;
  try {
    format = detectFormat(fileName, text);
  } catch {
    format = null;
  }
  if (format?.id === 'xyz') {
    try {
      const { frames, warnings } = parseXyzFrames(text);
      const particles = frames.map((f, k) => ({ name: f.comment.trim() || `frame ${k + 1}`, symbols: f.symbols, coords: f.coords }));
      const problem = particleProblem(particles);
      if (problem) return { ok: false, format: 'xyz', error: problem };
      return { ok: true, format: 'xyz', warnings: cleanWarnings(warnings), particles };
    } catch (e) {
      return failure('xyz', e);
    }
  }
  const parsed = parseStructureFile(text, fileName);
  if (!parsed.ok) return parsed;
  const particles = parsed.structures.map((s) => {
    const coords = new Float64Array(3 * s.sites.length);
    s.sites.forEach((site, i) => coords.set(site.xyz, 3 * i));
    return { name: s.name, symbols: s.sites.map(majorSpecies), coords };
  });
  return { ok: true, format: parsed.format, particles, warnings: parsed.warnings };
}

/** Output format from a file name: .cif .xyz .extxyz POSCAR CONTCAR .vasp .poscar .json XDATCAR .jsonl. */
export function formatForOutputName(fileName: string): FormatModule | null {
  return formatFromName(fileName, null);
}

/** Serialises a structure in the format named by `fileName`; throws Error with a clear message. */
export function writeStructureFile(structure: Structure, fileName: string): string {
  const format = formatForOutputName(fileName);
  if (!format) {
    throw new Error(
      `Cannot tell the output format from the name ${quoted(baseName(fileName))}; ` +
        'use .cif, .xyz, .extxyz, .vasp, .poscar, .json, .jsonl, POSCAR, CONTCAR or XDATCAR.',
    );
  }
  return format.write(structure);
}
