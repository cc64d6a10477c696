/**
 * The O-NNG fixtures written for this project (tests/reference/onng/, README.md there: a synthetic problem set
 * and outcomes table in the upstream formats, with the port's stored outputs), and the upstream results layout
 * (src/core/tasks/onng/README.md) generated from an outcomes CSV: statistics that hold the CSV's verdicts,
 * proofs of the CSV's lengths and its times. Shared by the unit, end-to-end and reference tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChatMessage, type HeaderItem, type OnngDataset, type Problem, parseJsonl } from '../src/core/tasks/onng/obfuscate.ts';
import type { UpstreamFile } from '../src/core/tasks/onng/upstream.ts';
import { REFERENCE } from '../scripts/support/paths.ts';

/** The fixture folder, laid out as the upstream data: dataset/, derived/ (plus expected/, the port's outputs). */
export const ONNG_FIXTURES = join(REFERENCE, 'onng');
export const FIXTURE_OUTCOMES_CSV = join(ONNG_FIXTURES, 'derived', 'per_problem_outcomes.csv');

/** One set of an O-NNG dataset folder (`original`, `obfuscated_K`) as the port reads it. */
export function loadOnngSet(datasetDir: string, set = 'original'): OnngDataset {
  const read = (file: string) => readFileSync(join(datasetDir, set, file), 'utf8');
  return {
    header: parseJsonl<HeaderItem>(read('header_definitions.jsonl'), 'header_definitions.jsonl'),
    problems: parseJsonl<Problem>(read('theorems.jsonl'), 'theorems.jsonl'),
    queries: parseJsonl<ChatMessage[]>(read('queries.jsonl'), 'queries.jsonl'),
  };
}

/** A stored JSON output of the port (tests/reference/onng/expected/). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const readFixtureExpected = (name: string): any => JSON.parse(readFileSync(join(ONNG_FIXTURES, 'expected', name), 'utf8'));

/** A raw proof of exactly `length` characters that carries sorry / simp when the CSV says so. */
function proofText(length: number, sorry: boolean, simp: boolean): string {
  const lines = [...(simp ? ['  simp'] : []), ...(sorry ? ['  sorry'] : []), '  rfl'].join('\n');
  return lines + ' '.repeat(length - lines.length);
}

/** Writes the upstream layout from the CSV (independent of the reader: it follows the spec's file formats). */
export function upstreamTreeFromCsv(text: string): UpstreamFile[] {
  const lines = text.trim().split(/\r?\n/);
  const head = lines[0].split(',');
  const at = (name: string) => head.indexOf(name);
  const runs = new Map<string, string[][]>();
  for (const line of lines.slice(1)) {
    const f = line.split(',');
    const key = `${f[at('model')]}/${f[at('dataset')]}/${f[at('run')]}`;
    if (!runs.has(key)) runs.set(key, []);
    runs.get(key)!.push(f);
  }
  const files: UpstreamFile[] = [];
  const stats = new Map<string, Record<string, { runs: unknown[] }>>();
  for (const [key, rows] of runs) {
    const [model, dataset, run] = key.split('/');
    rows.sort((a, b) => Number(a[at('problem_id')]) - Number(b[at('problem_id')]));
    if (rows.some((r, i) => Number(r[at('problem_id')]) !== i + 1)) throw new Error(`${key}: problem ids are not 1..${rows.length}`);
    const flag = (r: string[], name: string) => r[at(name)] === '1';
    files.push({
      path: `results/${model}/${dataset}/result_${run}.jsonl`,
      text:
        rows
          .map((r) =>
            JSON.stringify({
              draft: 'd'.repeat(Number(r[at('draft_chars')])),
              code: proofText(Number(r[at('code_chars')]), flag(r, 'contains_sorry'), flag(r, 'uses_simp')),
            }),
          )
          .join('\n') + '\n',
    });
    files.push({ path: `results/${model}/${dataset}/time_${run}.json`, text: JSON.stringify(rows.map((r) => Number(r[at('time_s')]))) });
    if (rows[0][at('verified')] === '') continue; // an aborted run: missing from statistics.json
    const ids = (name: string) => rows.filter((r) => flag(r, name)).map((r) => Number(r[at('problem_id')]));
    if (!stats.has(model)) stats.set(model, {});
    const datasets = stats.get(model)!;
    datasets[dataset] ??= { runs: [] };
    const correct = rows.filter((r) => flag(r, 'correct')).length;
    datasets[dataset].runs.push({
      run: Number(run),
      total: rows.length,
      correct,
      incorrect: rows.length - correct,
      error_ids: ids('lean_error'),
      sorry_ids: ids('contains_sorry'),
      banned_tactics_usage: Object.fromEntries(ids('uses_simp').map((id) => [String(id), ['simp']])),
      correct_rate: correct / rows.length,
    });
  }
  for (const [model, datasets] of stats)
    files.push({ path: `results/${model}/statistics.json`, text: JSON.stringify({ datasets }, null, 2) });
  // A plot beside the results, as upstream keeps them: the reader lists it as ignored.
  files.push({ path: `results/${lines[1].split(',')[at('model')]}/original/avg_times.png`, text: '' });
  return files;
}
