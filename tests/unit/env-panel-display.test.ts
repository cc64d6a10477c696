/**
 * The display pipeline's polyhedra from given neighbour lists (src/core/analysis/display-scene.ts `polyhedronNeighbors`,
 * the Local environment panel's "polyhedra from these neighbours"): rock salt's CrystalNN neighbours make an octahedron
 * (8 triangles, every vertex 2.82 Å from its centre) around every drawn copy of a site, boundary images and supercells
 * included, and the triangles do not depend on how the coordinates were written (wrapped or one cell off).
 */
import { describe, expect, it } from 'vitest';
import { type PolyhedronNeighbors, buildDisplay } from '../../src/core/analysis/display-scene.ts';
import { crystalNN } from '../../src/core/analysis/local-env/crystal-nn.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { packStructure } from '../../src/core/structure/packed.ts';
import { type Structure, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import { environmentView } from '../../src/core/tasks/crystallography/lab.ts';

const A = 5.64;
const NA_CL = A / 2;

/** Conventional rock salt; `shift` moves site k's written coordinates by whole cells (the same crystal). */
function rockSalt(shift: Record<number, [number, number, number]> = {}): Structure {
  const L = Lattice.cubic(A);
  const fcc: [number, number, number][] = [
    [0, 0, 0],
    [0.5, 0.5, 0],
    [0.5, 0, 0.5],
    [0, 0.5, 0.5],
  ];
  const frac = [...fcc, ...fcc.map(([x, y, z]): [number, number, number] => [(x + 0.5) % 1, y, z])];
  const sites = frac.map((f, k) =>
    makeSiteFromFrac(L, [0, 1, 2].map((ax) => f[ax] + (shift[k]?.[ax] ?? 0)) as [number, number, number], { [k < 4 ? 'Na' : 'Cl']: 1 }),
  );
  return { name: 'NaCl', lattice: L, sites };
}

/** Every site's CrystalNN neighbours as display lists. */
function allNeighbors(s: Structure): PolyhedronNeighbors {
  const nn = crystalNN(s);
  const start = new Uint32Array(nn.length + 1);
  nn.forEach((r, i) => (start[i + 1] = start[i] + r.neighbors.length));
  const flat = nn.flatMap((r) => r.neighbors);
  return { start, site: Uint32Array.from(flat, (nb) => nb.index), image: Int32Array.from(flat.flatMap((nb) => nb.image)) };
}

/** Per triangle, its centre atom's distance to each vertex (the centre: the drawn atom of that element nearest the triangle). */
function vertexDistances(d: ReturnType<typeof buildDisplay>): number[] {
  const out: number[] = [];
  for (let t = 0; t < d.polyElement.length; t++) {
    const tri = d.polyTriangles.subarray(9 * t, 9 * t + 9);
    const mid = [0, 1, 2].map((ax) => (tri[ax] + tri[3 + ax] + tri[6 + ax]) / 3);
    let best = Infinity,
      centre = -1;
    for (let i = 0; i < d.natoms; i++) {
      if (d.element[i] !== d.polyElement[t]) continue;
      const r = Math.hypot(...[0, 1, 2].map((ax) => d.positions[3 * i + ax] - mid[ax]));
      if (r < best) [best, centre] = [r, i];
    }
    for (let v = 0; v < 3; v++) out.push(Math.hypot(...[0, 1, 2].map((ax) => tri[3 * v + ax] - d.positions[3 * centre + ax])));
  }
  return out;
}

/** The triangles as sorted text at 0.1 mÅ, to compare two scenes. */
const triangleSet = (d: ReturnType<typeof buildDisplay>): string[] =>
  Array.from({ length: d.polyElement.length }, (_, t) =>
    [0, 1, 2]
      .map((v) => Array.from(d.polyTriangles.subarray(9 * t + 3 * v, 9 * t + 3 * v + 3), (x) => x.toFixed(4)).join(' '))
      .sort()
      .join(' | '),
  ).sort();

describe('polyhedra from neighbour lists', () => {
  it('draws an octahedron (8 triangles) around every drawn Na and Cl, boundary images included', () => {
    const s = rockSalt();
    const d = buildDisplay(packStructure(s), { bonds: false, polyhedra: true, polyhedronNeighbors: allNeighbors(s) });
    expect(d.natoms).toBe(27);
    expect(d.polyElement.length).toBe(8 * 27);
    for (const r of vertexDistances(d)) expect(r).toBeCloseTo(NA_CL, 4);
  });

  it('draws every copy of a supercell, and nothing without the polyhedra option', () => {
    const s = rockSalt();
    const neighbors = allNeighbors(s);
    const d = buildDisplay(packStructure(s), {
      supercell: [2, 1, 1],
      boundaryImages: false,
      bonds: true,
      polyhedra: true,
      polyhedronNeighbors: neighbors,
    });
    expect(d.natoms).toBe(16);
    expect(d.polyElement.length).toBe(8 * 16);
    expect(d.nbonds).toBeGreaterThan(0);
    expect(buildDisplay(packStructure(s), { polyhedra: false, polyhedronNeighbors: neighbors }).polyElement.length).toBe(0);
  });

  it('places the same triangles whether a site is written wrapped, one cell off or just below a face', () => {
    const plain = rockSalt();
    const shifted = rockSalt({ 0: [1, 0, -1], 5: [-1, 0, 0], 6: [0, 2, 0] });
    const wrapped = triangleSet(
      buildDisplay(packStructure(plain), { bonds: false, polyhedra: true, polyhedronNeighbors: allNeighbors(plain) }),
    );
    const off = triangleSet(
      buildDisplay(packStructure(shifted), { bonds: false, polyhedra: true, polyhedronNeighbors: allNeighbors(shifted) }),
    );
    expect(off).toEqual(wrapped);
  });

  it('refuses lists made for another number of sites', () => {
    const s = rockSalt();
    const lists = allNeighbors(s);
    const short = { ...lists, start: lists.start.subarray(0, 5) };
    expect(() => buildDisplay(packStructure(s), { polyhedra: true, polyhedronNeighbors: short })).toThrow(
      /for 4 sites, the structure has 8/,
    );
  });

  it('takes the Local environment panel’s lists: CrystalNN octahedra around the cation (Na), not the anion', () => {
    const s = rockSalt();
    const env = environmentView(s, 3.5, 'crystalnn');
    expect(env.coordination).toEqual([6, 6, 6, 6, 6, 6, 6, 6]);
    const d = buildDisplay(packStructure(s), { bonds: false, polyhedra: true, polyhedronNeighbors: env.polyhedra });
    const na = d.elements.indexOf('Na');
    const drawnNa = Array.from(d.element).filter((e) => e === na).length;
    expect(drawnNa).toBe(14);
    expect(d.polyElement.length).toBe(8 * drawnNa);
    expect(Array.from(d.polyElement).every((e) => e === na)).toBe(true);
  });
});
