/**
 * The shortest-vector search of the matcher (kernels/match.ts, through shortest-vectors.ts on the matcher's workspace)
 * against the definition it implements, pymatgen's `pbc_shortest_vectors` with `lll_frac_tol` (pymatgen/util/
 * coord_cython.pyx): for every allowed (row, column) pair whose LLL-fractional difference is within the box on each
 * axis, the first minimum over the 27 images (−1, 0, 1)³ of the wrapped Cartesian difference; 1e20 and no vector for
 * every other pair. Checked bit for bit on cells above and below the column grid's threshold (40 sites), with one to
 * three site classes, narrow and axis-spanning boxes, more columns than rows, and several searches on one workspace
 * (each row sets back only what it listed before).
 */
import { describe, expect, it } from 'vitest';
import type { Mat3 } from '../../src/core/math/mat3.ts';
import { mulberry32 } from '../../src/core/math/random.ts';
import { PARAM, matcherWorkspace } from '../../src/core/match/matcher-workspace.ts';
import {
  columnClasses,
  imageSearch,
  prepareVectorSearch,
  shortestVectors,
  useColumnClasses,
} from '../../src/core/match/shortest-vectors.ts';

const toNearestInteger = (x: number) => {
  const y = x - Math.floor(x);
  return y > 0.5 ? 1 - y : y;
};

/** Fractions wrapped into [0, 1) and their Cartesian positions, as the search computes them from LLL fractions. */
function sitesOf(frac: Float64Array, L: Mat3) {
  const n = frac.length / 3;
  const wrapped = frac.map((x) => x - Math.floor(x));
  const cart = new Float64Array(3 * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < 3; k++) cart[3 * i + k] = wrapped[3 * i] * L[0][k] + wrapped[3 * i + 1] * L[1][k] + wrapped[3 * i + 2] * L[2][k];
  return { wrapped, cart };
}

describe('the shortest-vector search against pbc_shortest_vectors', () => {
  it('gives every pair its first shortest image inside the box, and 1e20 outside, bit for bit', () => {
    const rand = mulberry32(20261204);
    let pairsInBox = 0,
      pairsOutside = 0,
      gridded = 0;
    for (let trial = 0; trial < 24; trial++) {
      const n1 = [12, 45, 90, 160][trial % 4];
      const n2 = trial % 3 === 2 ? n1 - 1 - Math.floor(rand() * 5) : n1;
      const L: Mat3 = [
        [4 + 6 * rand(), 0.5 * rand(), 0.3 * rand()],
        [0.7 * rand(), 4 + 6 * rand(), 0.2 * rand()],
        [0.4 * rand(), 0.6 * rand(), 4 + 6 * rand()],
      ];
      const classCount = 1 + (trial % 3);
      const keys1 = Array.from({ length: n1 }, () => `X${Math.floor(rand() * classCount)}`);
      const keys2 = Array.from({ length: n2 }, () => `X${Math.floor(rand() * classCount)}`);
      const mask = new Uint8Array(n2 * n1);
      for (let i = 0; i < n2; i++) for (let j = 0; j < n1; j++) mask[i * n1 + j] = keys2[i] === keys1[j] ? 0 : 1;
      const classes = columnClasses(keys1, mask, n2);
      const ws = matcherWorkspace(n1, n2, classes.count, classes.allowed.length);
      useColumnClasses(ws, classes, mask);
      // The LLL basis is the lattice itself (toLll the identity); narrow boxes use the grid, wide ones span an axis.
      const tol = [0.04 + 0.1 * rand(), 0.1 + 0.3 * rand(), trial % 5 === 0 ? 0.7 : 0.05 + 0.4 * rand()];
      const images = imageSearch(L);
      ws.params.set(tol, PARAM.lllFracTol);
      ws.params.set([1, 0, 0, 0, 1, 0, 0, 0, 1], PARAM.toLll);
      ws.params.set(L.flat(), PARAM.lllMatrix);
      ws.params.set(images.cart, PARAM.images);
      const frac1 = Float64Array.from({ length: 3 * n1 }, () => 3 * rand() - 1);
      ws.frac1.set(frac1);
      const search = prepareVectorSearch(ws, images);
      if (search.cells[0] * search.cells[1] * search.cells[2] > 1) gridded++;
      const one = sitesOf(frac1, L);
      // Several translated rows on the same workspace: a row sets back what it found the time before.
      for (let round = 0; round < 3; round++) {
        const frac2 = Float64Array.from({ length: 3 * n2 }, () => 3 * rand() - 1);
        new Float64Array(ws.k.memory.buffer, ws.at.translated2, 3 * n2).set(frac2);
        shortestVectors(ws, search);
        const buffer = ws.k.memory.buffer;
        const d2 = new Float64Array(buffer, ws.at.d2, n2 * n1),
          vecs = new Float64Array(buffer, ws.at.vecs, 3 * n2 * n1),
          inBox = new Uint8Array(buffer, ws.at.inBox, n2 * n1);
        const two = sitesOf(frac2, L);
        for (let i = 0; i < n2; i++)
          for (let j = 0; j < n1; j++) {
            const ij = i * n1 + j;
            const inside = mask[ij] === 0 && [0, 1, 2].every((k) => toNearestInteger(frac1[3 * j + k] - frac2[3 * i + k]) <= tol[k]);
            if (!inside) {
              pairsOutside++;
              if (d2[ij] !== 1e20 || inBox[ij] !== 0) expect.fail(`trial ${trial} round ${round}: pair (${i}, ${j}) is outside the box`);
              continue;
            }
            pairsInBox++;
            const p = [0, 1, 2].map((k) => one.cart[3 * j + k] - two.cart[3 * i + k]);
            let best = 1e100,
              bestV = [0, 0, 0];
            for (let x = 0; x < 27; x++) {
              const v = p.map((c, k) => c + images.cart[3 * x + k]);
              const d = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
              if (d < best) {
                best = d;
                bestV = v;
              }
            }
            const got = [d2[ij], vecs[3 * ij], vecs[3 * ij + 1], vecs[3 * ij + 2]];
            if (inBox[ij] !== 1 || !got.every((g, k) => Object.is(g, [best, ...bestV][k])))
              expect.fail(`trial ${trial} round ${round}: pair (${i}, ${j}) ${got} against ${[best, ...bestV]}`);
          }
      }
    }
    expect(gridded).toBeGreaterThan(5);
    expect(pairsInBox).toBeGreaterThan(10_000);
    expect(pairsOutside).toBeGreaterThan(10_000);
  });
});
