/** Seeded randomness (reproducible demos, tests and benchmarks); never used where results must be exact. */
import { cos, log } from './libm.ts';

/** mulberry32: a small, well-mixed 32-bit generator; uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal deviates (Box–Muller) from a uniform generator. */
export const gaussian = (uniform: () => number) => (): number => Math.sqrt(-2 * log(1 - uniform())) * cos(2 * Math.PI * uniform());
