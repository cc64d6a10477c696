/** Structured rectangle meshes on the half-step grid (fem-bench.md §5.5, §5.6). */
import { FemTaskError, type FemValue } from '../types.ts';
import { integer, scalar } from './input.ts';

interface Grid { xl: number; yl: number; dx: number; dy: number; nx: number; ny: number; npx: number; npy: number }

function grid(inputs: Record<string, FemValue>, boundsMessage: string): Grid {
  const xl = scalar(inputs.xl, 'xl'), yl = scalar(inputs.yl, 'yl');
  const xh = scalar(inputs.xh, 'xh'), yh = scalar(inputs.yh, 'yh');
  const nx = integer(inputs.nx, 'nx'), ny = integer(inputs.ny, 'ny');
  if (nx < 1 || ny < 1) throw new FemTaskError('ValueError', 'nx and ny must be ≥ 1');
  if (!(xl < xh) || !(yl < yh)) throw new FemTaskError('ValueError', boundsMessage);
  return { xl, yl, dx: (xh - xl) / nx, dy: (yh - yl) / ny, nx, ny, npx: 2 * nx + 1, npy: 2 * ny + 1 };
}

/** Tri6: every half-step grid point is a node; two triangles per cell split along BR→TL. */
export function tri6MeshRectangle(inputs: Record<string, FemValue>): FemValue {
  const g = grid(inputs, 'Domain extents must satisfy xl < xh and yl < yh');
  const coords: number[][] = [];
  for (let iy = 0; iy < g.npy; iy++) {
    for (let ix = 0; ix < g.npx; ix++) coords.push([g.xl + 0.5 * g.dx * ix, g.yl + 0.5 * g.dy * iy]);
  }
  const id = (ix: number, iy: number) => iy * g.npx + ix;
  const connect: number[][] = [];
  for (let cy = 0; cy < g.ny; cy++) {
    for (let cx = 0; cx < g.nx; cx++) {
      const x0 = 2 * cx, y0 = 2 * cy;
      connect.push([id(x0 + 2, y0), id(x0, y0 + 2), id(x0, y0), id(x0 + 1, y0 + 1), id(x0, y0 + 1), id(x0 + 1, y0)]);
      connect.push([id(x0 + 2, y0 + 2), id(x0, y0 + 2), id(x0 + 2, y0), id(x0 + 1, y0 + 2), id(x0 + 1, y0 + 1), id(x0 + 2, y0 + 1)]);
    }
  }
  return [coords, connect];
}

/** Q8: half-step grid without the cell centres, numbered row-major; one element per cell. */
export function quad8MeshRectangle(inputs: Record<string, FemValue>): FemValue {
  const g = grid(inputs, 'Domain bounds must satisfy xl < xh and yl < yh');
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
      const x0 = 2 * cx, y0 = 2 * cy;
      connect.push([
        id(x0, y0), id(x0 + 2, y0), id(x0 + 2, y0 + 2), id(x0, y0 + 2),
        id(x0 + 1, y0), id(x0 + 2, y0 + 1), id(x0 + 1, y0 + 2), id(x0, y0 + 1),
      ]);
    }
  }
  return [coords, connect];
}
