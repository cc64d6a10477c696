/**
 * Regenerates the expected outputs of the O-NNG fixtures (tests/reference/onng/, see its README.md) from the
 * port as it stands (src/core/tasks/onng), which reproduces the published O-NNG sets and summary byte for byte
 * on the real data (`npm run test:reference`). Run it only after a deliberate change of the port, and review
 * the diff: the unit and end-to-end tests compare against these stored files.
 *
 *   npx tsx scripts/onng-fixture-goldens.ts              dataset/obfuscated_1..5/ and expected/*.json
 *   npx tsx scripts/onng-fixture-goldens.ts --outcomes   also rewrites the synthetic derived/per_problem_outcomes.csv
 *
 * derived/summary_by_model_lambda.json (SciPy's statistics of the outcomes) comes from scripts/onng-fixture-scipy.py.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeOutcomes, parseOutcomesCsv } from '../src/core/tasks/onng/analytics.ts';
import { analyseOutcomesText } from '../src/core/tasks/onng/lab/analysis.ts';
import {
  type ChatMessage,
  type HeaderItem,
  type OnngDataset,
  type Problem,
  datasetFiles,
  obfuscateDataset,
  parseJsonl,
} from '../src/core/tasks/onng/obfuscate.ts';
import { onngModuleOf } from '../src/core/tasks/onng/upstream.ts';
import { REFERENCE } from './support/paths.ts';

const ONNG = join(REFERENCE, 'onng');
const ORIGINAL = join(ONNG, 'dataset', 'original');
const OUTCOMES = join(ONNG, 'derived', 'per_problem_outcomes.csv');

function write(path: string, text: string): void {
  writeFileSync(path, text);
  console.log(`wrote ${path.slice(ONNG.length + 1)}`);
}

const read = (file: string) => readFileSync(join(ORIGINAL, file), 'utf8');
const original: OnngDataset = {
  header: parseJsonl<HeaderItem>(read('header_definitions.jsonl'), 'header_definitions.jsonl'),
  problems: parseJsonl<Problem>(read('theorems.jsonl'), 'theorems.jsonl'),
  queries: parseJsonl<ChatMessage[]>(read('queries.jsonl'), 'queries.jsonl'),
};

/** mulberry32: a small seeded generator, so the synthetic table is the same on every machine. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A synthetic outcomes table in the upstream per_problem_outcomes.csv layout (CRLF, as that file is written):
 * three invented models, six levels, three runs, the fixture's twelve problems. Accuracy falls with λ at a
 * per-model rate; a wrong answer is a Lean error or, one time in five, a sorry; simp is flagged independently.
 * Run 2 of cedar-prover at λ = 1 was never verified (empty verdicts), as an aborted upstream run.
 */
function outcomesCsv(): string {
  const random = seeded(21);
  const models = [
    { name: 'atlas-7b', accuracy: 0.55, drop: 0.35, time: 3 },
    { name: 'birch-chat', accuracy: 0.75, drop: 0.5, time: 6 },
    { name: 'cedar-prover', accuracy: 0.9, drop: 0.2, time: 20 },
  ];
  const ease = original.problems.map((p) => 1 - 0.04 * (p.id - 1));
  const lines = [
    'model,dataset,lam,run,problem_id,problem,module,verified,correct,lean_error,contains_sorry,uses_simp,time_s,draft_chars,code_chars',
  ];
  for (const model of models)
    for (let k = 0; k <= 5; k++) {
      const lambda = (2 * k) / 10;
      const dataset = k === 0 ? 'original' : `obfuscated_${k}`;
      for (let run = 1; run <= 3; run++)
        original.problems.forEach((problem, i) => {
          const correct = random() < model.accuracy * (1 - model.drop * lambda) * ease[i];
          const sorry = !correct && random() < 0.2;
          const simp = random() < 0.1;
          const time = (model.time * (1 + 0.3 * lambda) * (0.5 + random())).toFixed(4);
          const draft = 200 + Math.floor(600 * random() + 100 * lambda);
          const code = 20 + Math.floor(200 * random());
          const verdict =
            model.name === 'cedar-prover' && k === 5 && run === 2
              ? ',,,,'
              : [1, correct, !correct && !sorry, sorry, simp].map((b) => Number(b)).join(',');
          lines.push(
            [
              model.name,
              dataset,
              lambda.toFixed(1),
              run,
              problem.id,
              problem.name,
              onngModuleOf(problem.id),
              verdict,
              time,
              draft,
              code,
            ].join(','),
          );
        });
    }
  return lines.join('\r\n') + '\r\n';
}

if (process.argv.includes('--outcomes')) write(OUTCOMES, outcomesCsv());

for (let level = 1; level <= 5; level++) {
  const dir = join(ONNG, 'dataset', `obfuscated_${level}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(datasetFiles(obfuscateDataset(original, level)))) write(join(dir, name), text);
}

// JSON keeps every double exactly (shortest round-trip form); the tests compare with toEqual.
const csv = readFileSync(OUTCOMES, 'utf8');
mkdirSync(join(ONNG, 'expected'), { recursive: true });
write(join(ONNG, 'expected', 'outcomes_summary.json'), JSON.stringify(analyzeOutcomes(parseOutcomesCsv(csv)), null, 1) + '\n');
write(join(ONNG, 'expected', 'page_analysis.json'), JSON.stringify(analyseOutcomesText(csv), null, 1) + '\n');
write(
  join(ONNG, 'expected', 'page_analysis_without_problem_1.json'),
  JSON.stringify(analyseOutcomesText(csv, undefined, { excludeProblemIds: [1] }), null, 1) + '\n',
);
