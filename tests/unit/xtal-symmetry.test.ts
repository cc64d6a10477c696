/**
 * `structlab symmetry` against the spglib goldens (spglib 2.0.2 through pymatgen's SpacegroupAnalyzer, symprec 0.01 and
 * 0.1, angle tolerance 5°), field by field and exactly: group fields, orbit partition, operation set, Wyckoff letter and
 * site symmetry of every site, the std/prim cells' parameters within 1e-5 Å / 1e-5° (spglib's own choice of origin and
 * axes, not an equivalent one); Niggli lattice 1e-4 Å / 1e-3°.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Lattice } from '../../src/core/structure/lattice.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { matcherFit } from '../../src/core/match/structure-matcher.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { type Json, corpusPath, matchSitesByPosition, readXtalGolden, xtalGoldenNames } from '../xtal-goldens.ts';

const names = xtalGoldenNames();

const paramsOf = (l: Json): number[] => [l.a, l.b, l.c, l.alpha, l.beta, l.gamma];
const withinParams = (p: number[], q: number[], tol = { length: 1e-4, angle: 1e-3 }) =>
  p.slice(0, 3).every((x, i) => Math.abs(x - q[i]) <= tol.length) && p.slice(3).every((x, i) => Math.abs(x - q[3 + i]) <= tol.angle);
const EXACT = { length: 1e-5, angle: 1e-5 };

function cellStructure(c: Json, name: string): Structure {
  const lattice = new Lattice(c.lattice.matrix);
  return { name, lattice, sites: c.sites.map((s: Json) => ({ species: s.species, frac: s.frac, xyz: lattice.fracToCart(s.frac) })) };
}

const composition = (sites: Json[]) => {
  const m = new Map<string, number>();
  for (const s of sites) for (const [el, occ] of Object.entries(s.species)) m.set(el, (m.get(el) ?? 0) + (occ as number));
  return [...m]
    .sort()
    .map(([el, x]) => `${el}${x.toFixed(3)}`)
    .join(' ');
};

/** Operation sets equal: same rotations, translations equal modulo lattice vectors within symprec Å. */
function sameOperations(ours: Json[], golden: Json[], matrix: number[][], symprec: number): boolean {
  if (ours.length !== golden.length) return false;
  const cart = (f: number[]) => [0, 1, 2].map((x) => f[0] * matrix[0][x] + f[1] * matrix[1][x] + f[2] * matrix[2][x]);
  return golden.every((g) =>
    ours.some((o) => {
      if (JSON.stringify(o.rotation) !== JSON.stringify(g.rotation)) return false;
      const d = [0, 1, 2].map((i) => o.translation[i] - g.translation[i] - Math.round(o.translation[i] - g.translation[i]));
      return Math.hypot(...cart(d)) <= symprec;
    }),
  );
}

/** Same partition of sites into orbits (labels free), through the site permutation. */
function samePartition(ours: number[], golden: number[], perm: number[]): boolean {
  const a = new Map<number, number>(),
    b = new Map<number, number>();
  for (let k = 0; k < ours.length; k++) {
    const g = golden[perm[k]];
    if (a.has(ours[k]) && a.get(ours[k]) !== g) return false;
    if (b.has(g) && b.get(g) !== ours[k]) return false;
    a.set(ours[k], g);
    b.set(g, ours[k]);
  }
  return true;
}

const MATCH = { ltol: 1e-3, stol: 1e-2, angleTol: 0.1, scale: false, primitiveCell: false } as const;

describe.each(names)('structlab symmetry %s', (name) => {
  const golden = readXtalGolden(name);
  for (const symprec of ['0.01', '0.1']) {
    const g = golden.symmetry[symprec];
    it(`matches spglib at symprec ${symprec}`, async () => {
      expect(g, `golden symmetry[${symprec}]`).toBeTruthy();
      const r = await structlabInProcess(['symmetry', corpusPath(name), '--symprec', symprec]);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      const input = golden.input;
      const perm = matchSitesByPosition(out.sites, input.sites, input.lattice.matrix);
      expect(out.angle_tolerance).toBe(g.angle_tolerance);
      expect([out.number, out.hall_number, out.international, out.point_group, out.crystal_system, out.n_operations]).toEqual([
        g.number,
        g.hall_number,
        g.international,
        g.point_group,
        g.crystal_system,
        g.n_operations,
      ]);
      expect(out.hall).toBe(g.hall);
      expect(
        samePartition(
          out.sites.map((s: Json) => s.orbit),
          g.equivalent_atoms,
          perm,
        ),
        'orbit partition',
      ).toBe(true);
      expect(sameOperations(out.operations, g.operations, input.lattice.matrix, Number(symprec)), 'operation set').toBe(true);
      const letters = out.sites.map((s: Json, k: number) => [perm[k], s.wyckoff, s.site_symmetry]).sort((x: Json, y: Json) => x[0] - y[0]);
      expect(letters, 'Wyckoff letters + site symmetries').toEqual(
        g.wyckoffs.map((w: string, j: number) => [j, w, g.site_symmetry_symbols[j]]),
      );
      for (const key of ['std_cell', 'prim_std_cell'] as const) {
        const p = paramsOf(out[key].lattice);
        expect(
          withinParams(p, paramsOf(g[key].lattice), EXACT),
          `${key} ${p.join(' ')} vs spglib ${paramsOf(g[key].lattice).join(' ')}`,
        ).toBe(true);
        expect(out[key].sites.length, `${key} sites`).toBe(g[key].sites.length);
        expect(composition(out[key].sites)).toBe(composition(g[key].sites));
        if (g[key].sites.length <= 200) {
          expect(matcherFit(cellStructure(out[key], 'ours'), cellStructure(g[key], 'spglib'), MATCH), `${key} matches spglib's`).toBe(true);
        }
      }
      expect(withinParams(paramsOf(out.niggli_lattice), paramsOf(g.niggli_lattice)), 'niggli').toBe(true);
    });
  }
});

describe('structlab symmetry refuses what has no dataset', () => {
  it('exits 2 with a sentence for a finite structure and bad options', async () => {
    const xyz = join(mkdtempSync(join(tmpdir(), 'structlab-xtal-')), 'water.xyz');
    writeFileSync(xyz, '3\nwater\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n');
    const r = await structlabInProcess(['symmetry', xyz]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*(periodic|lattice)/);
    const bad = await structlabInProcess(['symmetry', corpusPath('pmg-LiFePO4.cif'), '--symprec', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--symprec must be a number/);
  });
});

describe('structlab symmetry --angle-tolerance', () => {
  // spglib 2.0.2 on pymatgen's reading of LiFePO4 (γ = 89.5°) at symprec 0.1: Pnma with 5°, P2_1/c with its own
  // length-only check (tests/reference/golden/spglib/datasets.json.gz holds both cases).
  it("5° by default (pymatgen), -1 for spglib's default; the output names the one used", async () => {
    const file = corpusPath('pmg-LiFePO4.cif');
    const run = async (...extra: string[]) =>
      JSON.parse((await structlabInProcess(['symmetry', file, '--symprec', '0.1', ...extra])).stdout);
    const byDefault = await run();
    expect([byDefault.number, byDefault.angle_tolerance]).toEqual([62, 5]);
    const spglibDefault = await run('--angle-tolerance', '-1');
    expect([spglibDefault.number, spglibDefault.international, spglibDefault.angle_tolerance]).toEqual([14, 'P2_1/c', -1]);
  });
  it('refuses a value that is not an angle, with one sentence', async () => {
    for (const bad of ['abc', '0', '95', '']) {
      const r = await structlabInProcess(['symmetry', corpusPath('pmg-LiFePO4.cif'), '--angle-tolerance', bad]);
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toMatch(/--angle-tolerance takes degrees between 0 and 90, or -1 for spglib's default, got /);
    }
  });
});
