/**
 * `structlab traj` in process on a generated trajectory: a rock-salt cell breathing and one atom drifting, with energies,
 * forces and stress written into the extended XYZ; every expected number is computed here from the generator.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { structlabInProcess } from '../cli-runner.ts';

const FCC = [
  [0, 0, 0],
  [0, 0.5, 0.5],
  [0.5, 0, 0.5],
  [0.5, 0.5, 0],
];

/** Frame k: cubic cell a_k, Na shifted along x by d_k (fraction), energy −k/10, forces (k, 0, 0) on the first atom. */
function frame(k: number): { text: string; a: number; energy: number; force: number; pressure: number } {
  const a = 5.64 + 0.01 * k;
  const d = 0.004 * k;
  const atoms: string[] = [];
  FCC.forEach((f, i) => atoms.push(`Na ${(f[0] + (i === 0 ? d : 0)) * a} ${f[1] * a} ${f[2] * a} ${i === 0 ? k : 0} 0 0`));
  FCC.forEach((f) => atoms.push(`Cl ${(f[0] + 0.5) * a} ${f[1] * a} ${f[2] * a} 0 ${-0.5} 0`));
  const s = 0.01 * k;
  const header =
    `Lattice="${a} 0 0 0 ${a} 0 0 0 ${a}" Properties=species:S:1:pos:R:3:forces:R:3 energy=${-k / 10} ` +
    `stress="${s} 0 0 0 ${s} 0 0 0 ${s}" pbc="T T T"`;
  return { text: `8\n${header}\n${atoms.join('\n')}\n`, a, energy: -k / 10, force: Math.max(k, 0.5), pressure: -s };
}

const FRAMES = 12;
const tmp = mkdtempSync(join(tmpdir(), 'structlab-traj-'));
const traj = join(tmp, 'run.extxyz');
writeFileSync(traj, Array.from({ length: FRAMES }, (_, k) => frame(k).text).join(''));
const ref = join(tmp, 'ref.extxyz');
writeFileSync(ref, frame(0).text);

describe('structlab traj', () => {
  it('reports every frame: its energy, max force, pressure, cell and shortest distance', async () => {
    const r = await structlabInProcess(['traj', traj]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.format).toBe('extxyz');
    expect(out.frames).toBe(FRAMES);
    expect(out.rows).toHaveLength(FRAMES);
    out.rows.forEach((row: Record<string, number>, k: number) => {
      const f = frame(k);
      expect(row.frame).toBe(k + 1);
      expect(row.energy).toBeCloseTo(f.energy, 15);
      expect(row.max_force).toBeCloseTo(f.force, 12);
      expect(row.pressure).toBeCloseTo(f.pressure, 14);
      expect(row.volume).toBeCloseTo(f.a ** 3, 9);
      expect(row.a).toBeCloseTo(f.a, 12);
      // Na0 moves towards Cl at (0.5, 0, 0)·a and away from its image; the closest pair is that Na–Cl: (0.5 − d)·a.
      expect(row.min_distance).toBeCloseTo((0.5 - 0.004 * k) * f.a, 9);
    });
    expect(out.units.max_force).toBe('eV/Å');
    expect(out.summary.energy).toEqual({ min: frame(FRAMES - 1).energy, min_frame: FRAMES, max: 0, max_frame: 1 });
  });

  it('adds the space group, the match against a reference, takes every K-th frame and writes the rows', async () => {
    const rows = join(tmp, 'rows.csv');
    const r = await structlabInProcess(['traj', traj, '--symprec', '0.01', '--reference', ref, '--every', '5', '--rows', rows]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.rows.map((x: { frame: number }) => x.frame)).toEqual([1, 6, 11]);
    expect(out.rows[0].spacegroup).toBe('Fm-3m');
    expect(out.rows[0].spacegroup_number).toBe(225);
    // A displaced Na (0.02 · a = 0.11 Å) breaks the cubic group at symprec 0.01.
    expect(out.rows[1].spacegroup_number).not.toBe(225);
    expect(out.rows[0].match).toBe(true);
    expect(out.rows[0].rms).toBeCloseTo(0, 12);
    expect(out.rows[2].rms).toBeGreaterThan(out.rows[1].rms);
    const csv = readFileSync(rows, 'utf8').trim().split('\r\n');
    expect(csv[0].split(',')).toEqual(expect.arrayContaining(['frame', 'energy', 'max_force', 'spacegroup', 'match', 'rms']));
    expect(csv).toHaveLength(4);
    // Never over an existing file without --force, and never over an input.
    const again = await structlabInProcess(['traj', traj, '--rows', rows]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists; pass --force/);
    expect((await structlabInProcess(['traj', traj, '--rows', rows, '--force'])).code).toBe(0);
    expect((await structlabInProcess(['traj', traj, '--rows', traj, '--force'])).stderr).toMatch(/refusing to write over an input/);
    const jsonl = join(tmp, 'rows.jsonl');
    expect((await structlabInProcess(['traj', traj, '--rows', jsonl])).code).toBe(0);
    expect(JSON.parse(readFileSync(jsonl, 'utf8').split('\n')[3]).energy).toBe(-0.3);
  });

  it('reads XDATCAR and JSONL trajectories', async () => {
    const xdatcar = join(tmp, 'XDATCAR');
    writeFileSync(
      xdatcar,
      'NaCl\n1\n5.64 0 0\n0 5.64 0\n0 0 5.64\nNa Cl\n1 1\n' +
        'Direct configuration= 1\n0 0 0\n0.5 0 0\nDirect configuration= 2\n0.1 0 0\n0.5 0 0\n',
    );
    const x = JSON.parse((await structlabInProcess(['traj', xdatcar])).stdout);
    expect(x.format).toBe('xdatcar');
    expect(x.rows.map((r: { min_distance: number }) => r.min_distance)).toEqual([expect.closeTo(2.82, 12), expect.closeTo(0.4 * 5.64, 12)]);
    const jsonlTraj = join(tmp, 'frames.jsonl');
    const dict = (x0: number) =>
      JSON.stringify({
        '@class': 'Structure',
        lattice: {
          matrix: [
            [4, 0, 0],
            [0, 4, 0],
            [0, 0, 4],
          ],
        },
        properties: { energy: x0 },
        sites: [
          { species: [{ element: 'Cu', occu: 1 }], abc: [x0, 0, 0] },
          { species: [{ element: 'Cu', occu: 1 }], abc: [0.5, 0.5, 0] },
        ],
      });
    writeFileSync(jsonlTraj, `${dict(0)}\n${dict(0.25)}\n`);
    const j = JSON.parse((await structlabInProcess(['traj', jsonlTraj])).stdout);
    expect(j.format).toBe('jsonl');
    expect(j.rows.map((r: { energy: number }) => r.energy)).toEqual([0, 0.25]);
  });

  it('exits 2 with one sentence on bad input', async () => {
    const bad = join(tmp, 'bad.extxyz');
    writeFileSync(bad, frame(0).text + frame(1).text.replace(/Cl \S+/, 'Cl abc'));
    const cases: [string[], RegExp][] = [
      [['traj'], /traj takes exactly one trajectory FILE/],
      [['traj', join(tmp, 'missing.xyz')], /no such file/],
      [['traj', traj, '--every', '0'], /--every must be between 1/],
      [['traj', traj, '--every', '1.5'], /--every must be a whole number/],
      [['traj', traj, '--symprec', 'x'], /--symprec must be a number/],
      [['traj', traj, '--force'], /--force only applies to --rows/],
      [['traj', traj, '--reference', join(tmp, 'missing.cif')], /no such file/],
      [['traj', bad], /bad\.extxyz line \d+: /],
    ];
    for (const [args, message] of cases) {
      const r = await structlabInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
