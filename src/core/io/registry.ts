import { majorSpecies, type Structure } from '../structure/structure.ts';
import { type FormatModule, ParseError, type ParseResult } from './types.ts';
import { cifFormat } from './cif/index.ts';
import { poscarFormat } from './poscar.ts';
import { extxyzFormat, parseXyzFrames, xyzFormat } from './xyz.ts';
import { pymatgenJsonFormat } from './pymatgen-json.ts';

/** All readable/writable formats. Order matters for content sniffing: most specific first. */
export const FORMATS: FormatModule[] = [cifFormat, poscarFormat, xyzFormat, extxyzFormat, pymatgenJsonFormat];

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
  return FORMATS.find((f) => f.extensions.some((e) => !e.startsWith('.') && lower.includes(e.toLowerCase()))) ?? null;
}

/** Picks a format from the file name first, then by sniffing the content. */
export function detectFormat(fileName: string, text: string): FormatModule | null {
  const named = formatFromName(fileName, text);
  if (named) return named;
  // Sniff: extxyz before plain xyz, since every extxyz file is also a valid plain xyz file.
  for (const id of ['pymatgen-json', 'cif', 'extxyz', 'xyz', 'poscar'] as const) {
    const f = byId(id);
    if (f.sniff(text)) return f;
  }
  return null;
}

/**
 * The first non-finite lattice entry or site coordinate, described; null when all are finite.
 * A safety net behind the readers, which reject overflowing numbers themselves: later steps
 * (Cartesian conversion, scale factors) can still overflow, and Infinity must not reach a viewer.
 */
function nonFiniteProblem(structures: Structure[]): string | null {
  for (const [k, s] of structures.entries()) {
    const which = structures.length > 1 ? `Structure ${k + 1} ("${s.name}")` : `The structure "${s.name}"`;
    if (s.lattice && s.lattice.matrix.some((row) => row.some((x) => !Number.isFinite(x)))) {
      return `${which} has a lattice vector that is not a finite number.`;
    }
    for (const [i, site] of s.sites.entries()) {
      if (!site.xyz.every(Number.isFinite) || (site.frac && !site.frac.every(Number.isFinite))) {
        return `${which}, site ${i + 1}: a coordinate is not a finite number.`;
      }
    }
  }
  return null;
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
    const problem = nonFiniteProblem(out.structures);
    if (problem) return { ok: false, format: format.id, error: problem };
    return { ok: true, format: format.id, ...out };
  } catch (e) {
    const id = format?.id ?? null;
    if (e instanceof ParseError) return { ok: false, format: id, error: e.message, line: e.line };
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, format: id, error: message };
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
  let format: FormatModule | null = null;
  try {
    format = detectFormat(fileName, text);
  } catch {
    format = null;
  }
  if (format?.id === 'xyz') {
    try {
      const { frames, warnings } = parseXyzFrames(text);
      return {
        ok: true, format: 'xyz', warnings,
        particles: frames.map((f, k) => ({ name: f.comment.trim() || `frame ${k + 1}`, symbols: f.symbols, coords: f.coords })),
      };
    } catch (e) {
      if (e instanceof ParseError) return { ok: false, format: 'xyz', error: e.message, line: e.line };
      return { ok: false, format: 'xyz', error: e instanceof Error ? e.message : String(e) };
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

/** Output format from a file name: .cif .xyz .extxyz POSCAR CONTCAR .vasp .poscar .json. */
export function formatForOutputName(fileName: string): FormatModule | null {
  return formatFromName(fileName, null);
}

/** Serialises a structure in the format named by `fileName`; throws Error with a clear message. */
export function writeStructureFile(structure: Structure, fileName: string): string {
  const format = formatForOutputName(fileName);
  if (!format) {
    throw new Error(
      `Cannot tell the output format from the name "${baseName(fileName)}"; use .cif, .xyz, .extxyz, .vasp, .poscar, .json, POSCAR or CONTCAR.`,
    );
  }
  return format.write(structure);
}
