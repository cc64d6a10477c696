/**
 * `--shard I/N` for batch commands: a deterministic partition of a batch by row (row k belongs to shard
 * k mod N, so shards are balanced whatever the order of the input), and the envelope of the partial report a
 * shard prints, which `structlab merge` reads (docs/scale-out.md documents the shape).
 */
import { CliError } from './errors.ts';
import { quoted } from '../core/limits.ts';

export interface Shard {
  index: number;
  count: number;
}

/** Most shards of one batch: far more than any job array needs, few enough that merge reads them all at once. */
const MAX_SHARDS = 100_000;

/** Parses "I/N" (0 ≤ I < N); undefined when the option is absent. */
export function shardOption(raw: string | boolean | undefined): Shard | undefined {
  if (raw === undefined) return undefined;
  const m = typeof raw === 'string' ? /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw) : null;
  const index = m ? Number(m[1]) : NaN,
    count = m ? Number(m[2]) : NaN;
  if (!m || !(count >= 1 && count <= MAX_SHARDS) || !(index < count))
    throw new CliError(`--shard must be I/N with 0 ≤ I < N ≤ ${MAX_SHARDS} (e.g. --shard 0/8), got ${quoted(String(raw))}`);
  return { index, count };
}

/** Whether row `k` (0-based, in input order) belongs to `shard` (every row does without one). */
export const inShard = (shard: Shard | undefined, k: number): boolean => !shard || k % shard.count === shard.index;

/** The format tag of a partial report; `structlab merge` refuses anything else. */
export const PARTIAL_FORMAT = 'structlab-partial/1';

/** The head of a partial report: which command made it, which shard it is, the options that must agree. */
export interface PartialHead {
  format: typeof PARTIAL_FORMAT;
  command: string;
  shard: Shard;
  /** Options that change the result: every shard of one merge must have the same. */
  options: Record<string, unknown>;
}

export const partialHead = (command: string, shard: Shard, options: Record<string, unknown>): PartialHead => ({
  format: PARTIAL_FORMAT,
  command,
  shard,
  options,
});
