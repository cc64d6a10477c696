/**
 * The sets the generation metrics read (predictions, truths, a reference set), from texts or bytes already read:
 * a folder's structure files, one extended XYZ file of frames, one JSONL file of pymatgen dicts, one MP-20-style
 * CSV with a `cif` column, or a zip of any of these.
 * Every structure is normalised as the upstream scripts see it (txie-93/cdvae `scripts/compute_metrics.py`
 * rebuilds each from atomic numbers: oxidation states gone); partial occupancy is refused. README.md here.
 */
import { errorText } from '../../errors.ts';
import { CsvError, parseCsv } from '../../io/csv.ts';
import { parseStructureFile } from '../../io/registry.ts';
import { ParseError } from '../../io/types.ts';
import { archiveKind, gzippedName, readArchive } from '../../io/archive.ts';
import { commonFolder, entryText, keepArchivePath } from '../../io/archive-entries.ts';
import { gunzip } from '../../io/gzip.ts';
import { checkLimit, printable } from '../../limits.ts';
import { type Structure, readFromCif } from '../../structure/structure.ts';
import { smactAtomicNumber } from './smact.ts';
import { readTorchPt } from '../../io/torch-pt.ts';
import { PtCrystalError, ptItems } from './pt-crystals.ts';

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
  /** A crystal of a .pt result file: its batch index and eval; pairCsp names it after the truth of that row. */
  pt?: { row: number; sample: number };
}

/** File names a folder set reads: `.cif`, `.vasp`, `.poscar`, `.json`, not starting with '.'. */
const FOLDER_ENDINGS = ['.cif', '.vasp', '.poscar', '.json'];

const isGenFolderFileName = (name: string): boolean =>
  !name.startsWith('.') && FOLDER_ENDINGS.some((e) => name.toLowerCase().endsWith(e) && name.length > e.length);

/** A path inside a folder set ("x.cif", "mattergen/chemical_system/x.cif"): a name isGenFolderFileName accepts, in no
 * folder whose name starts with '.' (.git, .ipynb_checkpoints) or is `__MACOSX` (macOS resource forks). */
export const isGenFolderPath = (path: string): boolean => {
  const parts = path.split('/');
  return isGenFolderFileName(parts.pop()!) && !parts.some((p) => p.startsWith('.') || p === '__MACOSX');
};

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
  // A CIF's crystal keeps the mark that makes the space-group search take pymatgen's site order (symmetry/analyze.ts).
  return {
    name: s.name,
    lattice: s.lattice,
    sites,
    ...(readFromCif(s) ? { properties: { symmetrySource: s.properties!.symmetrySource } } : {}),
  };
}

/** Count and size limits of one set: structures (LIMITS.fileStructures), atoms in all of them (LIMITS.fileAtoms). */
function checkSetLimits(label: string, items: GenItem[]): void {
  checkLimit('fileStructures', `The ${label} set`, items.length, 'structures');
  let atoms = 0;
  for (const it of items) atoms += it.structure.sites.length;
  checkLimit('fileAtoms', `The ${label} set`, atoms, 'atoms in all its structures');
}

/** Refuses two items with one id where ids must tell them apart (`why`: what reads them by id). Sets themselves may
 * repeat ids: de novo metrics judge structures in input order and never look one up by id. */
function checkUnique(items: readonly GenItem[], what: string, why: string): void {
  const seen = new Map<string, GenItem>();
  for (const it of items) {
    const earlier = seen.get(it.id);
    if (earlier) throw new GenInputError(`the ${what} ${earlier.where} and ${it.where} have the same id "${q(it.id)}"; ${why}`);
    seen.set(it.id, it);
  }
}

const parseFailure = (where: string, r: { error: string; line?: number }): string =>
  `${where}${r.line !== undefined ? ` line ${r.line}` : ''} cannot be read (${r.error.replace(/\.\s*$/, '')})`;

/**
 * A folder: every file `isGenFolderPath` accepts is one structure (a CIF must hold exactly one). `name` is the file's
 * path relative to the folder, '/'-separated, and the id is that path without its ending ("x", "mattergen/chemical_system/x"),
 * so files of one name in different subfolders are different structures; ids sorted by code point. `folder` names the
 * set in messages; each file is named `where` when given, else `folder/name`.
 */
export function setFromFolder(label: string, folder: string, files: readonly { name: string; text: string; where?: string }[]): GenItem[] {
  const chosen = files.filter((f) => isGenFolderPath(f.name));
  checkLimit('fileStructures', `The ${label} folder ${folder}`, chosen.length, 'structure files');
  const items = chosen.map((f): GenItem => {
    const where = f.where ?? `${folder}/${f.name}`;
    if (f.text.trim() === '') throw new GenInputError(`${where} is empty`);
    const r = parseStructureFile(f.text, f.name.slice(f.name.lastIndexOf('/') + 1));
    if (!r.ok) throw new GenInputError(parseFailure(where, r));
    if (r.structures.length !== 1) throw new GenInputError(`${where} holds ${r.structures.length} structures; one file must hold one`);
    const dot = f.name.lastIndexOf('.');
    // The CIF reader reads as pymatgen's CifParser does (the upstream scripts do): coordinates near 1/3 and 2/3 snapped.
    const structure = normalise(r.structures[0], where);
    return { id: f.name.slice(0, dot), structure, where };
  });
  items.sort((a, b) => compareCodePoints(a.id, b.id));
  if (items.length === 0) throw new GenInputError(`the ${label} folder ${folder} holds no .cif, .vasp, .poscar or .json file`);
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
  checkSetLimits(label, items);
  return items;
}

/** The structure of one CSV field holding a CIF (read as a CIF file is, pymatgen's 1/3–2/3 snapping included). */
function cifField(where: string, column: string, cif: string): Structure {
  if (cif.trim() === '') throw new GenInputError(`${where} has an empty ${column} field`);
  const r = parseStructureFile(cif, 'row.cif');
  if (!r.ok)
    throw new GenInputError(
      `${where}: the CIF cannot be read (${r.line !== undefined ? `its line ${r.line}: ` : ''}${r.error.replace(/\.\s*$/, '')})`,
    );
  if (r.structures.length !== 1) throw new GenInputError(`${where}: the CIF holds ${r.structures.length} structures; a row must hold one`);
  return normalise(r.structures[0], where);
}

/** The header and rows of a CSV set file, or a GenInputError naming it. */
function csvRecords(fileName: string, text: string): { header: string[]; rows: { line: number; fields: string[] }[] } {
  let records;
  try {
    records = parseCsv(text, fileName);
  } catch (e) {
    if (e instanceof CsvError) throw new GenInputError(`${fileName} ${e.message.replace(/\.\s*$/, '')}`);
    throw e;
  }
  if (records.length === 0) throw new GenInputError(`${fileName} is empty`);
  const header = records[0].fields.map((h) => h.trim());
  return { header, rows: records.slice(1) };
}

/** Every row has the header's field count, and there is a row; the row count is held to LIMITS.fileStructures. */
function checkRows(fileName: string, header: readonly string[], rows: readonly { line: number; fields: string[] }[]): void {
  checkLimit('fileStructures', fileName, rows.length, 'rows');
  for (const rec of rows)
    if (rec.fields.length !== header.length)
      throw new GenInputError(`${fileName} line ${rec.line} has ${rec.fields.length} fields, the header has ${header.length}`);
  if (rows.length === 0) throw new GenInputError(`${fileName} has a header but no rows`);
}

/** Whether a CSV header is Chemeleon's `results.csv` (a `ref_structure` and `gen_structure_0` column, no `cif`). */
const isChemeleonHeader = (header: readonly string[]): boolean =>
  !header.includes('cif') && header.includes('ref_structure') && header.includes('gen_structure_0');

/** A CSP set in one file: predictions (ids `TRUTHID__k` when there are several per truth), truths, predictions per truth. */
export interface CspFileSets {
  preds: GenItem[];
  truths: GenItem[];
  samples: number;
}

/**
 * Chemeleon's `results.csv` (hspark1212/chemeleon `chemeleon/scripts/evaluate.py`: one row per test structure with
 * `material_id`, its metrics, `ref_structure` = the test structure's CIF and `gen_structure_{n}` = sample n's CIF,
 * pymatgen's `Structure.to(fmt="cif")`): truths from `ref_structure` with id = `material_id` (else an `id` column,
 * else the row number 0, 1, …), predictions from `gen_structure_{n}` with id `ID__n` (`ID` when there is one
 * sample per row, as a folder pairs them); row order, then n. Null when the header is not Chemeleon's.
 */
export function chemeleonSets(fileName: string, text: string): CspFileSets | null {
  const { header, rows } = csvRecords(fileName, text);
  if (!isChemeleonHeader(header)) return null;
  const gen: [number, number][] = [];
  header.forEach((h, col) => {
    const m = /^gen_structure_([0-9]{1,9})$/.exec(h);
    if (m) gen.push([Number(m[1]), col]);
  });
  gen.sort((a, b) => a[0] - b[0]);
  gen.forEach(([n], k) => {
    if (n !== k) throw new GenInputError(`${fileName} has no "gen_structure_${k}" column but has "gen_structure_${n}"`);
  });
  const refColumn = header.indexOf('ref_structure');
  const idColumn = header.includes('material_id') ? header.indexOf('material_id') : header.indexOf('id');
  checkRows(fileName, header, rows);
  const preds: GenItem[] = [],
    truths: GenItem[] = [];
  rows.forEach((rec, r) => {
    const id = idColumn >= 0 ? rec.fields[idColumn].trim() : String(r);
    let where = `${fileName} line ${rec.line}`;
    if (id === '') throw new GenInputError(`${where} has an empty ${header[idColumn]}`);
    where += ` (${q(id)})`;
    truths.push({ id, structure: cifField(where, 'ref_structure', rec.fields[refColumn]), where: `${where} ref_structure` });
    for (const [n, col] of gen) {
      const at = `${where} gen_structure_${n}`;
      preds.push({ id: gen.length > 1 ? `${id}__${n}` : id, structure: cifField(at, `gen_structure_${n}`, rec.fields[col]), where: at });
    }
  });
  checkSetLimits('prediction', preds);
  checkSetLimits('truth', truths);
  return { preds, truths, samples: gen.length };
}

/**
 * One MP-20-style CSV (txie-93/cdvae `data/mp_20/*.csv`: a leading unnamed index column, `material_id`, properties,
 * `cif`): id = `material_id`, else the first column when it is named `id`; structure = the `cif` field read as a
 * CIF file is (pymatgen's 1/3–2/3 snapping included); row order. Every row must have the header's field count.
 * Chemeleon's `results.csv` (chemeleonSets) is its predictions, or its truths when `label` is not
 * "prediction".
 */
export function setFromCsv(label: string, fileName: string, text: string): GenItem[] {
  const { header, rows } = csvRecords(fileName, text);
  if (isChemeleonHeader(header)) {
    const sets = chemeleonSets(fileName, text)!;
    return label === 'prediction' ? sets.preds : sets.truths;
  }
  const cifColumn = header.indexOf('cif');
  if (cifColumn < 0) throw new GenInputError(`${fileName} has no "cif" column (the MP-20 layout: material_id, …, cif)`);
  const idColumn = header.includes('material_id') ? header.indexOf('material_id') : header[0] === 'id' ? 0 : -1;
  if (idColumn < 0) throw new GenInputError(`${fileName} has no "material_id" column (nor a first column named "id")`);
  checkRows(fileName, header, rows);
  const items = rows.map((rec): GenItem => {
    let where = `${fileName} line ${rec.line}`;
    const id = rec.fields[idColumn].trim();
    if (id === '') throw new GenInputError(`${where} has an empty ${header[idColumn]}`);
    where += ` (${q(id)})`;
    return { id, structure: cifField(where, 'cif', rec.fields[cifColumn]), where };
  });
  checkSetLimits(label, items);
  return items;
}

/** Files that are a whole set on their own (as opposed to one structure per file). */
const SET_FILE_ENDINGS = ['.extxyz', '.xyz', '.jsonl', '.csv'];
const isSetFileName = (name: string): boolean => SET_FILE_ENDINGS.some((e) => name.toLowerCase().endsWith(e) && name.length > e.length);

/** One file that is a whole set, by its ending: .extxyz/.xyz, .jsonl or .csv (also gzipped, `test.csv.gz`, its text
 * already inflated); null for other endings. */
export function setFromSetFile(label: string, fileName: string, text: string): GenItem[] | null {
  const lower = fileName.toLowerCase().replace(/\.gz$/, '');
  if (lower.endsWith('.extxyz') || lower.endsWith('.xyz')) return setFromExtxyz(label, fileName, text);
  if (lower.endsWith('.jsonl')) return setFromJsonl(label, fileName, text);
  if (lower.endsWith('.csv')) return setFromCsv(label, fileName, text);
  return null;
}

/**
 * An archive, by `fileName`'s ending: a zip (any other ending), a tar, a .tar.gz/.tgz (src/core/io/archive.ts), or one
 * gzipped file (`test.csv.gz`, `x.cif.gz`: read as the file it stands for, named as the .gz). Holding structure files
 * an archive is a folder, holding one .extxyz/.xyz, .jsonl or .csv file it is that file (both kinds at once, or two
 * set files: bad input). The folder is the deepest one holding every structure entry (zipping a folder adds that
 * folder, and some tools a deeper path): ids are the paths below it, as for a folder.
 * Directories, `__MACOSX/` (macOS resource forks) and names with a part starting with '.' are ignored,
 * as other files are; an absolute name or a '..' part is bad input (such an archive was made to escape its folder),
 * as is a link in a tar (src/core/io/archive-entries.ts). Sizes are checked before and while inflating.
 */
export function setFromZip(label: string, fileName: string, bytes: Uint8Array): GenItem[] {
  const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  const wanted = (path: string): boolean => isGenFolderFileName(base(path)) || isSetFileName(base(path));
  const inner = gzippedName(fileName);
  let entries;
  try {
    if (inner !== null) {
      const text = entryText(gunzip(bytes, fileName));
      if (isSetFileName(inner)) return setFromSetFile(label, fileName, text)!;
      if (isGenFolderFileName(base(inner))) return setFromFolder(label, fileName, [{ name: base(inner), text, where: fileName }]);
      throw new GenInputError(`${fileName} holds no .cif, .vasp, .poscar, .json, .extxyz, .xyz, .jsonl or .csv file`);
    } else entries = readArchive(bytes, fileName, (path) => keepArchivePath(fileName, path, wanted));
  } catch (e) {
    if (e instanceof ParseError) throw new GenInputError(e.message.replace(/\.\s*$/, ''));
    throw e;
  }
  const setFiles = entries.filter((e) => isSetFileName(base(e.path)));
  const structureFiles = entries.filter((e) => !isSetFileName(base(e.path)));
  if (setFiles.length > 0 && structureFiles.length > 0)
    throw new GenInputError(
      `${fileName} holds both structure files ("${q(structureFiles[0].path)}") and a set file ("${q(setFiles[0].path)}"); ` +
        `${(archiveKind(fileName) ?? 'zip') === 'zip' ? 'a zip' : 'an archive'} is one folder of structure files or one set file`,
    );
  if (setFiles.length > 1)
    throw new GenInputError(
      `${fileName} holds ${setFiles.length} set files ("${q(setFiles[0].path)}", "${q(setFiles[1].path)}"); one at most`,
    );
  if (setFiles.length === 1) return setFromSetFile(label, `${fileName}/${setFiles[0].path}`, entryText(setFiles[0].bytes))!;
  if (structureFiles.length === 0)
    throw new GenInputError(`${fileName} holds no .cif, .vasp, .poscar, .json, .extxyz, .xyz, .jsonl or .csv file`);
  const top = commonFolder(structureFiles.map((e) => e.path));
  const files = structureFiles.map((e) => ({
    name: e.path.slice(top.length),
    text: entryText(e.bytes),
    where: `${fileName}/${e.path}`,
  }));
  return setFromFolder(label, fileName, files);
}

/**
 * A CDVAE/DiffCSP `.pt` result file (pt-crystals.ts): as predictions every crystal of every eval (id = batch index,
 * `i__k` with more than one eval), as truths (`label` 'truth') its `input_data_batch` when that is a dict of tensors.
 */
export function setFromPt(label: string, fileName: string, bytes: Uint8Array): GenItem[] {
  let items;
  try {
    items = ptItems(readTorchPt(bytes, fileName), fileName, label === 'truth' ? 'truths' : 'predictions');
  } catch (e) {
    if (e instanceof ParseError || e instanceof PtCrystalError) throw new GenInputError(e.message.replace(/\.\s*$/, ''));
    throw e;
  }
  const out = items.map((it): GenItem => ({
    id: it.id,
    structure: normalise(it.structure, it.where),
    where: it.where,
    pt: { row: it.row, sample: it.sample },
  }));
  checkSetLimits(label, out);
  return out;
}

/**
 * `gen eval`'s evals of a .pt prediction set, as compute_metrics.py's gen task reads them: `k` takes eval k alone with
 * ids = row numbers (`get_crystal_array_list(path, batch_idx=k)`; txie-93/cdvae scripts/compute_metrics.py uses
 * the default batch_idx=0), 'all' every crystal of every eval (`row__k`). A file without the num_evals dimension has
 * the one eval 0 (jiaor17/DiffCSP scripts/compute_metrics.py, batch_idx=-2). Other predictions pass unchanged.
 */
export function ptEvalsOf(preds: GenItem[], which: number | 'all'): GenItem[] {
  if (which === 'all' || !preds.some((p) => p.pt)) return preds;
  const evals = Math.max(...preds.map((p) => p.pt?.sample ?? 0)) + 1;
  const file = preds[0].where.replace(/( eval \d+)? crystal \d+$/, '');
  if (which >= evals) throw new GenInputError(`${file} holds ${evals} eval${evals === 1 ? '' : 's'}, --pt-evals is ${which}`);
  return preds.filter((p) => p.pt!.sample === which).map((p) => ({ ...p, id: String(p.pt!.row) }));
}

/**
 * Predictions from a .pt are paired as compute_metrics.py pairs them: crystal i with truth i in the truth set's order
 * (`--gt_file` rows, or `input_data_batch`). --n-samples K takes evals 0…K−1 (K = 1: eval 0, upstream's default
 * `batch_idx=0`; K = all evals: `--multi_eval`), named `TRUTHID__k` when K > 1. Other predictions pass unchanged.
 */
function ptPredictionsByRow(preds: readonly GenItem[], truths: readonly GenItem[], nSamples: number): readonly GenItem[] {
  if (!preds.some((p) => p.pt)) return preds;
  const rows = Math.max(...preds.map((p) => p.pt!.row)) + 1;
  const evals = Math.max(...preds.map((p) => p.pt!.sample)) + 1;
  const file = preds[0].where.replace(/( eval \d+)? crystal \d+$/, '');
  if (rows !== truths.length)
    throw new GenInputError(`${file} holds ${rows} crystals per eval and the truth set ${truths.length}; they are paired in order`);
  if (nSamples > evals) throw new GenInputError(`${file} holds ${evals} eval${evals === 1 ? '' : 's'}, --n-samples is ${nSamples}`);
  return preds
    .filter((p) => p.pt!.sample < nSamples)
    .map((p) => ({ ...p, id: nSamples > 1 ? `${truths[p.pt!.row].id}__${p.pt!.sample}` : truths[p.pt!.row].id }));
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
export function pairCsp(given: readonly GenItem[], truths: readonly GenItem[], nSamples: number): CspGroup[] {
  if (!Number.isInteger(nSamples) || nSamples < 1) throw new GenInputError(`--n-samples must be a whole number ≥ 1, got ${nSamples}`);
  const preds = ptPredictionsByRow(given, truths, nSamples);
  checkUnique(truths, 'truths', 'CSP pairs predictions with truths by id');
  checkUnique(preds, 'predictions', 'CSP pairs predictions with truths by id');
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

/**
 * `--e-above-hull FILE.json`: `{"id": E above hull in eV/atom, or null for a failed job}`. The entries as read
 * (a Map: ids are file keys); `energiesFor` checks them against a prediction set.
 */
export function parseEnergies(name: string, text: string): Map<string, unknown> {
  let d: unknown;
  try {
    d = JSON.parse(text);
  } catch (e) {
    throw new GenInputError(`${name} is not valid JSON (${errorText(e).replace(/\.\s*$/, '')})`);
  }
  if (typeof d !== 'object' || d === null || Array.isArray(d))
    throw new GenInputError(`${name} must be a JSON object {"id": energy above hull or null}`);
  return new Map(Object.entries(d));
}

/** The energy of every prediction: each needs an entry that is a finite number or null. */
export function energiesFor(name: string, entries: ReadonlyMap<string, unknown>, preds: readonly GenItem[]): Map<string, number | null> {
  checkUnique(preds, 'predictions', `${name} gives the energies by id`);
  const energies = new Map<string, number | null>();
  for (const p of preds) {
    if (!entries.has(p.id)) throw new GenInputError(`${name} has no entry for ${p.id}`);
    const e = entries.get(p.id);
    if (e !== null && (typeof e !== 'number' || !Number.isFinite(e)))
      throw new GenInputError(`${name}: the entry for ${p.id} is not a number or null (got ${JSON.stringify(e)?.slice(0, 40)})`);
    energies.set(p.id, e);
  }
  return energies;
}
