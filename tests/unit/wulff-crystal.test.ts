/**
 * The Wulff shape of a crystal (src/core/structure/clusters/wulff-crystal.ts) against pymatgen 2022.11.7's WulffShape
 * (tests/reference/golden/clusters/wulff-shapes.json, scripts/make-wulff-goldens.py): per family the area fraction and
 * whether it is on the shape, and the volume, area, shape factor, weighted energy, anisotropy and effective radius;
 * against solids known by hand (cube, octahedron, hexagonal prism); family sizes of point groups; the surface-energy
 * readers (typed, Materials Project JSON, CSV) and every refusal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { type Vec3, cross, dot, sub } from '../../src/core/math/mat3.ts';
import { ClusterError } from '../../src/core/structure/clusters/common.ts';
import { type SurfaceEnergy, parseSurfaceEnergies } from '../../src/core/structure/clusters/surface-energies.ts';
import { type WulffShape, type WulffSymmetry, wulffShapeOf } from '../../src/core/structure/clusters/wulff-crystal.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type Structure, makeSiteFromFrac } from '../../src/core/structure/structure.ts';

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
