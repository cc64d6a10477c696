/**
 * The sets the generation metrics read (predictions, truths, a reference set), from texts already read:
 * a folder's structure files, one extended XYZ file of frames, or one JSONL file of pymatgen dicts.
 * Every structure is normalised as the upstream scripts see it (txie-93/cdvae `scripts/compute_metrics.py`
 * rebuilds each from atomic numbers: oxidation states gone); partial occupancy is refused. README.md here.
 */
import { withPymatgenThirds } from '../../io/cif/reader.ts';
import { parseStructureFile } from '../../io/registry.ts';
import { checkLimit, printable } from '../../limits.ts';
import type { Structure } from '../../structure/structure.ts';
import { smactAtomicNumber } from './smact.ts';

/** Bad input for the gen commands: one sentence naming the file (and line or frame); the CLI exits 2. */
export class GenInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GenInputError';
  }
}

export interface GenItem {
  id: string;
  /** Ordered, periodic, one element per site with occupancy 1, no oxidation states. */
  structure: Structure;
  /** Where it came from, for messages: "pred/x.cif", "multi.extxyz frame 3", "set.jsonl line 7". */
  where: string;
}

/** File names a folder set reads: `.cif`, `.vasp`, `.poscar`, `.json`, not starting with '.'. */
const FOLDER_ENDINGS = ['.cif', '.vasp', '.poscar', '.json'];

export const isGenFolderFileName = (name: string): boolean =>
  !name.startsWith('.') && FOLDER_ENDINGS.some((e) => name.toLowerCase().endsWith(e) && name.length > e.length);

/** Code-point order (String comparison in JS is by UTF-16 unit, which differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a],
    y = [...b];
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    const d = x[k].codePointAt(0)! - y[k].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const q = (text: string): string => printable(text, 120);

/** Symbols the readers may keep that are hydrogen to SMACT and pymatgen's atomic numbers. */
const HYDROGEN_ISOTOPES = new Set(['D', 'T']);

/** The structure as the metrics see it, or a GenInputError naming `where`. */
function normalise(s: Structure, where: string): Structure {
  if (!s.lattice) throw new GenInputError(`${where} has no lattice; gen commands need periodic crystals`);
  if (s.sites.length === 0) throw new GenInputError(`${where} has no sites`);
  if (!s.lattice.matrix.every((r) => r.every(Number.isFinite))) throw new GenInputError(`${where} has a lattice that is not finite`);
  const sites = s.sites.map((site, i) => {
    const entries = Object.entries(site.species);
    if (entries.length !== 1 || Math.abs(entries[0][1] - 1) > 1e-12) {
      throw new GenInputError(`${where} site ${i} is partially occupied; gen commands need ordered structures`);
    }
    let symbol = entries[0][0];
    if (HYDROGEN_ISOTOPES.has(symbol)) symbol = 'H';
    const z = smactAtomicNumber(symbol);
    if (z === undefined) {
      throw new GenInputError(`${where} site ${i} holds "${q(symbol)}", not an element with Z ≤ 103 (SMACT has data up to Lr)`);
    }
    if (!site.xyz.every(Number.isFinite) || (site.frac && !site.frac.every(Number.isFinite)))
      throw new GenInputError(`${where} site ${i} has a coordinate that is not finite`);
    const out: Structure['sites'][number] = { species: { [symbol]: 1 }, xyz: [...site.xyz] };
    if (site.frac) out.frac = [...site.frac];
    return out;
  });
  return { name: s.name, lattice: s.lattice, sites };
}

/** Count and size limits of one set: structures (LIMITS.fileStructures), atoms in all of them (LIMITS.fileAtoms). */
function checkSetLimits(label: string, items: GenItem[]): void {
  checkLimit('fileStructures', `The ${label} set`, items.length, 'structures');
  let atoms = 0;
  for (const it of items) atoms += it.structure.sites.length;
  checkLimit('fileAtoms', `The ${label} set`, atoms, 'atoms in all its structures');
}

function checkUnique(items: GenItem[], name: string): void {
  const seen = new Map<string, GenItem>();
  for (const it of items) {
    const earlier = seen.get(it.id);
    if (earlier) throw new GenInputError(`${name}: the id "${q(it.id)}" is used twice (${earlier.where} and ${it.where})`);
    seen.set(it.id, it);
  }
}

const parseFailure = (where: string, r: { error: string; line?: number }): string =>
  `${where}${r.line !== undefined ? ` line ${r.line}` : ''} cannot be read (${r.error.replace(/\.\s*$/, '')})`;

/**
 * A folder: every file `isGenFolderFileName` accepts is one structure (a CIF must hold exactly one),
 * id = the name without its ending; ids sorted by code point. `folder` names the set in messages; each
 * file is named `folder/name`.
 */
export function setFromFolder(label: string, folder: string, files: readonly { name: string; text: string }[]): GenItem[] {
  const chosen = files.filter((f) => isGenFolderFileName(f.name));
  checkLimit('fileStructures', `The ${label} folder ${folder}`, chosen.length, 'structure files');
  const items = chosen.map((f): GenItem => {
    const where = `${folder}/${f.name}`;
    if (f.text.trim() === '') throw new GenInputError(`${where} is empty`);
    const r = parseStructureFile(f.text, f.name);
    if (!r.ok) throw new GenInputError(parseFailure(where, r));
    if (r.structures.length !== 1) throw new GenInputError(`${where} holds ${r.structures.length} structures; one file must hold one`);
    const dot = f.name.lastIndexOf('.');
    // As pymatgen's CifParser reads it (the upstream scripts do): coordinates near 1/3 and 2/3 snapped in P1 too.
    const structure = normalise(r.format === 'cif' ? withPymatgenThirds(r.structures[0]) : r.structures[0], where);
    return { id: f.name.slice(0, dot), structure, where };
  });
  items.sort((a, b) => compareCodePoints(a.id, b.id));
  if (items.length === 0) throw new GenInputError(`the ${label} folder ${folder} holds no .cif, .vasp, .poscar or .json file`);
  checkUnique(items, folder);
  checkSetLimits(label, items);
  return items;
}

/** The `id=` value of a frame as text (the reader types it: numbers and T/F come back as such). */
function idText(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'T' : 'F';
  if (Array.isArray(value)) return value.map((v) => idText(v)).join(' ');
  return String(value);
}

/** One extended XYZ file: each frame needs Lattice= and pbc all true; id = `id=` or the frame index 0, 1, …; frame order. */
export function setFromExtxyz(label: string, fileName: string, text: string): GenItem[] {
  if (text.trim() === '') throw new GenInputError(`${fileName} is empty`);
  const r = parseStructureFile(text, fileName.toLowerCase().endsWith('.extxyz') ? fileName : `${fileName}.extxyz`);
  if (!r.ok) throw new GenInputError(parseFailure(fileName, r));
  const items = r.structures.map((s, k): GenItem => {
    const where = `${fileName} frame ${k}`;
    if (!s.lattice) throw new GenInputError(`${where} has no Lattice=; gen commands need periodic crystals`);
    const pbc = s.properties?.pbc;
    if (Array.isArray(pbc) && !pbc.every((p) => p === true))
      throw new GenInputError(`${where} is not periodic in all three directions (pbc)`);
    const id = idText(s.properties?.id) ?? String(k);
    return { id, structure: normalise(s, where), where };
  });
  checkUnique(items, fileName);
  checkSetLimits(label, items);
  return items;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One JSONL file: each non-blank line `{"id": "<string>", "structure": <Structure.as_dict()>}`; line order. */
export function setFromJsonl(label: string, fileName: string, text: string): GenItem[] {
  const lines = text.split(/\r?\n/);
  checkLimit('batchRows', fileName, lines.length, 'lines');
  const items: GenItem[] = [];
  let atoms = 0;
  lines.forEach((line, k) => {
    if (line.trim() === '') return;
    const where = `${fileName} line ${k + 1}`;
    let d: unknown;
    try {
      d = JSON.parse(line);
    } catch (e) {
      throw new GenInputError(`${where} is not valid JSON (${(e as Error).message.replace(/\.\s*$/, '')})`);
    }
    if (!isObject(d) || typeof d.id !== 'string' || !isObject(d.structure))
      throw new GenInputError(`${where} needs a string "id" and an object "structure"`);
    const r = parseStructureFile(JSON.stringify(d.structure), 'structure.json');
    if (!r.ok) throw new GenInputError(`${where}: the structure cannot be read (${r.error.replace(/\.\s*$/, '')})`);
    const structure = normalise(r.structures[0], where);
    atoms += structure.sites.length;
    checkLimit('fileAtoms', fileName, atoms, 'atoms in all its structures');
    items.push({ id: d.id, structure, where });
  });
  if (items.length === 0) throw new GenInputError(`${fileName} holds no structure`);
  checkUnique(items, fileName);
  checkSetLimits(label, items);
  return items;
}

/** One truth with its predictions, k ascending (k = 0 when --n-samples is 1). */
export interface CspGroup {
  truth: GenItem;
  samples: { k: number; pred: GenItem }[];
}

/**
 * CSP pairing. K = 1: the prediction ids are exactly the truth ids. K > 1: every prediction id reads
 * `TRUTHID__k` (split at the last `__`, k decimal digits; lantunes/CrystaLLM `bin/benchmark_metrics.py`
 * naming) and every truth has exactly K of them with distinct k. Groups sorted by truth id (code points).
 */
export function pairCsp(preds: readonly GenItem[], truths: readonly GenItem[], nSamples: number): CspGroup[] {
  if (!Number.isInteger(nSamples) || nSamples < 1) throw new GenInputError(`--n-samples must be a whole number ≥ 1, got ${nSamples}`);
  const groups = new Map<string, CspGroup>(truths.map((t) => [t.id, { truth: t, samples: [] }]));
  for (const p of preds) {
    let truthId = p.id,
      k = 0;
    if (nSamples > 1) {
      const cut = p.id.lastIndexOf('__');
      const digits = cut >= 0 ? p.id.slice(cut + 2) : '';
      if (cut < 0 || !/^[0-9]+$/.test(digits) || !Number.isSafeInteger(Number(digits)))
        throw new GenInputError(`prediction ${q(p.id)} is not named TRUTHID__k, which --n-samples ${nSamples} needs`);
      truthId = p.id.slice(0, cut);
      k = Number(digits);
    }
    const g = groups.get(truthId);
    if (!g) throw new GenInputError(`prediction ${q(p.id)} has no truth with the same id${nSamples > 1 ? ` (${q(truthId)})` : ''}`);
    const clash = g.samples.find((s) => s.k === k);
    if (clash) throw new GenInputError(`predictions ${q(clash.pred.id)} and ${q(p.id)} are the same sample ${k} of truth ${q(truthId)}`);
    g.samples.push({ k, pred: p });
  }
  for (const g of groups.values()) {
    if (g.samples.length !== nSamples)
      throw new GenInputError(`truth ${q(g.truth.id)} has ${g.samples.length} predictions, --n-samples is ${nSamples}`);
    g.samples.sort((a, b) => a.k - b.k);
  }
  return [...groups.values()].sort((a, b) => compareCodePoints(a.truth.id, b.truth.id));
}
