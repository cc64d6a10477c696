/**
 * Issue 21, part 4: the hostile inputs that still got through after the hardening work. Each is refused with
 * exit 2 and one short sentence naming the file (and the line where there is one), or, where it means something,
 * read as it means. In-process through main() except where the process is the point (standard output).
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv } from '../../src/core/io/csv.ts';
import { parsePymatgenJson } from '../../src/core/io/pymatgen-json.ts';
import { LIMITS, quoted } from '../../src/core/limits.ts';
import { readAtomworldInputs, InputFormatError } from '../../src/core/tasks/atomworld/lab/inputs.ts';
import { ParticleFormatError, parseParticleXyz } from '../../src/core/tasks/c2np/dataset.ts';
import { normalizeQuaternion } from '../../src/core/tasks/c2np/rotation.ts';
import { levelLambda, readUpstreamResults } from '../../src/core/tasks/onng/upstream.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { pymatgenJson } from '../hostile-structures.ts';
import { ATOM_SITE_COLUMNS, p1Cif } from '../cif.ts';
import { errorOf } from '../expect.ts';
import { REPO_ROOT } from '../../scripts/support/paths.ts';

type CliRun = Awaited<ReturnType<typeof structlabInProcess>>;
const run = structlabInProcess;

/** Longest error line accepted: a sentence with a path and a 40-character excerpt, never the input itself. */
const SHORT = 300;

/** Exit 2, nothing on stdout, one short "error: " line on stderr without a stack trace; returns that line. */
function refusal(r: CliRun, label: string): string {
  expect(r.code, `${label}: ${r.stderr.slice(0, 500)}`).toBe(2);
  expect(r.stdout, label).toBe('');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines, label).toHaveLength(1);
  expect(lines[0], label).toMatch(/^error: /);
  expect(lines[0].length, `${label}: ${lines[0].slice(0, 500)}`).toBeLessThan(SHORT);
  expect(r.stderr, label).not.toMatch(/\n\s+at /);
  return lines[0];
}

const tmp = mkdtempSync(join(tmpdir(), 'structlab-hostile-'));
const file = (name: string, text: string): string => {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
};

const CELL_CIF = p1Cif('cell', 4, [], { columns: [...ATOM_SITE_COLUMNS, '_atom_site_occupancy'] });
/** A P1 cell of 4 Å holding the given atom rows (label, type, x, y, z, occupancy); the first row is on line 16. */
const cif = (rows: string) => `${CELL_CIF}${rows}`;
const CELL = file('cell.cif', cif('Na1 Na 0 0 0 1\nCl1 Cl 0.5 0.5 0.5 1\n'));

describe('a CSV quoted field that never closes', () => {
  const OUTCOMES_HEADER = 'model,lam,run,problem_id,verified,correct,time_s\n';

  it('is refused in linear time with the line where it opened (doubled quotes on one long line took minutes)', () => {
    // No timed assertion: a reader quadratic in the line (2.5 s at 500,000 doubled quotes) takes minutes on 4,000,000,
    // past the test's timeout; a linear one reads them in about a second.
    const text = `${OUTCOMES_HEADER}"${'""'.repeat(4_000_000)}\n`;
    expect(errorOf(() => parseCsv(text), CsvError).line).toBe(2);
  });

  it('onng analyze answers exit 2 naming the file and the line, however large the file', async () => {
    for (const [name, body] of [
      ['doubled.csv', `"${'""'.repeat(500_000)}`],
      ['lines.csv', `m,0,0,1,1,1,1\n"m,0,0,2,1,1,1\n${'m,0,0,3,1,1,1\n'.repeat(200_000)}`],
    ] as const) {
      const path = file(name, OUTCOMES_HEADER + body);
      const message = refusal(await run(['onng', 'analyze', path]), name);
      const line = name === 'doubled.csv' ? 2 : 3;
      expect(message).toBe(`error: ${path} line ${line}: a quoted field opened on this line is never closed (a " is missing)`);
    }
  });
});

describe('standard output that cannot be written (a real process: the stream is the point)', () => {
  const BIN = join(REPO_ROOT, 'bin', 'structlab.mjs');

  it.runIf(existsSync('/dev/full'))('> /dev/full: one sentence on stderr, exit 2, no stack trace', () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['info', CELL], ['--help']]) {
        const r = spawnSync(process.execPath, [BIN, ...args], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8', timeout: 60_000 });
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toBe('error: standard output: no space left on the device\n');
      }
    } finally {
      closeSync(full);
    }
  });

  it('a reader that closed the pipe (EPIPE): one sentence, exit 2', async () => {
    const child = spawn(process.execPath, [BIN, 'info', CELL], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, stderr).toBe(2);
    expect(stderr).toBe('error: standard output: the reader closed the pipe\n');
  });
});

describe('JSON nested thousands of levels deep', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  it('is refused before any recursion, with the file and the line', async () => {
    const text = pymatgenJson({ properties: { x: 0 } }).replace('"x":0', `"x":${deep(20_000)}`);
    const path = file('deep.json', `\n${text}`);
    for (const args of [
      ['info', path],
      ['convert', path, join(tmp, 'deep-out.json')],
    ]) {
      const message = refusal(await run(args), args[0]);
      expect(message).toBe(
        `error: ${path} line 2: The JSON nests objects and arrays more than ${LIMITS.jsonDepth} levels deep; ` +
          `the limit is ${LIMITS.jsonDepth} levels`,
      );
    }
    const jsonl = file(
      'deep.jsonl',
      `${pymatgenJson({})}\n${pymatgenJson({ properties: { x: 0 } }).replace('"x":0', `"x":${deep(5_000)}`)}\n`,
    );
    expect(refusal(await run(['info', jsonl]), 'jsonl')).toMatch(/ line 2: The JSON nests objects and arrays more than/);
  });

  it('brackets inside strings do not count, and nesting up to the limit is read', () => {
    const inString = pymatgenJson({ properties: { note: '['.repeat(10_000) } });
    expect(parsePymatgenJson(inString).structures[0].sites).toHaveLength(1);
    // The document, "sites", the site and "properties" are 4 levels: 4 + (limit - 4) is read, one more is refused.
    const nested = (n: number) => pymatgenJson({ properties: { x: 0 } }).replace('"x":0', `"x":${deep(n)}`);
    expect(parsePymatgenJson(nested(LIMITS.jsonDepth - 4)).structures).toHaveLength(1);
    expect(() => parsePymatgenJson(nested(LIMITS.jsonDepth - 3))).toThrow(/more than 256 levels deep/);
  });
});

describe('carve --quaternion of extreme magnitude', () => {
  it('1e300·(1,0,0,0) is the rotation (1,0,0,0) (scaled by its largest component first), written identically', async () => {
    const outputs = [];
    for (const [name, q] of [
      ['unit', '1,0,0,0'],
      ['huge', '1e300,0,0,0'],
      ['tiny', '1e-200,0,0,0'],
    ]) {
      const out = join(tmp, `carve-${name}.xyz`);
      const r = await run(['carve', CELL, '--radius', '5', '--quaternion', q, '-o', out]);
      expect(r.code, r.stderr).toBe(0);
      outputs.push(readFileSync(out, 'utf8'));
    }
    expect(outputs[1]).toBe(outputs[0]);
    expect(outputs[2]).toBe(outputs[0]);
    expect(normalizeQuaternion([1e308, 1e308, 0, 0])).toEqual([1, 1, 0, 0].map((v) => v / Math.SQRT2));
    // Ordinary quaternions keep scipy's arithmetic exactly (rotated files match C2NP byte for byte).
    const q = [0.1, 0.2, 0.3, 0.4];
    const n = Math.sqrt(0.1 * 0.1 + 0.2 * 0.2 + 0.3 * 0.3 + 0.4 * 0.4);
    expect(normalizeQuaternion(q)).toEqual(q.map((v) => v / n));
  });

  it('zero or subnormal quaternions are refused with a sentence, exit 2', async () => {
    for (const [q, why] of [
      ['0,0,0,0', /all four components are zero/],
      ['5e-324,0,0,0', /largest component is below 2\.2e-308/],
      ['1e-310,0,0,1e-320', /largest component is below 2\.2e-308/],
    ] as const) {
      const message = refusal(await run(['carve', CELL, '--radius', '5', '--quaternion', q, '-o', join(tmp, 'q.xyz')]), q);
      expect(message).toMatch(new RegExp(`^error: --quaternion "${q}" is not a rotation: `));
      expect(message).toMatch(why);
    }
  });
});

describe('user values echoed in errors are short excerpts', () => {
  const long = '1'.repeat(100_000);

  it('a 100,000-character option value is quoted to 40 characters', async () => {
    for (const args of [
      ['info', CELL, '--symprec', long],
      ['info', CELL, '--symprec', `x${long}`],
      ['carve', CELL, '--radius', '5', '--center', long, '-o', join(tmp, 'c.xyz')],
      ['carve', CELL, '--radius', '5', '--quaternion', long, '-o', join(tmp, 'c.xyz')],
      ['onng', 'obfuscate', '--level', long],
      ['match', CELL, CELL, '--comparator', long],
      ['xrd', CELL, '--wavelength', long],
      ['info', CELL, `--${long}`],
      ['atomworld', long],
      ['c2np', long],
      ['onng', long],
      ['atomworld', 'evaluate', long],
      ['gen', long],
      ['fem', long],
    ]) {
      const message = refusal(await run(args), args.slice(0, 3).join(' ').slice(0, 60));
      expect(message).not.toContain('1'.repeat(41));
    }
    expect(quoted(long)).toBe(`"${'1'.repeat(40)}…"`);
  });

  it('the λ pattern of an O-NNG level is read in linear time, and a long level name is quoted short', () => {
    // No timed assertion: these names make a backtracking pattern run for hours, past the test's timeout.
    for (const name of [`lambda_${long}x`, `lam${long}.`, `λ${'1.'.repeat(500_000)}`, `obfuscated_${long}x`, `LAMBDA_${long}.${long}x`]) {
      expect(levelLambda(name)).toBeNull();
    }
    expect([levelLambda('original'), levelLambda('obfuscated_3'), levelLambda('lambda_0.6'), levelLambda('lam-0.2')]).toEqual([
      0, 0.6, 0.6, 0.2,
    ]);
    const level = `lambda_${long}x`;
    const statistics = JSON.stringify({ datasets: { [level]: { runs: [] }, original: { runs: [{ run: 1, error_ids: [], total: 1 }] } } });
    const { warnings } = readUpstreamResults([{ path: 'model/statistics.json', text: statistics }]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].length).toBeLessThan(SHORT);
    expect(warnings[0]).toContain(quoted(level));
  });
});

describe('values pymatgen refuses or that mean nothing', () => {
  it('a CIF site whose occupancy is above 1 (1e9, 1e300, or 0.6 + 0.6 on one position) is refused with its line', async () => {
    for (const [name, rows, line, what] of [
      ['occ-1e9.cif', 'Na1 Na 0 0 0 1e9\n', 16, 'atom "Na1" has occupancy 1000000000'],
      ['occ-1e300.cif', 'Cl1 Cl 0.5 0.5 0.5 1\nNa1 Na 0 0 0 1e300\n', 17, 'atom "Na1" has occupancy 1e+300'],
      ['occ-mixed.cif', 'Na1 Na 0 0 0 0.6\nK1 K 0 0 0 0.6\n', 17, 'atoms "Na1", "K1" share a position and their occupancies sum to 1.2'],
    ] as const) {
      const path = file(name, cif(rows));
      const message = refusal(await run(['info', path]), name);
      expect(message).toBe(`error: ${path} line ${line}: block cell: ${what}; the occupancies of one site sum to at most 1`);
    }
    // A full site, and a shared one that sums to 1, are read.
    const shared = await run(['info', file('occ-ok.cif', cif('Na1 Na 0 0 0 0.5\nK1 K 0 0 0 0.5\nCl1 Cl 0.5 0.5 0.5 1.0\n'))]);
    expect(shared.code, shared.stderr).toBe(0);
  });

  it('pymatgen JSON: a negative occupancy, or occupancies summing above 1, are refused as pymatgen refuses them', async () => {
    const negative = file('negative.json', pymatgenJson({ species: [{ element: 'Fe', occu: -0.5 }] }));
    expect(refusal(await run(['info', negative]), 'negative')).toBe(
      `error: ${negative}: The structure, site 1: the occupancy of Fe is negative (-0.5)`,
    );
    const over = file(
      'over.json',
      pymatgenJson({
        species: [
          { element: 'Fe', occu: 0.7 },
          { element: 'Ni', occu: 0.7 },
        ],
      }),
    );
    expect(refusal(await run(['info', over]), 'over')).toMatch(
      /site 1: the occupancies sum to 1\.4; the occupancies of one site sum to at most 1$/,
    );
  });

  it('a NUL byte inside a symbol, in XYZ, CIF and pymatgen JSON', async () => {
    const xyz = file('nul.xyz', '2\ncomment\nF\0e 0 0 0\nO 1 0 0\n');
    expect(refusal(await run(['info', xyz]), 'xyz')).toBe(`error: ${xyz} line 3: The species "F\\x00e" holds a control character`);
    const cifPath = file('nul.cif', cif('Fe1 F\0e 0 0 0 1\n'));
    expect(refusal(await run(['info', cifPath]), 'cif')).toBe(
      `error: ${cifPath} line 16: The type symbol "F\\x00e" holds a control character`,
    );
    const json = file('nul.json', pymatgenJson({ species: [{ element: 'F\0e', occu: 1 }] }));
    expect(refusal(await run(['info', json]), 'json')).toMatch(/site 1: the element "F\\x00e" holds a control character$/);
  });

  it('a 1 MB element symbol or label is refused with a short excerpt', async () => {
    const mb = 'e'.repeat(1 << 20);
    const kb = 'e'.repeat(1000);
    // A CIF word of 1 MB is refused by the tokenizer (LIMITS.tokenChars) before it is a label; 1,000 characters by labelChars.
    for (const [name, text, line, limit] of [
      ['big.xyz', `1\nc\nF${mb} 0 0 0\n`, 3, LIMITS.labelChars],
      ['big-type.cif', cif(`Fe1 F${mb} 0 0 0 1\n`), 16, LIMITS.tokenChars],
      ['kb-type.cif', cif(`Fe1 F${kb} 0 0 0 1\n`), 16, LIMITS.labelChars],
      ['kb-label.cif', cif(`F${kb} Fe 0 0 0 1\n`), 16, LIMITS.labelChars],
      ['big-element.json', pymatgenJson({ species: [{ element: `F${mb}`, occu: 1 }] }), null, LIMITS.labelChars],
      ['big-label.json', pymatgenJson({ label: `F${mb}` }), null, LIMITS.labelChars],
    ] as const) {
      const path = file(name, text);
      const message = refusal(await run(['info', path]), name);
      expect(message.startsWith(`error: ${path}${line === null ? ':' : ` line ${line}:`}`), message).toBe(true);
      const size = (name.startsWith('kb') ? kb : mb).length + 1;
      expect(message).toContain(`has ${size.toLocaleString('en')} characters; the limit is ${limit.toLocaleString('en')} characters`);
    }
    // The C2NP particle reader of the library (structlab/c2np parseParticleXyz) keeps symbols as written: the same rule.
    for (const symbol of [`F${mb}`, 'F\0e']) {
      const error = errorOf(() => parseParticleXyz(`1\nParticle\n${symbol} 0 0 0\n`), ParticleFormatError);
      expect(error.line).toBe(3);
      expect(error.message.length).toBeLessThan(SHORT);
    }
    // Real labels are read: the longest the limit allows.
    const ok = await run(['info', file('long-label.cif', cif(`Fe${'1'.repeat(LIMITS.labelChars - 2)} Fe 0 0 0 1\n`))]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('an AtomWorld cases file that gives one id twice is refused naming the id and both lines', async () => {
    const row = (id: string) => JSON.stringify({ id, action: 'move', after_cif: 'x' });
    const text = `${row('a')}\n${row('b')}\n\n${row('a')}\n`;
    const cases = file('cases.jsonl', text);
    const answers = file('answers.jsonl', `${JSON.stringify({ id: 'a', answer: 'x' })}\n`);
    const sentence = 'case id "a" was already given on line 1; answers are paired with cases by id, so each id may appear once';
    expect(refusal(await run(['atomworld', 'eval', cases, answers, '--workers', '0']), 'eval')).toBe(`error: ${cases} line 4: ${sentence}`);
    // With a judging thread, the main thread reads cases (and their CIFs) ahead of it: a repeat met there is still the
    // refusal.
    const many = Array.from({ length: 40 }, (_, k) => row(`c${k}`));
    const late = file('cases-late.jsonl', `${[...many, row('c7')].join('\n')}\n`);
    const lateSentence = sentence.replace('"a"', '"c7"').replace('line 1', 'line 8');
    expect(refusal(await run(['atomworld', 'eval', late, answers, '--workers', '1']), 'eval')).toBe(
      `error: ${late} line 41: ${lateSentence}`,
    );
    expect(() => readAtomworldInputs({ path: 'cases.jsonl', text }, null)).toThrow(
      new InputFormatError(`cases.jsonl line 4: ${sentence}.`),
    );
  });
});
