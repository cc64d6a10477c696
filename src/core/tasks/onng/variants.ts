// Semantic-cue-free variants of StructLab's other benchmarks (issue 6, "Beyond O-NNG"): the O-NNG
// λ-renaming (obfuscateIdentifiers) applied to FEM-Bench function/parameter names and AtomWorld action
// wording, with one global mapping per level so the same name is renamed the same way everywhere, and the
// inverse to score answers. Output files are JSON/JSONL texts a model-evaluation harness reads directly.
import {
  RESERVED_WORDS,
  compareCodePoints,
  makeSinglePassRenamer,
  obfuscateIdentifiers,
  obfuscationLevel,
  pythonJsonDumps,
} from './obfuscate.ts';

export interface VariantOptions {
  /**
   * Restrict generated names to valid Python identifiers (ASCII letters, digits, _; no keyword or common
   * builtin), so renamed FEM-Bench code still runs. This departs from O-NNG's character set (Greek, ℕ, ').
   */
  pythonSafe?: boolean;
}

export interface VariantItem {
  id: string;
  original: string;
  obfuscated: string;
}

export interface VariantResult {
  level: number;
  lambda: number;
  /** file name → file text */
  files: Record<string, string>;
  /** original → obfuscated, code-point order of the originals */
  mapping: Record<string, string>;
  /** obfuscated → original */
  inverse: Record<string, string>;
  /** One renamed text per task/case (the FEM prompt stub or the AtomWorld prompt), for previews. */
  items: VariantItem[];
}

// ---- shared machinery ----

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
  'match',
  'case',
  'type',
  '_',
]);
/** Builtins and module names a FEM-Bench solution is likely to call; a parameter must not shadow them. */
const PYTHON_COMMON_NAMES = new Set([
  'abs',
  'all',
  'any',
  'bool',
  'callable',
  'dict',
  'divmod',
  'enumerate',
  'filter',
  'float',
  'format',
  'getattr',
  'hasattr',
  'int',
  'isinstance',
  'iter',
  'len',
  'list',
  'map',
  'max',
  'min',
  'next',
  'object',
  'pow',
  'print',
  'range',
  'repr',
  'reversed',
  'round',
  'set',
  'slice',
  'sorted',
  'str',
  'sum',
  'super',
  'tuple',
  'zip',
  'id',
  'hex',
  'oct',
  'bin',
  'chr',
  'ord',
  'open',
  'input',
  'hash',
  'vars',
  'dir',
  'eval',
  'exec',
  'bytes',
  'complex',
  'frozenset',
  'property',
  'globals',
  'locals',
  'divmod',
  'issubclass',
  'setattr',
  'staticmethod',
  'np',
  'numpy',
  'math',
  'scipy',
  'sp',
  'pytest',
  'typing',
  'self',
  'cls',
]);

/** True for a valid Python identifier that is not a keyword (soft keywords included). */
export function isPythonSafeName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !PYTHON_KEYWORDS.has(name);
}

/** O-NNG's extra characters → one ASCII letter each, so a python-safe name keeps the same amount of noise. */
const GREEK_LOWER = 'αβγδεζηθικμνξοπρστυφχψω';
const GREEK_LATIN_LOWER = 'abgdezhqikmnxoprstyfcpw';
const GREEK_UPPER = 'ΑΒΓΔΕΖΗΘΙΚΜΝΞΟΡΤΥΦΧΨΩ';
const GREEK_LATIN_UPPER = 'ABGDEZHQIKMNXORTYFCPW';
const TRANSLITERATION = new Map<string, string>([
  ...[...GREEK_LOWER].map((c, i) => [c, GREEK_LATIN_LOWER[i]] as [string, string]),
  ...[...GREEK_UPPER].map((c, i) => [c, GREEK_LATIN_UPPER[i]] as [string, string]),
  ['ℕ', 'N'],
  ['ℤ', 'Z'],
  ['ℚ', 'Q'],
  ['ℝ', 'R'],
  ['ℂ', 'C'],
  ["'", '_'],
]);

function pythonSafeBase(name: string): string {
  let out = [...name].map((c) => TRANSLITERATION.get(c) ?? (/[A-Za-z0-9_]/.test(c) ? c : '_')).join('');
  if (/^[0-9]/.test(out) || out === '') out = `v${out}`;
  return out;
}

/** Words of a text, as both identifier tokenisations (with and without the apostrophe O-NNG names may hold). */
function addWords(text: string, into: Set<string>): void {
  for (const m of text.matchAll(/[\p{L}\p{N}_]+/gu)) into.add(m[0]);
  for (const m of text.matchAll(/[\p{L}\p{N}_']+/gu)) into.add(m[0]);
}

/**
 * The global renaming for one level: O-NNG's names from obfuscateIdentifiers, then (only where needed) a
 * counter suffix so that no generated name is a word already present in the inputs (restore must be exact)
 * and, with pythonSafe, the ASCII transliteration and no Python keyword/common builtin.
 */
export function variantMapping(
  identifiers: string[],
  levelNumber: number,
  presentWords: Set<string>,
  options: VariantOptions = {},
): Map<string, string> {
  const base = obfuscateIdentifiers(identifiers, levelNumber).mapping;
  // O-NNG never renames its reserved Lean words (e.g. "Add", "at"); outside Lean they are ordinary words, so
  // each is renamed from the stand-in "<word>_" with the same level's generator.
  const reserved = [...new Set(identifiers)].filter((w) => RESERVED_WORDS.has(w));
  const standIns = obfuscateIdentifiers(
    reserved.map((w) => `${w}_`),
    levelNumber,
  ).mapping;
  for (const w of reserved) base.set(w, standIns.get(`${w}_`)!);
  const originals = new Set(base.keys());
  const issued = new Set<string>();
  const mapping = new Map<string, string>();
  for (const name of [...base.keys()].sort(compareCodePoints)) {
    let candidate = base.get(name)!;
    if (options.pythonSafe) candidate = pythonSafeBase(candidate);
    const clashes = (c: string) =>
      issued.has(c) ||
      (originals.has(c) && c !== name) ||
      (c !== name && presentWords.has(c)) ||
      (options.pythonSafe === true && (!isPythonSafeName(c) || PYTHON_COMMON_NAMES.has(c)));
    let result = candidate;
    for (let counter = 1; clashes(result); counter++) result = candidate + String(counter);
    issued.add(result);
    mapping.set(name, result);
  }
  return mapping;
}

/** Restores original names in a text (e.g. a model's FEM code or answer) from an obfuscated → original map. */
export function deobfuscate(text: string, inverse: Record<string, string> | Map<string, string>): string {
  const map = inverse instanceof Map ? inverse : new Map(Object.entries(inverse));
  return makeSinglePassRenamer(map)(text);
}

/** Reads the inverse map of a mapping.json written by femBenchVariant/atomworldVariant. */
export function inverseFromMappingJson(text: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('the mapping file is not valid JSON');
  }
  const inverse = (parsed as { inverse?: unknown })?.inverse;
  if (
    typeof inverse !== 'object' ||
    inverse === null ||
    Array.isArray(inverse) ||
    !Object.values(inverse).every((v) => typeof v === 'string')
  ) {
    throw new Error('the mapping file has no "inverse" object of obfuscated → original names');
  }
  return inverse as Record<string, string>;
}

function mappingFile(benchmark: string, levelNumber: number, options: VariantOptions, mapping: Map<string, string>): string {
  const level = obfuscationLevel(levelNumber);
  return (
    pythonJsonDumps(
      {
        benchmark,
        level: level.level,
        lambda: Number(level.lambda.toFixed(10)),
        seed: level.seed,
        python_safe: options.pythonSafe === true,
        forward: Object.fromEntries(mapping),
        inverse: Object.fromEntries([...mapping].map(([a, b]) => [b, a])),
      },
      2,
    ) + '\n'
  );
}

// ---- lossless JSON rewriting ----

type JsonPath = (string | number)[];
/** Returns the replacement for a string value or object key, or undefined to keep its text as it is. */
type JsonVisitor = (path: JsonPath, isKey: boolean, value: string) => string | undefined;

// eslint-disable-next-line no-control-regex -- JSON strings may not hold raw control characters (RFC 8259 §7)
const STRING_TOKEN = /"(?:[^"\\\u0000-\u001f]|\\.)*"/y;
const LITERAL_TOKEN = /-?(?:\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|Infinity)|NaN|true|false|null/y;

/**
 * Copies a JSON text token by token, replacing only the strings the visitor renames, so numbers (1.0, -0.0,
 * NaN as Python writes them), escapes and key order stay exactly as in the input. Line breaks outside
 * strings are dropped so the result fits on one JSONL line.
 */
export function rewriteJsonText(text: string, label: string, visit: JsonVisitor, literal: (raw: string) => string = (raw) => raw): string {
  let i = 0;
  let out = '';
  const fail = (what: string): never => {
    const line = text.slice(0, i).split('\n').length;
    throw new Error(`${label}: not valid JSON (${what} at line ${line})`);
  };
  const space = () => {
    const start = i;
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
    out += text.slice(start, i).replace(/[\r\n]+[ \t]*/g, '');
  };
  const token = (re: RegExp): string | null => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) return null;
    i += m[0].length;
    return m[0];
  };
  const string = (path: JsonPath, isKey: boolean) => {
    const raw = token(STRING_TOKEN) ?? fail('a string was expected');
    const replaced = visit(path, isKey, JSON.parse(raw) as string);
    out += replaced === undefined ? raw : JSON.stringify(replaced);
  };
  const value = (path: JsonPath): void => {
    space();
    const c = text[i];
    if (c === '{') {
      out += '{';
      i++;
      space();
      if (text[i] === '}') {
        out += '}';
        i++;
        return;
      }
      for (;;) {
        space();
        STRING_TOKEN.lastIndex = i;
        const keyMatch = STRING_TOKEN.exec(text) ?? fail('an object key was expected');
        const key = JSON.parse(keyMatch[0]) as string;
        string(path, true);
        space();
        if (text[i] !== ':') fail('":" was expected');
        out += ':';
        i++;
        value([...path, key]);
        space();
        if (text[i] === ',') {
          out += ',';
          i++;
          continue;
        }
        if (text[i] === '}') {
          out += '}';
          i++;
          return;
        }
        fail('"," or "}" was expected');
      }
    }
    if (c === '[') {
      out += '[';
      i++;
      space();
      if (text[i] === ']') {
        out += ']';
        i++;
        return;
      }
      for (let k = 0; ; k++) {
        value([...path, k]);
        space();
        if (text[i] === ',') {
          out += ',';
          i++;
          continue;
        }
        if (text[i] === ']') {
          out += ']';
          i++;
          return;
        }
        fail('"," or "]" was expected');
      }
    }
    if (c === '"') return string(path, false);
    out += literal(token(LITERAL_TOKEN) ?? fail('a value was expected'));
  };
  value([]);
  space();
  if (i < text.length) fail('text after the end of the value');
  return out.trim();
}

/** Appends fields to a one-line JSON object text (Python separators). */
function appendFields(objectText: string, fields: Record<string, unknown>): string {
  const body = objectText.slice(0, objectText.lastIndexOf('}')).trimEnd();
  const extra = Object.entries(fields)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pythonJsonDumps(v)}`)
    .join(', ');
  return `${body}${body.endsWith('{') ? '' : ', '}${extra}}`;
}

/** Parses a JSON text that may hold Python's NaN/Infinity (read as null; only text fields are used). */
function parseLenientJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return JSON.parse(
      rewriteJsonText(
        text,
        label,
        () => undefined,
        (raw) => (/NaN|Infinity/.test(raw) ? 'null' : raw),
      ),
    );
  }
}

// ---- FEM-Bench ----

export interface FemParam {
  name: string;
  annotation?: string;
  default?: string;
  [key: string]: unknown;
}
export interface FemTaskFile {
  task_id?: string;
  task_short_description?: string;
  signature: { name: string; params: FemParam[]; returns?: string; [key: string]: unknown };
  required_imports?: string[];
  cases?: { inputs?: Record<string, unknown>; input_types?: Record<string, unknown>; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** Checks the fields femBenchVariant relies on, naming the file. */
export function validateFemTask(value: unknown, label: string): FemTaskFile {
  const task = value as FemTaskFile;
  const sig = task?.signature;
  if (
    typeof sig !== 'object' ||
    sig === null ||
    typeof sig.name !== 'string' ||
    !Array.isArray(sig.params) ||
    !sig.params.every((p) => typeof p?.name === 'string')
  ) {
    throw new Error(`${label}: not a FEM-Bench task file (it needs "signature": {"name", "params": [{"name", ...}]})`);
  }
  if (task.cases !== undefined && !Array.isArray(task.cases)) throw new Error(`${label}: "cases" must be a list`);
  return task;
}

/** The signature line a prompt shows: `def name(p: T, q: U = d) -> R:`. */
export function femSignatureLine(sig: FemTaskFile['signature']): string {
  const params = sig.params.map(
    (p) => `${p.name}${p.annotation ? `: ${p.annotation}` : ''}${p.default !== undefined ? ` = ${p.default}` : ''}`,
  );
  return `def ${sig.name}(${params.join(', ')})${sig.returns ? ` -> ${sig.returns}` : ''}:`;
}

/** A prompt stub for the task: imports, the signature and the short description as its docstring. */
export function femPromptStub(task: FemTaskFile): string {
  const lines: string[] = [];
  if (task.required_imports?.length) lines.push(...task.required_imports, '');
  const helpers = task.helper_functions_provided_in_prompt;
  if (Array.isArray(helpers) && helpers.length > 0) lines.push(`# Helper functions available: ${helpers.join(', ')}`, '');
  lines.push(femSignatureLine(task.signature));
  if (task.task_short_description) lines.push(`    """${task.task_short_description}."""`);
  lines.push('    ...');
  return lines.join('\n') + '\n';
}

/** The names renamed in a FEM-Bench task: the function name and its parameter names. */
export function femTaskIdentifiers(task: FemTaskFile): string[] {
  return [task.signature.name, ...task.signature.params.map((p) => p.name)];
}

const FEM_VERBATIM_FIELDS = new Set(['repo', 'commit']);

/** A FEM-Bench task file as its JSON text (kept exactly: numbers, escapes, key order) or as an object. */
export type FemTaskInput = string | FemTaskFile;

/** Parses and checks a FEM-Bench task file text (Python's NaN/Infinity allowed), naming the file. */
export function parseFemTask(text: string, label: string): FemTaskFile {
  return validateFemTask(parseLenientJson(text, label), label);
}

/**
 * FEM-Bench variant: one global mapping of every task's function and parameter names; in each task its own
 * names are renamed everywhere in its text (signature, description, notes, the generated prompt stub) and in
 * the top-level keys of each case's inputs/input_types (so a harness can call the renamed function with
 * keyword arguments). Case data (values, outputs) is copied as it is, token for token when given as text.
 */
export function femBenchVariant(taskFiles: FemTaskInput[], levelNumber: number, options: VariantOptions = {}): VariantResult {
  const level = obfuscationLevel(levelNumber);
  if (taskFiles.length === 0) throw new Error('no FEM-Bench task file was given');
  const texts = taskFiles.map((t) => (typeof t === 'string' ? t : pythonJsonDumps(t)));
  const tasks = taskFiles.map((t, i) =>
    typeof t === 'string' ? parseFemTask(t, `task file ${i + 1}`) : validateFemTask(t, `task ${i + 1}`),
  );
  const identifiers = tasks.flatMap(femTaskIdentifiers);
  const present = new Set<string>();
  for (const text of texts) addWords(text, present);
  for (const task of tasks) addWords(JSON.stringify(task), present);
  addWords(tasks.map(femPromptStub).join('\n'), present);
  const mapping = variantMapping(identifiers, levelNumber, present, options);
  const lambda = Number(level.lambda.toFixed(10));
  const items: VariantItem[] = [];
  const lines = tasks.map((task, i) => {
    const own = new Map(femTaskIdentifiers(task).map((n) => [n, mapping.get(n) ?? n]));
    const rename = makeSinglePassRenamer(own);
    const line = rewriteJsonText(texts[i], task.task_id ?? `task file ${i + 1}`, (path, isKey, value) => {
      const top = path[0];
      if (top === 'cases') {
        // Only the argument names: the top-level keys of each case's inputs / input_types.
        return isKey && path.length === 3 && (path[2] === 'inputs' || path[2] === 'input_types') ? own.get(value) : undefined;
      }
      if (isKey || (typeof top === 'string' && FEM_VERBATIM_FIELDS.has(top))) return undefined;
      const renamed = rename(value);
      return renamed === value ? undefined : renamed;
    });
    const original = femPromptStub(task);
    const prompt = rename(original);
    items.push({ id: task.task_id ?? task.signature.name, original, obfuscated: prompt });
    return appendFields(line, {
      prompt,
      obfuscation: { benchmark: 'fem-bench', level: level.level, lambda, python_safe: options.pythonSafe === true },
    });
  });
  return {
    level: level.level,
    lambda,
    files: { 'tasks.jsonl': lines.map((l) => l + '\n').join(''), 'mapping.json': mappingFile('fem-bench', levelNumber, options, mapping) },
    mapping: Object.fromEntries(mapping),
    inverse: Object.fromEntries([...mapping].map(([x, y]) => [y, x])),
    items,
  };
}

// ---- AtomWorld ----

export interface AtomWorldCaseRow {
  id?: unknown;
  action?: string;
  params?: unknown;
  prompt: string;
  before_cif?: string;
  after_cif?: string;
  [key: string]: unknown;
}

/**
 * The words renamed in AtomWorld prompts (AtomWorldBench src/prompts/cif_action_prompt.py templates, all versions): the action verbs
 * and the words that carry an action's meaning, then the parameter words. Each surface form (Move/move) is its own
 * identifier so renaming and restoring stay exact; element symbols and numbers are the data and are kept.
 */
export const ATOMWORLD_ACTION_WORDS: readonly string[] = [
  'Change',
  'Remove',
  'Add',
  'Insert',
  'Swap',
  'Delete',
  'Move',
  'Rotate',
  'Create',
  'change',
  'remove',
  'add',
  'insert',
  'swap',
  'delete',
  'move',
  'rotate',
  'create',
  'inserted',
  'into',
  'between',
  'towards',
  'around',
  'lower',
  'below',
  'supercell',
  'Including',
  'Excluding',
];
export const ATOMWORLD_PARAMETER_WORDS: readonly string[] = [
  'index',
  'indices',
  'atom',
  'atoms',
  'Cartesian',
  'coordinate',
  'angstrom',
  'degree',
  'axis',
  'size',
  'radius',
  'center',
  'surrounding',
  'spatial',
  'positions',
  'position',
  'distance',
  'line',
];

/** The case lines of an AtomWorld cases JSONL (generated_cases.jsonl layout), checked, with their parsed rows. */
export function parseAtomWorldCases(text: string, label: string): { line: string; row: AtomWorldCaseRow }[] {
  const cases: { line: string; row: AtomWorldCaseRow }[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let row: AtomWorldCaseRow;
    try {
      row = parseLenientJson(line, `${label} line ${i + 1}`) as AtomWorldCaseRow;
    } catch {
      throw new Error(`${label}: line ${i + 1} is not valid JSON`);
    }
    if (typeof row !== 'object' || row === null || Array.isArray(row) || typeof row.prompt !== 'string') {
      throw new Error(`${label}: line ${i + 1} is not an AtomWorld case (it needs a string "prompt")`);
    }
    cases.push({ line: line.trim(), row });
  });
  if (cases.length === 0) throw new Error(`${label}: holds no AtomWorld case`);
  return cases;
}

/**
 * AtomWorld variant: the action verbs and parameter words of every prompt renamed with one global mapping
 * (the CIFs untouched); each case keeps its other fields token for token and gains `obfuscation` (level, λ
 * and the words renamed in its prompt), so a harness scores it exactly as the original case. A case given
 * as text (a JSONL line) is copied losslessly; an object is written with Python's json.dumps layout.
 */
export function atomworldVariant(cases: (string | AtomWorldCaseRow)[], levelNumber: number, options: VariantOptions = {}): VariantResult {
  const level = obfuscationLevel(levelNumber);
  if (cases.length === 0) throw new Error('no AtomWorld case was given');
  const lines = cases.map((c) => (typeof c === 'string' ? c.trim() : pythonJsonDumps(c)));
  const rows = cases.map((c, i) => (typeof c === 'string' ? parseAtomWorldCases(c, `case ${i + 1}`)[0].row : c));
  const vocabulary = new Set([...ATOMWORLD_ACTION_WORDS, ...ATOMWORLD_PARAMETER_WORDS]);
  const present = new Set<string>();
  for (const row of rows) {
    addWords(row.prompt, present);
    if (typeof row.before_cif === 'string') addWords(row.before_cif, present);
  }
  // Only the vocabulary words that occur are renamed (the mapping lists nothing else).
  const used = [...vocabulary].filter((w) => present.has(w));
  const mapping = variantMapping(used, levelNumber, present, options);
  const rename = makeSinglePassRenamer(mapping);
  const lambda = Number(level.lambda.toFixed(10));
  const items: VariantItem[] = [];
  const out = rows.map((row, i) => {
    const words: Record<string, string> = Object.create(null);
    const seen = new Set<string>();
    addWords(row.prompt, seen);
    for (const [from, to] of mapping) if (seen.has(from)) words[from] = to;
    const prompt = rename(row.prompt);
    items.push({ id: row.id !== undefined ? String(row.id) : String(i + 1), original: row.prompt, obfuscated: prompt });
    const line = rewriteJsonText(lines[i], `case ${i + 1}`, (path, isKey) =>
      !isKey && path.length === 1 && path[0] === 'prompt' ? prompt : undefined,
    );
    return appendFields(line, {
      obfuscation: { benchmark: 'atomworld', level: level.level, lambda, python_safe: options.pythonSafe === true, words },
    });
  });
  return {
    level: level.level,
    lambda,
    files: { 'cases.jsonl': out.map((l) => l + '\n').join(''), 'mapping.json': mappingFile('atomworld', levelNumber, options, mapping) },
    mapping: Object.fromEntries(mapping),
    inverse: Object.fromEntries([...mapping].map(([x, y]) => [y, x])),
    items,
  };
}
