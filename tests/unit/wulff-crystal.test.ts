/**
 * The Wulff shape of a crystal (src/core/tasks/c2np/wulff-crystal.ts) against pymatgen 2022.11.7's WulffShape
 * (tests/reference/golden/clusters/wulff-shapes.json, scripts/make-wulff-goldens.py): per family the area fraction and
 * whether it is on the shape, and the volume, area, shape factor, weighted energy, anisotropy and effective radius;
 * against solids known by hand (cube, octahedron, hexagonal prism); family sizes of point groups; the surface-energy
 * readers (typed, Materials Project JSON, CSV) and every refusal. The filled particle (fillWulff) against octahedral and
 * cuboctahedral magic numbers and against an independent count of the sites of a large block inside the planes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { LimitError, overrideLimits, resetLimits } from '../../src/core/limits.ts';
import { type Vec3, cross, dot, sub } from '../../src/core/math/mat3.ts';
import { ClusterError } from '../../src/core/structure/clusters/common.ts';
import { type SurfaceEnergy, parseSurfaceEnergies } from '../../src/core/structure/clusters/surface-energies.ts';
import type { WulffRounding } from '../../src/core/structure/clusters/wulff.ts';
import { type WulffShape, type WulffSymmetry, wulffShapeOf } from '../../src/core/tasks/c2np/wulff-crystal.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type Structure, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import { type WulffFillOptions, fillWulff } from '../../src/core/tasks/c2np/shapes.ts';

interface GoldenCrystal {
  spacegroup: string;
  lattice: number[][];
  species: string[];
  frac: number[][];
}
interface GoldenCase {
  crystal: string;
  symmetry: WulffSymmetry;
  millers: number[][];
  energies: number[];
  area_fraction: number[];
  on_wulff: boolean[];
  volume: number;
  surface_area: number;
  shape_factor: number;
  weighted_surface_energy: number;
  anisotropy: number;
  effective_radius: number;
  tot_corner_sites: number;
  tot_edges: number;
}
const golden: { crystals: Record<string, GoldenCrystal>; cases: GoldenCase[] } = JSON.parse(
  readFileSync(join(REFERENCE, 'golden', 'clusters', 'wulff-shapes.json'), 'utf8'),
);

function crystal(name: string): Structure {
  const c = golden.crystals[name];
  const lattice = new Lattice(c.lattice);
  return { name, lattice, sites: c.species.map((el, i) => makeSiteFromFrac(lattice, c.frac[i] as Vec3, { [el]: 1 })) };
}

const energies = (text: string): SurfaceEnergy[] => parseSurfaceEnergies(text);
const family = (w: WulffShape, label: string) => w.families.find((f) => f.label === label)!;

describe('wulffShapeOf against pymatgen 2022.11.7 WulffShape', () => {
  let worstFraction = 0;
  it.each(golden.cases.map((c, i) => [`${i}: ${c.crystal} ${c.millers.map((m) => m.join('')).join(' ')}`, c] as const))('%s', (_, c) => {
    const w = wulffShapeOf(
      crystal(c.crystal),
      c.millers.map((miller, i) => ({ miller, energy: c.energies[i] })),
      { symmetry: c.symmetry },
    );
    w.families.forEach((f, i) => {
      expect(Math.abs(f.areaFraction - c.area_fraction[i]), f.label).toBeLessThan(1e-6);
      worstFraction = Math.max(worstFraction, Math.abs(f.areaFraction - c.area_fraction[i]));
      expect(f.onShape, f.label).toBe(c.on_wulff[i]);
    });
    for (const [ours, theirs] of [
      [w.volume, c.volume],
      [w.surfaceArea, c.surface_area],
      [w.shapeFactor, c.shape_factor],
      [w.weightedSurfaceEnergy, c.weighted_surface_energy],
      [w.effectiveRadius, c.effective_radius],
    ])
      expect(Math.abs(ours / theirs - 1)).toBeLessThan(1e-9);
    expect(Math.abs(w.anisotropy - c.anisotropy)).toBeLessThan(1e-9);
    // qhull counts a corner where four or more planes meet once per dual triangle; where three meet, both agree.
    const simple = w.vertices.every((_, k) => w.faces.filter((f) => f.vertices.includes(k)).length === 3);
    if (simple) expect([w.vertices.length, w.edges]).toEqual([c.tot_corner_sites, c.tot_edges]);
    // Euler: V − E + F = 2.
    expect(w.vertices.length - w.edges + w.faces.length).toBe(2);
  });
  it('area fractions agree to far better than 1e-6 (worst below 1e-11)', () => expect(worstFraction).toBeLessThan(1e-11));
});

describe('wulffShapeOf: solids known by hand', () => {
  const cu = crystal('Cu');
  it('{100} alone: a cube of half-width γ (volume 8γ³, area 24γ², shape factor 6)', () => {
    const w = wulffShapeOf(cu, energies('1,0,0:2'));
    expect(w.vertices).toHaveLength(8);
    expect(w.faces).toHaveLength(6);
    expect(w.volume).toBeCloseTo(64, 10);
    expect(w.surfaceArea).toBeCloseTo(96, 10);
    expect(w.shapeFactor).toBeCloseTo(6, 12);
    for (const v of w.vertices) for (const x of v) expect(Math.abs(Math.abs(x) - 2)).toBeLessThan(1e-12);
  });
  it('{111} alone: the octahedron of inradius γ (volume 4√3γ³), corners at √3γ on the axes', () => {
    const w = wulffShapeOf(cu, energies('1,1,1:1'));
    expect(w.faces).toHaveLength(8);
    expect(w.volume).toBeCloseTo(4 * Math.sqrt(3), 12);
    for (const v of w.vertices) expect(Math.max(...v.map(Math.abs))).toBeCloseTo(Math.sqrt(3), 12);
  });
  it('{100} and {111} with γ111/γ100 = √3/2: the cuboctahedron (12 corners, 6 squares, 8 triangles)', () => {
    const w = wulffShapeOf(cu, [
      { miller: [1, 0, 0], energy: 1 },
      { miller: [1, 1, 1], energy: 2 / Math.sqrt(3) },
    ]);
    expect(w.vertices).toHaveLength(12);
    expect(w.faces.map((f) => f.vertices.length).sort()).toEqual([3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4]);
  });
  it('Mg {001} + {100}: a hexagonal prism (volume = 2γ001 · 2√3 γ100²)', () => {
    const w = wulffShapeOf(crystal('Mg'), energies('0,0,1:0.5;1,0,0:0.7'));
    expect(w.faces).toHaveLength(8);
    expect(w.volume).toBeCloseTo(2 * 0.5 * 2 * Math.sqrt(3) * 0.7 * 0.7, 12);
  });
  it('faces are counter-clockwise seen from outside, and every corner lies on its faces’ planes', () => {
    const w = wulffShapeOf(crystal('TiO2-rutile'), energies('1,1,0:0.47;1,0,0:0.66;1,0,1:0.86;0,0,1:1.15'));
    for (const f of w.faces) {
      const [a, b, c] = f.vertices.map((k) => w.vertices[k]);
      expect(dot(cross(sub(b, a), sub(c, a)), f.normal)).toBeGreaterThan(0);
      for (const k of f.vertices) expect(Math.abs(dot(w.vertices[k], f.normal) - f.distance)).toBeLessThan(1e-12);
    }
  });
});

describe('families: the point group of the crystal', () => {
  it('cubic m-3m: {100} 6, {111} 8, {110} 12, {210} 24, {321} 48 planes; the given (hkl) first', () => {
    const w = wulffShapeOf(crystal('Cu'), energies('1,0,0:1;1,1,1:1;1,1,0:1;2,1,0:1;3,2,1:1'));
    expect(w.families.map((f) => f.members.length)).toEqual([6, 8, 12, 24, 48]);
    expect(w.families[4].members[0]).toEqual([3, 2, 1]);
    expect(w.pointGroup).toBe('m-3m');
  });
  it('pyrite (Pa-3): {210} has 12 planes in its Laue class m-3, 24 with the lattice’s m-3m (pymatgen’s choice)', () => {
    const e = energies('1,0,0:1;2,1,0:1.02');
    expect(family(wulffShapeOf(crystal('FeS2-pyrite'), e), '{2 1 0}').members).toHaveLength(12);
    expect(family(wulffShapeOf(crystal('FeS2-pyrite'), e, { symmetry: 'lattice' }), '{2 1 0}').members).toHaveLength(24);
  });
  it('four-index (h k i l) input is the same plane as (h k l)', () => {
    const three = wulffShapeOf(crystal('Mg'), energies('0,0,1:0.54;1,0,0:0.62;1,0,1:0.64'));
    const four = wulffShapeOf(crystal('Mg'), energies('0,0,0,1:0.54;1,0,-1,0:0.62;1,0,-1,1:0.64'));
    four.families.forEach((f, i) => expect(f.areaFraction).toBeCloseTo(three.families[i].areaFraction, 14));
    expect(four.families[1].label).toBe('{1 0 -1 0}');
  });
  it('ZnO (6mm) with point-group symmetry: (001) and (00-1) are two families, with their own energies', () => {
    const zno = crystal('ZnO');
    expect(() => wulffShapeOf(zno, energies('0,0,1:1;1,0,0:1'), { symmetry: 'point-group' })).toThrow(/open towards −z/);
    const w = wulffShapeOf(zno, energies('0,0,1:1;0,0,-1:2;1,0,0:1'), { symmetry: 'point-group' });
    expect(w.families.map((f) => f.members.length)).toEqual([1, 1, 6]);
    const zs = w.vertices.map((v) => v[2]);
    expect(Math.max(...zs)).toBeCloseTo(1, 12);
    expect(Math.min(...zs)).toBeCloseTo(-2, 12);
    expect(wulffShapeOf(zno, energies('0,0,1:1;1,0,0:1')).families[0].members).toHaveLength(2);
  });
  it('a primitive cell gets a note that Miller indices refer to it', () => {
    const lattice = new Lattice([
      [0, 1.80745, 1.80745],
      [1.80745, 0, 1.80745],
      [1.80745, 1.80745, 0],
    ]);
    const prim: Structure = { name: 'Cu-prim', lattice, sites: [makeSiteFromFrac(lattice, [0, 0, 0], { Cu: 1 })] };
    const w = wulffShapeOf(prim, energies('0,1,1:1'));
    expect(w.warnings.join()).toMatch(/the conventional standard cell 4; Miller indices refer to the cell as read/);
    // (011) of the primitive fcc cell is the conventional (100) direction: its six members make a cube.
    expect(w.faces).toHaveLength(6);
    expect(wulffShapeOf(prim, energies('1,1,1:1')).faces).toHaveLength(8);
  });
});

describe('refusals: one sentence each', () => {
  const cu = crystal('Cu');
  it.each([
    ['a family given twice', () => wulffShapeOf(cu, energies('1,0,0:1;0,1,0:2')), /\(1,0,0\) and \(0,1,0\) are the same family of planes/],
    ['a multiple of a family', () => wulffShapeOf(cu, energies('1,0,0:1;2,0,0:2')), /same family/],
    ['an open shape (basal planes only)', () => wulffShapeOf(crystal('Mg'), energies('0,0,1:1')), /\{0 0 1\} do not enclose a volume/],
    ['an open shape (prism planes only)', () => wulffShapeOf(crystal('Mg'), energies('1,0,0:1')), /open towards [+−]z/],
    ['(0,0,0) given to the core', () => wulffShapeOf(cu, [{ miller: [0, 0, 0], energy: 1 }]), /\(0,0,0\) is not a plane/],
    ['a zero energy given to the core', () => wulffShapeOf(cu, [{ miller: [1, 0, 0], energy: 0 }]), /must be a positive number, got 0/],
    ['a NaN energy given to the core', () => wulffShapeOf(cu, [{ miller: [1, 0, 0], energy: NaN }]), /positive number, got NaN/],
    ['no energies', () => wulffShapeOf(cu, []), /no surface energies given/],
    ['a finite structure', () => wulffShapeOf({ name: 'dot', lattice: null, sites: [] }, energies('1,0,0:1')), /has no lattice/],
    ['an unknown symmetry', () => wulffShapeOf(cu, energies('1,0,0:1'), { symmetry: 'cubic' as WulffSymmetry }), /laue, point-group/],
  ])('%s', (_, run, sentence) => {
    expect(run).toThrow(ClusterError);
    expect(run).toThrow(sentence);
  });
});

describe('parseSurfaceEnergies', () => {
  const expected = [
    { miller: [1, 0, 0], energy: 1.2 },
    { miller: [1, 1, 1], energy: 0.8 },
  ];
  it('typed: h,k,l:energy separated by ; or new lines', () => {
    expect(parseSurfaceEnergies('1,0,0:1.2; 1,1,1 : 0.8')).toEqual(expected);
    expect(parseSurfaceEnergies('1,0,0:1.2\n1,1,1:0.8\n')).toEqual(expected);
  });
  it('the Materials Project layout, the bare list, the API wrapper and {"h,k,l": E}', () => {
    const list =
      '[{"miller_index": [1, 0, 0], "surface_energy": 1.2, "is_reconstructed": false}, {"miller_index": [1,1,1], "surface_energy": 0.8}]';
    expect(parseSurfaceEnergies(`{"material_id": "mp-30", "surfaces": ${list}}`)).toEqual(expected);
    expect(parseSurfaceEnergies(list)).toEqual(expected);
    expect(parseSurfaceEnergies(`{"data": [{"surfaces": ${list}}]}`)).toEqual(expected);
    expect(parseSurfaceEnergies('{"1,0,0": 1.2, "1,1,1": 0.8}')).toEqual(expected);
  });
  it('CSV with or without a header, any separator, four-index rows', () => {
    expect(parseSurfaceEnergies('h,k,l,energy\n1,0,0,1.2\n1,1,1,0.8\n', 'csv')).toEqual(expected);
    expect(parseSurfaceEnergies('1 0 0 1.2\r\n# comment\n1\t1\t1\t0.8')).toEqual(expected);
    expect(parseSurfaceEnergies('1,0,-1,0,0.6', 'csv')).toEqual([{ miller: [1, 0, -1, 0], energy: 0.6 }]);
  });
  it('keys from a file never reach a prototype', () => {
    expect(() => parseSurfaceEnergies('{"__proto__": {"polluted": 1}, "1,0,0": 1}')).toThrow(/three Miller indices/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it.each([
    ['1,0,0:0', /the surface energy of \(1,0,0\) must be a positive number, got "0"/],
    ['1,0,0:-1.5', /must be a positive number, got "-1.5"/],
    ['1,0,0:NaN', /must be a positive number, got "NaN"/],
    ['1,0,0:abc', /must be a positive number, got "abc"/],
    ['0,0,0:1', /\(0,0,0\) is not a plane/],
    ['1,0:1', /three Miller indices h,k,l \(or four h,k,i,l\), got 2/],
    ['1.5,0,0:1', /Miller indices must be whole numbers, got "1.5,0,0"/],
    ['1,0,0,0:1', /i must be −\(h \+ k\), got \(1,0,0,0\)/],
    ['101,0,0:1', /too large \(at most 100\)/],
    ['1,0,0;', /is not h,k,l:energy/],
    ['', /no surface energies given/],
    ['{"surfaces": [{"miller_index": [1,0,0]}]}', /surface 1 of the JSON has no "miller_index" and "surface_energy"/],
    ['{"surfaces": [{"miller_index": "100", "surface_energy": 1}]}', /"miller_index" must be a list/],
    ['{"1,0,0": null}', /key "1,0,0": the surface energy of \(1,0,0\) must be a positive number, got null/],
    ['{"1,0,0": 1', /not valid JSON/],
    ['17', /line 1: expected h,k,l,energy/],
    ['"text"', /the JSON holds no surface energies/],
  ])('%j is refused', (text, sentence) => {
    const format = text === '"text"' ? 'json' : text === '1,0,0;' ? 'spec' : undefined;
    expect(() => parseSurfaceEnergies(text, format)).toThrow(ClusterError);
    expect(() => parseSurfaceEnergies(text, format)).toThrow(sentence);
  });
  it('more than 100 families are refused', () => {
    const many = Array.from({ length: 101 }, (_, i) => `${i + 1},1,0:1`).join(';');
    expect(() => parseSurfaceEnergies(many)).toThrow(/101 surface energies given; at most 100/);
  });
});

describe('fillWulff: the polyhedron filled with the crystal’s atoms', () => {
  const cu = crystal('Cu');
  const cuEnergies = energies('1,0,0:1.47;1,1,1:1.30;1,1,0:1.56');
  const octa = energies('1,1,1:1');
  const cubo = [
    { miller: [1, 0, 0], energy: 1 },
    { miller: [1, 1, 1], energy: 2 / Math.sqrt(3) },
  ];
  const sizes = (e: SurfaceEnergy[], targets: number[], options: Partial<WulffFillOptions> = {}) =>
    targets.map((size) => fillWulff(cu, e, { size, ...options }).nAtoms);

  it('{111} about an atom: the octahedra 1, 19, 85, 231, 489 (L = 1, 3, 5, 7, 9 atoms on an edge)', () =>
    expect(sizes(octa, [1, 19, 85, 231, 489])).toEqual([1, 19, 85, 231, 489]));
  it('{111} about an octahedral hole (repeats 21: the box centre is a cell centre): 6, 44, 146, 344', () =>
    expect(sizes(octa, [6, 44, 146, 344], { repeats: 21 })).toEqual([6, 44, 146, 344]));
  it('{100} + {111} at γ111/γ100 = 2/√3: the cuboctahedra 13, 55, 147, 309, 561', () =>
    expect(sizes(cubo, [13, 55, 147, 309, 561])).toEqual([13, 55, 147, 309, 561]));
  it('rounding as ASE: closest (the smaller on a tie), above, below', () => {
    const one = (size: number, rounding: WulffRounding) => fillWulff(cu, octa, { size, rounding });
    expect([one(40, 'closest').nAtoms, one(40, 'above').nAtoms, one(40, 'below').nAtoms]).toEqual([19, 85, 19]);
    expect(one(52, 'closest').nAtoms).toBe(19); // 52 − 19 = 85 − 52
    expect(one(53, 'closest').nAtoms).toBe(85);
    expect([one(60, 'closest').below, one(60, 'closest').above]).toEqual([19, 85]);
  });
  it('equals an independent count: every site of a large block inside the planes at the chosen scale', () => {
    for (const [crystalName, spec, size] of [
      ['Cu', '1,0,0:1.47;1,1,1:1.30;1,1,0:1.56', 700],
      ['Mg', '0,0,1:0.54;1,0,0:0.62;1,0,1:0.64;1,1,0:0.66', 400],
      ['TiO2-rutile', '1,1,0:0.47;1,0,0:0.66;1,0,1:0.86;0,0,1:1.15', 500],
    ] as const) {
      const s = crystal(crystalName);
      const p = fillWulff(s, energies(spec), { size });
      const planes = p.shape.faces.map((f) => ({ n: f.normal, d: p.scale * f.distance }));
      const inside: Vec3[] = [];
      const K = 25;
      for (let a = -K; a <= K; a++)
        for (let b = -K; b <= K; b++)
          for (let c = -K; c <= K; c++)
            for (const site of s.sites) {
              const f = [site.frac![0] + a + 10, site.frac![1] + b + 10, site.frac![2] + c + 10];
              const r = [0, 1, 2].map((k) => f[0] * p.cell[0][k] + f[1] * p.cell[1][k] + f[2] * p.cell[2][k]) as Vec3;
              const d = sub(r, p.center);
              if (planes.every((q) => dot(q.n, d) <= q.d * (1 + 1e-9))) inside.push(r);
            }
      expect(p.nAtoms, crystalName).toBe(inside.length);
      const key = (v: Vec3) => v.map((x) => x.toFixed(6)).join();
      expect(new Set(p.positions.map(key)), crystalName).toEqual(new Set(inside.map(key)));
      expect(Math.abs(p.nAtoms - size) / size).toBeLessThan(0.2);
    }
  });
  it('corners are the shape’s at the chosen scale about the centre; the centre is the 20³ box centre', () => {
    const p = fillWulff(cu, cuEnergies, { size: 300 });
    expect(p.center).toEqual([10 * 3.6149, 10 * 3.6149, 10 * 3.6149].map((x) => expect.closeTo(x, 10)));
    p.corners.forEach((c, k) =>
      expect(
        sub(c, p.center)
          .map((x, i) => x - p.scale * p.shape.vertices[k][i])
          .every((x) => Math.abs(x) < 1e-9),
      ).toBe(true),
    );
    const origin = fillWulff(cu, cuEnergies, { size: 300, center: { kind: 'origin' } });
    expect(origin.nAtoms).toBe(p.nAtoms);
    expect(origin.center).toEqual([0, 0, 0]);
  });
  it('refuses what it cannot build, in one sentence', () => {
    expect(() => fillWulff(cu, octa, { size: 0 })).toThrow(/the size must be at least 1, got 0/);
    expect(() => fillWulff(cu, octa, { size: 2.5 })).toThrow(/the size must be a whole number, got 2.5/);
    expect(() => fillWulff(cu, octa, { size: 100_001 })).toThrow(LimitError);
    expect(() => fillWulff(cu, octa, { size: 100_001 })).toThrow(/the requested Wulff size has 100,001 atoms; the limit is 100,000 atoms/);
    expect(() => fillWulff(cu, octa, { size: 3, repeats: 21, rounding: 'below' })).toThrow(
      /no Wulff particle of this crystal has at most 3 atoms here; the smallest has 6/,
    );
    expect(() => fillWulff(cu, octa, { size: 3, rounding: 'up' as WulffRounding })).toThrow(/closest, above or below/);
    expect(() => fillWulff(crystal('Mg'), energies('0,0,1:1'), { size: 100 })).toThrow(/do not enclose a volume/);
    try {
      overrideLimits({ clusterSites: 2000 });
      expect(() => fillWulff(cu, octa, { size: 5000 })).toThrow(
        /the crystal around a Wulff particle of 5000 atoms has [\d,]+ sites; the limit is 2,000/,
      );
    } finally {
      resetLimits();
    }
  });
});
