/**
 * Surface energies per (hkl) as a teacher brings them: typed in (`1,0,0:1.0;1,1,1:0.8`), a Materials Project
 * surface-energy document (`{"surfaces": [{"miller_index": [1,0,0], "surface_energy": 1.2}, …]}`, the same list bare, or
 * the API's `{"data": [{"surfaces": …}]}`), an object `{"1,0,0": 1.2}`, or CSV rows `h,k,l,energy` (header optional).
 * Four-index hexagonal indices (h k i l, i = −(h + k)) are accepted everywhere. Any consistent unit (J/m², eV/Å²):
 * the Wulff shape only uses ratios. Keys read from a file go into a Map, never onto an object's prototype.
 */
import { LIMITS, quoted } from '../../limits.ts';
import { ClusterError } from './common.ts';

/** One (hkl) and its surface energy, as given (three or four Miller indices). */
export interface SurfaceEnergy {
  miller: number[];
  energy: number;
}

/** Largest |index| accepted: planes beyond it are no facet a particle shows. */
export const MAX_MILLER_INDEX = 100;

/** "(1,0,0)" or "(1,0,-1,0)": a plane as messages name it. */
export const millerText = (miller: readonly number[]): string => `(${miller.join(',')})`;

/** Checks one entry; returns it with plain numbers. `where` says where it came from, for the sentence. */
function checked(miller: readonly unknown[], energy: unknown, where: string): SurfaceEnergy {
  if (miller.length !== 3 && miller.length !== 4)
    throw new ClusterError(`${where}: a plane needs three Miller indices h,k,l (or four h,k,i,l), got ${miller.length}`);
  const m = miller.map((x) => (typeof x === 'number' ? x : typeof x === 'string' && /^\s*[+-]?\d+\s*$/.test(x) ? Number(x) : NaN));
  if (!m.every((x) => Number.isInteger(x)))
    throw new ClusterError(`${where}: Miller indices must be whole numbers, got ${quoted(miller.map(String).join(','))}`);
  const plain = m.map((x) => x + 0);
  if (plain.some((x) => Math.abs(x) > MAX_MILLER_INDEX))
    throw new ClusterError(`${where}: the Miller indices of ${millerText(plain)} are too large (at most ${MAX_MILLER_INDEX})`);
  if (plain.length === 4 && plain[2] !== -(plain[0] + plain[1]))
    throw new ClusterError(`${where}: in four-index notation (h,k,i,l) i must be −(h + k), got ${millerText(plain)}`);
  if (plain.every((x) => x === 0)) throw new ClusterError(`${where}: (0,0,0) is not a plane; give h,k,l not all zero`);
  const e = typeof energy === 'string' && energy.trim() !== '' ? Number(energy) : energy;
  if (!(typeof e === 'number' && Number.isFinite(e) && e > 0))
    throw new ClusterError(
      `${where}: the surface energy of ${millerText(plain)} must be a positive number, got ` +
        `${typeof energy === 'string' ? quoted(energy) : String(energy)}`,
    );
  return { miller: plain, energy: e };
}

function tooMany(n: number): void {
  const most = LIMITS.surfaceFamilies;
  if (n > most) throw new ClusterError(`${n} surface energies given; at most ${most} families make one Wulff shape`);
}

/** `h,k,l:energy;h,k,l:energy` (entries also split by new lines). */
function parseSpec(text: string): SurfaceEnergy[] {
  const items = text.split(/[;\n]/).filter((s) => s.trim() !== '');
  tooMany(items.length);
  return items.map((item) => {
    const colon = item.indexOf(':');
    if (colon < 0) throw new ClusterError(`${quoted(item.trim())} is not h,k,l:energy (e.g. 1,1,1:0.8)`);
    return checked(item.slice(0, colon).split(','), item.slice(colon + 1).trim(), quoted(item.trim()));
  });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The list of `{miller_index, surface_energy}` entries of a JSON document (see the header). */
function jsonEntries(doc: unknown): unknown[] | null {
  if (Array.isArray(doc)) return doc;
  if (!isRecord(doc)) return null;
  if (Object.hasOwn(doc, 'surfaces') && Array.isArray(doc.surfaces)) return doc.surfaces;
  if (Object.hasOwn(doc, 'data') && Array.isArray(doc.data) && doc.data.length === 1) {
    const first: unknown = doc.data[0];
    if (isRecord(first) && Object.hasOwn(first, 'surfaces') && Array.isArray(first.surfaces)) return first.surfaces;
  }
  return null;
}

function parseJson(text: string): SurfaceEnergy[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ClusterError(`the surface energies are not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const entries = jsonEntries(doc);
  if (entries) {
    tooMany(entries.length);
    return entries.map((entry, k) => {
      const where = `surface ${k + 1}`;
      if (!isRecord(entry) || !Object.hasOwn(entry, 'miller_index') || !Object.hasOwn(entry, 'surface_energy'))
        throw new ClusterError(`${where} of the JSON has no "miller_index" and "surface_energy"`);
      if (!Array.isArray(entry.miller_index)) throw new ClusterError(`${where}: "miller_index" must be a list like [1, 0, 0]`);
      return checked(entry.miller_index, entry.surface_energy, where);
    });
  }
  if (isRecord(doc)) {
    // {"1,0,0": 1.2, …}: the keys are read as text only, never used as property names of anything.
    const pairs = new Map(Object.entries(doc));
    tooMany(pairs.size);
    return [...pairs].map(([key, value]) => checked(key.split(','), value, `key ${quoted(key)}`));
  }
  throw new ClusterError(
    'the JSON holds no surface energies: expected {"surfaces": [{"miller_index": [h,k,l], "surface_energy": E}, …]}, ' +
      'that list alone, or {"h,k,l": E, …}',
  );
}

/** Rows `h,k,l,energy` or `h,k,i,l,energy` (commas, semicolons, tabs or spaces); a first row that is not numbers is a header. */
function parseCsv(text: string): SurfaceEnergy[] {
  const rows = text
    .split(/\r?\n/)
    .map((line, k) => ({ line: k + 1, cells: line.trim() === '' || line.trim().startsWith('#') ? [] : line.trim().split(/\s*[,;\t ]\s*/) }))
    .filter((r) => r.cells.length > 0);
  if (rows.length > 0 && rows[0].cells.some((c) => !Number.isFinite(Number(c)))) rows.shift();
  tooMany(rows.length);
  return rows.map(({ line, cells }) => {
    if (cells.length !== 4 && cells.length !== 5)
      throw new ClusterError(`line ${line}: expected h,k,l,energy (or h,k,i,l,energy), got ${cells.length} values`);
    return checked(cells.slice(0, -1), cells.at(-1), `line ${line}`);
  });
}

/**
 * The surface energies in `text`. `format` says how to read it (a file's extension); without it JSON is recognised by
 * its first character, `h,k,l:energy` by its colons, anything else is read as CSV.
 */
export function parseSurfaceEnergies(text: string, format?: 'json' | 'csv' | 'spec'): SurfaceEnergy[] {
  const trimmed = text.trim();
  const kind = format ?? (/^[[{]/.test(trimmed) ? 'json' : trimmed.includes(':') ? 'spec' : 'csv');
  const out = kind === 'json' ? parseJson(trimmed) : kind === 'spec' ? parseSpec(trimmed) : parseCsv(trimmed);
  if (out.length === 0) throw new ClusterError('no surface energies given (e.g. 1,0,0:1.0;1,1,1:0.8)');
  return out;
}
