/**
 * Per-atom properties as the Structure page shows them (issue 15): categorical columns (few whole-number values per site,
 * read from real files) with their legend counts, ramp colours over a chosen range clamping to the ramp's ends, category
 * colours, and the radius factors of "size by". Expected values are counted or interpolated here by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  CATEGORIES_MAX,
  SIZE_FACTOR_RANGE,
  propertyCategories,
  propertyScalars,
  radiusFactorsBySite,
} from '../../src/core/analysis/atom-properties.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { type PackedProperty, packStructure } from '../../src/core/structure/packed.ts';
import { CATEGORY_PALETTE, DISPLACEMENT_RAMP, categoryColorsBySite, rampColorsBySite } from '../../src/viewer/colors.ts';

const read = (text: string, name: string) => {
  const r = parseStructureFile(text, name);
  if (!r.ok) throw new Error(r.error);
  return packStructure(r.structures[0]);
};
const column = (name: string, width: number, values: number[]): PackedProperty => ({ name, width, values: Float64Array.from(values) });

const POSCAR = `NaCl with fixed atoms
1.0
5 0 0
0 5 0
0 0 5
Na Cl
3 2
Selective dynamics
Direct
0 0 0 T T F
0.5 0 0 F F F
0 0.5 0 T T T
0.5 0.5 0.5 F F F
0 0 0.5 F F F
`;

const EXTXYZ = `5
Lattice="6 0 0 0 6 0 0 0 6" Properties=species:S:1:pos:R:3:tags:I:1:fixed:L:1:charge:R:1 pbc="T T T"
Cu 0 0 0 2 T 0.5
Cu 3 0 0 0 F -0.25
Cu 0 3 0 2 F 0.5
O 0 0 3 -1 T 1.5
O 3 3 3 2 F 0.5
`;

describe('categorical columns', () => {
  it('selective-dynamics flags: the distinct per-site tuples, ascending, with their counts', () => {
    const p = read(POSCAR, 'POSCAR');
    const c = propertyCategories(p.properties!.find((x) => x.name === 'selective_dynamics')!)!;
    expect(c.labels).toEqual(['0 0 0', '1 1 0', '1 1 1']);
    expect(c.counts).toEqual([3, 1, 1]);
    expect(Array.from(c.siteCategory)).toEqual([1, 0, 2, 0, 0]);
  });

  it('an integer column and a boolean column of an extended XYZ are categorical; a real-valued column is not', () => {
    const p = read(EXTXYZ, 'tags.extxyz');
    const by = (n: string) => p.properties!.find((x) => x.name === n)!;
    const tags = propertyCategories(by('tags'))!;
    expect(tags.labels).toEqual(['-1', '0', '2']);
    expect(tags.counts).toEqual([1, 1, 3]);
    expect(Array.from(tags.siteCategory)).toEqual([2, 1, 2, 0, 2]);
    const fixed = propertyCategories(by('fixed'))!;
    expect(fixed.labels).toEqual(['0', '1']);
    expect(fixed.counts).toEqual([3, 2]);
    expect(propertyCategories(by('charge'))).toBeNull();
  });

  it(`at most ${CATEGORIES_MAX} distinct values: one more makes a ramp; a single value is one category`, () => {
    const twelve = Array.from({ length: 40 }, (_, i) => i % CATEGORIES_MAX);
    expect(propertyCategories(column('k', 1, twelve))!.counts).toEqual([4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3]);
    expect(propertyCategories(column('k', 1, [...twelve, CATEGORIES_MAX]))).toBeNull();
    expect(propertyCategories(column('k', 1, [7, 7, 7]))).toEqual({ labels: ['7'], counts: [3], siteCategory: Uint8Array.from([0, 0, 0]) });
    expect(propertyCategories(column('k', 1, [1, 2.5]))).toBeNull();
    expect(propertyCategories(column('k', 1, []))).toBeNull();
  });

  it('category colours: each drawn atom takes its site’s palette colour (images repeat their site)', () => {
    const c = propertyCategories(column('k', 1, [5, 3, 5]))!;
    const colors = categoryColorsBySite([0, 1, 2, 1], c.siteCategory)!;
    const expected = [CATEGORY_PALETTE[1], CATEGORY_PALETTE[0], CATEGORY_PALETTE[1], CATEGORY_PALETTE[0]].flat();
    expect(Array.from(colors)).toEqual(Array.from(Float32Array.from(expected)));
    expect(categoryColorsBySite([3], c.siteCategory)).toBeNull();
    expect(new Set(CATEGORY_PALETTE.map((rgb) => rgb.join())).size).toBe(CATEGORIES_MAX);
  });
});

describe('colour range', () => {
  const values = [-2, 0, 1, 2, 10];
  const site = [0, 1, 2, 3, 4];
  const ends = (c: Float32Array, i: number) => Array.from(c.subarray(3 * i, 3 * i + 3));
  const f32 = (rgb: readonly number[]) => Array.from(Float32Array.from(rgb));

  it('values outside a chosen range take the ramp’s ends; inside, the ramp interpolated between its stops', () => {
    const c = rampColorsBySite(site, values, [0, 2])!;
    expect(ends(c, 0)).toEqual(f32(DISPLACEMENT_RAMP[0])); // -2 below 0
    expect(ends(c, 1)).toEqual(f32(DISPLACEMENT_RAMP[0])); // 0 at the low end
    expect(ends(c, 3)).toEqual(f32(DISPLACEMENT_RAMP[3])); // 2 at the high end
    expect(ends(c, 4)).toEqual(f32(DISPLACEMENT_RAMP[3])); // 10 above 2
    // 1 is halfway: 1.5 stops along the 4-stop ramp, halfway between stops 1 and 2.
    const mid = DISPLACEMENT_RAMP[1].map((x, k) => (x + DISPLACEMENT_RAMP[2][k]) / 2);
    ends(c, 2).forEach((x, k) => expect(x).toBeCloseTo(mid[k], 6));
    // Over the data's range [-2, 10] the same value 1 sits a quarter of the way: another colour.
    expect(ends(rampColorsBySite(site, values, [-2, 10])!, 2)).not.toEqual(ends(c, 2));
  });
});

describe('size by a property', () => {
  const [f0, f1] = SIZE_FACTOR_RANGE;

  it('maps the range linearly onto 0.4×–1.6×, clamps outside it, and gives 1× for a constant', () => {
    const values = [0, 5, 10, -3, 20];
    const f = radiusFactorsBySite([0, 1, 2, 3, 4, 2], values, [0, 10])!;
    expect(Array.from(f)).toEqual(Array.from(Float32Array.from([f0, (f0 + f1) / 2, f1, f0, f1, f1])));
    expect(Array.from(radiusFactorsBySite([0, 1], [3, 3], [3, 3])!)).toEqual([1, 1]);
    expect(radiusFactorsBySite([2], [1, 2], [1, 2])).toBeNull();
  });

  it('a vector column sizes by its length', () => {
    const forces = column('forces', 3, [3, 4, 0, 0, 0, 0, 0, 0, 1]);
    const lengths = propertyScalars(forces);
    const f = radiusFactorsBySite([0, 1, 2], lengths, [0, 5])!;
    expect(f[0]).toBeCloseTo(f1, 6);
    expect(f[1]).toBeCloseTo(f0, 6);
    expect(f[2]).toBeCloseTo(f0 + (f1 - f0) / 5, 6);
  });
});
