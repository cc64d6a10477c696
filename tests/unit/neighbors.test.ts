/**
 * Cell-list neighbour search against an O(n² · images) brute force with no binning. Images are bounded by
 * Cauchy–Schwarz on each fractional component: (Δf + S)_k = d · (column k of L⁻¹), so |Δf_k + S_k| ≤
 * cutoff · |column k of L⁻¹| (+1 for safety); every image in that box is tried. Distances must agree to 1e-9 Å and the pair sets exactly.
 */
import { describe, expect, it } from 'vitest';
import { type Mat3, inverse } from '../../src/core/math/mat3.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { findNeighbors, findNeighborsRaw, type NeighborList } from '../../src/core/structure/neighbors.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { corpusFileNames, readCorpusGolden } from '../../scripts/support/paths.ts';
import { mulberry32 } from '../../scripts/support/random.ts';

/** Canonical key of a pair: i < j, or for i == j the image whose first non-zero component is positive. */
function canonical(i: number, j: number, s: [number, number, number]): string {
  if (i > j || (i === j && (s[0] < 0 || (s[0] === 0 && (s[1] < 0 || (s[1] === 0 && s[2] < 0)))))) {
    return `${j},${i},${-s[0]},${-s[1]},${-s[2]}`;
  }
  return `${i},${j},${s[0]},${s[1]},${s[2]}`;
}

function bruteForce(pos: Float64Array, L: Mat3 | null, cutoff: number): Map<string, number> {
  const n = pos.length / 3;
  const out = new Map<string, number>();
  const P = (k: number): [number, number, number] => [pos[3 * k], pos[3 * k + 1], pos[3 * k + 2]];
  if (!L) {
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const [a, b] = [P(i), P(j)];
        const d = Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
        if (d < cutoff) out.set(canonical(i, j, [0, 0, 0]), d);
      }
    return out;
  }
  const inv = inverse(L);
  const bound = [0, 1, 2].map((k) => cutoff * Math.hypot(inv[0][k], inv[1][k], inv[2][k]) + 1);
  for (let i = 0; i < n; i++)
    for (let j = i; j < n; j++) {
      const a = P(i),
        b = P(j);
      const d0 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const df = [0, 1, 2].map((k) => d0[0] * inv[0][k] + d0[1] * inv[1][k] + d0[2] * inv[2][k]);
      const lo = df.map((f, k) => Math.ceil(-f - bound[k]));
      const hi = df.map((f, k) => Math.floor(-f + bound[k]));
      for (let s0 = lo[0]; s0 <= hi[0]; s0++)
        for (let s1 = lo[1]; s1 <= hi[1]; s1++)
          for (let s2 = lo[2]; s2 <= hi[2]; s2++) {
            if (i === j && s0 === 0 && s1 === 0 && s2 === 0) continue;
            const x = d0[0] + s0 * L[0][0] + s1 * L[1][0] + s2 * L[2][0];
            const y = d0[1] + s0 * L[0][1] + s1 * L[1][1] + s2 * L[2][1];
            const z = d0[2] + s0 * L[0][2] + s1 * L[1][2] + s2 * L[2][2];
            const d = Math.hypot(x, y, z);
            if (d < cutoff) out.set(canonical(i, j, [s0, s1, s2]), d);
          }
    }
  return out;
}

function expectSame(found: NeighborList, expected: Map<string, number>, cutoff: number): void {
  const got = new Map<string, number>();
  for (let m = 0; m < found.i.length; m++) {
    const i = found.i[m],
      j = found.j[m];
    const s: [number, number, number] = [found.image[3 * m], found.image[3 * m + 1], found.image[3 * m + 2]];
    // Output convention: i <= j, self pairs only with the "positive" image.
    expect(i <= j).toBe(true);
    const key = canonical(i, j, s);
    expect(key).toBe(`${i},${j},${s[0]},${s[1]},${s[2]}`);
    expect(got.has(key), `duplicate pair ${key}`).toBe(false);
    got.set(key, found.distance[m]);
  }
  // Pairs within 1e-9 of the cutoff may fall either way through rounding.
  const near = (d: number) => Math.abs(d - cutoff) < 1e-9;
  for (const [key, d] of expected) {
    if (near(d)) continue;
    expect(got.has(key), `missing pair ${key} at ${d}`).toBe(true);
    expect(Math.abs(got.get(key)! - d)).toBeLessThan(1e-9);
  }
  for (const [key, d] of got) if (!near(d)) expect(expected.has(key), `extra pair ${key} at ${d}`).toBe(true);
}

function randomCase(rand: () => number, L: Mat3 | null, n: number, spread = 1): Float64Array {
  const pos = new Float64Array(3 * n);
  for (let a = 0; a < n; a++) {
    // Fractional coordinates partly outside [0, 1) to exercise wrapping and image bookkeeping.
    const f = [0, 1, 2].map(() => (rand() * 2 - 0.5) * spread);
    for (let k = 0; k < 3; k++) pos[3 * a + k] = L ? f[0] * L[0][k] + f[1] * L[1][k] + f[2] * L[2][k] : f[k] * 10;
  }
  return pos;
}

describe('findNeighborsRaw vs brute force', () => {
  const rand = mulberry32(12345);
  it('random triclinic cells, cutoffs below and above the cell widths', () => {
    for (let t = 0; t < 40; t++) {
      const lat = Lattice.fromParameters(
        3 + 6 * rand(),
        3 + 6 * rand(),
        3 + 6 * rand(),
        60 + 60 * rand(),
        60 + 60 * rand(),
        60 + 60 * rand(),
      );
      const n = 1 + Math.floor(rand() * 30);
      const pos = randomCase(rand, lat.matrix, n);
      const cutoff = 0.5 + rand() * (t % 4 === 0 ? 12 : 5);
      expectSame(findNeighborsRaw(pos, lat.matrix, cutoff), bruteForce(pos, lat.matrix, cutoff), cutoff);
    }
  });

  it('very skewed cells (sheared bases, angles near 20° and 160°)', () => {
    const cells: Mat3[] = [
      [
        [5, 0, 0],
        [4.8, 0.6, 0],
        [4.7, 0.4, 0.5],
      ],
      [
        [3, 0, 0],
        [-2.9, 0.8, 0],
        [0.2, 0.3, 7],
      ],
      Lattice.fromParameters(4, 5, 6, 20, 25, 22).matrix,
      Lattice.fromParameters(4, 5, 6, 150, 100, 100).matrix,
      [
        [10, 0, 0],
        [0, 10, 0],
        [9.5, 9.5, 0.8],
      ],
    ];
    for (const [t, L] of cells.entries()) {
      for (const cutoff of [0.7, 2.5, 6]) {
        // The brute force tries ~ (2·cutoff/width)³ images per pair; keep it to a few million checks.
        const pos = randomCase(rand, L, t === 0 && cutoff > 3 ? 3 : 6 + t * 2);
        expectSame(findNeighborsRaw(pos, L, cutoff), bruteForce(pos, L, cutoff), cutoff);
      }
    }
  });

  it('finite structures (no lattice), including flat and single-atom sets', () => {
    for (let t = 0; t < 20; t++) {
      const n = 1 + Math.floor(rand() * 80);
      const pos = randomCase(rand, null, n);
      if (t % 5 === 0) for (let a = 0; a < n; a++) pos[3 * a + 2] = 1.5; // planar
      const cutoff = 0.5 + rand() * 6;
      expectSame(findNeighborsRaw(pos, null, cutoff), bruteForce(pos, null, cutoff), cutoff);
    }
  });

  it('single atom in a small cell sees its own images once per ± pair', () => {
    const L: Mat3 = [
      [2, 0, 0],
      [0, 2, 0],
      [0, 0, 2],
    ];
    const nl = findNeighborsRaw(new Float64Array([0.3, 0.1, 1.9]), L, 2.5);
    // Images at distance 2 (6 of them, 3 pairs) and 2√2 > 2.5? no: 2.83 > 2.5, so 3 pairs.
    expect(nl.i.length).toBe(3);
    expect(Array.from(nl.distance)).toEqual([2, 2, 2].map((d) => expect.closeTo(d, 12)));
  });

  it('rejects bad input with clear messages', () => {
    expect(() => findNeighborsRaw(new Float64Array(3), null, 0)).toThrow(/cutoff/);
    expect(() =>
      findNeighborsRaw(
        new Float64Array(3),
        [
          [1, 0, 0],
          [2, 0, 0],
          [0, 0, 1],
        ],
        1,
      ),
    ).toThrow(/singular/);
    expect(findNeighborsRaw(new Float64Array(0), null, 2).i.length).toBe(0);
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function structureFromGolden(g: any): Structure {
  const { a, b, c, alpha, beta, gamma } = g.lattice;
  const lattice = Lattice.fromParameters(a, b, c, alpha, beta, gamma);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const sites = g.sites.map((s: any) => ({ species: { X: 1 }, frac: s.frac, xyz: lattice.fracToCart(s.frac) }));
  return { name: 'golden', lattice, sites };
}

describe('findNeighbors on corpus structures (golden lattice + fractional coordinates)', () => {
  const structures: [string, Structure][] = [];
  for (const file of corpusFileNames()) {
    const pmg = readCorpusGolden(file).pymatgen;
    if (!pmg?.ok) continue;
    (pmg.structures ?? []).forEach((s: { n_sites: number; lattice: { volume: number } }, k: number) => {
      // Keep the brute force affordable; the superflat cell (1.6e-6 Å³) is tested separately.
      if (s.n_sites <= 250 && s.lattice.volume > 1) structures.push([`${file}#${k}`, structureFromGolden(s)]);
    });
  }
  it('has structures', () => expect(structures.length).toBeGreaterThan(50));
  it('refuses the superflat cell (volume 1.6e-6 Å³) with a message instead of hanging', () => {
    const g = readCorpusGolden('pmg-bad_superflat_inf_loop.cif').pymatgen.structures[0];
    expect(() => findNeighbors(structureFromGolden(g), 3.2)).toThrow(/refused.*volume/);
  });
  it.each(structures)('%s', (_name, s) => {
    const cutoff = 3.2;
    const pos = new Float64Array(s.sites.flatMap((site) => site.xyz));
    expectSame(findNeighbors(s, cutoff), bruteForce(pos, s.lattice!.matrix, cutoff), cutoff);
  });
});
