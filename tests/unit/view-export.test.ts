/**
 * The Structure page's downloads (src/core/analysis/structure-export.ts): every format the CLI writes, read back by our
 * own readers, holds the source's lattice, species and positions — for the structure as read and for the supercell the
 * viewer draws. The as-shown check is independent of makeSupercell: each exported site must sit at a source site plus a
 * whole lattice translation inside the n×m×k block, and every (site, translation) pair must be there exactly once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { detectFormat, parseStructureFile } from '../../src/core/io/registry.ts';
import { initMoyo } from '../../src/core/symmetry/moyo.ts';
import { WRITTEN_FORMATS, structureAsShown, writeExport } from '../../src/core/analysis/structure-export.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { readCorpusText } from '../../scripts/support/paths.ts';

beforeAll(async () => {
  await initMoyo();
});

/** Periodic (CIF with partial occupancy and oxidation labels, POSCAR, extended XYZ) and one finite molecule. */
const FILES = ['cod-1000035.cif', 'p2-POSCAR_MgH2_1', 'matterviz-quartz.extxyz', 'pmg-acetylene.xyz'];

function read(text: string, name: string): Structure {
  const r = parseStructureFile(text, name);
  if (!r.ok) throw new Error(`${name}: ${r.error}`);
  return r.structures[0];
}

/** Plain XYZ keeps neither cell nor occupancies: only the majority element and the position travel. */
const species = (s: Structure, i: number, plain: boolean): string =>
  plain
    ? Object.entries(s.sites[i].species).sort((a, b) => b[1] - a[1])[0][0]
    : JSON.stringify(Object.entries(s.sites[i].species).sort(([a], [b]) => a.localeCompare(b)));

function expectSameStructure(back: Structure, source: Structure, format: string, tolerance: number): void {
  const plain = format === 'xyz';
  expect(back.sites).toHaveLength(source.sites.length);
  if (source.lattice && !plain) {
    expect(back.lattice, `${format} keeps the lattice`).not.toBeNull();
    for (let r = 0; r < 3; r++)
      for (let c = 0; c < 3; c++) expect(Math.abs(back.lattice!.matrix[r][c] - source.lattice.matrix[r][c])).toBeLessThan(tolerance);
  }
  for (let i = 0; i < source.sites.length; i++) {
    expect(species(back, i, plain), `${format} site ${i}`).toBe(species(source, i, plain));
    const d = [0, 1, 2].map((k) => back.sites[i].xyz[k] - source.sites[i].xyz[k]);
    if (source.lattice && !plain) {
      // A periodic file may wrap a site into the cell (CIF does): the same site, a whole lattice vector away.
      const f = source.lattice.cartToFrac(d as [number, number, number]).map((x) => x - Math.round(x));
      d.splice(0, 3, ...source.lattice.fracToCart(f as [number, number, number]));
    }
    for (let k = 0; k < 3; k++) expect(Math.abs(d[k]), `${format} site ${i}`).toBeLessThan(tolerance);
  }
}

describe('structure downloads read back equal to the source', () => {
  for (const name of FILES) {
    for (const { id } of WRITTEN_FORMATS) {
      it(`${name} → ${id}, as read and as shown (2×1×3)`, () => {
        const source = read(readCorpusText(name), name);
        if ((id === 'poscar' || id === 'cif' || id === 'xdatcar') && !source.lattice) {
          expect(() => writeExport(source, id, name)).toThrow(/lattice|cell|periodic/i);
          return;
        }
        const partial = source.sites.some((s) => Object.keys(s.species).length > 1 || Object.values(s.species).some((o) => o < 1));
        if (partial && (id === 'poscar' || id === 'xdatcar' || id === 'xyz' || id === 'extxyz')) {
          expect(() => writeExport(source, id, name)).toThrow();
          return;
        }
        const original = writeExport(source, id, name);
        expect(original.fileName).not.toMatch(/[\\/\s]/);
        expect(detectFormat(original.fileName, '')?.id, original.fileName).toBe(id);
        expectSameStructure(read(original.text, original.fileName), source, id, 1e-6);

        const shown = structureAsShown(source, [2, 1, 3]);
        const exported = writeExport(shown, id, name);
        const back = read(exported.text, exported.fileName);
        expectSameStructure(back, shown, id, 1e-6);
        if (!source.lattice) return;
        // Independent of makeSupercell: each source site appears once per cell of the block, shifted by whole vectors.
        expect(back.sites).toHaveLength(6 * source.sites.length);
        const L = source.lattice;
        const seen = new Set<string>();
        for (const site of back.sites) {
          const f = L.cartToFrac(site.xyz);
          const match = source.sites.findIndex((s0, j) => {
            const f0 = L.cartToFrac(s0.xyz);
            const d = f.map((v, k) => v - f0[k]);
            if (!d.every((x) => Math.abs(x - Math.round(x)) < 1e-6)) return false;
            const key = `${j}:${f.map((v) => Math.floor(v + 1e-7)).join(',')}`;
            if (seen.has(key)) return false;
            seen.add(key);
            return true;
          });
          expect(match, 'an exported site is a source site moved by a lattice vector').toBeGreaterThanOrEqual(0);
          expect(f[0]).toBeGreaterThanOrEqual(-1e-6);
          expect(f[0]).toBeLessThan(2 + 1e-6);
          expect(f[1]).toBeGreaterThanOrEqual(-1e-6);
          expect(f[1]).toBeLessThan(1 + 1e-6);
          expect(f[2]).toBeGreaterThanOrEqual(-1e-6);
          expect(f[2]).toBeLessThan(3 + 1e-6);
        }
      });
    }
  }

  it('refuses a supercell past LIMITS.atoms with one sentence', () => {
    const source = read(readCorpusText('cod-1000035.cif'), 'cod-1000035.cif');
    expect(() => structureAsShown(source, [20, 20, 20])).toThrow(/the limit is/);
  });
});
