/**
 * The Nanoparticle page's shape and series helpers (src/state/nanoparticle-shapes.ts): the page's shell count
 * against ASE's, the energy table → core's energies (and each bad row's sentence), the series' sizes, the series →
 * plot columns, magic markers (13, 55, 147, 309, 561 for shells 1–5), and the page's CSV/JSON equal to
 * `structlab series` for the same crystal and sizes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { structlabInProcess } from '../cli-runner.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { parseSurfaceEnergies } from '../../src/core/structure/clusters/surface-energies.ts';
import { sizeSeries } from '../../src/core/tasks/c2np/size-series.ts';
import {
  classHistogram,
  closedShellNumbers,
  coreSize,
  defaultEnergyRows,
  energiesFromFile,
  energiesOf,
  magicMarkers,
  millerTokens,
  pageSize,
  parseSizes,
  rowsOf,
  seriesJson,
  seriesPlotData,
} from '../../src/state/nanoparticle-shapes.ts';
import { seriesCsv } from '../../src/core/tasks/c2np/size-series.ts';
import { FCC_CU_CIF } from '../cif.ts';

const parsed = parseStructureFile(FCC_CU_CIF, 'Cu.cif');
if (!parsed.ok) throw new Error(parsed.error);
const cu = parsed.structures[0];

describe('sizes', () => {
  it('the page counts shells around the centre atom; ASE counts the centre as one', () => {
    expect([1, 2, 3].map((k) => coreSize('icosahedron', k))).toEqual([2, 3, 4]);
    expect(coreSize('decahedron', 1)).toBe(2);
    expect(coreSize('octahedron', 5)).toBe(5);
    expect(coreSize('wulff', 500)).toBe(500);
    expect(pageSize('cuboctahedron', coreSize('cuboctahedron', 4))).toBe(4);
  });
  it('lists and ranges as structlab series --sizes takes them', () => {
    expect(parseSizes('1..5', false)).toEqual([1, 2, 3, 4, 5]);
    expect(parseSizes('50, 100,200', false)).toEqual([50, 100, 200]);
    expect(parseSizes('4..6:0.5', true)).toEqual([4, 4.5, 5, 5.5, 6]);
    expect(() => parseSizes('1..x', false)).toThrow('The sizes: "x" is not a whole number.');
    expect(() => parseSizes('5..2', false)).toThrow('The range "5..2" runs backwards.');
    expect(() => parseSizes('0..3', false)).toThrow('The sizes must be at least 1, got 0.');
    expect(() => parseSizes('1..300', false)).toThrow('a series has at most 200');
  });
});

describe('surface energies', () => {
  it('the table is core’s input, as typed in h,k,l:γ', () => {
    const rows = [
      { hkl: '1 0 0', energy: '1.47' },
      { hkl: '(111)', energy: '1.3' },
      { hkl: '1,1,0', energy: ' 1.56 ' },
    ];
    expect(energiesOf(rows)).toEqual({ energies: parseSurfaceEnergies('1,0,0:1.47;1,1,1:1.3;1,1,0:1.56') });
    expect(energiesOf(rowsOf(parseSurfaceEnergies('1,0,0:1.47;1,1,1:1.3')))).toEqual({
      energies: parseSurfaceEnergies('1,0,0:1.47;1,1,1:1.3'),
    });
  });
  it('Miller indices as teachers type them', () => {
    expect(millerTokens('111')).toEqual(['1', '1', '1']);
    expect(millerTokens('1-10')).toEqual(['1', '-1', '0']);
    expect(millerTokens('{1 0 -1 0}')).toEqual(['1', '0', '-1', '0']);
    expect(millerTokens('2, 1, 0')).toEqual(['2', '1', '0']);
  });
  it('a bad row is named by its number in one sentence', () => {
    expect(energiesOf([])).toEqual({ error: 'Add at least one (hkl) and its surface energy.' });
    expect(
      energiesOf([
        { hkl: '1 0 0', energy: '1' },
        { hkl: '1 1 1', energy: '-2' },
      ]),
    ).toEqual({
      error: 'Row 2: the surface energy of (1,1,1) must be a positive number, got "-2".',
    });
    expect(energiesOf([{ hkl: '1 0', energy: '1' }])).toEqual({
      error: 'Row 1: a plane needs three Miller indices h,k,l (or four h,k,i,l), got 2.',
    });
    expect(energiesOf([{ hkl: '0 0 0', energy: '1' }])).toEqual({ error: 'Row 1: (0,0,0) is not a plane; give h,k,l not all zero.' });
  });
  it('fcc defaults are the broken-bond ratios; a Materials Project file is read by core', () => {
    expect(defaultEnergyRows(true).map((r) => [r.hkl, Number(r.energy)])).toEqual([
      ['1 0 0', expect.closeTo(2 / Math.sqrt(3), 3)],
      ['1 1 0', expect.closeTo(Math.sqrt(1.5), 3)],
      ['1 1 1', 1],
    ]);
    const mp = JSON.stringify({
      surfaces: [
        { miller_index: [1, 1, 1], surface_energy: 1.3 },
        { miller_index: [1, 0, 0], surface_energy: 1.47 },
      ],
    });
    expect(energiesFromFile('Cu.json', mp)).toEqual({ energies: parseSurfaceEnergies('1,1,1:1.3;1,0,0:1.47') });
    expect(energiesFromFile('bad.json', '{"surfaces": [{"miller_index": [1,0,0]}]}')).toEqual({
      error: 'Could not read bad.json: surface 1 of the JSON has no "miller_index" and "surface_energy".',
    });
  });
});

describe('series → plots', () => {
  // Shells 1..5 around the centre atom: ASE noshells 2..6.
  const members = sizeSeries('icosahedron', [2, 3, 4, 5, 6], { crystal: cu }, { debye: false });
  it('magic markers at the closed shells 13, 55, 147, 309, 561', () => {
    expect(magicMarkers(members)).toEqual({ n: [13, 55, 147, 309, 561], reference: false });
    expect(closedShellNumbers(1000)).toEqual([13, 55, 147, 309, 561, 923]);
  });
  it('a series with no magic member gets the closed-shell numbers in its range, as references', () => {
    const wulff = sizeSeries('wulff', [40, 200], { crystal: cu }, { energies: parseSurfaceEnergies('1,0,0:1.15;1,1,1:1'), debye: false });
    const lo = Math.min(...wulff.map((m) => m.nAtoms));
    const hi = Math.max(...wulff.map((m) => m.nAtoms));
    expect(magicMarkers(wulff)).toEqual({ n: closedShellNumbers(hi).filter((n) => n >= lo), reference: true });
  });
  it('columns by N: surface fraction, mean CN, facet families, class shares stacked to 1', () => {
    const d = seriesPlotData([...members].reverse());
    expect(d.n).toEqual([13, 55, 147, 309, 561]);
    expect(d.order).toEqual([4, 3, 2, 1, 0]);
    expect(d.surfaceFraction).toEqual(members.map((m) => m.surfaceFraction));
    expect(d.meanCn).toEqual(members.map((m) => m.meanCoordination));
    expect(d.fwhm).toEqual([null, null, null, null, null]);
    expect(d.facets).toEqual([{ family: '{1 1 1}', fraction: [1, 1, 1, 1, 1] }]);
    expect(d.classStack.map((l) => l.cls)).toEqual(['bulk', 'face', 'edge', 'vertex']);
    for (const v of d.classStack.at(-1)!.top) expect(v).toBeCloseTo(1, 12);
    // 147 atoms: 55 bulk, 20 face, 60 edge, 12 vertex.
    expect(d.classStack.map((l) => l.own[2] * 147).map(Math.round)).toEqual([55, 20, 60, 12]);
  });
  it('one member’s histogram stacked by class: 147 atoms = 55 × CN 12, 20 × 9, 60 × 8, 12 × 6', () => {
    const h = classHistogram(members[2]);
    expect(h.cn).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const own = Object.fromEntries(h.layers.map((l) => [l.cls, Object.fromEntries(l.own.flatMap((n, cn) => (n ? [[cn, n]] : [])))]));
    expect(own).toEqual({ bulk: { 12: 55 }, face: { 9: 20 }, edge: { 8: 60 }, vertex: { 6: 12 } });
    expect(h.layers.at(-1)!.top.reduce((s, x) => s + x, 0)).toBe(147);
  });
});

describe('the page’s CSV and JSON are structlab series’s', () => {
  const dir = mkdtempSync(join(tmpdir(), 'np-series-'));
  const cif = join(dir, 'Cu.cif');
  writeFileSync(cif, FCC_CU_CIF);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['icosahedron', '2..4', {}],
    ['octahedron', '3,4', { cutoff: 1 }],
    ['wulff', '60,150', { energies: parseSurfaceEnergies('1,0,0:1.15;1,1,1:1') }],
  ] as const)('%s %s', async (shape, sizes, options) => {
    const extra = shape === 'wulff' ? ['--surface-energies', '1,0,0:1.15;1,1,1:1'] : shape === 'octahedron' ? ['--cutoff', '1'] : [];
    const members = sizeSeries(shape, parseSizes(sizes, false), { crystal: cu }, options);
    const csv = await structlabInProcess(['series', cif, '--shape', shape, '--sizes', sizes, '--csv', ...extra]);
    expect(csv.code).toBe(0);
    expect(seriesCsv(shape, members).trimEnd()).toBe(csv.stdout.trimEnd());
    const json = await structlabInProcess(['series', cif, '--shape', shape, '--sizes', sizes, ...extra]);
    expect(json.code).toBe(0);
    const cli = JSON.parse(json.stdout);
    const page = JSON.parse(seriesJson(shape, cif, members, cli.area_fractions ?? null));
    expect(page).toEqual(cli);
  });
});
