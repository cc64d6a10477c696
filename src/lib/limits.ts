/**
 * `structlab/limits`: the input and work limits every reader and analysis enforces (a refusal is a
 * LimitError with one sentence); a script may raise them for its process with overrideLimits.
 */
export { LIMITS, LimitError, type LimitName, overrideLimits, resetLimits, limitOverrides } from '../core/limits.ts';
