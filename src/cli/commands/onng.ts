import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { analyzeOutcomes, parseOutcomesCsv, type OutcomeRow } from '../../core/tasks/onng/analytics.ts';
import { readUpstreamResults, summarizePrechecks, type PrecheckSummary, type UpstreamFile } from '../../core/tasks/onng/upstream.ts';
import {
  type ChatMessage,
  type HeaderItem,
  type OnngDataset,
  type Problem,
  datasetFiles,
  obfuscateDataset,
  parseJsonl,
} from '../../core/tasks/onng/obfuscate.ts';
import {
  atomworldVariant,
  deobfuscate,
  femBenchVariant,
  inverseFromMappingJson,
  parseAtomWorldCases,
  parseFemTask,
} from '../../core/tasks/onng/variants.ts';
import { parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { checkOutputDir, inputName, readInputText, toStrictJson, writeOutputDir } from '../io.ts';
import { LIMITS, LimitError, formatBytes, limitSentence, quoted } from '../../core/limits.ts';

export const ONNG_DATASET_ENV = 'STRUCTLAB_ONNG_DATASET';

export const ONNG_HELP = `usage: structlab onng obfuscate --level K [--out DIR [--force]] [--source DIR]
       structlab onng analyze OUTCOMES.csv|RESULTS_DIR
       structlab onng verify FILE.lean [--project DIR]
       structlab onng variants fem|atomworld INPUT --level K --out DIR [--python-safe] [--force]
       structlab onng deobfuscate --mapping DIR/mapping.json FILE

obfuscate  Rebuilds the O-NNG obfuscated set K (K = 1..5, λ = 0.2·K, seed K) bit for bit and prints
           {"level", "lambda", "seed", "mapping"} (original → obfuscated name, as upstream name_mapping.json).
           The original problem set is not bundled (the O-NNG repository has no licence): --source DIR,
           or else $${ONNG_DATASET_ENV}, names the dataset/original folder of your copy of it
           (header_definitions.jsonl, theorems.jsonl, optional queries.jsonl); one of them is required.
           --out DIR also writes the four obfuscated dataset files.
--out DIR  (obfuscate, variants) must not be an input or lie inside a source folder; it must not exist
           or be empty unless --force (files of the same name are then replaced). Files are written under
           a temporary name and renamed, so a failure leaves no partial file.
analyze    Per model and λ: run accuracy (correct / verified problems) and mean time, mean ± SE, one-way
           ANOVA across λ (scipy f_oneway semantics), linear trend on λ, sorry/simp counts, from a table
           laid out like per_problem_outcomes.csv, or from a results folder in the upstream layout
           (<model>/<level>/result_<run>.jsonl + time_<run>.json, <model>/statistics.json; a run missing
           from statistics.json counts as unverified); a folder adds "prechecks" (static checks of the raw
           proofs per model and λ: sorry, admit, simp, tactics outside the allowed list).
verify     Compiles FILE.lean with the local Lean toolchain (\`lake env lean\`, run in --project DIR,
           default the current folder; 60 s limit) and lists its errors. Exit 2 when Lean is unavailable.
variants   The same λ-renaming (level K = 1..5, λ = 0.2·K, seed K) applied to another benchmark, with one
           mapping for all tasks/cases. fem: INPUT is a FEM-Bench task JSON or a folder of them; the function
           and parameter names are renamed in each task's text, a prompt stub and its cases' input keys;
           writes DIR/tasks.jsonl. atomworld: INPUT is a cases JSONL (generated_cases.jsonl layout); the action
           verbs and parameter words of each prompt are renamed (CIFs untouched); writes DIR/cases.jsonl with
           an "obfuscation" field. Both write DIR/mapping.json (forward and inverse maps) and print
           {"benchmark", "level", "lambda", "mapping", "files"}. Names may hold ', Greek letters or ℕ as in
           O-NNG; --python-safe restricts them to valid Python identifiers (ASCII, no keyword or common
           builtin), a departure from O-NNG's character set, for FEM code that must run.
deobfuscate  Prints FILE (or - for stdin) with the obfuscated names of mapping.json restored to the
           originals, e.g. a model's FEM code before \`structlab fem check\`.
`;

export function runOnng(argv: string[], warn: (line: string) => void): string {
  const [sub, ...rest] = argv;
  if (sub === 'obfuscate') return runObfuscate(rest);
  if (sub === 'analyze') return runAnalyze(rest, warn);
  if (sub === 'verify') return runVerify(rest);
  if (sub === 'variants') return runVariants(rest);
  if (sub === 'deobfuscate') return runDeobfuscate(rest);
  throw new CliError(
    sub === undefined
      ? 'onng needs a subcommand: obfuscate, analyze, verify, variants or deobfuscate (see structlab onng --help)'
      : `unknown onng subcommand ${quoted(sub)} (expected obfuscate, analyze, verify, variants or deobfuscate)`,
  );
}

function readJsonlFile<T>(path: string): T[] {
  const text = readInputText(path);
  try {
    return parseJsonl<T>(text, path);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
}

function loadSourceDataset(dir: string): OnngDataset {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`${dir} is not a folder holding the original O-NNG dataset`);
  const header = readJsonlFile<HeaderItem>(join(dir, 'header_definitions.jsonl'));
  const problems = readJsonlFile<Problem>(join(dir, 'theorems.jsonl'));
  const queriesPath = join(dir, 'queries.jsonl');
  const queries = existsSync(queriesPath) ? readJsonlFile<ChatMessage[]>(queriesPath) : undefined;
  for (const [i, item] of header.entries()) {
    if (typeof item?.name !== 'string' || typeof item.code !== 'string')
      throw new CliError(`${join(dir, 'header_definitions.jsonl')} line ${i + 1}: an item needs string "name" and "code"`);
  }
  for (const [i, p] of problems.entries()) {
    if (typeof p?.name !== 'string' || typeof p.statement !== 'string' || typeof p.proof !== 'string' || !Array.isArray(p.known_theorems)) {
      throw new CliError(`${join(dir, 'theorems.jsonl')} line ${i + 1}: a problem needs "name", "statement", "proof" and "known_theorems"`);
    }
  }
  return { header, problems, ...(queries ? { queries } : {}) };
}

function runObfuscate(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'level', kind: 'string' },
    { name: 'out', kind: 'string' },
    { name: 'source', kind: 'string' },
    { name: 'force', kind: 'flag' },
  ]);
  if (positionals.length > 0) throw new CliError(`onng obfuscate takes no positional argument (got ${quoted(positionals[0])})`);
  const levelText = options.level;
  if (typeof levelText !== 'string') throw new CliError('onng obfuscate needs --level K with K from 1 to 5');
  const level = Number(levelText);
  if (!Number.isInteger(level) || level < 1 || level > 5)
    throw new CliError(`--level must be an integer from 1 to 5, got ${quoted(levelText)}`);
  // Only the user's own copy: the set is not bundled and no other place is searched (the repository has no licence).
  const source = typeof options.source === 'string' ? options.source : process.env[ONNG_DATASET_ENV] || undefined;
  if (!source) {
    throw new CliError(
      'the original O-NNG problem set is not bundled (its repository has no licence); pass --source DIR naming the ' +
        `dataset/original folder of a clone of github.com/lllx125/Obfuscated-NNG, or set ${ONNG_DATASET_ENV} to that folder`,
    );
  }
  const outputOptions = { force: options.force === true, sources: [source] };
  if (typeof options.out === 'string') checkOutputDir(options.out, outputOptions);
  const result = obfuscateDataset(loadSourceDataset(source), level);
  const written: string[] = [];
  if (typeof options.out === 'string') {
    writeOutputDir(options.out, outputOptions, (dir) => {
      for (const [file, text] of Object.entries(datasetFiles(result))) {
        dir.write(file, text);
        written.push(dir.pathOf(file));
      }
    });
  }
  return toStrictJson({
    level,
    lambda: Number(result.level.lambda.toFixed(10)),
    seed: result.level.seed,
    mapping: Object.fromEntries(result.mapping),
    ...(written.length > 0 ? { files: written } : {}),
  });
}

/** The .json/.jsonl files under a results folder, paths relative to the folder's parent (so the folder name counts). */
function readResultsFolder(dir: string): UpstreamFile[] {
  const files: UpstreamFile[] = [];
  let total = 0;
  let seen = 0;
  const base = resolve(dir, '..');
  const walk = (at: string) => {
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch (e) {
      throw new CliError(`${at}: the folder cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    seen += entries.length;
    // A results folder is a few thousand files; walking a whole disk by mistake stops here.
    if (seen > LIMITS.batchRows)
      throw new CliError(`${dir}: ${limitSentence('the results folder', null, LIMITS.batchRows, 'entries', 'batchRows')}`);
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && /\.jsonl?$/.test(entry.name)) {
        const text = readInputText(path);
        total += text.length;
        // The folder as a whole is one input: the same byte budget as a single file.
        if (total > LIMITS.inputBytes)
          throw new CliError(
            `${dir}: the results folder holds over ${formatBytes(LIMITS.inputBytes)} of .json/.jsonl files; the limit is ` +
              `${formatBytes(LIMITS.inputBytes)} per input`,
          );
        files.push({ path: relative(base, path).split('\\').join('/'), text });
      }
    }
  };
  walk(resolve(dir));
  return files;
}

function runAnalyze(argv: string[], warn: (line: string) => void): string {
  const { positionals } = parseArgs(argv, []);
  if (positionals.length !== 1) throw new CliError('onng analyze takes exactly one OUTCOMES.csv file or results folder');
  const path = positionals[0];
  let rows: OutcomeRow[];
  let prechecks: PrecheckSummary[] | null = null;
  const isFolder = path !== '-' && existsSync(path) && statSync(path).isDirectory();
  try {
    if (isFolder) {
      const upstream = readUpstreamResults(readResultsFolder(path));
      for (const w of upstream.warnings) warn(w);
      rows = upstream.rows;
      prechecks = summarizePrechecks(upstream.prechecks);
    } else {
      rows = parseOutcomesCsv(readInputText(path));
    }
  } catch (e) {
    if (e instanceof CliError) throw e;
    if (e instanceof LimitError) throw new CliError(`${inputName(path)}: ${e.message}`);
    throw new CliError(`${path === '-' ? 'stdin' : path}${isFolder ? ':' : ''} ${(e as Error).message}`);
  }
  if (rows.length === 0)
    throw new CliError(`${path}: ${isFolder ? 'the results folder holds no problem' : 'the outcomes table has no rows'}`);
  let models;
  try {
    models = analyzeOutcomes(rows);
  } catch (e) {
    throw new CliError(`${path}: ${(e as Error).message}`);
  }
  for (const m of models) {
    for (const u of m.unverified_runs) warn(`${path}: ${m.model} λ=${u.lambda} run ${u.run} has no verified problem and is left out`);
  }
  return toStrictJson(prechecks ? { models, prechecks } : { models });
}

interface LeanMessage {
  line: number;
  column: number;
  severity: string;
  message: string;
}

function runVerify(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [{ name: 'project', kind: 'string' }]);
  if (positionals.length !== 1) throw new CliError('onng verify takes exactly one FILE.lean');
  const project = typeof options.project === 'string' ? options.project : '.';
  const probe = spawnSync('lake', ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.error || probe.status !== 0) {
    throw new CliError(
      'Lean 4 with Mathlib is unavailable here (no working `lake` on PATH); install the toolchain pinned by the O-NNG problem ' +
        'set (leanprover/lean4:v4.27.0-rc1 + Mathlib v4.27.0-rc1) to verify proofs',
    );
  }
  const file = positionals[0];
  if (!existsSync(file)) throw new CliError(`${file}: no such file`);
  const r = spawnSync('lake', ['env', 'lean', resolve(file)], { cwd: project, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 2 ** 20 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') throw new CliError(`${file}: Lean did not finish within 60 s`);
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  const messages: LeanMessage[] = [];
  for (const m of output.matchAll(
    /^(.*?):(\d+):(\d+): (error|warning)(?:\([^)]*\))?: ([\s\S]*?)(?=^.*?:\d+:\d+: (?:error|warning)|(?![\s\S]))/gm,
  )) {
    messages.push({ line: Number(m[2]), column: Number(m[3]), severity: m[4], message: m[5].trim() });
  }
  return toStrictJson({
    file,
    ok: r.status === 0,
    exit_code: r.status,
    errors: messages.filter((m) => m.severity === 'error'),
    warnings: messages.filter((m) => m.severity === 'warning').length,
  });
}

function parseLevelOption(value: unknown, command: string): number {
  if (typeof value !== 'string') throw new CliError(`${command} needs --level K with K from 1 to 5`);
  const level = Number(value);
  if (!Number.isInteger(level) || level < 1 || level > 5)
    throw new CliError(`--level must be an integer from 1 to 5, got ${quoted(String(value))}`);
  return level;
}

/** FEM-Bench task files: one .json, or every .json directly inside a folder (sorted by name). */
function readFemTasks(input: string): string[] {
  if (!existsSync(input)) throw new CliError(`${input}: no such file or folder`);
  const paths = statSync(input).isDirectory()
    ? readdirSync(input)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => join(input, f))
    : [input];
  if (paths.length === 0) throw new CliError(`${input}: the folder holds no FEM-Bench task .json file`);
  return paths.map((path) => {
    const text = readInputText(path);
    try {
      parseFemTask(text, path); // checked here so an error names the file
    } catch (e) {
      throw new CliError((e as Error).message);
    }
    return text;
  });
}

function runVariants(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'level', kind: 'string' },
    { name: 'out', kind: 'string' },
    { name: 'python-safe', kind: 'flag' },
    { name: 'force', kind: 'flag' },
  ]);
  const [benchmark, input, ...extra] = positionals;
  if (benchmark !== 'fem' && benchmark !== 'atomworld') {
    throw new CliError(
      benchmark === undefined
        ? 'onng variants needs a benchmark, fem or atomworld, and an INPUT'
        : `unknown benchmark ${quoted(String(benchmark))} for onng variants (expected fem or atomworld)`,
    );
  }
  if (input === undefined)
    throw new CliError(
      `onng variants ${benchmark} needs an INPUT ` +
        `(${benchmark === 'fem' ? 'a FEM-Bench task JSON or a folder of them' : 'an AtomWorld cases JSONL'})`,
    );
  if (extra.length > 0) throw new CliError(`onng variants takes one INPUT (got also ${quoted(extra[0])})`);
  const level = parseLevelOption(options.level, 'onng variants');
  if (typeof options.out !== 'string') throw new CliError('onng variants needs --out DIR for the variant files');
  const variantOptions = { pythonSafe: options['python-safe'] === true };
  const inputIsFolder = input !== '-' && existsSync(input) && statSync(input).isDirectory();
  const outputOptions = { force: options.force === true, ...(inputIsFolder ? { sources: [input] } : { inputs: [input] }) };
  checkOutputDir(options.out, outputOptions);
  let result;
  if (benchmark === 'fem') {
    result = femBenchVariant(readFemTasks(input), level, variantOptions);
  } else {
    const label = input === '-' ? 'stdin' : input;
    try {
      result = atomworldVariant(
        parseAtomWorldCases(readInputText(input), label).map((c) => c.line),
        level,
        variantOptions,
      );
    } catch (e) {
      if (e instanceof CliError) throw e;
      throw new CliError((e as Error).message);
    }
  }
  const written: string[] = [];
  const files = result.files;
  writeOutputDir(options.out, outputOptions, (dir) => {
    for (const [file, text] of Object.entries(files)) {
      dir.write(file, text);
      written.push(dir.pathOf(file));
    }
  });
  return toStrictJson({
    benchmark: benchmark === 'fem' ? 'fem-bench' : 'atomworld',
    level: result.level,
    lambda: result.lambda,
    python_safe: variantOptions.pythonSafe,
    count: result.items.length,
    mapping: result.mapping,
    files: written,
  });
}

function runDeobfuscate(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [{ name: 'mapping', kind: 'string' }]);
  if (typeof options.mapping !== 'string')
    throw new CliError('onng deobfuscate needs --mapping DIR/mapping.json (written by onng variants)');
  if (positionals.length !== 1) throw new CliError('onng deobfuscate takes exactly one FILE (or - for stdin)');
  let inverse: Record<string, string>;
  try {
    inverse = inverseFromMappingJson(readInputText(options.mapping));
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${options.mapping}: ${(e as Error).message}`);
  }
  const restored = deobfuscate(readInputText(positionals[0]), inverse);
  // The CLI adds one newline; drop the file's own so the output is the restored text exactly.
  return restored.endsWith('\n') ? restored.slice(0, -1) : restored;
}
