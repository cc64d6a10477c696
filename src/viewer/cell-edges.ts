import type { ShownTheme } from '../browser/shown-theme.ts';
import type { Vec3 } from '../core/math/mat3.ts';

/**
 * The unit cell's edge colour per theme: at least 3:1 against both ends of the view's background gradient
 * (styles.css `.view`), the WCAG 2.2 non-text contrast minimum (SC 1.4.11). The dark one is the dark theme's
 * secondary text colour; the light theme's #333333 read as near-black lines on the light view, but at about 1.1:1
 * vanished into the dark one. tests/unit/cell-edge-colors.test.ts checks both against styles.css.
 */
export const CELL_EDGE_COLORS: Readonly<Record<ShownTheme, string>> = Object.freeze({ light: '#333333', dark: '#9aa5b5' });

/** The 8 corners of one cell in fractional coordinates; corner k has bit 0 → a, bit 1 → b, bit 2 → c. */
export const CELL_CORNERS: readonly Vec3[] = Object.freeze([0, 1, 2, 3, 4, 5, 6, 7].map((k): Vec3 => [k & 1, (k >> 1) & 1, (k >> 2) & 1]));

/** The 12 edges of one cell as pairs of fractional corners (each corner joined to the corners one axis step away). */
export const CELL_EDGES: readonly (readonly [Vec3, Vec3])[] = Object.freeze(
  CELL_CORNERS.flatMap((p, k) => [1, 2, 4].filter((bit) => !(k & bit)).map((bit) => [p, CELL_CORNERS[k | bit]] as const)),
);
