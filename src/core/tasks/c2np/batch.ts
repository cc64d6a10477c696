/**
 * Batches of C2NP predictions for the compare view: a JSONL file of forward pairs or inverse-task cells, or
 * two sets of files paired by name; and the CSV/JSON export of the metrics table.
 *
 * JSONL rows (one JSON object per line; blank lines skipped):
 *   forward: {"id"?: string, "pred": P, "truth": P, "radius"?: number} where P is XYZ text or
 *            {"symbols": [...], "positions": [[x, y, z], ...]}
 *   inverse: {"id"?: string, "pred_lattice": [a, b, c, α, β, γ], "pred_sg": n,
 *             "true_lattice": [...], "true_sg": n}   ("pred_spacegroup"/"true_spacegroup" also accepted)
 */
import type { Particle } from '../../analysis/alignment.ts';
import { parseParticleFile } from '../../io/registry.ts';
import type { InverseSample, LatticeParameters } from './metrics.ts';

export class BatchFormatError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(line ? `line ${line}: ${message}` : message);
  }
}

export interface ForwardBatchRow {
  id: string;
  pred: Particle;
  truth: Particle;
  radius?: number;
}

export interface InverseBatchRow extends InverseSample {
  id: string;
}

export type C2npBatch = { kind: 'forward'; rows: ForwardBatchRow[] } | { kind: 'inverse'; rows: InverseBatchRow[] };

/** Reads any structure file's first structure as a particle (species + Cartesian positions; the readers refuse non-finite ones). */
export function particleFromFile(text: string, fileName: string): Particle {
  const parsed = parseParticleFile(text, fileName);
  if (!parsed.ok) throw new BatchFormatError(`${fileName}${parsed.line ? ` line ${parsed.line}` : ''}: ${parsed.error}`);
  const p = parsed.particles[0];
  if (!p || p.symbols.length === 0) throw new BatchFormatError(`${fileName} holds no atoms`);
  return { symbols: p.symbols, coords: p.coords };
}

function particleFromJson(value: unknown, what: string, line: number): Particle {
  if (typeof value === 'string') {
    try {
      return particleFromFile(value, `${what}.xyz`);
    } catch (e) {
      throw new BatchFormatError(`${what}: ${(e as Error).message}`, line);
    }
  }
  const v = value as { symbols?: unknown; positions?: unknown } | null;
  if (!v || !Array.isArray(v.symbols) || !Array.isArray(v.positions)) {
    throw new BatchFormatError(`"${what}" must be XYZ text or {"symbols": [...], "positions": [[x, y, z], ...]}`, line);
  }
  if (v.symbols.length !== v.positions.length) {
    throw new BatchFormatError(`"${what}" has ${v.symbols.length} symbols but ${v.positions.length} positions`, line);
  }
  if (v.symbols.length === 0) throw new BatchFormatError(`"${what}" holds no atoms`, line);
  const coords = new Float64Array(3 * v.positions.length);
  v.positions.forEach((p, i) => {
    if (!Array.isArray(p) || p.length !== 3 || !p.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new BatchFormatError(`"${what}" position ${i} must be three finite numbers`, line);
    }
    coords.set(p as number[], 3 * i);
  });
  return { symbols: v.symbols.map(String), coords };
}

function latticeOf(value: unknown, what: string, line: number): LatticeParameters {
  if (!Array.isArray(value) || value.length !== 6 || !value.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new BatchFormatError(`"${what}" must be six finite numbers [a, b, c, alpha, beta, gamma]`, line);
  }
  return value as LatticeParameters;
}

function spacegroupOf(row: Record<string, unknown>, prefix: 'pred' | 'true', line: number): number {
  const v = row[`${prefix}_sg`] ?? row[`${prefix}_spacegroup`];
  if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 230) {
    throw new BatchFormatError(`"${prefix}_sg" must be a space-group number 1–230`, line);
  }
  return v as number;
}

/** One JSONL row, parsed: a forward pair or an inverse-task sample; `ordinal` numbers rows without an "id" (#1, #2, …). */
export type C2npBatchRow = { kind: 'forward'; row: ForwardBatchRow } | { kind: 'inverse'; row: InverseBatchRow };

/** Parses one non-blank JSONL line of a C2NP batch (the layout above); throws BatchFormatError naming `line`. */
export function parseC2npBatchLine(raw: string, line: number, ordinal: number): C2npBatchRow {
  let row: Record<string, unknown>;
  try {
    row = JSON.parse(raw);
  } catch (e) {
    throw new BatchFormatError(`not valid JSON (${(e as Error).message})`, line);
  }
  if (!row || typeof row !== 'object' || Array.isArray(row)) throw new BatchFormatError('each line must be a JSON object', line);
  const id = row.id === undefined ? `#${ordinal}` : String(row.id);
  if ('pred_lattice' in row) {
    return {
      kind: 'inverse',
      row: {
        id,
        predLattice: latticeOf(row.pred_lattice, 'pred_lattice', line),
        predSpacegroup: spacegroupOf(row, 'pred', line),
        trueLattice: latticeOf(row.true_lattice, 'true_lattice', line),
        trueSpacegroup: spacegroupOf(row, 'true', line),
      },
    };
  }
  if ('pred' in row && 'truth' in row) {
    const radius = row.radius;
    if (radius !== undefined && !(typeof radius === 'number' && radius > 0 && Number.isFinite(radius))) {
      throw new BatchFormatError('"radius" must be a positive number of Å', line);
    }
    return {
      kind: 'forward',
      row: {
        id,
        pred: particleFromJson(row.pred, 'pred', line),
        truth: particleFromJson(row.truth, 'truth', line),
        radius: radius as number | undefined,
      },
    };
  }
  throw new BatchFormatError('a row needs "pred" and "truth" (particles) or "pred_lattice" and "true_lattice" (inverse task)', line);
}

export function parseC2npBatch(text: string): C2npBatch {
  const forward: ForwardBatchRow[] = [],
    inverse: InverseBatchRow[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, k) => {
    if (raw.trim() === '') return;
    const parsed = parseC2npBatchLine(raw, k + 1, forward.length + inverse.length + 1);
    if (parsed.kind === 'inverse') inverse.push(parsed.row);
    else forward.push(parsed.row);
  });
  if (forward.length && inverse.length) throw new BatchFormatError('the file mixes particle rows and lattice rows; use one kind per file');
  if (!forward.length && !inverse.length) throw new BatchFormatError('the file holds no rows');
  return forward.length ? { kind: 'forward', rows: forward } : { kind: 'inverse', rows: inverse };
}

export interface NamedFile {
  /** Path relative to the chosen folder (or just the file name). */
  path: string;
}

/**
 * Pairs predictions with truths: by relative path below the chosen folders first, then by file name when
 * that is unique on both sides. Returns the pairs and what stayed unpaired.
 */
export function pairFilesByName<P extends NamedFile, T extends NamedFile>(
  preds: P[],
  truths: T[],
): { pairs: [P, T][]; unpairedPreds: P[]; unpairedTruths: T[] } {
  const belowTop = (p: string) => p.replace(/\\/g, '/').split('/').slice(1).join('/') || p;
  const base = (p: string) => p.replace(/\\/g, '/').split('/').pop()!;
  const pairs: [P, T][] = [];
  const usedT = new Set<T>();
  const leftP: P[] = [];
  const byRel = new Map<string, T>();
  for (const t of truths) byRel.set(belowTop(t.path), t);
  for (const p of preds) {
    const t = byRel.get(belowTop(p.path));
    if (t && !usedT.has(t)) {
      pairs.push([p, t]);
      usedT.add(t);
    } else leftP.push(p);
  }
  const count = <X extends NamedFile>(xs: X[]) =>
    xs.reduce((m, x) => m.set(base(x.path), (m.get(base(x.path)) ?? 0) + 1), new Map<string, number>());
  const restT = truths.filter((t) => !usedT.has(t));
  const nP = count(leftP),
    nT = count(restT);
  // A map, not a search per file: a split of ~172,000 particles must pair in linear time.
  const restByName = new Map<string, T>();
  for (const t of restT) if (nT.get(base(t.path)) === 1) restByName.set(base(t.path), t);
  const unpairedPreds: P[] = [];
  for (const p of leftP) {
    const name = base(p.path);
    const t = nP.get(name) === 1 ? restByName.get(name) : undefined;
    if (t) {
      pairs.push([p, t]);
      usedT.add(t);
    } else unpairedPreds.push(p);
  }
  return { pairs, unpairedPreds, unpairedTruths: truths.filter((t) => !usedT.has(t)) };
}
