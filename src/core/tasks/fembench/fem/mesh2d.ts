/** Structured rectangle meshes on the half-step grid (elejeune11/FEM-bench reference functions). */
import { FemTaskError, type FemValue } from '../types.ts';
import { checkFemSize, pyTypeName } from '../sizes.ts';
import { scalar } from './input.ts';
import { groupedNumber } from '../../../limits.ts';

interface Grid {
  xl: number;
  yl: number;
  dx: number;
  dy: number;
  nx: number;
  ny: number;
  npx: number;
  npy: number;
}

/** `nx < 1`: Python compares numbers (and bools) with an int; anything else is a TypeError. */
function comparable(v: FemValue | undefined): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  throw new FemTaskError('TypeError', `'<' not supported between instances of '${pyTypeName(v)}' and 'int'`);
}

/**
 * The reference's order: `nx < 1 or ny < 1` (ValueError), then the bounds, then the grid is allocated
 * from 2·nx + 1 points, where a non-integer count fails in NumPy (tri6: np.arange(nan | inf) is a
 * ValueError, np.empty((2·2.5·ny, 6)) a TypeError; quad8 allocates np.empty((Nnodes, 2)) first: TypeError).
 */
function grid(inputs: Record<string, FemValue>, boundsMessage: string, kind: 'tri6' | 'quad8'): Grid {
  const nxValue = comparable(inputs.nx);
  if (nxValue < 1) throw new FemTaskError('ValueError', 'nx and ny must be ≥ 1');
  const nyValue = comparable(inputs.ny);
  if (nyValue < 1) throw new FemTaskError('ValueError', 'nx and ny must be ≥ 1');
  const xl = scalar(inputs.xl, 'xl'),
    yl = scalar(inputs.yl, 'yl');
  const xh = scalar(inputs.xh, 'xh'),
    yh = scalar(inputs.yh, 'yh');
  if (!(xl < xh) || !(yl < yh)) throw new FemTaskError('ValueError', boundsMessage);
  for (const n of [nxValue, nyValue]) {
    if (Number.isInteger(n)) continue;
    if (kind === 'tri6' && Number.isNaN(n)) throw new FemTaskError('ValueError', 'arange: cannot compute length');
    if (kind === 'tri6' && !Number.isFinite(n)) throw new FemTaskError('ValueError', 'Maximum allowed size exceeded');
    throw new FemTaskError('TypeError', "'float' object cannot be interpreted as an integer");
  }
  const nx = nxValue,
    ny = nyValue;
  checkFemSize('femElements', `a ${groupedNumber(nx)} × ${groupedNumber(ny)} mesh`, nx * ny, 'cells');
  return { xl, yl, dx: (xh - xl) / nx, dy: (yh - yl) / ny, nx, ny, npx: 2 * nx + 1, npy: 2 * ny + 1 };
}

/** Tri6: every half-step grid point is a node; two triangles per cell split along BR→TL. */
export function tri6MeshRectangle(inputs: Record<string, FemValue>): FemValue {
  const g = grid(inputs, 'Domain extents must satisfy xl < xh and yl < yh', 'tri6');
  const coords: number[][] = [];
  for (let iy = 0; iy < g.npy; iy++) {
    for (let ix = 0; ix < g.npx; ix++) coords.push([g.xl + 0.5 * g.dx * ix, g.yl + 0.5 * g.dy * iy]);
  }
  const id = (ix: number, iy: number) => iy * g.npx + ix;
  const connect: number[][] = [];
  for (let cy = 0; cy < g.ny; cy++) {
    for (let cx = 0; cx < g.nx; cx++) {
      const x0 = 2 * cx,
        y0 = 2 * cy;
      connect.push([id(x0 + 2, y0), id(x0, y0 + 2), id(x0, y0), id(x0 + 1, y0 + 1), id(x0, y0 + 1), id(x0 + 1, y0)]);
      connect.push([id(x0 + 2, y0 + 2), id(x0, y0 + 2), id(x0 + 2, y0), id(x0 + 1, y0 + 2), id(x0 + 1, y0 + 1), id(x0 + 2, y0 + 1)]);
    }
  }
  return [coords, connect];
}

/** Q8: half-step grid without the cell centres, numbered row-major; one element per cell. */
export function quad8MeshRectangle(inputs: Record<string, FemValue>): FemValue {
  const g = grid(inputs, 'Domain bounds must satisfy xl < xh and yl < yh', 'quad8');
  const coords: number[][] = [];
  const ids = new Map<number, number>();
  for (let iy = 0; iy < g.npy; iy++) {
    for (let ix = 0; ix < g.npx; ix++) {
      if (ix % 2 === 1 && iy % 2 === 1) continue;
      ids.set(iy * g.npx + ix, coords.length);
      coords.push([g.xl + 0.5 * g.dx * ix, g.yl + 0.5 * g.dy * iy]);
    }
  }
  const id = (ix: number, iy: number) => ids.get(iy * g.npx + ix)!;
  const connect: number[][] = [];
  for (let cy = 0; cy < g.ny; cy++) {
    for (let cx = 0; cx < g.nx; cx++) {
      const x0 = 2 * cx,
        y0 = 2 * cy;
      connect.push([
        id(x0, y0),
        id(x0 + 2, y0),
        id(x0 + 2, y0 + 2),
        id(x0, y0 + 2),
        id(x0 + 1, y0),
        id(x0 + 2, y0 + 1),
        id(x0 + 1, y0 + 2),
        id(x0, y0 + 1),
      ]);
    }
  }
  return [coords, connect];
}
