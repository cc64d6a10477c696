/**
 * Shared pieces of the fuzz suites (tests/unit/fuzz-*.test.ts): text mutations of real files,
 * hostile generated shapes, the time budget of a run and the per-call hang guard.
 *
 * Run length: FUZZ_SECONDS unset → the bounded run of `npm test` (a few seconds per property);
 * FUZZ_SECONDS=600 → each property runs until that many seconds have passed (`npm run fuzz`).
 */
import fc from 'fast-check';

/** Seconds each property may run when FUZZ_SECONDS is set; null in the bounded run. */
export function fuzzSeconds(): number | null {
  const raw = process.env.FUZZ_SECONDS;
  if (raw === undefined || raw.trim() === '') return null;
  const s = Number(raw);
  return Number.isFinite(s) && s > 0 ? s : null;
}

/**
 * fast-check parameters: the bounded run does `runs` cases but stops after `boundedSeconds`;
 * a long run (FUZZ_SECONDS) does as many cases as fit in that many seconds.
 */
export function fuzzParams<T>(runs: number, boundedSeconds = 5): fc.Parameters<T> {
  const long = fuzzSeconds();
  return long === null
    ? { numRuns: runs, interruptAfterTimeLimit: boundedSeconds * 1000, markInterruptAsFailure: false }
    : { numRuns: Number.MAX_SAFE_INTEGER, interruptAfterTimeLimit: long * 1000, markInterruptAsFailure: false };
}

/** A vitest timeout for one property: its run time plus a generous margin for the slowest single case. */
export function fuzzTimeout(boundedSeconds = 5): number {
  return ((fuzzSeconds() ?? boundedSeconds) + 60) * 1000;
}

/** Per-call hang guard, ms: far above any legitimate parse of a small mutated file. */
export const CALL_BUDGET_MS = 5_000;

/**
 * Runs `fn` and fails when it takes longer than `budgetMs` (a hang guard, not a performance test).
 * `label` says which input it was, for the failure message.
 */
export function withinBudget<T>(fn: () => T, label: string, budgetMs = CALL_BUDGET_MS): T {
  const t0 = performance.now();
  const out = fn();
  const ms = performance.now() - t0;
  if (ms > budgetMs) throw new Error(`${label}: one call took ${ms.toFixed(0)} ms (hang guard ${budgetMs} ms)`);
  return out;
}

// Control characters (C0 except tab, DEL, C1) and bidi overrides: none may reach a message.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

/** Throws unless `message` is one non-empty line free of control characters. */
export function assertCleanMessage(message: unknown, label: string): void {
  if (typeof message !== 'string' || message.trim() === '') throw new Error(`${label}: the error is not a sentence: ${String(message)}`);
  if (CONTROL.test(message))
    throw new Error(`${label}: the error holds a control character or line break: ${JSON.stringify(message.slice(0, 200))}`);
}

// ------------------------------------------------------------------------------------ mutations

/** Hostile pieces to insert: huge/odd numbers, control characters, long tokens, format keywords. */
export const hostileToken: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '1e308',
    '-1e308',
    '1e400',
    '1e-400',
    'NaN',
    'nan',
    'Infinity',
    '-inf',
    '1e16',
    '1e7',
    '0',
    '-0',
    '00000',
    '1/0',
    '0/0',
    '1.2.3',
    '1e',
    '.',
    '-',
    '+',
    '?',
    '1d5',
    '3*^2',
    '2x,y,z',
    'x,y,z',
    "'",
    '"',
    ';',
    '#',
    'loop_',
    'data_',
    '_',
    '__proto__',
    'constructor',
    '{',
    '[',
    ']',
    '}',
    ':',
    ',',
    '\\',
    '\x1b[31m',
    '\x00',
    '\x1a',
    '\u202e',
    '\ufeff',
    '\r',
    '\r\n',
    '\t',
    '999999999999',
    '1000000000000',
    '-5',
    '2.5',
    '4294967296',
    'T',
    'F',
  ),
  fc.integer({ min: 1, max: 200_000 }).map((n) => '1'.repeat(n)),
  fc.integer({ min: 1, max: 100_000 }).map((n) => `${'1'.repeat(n)}x`),
  fc.integer({ min: 1, max: 50_000 }).map((n) => `0.${'0'.repeat(n)}1`),
  fc.integer({ min: 1, max: 100_000 }).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 1, max: 20_000 }).map((n) => ' '.repeat(n)),
  fc.integer({ min: 1, max: 20_000 }).map((n) => '1 '.repeat(n)),
  fc.integer({ min: 0x00, max: 0x9f }).map((c) => String.fromCharCode(c)),
  fc.double().map(String),
);

type Mutation = (text: string) => string;

const lineAt = (lines: string[], r: number) => Math.min(lines.length - 1, Math.floor(r * lines.length));

/** One mutation of a text, parameterised by random fractions (so shrinking stays meaningful). */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // Byte flip: one character replaced by an arbitrary code unit.
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 0xffff })).map(([r, c]): Mutation => (t) => {
    if (t.length === 0) return String.fromCharCode(c);
    const i = Math.min(t.length - 1, Math.floor(r * t.length));
    return t.slice(0, i) + String.fromCharCode(c) + t.slice(i + 1);
  }),
  // Line deletion.
  fc.double({ min: 0, max: 1, noNaN: true }).map((r): Mutation => (t) => {
    const lines = t.split('\n');
    lines.splice(lineAt(lines, r), 1);
    return lines.join('\n');
  }),
  // Line duplication (1 to many copies).
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 2_000 })).map(([r, k]): Mutation => (t) => {
    const lines = t.split('\n');
    const i = lineAt(lines, r);
    const copies = Math.min(k, Math.floor(MAX_MUTATED_CHARS / (lines[i].length + 1)));
    lines.splice(i, 0, ...new Array<string>(copies).fill(lines[i]));
    return lines.join('\n');
  }),
  // A hostile token inserted, or replacing a whitespace-separated word.
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), hostileToken, fc.boolean()).map(([r, tok, replace]): Mutation => (t) => {
    const i = Math.min(t.length, Math.floor(r * t.length));
    if (!replace) return t.slice(0, i) + tok + t.slice(i);
    let a = i;
    while (a > 0 && !/\s/.test(t[a - 1])) a--;
    let b = i;
    while (b < t.length && !/\s/.test(t[b])) b++;
    return t.slice(0, a) + tok + t.slice(b);
  }),
  // Every number on one line replaced by a hostile token.
  fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), hostileToken).map(([r, tok]): Mutation => (t) => {
    const lines = t.split('\n');
    const i = lineAt(lines, r);
    let k = 0;
    lines[i] = lines[i].replace(/-?\d+(\.\d+)?/g, (m) => (k++ < 12 ? tok : m));
    return lines.join('\n');
  }),
  // Truncation.
  fc.double({ min: 0, max: 1, noNaN: true }).map(
    (r): Mutation =>
      (t) =>
        t.slice(0, Math.floor(r * t.length)),
  ),
  // Line endings changed, a BOM added.
  fc.constantFrom<Mutation>(
    (t) => t.replace(/\n/g, '\r\n'),
    (t) => t.replace(/\n/g, '\r'),
    (t) => `\ufeff${t}`,
    (t) => t.replace(/ /g, '\t'),
  ),
);

/** Longest mutated text (characters): large enough for long tokens and many lines, small enough for a fast run. */
export const MAX_MUTATED_CHARS = 4_000_000;

/** A text with 1–`max` random mutations applied in order (each result cut at MAX_MUTATED_CHARS). */
export function mutatedText(base: string, max = 4): fc.Arbitrary<string> {
  return fc.array(mutation, { minLength: 1, maxLength: max }).map((ms) => ms.reduce((t, m) => m(t).slice(0, MAX_MUTATED_CHARS), base));
}

/** A random pick from `texts`, then mutated. */
export function mutatedFrom(texts: string[], max = 4): fc.Arbitrary<string> {
  return fc.constantFrom(...texts).chain((t) => mutatedText(t, max));
}

/** Text built from random lines of hostile tokens (no base file). */
export const hostileLines: fc.Arbitrary<string> = fc
  .array(
    fc.array(fc.oneof(hostileToken, fc.string({ maxLength: 12 })), { maxLength: 8 }).map((ts) => ts.join(' ')),
    { maxLength: 30 },
  )
  .map((ls) => ls.join('\n'));
