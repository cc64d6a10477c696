/**
 * Property-based fuzzing of the CLI's input decoders (issue 10): argument vectors, the JSONL batches of
 * `atomworld eval`, the CSV of `onng analyze` and the --params JSON of `atomworld apply`. The contract of
 * the CLI's failure contract (structlab --help) for every input: exit 0, or exit 2 with nothing on stdout and one clean line on
 * stderr — never exit 1 (a bug), never a hang. In-process through main() for speed; outputs land in a scratch folder
 * (the working directory is moved there while the argv property runs).
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATOMWORLD_ACTIONS } from '../../src/core/tasks/atomworld/actions.ts';
import { assertCleanMessage, fuzzParams, fuzzTimeout, hostileLines, hostileToken, mutatedFrom, mutatedText } from '../fuzz-helpers.ts';
import { CORPUS_FILES, REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';

/** Hang guard of one in-process command, ms (far above any legitimate run on these small inputs). */
const CALL_BUDGET_MS = 20_000;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function runChecked(args: string[], label: string): Promise<CliRun> {
  const t0 = performance.now();
  const { code, stdout, stderr } = await structlabInProcess(args);
  const ms = performance.now() - t0;
  const where = `${label}: ${JSON.stringify(args).slice(0, 400)}`;
  if (ms > CALL_BUDGET_MS) throw new Error(`${where}: took ${ms.toFixed(0)} ms (hang guard ${CALL_BUDGET_MS} ms)`);
  if (code !== 0 && code !== 2) throw new Error(`${where}: exit ${code}: ${stderr.slice(0, 400)}`);
  if (code === 2) {
    if (stdout !== '') throw new Error(`${where}: exit 2 with output on stdout`);
    if (!stderr.startsWith('error: ') || !stderr.endsWith('\n'))
      throw new Error(`${where}: stderr is not one "error: " line: ${JSON.stringify(stderr.slice(0, 300))}`);
    assertCleanMessage(stderr.slice(0, -1), where);
  } else if (stdout === '') throw new Error(`${where}: exit 0 with nothing on stdout`);
  return { code, stdout, stderr };
}

const scratch = mkdtempSync(join(tmpdir(), 'structlab-fuzz-cli-'));
const small = (name: string) => join(CORPUS_FILES, name);
const INPUTS = ['p2-POSCAR_MgH2_1', 'cod-1000035.cif'].map(small);

const goldenCases = readFileSync(join(REFERENCE, 'golden', 'atomworld', 'generated_cases.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .slice(0, 2)
  .map((l) => JSON.parse(l) as { id: string; action: string; after_cif: string; before_cif: string; params: object });
const casesText = goldenCases.map((c) => JSON.stringify({ id: c.id, action: c.action, after_cif: c.after_cif })).join('\n');
const answersText = goldenCases
  .map((c, k) => JSON.stringify({ id: c.id, answer: k === 0 ? `<cif>\n${c.after_cif}\n</cif>` : 'no tags' }))
  .join('\n');
const beforeCif = join(scratch, 'before.cif');
writeFileSync(beforeCif, goldenCases[0].before_cif);
const outcomes = readFileSync(join(REFERENCE, 'onng', 'derived', 'per_problem_outcomes.csv'), 'utf8')
  .split('\n')
  .slice(0, 40)
  .join('\n');
const jsonl = join(scratch, 'cases.jsonl');
writeFileSync(jsonl, casesText);
const answers = join(scratch, 'answers.jsonl');
writeFileSync(answers, answersText);

// ------------------------------------------------------------------------------------- argv shapes

const OPTION_NAMES = [
  'symprec',
  'reference',
  'every',
  'rows',
  'index',
  'force',
  'radius',
  'repeats',
  'center',
  'inclusive',
  'quaternion',
  'output',
  'out',
  'radii',
  'level',
  'source',
  'python-safe',
  'mapping',
  'project',
  'action',
  'params',
  'target',
  'candidate',
  'lint',
  'case-timeout',
  'ltol',
  'stol',
  'angle-tol',
  'primitive-cell',
  'scale',
  'attempt-supercell',
  'cases',
  'outputs',
  'help',
  '__proto__',
  'constructor',
  '',
];
const shortText = fc.string({ maxLength: 12, unit: 'grapheme' });
const value: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1',
    '2',
    '3.5',
    '1e308',
    '-1e308',
    'NaN',
    'Infinity',
    '1e-9',
    '',
    ' ',
    'abc',
    '1,2,3',
    '0,0,0,1',
    'box',
    'origin',
    '6',
    '6-7',
    '30-6',
    'true',
    'false',
    '{}',
    '{"index": 0}',
    '[]',
    'null',
    '__proto__',
    'constructor',
    '\x1b[31m',
    'a\nb',
    '\u202e',
  ),
  hostileToken.filter((t) => t.length < 2000),
  shortText,
);
/** Paths: real inputs, fresh outputs in the scratch folder (the working directory), missing files. */
const pathArg = fc.oneof(
  fc.constantFrom(...INPUTS, jsonl, answers, beforeCif, scratch, join(scratch, 'missing.cif'), '/dev/null', '/dev/full'),
  fc.constantFrom('out.xyz', 'out.cif', 'POSCAR', 'out.json', 'out.extxyz', 'dir', 'x.vasp', 'sub/none.cif'),
);
const optionArg: fc.Arbitrary<string[]> = fc.oneof(
  fc.tuple(fc.constantFrom(...OPTION_NAMES), value).map(([n, v]) => [`--${n}`, v]),
  fc.tuple(fc.constantFrom(...OPTION_NAMES), value).map(([n, v]) => [`--${n}=${v}`]),
  fc.constantFrom(...OPTION_NAMES).map((n) => [`--${n}`]),
  fc.constantFrom(...OPTION_NAMES).map((n) => [`--${n}=`]),
  fc.constantFrom('-o', '-x', '-', '--', '-1', '-h').map((o) => [o]),
);
const COMMANDS: [string, string[]][] = [
  ['info', []],
  ['convert', []],
  ['carve', []],
  ['metrics', []],
  ['inverse', []],
  ['match', []],
  ['atomworld', ['apply', 'evaluate', 'toString', 'eval-x', '']],
  ['onng', ['obfuscate', 'analyze', 'deobfuscate', 'verify', 'hasOwnProperty', '']],
  ['fem', ['tasks', 'run', 'check', '__proto__', '']],
  ['c2np', ['constructor', 'built', '']],
  ['traj', []],
];
const argv: fc.Arbitrary<string[]> = fc
  .tuple(
    fc.oneof(fc.constantFrom(...COMMANDS), fc.tuple(shortText, fc.constant([] as string[]))),
    fc.nat({ max: 4 }),
    fc.array(
      fc.oneof(
        pathArg.map((p) => [p]),
        optionArg,
        value.map((v) => [v]),
      ),
      { maxLength: 6 },
    ),
  )
  .map(([[cmd, subs], s, parts]) => {
    const head = subs.length ? [cmd, subs[s % subs.length]].filter((x) => x !== '') : [cmd];
    // '-' alone would read this process's standard input.
    return [...head, ...parts.flat()].filter((a) => a !== '-');
  });

describe('fuzz: the CLI contract', () => {
  let cwd = '';
  beforeAll(() => {
    cwd = process.cwd();
    process.chdir(scratch);
  });
  afterAll(() => {
    process.chdir(cwd);
    rmSync(scratch, { recursive: true, force: true });
  });

  it(
    'argument vectors: exit 0 or 2, one clean line on failure',
    async () => {
      await fc.assert(
        fc.asyncProperty(argv, async (args) => {
          await runChecked(args, 'argv');
        }),
        fuzzParams(400, 8),
      );
    },
    fuzzTimeout(8),
  );

  it(
    'atomworld eval JSONL batches: mutated cases and answers, hostile lines',
    async () => {
      // One mutation each: the helper's line duplication compounds past V8's string limit on 10 kB lines.
      const withJunk = (base: string) =>
        fc.tuple(hostileLines, fc.boolean()).map(([junk, before]) => (before ? `${junk}\n${base}` : `${base}\n${junk}`));
      const text = fc.oneof(mutatedText(casesText, 1), withJunk(casesText), hostileLines, fc.constant(casesText));
      const answerText = fc.oneof(mutatedText(answersText, 1), withJunk(answersText), hostileLines, fc.constant(answersText));
      await fc.assert(
        fc.asyncProperty(text, answerText, async (c, a) => {
          const cf = join(scratch, 'fuzz-cases.jsonl'),
            af = join(scratch, 'fuzz-answers.jsonl');
          writeFileSync(cf, c);
          writeFileSync(af, a);
          const r = await runChecked(['atomworld', 'eval', cf, af, '--workers', '0'], 'atomworld eval');
          if (r.code === 0) {
            const out = JSON.parse(r.stdout);
            expect(Array.isArray(out.cases)).toBe(true);
            for (const s of out.skipped ?? []) expect(Number.isInteger(s.line)).toBe(true);
          }
        }),
        fuzzParams(60, 6),
      );
    },
    fuzzTimeout(6),
  );

  it(
    'onng analyze CSV: mutated outcome tables',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(mutatedText(outcomes, 1), hostileLines), async (csv) => {
          const f = join(scratch, 'fuzz-outcomes.csv');
          writeFileSync(f, csv);
          await runChecked(['onng', 'analyze', f], 'onng analyze');
        }),
        fuzzParams(150, 4),
      );
    },
    fuzzTimeout(4),
  );

  it(
    'atomworld apply --params JSON: generated and mutated parameter objects',
    async () => {
      const key = fc.constantFrom(
        'index',
        'index1',
        'index2',
        'symbol',
        'position_cart',
        'position_frac',
        'distance_ratio',
        'distance_from_index1',
        'd_pos_cart',
        'distance',
        'radius',
        'angle_deg',
        'axis',
        'size',
        'include_self',
        '__proto__',
        'constructor',
      );
      const num = fc.oneof(fc.constantFrom(0, 1, 2, -1, 15, 16, 1e308, -1e308, 0.5, 1e6, 1e7, 2 ** 31), fc.double({ noNaN: true }));
      const leaf = fc.oneof(
        num,
        fc.constantFrom('Fe', 'Xx', '', 'H', '__proto__'),
        fc.array(num, { maxLength: 4 }),
        fc.constant(null),
        fc.boolean(),
      );
      const params = fc.dictionary(key, leaf, { maxKeys: 5 }).map((o) => JSON.stringify(o));
      const examples = goldenCases.map((c) => JSON.stringify(c.params));
      const text = fc.oneof(
        params,
        mutatedFrom(examples),
        fc.constantFrom('{', '[]', 'null', '"x"', '{"__proto__": {"index": 0}}', '1e999'),
      );
      const action = fc.oneof(fc.constantFrom(...ATOMWORLD_ACTIONS), fc.constantFrom('__proto__', 'constructor', 'toString', ''));
      await fc.assert(
        fc.asyncProperty(action, text, async (a, p) => {
          await runChecked(['atomworld', 'apply', beforeCif, '--action', a, '--params', p], 'atomworld apply');
        }),
        fuzzParams(300, 5),
      );
    },
    fuzzTimeout(5),
  );
});
