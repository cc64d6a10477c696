/**
 * Issue 10 (hardening) for the CLI: exit codes for unknown names that are Object.prototype's
 * (reproduction 9), escaped control characters (10), file data used as object keys (7), outputs that
 * never replace an input or an existing file (8), capped standard input, and an `atomworld eval` batch
 * that survives a slow case and junk lines. In-process through main() where a process is not the point.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, linkSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputFailure } from '../../src/cli/errors.ts';
import { writeOutputDir } from '../../src/cli/io.ts';
import { LimitError } from '../../src/core/limits.ts';
import { ParseError } from '../../src/core/io/types.ts';
import { summariseAtomworld } from '../../src/core/tasks/atomworld/batch.ts';
import { analyseOutcomesText } from '../../src/core/tasks/onng/lab/analysis.ts';
import { shiftedFccCif } from '../hostile-structures.ts';
import { p1Cif } from '../cif.ts';
import { CORPUS_FILES, REPO_ROOT, REFERENCE } from '../../scripts/support/paths.ts';
import { structlab, structlabInProcess } from '../cli-runner.ts';

type CliRun = Awaited<ReturnType<typeof structlabInProcess>>;
const run = structlabInProcess;

/** The CLI's failure contract (structlab --help): exit 2, nothing on stdout, one line on stderr starting "error: ". */
function expectRefusal(r: CliRun, label: string, code = 2): void {
  expect(r.code, `${label}: ${r.stderr}`).toBe(code);
  expect(r.stdout, label).toBe('');
  expect(r.stderr, label).toMatch(/^error: /);
  expect(
    r.stderr.split('\n').filter((l) => l !== ''),
    label,
  ).toHaveLength(1);
  expect(r.stderr, label).not.toMatch(/\n\s+at /);
}

const tmp = mkdtempSync(join(tmpdir(), 'structlab-hardening-'));
const CELL = join(CORPUS_FILES, 'cod-1000035.cif');
const POSCAR = join(CORPUS_FILES, 'p2-POSCAR_MgH2_1');
const ORIGINAL = join(REFERENCE, 'onng', 'dataset', 'original'); // the fixture set written for this project

/** Every file under a folder with its bytes, to prove that nothing changed. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string) => {
    for (const e of readdirSync(at, { withFileTypes: true })) {
      const p = join(at, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p, readFileSync(p, 'latin1'));
    }
  };
  walk(dir);
  return out;
}

describe('exit codes (reproduction 9)', () => {
  it('unknown commands and subcommands named like Object.prototype members exit 2 with one sentence', async () => {
    for (const args of [
      ['constructor'],
      ['toString', '--help'],
      ['__proto__'],
      ['hasOwnProperty'],
      ['valueOf', 'x'],
      ['atomworld', 'constructor'],
      ['atomworld', '__proto__', '--help'],
      ['atomworld', 'toString', 'a', 'b'],
      ['onng', '__proto__'],
      ['onng', 'constructor', '--level', '1'],
      ['c2np', 'toString'],
      ['fem', 'constructor'],
      ['fem', 'run', '__proto__', '--cases', 'x.json'],
      ['info', '--__proto__', 'x'],
      ['info', '--constructor=1', CELL],
      ['convert', '--toString', CELL, join(tmp, 'x.cif')],
      [],
    ]) {
      expectRefusal(await run(args), args.join(' ') || '(no arguments)');
    }
  });

  it('a bug is exit 1 with one line; STRUCTLAB_DEBUG=1 adds the stack trace', async () => {
    // The only way to make the CLI fail internally without changing it: an output stream that throws.
    const boom = () => {
      throw new TypeError('stdout exploded');
    };
    const r = await run(['info', POSCAR], { stdout: boom });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: internal error: stdout exploded .*STRUCTLAB_DEBUG=1/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    process.env.STRUCTLAB_DEBUG = '1';
    try {
      const d = await run(['info', POSCAR], { stdout: boom });
      expect(d.code).toBe(1);
      expect(d.stderr).toMatch(/\n\s+at /);
    } finally {
      delete process.env.STRUCTLAB_DEBUG;
    }
    expect((await run(['--help'])).stdout).toMatch(/STRUCTLAB_DEBUG=1/);
  });

  it('core errors about the input are exit 2, JavaScript faults are not', () => {
    expect(inputFailure(new LimitError('atoms', 'x has 9 atoms; the limit is 1 atoms'))).toEqual({
      message: 'x has 9 atoms; the limit is 1 atoms',
      exitCode: 2,
    });
    expect(inputFailure(new ParseError('bad number.', 7))).toEqual({ message: 'line 7: bad number', exitCode: 2 });
    expect(inputFailure(new RangeError('Invalid array length'))?.exitCode).toBe(2);
    expect(inputFailure(new RangeError('Maximum call stack size exceeded'))?.exitCode).toBe(2);
    expect(inputFailure(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBeNull();
    expect(inputFailure(new Error('plain'))).toBeNull();
    expect(inputFailure('a string')).toBeNull();
  });
});

describe('messages escape control characters (reproduction 10)', () => {
  it('an escape sequence or a line break in a file name or its content reaches stderr escaped, on one line', async () => {
    const evil = join(tmp, 'e\x1b[2Jvil\nname.cif');
    writeFileSync(evil, 'x\x1b[31mred\u202e\r\nmore\n');
    for (const args of [['info', evil], ['info', join(tmp, 'no\x07such\x1b]0;title\x07.cif')], ['\x1b[31mcmd\nx'], ['info', '--\x1b[1m']]) {
      const r = await run(args);
      expectRefusal(r, JSON.stringify(args));
      // eslint-disable-next-line no-control-regex -- no control character may reach the terminal
      expect(r.stderr.trimEnd()).not.toMatch(/[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e]/);
    }
    expect((await run(['info', evil])).stderr).toContain('\\x1b[2J');
  });
});

describe('data safety (reproduction 8)', () => {
  it('convert X X, carve -o CELL, a hard link and a symbolic link to the input are refused, --force or not', async () => {
    const dir = mkdtempSync(join(tmp, 'same-'));
    const cell = join(dir, 'cell.cif');
    cpSync(CELL, cell);
    linkSync(cell, join(dir, 'hard.cif'));
    symlinkSync(cell, join(dir, 'soft.cif'));
    const before = readFileSync(cell, 'latin1');
    for (const args of [
      ['convert', cell, cell],
      ['convert', cell, cell, '--force'],
      ['convert', cell, join(dir, 'hard.cif'), '--force'],
      ['convert', cell, join(dir, 'soft.cif'), '--force'],
      ['convert', cell, join(dir, '.', 'cell.cif')],
      ['carve', cell, '--radius', '5', '-o', cell],
      ['carve', cell, '--radius', '5', '-o', cell, '--force'],
      ['c2np', 'build', cell, '--out', cell],
    ]) {
      const r = await run(args);
      expectRefusal(r, args.join(' '));
    }
    expect(readFileSync(cell, 'latin1')).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(['cell.cif', 'hard.cif', 'soft.cif']);
  });

  it('an existing output is replaced only with --force', async () => {
    const dir = mkdtempSync(join(tmp, 'force-'));
    const out = join(dir, 'out.xyz');
    writeFileSync(out, 'keep me\n');
    const r = await run(['convert', POSCAR, out]);
    expectRefusal(r, 'convert onto an existing file');
    expect(r.stderr).toMatch(/already exists; pass --force/);
    expect(readFileSync(out, 'utf8')).toBe('keep me\n');
    const forced = await run(['convert', POSCAR, out, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toBe('keep me\n');
    expect(readdirSync(dir)).toEqual(['out.xyz']); // no temporary file left behind
    expect((await run(['convert', '--help'])).stdout).toMatch(/--force/);
    expect((await run(['carve', '--help'])).stdout).toMatch(/--force/);
    expect((await run(['c2np', '--help'])).stdout).toMatch(/--force/);
    expect((await run(['onng', '--help'])).stdout).toMatch(/--force/);
  });

  it('onng obfuscate --source D --out D (or a folder inside D) leaves the original set untouched', async () => {
    const d = join(mkdtempSync(join(tmp, 'onng-')), 'original');
    cpSync(ORIGINAL, d, { recursive: true });
    const before = snapshot(d);
    for (const out of [d, join(d, 'sub'), join(d, '.')]) {
      for (const force of [[], ['--force']]) {
        const r = await run(['onng', 'obfuscate', '--level', '1', '--source', d, '--out', out, ...force]);
        expectRefusal(r, `--out ${out} ${force.join(' ')}`);
      }
    }
    expect(snapshot(d)).toEqual(before);
    // A non-empty folder elsewhere needs --force; with it the four files are written.
    const other = mkdtempSync(join(tmp, 'onng-out-'));
    writeFileSync(join(other, 'notes.txt'), 'mine');
    expectRefusal(await run(['onng', 'obfuscate', '--level', '1', '--source', d, '--out', other]), 'non-empty --out');
    const ok = await run(['onng', 'obfuscate', '--level', '1', '--source', d, '--out', other, '--force']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readdirSync(other).sort()).toEqual([
      'header_definitions.jsonl',
      'name_mapping.json',
      'notes.txt',
      'queries.jsonl',
      'theorems.jsonl',
    ]);
    expect(readFileSync(join(other, 'notes.txt'), 'utf8')).toBe('mine');
  }, 60_000);

  it('onng variants refuses to write into its input folder', async () => {
    const fem = mkdtempSync(join(tmp, 'fem-tasks-'));
    const tasks = join(REFERENCE, 'golden', 'fembench');
    const anyTask = existsSync(tasks)
      ? readdirSync(tasks, { recursive: true })
          .map(String)
          .find((f) => f.endsWith('.json'))
      : undefined;
    writeFileSync(join(fem, 'task.json'), anyTask ? readFileSync(join(tasks, anyTask)) : '{}');
    const before = snapshot(fem);
    for (const out of [fem, join(fem, 'v')]) {
      const r = await run(['onng', 'variants', 'fem', fem, '--level', '1', '--out', out, '--force']);
      expectRefusal(r, `variants --out ${out}`);
      expect(r.stderr).toMatch(/source folder/);
    }
    expect(snapshot(fem)).toEqual(before);
  });

  it('-o /dev/full exits 2 with a sentence', () => {
    const r = structlab(['carve', CELL, '--radius', '4', '-o', '/dev/full']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: \/dev\/full: .*no space left/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a folder whose filling fails is not left behind, nor its staging copy', () => {
    const parent = mkdtempSync(join(tmp, 'stage-'));
    const out = join(parent, 'dataset');
    expect(() =>
      writeOutputDir(out, {}, (dir) => {
        dir.write('a/b.txt', 'half');
        throw new Error('disk full, say');
      }),
    ).toThrow(/disk full/);
    expect(readdirSync(parent)).toEqual([]);
    const written = writeOutputDir(out, {}, (dir) => {
      dir.write('a/b.txt', 'whole');
      return dir.pathOf('a/b.txt');
    });
    expect(readFileSync(written, 'utf8')).toBe('whole');
    expect(readdirSync(parent)).toEqual(['dataset']);
  });

  it('standard input and endless devices stop at the input size limit with a sentence', () => {
    const r = spawnSync('bash', ['-c', `head -c 300000000 /dev/zero | "${process.execPath}" bin/structlab.mjs info -`], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: standard input is over 256 MiB; the limit is 256 MiB/);
    const dev = structlab(['info', '/dev/zero']);
    expect(dev.code).toBe(2);
    expect(dev.stderr).toMatch(/^error: \/dev\/zero is over 256 MiB/);
  }, 150_000);
});

const cifOf = (n: number): string => {
  // An n×n×n rock-salt-like P1 supercell: a valid structure whose matching takes seconds for n = 10.
  const rows: string[] = [];
  let k = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      for (let l = 0; l < n; l++) {
        for (const [s, f] of [
          ['Na', 0],
          ['Cl', 0.5],
        ] as const)
          rows.push(`${s}${++k} ${s} ${(i + f) / n} ${(j + f) / n} ${(l + f) / n}`);
      }
  return p1Cif('big', 4 * n, rows);
};

describe('atomworld eval survives bad cases', () => {
  it('a case past --case-timeout is "Timeout", its thread is replaced and the rest judged; junk lines are skipped by line', async () => {
    const dir = mkdtempSync(join(tmp, 'aw-timeout-'));
    const small = cifOf(1);
    const target = shiftedFccCif(4, 0);
    const answer = shiftedFccCif(4, 0.05);
    const cases = [
      { id: 'a', action: 'change', after_cif: small },
      { id: 'slow', action: 'super_cell', after_cif: target },
      'this line is junk',
      { id: 'b', action: 'change', after_cif: small },
      { id: 'c', action: 'move', after_cif: small },
    ];
    const casesFile = join(dir, 'cases.jsonl'),
      answersFile = join(dir, 'answers.jsonl');
    writeFileSync(casesFile, cases.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))).join('\n'));
    writeFileSync(
      answersFile,
      [
        JSON.stringify({ id: 'a', answer: `<cif>\n${small}</cif>` }),
        JSON.stringify({ id: 'slow', answer: `<cif>\n${answer}</cif>` }),
        JSON.stringify({ id: 'b', answer: `<cif>\n${small}</cif>` }),
        '[1, 2]',
        JSON.stringify({ id: 'c', answer: `<cif>\n${small}</cif>` }),
      ].join('\n'),
    );
    const r = structlab(['atomworld', 'eval', casesFile, answersFile, '--workers', '1', '--case-timeout', '1'], { timeout: 180_000 });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.cases.map((c: { id: string; wrong_type: string | null }) => [c.id, c.wrong_type])).toEqual([
      ['a', null],
      ['slow', 'Timeout'],
      ['b', null],
      ['c', null],
    ]);
    expect(out.by_action.super_cell.errors).toEqual({ Timeout: 1 });
    expect(out.by_action.change).toMatchObject({ n: 2, success_rate: 1 });
    expect(out.skipped).toEqual([
      { file: casesFile, line: 3, error: expect.stringMatching(/not valid JSON/) },
      { file: answersFile, line: 4, error: expect.stringMatching(/JSON object/) },
    ]);
    expect(r.stderr).toMatch(/cases\.jsonl line 3: not valid JSON/);
    expect(r.stderr).toMatch(/--case-timeout/);
    expect((await structlabInProcess(['atomworld', 'eval', '--help'])).stdout).toMatch(/Timeout/);
  }, 200_000);
});

describe('data from files is data (reproduction 7)', () => {
  const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

  it('summariseAtomworld keeps "__proto__" and friends as plain keys and pollutes nothing', () => {
    const verdicts = NAMES.flatMap((action, k) => [
      { id: `${k}a`, action, correct: true, wrong_type: null, rmsd: 0, max_dist: 0.1 * (k + 1) },
      { id: `${k}b`, action, correct: false, wrong_type: NAMES[(k + 1) % NAMES.length], rmsd: null, max_dist: null },
    ]);
    const summary = summariseAtomworld(verdicts);
    expect(({} as Record<string, unknown>).n).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    const json = JSON.parse(JSON.stringify(summary));
    expect(Object.keys(json)).toEqual(NAMES);
    for (const [k, name] of NAMES.entries()) {
      expect(Object.getOwnPropertyDescriptor(json, name)?.value).toEqual({
        n: 2,
        success_rate: 0.5,
        mean_max_dist: 0.1 * (k + 1),
        errors: { [NAMES[(k + 1) % NAMES.length]]: 1 },
      });
    }
  });

  it('atomworld eval with those names as ids and actions', async () => {
    const small = cifOf(1);
    const casesFile = join(tmp, 'proto-cases.jsonl'),
      answersFile = join(tmp, 'proto-answers.jsonl');
    writeFileSync(casesFile, NAMES.map((n) => JSON.stringify({ id: n, action: n, after_cif: small })).join('\n'));
    writeFileSync(answersFile, NAMES.map((n) => JSON.stringify({ id: n, answer: `<cif>${small}</cif>` })).join('\n'));
    const r = await run(['atomworld', 'eval', casesFile, answersFile, '--workers', '0']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.cases.map((c: { id: string; correct: boolean }) => [c.id, c.correct])).toEqual(NAMES.map((n) => [n, true]));
    expect(Object.keys(out.by_action)).toEqual(NAMES);
    for (const n of NAMES) expect(Object.getOwnPropertyDescriptor(out.by_action, n)?.value).toMatchObject({ n: 1, success_rate: 1 });
    expect(({} as Record<string, unknown>).n).toBeUndefined();
  });

  it('onng analyze and the page analysis with those names as models', async () => {
    const header = 'model,lam,run,problem_id,verified,correct,time_s';
    const rows: string[] = [];
    for (const model of NAMES)
      for (const lam of [0, 0.2])
        for (const run of [1, 2]) for (const p of [1, 2, 3]) rows.push(`${model},${lam},${run},${p},1,${(p + run) % 2},${p + lam}`);
    const csv = `${header}\n${rows.join('\n')}\n`;
    const file = join(tmp, 'proto-outcomes.csv');
    writeFileSync(file, csv);
    const r = await run(['onng', 'analyze', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(
      JSON.parse(r.stdout)
        .models.map((m: { model: string }) => m.model)
        .sort(),
    ).toEqual([...NAMES].sort());
    const analysis = analyseOutcomesText(csv);
    for (const n of NAMES) expect(Object.getOwnPropertyDescriptor(analysis.heat.cells, n)?.value).toHaveLength(3);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});

describe('limits of batch inputs', () => {
  it('a cases file over LIMITS.batchRows lines is refused with the limit sentence', async () => {
    const file = join(tmp, 'many.jsonl');
    writeFileSync(file, '\n'.repeat(1_000_001));
    const r = await run(['atomworld', 'eval', file, file.replace('many', 'proto-answers')]);
    expectRefusal(r, 'batch rows');
    expect(r.stderr).toMatch(/the limit is 1,000,000 lines/);
  });
});
