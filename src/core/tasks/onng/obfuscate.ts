// O-NNG dataset obfuscation (github.com/lllx125/Obfuscated-NNG): one global renaming map per level, applied to every text field
// with an ASCII-only identifier boundary (including its cascades), then the patch step that re-reads the
// declared names from the text. Output files are serialised the way Python's json.dumps writes them.
import { noiseProbability, obfuscateName } from './augment.ts';
import { PythonRandom } from './python-random.ts';

/** Words never used as keys and never issued as generated names (tactics, keywords, core names). */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'by',
  'rfl',
  'rw',
  'rewrite',
  'intro',
  'intros',
  'exact',
  'apply',
  'cases',
  'induction',
  'simp',
  'trivial',
  'symm',
  'sorry',
  'repeat',
  'use',
  'contrapose',
  'tauto',
  'left',
  'right',
  'have',
  'show',
  'calc',
  'revert',
  'nth_rewrite',
  'contradiction',
  'exfalso',
  'constructor',
  'decide',
  'fun',
  'let',
  'if',
  'then',
  'else',
  'match',
  'do',
  'return',
  'where',
  'import',
  'namespace',
  'open',
  'end',
  'def',
  'theorem',
  'lemma',
  'axiom',
  'instance',
  'inductive',
  'opaque',
  'with',
  'at',
  'Add',
  'Mul',
  'Pow',
  'LE',
  'LT',
  'HPow',
  'Iff',
  'Inhabited',
  'default',
  'Prop',
  'Type',
  'True',
  'False',
]);

export interface HeaderItem {
  name: string;
  code: string;
  category: string;
  [key: string]: unknown;
}
export interface Problem {
  id: number;
  name: string;
  statement: string;
  proof: string;
  known_theorems: string[];
  [key: string]: unknown;
}
export interface ChatMessage {
  role: string;
  content: string;
  [key: string]: unknown;
}

export interface OnngDataset {
  header: HeaderItem[];
  problems: Problem[];
  /** One chat per problem; optional because only the files present are rewritten. */
  queries?: ChatMessage[][];
}

export interface ObfuscationLevel {
  level: number;
  lambda: number;
  seed: number;
  probability: number;
}

/** Levels 1..5: λ = 0.2·K, `random.seed(K)` once before the map is built, as upstream does. */
export function obfuscationLevel(level: number): ObfuscationLevel {
  if (!Number.isInteger(level) || level < 1 || level > 5) throw new Error(`the O-NNG level must be an integer from 1 to 5, got ${level}`);
  const lambda = 0.2 * level;
  return { level, lambda, seed: level, probability: noiseProbability(lambda) };
}

/** The 99 renamable names: every header item and problem name outside the reserved set, code-point sorted. */
export function renamableNames(dataset: Pick<OnngDataset, 'header' | 'problems'>): string[] {
  const names = new Set<string>();
  for (const item of dataset.header) names.add(item.name);
  for (const problem of dataset.problems) names.add(problem.name);
  return [...names].filter((n) => !RESERVED_WORDS.has(n)).sort(compareCodePoints);
}

/** Python's string order (by code point, not UTF-16 unit as JavaScript's sort). */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The pre-patch map: seed the RNG, then obfuscate the names in code-point order (λ = 0 keeps them). */
export function buildRawMapping(names: string[], level: ObfuscationLevel): Map<string, string> {
  const rng = new PythonRandom(level.seed);
  const mapping = new Map<string, string>();
  const issued = new Set<string>();
  for (const name of [...names].sort(compareCodePoints)) {
    const renamed = level.lambda === 0 ? name : obfuscateName(rng, name, level.probability, (c) => RESERVED_WORDS.has(c) || issued.has(c));
    issued.add(renamed);
    mapping.set(name, renamed);
  }
  return mapping;
}

const ASCII_IDENT = "A-Za-z0-9_'";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Applies a renaming to text: longest original first (ties in the mapping's order), whole names only where
 * the neighbours are outside the ASCII set [A-Za-z0-9_'], so already-renamed text can cascade (§3.5).
 */
export function makeRenamer(mapping: Map<string, string>): (text: string) => string {
  const entries = [...mapping.entries()];
  // Stable sort, as Python's sorted(key=len, reverse=True).
  const ordered = entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => [...b.e[0]].length - [...a.e[0]].length || a.i - b.i)
    .map((x) => x.e);
  const rules = ordered.map(([from, to]) => ({
    pattern: new RegExp(`(?<![${ASCII_IDENT}])${escapeRegExp(from)}(?![${ASCII_IDENT}])`, 'gu'),
    to,
  }));
  return (text: string) => {
    let out = text;
    for (const { pattern, to } of rules) out = out.replace(pattern, () => to);
    return out;
  };
}

/** The name a header item or statement declares, read back from its text (constructors: `name : …`). */
export function declaredName(code: string, category: string): string | null {
  if (category === 'constructor') {
    const colon = code.indexOf(':');
    return colon > 0 ? code.slice(0, colon).trim() : null;
  }
  const m = /^\s*(?:theorem|lemma|def|axiom|opaque|inductive)\s+(\S+)/u.exec(code);
  return m ? m[1] : null;
}

export interface ObfuscationResult {
  level: ObfuscationLevel;
  /** original → final obfuscated name, after the patch step (the de-obfuscation table), code-point key order. */
  mapping: Map<string, string>;
  dataset: OnngDataset;
}

/** Obfuscates a whole dataset at one level: map, rename every text field, patch the declared names. */
export function obfuscateDataset(source: OnngDataset, levelNumber: number): ObfuscationResult {
  const level = obfuscationLevel(levelNumber);
  const raw = buildRawMapping(renamableNames(source), level);
  const rename = makeRenamer(raw);
  const final = new Map(raw);
  const header = source.header.map((item) => {
    const code = rename(item.code);
    let name = raw.get(item.name) ?? item.name;
    const declared = declaredName(code, item.category);
    if (declared !== null && declared !== name && raw.has(item.name)) {
      name = declared;
      final.set(item.name, declared);
    }
    return { ...item, name, code };
  });
  const problems = source.problems.map((problem) => {
    const statement = rename(problem.statement);
    let name = raw.get(problem.name) ?? problem.name;
    const declared = declaredName(statement, 'theorem');
    if (declared !== null && declared !== name && raw.has(problem.name)) {
      name = declared;
      final.set(problem.name, declared);
    }
    return { ...problem, name, statement, proof: rename(problem.proof), known_theorems: problem.known_theorems.map(rename) };
  });
  const queries = source.queries?.map((chat) => chat.map((message) => ({ ...message, content: rename(message.content) })));
  return { level, mapping: final, dataset: { header, problems, ...(queries ? { queries } : {}) } };
}

/** The inverse of a final mapping (a bijection), for de-obfuscating drafts and code (§3.9). */
export function invertMapping(mapping: Map<string, string>): Map<string, string> {
  const inverse = new Map<string, string>();
  for (const [from, to] of mapping) {
    if (inverse.has(to)) throw new Error(`the mapping is not one-to-one: "${to}" is issued twice`);
    inverse.set(to, from);
  }
  return inverse;
}

/** De-obfuscates text with a Unicode-aware identifier boundary (letters incl. Greek/ℕ, digits, _, '). */
export function deobfuscateText(text: string, mapping: Map<string, string>): string {
  const inverse = [...invertMapping(mapping).entries()].sort((a, b) => [...b[0]].length - [...a[0]].length);
  let out = text;
  for (const [obf, orig] of inverse) {
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_'])${escapeRegExp(obf)}(?![\\p{L}\\p{N}_'])`, 'gu');
    out = out.replace(pattern, () => orig);
  }
  return out;
}

// ---- Python-compatible JSON output ----

/** json.dumps(value, ensure_ascii=False) with Python's default separators, or indent=N like Python. */
export function pythonJsonDumps(value: unknown, indent?: number, depth = 0): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('cannot write a non-finite number as JSON');
    return Number.isInteger(value) ? String(value) : pythonFloatRepr(value);
  }
  const pad = indent === undefined ? '' : '\n' + ' '.repeat(indent * (depth + 1));
  const close = indent === undefined ? '' : '\n' + ' '.repeat(indent * depth);
  const sep = indent === undefined ? ', ' : ',';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return '[' + value.map((v) => pad + pythonJsonDumps(v, indent, depth + 1)).join(sep) + close + ']';
  }
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return (
    '{' + entries.map(([k, v]) => pad + JSON.stringify(String(k)) + ': ' + pythonJsonDumps(v, indent, depth + 1)).join(sep) + close + '}'
  );
}

function pythonFloatRepr(x: number): string {
  const s = String(x);
  if (/e/.test(s)) {
    const [m, e] = s.split('e');
    const exp = Number(e);
    return `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return s;
}

/** The four dataset files, byte-compatible with upstream (JSONL with a final newline; mapping indent 2, no newline). */
export function datasetFiles(result: ObfuscationResult): Record<string, string> {
  const jsonl = (rows: unknown[]) => rows.map((r) => pythonJsonDumps(r) + '\n').join('');
  const files: Record<string, string> = {
    'header_definitions.jsonl': jsonl(result.dataset.header),
    'theorems.jsonl': jsonl(result.dataset.problems),
    'name_mapping.json': pythonJsonDumps(result.mapping, 2),
  };
  if (result.dataset.queries) files['queries.jsonl'] = jsonl(result.dataset.queries);
  return files;
}

/** Parses a JSONL text into rows, naming the 1-based line of a bad row. */
export function parseJsonl<T>(text: string, fileLabel: string): T[] {
  const rows: T[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      rows.push(JSON.parse(line) as T);
    } catch {
      throw new Error(`${fileLabel}: line ${i + 1} is not valid JSON`);
    }
  });
  return rows;
}

/**
 * A one-pass renamer (no cascades): every whole identifier found in the mapping is replaced once, longest
 * alternative first, with a Unicode-aware identifier boundary, so that renaming and restoring round-trip.
 */
export function makeSinglePassRenamer(mapping: Map<string, string>): (text: string) => string {
  const keys = [...mapping.keys()].filter((k) => k.length > 0).sort((a, b) => [...b].length - [...a].length);
  if (keys.length === 0) return (text) => text;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${keys.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
  return (text: string) => text.replace(pattern, (m) => mapping.get(m) ?? m);
}

export interface IdentifierObfuscation {
  /** original → obfuscated */
  mapping: Map<string, string>;
  /** obfuscated → original */
  inverse: Map<string, string>;
  /** Renames every whole identifier of the mapping in a text (function names, parameters, action words). */
  rename: (text: string) => string;
  /** Undoes rename. */
  restore: (text: string) => string;
}

/**
 * Applies one O-NNG level's renaming (same RNG, seed, λ and name rules) consistently to any benchmark's
 * identifiers, e.g. FEM-Bench function/parameter names or AtomWorld action words ("Beyond O-NNG").
 */
export function obfuscateIdentifiers(identifiers: string[], levelNumber: number): IdentifierObfuscation {
  const level = obfuscationLevel(levelNumber);
  const names = [...new Set(identifiers)].filter((n) => n.length > 0 && !RESERVED_WORDS.has(n));
  const taken = new Set(names);
  const rng = new PythonRandom(level.seed);
  const mapping = new Map<string, string>();
  const issued = new Set<string>();
  for (const name of names.sort(compareCodePoints)) {
    // Unlike O-NNG's closed problem set, a generated name must not collide with another original identifier.
    const renamed = obfuscateName(
      rng,
      name,
      level.probability,
      (c) => RESERVED_WORDS.has(c) || issued.has(c) || (taken.has(c) && c !== name),
    );
    issued.add(renamed);
    mapping.set(name, renamed);
  }
  const inverse = invertMapping(mapping);
  return { mapping, inverse, rename: makeSinglePassRenamer(mapping), restore: makeSinglePassRenamer(inverse) };
}
