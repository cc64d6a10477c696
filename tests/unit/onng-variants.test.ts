/**
 * λ-obfuscated FEM-Bench and AtomWorld variants (issue 6, "Beyond O-NNG"), on every golden FEM-Bench task
 * file and every golden AtomWorld case. Expected texts come from the originals through an independent
 * token-by-token substitution (split on identifier characters), never from the renamer under test.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AtomWorldCaseRow,
  type FemTaskFile,
  ATOMWORLD_ACTION_WORDS,
  ATOMWORLD_PARAMETER_WORDS,
  atomworldVariant,
  deobfuscate,
  femBenchVariant,
  femPromptStub,
  inverseFromMappingJson,
  parseAtomWorldCases,
  validateFemTask,
} from '../../src/core/tasks/onng/variants.ts';
import { makeSinglePassRenamer } from '../../src/core/tasks/onng/obfuscate.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const FEM_DIR = join(REFERENCE, 'golden', 'fembench');
const FEM_FILES = readdirSync(FEM_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();
const FEM_TEXTS = FEM_FILES.map((f) => readFileSync(join(FEM_DIR, f), 'utf8'));
const FEM_TASKS = FEM_TEXTS.map((t) => JSON.parse(t) as FemTaskFile);
const AW_TEXT = readFileSync(join(REFERENCE, 'golden', 'atomworld', 'generated_cases.jsonl'), 'utf8');
const AW_LINES = AW_TEXT.trim().split('\n');
const AW_CASES = AW_LINES.map((l) => JSON.parse(l) as AtomWorldCaseRow);
const LEVELS = [1, 2, 3, 4, 5];

/** Python 3.12 keywords and soft keywords (keyword.kwlist + softkwlist). */
const PYTHON_KEYWORDS = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
  '_',
  'case',
  'match',
  'type',
]);

/** Independent renaming: split into identifier runs ([letters, digits, _]) and the rest, map whole runs only. */
function tokenRename(text: string, map: Record<string, string>): string {
  return text
    .split(/([\p{L}\p{N}_]+)/u)
    .map((part, i) => (i % 2 === 1 && Object.hasOwn(map, part) ? map[part] : part))
    .join('');
}

function tokens(text: string): Set<string> {
  return new Set(text.match(/[\p{L}\p{N}_]+/gu) ?? []);
}

/** The numbers of a JSON text as written (outside strings), e.g. "1500.0" and "-0.0" stay distinct from "1500" and "0". */
function numberTokens(text: string): string[] {
  return [...text.matchAll(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|NaN|-?Infinity/g)]
    .map((m) => m[0])
    .filter((t) => !t.startsWith('"'));
}

/** Restores every string and key of a parsed JSON value through the inverse map. */
function restoreDeep(value: unknown, restore: (s: string) => string): unknown {
  if (typeof value === 'string') return restore(value);
  if (Array.isArray(value)) return value.map((v) => restoreDeep(v, restore));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [restore(k), restoreDeep(v, restore)]));
  return value;
}

function femRows(files: Record<string, string>): Record<string, unknown>[] {
  return files['tasks.jsonl']
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('FEM-Bench variants on the 33 golden task files', () => {
  it('has the golden task files', () => expect(FEM_TASKS.length).toBe(33));

  for (const pythonSafe of [false, true]) {
    for (const level of LEVELS) {
      it(`level ${level}${pythonSafe ? ' --python-safe' : ''}: consistent, bijective, exact round trip, solvable`, () => {
        const result = femBenchVariant(FEM_TEXTS, level, { pythonSafe });
        const rows = femRows(result.files);
        expect(rows.length).toBe(33);
        expect(result.lambda).toBeCloseTo(0.2 * level, 12);
        const { forward, inverse } = JSON.parse(result.files['mapping.json']) as {
          forward: Record<string, string>;
          inverse: Record<string, string>;
        };
        expect(forward).toEqual(result.mapping);
        expect(inverse).toEqual(result.inverse);
        // Bijective: one obfuscated name per original, and back.
        const originals = new Set(FEM_TASKS.flatMap((t) => [t.signature.name, ...t.signature.params.map((p) => p.name)]));
        expect(Object.keys(forward).sort()).toEqual([...originals].sort());
        expect(new Set(Object.values(forward)).size).toBe(originals.size);
        for (const [from, to] of Object.entries(forward)) expect(inverse[to]).toBe(from);

        const restore = makeSinglePassRenamer(new Map(Object.entries(inverse))); // what deobfuscate applies
        const seen = new Map<string, string>();
        FEM_TASKS.forEach((task, i) => {
          const row = rows[i] as {
            signature: FemTaskFile['signature'];
            prompt: string;
            cases: { inputs: Record<string, unknown>; input_types: Record<string, unknown> }[];
          };
          // Consistent: a name gets the same obfuscated name in every task where it occurs.
          const pairs: [string, string][] = [
            [task.signature.name, row.signature.name],
            ...task.signature.params.map((p, k) => [p.name, row.signature.params[k].name] as [string, string]),
          ];
          for (const [from, to] of pairs) {
            expect(to).toBe(forward[from]);
            if (seen.has(from)) expect(seen.get(from)).toBe(to);
            seen.set(from, to);
          }
          // The prompt stub equals the original stub renamed token by token (nothing half-renamed inside a word).
          const own = Object.fromEntries(pairs);
          const stub = femPromptStub(task);
          expect(row.prompt).toBe(tokenRename(stub, own));
          expect(deobfuscate(row.prompt, inverse)).toBe(stub);
          // Case input keys renamed so the renamed function can be called with keyword arguments; values untouched.
          row.cases.forEach((c, k) => {
            expect(Object.keys(c.inputs)).toEqual(Object.keys(task.cases![k].inputs!).map((key) => own[key] ?? key));
            expect(Object.values(c.inputs)).toEqual(Object.values(task.cases![k].inputs!));
            expect(Object.keys(c.input_types)).toEqual(Object.keys(task.cases![k].input_types!).map((key) => own[key] ?? key));
          });
          // Exact round trip of every string and key of the task file through the inverse map ...
          const { prompt: _prompt, obfuscation, ...rest } = row as unknown as Record<string, unknown>;
          expect(obfuscation).toEqual({ benchmark: 'fem-bench', level, lambda: result.lambda, python_safe: pythonSafe });
          expect(restoreDeep(rest, restore)).toEqual(JSON.parse(FEM_TEXTS[i]));
          // ... and every number written exactly as in the file (1.0 stays 1.0, -0.0 stays -0.0), then level and λ.
          const line = result.files['tasks.jsonl'].split('\n')[i];
          expect(numberTokens(line)).toEqual([...numberTokens(FEM_TEXTS[i]), String(level), String(result.lambda)]);
          // Solvable: no renamed original is left as a whole word in the task's stub.
          const left = tokens(row.prompt);
          for (const [from, to] of pairs) if (to !== from) expect(left.has(from), `${from} left in ${task.signature.name}`).toBe(false);
        });

        // Per the λ probabilities: every name of 4+ characters takes at least one nlpaug edit at every λ ≥ 0.2;
        // at λ = 1 (P = 1) every character of a short name is redrawn too.
        for (const [from, to] of Object.entries(forward)) {
          if ([...from].length >= 4 || level === 5) expect(to, from).not.toBe(from);
        }
        if (pythonSafe) {
          for (const to of Object.values(forward)) {
            expect(to).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
            expect(PYTHON_KEYWORDS.has(to), to).toBe(false);
          }
        }
      });
    }
  }

  it('keeps O-NNG character set by default (Greek / ℕ / apostrophes appear at λ = 1) and is deterministic per level', () => {
    const a = femBenchVariant(FEM_TASKS, 5);
    // eslint-disable-next-line no-control-regex -- the ASCII range, NUL included
    expect(Object.values(a.mapping).some((n) => /[^\x00-\x7f]/.test(n))).toBe(true);
    expect(femBenchVariant(FEM_TASKS, 5).files).toEqual(a.files);
    expect(femBenchVariant(FEM_TASKS, 4).mapping).not.toEqual(a.mapping);
    expect(femBenchVariant(FEM_TEXTS, 5).mapping).toEqual(a.mapping); // file texts or parsed objects: same renaming
  });

  it('renames a parameter shared by many tasks (node_coords) identically in all of them', () => {
    const result = femBenchVariant(FEM_TASKS, 3);
    const rows = femRows(result.files) as { signature: FemTaskFile['signature'] }[];
    const renamed = new Set<string>();
    FEM_TASKS.forEach((task, i) =>
      task.signature.params.forEach((p, k) => {
        if (p.name === 'node_coords') renamed.add(rows[i].signature.params[k].name);
      }),
    );
    expect(FEM_TASKS.filter((t) => t.signature.params.some((p) => p.name === 'node_coords')).length).toBeGreaterThan(5);
    expect([...renamed]).toEqual([result.mapping.node_coords]);
    expect(result.mapping.node_coords).not.toBe('node_coords');
  });

  it('restores a model answer written with the renamed names', () => {
    const result = femBenchVariant(FEM_TASKS, 3, { pythonSafe: true });
    const task = FEM_TASKS.find((t) => t.signature.name === 'FEM_1D_uniform_mesh_CC0_H0_T0')!;
    const m = result.mapping;
    const answer =
      `def ${m[task.signature.name]}(${m.x_min}, ${m.x_max}, ` +
      `${m.num_elements}):\n    return np.linspace(${m.x_min}, ${m.x_max}, ` +
      `${m.num_elements} + 1)\n`;
    expect(deobfuscate(answer, result.inverse)).toBe(
      'def FEM_1D_uniform_mesh_CC0_H0_T0(x_min, x_max, num_elements):\n    return np.linspace(x_min, x_max, num_elements + 1)\n',
    );
    expect(deobfuscate(answer, inverseFromMappingJson(result.files['mapping.json']))).toContain('num_elements + 1');
  });

  it('refuses a file that is not a FEM-Bench task, naming it', () => {
    expect(() => validateFemTask({ task_id: 'x' }, 'bad.json')).toThrow(/bad\.json: not a FEM-Bench task file/);
    expect(() => femBenchVariant(['{"signature": {"name": "f", "params": [}'], 1)).toThrow(/not valid JSON/);
    expect(() => femBenchVariant(FEM_TASKS, 6)).toThrow(/level must be an integer from 1 to 5/);
  });
});

describe('AtomWorld variants on the 150 golden cases', () => {
  const vocabulary = new Set([...ATOMWORLD_ACTION_WORDS, ...ATOMWORLD_PARAMETER_WORDS]);

  for (const level of LEVELS) {
    it(`level ${level}: every prompt renamed consistently and restored exactly, CIFs and other fields untouched`, () => {
      const result = atomworldVariant(AW_LINES, level);
      const rows = result.files['cases.jsonl']
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as AtomWorldCaseRow & { obfuscation: { words: Record<string, string> } });
      expect(rows.length).toBe(150);
      const { forward, inverse } = JSON.parse(result.files['mapping.json']) as {
        forward: Record<string, string>;
        inverse: Record<string, string>;
      };
      expect(new Set(Object.values(forward)).size).toBe(Object.keys(forward).length);
      // Every vocabulary word that occurs in a prompt is in the mapping (the verbs of all ten actions).
      const promptWords = new Set(AW_CASES.flatMap((c) => [...tokens(c.prompt)]));
      expect(Object.keys(forward).sort()).toEqual([...vocabulary].filter((w) => promptWords.has(w)).sort());
      for (const verb of ['Change', 'Remove', 'Add', 'Insert', 'Swap', 'Delete', 'Move', 'Rotate', 'Create'])
        expect(forward[verb]).toBeDefined();
      rows.forEach((row, i) => {
        const original = AW_CASES[i];
        expect(row.prompt).toBe(tokenRename(original.prompt, forward));
        expect(deobfuscate(row.prompt, inverse)).toBe(original.prompt);
        const { prompt: _p, obfuscation, ...rest } = row;
        const { prompt: _q, ...originalRest } = original;
        expect(rest).toEqual(originalRest); // before_cif, after_cif, action, params unchanged
        const line = result.files['cases.jsonl'].split('\n')[i];
        expect(numberTokens(line)).toEqual([...numberTokens(AW_TEXT.split('\n')[i]), String(level), String(result.lambda)]);
        expect(Object.keys(obfuscation.words).sort()).toEqual([...tokens(original.prompt)].filter((w) => Object.hasOwn(forward, w)).sort());
        for (const [from, to] of Object.entries(obfuscation.words)) expect(to).toBe(forward[from]);
      });
      for (const [from, to] of Object.entries(forward)) if ([...from].length >= 4 || level === 5) expect(to, from).not.toBe(from);
      expect(atomworldVariant(AW_LINES, level).files).toEqual(result.files); // deterministic
      expect(atomworldVariant(AW_CASES, level).mapping).toEqual(result.mapping); // parsed rows: same renaming
    });
  }

  it('python-safe AtomWorld names are Python identifiers too, and still restore', () => {
    const result = atomworldVariant(AW_CASES, 5, { pythonSafe: true });
    for (const to of Object.values(result.mapping)) expect(to).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
    for (const [i, item] of result.items.entries()) expect(deobfuscate(item.obfuscated, result.inverse)).toBe(AW_CASES[i].prompt);
  });

  it('names the line of a bad case row', () => {
    expect(parseAtomWorldCases('{"prompt": "Move it", "x": NaN}\n', 'cases.jsonl')[0].line).toBe('{"prompt": "Move it", "x": NaN}');
    expect(() => parseAtomWorldCases('{"prompt": "Move it"}\n\n{"action": "x"}\n', 'cases.jsonl')).toThrow(
      /cases\.jsonl: line 3 is not an AtomWorld case/,
    );
    expect(() => parseAtomWorldCases('{"prompt": "a"}\n{oops\n', 'cases.jsonl')).toThrow(/cases\.jsonl: line 2 is not valid JSON/);
    expect(() => parseAtomWorldCases('\n', 'cases.jsonl')).toThrow(/holds no AtomWorld case/);
  });
});
