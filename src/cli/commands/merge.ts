/**
 * `structlab merge PARTIAL…`: combines the partial reports of `--shard I/N` runs into the report the unsharded
 * run prints, byte for byte: rows are put back in input order and aggregates are rebuilt from exact sufficient
 * statistics (never averages of averages), by the same functions the commands themselves use.
 */
import { C2npSplitStats } from '../../core/tasks/c2np/batch-eval.ts';
import type { AtomworldCaseVerdict } from '../../core/tasks/atomworld/batch.ts';
import { errorText } from '../../core/errors.ts';
import { parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { inputName, readInputText } from '../io.ts';
import { PARTIAL_FORMAT, type PartialHead } from '../shard.ts';
import { atomworldEvalReport, type SkippedLine } from './atomworld-eval.ts';
import { c2npEvalReport, type Skipped } from './c2np-eval.ts';
import { femCheckReport, type FemFileVerdict } from './fem-check-batch.ts';
import { genCspReport } from './gen.ts';
import { CSP_CONVENTIONS, type CspConvention, type CspGroupRows, cspTolerances } from '../../core/tasks/generations/csp.ts';
import { GenInputError } from '../../core/tasks/generations/inputs.ts';
import { CSP_DEFAULT_TOLERANCES, CSP_PRESET_NAMES, type CspPreset, type CspTolerances } from '../../core/tasks/generations/tolerances.ts';
import { SMACT_TABLES, type SmactTable } from '../../core/tasks/generations/smact.ts';
import { quoted } from '../../core/limits.ts';

export const MERGE_HELP = `usage: structlab merge PARTIAL.json…

Combines the partial reports that batch commands print with --shard I/N (c2np eval, atomworld eval,
fem check --outputs-dir, gen csp) into the report of the unsharded run: the same JSON, byte for byte (rows in
input order, aggregates from exact sums). Every shard 0…N−1 of one run must be given exactly once, all made by the same command with the
same options; otherwise nothing is printed and the sentence says what is missing or differs.
The shape of a partial report is documented in docs/scale-out.md.
`;

type Json = Record<string, unknown>;

interface Partial {
  name: string;
  head: PartialHead;
  body: Json;
}

function readPartial(path: string): Partial {
  const name = inputName(path);
  let body: Json;
  try {
    body = JSON.parse(readInputText(path));
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${name}: not valid JSON (${errorText(e)})`);
  }
  const head = (body && typeof body === 'object' ? body.partial : undefined) as PartialHead | undefined;
  if (!head || typeof head !== 'object' || head.format !== PARTIAL_FORMAT)
    throw new CliError(
      `${name} is not a partial report (no "partial": {"format": "${PARTIAL_FORMAT}", …}); run the command with --shard I/N`,
    );
  const s = head.shard;
  if (!s || !Number.isSafeInteger(s.index) || !Number.isSafeInteger(s.count) || s.index < 0 || s.index >= s.count)
    throw new CliError(`${name}: "partial.shard" must be {"index": I, "count": N} with 0 ≤ I < N`);
  if (typeof head.command !== 'string') throw new CliError(`${name}: "partial.command" must name the command`);
  return { name, head, body };
}

/** Checks that the partials are the N shards of one run, each once; returns them in shard order. */
function checkSet(partials: Partial[]): Partial[] {
  const first = partials[0];
  const byIndex = new Map<number, Partial>();
  for (const p of partials) {
    if (p.head.command !== first.head.command)
      throw new CliError(
        `${p.name} comes from ${quoted(String(p.head.command))} but ${first.name} from ${quoted(String(first.head.command))}`,
      );
    if (p.head.shard.count !== first.head.shard.count)
      throw new CliError(`${p.name} is one of ${p.head.shard.count} shards but ${first.name} one of ${first.head.shard.count}`);
    const tolerances = (h: PartialHead) => JSON.stringify((h.options as Json | undefined)?.tolerances ?? null);
    if (tolerances(p.head) !== tolerances(first.head))
      throw new CliError(
        `${p.name} was made with other matcher tolerances than ${first.name} (${tolerances(p.head)}, ${tolerances(first.head)})`,
      );
    if (JSON.stringify(p.head.options) !== JSON.stringify(first.head.options))
      throw new CliError(`${p.name} was made with other options than ${first.name} (${JSON.stringify(p.head.options)})`);
    const twin = byIndex.get(p.head.shard.index);
    if (twin) throw new CliError(`${p.name} and ${twin.name} are both shard ${p.head.shard.index}/${p.head.shard.count}`);
    byIndex.set(p.head.shard.index, p);
  }
  const n = first.head.shard.count;
  const missing = [...Array(n).keys()].filter((k) => !byIndex.has(k));
  if (missing.length)
    throw new CliError(
      `shard${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''} of ${n} ` +
        `${missing.length > 1 ? 'are' : 'is'} missing`,
    );
  return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
}

const arrayOf = (p: Partial, key: string): unknown[] => {
  const v = p.body[key];
  if (!Array.isArray(v)) throw new CliError(`${p.name}: "${key}" must be an array`);
  return v;
};
const countOf = (p: Partial, key: string): number => {
  const v = p.body[key];
  if (!Number.isSafeInteger(v) || (v as number) < 0) throw new CliError(`${p.name}: "${key}" must be a count`);
  return v as number;
};

function mergeC2npEval(partials: Partial[]): string {
  let stats: C2npSplitStats | null = null;
  const skipped: Skipped[] = [];
  let skippedCount = 0;
  const unpaired = JSON.stringify(arrayOf(partials[0], 'unpaired'));
  for (const p of partials) {
    if (JSON.stringify(arrayOf(p, 'unpaired')) !== unpaired)
      throw new CliError(`${p.name} lists other unpaired files than ${partials[0].name}: the shards did not read the same folders`);
    skipped.push(...(arrayOf(p, 'skipped') as Skipped[]));
    skippedCount += countOf(p, 'skipped_total');
    if (p.body.kind === null) continue; // a shard without a usable row
    let s: C2npSplitStats;
    try {
      s = C2npSplitStats.fromJSON(p.body.stats, `${p.name} "stats"`);
    } catch (e) {
      throw new CliError(errorText(e));
    }
    if (stats && stats.kind !== s.kind) throw new CliError(`${p.name} holds ${s.kind} rows but other shards ${stats.kind} rows`);
    if (stats) stats.merge(s);
    else stats = s;
  }
  skipped.sort((a, b) => a.line - b.line);
  if (!stats) throw new CliError('no shard holds a usable row');
  return c2npEvalReport(stats, JSON.parse(unpaired) as string[], skipped, skippedCount);
}

/** The rows of every partial (`key`, with their input indices in "index") put back in input order. */
function placeByIndex(partials: Partial[], key: string, total: number): unknown[] {
  const rows: unknown[] = new Array(total);
  const placed = new Uint8Array(total);
  for (const p of partials) {
    if (countOf(p, 'total') !== total) throw new CliError(`${p.name} counts ${String(p.body.total)} rows but ${partials[0].name} ${total}`);
    const index = arrayOf(p, 'index'),
      values = arrayOf(p, key);
    if (index.length !== values.length) throw new CliError(`${p.name}: "index" and "${key}" differ in length`);
    index.forEach((k, j) => {
      if (
        !Number.isSafeInteger(k) ||
        (k as number) < 0 ||
        (k as number) >= total ||
        (k as number) % p.head.shard.count !== p.head.shard.index
      )
        throw new CliError(`${p.name}: index ${String(k)} does not belong to shard ${p.head.shard.index}/${p.head.shard.count}`);
      if (placed[k as number]) throw new CliError(`${p.name}: index ${String(k)} appears twice`);
      placed[k as number] = 1;
      rows[k as number] = values[j];
    });
  }
  const hole = placed.indexOf(0);
  if (hole >= 0) throw new CliError(`row ${hole} of ${total} is in no shard`);
  return rows;
}

function mergeAtomworldEval(partials: Partial[]): string {
  const total = countOf(partials[0], 'total');
  const skipped = JSON.stringify(arrayOf(partials[0], 'skipped'));
  for (const p of partials)
    if (JSON.stringify(arrayOf(p, 'skipped')) !== skipped)
      throw new CliError(`${p.name} skipped other lines than ${partials[0].name}: the shards did not read the same files`);
  const cases = placeByIndex(partials, 'cases', total) as AtomworldCaseVerdict[];
  return atomworldEvalReport(cases, !!partials[0].head.options.lint, JSON.parse(skipped) as SkippedLine[]);
}

function mergeFemCheck(partials: Partial[]): string {
  const total = countOf(partials[0], 'total');
  const files = placeByIndex(partials, 'files', total) as FemFileVerdict[];
  return femCheckReport(String(partials[0].head.options.task), files);
}

function mergeGenCsp(partials: Partial[]): string {
  const o = partials[0].head.options;
  const nSamples = Number(o.n_samples);
  if (!Number.isSafeInteger(nSamples) || nSamples < 1)
    throw new CliError(`${partials[0].name}: "partial.options.n_samples" must be a whole number ≥ 1`);
  if (!(CSP_CONVENTIONS as readonly unknown[]).includes(o.convention) || !(SMACT_TABLES as readonly unknown[]).includes(o.smact))
    throw new CliError(
      `${partials[0].name}: "partial.options" must name a convention (${CSP_CONVENTIONS.join(', ')}) ` +
        `and a SMACT table (${SMACT_TABLES.join(', ')})`,
    );
  const tolerances = partialTolerances(partials[0].name, o.tolerances);
  const rows = placeByIndex(partials, 'rows', countOf(partials[0], 'total')) as CspGroupRows[];
  return genCspReport(rows, nSamples, o.convention as CspConvention, o.smact as SmactTable, tolerances);
}

/**
 * The matcher's tolerances of a gen csp partial, checked as gen csp checks them (cspTolerances) and named as it names
 * them; a partial without them was made with the cdvae preset (before partials carried them).
 */
function partialTolerances(name: string, t: unknown): CspTolerances {
  if (t === undefined) return CSP_DEFAULT_TOLERANCES;
  const bad = () =>
    new CliError(
      `${name}: "partial.options.tolerances" must be {preset: ${[...CSP_PRESET_NAMES, 'custom'].join('|')}, stol, ltol, angle_tol} ` +
        'as gen csp writes it',
    );
  if (typeof t !== 'object' || t === null || Array.isArray(t)) throw bad();
  const { preset, stol, ltol, angle_tol } = t as Json;
  if (![...CSP_PRESET_NAMES, 'custom'].includes(preset as string)) throw bad();
  if (![stol, ltol, angle_tol].every((v) => typeof v === 'number')) throw bad();
  let checked: CspTolerances;
  try {
    checked = cspTolerances(preset === 'custom' ? 'cdvae' : (preset as CspPreset), {
      stol: stol as number,
      ltol: ltol as number,
      angle_tol: angle_tol as number,
    });
  } catch (e) {
    if (e instanceof GenInputError) throw new CliError(`${name}: "partial.options.tolerances": ${e.message}`);
    throw e;
  }
  if (checked.preset !== preset) throw bad();
  return checked;
}

export function runMerge(argv: string[]): string {
  const { positionals } = parseArgs(argv, []);
  if (positionals.length === 0) throw new CliError('merge takes the partial reports of one sharded run (see structlab merge --help)');
  if (positionals.filter((p) => p === '-').length > 1) throw new CliError('only one partial report can be standard input');
  const partials = checkSet(positionals.map(readPartial));
  switch (partials[0].head.command) {
    case 'c2np eval':
      return mergeC2npEval(partials);
    case 'atomworld eval':
      return mergeAtomworldEval(partials);
    case 'fem check':
      return mergeFemCheck(partials);
    case 'gen csp':
      return mergeGenCsp(partials);
    default:
      throw new CliError(
        `${partials[0].name}: partial reports of ${quoted(String(partials[0].head.command))} cannot be merged ` +
          '(c2np eval, atomworld eval, fem check, gen csp)',
      );
  }
}
