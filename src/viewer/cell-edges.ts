import type { Vec3 } from '../core/math/mat3.ts';

/** The 8 corners of one cell in fractional coordinates; corner k has bit 0 → a, bit 1 → b, bit 2 → c. */
export const CELL_CORNERS: readonly Vec3[] = Object.freeze([0, 1, 2, 3, 4, 5, 6, 7].map((k): Vec3 => [k & 1, (k >> 1) & 1, (k >> 2) & 1]));

/** The 12 edges of one cell as pairs of fractional corners (each corner joined to the corners one axis step away). */
export const CELL_EDGES: readonly (readonly [Vec3, Vec3])[] = Object.freeze(
  CELL_CORNERS.flatMap((p, k) => [1, 2, 4].filter((bit) => !(k & bit)).map((bit) => [p, CELL_CORNERS[k | bit]] as const)),
);
