/** Numbers as the lab's panels and tables show them: a dash for a value that is missing or not finite. */

const missing = (x: number | null | undefined): x is null | undefined => x === null || x === undefined || !Number.isFinite(x);

/** `digits` significant digits (metrics whose scale varies: RMSD, Hausdorff, volumes). */
export const fmt = (x: number | null | undefined, digits = 4): string => (missing(x) ? '—' : x.toPrecision(digits));

/** `digits` decimals (coordinates, lattice parameters, angles). */
export const fixed = (x: number | null | undefined, digits = 4): string => (missing(x) ? '—' : x.toFixed(digits));
