/** Numbers as the lab's panels and tables show them: a dash for a value that is missing or not finite. */
import { wrapFrac } from '../core/math/mat3.ts';

const missing = (x: number | null | undefined): x is null | undefined => x === null || x === undefined || !Number.isFinite(x);

/** `digits` significant digits (metrics whose scale varies: RMSD, Hausdorff, volumes). */
export const fmt = (x: number | null | undefined, digits = 4): string => (missing(x) ? '—' : x.toPrecision(digits));

/** `digits` decimals (coordinates, lattice parameters, angles). */
export const fixed = (x: number | null | undefined, digits = 4): string => (missing(x) ? '—' : x.toFixed(digits));

/**
 * A fractional coordinate wrapped into [0, 1) at `digits` decimals: by the core's wrapFrac (src/core/math/mat3.ts) with
 * its tolerance at half the last shown digit, so a value that would round to 1 (1.0000, 0.99999999) reads 0.0000, and
 * −0 or −1e-9 never reads −0.0000.
 */
export const fracText = (x: number | null | undefined, digits = 4): string =>
  missing(x) ? '—' : wrapFrac(x, 0.5 * 10 ** -digits).toFixed(digits);
