/** Per-element colour and radius lookups for the renderer, from the shared element table. */
import { elementBySymbol } from '../core/structure/elements.ts';
import type { ColorScheme } from './view-settings.ts';

export type Rgb = [number, number, number];

const FALLBACK: Rgb = [1, 0.08, 0.58];

/** Accepts '#rrggbb', 'rrggbb', 0xrrggbb, [r,g,b] in 0..1 or 0..255; returns sRGB in 0..1. */
export function toRgb(value: unknown): Rgb {
  if (typeof value === 'number' && Number.isFinite(value))
    return [((value >> 16) & 255) / 255, ((value >> 8) & 255) / 255, (value & 255) / 255];
  if (typeof value === 'string') {
    const m = /^#?([0-9a-f]{6})$/i.exec(value.trim());
    if (m) return toRgb(parseInt(m[1], 16));
  }
  if (Array.isArray(value) && value.length >= 3 && value.every((v) => typeof v === 'number')) {
    const scale = value.some((v) => v > 1) ? 255 : 1;
    return [value[0] / scale, value[1] / scale, value[2] / scale];
  }
  return FALLBACK;
}

export function elementColor(symbol: string, scheme: ColorScheme): Rgb {
  const el = lookup(symbol);
  if (!el) return FALLBACK;
  return toRgb(scheme === 'vesta' ? el.vestaColor : el.jmolColor);
}

export function covalentRadius(symbol: string): number {
  const r = lookup(symbol)?.covalentRadius;
  return typeof r === 'number' && r > 0 ? r : 1.0;
}

export function elementName(symbol: string): string {
  return lookup(symbol)?.name ?? symbol;
}

function lookup(symbol: string) {
  try {
    return elementBySymbol(symbol) ?? null;
  } catch {
    return null;
  }
}

export const toHex = (c: Rgb): string =>
  '#' +
  c
    .map((v) =>
      Math.round(Math.max(0, Math.min(1, v)) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('');

/** Relative luminance of an sRGB colour (WCAG 2.2, "relative luminance": each channel linearised). */
export function relativeLuminance(colour: unknown): number {
  const [r, g, b] = toRgb(colour).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.2 contrast ratio of two colours, 1 (none) to 21 (black on white). */
export function contrastRatio(a: unknown, b: unknown): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Linear interpolation along a colour ramp (stops evenly spaced) at t in [0, 1]; clamped. */
export function rampColor(ramp: readonly Rgb[], t: number): Rgb {
  const x = Math.max(0, Math.min(1, Number.isFinite(t) ? t : 0)) * (ramp.length - 1);
  const k = Math.min(ramp.length - 2, Math.floor(x));
  const f = x - k;
  return [0, 1, 2].map((c) => ramp[k][c] * (1 - f) + ramp[k + 1][c] * f) as Rgb;
}

/**
 * The displacement / distance ramp of the compare, AtomWorld overlay and FEM views: 0 blue → green → yellow → red at
 * the scale's top.
 */
export const DISPLACEMENT_RAMP: readonly Rgb[] = [
  [0.17, 0.38, 0.85],
  [0.3, 0.75, 0.6],
  [0.98, 0.82, 0.2],
  [0.85, 0.15, 0.1],
];

/** CSS `linear-gradient` stops drawing `ramp` left to right (the colour bars): its stops, evenly spaced, as rampColor. */
export const rampGradient = (ramp: readonly Rgb[]): string =>
  `linear-gradient(to right, ${ramp.map((c, i) => `${toHex(c)} ${(100 * i) / (ramp.length - 1)}%`).join(', ')})`;

/**
 * Per drawn atom, the displacement-ramp colour of its site's value over [lo, hi] (the middle of the ramp for a
 * constant), as the viewer's atomColors; null when a drawn atom's site has no value.
 */
export function rampColorsBySite(
  site: ArrayLike<number>,
  values: ArrayLike<number>,
  [lo, hi]: readonly [number, number],
): Float32Array | null {
  const colors = new Float32Array(3 * site.length);
  for (let i = 0; i < site.length; i++) {
    const v = values[site[i]];
    if (v === undefined) return null;
    colors.set(rampColor(DISPLACEMENT_RAMP, hi > lo ? (v - lo) / (hi - lo) : 0.5), 3 * i);
  }
  return colors;
}

/**
 * Distinct colours of a categorical property's legend, one per category in order (Tableau 10, then two more): as many
 * as src/core/analysis/atom-properties.ts CATEGORIES_MAX allows.
 */
export const CATEGORY_PALETTE: readonly Rgb[] = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
  '#1f3b73',
  '#8cd17d',
].map((hex) => toRgb(hex));

/** Per drawn atom, the palette colour of its site's category, as the viewer's atomColors; null when a site has none. */
export function categoryColorsBySite(site: ArrayLike<number>, siteCategory: ArrayLike<number>): Float32Array | null {
  const colors = new Float32Array(3 * site.length);
  for (let i = 0; i < site.length; i++) {
    const c = CATEGORY_PALETTE[siteCategory[site[i]]];
    if (c === undefined) return null;
    colors.set(c, 3 * i);
  }
  return colors;
}
