/**
 * Atom labels without a component or a mesh per atom (the pure half; src/viewer/Labels.tsx draws them): which atoms get
 * a label, the text of each, and the quads of their glyphs, cut from one glyph atlas and drawn in one draw call.
 */
import type { PackedStructure } from '../core/structure/packed.ts';
import type { LabelMode } from './view-settings.ts';

/** Above this many drawn atoms only the picked atoms and the atoms nearest the last pick are labelled. */
export const LABELS_ALL_MAX = 2_000;
/** How many atoms around the last pick (it included) are labelled in a large scene. */
export const LABELS_NEAR_PICK = 24;
/** Longer texts are cut to this many characters, the last one an ellipsis. */
export const LABEL_MAX_CHARS = 32;

/** What a label can say about a drawn atom: its element and the site it copies (display-scene's DisplayData has these). */
export interface LabelSource {
  natoms: number;
  element: ArrayLike<number>;
  elements: readonly string[];
  site: ArrayLike<number>;
}

/**
 * The drawn atoms that get a label, in index order: every drawn one (radius > 0: hidden elements are not drawn) up to
 * `allMax` atoms; beyond it the picked atoms and the `near` atoms nearest the last pick.
 */
export function labelledAtoms(
  positions: ArrayLike<number>,
  radii: ArrayLike<number>,
  selection: readonly number[],
  allMax = LABELS_ALL_MAX,
  near = LABELS_NEAR_PICK,
): Uint32Array {
  const n = radii.length;
  const drawn = (i: number) => Number.isInteger(i) && i >= 0 && i < n && radii[i] > 0;
  if (n <= allMax) {
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (drawn(i)) out.push(i);
    return Uint32Array.from(out);
  }
  const chosen = new Set(selection.filter(drawn));
  const last = selection.length ? selection[selection.length - 1] : -1;
  if (drawn(last) && near > 0) {
    // The `near` smallest squared distances to the last pick, kept sorted (near is small: insertion is cheapest).
    const [x, y, z] = [positions[3 * last], positions[3 * last + 1], positions[3 * last + 2]];
    const bestD: number[] = [];
    const bestI: number[] = [];
    for (let i = 0; i < n; i++) {
      if (!drawn(i)) continue;
      const d2 = (positions[3 * i] - x) ** 2 + (positions[3 * i + 1] - y) ** 2 + (positions[3 * i + 2] - z) ** 2;
      if (bestD.length === near && d2 >= bestD[near - 1]) continue;
      let k = bestD.length === near ? near - 1 : bestD.length;
      while (k > 0 && bestD[k - 1] > d2) {
        bestD[k] = bestD[k - 1];
        bestI[k] = bestI[k - 1];
        k--;
      }
      bestD[k] = d2;
      bestI[k] = i;
    }
    for (const i of bestI) chosen.add(i);
  }
  return Uint32Array.from([...chosen].sort((a, b) => a - b));
}

/**
 * The text of drawn atom `i`: its index (as the atom panel and measurements number it), its element, or the per-site
 * text the page gives for the site it copies (site label, Wyckoff letter, a property's value); '' where there is none.
 */
export function atomLabelText(mode: LabelMode, i: number, src: LabelSource, siteTexts: readonly string[] | null): string {
  let text = '';
  if (mode.kind === 'index') text = String(i);
  else if (mode.kind === 'element') text = src.elements[src.element[i]] ?? '';
  else if (mode.kind !== 'none') text = siteTexts?.[src.site[i]] ?? '';
  const chars = Array.from(text);
  return chars.length > LABEL_MAX_CHARS ? chars.slice(0, LABEL_MAX_CHARS - 1).join('') + '…' : text;
}

/** A property value short enough for a label: three significant digits, no trailing zeros. */
export const compactNumber = (v: number): string => (Number.isFinite(v) ? String(Number(v.toPrecision(3))) : '—');

/**
 * Per site of `structure`, the text of the modes that need more than the drawn atoms: the site's label (CIF
 * `_atom_site_label`; its element and number where the file has none), its Wyckoff letter (`wyckoffs`, from the
 * space-group search), or its values of a property column (components space-separated). Null for the other modes, and
 * for a property the structure does not have.
 */
export function siteLabelTexts(mode: LabelMode, structure: PackedStructure | null, wyckoffs: readonly string[] | null): string[] | null {
  if (!structure) return null;
  const n = structure.natoms;
  if (mode.kind === 'site') {
    return Array.from({ length: n }, (_, s) => {
      const label = structure.labels?.[s];
      return label ? label : `${structure.elements[structure.speciesElement[structure.speciesStart[s]]] ?? ''}${s + 1}`;
    });
  }
  if (mode.kind === 'wyckoff') return Array.from({ length: n }, (_, s) => wyckoffs?.[s] ?? '');
  if (mode.kind === 'property') {
    const column = structure.properties?.find((c) => c.name === mode.name);
    if (!column) return null;
    return Array.from({ length: n }, (_, s) =>
      Array.from(column.values.subarray(column.width * s, column.width * (s + 1)), compactNumber).join(' '),
    );
  }
  return null;
}

/** The distinct characters (code points) of `texts`, in code-point order: the glyphs the atlas must hold. */
export function glyphsOf(texts: readonly string[]): string[] {
  const set = new Set<string>();
  for (const t of texts) for (const ch of t) set.add(ch);
  return [...set].sort((a, b) => a.codePointAt(0)! - b.codePointAt(0)!);
}

/**
 * A glyph's cell in the atlas (pixels, origin top left; `margin` pixels on each side of its advance hold its outline)
 * and its advance in line heights.
 */
export interface GlyphCell {
  x: number;
  y: number;
  width: number;
  advance: number;
}

export interface AtlasLayout {
  cells: Map<string, GlyphCell>;
  width: number;
  height: number;
  /** Cell (line) height in atlas pixels. */
  cellHeight: number;
  /** Pixels left and right of each glyph's advance in its cell (the outline reaches past the advance). */
  margin: number;
}

/**
 * Places glyph cells of `cellHeight` rows, each its advance (pixels) plus `margin` on both sides wide, left to right in
 * rows of at most `maxWidth`, `pad` pixels apart (filtering must not bleed one glyph into the next).
 */
export function packAtlas(
  glyphs: readonly string[],
  advances: readonly number[],
  cellHeight: number,
  margin = 0,
  maxWidth = 1024,
  pad = 4,
): AtlasLayout {
  const cells = new Map<string, GlyphCell>();
  let x = pad,
    y = pad,
    width = 0;
  glyphs.forEach((g, k) => {
    const w = Math.max(1, Math.ceil(advances[k] + 2 * margin));
    if (x + w + pad > maxWidth && x > pad) {
      x = pad;
      y += cellHeight + pad;
    }
    cells.set(g, { x, y, width: w, advance: Math.max(0, advances[k]) / cellHeight });
    x += w + pad;
    width = Math.max(width, x);
  });
  return { cells, width: Math.max(1, width), height: y + cellHeight + pad, cellHeight, margin };
}

/** Four corners per glyph: offsets from the label's anchor in line heights (y up) and atlas texture coordinates. */
export interface LabelQuads {
  /** Per glyph, the label (index into the texts) it belongs to. */
  label: Uint32Array;
  /** Per glyph corner (4 per glyph: bottom left, bottom right, top right, top left), x and y. */
  offsets: Float32Array;
  uvs: Float32Array;
}

/**
 * Each text on one line centred on its anchor, glyph after glyph by their advances (cells overlap by their margins);
 * characters missing from the atlas take no room.
 */
export function layoutLabels(texts: readonly string[], atlas: AtlasLayout): LabelQuads {
  let glyphs = 0;
  for (const t of texts) for (const ch of t) if (atlas.cells.has(ch)) glyphs++;
  const label = new Uint32Array(glyphs);
  const offsets = new Float32Array(8 * glyphs);
  const uvs = new Float32Array(8 * glyphs);
  let g = 0;
  texts.forEach((t, k) => {
    const cells = Array.from(t, (ch) => atlas.cells.get(ch)).filter((c): c is GlyphCell => c !== undefined);
    let x = -cells.reduce((s, c) => s + c.advance, 0) / 2;
    const margin = atlas.margin / atlas.cellHeight;
    for (const c of cells) {
      const x0 = x - margin,
        x1 = x0 + c.width / atlas.cellHeight;
      offsets.set([x0, -0.5, x1, -0.5, x1, 0.5, x0, 0.5], 8 * g);
      // Texture v runs up from the atlas's bottom row (flipY).
      const [u0, u1] = [c.x / atlas.width, (c.x + c.width) / atlas.width];
      const [v0, v1] = [1 - (c.y + atlas.cellHeight) / atlas.height, 1 - c.y / atlas.height];
      uvs.set([u0, v0, u1, v0, u1, v1, u0, v1], 8 * g);
      label[g++] = k;
      x += c.advance;
    }
  });
  return { label, offsets, uvs };
}
