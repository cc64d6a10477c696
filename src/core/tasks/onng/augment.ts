// Character-level name augmentation exactly as the O-NNG generator applies it (nlpaug 1.1.11 char augmenters):
// a short-name path driven by random()/choice()/randint(), and a long-name path that reproduces
// nlpaug 1.1.11 RandomCharAug (substitute → insert → delete, each called twice) on CPython's RNG.
import type { PythonRandom } from './python-random.ts';
import { pow } from '../../math/libm.ts';

export const ASCII_LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const SPECIALS = "_'";
/** Greek without λ/Λ/Σ/Π (they mean something in Lean), then the blackboard letters; order matters. */
const UNICODE_CHARS = 'αβγδεζηθικμνξοπρστυφχψω' + 'ΑΒΓΔΕΖΗΘΙΚΜΝΞΟΡΤΥΦΧΨΩ' + 'ℕℤℚℝℂ';

/** The 113-character pool of the long-name path (letters, digits, specials, unicode). */
export const LONG_NAME_POOL: readonly string[] = [...(ASCII_LETTERS + DIGITS + SPECIALS + UNICODE_CHARS)];
/** The 103-character pool of the short-name path (no digits). */
export const SHORT_NAME_POOL: readonly string[] = [...(ASCII_LETTERS + SPECIALS + UNICODE_CHARS)];
const POOL_SET = new Set(LONG_NAME_POOL);

/** Names shorter than this take the short path; nlpaug also never edits tokens shorter than this. */
export const MIN_LONG_NAME = 4;
const AUG_CHAR_MIN = 1;
const AUG_CHAR_MAX = 10;
const AUG_WORD_MIN = 1;
const AUG_WORD_MAX = 10;

/** Per-character probability P = λ^2.5 for noise level λ, as the O-NNG generator sets it. */
export function noiseProbability(lambda: number): number {
  return pow(lambda, 2.5);
}

export type CharAction = 'substitute' | 'insert' | 'delete';

/** nlpaug's default tokenizer: split on Python-Unicode non-word characters, keep them, drop blanks. */
export function nlpaugTokenize(text: string): string[] {
  return text.split(/([^\p{L}\p{N}_])/u).filter((t) => t.trim().length > 0);
}

/** nlpaug's _generate_aug_cnt: ceil(p·size) clamped to [min, max] (a zero rate falls back to 0.3). */
function augmentCount(size: number, min: number, max: number, rate: number): number {
  const count = Math.ceil((rate || 0.3) * size);
  if (count < min) return min;
  if (count > max) return max;
  return count;
}

/** One RandomCharAug.augment(data) call with word probability 1 (returns the re-joined tokens). */
export function randomCharAugment(rng: PythonRandom, input: string, action: CharAction, charRate: number): string {
  const data = input.trim();
  if (data.length === 0) return input.length === 0 ? '' : data;
  const tokens = nlpaugTokenize(data);
  const wordCount = augmentCount(tokens.length, AUG_WORD_MIN, AUG_WORD_MAX, 1);
  const candidates = tokens.map((_, i) => i).filter((i) => tokens[i].length >= MIN_LONG_NAME);
  if (candidates.length === 0) return data;
  const chosen = new Set(rng.sample(candidates, Math.min(wordCount, candidates.length)));
  const out = tokens.slice();
  tokens.forEach((token, tokenIndex) => {
    if (!chosen.has(tokenIndex)) return;
    const chars = [...token];
    const charCount = Math.min(augmentCount(chars.length, AUG_CHAR_MIN, AUG_CHAR_MAX, charRate), chars.length);
    const positions = rng.sample(
      chars.map((_, i) => i),
      charCount,
    );
    if (action === 'substitute') {
      const picked = new Set(positions);
      // Ascending order: one pool draw per substituted character.
      out[tokenIndex] = chars.map((c, i) => (picked.has(i) ? rng.sample(LONG_NAME_POOL, 1)[0] : c)).join('');
    } else {
      positions.sort((a, b) => b - a);
      for (const i of positions) {
        if (action === 'insert') chars.splice(i, 0, rng.sample(LONG_NAME_POOL, 1)[0]);
        else chars.splice(i, 1);
      }
      out[tokenIndex] = chars.join('');
    }
  });
  return out.join(' ').trim();
}

/** The long-name path: three RandomCharAug steps, each called twice (upstream quirk), the second result kept. */
export function augmentLongName(rng: PythonRandom, name: string, p: number): string {
  let result = name;
  const steps: [CharAction, number][] = [
    ['substitute', p],
    ['insert', 0.4 * p],
    ['delete', 0.3 * p],
  ];
  for (const [action, rate] of steps) {
    randomCharAugment(rng, result, action, rate);
    result = randomCharAugment(rng, result, action, rate);
  }
  return result;
}

/** The short-name path (names under 4 characters). */
export function augmentShortName(rng: PythonRandom, name: string, p: number): string {
  const chars = [...name];
  for (let i = 0; i < chars.length; i++) {
    if (rng.random() < p) chars[i] = rng.choice(SHORT_NAME_POOL);
  }
  if (rng.random() < 0.4 * p) {
    const position = rng.randint(0, chars.length);
    chars.splice(position, 0, rng.choice(SHORT_NAME_POOL));
  }
  // No draw at all when the length is 1 or less.
  if (chars.length > 1 && rng.random() < 0.3 * p) {
    chars.splice(rng.randint(0, chars.length - 1), 1);
  }
  return chars.join('');
}

/**
 * One obfuscated name: augment, then the post-processing of §3.4 (fallback for empty results, no leading
 * digit or apostrophe, pool filter, then a counter suffix while the name is reserved or already issued).
 */
export function obfuscateName(rng: PythonRandom, name: string, p: number, isTaken: (candidate: string) => boolean): string {
  let result: string;
  if ([...name].length < MIN_LONG_NAME) {
    result = augmentShortName(rng, name, p);
  } else {
    try {
      result = augmentLongName(rng, name, p);
    } catch {
      result = name; // upstream keeps the original name when augmentation throws
    }
  }
  const fallback = () => rng.choice(ASCII_LETTERS) + [...name].slice(0, 3).join('');
  if (result.length === 0) result = fallback();
  if (/^[0-9']/.test(result)) result = rng.choice(ASCII_LETTERS) + result;
  result = [...result].filter((c) => POOL_SET.has(c)).join('');
  if (result.length === 0) result = fallback();
  const base = result;
  for (let counter = 1; isTaken(result); counter++) result = base + String(counter);
  return result;
}
