/**
 * hullFacets (src/core/analysis/facets.ts) against independent geometry: a block of a triclinic lattice has exactly
 * the six cell faces, indexed (±1 0 0), (0 ±1 0), (0 0 ±1), with areas |b × c|·n₂n₃ etc.; a cubic crystal's facet
 * normals lie along their (hkl) read as Cartesian directions (G ∝ hkl for a cube), with the {100} family largest on a
 * carved R = 15 Å SrTiO3 sphere; and turning the particle turns no index.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hullFacets, millerLabel } from '../../src/core/analysis/facets.ts';
import { convexHullTriangles } from '../../src/core/analysis/hull.ts';
import { type Vec3, cross, dot, norm } from '../../src/core/math/mat3.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { carveParticle } from '../../src/core/tasks/c2np/carve.ts';
import { applyRotation, quaternionToMatrix } from '../../src/core/tasks/c2np/rotation.ts';

const DATASETS = join(import.meta.dirname, '..', '..', 'datasets');
const angle = (u: Vec3, v: Vec3) => (Math.acos(Math.min(1, Math.max(-1, dot(u, v) / (norm(u) * norm(v))))) * 180) / Math.PI;

function readDataset(name: string): Structure {
  const r = parseStructureFile(readFileSync(join(DATASETS, name), 'utf8'), name);
  if (!r.ok) throw new Error(r.error);
  return r.structures[0];
}

describe('hullFacets', () => {
  it('a 3×4×5 block of a triclinic lattice: the six cell faces with their indices and areas', () => {
    const lattice = Lattice.fromParameters(3.1, 4.2, 5.3, 75, 82, 101);
    const [a, b, c] = lattice.matrix;
    const n = [3, 4, 5];
    const points: Vec3[] = [];
    for (let i = 0; i <= n[0]; i++)
      for (let j = 0; j <= n[1]; j++)
        for (let k = 0; k <= n[2]; k++) points.push([0, 1, 2].map((x) => i * a[x] + j * b[x] + k * c[x]) as Vec3);
    const facets = hullFacets(points, convexHullTriangles(points), lattice, null);
    expect(facets.length).toBe(6);
    const byLabel = new Map(facets.map((f) => [millerLabel(f.hkl!), f]));
    const faceArea = (u: Vec3, v: Vec3, m: number) => norm(cross(u, v)) * m;
    const expected: [string, number][] = [
      ['(1 0 0)', faceArea(b, c, n[1] * n[2])],
      ['(-1 0 0)', faceArea(b, c, n[1] * n[2])],
      ['(0 1 0)', faceArea(a, c, n[0] * n[2])],
      ['(0 -1 0)', faceArea(a, c, n[0] * n[2])],
      ['(0 0 1)', faceArea(a, b, n[0] * n[1])],
      ['(0 0 -1)', faceArea(a, b, n[0] * n[1])],
    ];
    for (const [label, area] of expected) {
      const f = byLabel.get(label);
      expect(f, label).toBeDefined();
      expect(f!.area).toBeCloseTo(area, 8);
      expect(f!.misfit!).toBeLessThan(1e-6);
    }
    // The (1 0 0) face is the one spanned by b and c on the far side of a: its normal ⟂ b and c, along +a's side.
    const f100 = byLabel.get('(1 0 0)')!;
    expect(Math.abs(dot(f100.normal, b))).toBeLessThan(1e-9);
    expect(Math.abs(dot(f100.normal, c))).toBeLessThan(1e-9);
    expect(dot(f100.normal, a)).toBeGreaterThan(0);
  });

  const srtio3 = readDataset('SrTiO3.cif');
  const carved = carveParticle(srtio3, { radius: 15 });
  const cell = new Lattice(carved.cell);

  it('SrTiO3 R = 15 Å (cubic): every indexed facet lies along its (hkl); the six largest are the {100} family', () => {
    const facets = hullFacets(carved.positions, convexHullTriangles(carved.positions), cell, null);
    const indexed = facets.filter((f) => f.hkl !== null);
    expect(indexed.length).toBeGreaterThan(20);
    for (const f of indexed) expect(angle(f.normal, f.hkl!), millerLabel(f.hkl!)).toBeLessThan(3);
    const top = facets.slice(0, 6).map((f) => f.hkl!.map(Math.abs).sort().join(''));
    expect(top).toEqual(Array(6).fill('001'));
    expect(indexed.some((f) => f.hkl!.every((x) => Math.abs(x) === 1))).toBe(true); // {111} facets too
  });

  it('turning the particle turns no index: the same (hkl) and areas', () => {
    const m = quaternionToMatrix([0.18257418583505536, 0.3651483716701107, 0.5477225575051661, 0.7302967433402214]);
    const turned = applyRotation(m, carved.positions);
    const plain = hullFacets(carved.positions, convexHullTriangles(carved.positions), cell, null);
    const rotated = hullFacets(turned, convexHullTriangles(turned), cell, m);
    const key = (fs: typeof plain) =>
      fs
        .filter((f) => f.hkl)
        .map((f) => `${millerLabel(f.hkl!)} ${f.area.toFixed(6)}`)
        .sort();
    expect(key(rotated)).toEqual(key(plain));
  });
});
