/**
 * The inputs of energies above hull (`gen eval --energies E --hull-reference R`): total energies per prediction and
 * the reference entries, read from texts already read; then each prediction's energy above hull and decomposition
 * (src/core/analysis/phase-diagram.ts). Keys from files go into Maps; every failure is one GenInputError sentence.
 */
import { type PDEntry, PhaseDiagram, PhaseDiagramError, compositionFormula, parseFormula } from '../../analysis/phase-diagram.ts';
import { errorText } from '../../errors.ts';
import { CsvError, parseCsv } from '../../io/csv.ts';
import { parseStructureFile } from '../../io/registry.ts';
import { checkLimit, printable } from '../../limits.ts';
import { GenInputError, type GenItem } from './inputs.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const lower = (name: string) => name.toLowerCase();

function csvRows(name: string, text: string, columns: readonly [string, string]): { a: string; b: string; line: number }[] {
  let records;
  try {
    records = parseCsv(text, name);
  } catch (e) {
    if (e instanceof CsvError) throw new GenInputError(`${name}: ${e.message}`);
    throw e;
  }
  if (records.length === 0) throw new GenInputError(`${name} is empty`);
  const header = records[0].fields.map((f) => f.trim());
  const ia = header.indexOf(columns[0]),
    ib = header.indexOf(columns[1]);
  if (ia < 0 || ib < 0) throw new GenInputError(`${name} needs a header row with the columns ${columns[0]} and ${columns[1]}`);
  return records.slice(1).map((r) => {
    if (r.fields.length !== header.length)
      throw new GenInputError(`${name} line ${r.line} has ${r.fields.length} fields; the header has ${header.length}`);
    return { a: r.fields[ia].trim(), b: r.fields[ib].trim(), line: r.line };
  });
}

/** A number from a CSV field or null for an empty field or "null"; anything else that is not a finite number is refused. */
function csvEnergy(where: string, text: string): number | null {
  if (text === '' || text === 'null') return null;
  const v = text.length <= 64 ? Number(text) : NaN;
  if (!Number.isFinite(v)) throw new GenInputError(`${where}: the energy "${printable(text, 40)}" is not a finite number`);
  return v;
}

/**
 * Total energies (eV) per prediction id: an extended XYZ file (each frame's `energy=`, id = `id=` or the frame index,
 * as the prediction set reads it), a JSON object {id: eV or null}, or a CSV with the columns id and energy.
 * Returns the raw values by id; energiesFor (inputs.ts) checks that every prediction has a finite number or null.
 */
export function parseTotalEnergies(name: string, text: string): Map<string, unknown> {
  const n = lower(name);
  if (n.endsWith('.extxyz') || n.endsWith('.xyz')) {
    const r = parseStructureFile(text, n.endsWith('.extxyz') ? name : `${name}.extxyz`);
    if (!r.ok) throw new GenInputError(`${name} cannot be read (${r.error.replace(/\.\s*$/, '')})`);
    const out = new Map<string, unknown>();
    r.structures.forEach((s, k) => {
      const id = s.properties?.id;
      const key = typeof id === 'string' || typeof id === 'number' ? String(id) : String(k);
      const e = s.properties?.energy;
      if (e === undefined) throw new GenInputError(`${name} frame ${k} has no energy=`);
      out.set(key, e);
    });
    return out;
  }
  if (n.endsWith('.csv')) {
    const rows = csvRows(name, text, ['id', 'energy']);
    checkLimit('batchRows', name, rows.length, 'rows');
    return new Map(rows.map((r) => [r.a, csvEnergy(`${name} line ${r.line}`, r.b)]));
  }
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch (e) {
    throw new GenInputError(`${name} is not valid JSON (${errorText(e).replace(/\.\s*$/, '')})`);
  }
  if (!isObject(d)) throw new GenInputError(`${name} must be a JSON object {"id": total energy in eV or null}`);
  return new Map(Object.entries(d));
}

/** One reference entry from a JSON object: {composition: {...} | "formula", energy, correction?} (pymatgen as_dict too). */
function entryFromJson(where: string, d: unknown): PDEntry {
  if (!isObject(d)) throw new GenInputError(`${where} must be a JSON object with "composition" and "energy"`);
  const c = d.composition;
  let composition: Map<string, number>;
  try {
    if (typeof c === 'string') composition = parseFormula(c);
    else if (isObject(c)) composition = new Map(Object.entries(c).map(([k, v]) => [k, v as number]));
    else throw new GenInputError(`${where} needs "composition" as an object {"Fe": 2, "O": 3} or a formula string`);
  } catch (e) {
    if (e instanceof PhaseDiagramError) throw new GenInputError(`${where}: ${e.message}`);
    throw e;
  }
  const energy = d.energy,
    correction = d.correction ?? 0;
  if (typeof energy !== 'number' || !Number.isFinite(energy)) throw new GenInputError(`${where} needs a finite number "energy" (eV)`);
  if (typeof correction !== 'number' || !Number.isFinite(correction))
    throw new GenInputError(`${where} has a "correction" that is not a finite number`);
  // pymatgen ComputedEntry.as_dict(): "energy" is the uncorrected energy; ComputedEntry.energy adds the correction.
  return { composition, energy: energy + correction, name: typeof d.entry_id === 'string' ? d.entry_id : undefined };
}

/**
 * Reference entries: JSONL (one entry a line), a JSON array of entries, or a CSV with the columns formula and energy;
 * an entry is {composition: {...} or "formula", energy: eV, correction?: eV} — pymatgen ComputedEntry/PDEntry as_dict()
 * included. Returns the entries and where each came from.
 */
export function parseHullReference(name: string, text: string): { entries: PDEntry[]; where: string[] } {
  const entries: PDEntry[] = [],
    where: string[] = [];
  if (lower(name).endsWith('.csv')) {
    const rows = csvRows(name, text, ['formula', 'energy']);
    checkLimit('batchRows', name, rows.length, 'rows');
    for (const r of rows) {
      const w = `${name} line ${r.line}`;
      const energy = csvEnergy(w, r.b);
      if (energy === null) throw new GenInputError(`${w} has no energy`);
      try {
        entries.push({ composition: parseFormula(r.a), energy });
      } catch (e) {
        if (e instanceof PhaseDiagramError) throw new GenInputError(`${w}: ${e.message}`);
        throw e;
      }
      where.push(w);
    }
  } else if (text.trimStart().startsWith('[')) {
    let d: unknown;
    try {
      d = JSON.parse(text);
    } catch (e) {
      throw new GenInputError(`${name} is not valid JSON (${errorText(e).replace(/\.\s*$/, '')})`);
    }
    const list = d as unknown[];
    checkLimit('batchRows', name, list.length, 'entries');
    list.forEach((x, k) => {
      where.push(`${name} entry ${k + 1}`);
      entries.push(entryFromJson(where[k], x));
    });
  } else {
    const lines = text.split(/\r?\n/);
    checkLimit('batchRows', name, lines.length, 'lines');
    lines.forEach((line, k) => {
      if (line.trim() === '') return;
      const w = `${name} line ${k + 1}`;
      let d: unknown;
      try {
        d = JSON.parse(line);
      } catch (e) {
        throw new GenInputError(`${w} is not valid JSON (${errorText(e).replace(/\.\s*$/, '')})`);
      }
      entries.push(entryFromJson(w, d));
      where.push(w);
    });
  }
  if (entries.length === 0) throw new GenInputError(`${name} holds no reference entry`);
  return { entries, where };
}

/** Element → count of a prediction (its sites in order). */
function predictionComposition(p: GenItem): Map<string, number> {
  const c = new Map<string, number>();
  for (const site of p.structure.sites) for (const [el, occ] of Object.entries(site.species)) c.set(el, (c.get(el) ?? 0) + occ);
  return c;
}

export interface HullRow {
  e_above_hull: number | null;
  /** Reduced formula → amount of the fractional composition; null without an energy. */
  decomposition: Record<string, number> | null;
}

/**
 * Energy above hull (eV/atom, negative below) and decomposition of every prediction against the reference entries,
 * as pymatgen's PhaseDiagram(reference entries of its chemical system).get_decomp_and_e_above_hull(entry,
 * allow_negative=True) gives them (microsoft/mattergen mattergen/evaluation/metrics/energy.py). A null energy (a failed
 * job) gives nulls. `energies` has every prediction's id (energiesFor).
 */
export function hullRows(
  referenceName: string,
  reference: { entries: PDEntry[]; where: string[] },
  preds: readonly GenItem[],
  energies: ReadonlyMap<string, number | null>,
): HullRow[] {
  let pd: PhaseDiagram;
  try {
    pd = new PhaseDiagram(reference.entries, (i) => reference.where[i]);
  } catch (e) {
    if (e instanceof PhaseDiagramError) throw new GenInputError(e.message);
    throw e;
  }
  return preds.map((p) => {
    const energy = energies.get(p.id) ?? null;
    if (energy === null) return { e_above_hull: null, decomposition: null };
    const composition = predictionComposition(p);
    const missing = pd.missingReference([...composition.keys()].sort());
    if (missing !== null)
      throw new GenInputError(`${referenceName} has no entry of pure ${missing}, which prediction ${p.where} needs as elemental reference`);
    try {
      const r = pd.eAboveHull({ composition, energy }, `prediction ${p.where}`);
      const decomposition: Record<string, number> = Object.create(null);
      for (const d of r.decomposition) decomposition[compositionFormula(d.entry.composition)] = d.amount;
      return { e_above_hull: r.eAboveHull, decomposition };
    } catch (e) {
      if (e instanceof PhaseDiagramError) throw new GenInputError(e.message);
      throw e;
    }
  });
}
