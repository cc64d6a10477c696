import { errorText } from '../src/core/errors.ts';

/** What every worker call answers: the value, or the sentence explaining why there is none. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

// The stores show worker failures through the same helper.
export { errorText };

/** The sentence of a file a worker could not read: "Could not read NAME[ line N]: why". */
export const couldNotRead = (name: string, why: string, line?: number | null): string =>
  `Could not read ${name}${line ? ` line ${line}` : ''}: ${why}`;

/** The answer of `fn`, or its error as a sentence (`sentence` rewords it, e.g. with the file's name). */
export async function attempt<T>(
  fn: () => T | Promise<T>,
  sentence: (message: string, e: unknown) => string = (m) => m,
): Promise<Result<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (e) {
    return { ok: false, error: sentence(errorText(e), e) };
  }
}
