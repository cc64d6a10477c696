/**
 * Size series (src/core/tasks/c2np/size-series.ts) and the shapes they are made of (shapes.ts: ASE's builders from a
 * crystal, sized by their parameters or by atoms), checked against counts made by hand, independently of the code: a
 * Mackay icosahedron of k shells has 12 vertex atoms, 30(k − 2) edge atoms and 20(k − 2)(k − 3)/2 face atoms on its
 * outer shell, 10(k − 1)² + 2 surface atoms in all and (10k³ − 15k² + 11k − 3)/3 atoms; a cuboctahedron the same
 * totals with 6(k − 2)² square-face and 8(k − 2)(k − 3)/2 triangle-face atoms and 24(k − 2) edge atoms; a regular
 * octahedron of L atoms on an edge L(2L² + 1)/3 atoms, 6 vertices, 12(L − 2) edge and 4(L − 2)(L − 3) face atoms;
 * coordination 6/8/9 (icosahedron), 5/7/8/9 (cuboctahedron), 4/7/9 (octahedron) on vertices, edges and faces; the
 * Debye peak narrowing as the particle grows; the `structlab series` command and every refusal.
 */
import { describe, expect, it } from 'vitest';
import { structlabInProcess } from '../cli-runner.ts';
import { LimitError } from '../../src/core/limits.ts';
import type { Vec3 } from '../../src/core/math/mat3.ts';
import { ClusterError } from '../../src/core/structure/clusters/common.ts';
import { parseSurfaceEnergies } from '../../src/core/structure/clusters/surface-energies.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type Structure, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import { aseShape, fccOfCrystal, fillWulff, octahedronAtoms } from '../../src/core/tasks/c2np/shapes.ts';
import { type SeriesMember, type SeriesShape, particleSites, shapeParticle, sizeSeries } from '../../src/core/tasks/c2np/size-series.ts';

function cell(name: string, lattice: Lattice, sites: [string, Vec3][]): Structure {
  return { name, lattice, sites: sites.map(([el, f]) => makeSiteFromFrac(lattice, f, { [el]: 1 })) };
}
const FCC: Vec3[] = [
  [0, 0, 0],
  [0, 0.5, 0.5],
  [0.5, 0, 0.5],
  [0.5, 0.5, 0],
];
const cu = cell(
  'Cu',
  Lattice.cubic(3.6149),
  FCC.map((f) => ['Cu', f]),
);
const mg = cell('Mg', Lattice.fromParameters(3.2094, 3.2094, 5.2108, 90, 90, 120), [
  ['Mg', [1 / 3, 2 / 3, 0.25]],
  ['Mg', [2 / 3, 1 / 3, 0.75]],
]);

const icosahedral = (k: number) => (10 * k ** 3 - 15 * k ** 2 + 11 * k - 3) / 3;
const counts = (m: SeriesMember) => Object.fromEntries(Object.entries(m.siteClasses).map(([k, v]) => [k, v.count]));
/** The coordination numbers a class holds, as {cn: atoms}. */
const cns = (m: SeriesMember, c: keyof SeriesMember['siteClasses']) =>
  Object.fromEntries(m.siteClasses[c].coordination.flatMap((n, cn) => (n ? [[cn, n]] : [])));

describe('icosahedra: counts by hand', () => {
  const shells = [2, 3, 4, 5, 6, 7];
  const rows = sizeSeries('icosahedron', shells, { element: 'Cu' }, { debye: false });
  it.each(shells.map((k, i) => [k, rows[i]] as const))('k = %i shells', (k, m) => {
    expect(m.nAtoms).toBe(icosahedral(k));
    expect(m.surfaceAtoms).toBe(10 * (k - 1) ** 2 + 2);
    expect(counts(m)).toEqual({
      vertex: 12,
      edge: 30 * (k - 2),
      face: Math.abs((20 * (k - 2) * (k - 3)) / 2),
      bulk: icosahedral(k - 1),
      recessed: 0,
    });
    expect(cns(m, 'vertex')).toEqual({ 6: 12 });
    if (k > 2) expect(cns(m, 'edge')).toEqual({ 8: 30 * (k - 2) });
    if (k > 3) expect(cns(m, 'face')).toEqual({ 9: 10 * (k - 2) * (k - 3) });
    expect(cns(m, 'bulk')).toEqual({ 12: icosahedral(k - 1) });
    const bonds = 12 * icosahedral(k - 1) + 6 * 12 + 8 * 30 * (k - 2) + 9 * 10 * (k - 2) * (k - 3);
    expect(m.meanCoordination).toBeCloseTo(bonds / icosahedral(k), 12);
    expect(m.surfaceFraction).toBeCloseTo((10 * (k - 1) ** 2 + 2) / icosahedral(k), 12);
    expect(m.facetFractions).toEqual([{ family: '{1 1 1}', fraction: 1 }]);
    expect([m.magic, m.parameters]).toEqual([true, { shells: k }]);
  });
  it('the 13-atom icosahedron by hand: 12 of 13 atoms on the surface, mean coordination (12 + 12·6)/13', () => {
    expect(rows[0].surfaceFraction).toBe(12 / 13);
    expect(rows[0].meanCoordination).toBeCloseTo(84 / 13, 14);
  });
});

describe('cuboctahedra and octahedra: counts by hand', () => {
  it.each([2, 3, 4, 5, 6])('cuboctahedron of %i shells', (k) => {
    const [m] = sizeSeries('cuboctahedron', [k], { element: 'Cu' }, { debye: false });
    const squares = 6 * (k - 2) ** 2;
    const triangles = Math.abs((8 * (k - 2) * (k - 3)) / 2);
    expect(m.nAtoms).toBe(icosahedral(k));
    expect(m.surfaceAtoms).toBe(10 * (k - 1) ** 2 + 2);
    expect(counts(m)).toEqual({ vertex: 12, edge: 24 * (k - 2), face: squares + triangles, bulk: icosahedral(k - 1), recessed: 0 });
    expect(cns(m, 'vertex')).toEqual({ 5: 12 });
    expect(cns(m, 'face')).toEqual(
      Object.fromEntries([squares && [8, squares], triangles && [9, triangles]].filter((x) => x) as number[][]),
    );
    // Edges and corners lie half on {100} and half on {111}.
    const on100 = squares + 0.5 * 24 * (k - 2) + 0.5 * 12;
    expect(m.facetFractions.find((f) => f.family === '{1 0 0}')!.fraction).toBeCloseTo(on100 / m.surfaceAtoms, 12);
    expect(m.magic).toBe(true);
  });
  it.each([3, 4, 5, 6, 7])('regular octahedron of length %i', (L) => {
    const [m] = sizeSeries('octahedron', [L], { element: 'Cu' }, { debye: false });
    expect(m.nAtoms).toBe((L * (2 * L * L + 1)) / 3);
    expect(m.nAtoms).toBe(octahedronAtoms(L, 0));
    expect(counts(m)).toEqual({
      vertex: 6,
      edge: 12 * (L - 2),
      face: 4 * (L - 2) * (L - 3),
      bulk: ((L - 2) * (2 * (L - 2) ** 2 + 1)) / 3,
      recessed: 0,
    });
    expect(cns(m, 'vertex')).toEqual({ 4: 6 });
    expect(cns(m, 'edge')).toEqual({ 7: 12 * (L - 2) });
    expect(m.facetFractions).toEqual([{ family: '{1 1 1}', fraction: 1 }]);
    expect(m.parameters).toEqual({ length: L, cutoff: 0 });
  });
  it('octahedron counts with cutoffs: 13 (3,1), 38 (4,1), 55 (5,2), 201 (7,2), as ASE builds them', () => {
    for (const [l, c, n] of [
      [3, 1, 13],
      [4, 1, 38],
      [5, 2, 55],
      [7, 2, 201],
      [9, 2, 459],
    ]) {
      expect(octahedronAtoms(l, c)).toBe(n);
      expect(aseShape('octahedron', 'Cu', undefined, { length: l, cutoff: c }).cluster.nAtoms).toBe(n);
    }
  });
  it('decahedra p = q = k, r = 0 have the icosahedral numbers; r > 0 (Marks) is not flagged magic', () => {
    const rows = sizeSeries('decahedron', [2, 3, 4, 5], { element: 'Cu' }, { debye: false });
    expect(rows.map((m) => m.nAtoms)).toEqual([13, 55, 147, 309]);
    expect(rows.every((m) => m.magic && m.siteClasses.vertex.count === 12)).toBe(true);
    const marks = sizeSeries('decahedron', [2, 3], { element: 'Cu' }, { debye: false, r: 1 });
    expect(marks.map((m) => [m.nAtoms, m.magic])).toEqual([
      [75, false],
      [192, false],
    ]);
    expect(marks[1].siteClasses.recessed.count).toBeGreaterThan(0);
    expect(rows[2].facetFractions.map((f) => f.family).sort()).toEqual(['{1 0 0}', '{1 1 1}']);
  });
});

describe('Debye peak width (the Nanoparticle page’s pattern) narrows as the particle grows', () => {
  const decreasing = (rows: SeriesMember[]) => rows.every((m, i) => i === 0 || m.debye!.fwhm < rows[i - 1].debye!.fwhm);
  it('cuboctahedra of 2–6 shells, near Cu (111) at 43.3°', () => {
    const rows = sizeSeries('cuboctahedron', [2, 3, 4, 5, 6], { element: 'Cu', latticeConstant: 3.6149 });
    expect(decreasing(rows)).toBe(true);
    expect(rows[4].debye!.twoTheta).toBeCloseTo(43.3, 0);
  });
  it('Wulff particles of Cu from 100 to 1600 atoms', () => {
    const rows = sizeSeries(
      'wulff',
      [100, 400, 1600],
      { crystal: cu },
      { energies: parseSurfaceEnergies('1,0,0:1.47;1,1,1:1.3;1,1,0:1.56') },
    );
    expect(decreasing(rows)).toBe(true);
    expect(rows.every((m) => !m.magic)).toBe(true);
  });
});

describe('series from a crystal', () => {
  it('wulff: the members are fillWulff’s particles; every site class counted once; facet families of the energies', () => {
    const e = parseSurfaceEnergies('1,0,0:1.47;1,1,1:1.3;1,1,0:1.56');
    const rows = sizeSeries('wulff', [200, 1000], { crystal: cu }, { energies: e, debye: false });
    expect(rows.map((m) => m.nAtoms)).toEqual([200, 1000].map((size) => fillWulff(cu, e, { size }).nAtoms));
    for (const m of rows) {
      expect(Object.values(m.siteClasses).reduce((s, c) => s + c.count, 0)).toBe(m.nAtoms);
      expect(m.nAtoms - m.siteClasses.bulk.count).toBe(m.surfaceAtoms);
      expect(m.facetFractions.map((f) => f.family).every((f) => ['{1 0 0}', '{1 1 1}', '{1 1 0}'].includes(f))).toBe(true);
      expect(m.parameters.size).toBe(m.size);
    }
    // The second layer of fcc {110} has 11 neighbours and lies below the facet: recessed.
    expect(rows[1].siteClasses.recessed.coordination).toEqual([...new Array(11).fill(0), rows[1].siteClasses.recessed.count]);
  });
  it('hexagonal Mg: facets named by the Laue class 6/mmm ({1 0 0}, not the cubic habit’s {1 1 0} for (1 -1 0))', () => {
    const rows = sizeSeries('wulff', [300], { crystal: mg }, { energies: parseSurfaceEnergies('0,0,1:0.5;1,0,0:0.7'), debye: false });
    const [first, second] = rows[0].facetFractions;
    expect([first.family, second.family].sort()).toEqual(['{0 0 1}', '{1 0 0}']);
    expect(first.fraction + second.fraction).toBeGreaterThan(0.5);
    // The atomistic prism's edges are cut by small facets ({110} named by its non-negative member, not {2 -1 0}).
    expect(rows[0].facetFractions.every((f) => /^\{\d \d \d\}$/.test(f.family))).toBe(true);
  });
  it('sphere: sizes are radii, never magic; particleSites gives the same classes', () => {
    const rows = sizeSeries('sphere', [5, 8], { crystal: cu }, { debye: false });
    expect(rows.map((m) => [m.nAtoms, m.magic, m.parameters.radius])).toEqual([
      [43, false, 5],
      [177, false, 8],
    ]);
    const p = shapeParticle('sphere', 8, { crystal: cu });
    const sites = particleSites(p, { crystal: cu });
    expect(sites.siteClass.filter((c) => c === 0).length).toBe(rows[1].siteClasses.bulk.count);
    expect(sites.surface.reduce((s, x) => s + x, 0)).toBe(rows[1].surfaceAtoms);
  });
  it('ASE shapes from a one-element fcc crystal use its element and conventional a', () => {
    const [m] = sizeSeries('icosahedron', [3], { crystal: cu }, { debye: false });
    expect(m.nAtoms).toBe(55);
    const lattice = new Lattice([
      [0, 1.80745, 1.80745],
      [1.80745, 0, 1.80745],
      [1.80745, 1.80745, 0],
    ]);
    expect(fccOfCrystal(cell('Cu-prim', lattice, [['Cu', [0, 0, 0]]]))).toEqual({
      element: 'Cu',
      latticeConstant: expect.closeTo(3.6149, 10),
    });
    expect(fccOfCrystal(cu)).toEqual({ element: 'Cu', latticeConstant: 3.6149 });
  });
});

describe('aseShape: sized by atoms, the nearest closed shell', () => {
  const at = (shape: 'icosahedron' | 'decahedron' | 'octahedron' | 'cuboctahedron', size: number, extra = {}) =>
    aseShape(shape, 'Cu', 3.6149, { size, ...extra });
  it('icosahedra, cuboctahedra and Ino decahedra: 13, 55, 147, 309 (the smaller on a tie)', () => {
    for (const shape of ['icosahedron', 'cuboctahedron', 'decahedron'] as const)
      expect([1, 10, 34, 35, 101, 102, 150, 230].map((n) => at(shape, n).cluster.nAtoms)).toEqual([1, 13, 13, 55, 55, 147, 147, 309]);
    expect(at('decahedron', 150).parameters).toEqual({ p: 4, q: 4, r: 0 });
  });
  it('octahedra: the nearest regular, cuboctahedral or regular truncated one; a given cutoff fixes it', () => {
    expect([6, 19, 38, 44, 200, 590].map((n) => at('octahedron', n).parameters)).toEqual([
      { length: 2, cutoff: 0 },
      { length: 3, cutoff: 0 },
      { length: 4, cutoff: 1 },
      { length: 4, cutoff: 0 },
      { length: 7, cutoff: 2 },
      { length: 10, cutoff: 3 },
    ]);
    expect(at('octahedron', 100, { cutoff: 0 }).parameters).toEqual({ length: 5, cutoff: 0 });
    // cutoff 1: length 6 has 140 atoms, 7 has 225
    expect(at('octahedron', 200, { cutoff: 1 }).parameters).toEqual({ length: 7, cutoff: 1 });
    expect(at('octahedron', 170, { cutoff: 1 }).parameters).toEqual({ length: 6, cutoff: 1 });
    expect(at('octahedron', 200).magic).toBe(true);
  });
});

describe('refusals', () => {
  it.each([
    ['hcp Mg', () => fccOfCrystal(mg), /^Mg is hcp \(P6_3\/mmc\); icosahedra, decahedra and octahedra here are built from fcc crystals$/],
    [
      'bcc Fe',
      () =>
        fccOfCrystal(
          cell('Fe', Lattice.cubic(2.87), [
            ['Fe', [0, 0, 0]],
            ['Fe', [0.5, 0.5, 0.5]],
          ]),
        ),
      /^Fe is bcc \(Im-3m\); /,
    ],
    [
      'two elements',
      () =>
        fccOfCrystal(
          cell('NaCl', Lattice.cubic(5.64), [
            ...FCC.map((f) => ['Na', f] as [string, Vec3]),
            ...FCC.map((f) => ['Cl', [f[0] + 0.5, f[1], f[2]]] as [string, Vec3]),
          ]),
        ),
      /^NaCl has 2 elements \(Fm-3m\); icosahedra, decahedra and octahedra here are built from one-element fcc crystals$/,
    ],
    ['a Wulff series without energies', () => sizeSeries('wulff', [10], { crystal: cu }), /a Wulff shape needs surface energies/],
    ['a sphere without a crystal', () => sizeSeries('sphere', [5], { element: 'Cu' }), /a sphere is cut from a crystal; give one/],
    [
      'an icosahedron of nothing',
      () => sizeSeries('icosahedron', [2], {}),
      /the icosahedron needs an element or a one-element fcc crystal/,
    ],
    ['an unknown shape', () => sizeSeries('cube' as SeriesShape, [2], { element: 'Cu' }), /unknown shape "cube"/],
    ['no sizes', () => sizeSeries('icosahedron', [], { element: 'Cu' }), /at least one size/],
    ['zero shells', () => sizeSeries('icosahedron', [0], { element: 'Cu' }), /the number of shells must be at least 1, got 0/],
    [
      'an octahedron too large',
      () => sizeSeries('octahedron', [80], { element: 'Cu' }),
      /an octahedron of length 80 and cutoff 0 has 341,360 atoms; the limit is 100,000 atoms/,
    ],
    [
      'a size too large',
      () => aseShape('icosahedron', 'Cu', undefined, { size: 200_000 }),
      /the requested icosahedron size has 200,000 atoms/,
    ],
  ])('%s', (_, run, sentence) => {
    expect(run).toThrow(sentence);
  });
  it('past a limit: LimitError, not a hang', () => {
    expect(() => sizeSeries('icosahedron', [40], { element: 'Cu' })).toThrow(LimitError);
    expect(() => fccOfCrystal(mg)).toThrow(ClusterError);
  });
});

describe('structlab series', () => {
  it('JSON rows of an icosahedron series from an element', async () => {
    const r = await structlabInProcess(['series', '--shape', 'icosahedron', '--element', 'Cu', '--sizes', '2..4', '--no-debye']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.shape).toBe('icosahedron');
    expect(out.size_parameter).toBe('shells');
    expect(out.rows.map((m: { n_atoms: number }) => m.n_atoms)).toEqual([13, 55, 147]);
    expect(out.rows[2]).toMatchObject({
      size: 4,
      n_atoms: 147,
      surface_atoms: 92,
      magic: true,
      site_classes: { vertex: { count: 12, coordination: { 6: 12 } }, edge: { count: 60 }, face: { count: 20 }, bulk: { count: 55 } },
      facet_fractions: { '{1 1 1}': 1 },
      debye: null,
    });
  });
  it('CSV, one row per size, with the Debye width', async () => {
    const r = await structlabInProcess(['series', '--shape', 'cuboctahedron', '--element', 'Cu', '--sizes', '2,3', '--csv']);
    expect(r.code).toBe(0);
    const [header, ...lines] = r.stdout.trim().split('\n');
    expect(header.split(',').slice(0, 8)).toEqual([
      'shape',
      'size',
      'n_atoms',
      'magic',
      'surface_atoms',
      'surface_fraction',
      'mean_cn',
      'n_bulk',
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[1].split(',').slice(0, 5)).toEqual(['cuboctahedron', '3', '55', 'true', '42']);
    expect(header).toMatch(/debye_fwhm/);
    expect(header).toMatch(/facet \{1 0 0\}/);
  });
  it('help', async () => {
    const r = await structlabInProcess(['series', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: structlab series --shape/);
  });
  it.each([
    [['series', '--element', 'Cu', '--sizes', '2'], /series needs --shape/],
    [['series', '--shape', 'cube', '--element', 'Cu', '--sizes', '2'], /--shape must be one of sphere, wulff, icosahedron/],
    [['series', '--shape', 'icosahedron', '--element', 'Cu'], /series needs --sizes/],
    [['series', '--shape', 'icosahedron', '--sizes', '2'], /series icosahedron needs --element E or a CELL file/],
    [['series', '--shape', 'icosahedron', '--element', 'Cu', '--sizes', '2,x'], /--sizes: "x" is not a whole number/],
    [['series', '--shape', 'icosahedron', '--element', 'Cu', '--sizes', '5..2'], /--sizes: the range "5..2" runs backwards/],
    [['series', '--shape', 'icosahedron', '--element', 'Cu', '--sizes', '1..1000'], /--sizes lists 1000 sizes; at most 200/],
    [['series', '--shape', 'icosahedron', '--element', 'cu', '--sizes', '2'], /"cu" is not an element symbol/],
    [['series', '--shape', 'sphere', '--element', 'Cu', '--sizes', '5'], /series sphere needs a CELL file \(a crystal to cut it from\)/],
    [['series', '--shape', 'wulff', '--element', 'Cu', '--sizes', '5'], /series wulff needs a CELL file/],
    [
      ['series', '--shape', 'icosahedron', '--element', 'Cu', '--sizes', '2', '--surface-energies', '1,0,0:1'],
      /--surface-energies applies to --shape wulff only/,
    ],
    [
      ['series', '--shape', 'icosahedron', '--element', 'Cu', '--sizes', '40'],
      /has 20[\d,]+ atoms; the limit is 100,000 atoms \(raise it with --limit particleAtoms=N\)/,
    ],
  ])('%j is refused with exit 2', async (argv, sentence) => {
    const r = await structlabInProcess(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(sentence);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
