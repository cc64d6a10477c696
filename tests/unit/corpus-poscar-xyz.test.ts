/**
 * Every non-CIF corpus file (POSCAR/CONTCAR, XYZ, extended XYZ) against the trusted-tool goldens:
 * pymatgen's Poscar structure, pymatgen's XYZ frames and ASE's extxyz images.
 * Tolerances: lattice 1e-6 Å (goldens are rounded to 1e-10), positions 1e-6 Å for XYZ (goldens
 * rounded to 1e-8), 1e-3 Å for POSCAR sites (brief), amounts 1e-9.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE, corpusFileNames, readCorpusGolden, readCorpusText } from '../../scripts/support/paths.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { elementAmounts } from '../../src/core/structure/structure.ts';
import type { Vec3 } from '../../src/core/math/mat3.ts';

const FILES = corpusFileNames().filter((f) => readCorpusGolden(f).format !== 'cif');

function parseOk(name: string) {
  const res = parseStructureFile(readCorpusText(name), name);
  if (!res.ok) throw new Error(`${name}: ${res.error} (line ${res.line})`);
  return res;
}

function expectAmounts(actual: Record<string, number>, expected: Record<string, number>) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [el, n] of Object.entries(expected)) expect(actual[el]).toBeCloseTo(n, 9);
}

function expectMatrix(actual: number[][], expected: number[][], tol: number) {
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(Math.abs(actual[i][j] - expected[i][j])).toBeLessThan(tol);
}

/** Shortest Cartesian distance between two fractional positions over periodic images (brute force ±1). */
function periodicDistance(s: Structure, fa: Vec3, fb: Vec3): number {
  const m = s.lattice!.matrix;
  let best = Infinity;
  const d0 = [0, 1, 2].map((k) => fa[k] - fb[k] - Math.round(fa[k] - fb[k]));
  for (let i = -1; i <= 1; i++)
    for (let j = -1; j <= 1; j++)
      for (let k = -1; k <= 1; k++) {
        const f = [d0[0] + i, d0[1] + j, d0[2] + k];
        const x = [0, 1, 2].map((c) => f[0] * m[0][c] + f[1] * m[1][c] + f[2] * m[2][c]);
        best = Math.min(best, Math.hypot(x[0], x[1], x[2]));
      }
  return best;
}

describe('corpus POSCAR/CONTCAR vs pymatgen Poscar', () => {
  const names = FILES.filter((f) => readCorpusGolden(f).format === 'poscar');
  it('has POSCAR files to check', () => expect(names.length).toBeGreaterThan(0));
  for (const name of names) {
    it(name, () => {
      const golden = readCorpusGolden(name);
      const pmg = golden.pymatgen;
      expect(pmg.ok).toBe(true);
      const res = parseOk(name);
      expect(res.format).toBe('poscar');
      expect(res.structures.length).toBe(1);
      const s = res.structures[0];
      const g = pmg.structures[0];
      expect(s.lattice).not.toBeNull();
      expectMatrix(s.lattice!.matrix, g.lattice.matrix, 1e-6);
      expect(s.sites.length).toBe(g.n_sites);
      // pymatgen 2022 ignores a VASP 4 comment line that names the elements and invents H, He, …;
      // ASE reads the names from it. We follow ASE there (real species); elsewhere pymatgen.
      const pmgWarned = (pmg.warnings ?? []).some((w: string) => w.includes('Elements in POSCAR cannot be determined'));
      if (pmgWarned && golden.ase.ok) {
        expect(s.sites.map((x) => Object.keys(x.species)[0])).toEqual(golden.ase.images[0].symbols);
        expect(res.warnings.some((w) => w.includes('comment line'))).toBe(true);
        return;
      }
      expectAmounts(elementAmounts(s), g.element_amounts);
      expect(s.properties?.comment).toBe(pmg.comment);
      // Sites up to order: each golden site must have a site of ours with equal species within 1e-3 Å.
      // We keep the file order, so index i is tried first; the search is the fallback.
      g.sites.forEach((gs: { species: Record<string, number>; frac: Vec3 }, i: number) => {
        const same = (j: number) => JSON.stringify(s.sites[j].species) === JSON.stringify(gs.species);
        let d = same(i) ? periodicDistance(s, s.sites[i].frac!, gs.frac) : Infinity;
        if (d > 1e-3) for (let j = 0; j < s.sites.length; j++) if (same(j)) d = Math.min(d, periodicDistance(s, s.sites[j].frac!, gs.frac));
        expect(d, `site ${i}`).toBeLessThan(1e-3);
      });
      if (pmg.has_selective_dynamics) {
        expect(s.sites.map((x) => x.properties?.selective_dynamics)).toEqual(pmg.selective_dynamics);
      } else {
        expect(s.sites.every((x) => x.properties?.selective_dynamics === undefined)).toBe(true);
      }
      if (pmg.has_velocities) {
        g.sites.forEach((gs: { properties: { velocities: (string | number)[] } }, i: number) => {
          const v = s.sites[i].properties?.velocities as number[];
          gs.properties.velocities.map(Number).forEach((x, k) => expect(Math.abs(v[k] - x)).toBeLessThan(1e-9));
        });
      } else {
        expect(s.sites.every((x) => x.properties?.velocities === undefined)).toBe(true);
      }
      // pymatgen falls back to placeholder names with a warning; we must warn as well.
      expect(res.warnings.some((w) => w.includes('placeholder'))).toBe(pmgWarned);
    });
  }
});

describe('corpus XYZ vs pymatgen frames (and ASE images for extxyz)', () => {
  const names = FILES.filter((f) => ['xyz', 'extxyz'].includes(readCorpusGolden(f).format));
  it('has XYZ files to check', () => expect(names.length).toBeGreaterThan(0));
  for (const name of names) {
    it(name, () => {
      const golden = readCorpusGolden(name);
      const res = parseOk(name);
      expect(res.format).toBe(golden.format);
      const pmg = golden.pymatgen;
      expect(pmg.ok).toBe(true);
      expect(res.structures.length).toBe(pmg.n_frames);
      pmg.frames.forEach((fr: { n_sites: number; element_amounts: Record<string, number> }, k: number) => {
        expect(res.structures[k].sites.length).toBe(fr.n_sites);
        expectAmounts(elementAmounts(res.structures[k]), fr.element_amounts);
      });
      const first = res.structures[0];
      const f0 = pmg.frames[0];
      expect(first.sites.map((x) => Object.keys(x.species)[0])).toEqual(f0.species);
      f0.cart.forEach((c: Vec3, i: number) => {
        for (let k = 0; k < 3; k++) expect(Math.abs(first.sites[i].xyz[k] - c[k])).toBeLessThan(1e-6);
      });
      if (golden.format === 'xyz') {
        expect(res.structures.every((x) => x.lattice === null)).toBe(true);
        return;
      }
      const ase = golden.ase;
      expect(ase.ok).toBe(true);
      expect(res.structures.length).toBe(ase.n_images);
      ase.images.forEach((img: { n_atoms: number; pbc: boolean[]; cell: number[][]; info: Record<string, unknown> }, k: number) => {
        const s = res.structures[k];
        expect(s.sites.length).toBe(img.n_atoms);
        expect(s.properties?.pbc).toEqual(img.pbc);
        const periodic = img.cell.some((row) => row.some((x) => x !== 0));
        if (periodic) expectMatrix(s.lattice!.matrix, img.cell, 1e-6);
        else expect(s.lattice).toBeNull();
        for (const [key, value] of Object.entries(img.info)) {
          if (typeof value === 'number')
            expect(Math.abs((s.properties?.[key] as number) - value)).toBeLessThan(1e-9 * Math.max(1, Math.abs(value)));
          else if (typeof value === 'string' || typeof value === 'boolean') expect(s.properties?.[key]).toBe(value);
        }
      });
      const img0 = ase.images[0];
      expect(first.sites.map((x) => Object.keys(x.species)[0])).toEqual(img0.symbols);
      img0.positions.forEach((p: Vec3, i: number) => {
        for (let k = 0; k < 3; k++) expect(Math.abs(first.sites[i].xyz[k] - p[k])).toBeLessThan(1e-6);
      });
      // Extra per-atom columns that ASE kept must be in site.properties.
      const extra = (img0.arrays_keys as string[]).filter((key) => !['numbers', 'positions'].includes(key));
      for (const key of extra)
        expect(
          first.sites.every((x) => x.properties?.[key] !== undefined),
          key,
        ).toBe(true);
    });
  }
});

describe('corpus completeness', () => {
  it('checks every POSCAR, XYZ and extended XYZ file that the corpus manifest lists', () => {
    // MANIFEST.tsv names each corpus file with its format; a file missing from the checkout must fail here.
    const [header, ...rows] = readFileSync(join(REFERENCE, 'corpus', 'MANIFEST.tsv'), 'utf8')
      .trim()
      .split('\n');
    const formatColumn = header.split('\t').indexOf('format');
    const listed = rows
      .map((row) => row.split('\t'))
      .filter((cells) => cells[formatColumn] !== 'cif')
      .map((cells) => `${cells[0]} ${cells[formatColumn]}`);
    expect(FILES.map((f) => `${f} ${readCorpusGolden(f).format}`)).toEqual(listed.sort());
  });
});

describe('choices where the tools disagree', () => {
  it('VASP 4 files without any species information get pymatgen placeholder names (ASE fails on them)', () => {
    for (const name of ['matterviz-vasp4-format.poscar', 'ase-POSCAR_example_1']) {
      const golden = readCorpusGolden(name);
      expect(golden.ase.ok).toBe(false);
      const res = parseOk(name);
      expect(res.structures[0].sites.map((x) => Object.keys(x.species)[0]).join(' ')).toBe(
        golden.pymatgen.structures[0].sites.map((x: { species: object }) => Object.keys(x.species)[0]).join(' '),
      );
    }
  });
  it('extended XYZ read as periodic, where pymatgen ignores Lattice= (ASE agrees with us)', () => {
    for (const name of FILES.filter((f) => readCorpusGolden(f).format === 'extxyz')) {
      const golden = readCorpusGolden(name);
      expect(golden.ase.images[0].pbc.some(Boolean)).toBe(true);
      expect(parseOk(name).structures[0].lattice).not.toBeNull();
    }
  });
});
