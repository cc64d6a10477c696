#!/usr/bin/env node
/**
 * `npm run test:reference [-- DIR]`: the cross-check of the O-NNG port against the real O-NNG data
 * (lllx125/Obfuscated-NNG: its dataset/ sets and the tables derived from its results), which has no licence and
 * so is never in this repository. DIR is that data folder (dataset/original, dataset/obfuscated_1..3,
 * derived/); by default the folder shared/golden/onng beside the checkout, where CI keeps it. A missing folder or
 * file fails the run with a sentence (never a skip); the folder reaches the tests (vitest project "reference",
 * tests/reference-suite/) through an environment variable set for the child only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Read by tests/reference-suite/onng-data.ts; set only for the vitest child. */
const DIR_VARIABLE = 'STRUCTLAB_ONNG_REFERENCE_DIR';
/** Where CI keeps the O-NNG data: shared/golden/onng beside the checkout. */
const DEFAULT_DIR = resolve(REPO_ROOT, '..', 'shared', 'golden', 'onng');

/** The files the suite reads, relative to DIR. */
const NEEDED = [
  ...['header_definitions.jsonl', 'theorems.jsonl', 'queries.jsonl'].map((f) => `dataset/original/${f}`),
  ...[1, 2, 3].flatMap((k) =>
    ['header_definitions.jsonl', 'theorems.jsonl', 'queries.jsonl', 'name_mapping.json'].map((f) => `dataset/obfuscated_${k}/${f}`),
  ),
  'derived/per_problem_outcomes.csv',
  'derived/summary_by_model_lambda.json',
  'derived/obfuscation_strength_by_lambda.json',
  'derived/nng4_levels.json',
];

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h') || args.length > 1) {
  console.log(
    'usage: npm run test:reference [-- DIR]\n' +
      'Checks the O-NNG port against the real O-NNG data in DIR (a folder with dataset/original, dataset/obfuscated_1..3 and\n' +
      `derived/ from lllx125/Obfuscated-NNG); DIR defaults to ${DEFAULT_DIR}.`,
  );
  process.exit(args.length > 1 ? 2 : 0);
}
const dir = resolve(args[0] ?? DEFAULT_DIR);

function fail(sentence) {
  console.error(`test:reference: ${sentence}`);
  console.error(
    'The O-NNG data has no licence and is not in this repository: pass the folder that holds it, ' +
      '`npm run test:reference -- /path/to/Obfuscated-NNG-data` (README, Quick start).',
  );
  process.exit(1);
}

if (!existsSync(dir) || !statSync(dir).isDirectory()) fail(`the O-NNG data folder ${dir} does not exist.`);
const missing = NEEDED.filter((f) => !existsSync(join(dir, f)));
if (missing.length > 0) fail(`the O-NNG data folder ${dir} lacks ${missing.join(', ')}.`);

console.log(`test:reference: O-NNG data from ${dir}`);
const vitest = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const child = spawnSync(process.execPath, [vitest, 'run', '--project', 'reference'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
  env: { ...process.env, [DIR_VARIABLE]: dir },
});
process.exit(child.status ?? 1);
