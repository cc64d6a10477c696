/** Q8 / T6 rectangle meshes for the 2D view: the reference mesh generators, Gauss points, shape functions and det J. */
import { quad8MeshRectangle, tri6MeshRectangle } from '../fem/mesh2d.ts';
import { quadQuadrature, triQuadrature } from '../fem/quadrature.ts';
import { quad8At, tri6At, type ShapeAtPoint } from '../fem/shape.ts';

export type ElementKind = 'Q8' | 'T6';
export interface Mesh2D {
  kind: ElementKind;
  coords: number[][];
  connect: number[][];
}
export interface RectangleSpec {
  kind: ElementKind;
  nx: number;
  ny: number;
  xl: number;
  yl: number;
  xh: number;
  yh: number;
}

/** Largest nx·ny the 2D view draws (every node and element is labelled). */
export const MAX_2D_CELLS = 400;

export function rectangleMesh(s: RectangleSpec): Mesh2D {
  if (!(Number.isInteger(s.nx) && Number.isInteger(s.ny) && s.nx >= 1 && s.ny >= 1))
    throw new Error('nx and ny must be whole numbers ≥ 1.');
  if (s.nx * s.ny > MAX_2D_CELLS) throw new Error(`At most ${MAX_2D_CELLS} cells (nx·ny) are drawn; got ${s.nx * s.ny}.`);
  const inputs = { xl: s.xl, yl: s.yl, xh: s.xh, yh: s.yh, nx: s.nx, ny: s.ny };
  const [coords, connect] = (s.kind === 'Q8' ? quad8MeshRectangle(inputs) : tri6MeshRectangle(inputs)) as [number[][], number[][]];
  return { kind: s.kind, coords, connect };
}

export const shapeAt = (kind: ElementKind, xi: number, eta: number): ShapeAtPoint => (kind === 'Q8' ? quad8At(xi, eta) : tri6At(xi, eta));

/** Rules the reference offers: Q8 takes 1, 4, 9 points; T6 takes 1, 3, 4. */
export const RULES: Record<ElementKind, number[]> = { Q8: [1, 4, 9], T6: [1, 3, 4] };

export function rule(kind: ElementKind, n: number): number[][] {
  return (kind === 'Q8' ? quadQuadrature(n) : triQuadrature(n)).points;
}

/** Physical position and det J of one element at a natural point. */
export function mapPoint(mesh: Mesh2D, element: number, xi: number, eta: number): { x: number; y: number; detJ: number } {
  const { N, dN } = shapeAt(mesh.kind, xi, eta);
  let x = 0,
    y = 0,
    j11 = 0,
    j12 = 0,
    j21 = 0,
    j22 = 0;
  mesh.connect[element].forEach((node, a) => {
    const [px, py] = mesh.coords[node];
    x += N[a] * px;
    y += N[a] * py;
    j11 += dN[a][0] * px;
    j12 += dN[a][0] * py;
    j21 += dN[a][1] * px;
    j22 += dN[a][1] * py;
  });
  return { x, y, detJ: j11 * j22 - j12 * j21 };
}

/** Gauss points of the chosen rule in physical coordinates, element by element. */
export function gaussPoints(mesh: Mesh2D, n: number): { element: number; x: number; y: number; detJ: number }[] {
  const pts = rule(mesh.kind, n);
  const out: { element: number; x: number; y: number; detJ: number }[] = [];
  mesh.connect.forEach((_, e) => {
    for (const [xi, eta] of pts) out.push({ element: e, ...mapPoint(mesh, e, xi, eta) });
  });
  return out;
}

export interface JacobianCheck {
  element: number;
  min: number;
  max: number;
  inverted: boolean;
}

/**
 * det J per element at the rule's points and the element's nodes (natural coordinates): an element whose det J
 * is ≤ 0 anywhere sampled is inverted (or degenerate) and is flagged.
 */
export function jacobianChecks(mesh: Mesh2D, n: number): JacobianCheck[] {
  const nodesNatural =
    mesh.kind === 'Q8'
      ? [
          [-1, -1],
          [1, -1],
          [1, 1],
          [-1, 1],
          [0, -1],
          [1, 0],
          [0, 1],
          [-1, 0],
        ]
      : [
          [1, 0],
          [0, 1],
          [0, 0],
          [0.5, 0.5],
          [0, 0.5],
          [0.5, 0],
        ];
  const samples = [...rule(mesh.kind, n), ...nodesNatural];
  return mesh.connect.map((_, e) => {
    let min = Infinity,
      max = -Infinity;
    for (const [xi, eta] of samples) {
      const d = mapPoint(mesh, e, xi, eta).detJ;
      min = Math.min(min, d);
      max = Math.max(max, d);
    }
    return { element: e, min, max, inverted: !(min > 0) };
  });
}

/** Samples shape function `a` over element `e`: triangles of physical points with N_a values (a res×res grid in natural space). */
export function shapeFunctionSamples(mesh: Mesh2D, e: number, a: number, res = 16): { x: number; y: number; value: number }[][] {
  const rows: { x: number; y: number; value: number }[][] = [];
  for (let i = 0; i <= res; i++) {
    const row: { x: number; y: number; value: number }[] = [];
    for (let j = 0; j <= res; j++) {
      let xi: number, eta: number;
      if (mesh.kind === 'Q8') {
        xi = -1 + (2 * j) / res;
        eta = -1 + (2 * i) / res;
      } else {
        // the triangle ξ, η ≥ 0, ξ + η ≤ 1 by a collapsed square
        const s = j / res,
          t = i / res;
        xi = s * (1 - t);
        eta = t;
      }
      const p = mapPoint(mesh, e, xi, eta);
      row.push({ x: p.x, y: p.y, value: shapeAt(mesh.kind, xi, eta).N[a] });
    }
    rows.push(row);
  }
  return rows;
}

/** Edges of an element for drawing: corner→mid→corner polylines (curved when mid-nodes move). */
export function elementOutline(mesh: Mesh2D, e: number): number[] {
  const c = mesh.connect[e];
  return mesh.kind === 'Q8' ? [c[0], c[4], c[1], c[5], c[2], c[6], c[3], c[7], c[0]] : [c[0], c[3], c[1], c[4], c[2], c[5], c[0]];
}
