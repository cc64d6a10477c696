import { frameMetrics, frameSpaceGroup } from '../../core/analysis/frame-metrics.ts';
import { frameAgainstReference } from '../../core/match/frame-reference.ts';
import { formatCsv } from '../../core/io/csv.ts';
import { LIMITS, limitSentence, groupedNumber } from '../../core/limits.ts';
import { packStructure } from '../../core/structure/packed.ts';
import type { Structure } from '../../core/structure/structure.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { checkOutputFile, loadStructureFile, toStrictJson, writeOutputSafely } from '../io.ts';
import { progressReporter } from '../progress.ts';

export const TRAJ_HELP = `usage: structlab traj FILE [--reference REF] [--symprec X] [--every K] [--rows FILE [--force]]

The numbers of every frame of a trajectory — multi-frame (extended) XYZ, VASP XDATCAR (fixed or variable cell),
JSON Lines of pymatgen structures, or any structure file — as one JSON document:
  rows     one per frame reported: frame (1-based), the frame's own values (energy=, …), max_force (eV/Å) when
           the atoms carry forces, max_stress and pressure = -tr(stress)/3 (eV/Å³) from stress= or virial=,
           volume, a, b, c, alpha, beta, gamma of a periodic frame, min_distance (Å, periodic minimum image)
  summary  per column: the smallest and largest value and their frames
  units    the unit of each column that has one
  --symprec X       also the space group of each periodic frame at tolerance X Å (spacegroup, spacegroup_number;
                    the first ${groupedNumber(LIMITS.symmetrySearches)} frames reported: --limit symmetrySearches=N raises it)
  --reference REF   also each frame against the crystal REF with pymatgen's StructureMatcher defaults: match, rms,
                    max_dist (normalised by (V/n)^(1/3); null when no mapping is within stol), as structlab match
  --every K         report frames 1, 1+K, 1+2K, … (default 1: every frame)
  --rows FILE       also write the rows to FILE: CSV when it ends in .csv, else JSON Lines; never over an existing
                    file without --force
`;

/** Names the command's own columns take; a file value of the same name is reported as "info:NAME". */
const RESERVED = new Set(['frame', 'name', 'spacegroup', 'spacegroup_number', 'match', 'rms', 'max_dist']);

type Cell = number | string | boolean | null;

function loadReference(path: string, warn: (line: string) => void): Structure {
  const loaded = loadStructureFile(path);
  for (const w of loaded.warnings) warn(`warning: ${loaded.path}: ${w}`);
  if (loaded.structures.length > 1)
    warn(`warning: ${loaded.path} holds ${loaded.structures.length} structures; the first is the reference`);
  const s = loaded.structures[0];
  if (!s.lattice) throw new CliError(`${loaded.path} has no lattice; the reference must be a periodic crystal`);
  return s;
}

export function runTraj(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'reference', kind: 'string' },
    { name: 'symprec', kind: 'string' },
    { name: 'every', kind: 'string' },
    { name: 'rows', kind: 'string' },
    { name: 'force', kind: 'flag' },
  ]);
  if (positionals.length !== 1) throw new CliError('traj takes exactly one trajectory FILE (see structlab traj --help)');
  const file = positionals[0];
  const symprec = options.symprec === undefined ? null : numberOption(options, 'symprec', 0.01, 1e-8, 10);
  const every = numberOption(options, 'every', 1, 1, LIMITS.fileStructures);
  if (!Number.isInteger(every)) throw new CliError(`--every must be a whole number, got ${every}`);
  if (options.force && options.rows === undefined) throw new CliError('--force only applies to --rows FILE');
  const referencePath = typeof options.reference === 'string' ? options.reference : null;
  const rowsPath = typeof options.rows === 'string' ? options.rows : null;
  const inputs = referencePath ? [file, referencePath] : [file];
  if (rowsPath) checkOutputFile(rowsPath, { force: !!options.force, inputs });

  const loaded = loadStructureFile(file);
  const warnings = [...loaded.warnings];
  const reference = referencePath ? loadReference(referencePath, warn) : null;

  const columns: string[] = ['frame', 'name'];
  const units: Record<string, string> = Object.create(null);
  const rows: Map<string, Cell>[] = [];
  const total = loaded.structures.length;
  const progress = progressReporter('traj', 'frames');
  let searched = 0;
  let skippedSearches = 0;
  for (let k = 0; k < total; k += every) {
    const s = loaded.structures[k];
    const packed = packStructure(s);
    const row = new Map<string, Cell>([
      ['frame', k + 1],
      ['name', s.name],
    ]);
    const add = (name: string, value: Cell, unit?: string) => {
      if (!columns.includes(name)) columns.push(name);
      if (unit && !(name in units)) units[name] = unit;
      row.set(name, value);
    };
    for (const m of frameMetrics(packed)) add(RESERVED.has(m.name) ? `info:${m.name}` : m.name, m.value, m.unit);
    if (symprec !== null) {
      let sg: ReturnType<typeof frameSpaceGroup> = null;
      if (s.lattice && ++searched > LIMITS.symmetrySearches) skippedSearches++;
      else sg = frameSpaceGroup(packed, symprec);
      add('spacegroup', sg?.symbol ?? null);
      add('spacegroup_number', sg?.number ?? null);
    }
    if (reference) {
      const r = frameAgainstReference(packed, reference);
      add('match', r?.match ?? null);
      add('rms', r?.rms ?? null);
      add('max_dist', r?.maxDist ?? null);
    }
    rows.push(row);
    progress.update(Math.min(total, k + every), total);
  }
  progress.end();
  if (skippedSearches > 0) {
    warnings.push(
      `${limitSentence('the trajectory', searched, LIMITS.symmetrySearches, 'periodic frames to search', 'symmetrySearches')}: ` +
        `spacegroup is null after the first ${groupedNumber(LIMITS.symmetrySearches)}`,
    );
  }

  const table: Cell[][] = rows.map((row) => columns.map((c) => row.get(c) ?? null));
  if (rowsPath) {
    const text = rowsPath.toLowerCase().endsWith('.csv')
      ? formatCsv(columns, table)
      : table.map((cells) => toStrictJson(objectOf(columns, cells))).join('\n') + '\n';
    writeOutputSafely(rowsPath, text, { force: !!options.force, inputs });
  }
  return toStrictJson({
    file: loaded.path,
    format: loaded.format,
    frames: total,
    reported: rows.length,
    every,
    symprec,
    reference: referencePath,
    warnings,
    units,
    summary: summaryOf(columns, table),
    rows: table.map((cells) => objectOf(columns, cells)),
  });
}

/** A row as an object whose keys come from the file: own properties only, no prototype to reach. */
function objectOf(columns: string[], cells: Cell[]): Record<string, Cell> {
  const out: Record<string, Cell> = Object.create(null);
  columns.forEach((c, i) => (out[c] = cells[i]));
  return out;
}

/** Per numeric column (frame and spacegroup_number aside): the smallest and largest finite value and their frames. */
function summaryOf(columns: string[], table: Cell[][]) {
  const out: Record<string, { min: number; min_frame: number; max: number; max_frame: number }> = Object.create(null);
  columns.forEach((c, i) => {
    if (c === 'frame' || c === 'spacegroup_number') return;
    for (const cells of table) {
      const v = cells[i];
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      const frame = cells[0] as number;
      const s = out[c];
      if (!s) out[c] = { min: v, min_frame: frame, max: v, max_frame: frame };
      else {
        if (v < s.min) Object.assign(s, { min: v, min_frame: frame });
        if (v > s.max) Object.assign(s, { max: v, max_frame: frame });
      }
    }
  });
  return out;
}
