/**
 * The 3D frame model the FEM page edits, in the FEM-Bench golden input layout (node_coords, elements,
 * boundary_conditions, nodal_loads), and the pure helpers its views need. No DOM, no three.
 */
import { LIMITS, limitSentence } from '../../../limits.ts';
import { directionCosines, type FrameElement } from '../msa/frame.ts';
import type { FemValue } from '../types.ts';
import { pow } from '../../../math/libm.ts';

/** One element as the golden inputs give it (the reference's own element record). */
export type FrameElementRow = FrameElement;

export interface FrameModel {
  id: string;
  name: string;
  description?: string;
  source?: { task: string; case: number; case_source?: string };
  note?: string | null;
  node_coords: number[][];
  elements: FrameElementRow[];
  /** Node (string key) → 6 flags [UX, UY, UZ, RX, RY, RZ]; truthy = fixed. */
  boundary_conditions: Record<string, (boolean | number)[]>;
  /** Node (string key) → [FX, FY, FZ, MX, MY, MZ]. */
  nodal_loads: Record<string, number[]>;
}

export const DOF_NAMES = ['UX', 'UY', 'UZ', 'RX', 'RY', 'RZ'] as const;
export const REACTION_NAMES = ['FX', 'FY', 'FZ', 'MX', 'MY', 'MZ'] as const;

/** The task inputs (golden layout) of a model. */
export function taskInputs(m: FrameModel): Record<string, FemValue> {
  return {
    node_coords: m.node_coords,
    elements: m.elements.map((e) => ({ ...e, local_z: e.local_z ?? null })) as unknown as FemValue,
    boundary_conditions: m.boundary_conditions as unknown as FemValue,
    nodal_loads: m.nodal_loads,
  };
}

/** First problem found in a model, as a sentence naming the row (1-based as the tables show 0-based node ids). */
export function validateModel(m: FrameModel): string | null {
  const n = m.node_coords.length;
  if (n < 2) return 'A frame needs at least two nodes.';
  for (let i = 0; i < n; i++) {
    const c = m.node_coords[i];
    if (c.length !== 3 || !c.every(Number.isFinite)) return `Node ${i} needs three finite coordinates.`;
  }
  if (m.elements.length === 0) return 'A frame needs at least one element.';
  if (n > LIMITS.femElements) return `${limitSentence('The frame', n, LIMITS.femElements, 'nodes', 'femElements')}.`;
  if (m.elements.length > LIMITS.femElements)
    return `${limitSentence('The frame', m.elements.length, LIMITS.femElements, 'elements', 'femElements')}.`;
  // The large-frame solvers are banded: cost 6n·(6·bandwidth)², bounded like the largest dense solve (femDofs³).
  let band = 0;
  for (const e of m.elements)
    if (Number.isInteger(e.node_i) && Number.isInteger(e.node_j)) band = Math.max(band, Math.abs(e.node_i - e.node_j));
  if (6 * n * (6 * (band + 1)) ** 2 > pow(LIMITS.femDofs, 3) && 6 * n > LIMITS.femDofs) {
    return (
      `The frame's node numbering spans ${band} nodes within one element over ${n} nodes; renumber the nodes so that connected ` +
      `nodes are close (the solver's work is limited to that of a ${LIMITS.femDofs}-DOF dense problem).`
    );
  }
  for (let k = 0; k < m.elements.length; k++) {
    const e = m.elements[k];
    for (const key of ['node_i', 'node_j'] as const) {
      if (!Number.isInteger(e[key]) || e[key] < 0 || e[key] >= n) return `Element ${k}: ${key} = ${e[key]} is not a node (0…${n - 1}).`;
    }
    if (e.node_i === e.node_j) return `Element ${k} joins node ${e.node_i} to itself.`;
    for (const key of ['E', 'A', 'I_y', 'I_z', 'J'] as const) {
      if (!(Number.isFinite(e[key]) && e[key] > 0)) return `Element ${k}: ${key} must be a positive number (got ${e[key]}).`;
    }
    if (!(Number.isFinite(e.nu) && e.nu > -1 && e.nu < 0.5)) return `Element ${k}: ν must lie in (−1, 0.5) (got ${e.nu}).`;
  }
  for (const [node, f] of Object.entries(m.nodal_loads)) {
    if (!(Number(node) >= 0 && Number(node) < n)) return `A load is applied to node ${node}, which does not exist.`;
    if (f.length !== 6 || !f.every(Number.isFinite)) return `The load on node ${node} needs six finite components.`;
  }
  for (const node of Object.keys(m.boundary_conditions)) {
    if (!(Number(node) >= 0 && Number(node) < n)) return `A support is set on node ${node}, which does not exist.`;
  }
  return null;
}

export function bounds(coords: readonly (readonly number[])[]): { center: [number, number, number]; radius: number } {
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (const c of coords)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], c[k]);
      max[k] = Math.max(max[k], c[k]);
    }
  if (!coords.length) return { center: [0, 0, 0], radius: 1 };
  const center: [number, number, number] = [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2];
  let r = 0;
  for (const c of coords) r = Math.max(r, Math.hypot(c[0] - center[0], c[1] - center[1], c[2] - center[2]));
  return { center, radius: Math.max(r * 1.25, 1e-3) };
}

/** The frame's size: its bounding-box diagonal (sets glyph, arrow and deformation scales). */
export function characteristicLength(m: FrameModel): number {
  const min = [Infinity, Infinity, Infinity],
    max = [-Infinity, -Infinity, -Infinity];
  for (const c of m.node_coords)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], c[k]);
      max[k] = Math.max(max[k], c[k]);
    }
  const d = Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  return Number.isFinite(d) && d > 0 ? d : 1;
}

export type SupportKind = 'fixed' | 'pinned' | 'partial';

/** All six DOFs fixed: fixed; the three translations only: pinned; anything else fixed: partial. */
export function supportKind(flags: readonly (boolean | number)[] | undefined): SupportKind | null {
  if (!flags) return null;
  const f = flags.map(Boolean);
  if (!f.some(Boolean)) return null;
  if (f.length >= 6 && f.slice(0, 6).every(Boolean)) return 'fixed';
  if (f[0] && f[1] && f[2] && !f[3] && !f[4] && !f[5]) return 'pinned';
  return 'partial';
}

/** Translation magnitude per node from a 6n displacement vector. */
export function translationMagnitudes(u: ArrayLike<number>, nNodes: number): Float64Array {
  const out = new Float64Array(nNodes);
  for (let i = 0; i < nNodes; i++) out[i] = Math.hypot(u[6 * i], u[6 * i + 1], u[6 * i + 2]);
  return out;
}

/** The scale that makes the largest translation `fraction` of the frame's size (1 when nothing moves). */
export function autoScale(u: ArrayLike<number>, nNodes: number, size: number, fraction = 0.15): number {
  let max = 0;
  for (const v of translationMagnitudes(u, nNodes)) max = Math.max(max, v);
  return max > 0 ? (fraction * size) / max : 1;
}

export interface ReactionRow {
  node: number;
  dof: number;
  name: string;
  value: number;
}

/** One row per fixed DOF, in node then DOF order. */
export function reactionRows(r: ArrayLike<number>, model: FrameModel): ReactionRow[] {
  const rows: ReactionRow[] = [];
  const n = model.node_coords.length;
  for (let node = 0; node < n; node++) {
    const flags = model.boundary_conditions[String(node)];
    if (!flags) continue;
    flags.forEach((f, d) => {
      if (f && d < 6) rows.push({ node, dof: d, name: REACTION_NAMES[d], value: r[6 * node + d] });
    });
  }
  return rows;
}

/** Local axes (rows x, y, z) of every element as the reference builds them; null where the element is degenerate. */
export function elementAxes(m: FrameModel): (number[][] | null)[] {
  return m.elements.map((e) => {
    const a = m.node_coords[e.node_i],
      b = m.node_coords[e.node_j];
    if (!a || !b) return null;
    try {
      const g = directionCosines(a[0], a[1], a[2], b[0], b[1], b[2], e.local_z ?? null);
      return [
        [g[0], g[1], g[2]],
        [g[3], g[4], g[5]],
        [g[6], g[7], g[8]],
      ];
    } catch {
      return null;
    }
  });
}

/** Engineering formatting: 6 significant digits, exponent beyond 1e±5. */
export function formatNumber(x: number, digits = 6): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  return a >= 1e-4 && a < 1e6 ? String(Number(x.toPrecision(digits))) : x.toExponential(digits - 1);
}

/**
 * The deformed frame as short straight pieces: each element is split into `segments` pieces whose points follow the
 * beam's cubic (Hermite) shape from the end translations and rotations (small rotations: the slope is θ × e_x).
 * Returns flat start/end xyz arrays and each piece's mean translation magnitude (for colouring).
 */
export function deformedPieces(
  m: FrameModel,
  u: ArrayLike<number>,
  scale: number,
  segments = 8,
): { starts: Float32Array; ends: Float32Array; magnitude: Float32Array; count: number } {
  const count = m.elements.length * segments;
  const starts = new Float32Array(3 * count),
    ends = new Float32Array(3 * count),
    magnitude = new Float32Array(count);
  const point = new Float64Array(3),
    disp = new Float64Array(3);
  const at = (e: FrameElementRow, s: number, out: Float64Array, d: Float64Array) => {
    const a = m.node_coords[e.node_i],
      b = m.node_coords[e.node_j];
    const L = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
    const ex = [(b[0] - a[0]) / L, (b[1] - a[1]) / L, (b[2] - a[2]) / L];
    const h1 = 1 - 3 * s * s + 2 * pow(s, 3),
      h2 = s - 2 * s * s + pow(s, 3),
      h3 = 3 * s * s - 2 * pow(s, 3),
      h4 = -s * s + pow(s, 3);
    const ia = 6 * e.node_i,
      ib = 6 * e.node_j;
    const ta = [u[ia + 3], u[ia + 4], u[ia + 5]],
      tb = [u[ib + 3], u[ib + 4], u[ib + 5]];
    const sa = [ta[1] * ex[2] - ta[2] * ex[1], ta[2] * ex[0] - ta[0] * ex[2], ta[0] * ex[1] - ta[1] * ex[0]];
    const sb = [tb[1] * ex[2] - tb[2] * ex[1], tb[2] * ex[0] - tb[0] * ex[2], tb[0] * ex[1] - tb[1] * ex[0]];
    for (let k = 0; k < 3; k++) {
      // axial part linear, transverse part cubic: split u_a, u_b into along-axis and across-axis parts
      d[k] = h1 * u[ia + k] + h3 * u[ib + k] + L * (h2 * sa[k] + h4 * sb[k]);
    }
    const axialA = u[ia] * ex[0] + u[ia + 1] * ex[1] + u[ia + 2] * ex[2];
    const axialB = u[ib] * ex[0] + u[ib + 1] * ex[1] + u[ib + 2] * ex[2];
    const cubicAxial = h1 * axialA + h3 * axialB,
      linearAxial = (1 - s) * axialA + s * axialB;
    for (let k = 0; k < 3; k++) {
      d[k] += (linearAxial - cubicAxial) * ex[k];
      out[k] = a[k] + s * (b[k] - a[k]) + scale * d[k];
    }
  };
  let p = 0;
  for (const e of m.elements) {
    for (let q = 0; q < segments; q++, p++) {
      at(e, q / segments, point, disp);
      starts.set(point, 3 * p);
      const m0 = Math.hypot(disp[0], disp[1], disp[2]);
      at(e, (q + 1) / segments, point, disp);
      ends.set(point, 3 * p);
      magnitude[p] = 0.5 * (m0 + Math.hypot(disp[0], disp[1], disp[2]));
    }
  }
  return { starts, ends, magnitude, count };
}
