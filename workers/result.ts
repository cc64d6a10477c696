/** What a worker call answers: the value, or the sentence explaining why there is none. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };
