/**
 * `structlab carve CELL --shape …` in process: the sphere (default) unchanged byte for byte, the Wulff particle from
 * typed energies, a Materials Project JSON and a CSV, ASE's shapes from a one-element fcc crystal (the same atoms as
 * `structlab cluster`), and every refusal as one sentence with exit status 2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { structlabInProcess } from '../cli-runner.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { parseSurfaceEnergies } from '../../src/core/structure/clusters/surface-energies.ts';
import { wulffShapeOf } from '../../src/core/tasks/c2np/wulff-crystal.ts';
import { carveParticle } from '../../src/core/tasks/c2np/carve.ts';
import { RAW_COMMENT, formatRawXyz } from '../../src/core/tasks/c2np/dataset.ts';
import { FCC_CU_CIF } from '../cif.ts';

const tmp = mkdtempSync(join(tmpdir(), 'structlab-carve-shapes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let fileNo = 0;
const out = (ext = 'xyz') => join(tmp, `p${fileNo++}.${ext}`);
const write = (name: string, text: string) => {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
};

const CU = write('Cu.cif', FCC_CU_CIF);
const MG = write(
  'Mg.vasp',
  `Mg hcp
1.0
3.2094 0 0
-1.6047 2.779422 0
0 0 5.2108
Mg
2
Direct
0.333333333333 0.666666666667 0.25
0.666666666667 0.333333333333 0.75
`,
);
const NACL = write(
  'NaCl.vasp',
  `NaCl
5.64
0 0.5 0.5
0.5 0 0.5
0.5 0.5 0
Na Cl
1 1
Direct
0 0 0
0.5 0.5 0.5
`,
);
const ENERGIES = '1,0,0:1.47;1,1,1:1.30;1,1,0:1.56';

const run = (argv: string[]) => structlabInProcess(argv);
const xyzCount = (path: string) => Number(readFileSync(path, 'utf8').split('\n')[0]);

describe('carve --shape sphere is today’s carve, byte for byte', () => {
  it('default and --shape sphere write what carveParticle + formatRawXyz give, and print the same three fields', async () => {
    const cell = parseStructureFile(readFileSync(CU, 'utf8'), 'Cu.cif');
    if (!cell.ok) throw new Error(cell.error);
    const expected = formatRawXyz(carveParticle(cell.structures[0], { radius: 8, repeats: 20 }), RAW_COMMENT);
    const [a, b] = [out(), out()];
    const ra = await run(['carve', CU, '--radius', '8', '-o', a]);
    const rb = await run(['carve', CU, '--shape', 'sphere', '--radius', '8', '-o', b]);
    expect([ra.code, rb.code]).toEqual([0, 0]);
    expect(readFileSync(a, 'utf8')).toBe(expected);
    expect(readFileSync(b, 'utf8')).toBe(expected);
    expect(Object.keys(JSON.parse(ra.stdout))).toEqual(['written', 'natoms', 'center']);
    expect(JSON.parse(rb.stdout)).toEqual({ ...JSON.parse(ra.stdout), written: b });
  });
});

describe('carve --shape wulff', () => {
  it('typed energies: the particle nearest --size, the shape’s area fractions, the closed sizes either side', async () => {
    const path = out();
    const r = await run(['carve', CU, '--shape', 'wulff', '--surface-energies', ENERGIES, '--size', '500', '-o', path]);
    expect(r.code, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ written: path, shape: 'wulff', size: 500, rounding: 'closest', symmetry: 'laue', point_group: 'm-3m' });
    expect(o.below).toBeLessThanOrEqual(500);
    expect(o.above).toBeGreaterThanOrEqual(500);
    expect([o.below, o.above]).toContain(o.natoms);
    expect(o.center).toEqual([36.149, 36.149, 36.149].map((x) => expect.closeTo(x, 10)));
    expect(o.composition).toEqual({ Cu: o.natoms });
    expect(xyzCount(path)).toBe(o.natoms);
    const cell = parseStructureFile(readFileSync(CU, 'utf8'), 'Cu.cif');
    if (!cell.ok) throw new Error(cell.error);
    const w = wulffShapeOf(cell.structures[0], parseSurfaceEnergies(ENERGIES));
    for (const f of w.families) expect(o.area_fractions[f.label]).toBeCloseTo(f.areaFraction, 12);
    const above = await run([
      'carve',
      CU,
      '--shape',
      'wulff',
      '--surface-energies',
      ENERGIES,
      '--size',
      '500',
      '--rounding',
      'above',
      '-o',
      out(),
    ]);
    expect(JSON.parse(above.stdout).natoms).toBe(o.above);
  });
  it('the same particle from a Materials Project JSON and from a CSV file', async () => {
    const json = write(
      'cu-surfaces.json',
      JSON.stringify({
        material_id: 'mp-30',
        surfaces: [
          { miller_index: [1, 0, 0], surface_energy: 1.47 },
          { miller_index: [1, 1, 1], surface_energy: 1.3 },
          { miller_index: [1, 1, 0], surface_energy: 1.56 },
        ],
      }),
    );
    const csv = write('cu-surfaces.csv', 'h,k,l,energy\n1,0,0,1.47\n1,1,1,1.30\n1,1,0,1.56\n');
    const typed = out();
    await run(['carve', CU, '--shape', 'wulff', '--surface-energies', ENERGIES, '--size', '300', '-o', typed]);
    for (const file of [json, csv]) {
      const path = out();
      const r = await run(['carve', CU, '--shape', 'wulff', '--surface-energies', file, '--size', '300', '-o', path]);
      expect(r.code, r.stderr).toBe(0);
      expect(readFileSync(path, 'utf8')).toBe(readFileSync(typed, 'utf8'));
    }
  });
  it('a hexagonal crystal, four-index energies, centred on the origin', async () => {
    const r = await run([
      'carve',
      MG,
      '--shape',
      'wulff',
      '--surface-energies',
      '0,0,0,1:0.54;1,0,-1,0:0.62;1,0,-1,1:0.64',
      '--size',
      '400',
      '--center',
      'origin',
      '-o',
      out(),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o.point_group).toBe('6/mmm');
    expect(o.center).toEqual([0, 0, 0]);
    expect(Object.keys(o.area_fractions)).toEqual(['{0 0 0 1}', '{1 0 -1 0}', '{1 0 -1 1}']);
  });
});

describe('carve --shape icosahedron|decahedron|octahedron|cuboctahedron from an fcc crystal', () => {
  const positions = (path: string) =>
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .slice(2)
      .map((line) => line.trim().split(/\s+/).slice(1).map(Number));
  it('the same atoms as structlab cluster with the crystal’s element and a', async () => {
    for (const [shape, args, cluster] of [
      ['icosahedron', ['--shells', '3'], ['icosahedron', '--shells', '3']],
      ['decahedron', ['--p', '3', '--q', '2', '--r', '1'], ['decahedron', '--p', '3', '--q', '2', '--r', '1']],
      ['octahedron', ['--length', '7', '--cutoff', '2'], ['octahedron', '--length', '7', '--cutoff', '2']],
      ['cuboctahedron', ['--shells', '4'], ['octahedron', '--length', '7', '--cutoff', '3']],
    ] as const) {
      const a = out();
      const b = out();
      const r = await run(['carve', CU, '--shape', shape, ...args, '-o', a]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ written: a, shape, element: 'Cu', lattice_constant: 3.6149, center: [0, 0, 0] });
      const c = await run(['cluster', ...cluster, '--element', 'Cu', '--lattice-constant', '3.6149', '-o', b]);
      expect(c.code, c.stderr).toBe(0);
      // carve writes 8 decimals (f16.8), cluster every digit.
      const [pa, pb] = [positions(a), positions(b)];
      expect(pa.length).toBe(pb.length);
      pa.forEach((p, i) => p.forEach((x, k) => expect(Math.abs(x - pb[i][k])).toBeLessThan(6e-9)));
    }
  });
  it('--size picks the closed shell nearest it and says so', async () => {
    const r = await run(['carve', CU, '--shape', 'octahedron', '--size', '200', '-o', out()]);
    expect(JSON.parse(r.stdout)).toMatchObject({ natoms: 201, size: 200, length: 7, cutoff: 2, magic: true });
    const i = await run(['carve', CU, '--shape', 'icosahedron', '--size', '140', '-o', out()]);
    expect(JSON.parse(i.stdout)).toMatchObject({ natoms: 147, shells: 4, magic: true });
    const d = await run(['carve', CU, '--shape', 'decahedron', '--size', '60', '-o', out()]);
    expect(JSON.parse(d.stdout)).toMatchObject({ natoms: 55, p: 3, q: 3, r: 0 });
  });
  it('an existing OUT takes --force', async () => {
    const path = out();
    writeFileSync(path, 'keep');
    const refused = await run(['carve', CU, '--shape', 'icosahedron', '--shells', '2', '-o', path]);
    expect(refused.code).toBe(2);
    expect(readFileSync(path, 'utf8')).toBe('keep');
    const forced = await run(['carve', CU, '--shape', 'icosahedron', '--shells', '2', '-o', path, '--force']);
    expect(forced.code).toBe(0);
    expect(xyzCount(path)).toBe(13);
  });
});

describe('refusals: one sentence, exit 2, nothing written', () => {
  const wulff = (energies: string, extra: string[] = []) => [
    'carve',
    CU,
    '--shape',
    'wulff',
    '--surface-energies',
    energies,
    '--size',
    '100',
    ...extra,
  ];
  it.each([
    [
      ['carve', MG, '--shape', 'icosahedron', '--shells', '3'],
      /Mg\.vasp: Mg is hcp \(P6_3\/mmc\); icosahedra, decahedra and octahedra here are built from fcc crystals$/,
    ],
    [['carve', NACL, '--shape', 'decahedron', '--size', '50'], /NaCl has 2 elements \(Fm-3m\); .* built from one-element fcc crystals$/],
    [wulff('1,0,0:0'), /--surface-energies: .*the surface energy of \(1,0,0\) must be a positive number, got "0"$/],
    [wulff('1,0,0:-1'), /must be a positive number, got "-1"$/],
    [wulff('1,0,0:NaN'), /must be a positive number, got "NaN"$/],
    [wulff('0,0,0:1'), /\(0,0,0\) is not a plane; give h,k,l not all zero$/],
    [wulff('1,0,0:1;0,0,1:1.2'), /Cu\.cif: \(1,0,0\) and \(0,0,1\) are the same family of planes in this crystal; give each family once$/],
    [
      ['carve', MG, '--shape', 'wulff', '--surface-energies', '0,0,1:1', '--size', '100'],
      /Mg\.vasp: the planes of \{0 0 1\} do not enclose a volume/,
    ],
    [wulff('nonsense'), /--surface-energies "nonsense" is no file and not h,k,l:energy pairs/],
    [['carve', CU, '--shape', 'wulff', '--surface-energies', ENERGIES], /carve --shape wulff needs --size N/],
    [['carve', CU, '--shape', 'wulff', '--size', '10'], /carve --shape wulff needs --surface-energies SPEC\|FILE/],
    [wulff(ENERGIES, ['--radius', '5']), /--radius does not apply to --shape wulff/],
    [wulff(ENERGIES, ['--quaternion', '0,0,0,1']), /--quaternion does not apply to --shape wulff/],
    [wulff(ENERGIES, ['--rounding', 'up']), /--rounding must be closest or above or below, got "up"/],
    [
      ['carve', CU, '--shape', 'wulff', '--surface-energies', ENERGIES, '--size', '200000'],
      /the requested Wulff size has 200,000 atoms; the limit is 100,000 atoms \(raise it with --limit particleAtoms=N\)/,
    ],
    [['carve', CU, '--shape', 'icosahedron', '--shells', '3', '--size', '55'], /give --size or --shells, not both/],
    [['carve', CU, '--shape', 'decahedron', '--p', '3'], /carve --shape decahedron needs --p and --q or --size N/],
    [['carve', CU, '--shape', 'octahedron', '--length', '0'], /--length must be a positive whole number, got 0/],
    [
      ['carve', CU, '--shape', 'icosahedron', '--shells', '60'],
      /an icosahedron of 60 shells has 702,219 atoms; the limit is 100,000 atoms/,
    ],
    [['carve', CU, '--shape', 'icosahedron', '--center', 'origin', '--shells', '2'], /--center does not apply to --shape icosahedron/],
    [
      ['carve', CU, '--shape', 'cube', '--size', '3'],
      /--shape must be sphere or wulff or icosahedron or decahedron or octahedron or cuboctahedron, got "cube"/,
    ],
    [['carve', CU, '--shape', 'icosahedron', '--shells', '2'], /carve needs -o OUT\.xyz/],
  ])('%j', async (argv, sentence) => {
    const path = out();
    const r = await run(argv.includes('-o') || /-o OUT/.test(sentence.source) ? argv : [...argv, '-o', path]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(sentence);
  });
  it('bad energy files name the file and the line', async () => {
    const csv = write('bad.csv', 'h,k,l,energy\n1,0,0,1.2\n1,1,1,-0.3\n');
    const r = await run([...wulff(csv), '-o', out()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.csv: line 3: the surface energy of \(1,1,1\) must be a positive number, got "-0.3"/);
    const json = write('bad.json', '{"surfaces": [{"miller_index": [1, 0], "surface_energy": 1}]}');
    expect((await run([...wulff(json), '-o', out()])).stderr).toMatch(/bad\.json: surface 1: a plane needs three Miller indices/);
  });
});
