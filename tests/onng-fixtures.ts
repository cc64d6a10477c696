/**
 * O-NNG fixtures generated from the golden per_problem_outcomes.csv (read in place, never copied): the upstream
 * results layout (src/core/tasks/onng/README.md) whose statistics hold the CSV's verdicts, proofs of the CSV's lengths
 * and its times. Shared by the unit and end-to-end tests of the upstream reader.
 */
import type { UpstreamFile } from '../src/core/tasks/onng/upstream.ts';

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
  files.push({ path: 'results/claude-sonnet-4.5/original/avg_times.png', text: '' });
  return files;
}
