/**
 * CrystalNN and its Voronoi cells against pymatgen 2022.11.7, site by site (issue 24): the goldens of
 * scripts/make-crystalnn-goldens.py (tests/reference/golden/local-env/crystalnn.json) over the corpus's ordered
 * structures and 60 MP-20 rows (read here by the repository's reader, or built from the golden where the reader's
 * sites differ from pymatgen's), 14 small cells for the special paths and 120 seeded random cells.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crystalNN } from '../../src/core/analysis/local-env/crystal-nn.ts';
import { voronoiCells } from '../../src/core/analysis/local-env/voronoi.ts';
import { parseCsv } from '../../src/core/io/csv.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { LimitError, overrideLimits, resetLimits } from '../../src/core/limits.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { isOrderedSite, makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import { CORPUS_FILES, REFERENCE } from '../../scripts/support/paths.ts';
import { type GoldenStructure, storedStructure } from '../local-env.ts';

type Row = [number, number, number, number, ...number[]];
interface GoldenSite {
  cn: number;
  neighbors: Row[];
  all_nninfo: Row[];
  cn_weights: [number, number][];
}
interface Golden extends GoldenStructure {
  results?: GoldenSite[];
  voronoi?: Row[][];
  weighted?: { cn: number; neighbors: Row[] }[];
}
const doc = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'local-env', 'crystalnn.json'), 'utf8')) as {
  timing: { pymatgen_get_nn_info_s: number; sites: number };
  structures: Golden[];
};

const mp20 = (() => {
  const rows = parseCsv(readFileSync(join(REFERENCE, 'golden', 'generations', 'sources', 'mp20_rows.csv'), 'utf8'));
  const header = rows[0].fields;
  const id = header.indexOf('material_id'),
    cif = header.indexOf('cif');
  return new Map(rows.slice(1).map((r) => [r.fields[id], r.fields[cif]]));
})();

/** Where the repository's reader gives pymatgen's sites (same species, order, coordinates, oxidation states). */
function sameSites(s: Structure, g: Golden): boolean {
  return (
    s.sites.length === g.sites.length &&
    s.sites.every((site, k) => {
      const [species, frac] = g.sites[k];
      const el = Object.keys(site.species)[0];
      const ox = site.oxidation?.[el] ?? null;
      return (
        isOrderedSite(site) &&
        species.replace(/[\d.]*[+-]$/, '') === el &&
        ox === g.oxidation[k] &&
        [0, 1, 2].every((c) => Math.abs(site.frac![c] - frac[c]) < 1e-9)
      );
    })
  );
}

/** Files that the repository's reader reads otherwise than pymatgen 2022.11 (its P1 fallback, tests/reference/corpus/README.md). */
const readerDiffers: string[] = [];

/** The structure as the repository's reader gives it, or the stored one where the readers differ. */
function read(g: Golden): Structure {
  const [kind, name] = g.source.split('/');
  if (kind === 'synthetic' || kind === 'random') return storedStructure(g);
  const text = kind === 'corpus' ? readFileSync(join(CORPUS_FILES, name), 'utf8') : mp20.get(name)!;
  const r = parseStructureFile(text, kind === 'corpus' ? name : `${name}.cif`);
  if (r.ok && sameSites(r.structures[0], g)) return r.structures[0];
  if (!readerDiffers.includes(g.source)) readerDiffers.push(g.source);
  return storedStructure(g);
}

const key = (r: ArrayLike<number>) => `${r[0]}:${r[1]},${r[2]},${r[3]}`;

describe('CrystalNN against pymatgen 2022.11.7', () => {
  it('gives every site of the goldens the same CN, neighbours, weights and distances', () => {
    let sites = 0,
      equal = 0,
      maxWeight = 0,
      maxDistance = 0,
      ms = 0;
    const problems: string[] = [];
    for (const g of doc.structures) {
      const s = read(g);
      if (g.error) {
        expect(() => crystalNN(s), g.source).toThrow();
        continue;
      }
      const t0 = performance.now();
      const got = crystalNN(s);
      ms += performance.now() - t0;
      g.results!.forEach((want, i) => {
        sites++;
        const mine = got[i];
        const byKey = new Map(mine.neighbors.map((e) => [key([e.index, ...e.image]), e]));
        let same = mine.cn === want.cn && byKey.size === want.neighbors.length;
        for (const w of want.neighbors) {
          const e = byKey.get(key(w));
          if (!e) {
            same = false;
            continue;
          }
          maxWeight = Math.max(maxWeight, Math.abs(e.weight - w[4]));
          maxDistance = Math.max(maxDistance, Math.abs(e.distance - w[5]));
          if (Math.abs(e.weight - w[4]) > 1e-9 || Math.abs(e.distance - w[5]) > 1e-9) same = false;
        }
        // get_nn_data: all_nninfo (weights rounded to 3 decimals) and cn_weights.
        const all = new Map(mine.allNeighbors.map((e) => [key([e.index, ...e.image]), e.weight]));
        if (all.size !== want.all_nninfo.length) same = false;
        for (const w of want.all_nninfo) {
          const e = all.get(key(w));
          if (e === undefined || Math.abs(e - w[4]) > 1e-9) same = false;
          else maxWeight = Math.max(maxWeight, Math.abs(e - w[4]));
        }
        if (mine.cnWeights.length !== want.cn_weights.length) same = false;
        want.cn_weights.forEach(([cn, w], k) => {
          const c = mine.cnWeights[k];
          if (!c || c.cn !== cn || Math.abs(c.weight - w) > 1e-9) same = false;
          else maxWeight = Math.max(maxWeight, Math.abs(c.weight - w));
        });
        if (same) equal++;
        else problems.push(`${g.source} site ${i}: CN ${mine.cn} vs ${want.cn}`);
      });
    }
    const speed = (doc.timing.pymatgen_get_nn_info_s * 1000) / doc.timing.sites / (ms / sites);
    console.log(
      `CrystalNN: ${equal}/${sites} sites equal to pymatgen; max weight deviation ${maxWeight.toExponential(1)}, ` +
        `max distance deviation ${maxDistance.toExponential(1)} Å; ${(ms / sites).toFixed(3)} ms/site, ${speed.toFixed(0)}x pymatgen`,
    );
    if (readerDiffers.length) console.log(`read from the golden (the reader differs from pymatgen): ${readerDiffers.join(', ')}`);
    expect(problems).toEqual([]);
    expect(sites).toBeGreaterThan(1500);
  }, 120_000);

  it('gives LiFePO4 octahedral Fe and Li, tetrahedral P', () => {
    const name = 'pmg-LiFePO4.cif';
    const r = parseStructureFile(readFileSync(join(CORPUS_FILES, name), 'utf8'), name);
    if (!r.ok) throw new Error(r.error);
    const s = r.structures[0];
    const cn = crystalNN(s);
    const byElement = new Map<string, Set<number>>();
    s.sites.forEach((site, i) => {
      const el = Object.keys(site.species)[0];
      byElement.set(el, (byElement.get(el) ?? new Set()).add(cn[i].cn));
    });
    expect(byElement.get('Fe')).toEqual(new Set([6]));
    expect(byElement.get('P')).toEqual(new Set([4]));
    expect(byElement.get('Li')).toEqual(new Set([6]));
  });

  it('gives pymatgen weighted_cn=True neighbours and CNs', () => {
    for (const g of doc.structures.filter((x) => x.weighted)) {
      const got = crystalNN(read(g), { weighted: true });
      g.weighted!.forEach((want, i) => {
        expect(got[i].cn, `${g.source} site ${i}`).toBeCloseTo(want.cn, 9);
        const mine = new Map(got[i].neighbors.map((e) => [key([e.index, ...e.image]), e.weight]));
        expect(mine.size).toBe(want.neighbors.length);
        for (const w of want.neighbors) expect(mine.get(key(w)), `${g.source} site ${i}`).toBeCloseTo(w[4], 9);
      });
    }
  });
});

describe('Voronoi cells against pymatgen VoronoiNN (qhull)', () => {
  it('gives the same facets, solid angles, areas and volumes', () => {
    let compared = 0,
      merged = 0;
    for (const g of doc.structures.filter((x) => x.voronoi)) {
      const cells = voronoiCells(read(g), 7);
      g.voronoi!.forEach((facets, i) => {
        const mine = new Map<string, number>();
        for (let k = cells.start[i]; k < cells.start[i + 1]; k++)
          mine.set(key([cells.index[k], ...cells.image.subarray(3 * k, 3 * k + 3)]), k);
        // qhull keeps slivers of ~1e-12 Å² where near-cospherical neighbours (coordinates given to 6 decimals)
        // meet; they are below any CrystalNN weight. Every other facet must be there and agree.
        const real = facets.filter((f) => f[4] > 1e-9);
        for (const f of real) {
          const k = mine.get(key(f));
          expect(k, `${g.source} site ${i} facet ${key(f)}`).toBeDefined();
          expect(cells.solidAngle[k!]).toBeCloseTo(f[4], 9);
          expect(cells.area[k!]).toBeCloseTo(f[5], 9);
          expect(Math.hypot(...cells.vector.subarray(3 * k!, 3 * k! + 3)) / 2).toBeCloseTo(f[6], 12);
          expect(cells.volume[k!]).toBeCloseTo(f[7], 9);
          // Voronoi vertices ≈ 1e-12 Å apart (a sliver, a near-zero edge) are one here, two in qhull.
          expect(cells.nVerts[k!]).toBeLessThanOrEqual(f[8]);
          if (cells.nVerts[k!] < f[8]) merged++;
          compared++;
        }
        expect(mine.size, `${g.source} site ${i}`).toBe(real.length);
      });
    }
    console.log(`Voronoi: ${compared} facets equal to qhull's; ${merged} with nearly coincident qhull vertices counted once`);
    expect(merged).toBeLessThan(compared / 20);
  });
});

describe('CrystalNN refusals', () => {
  const lattice = Lattice.cubic(4);
  it('refuses disordered sites, unknown species and structures without a lattice in one sentence', () => {
    const mixed: Structure = {
      name: 'x',
      lattice,
      sites: [makeSiteFromFrac(lattice, [0, 0, 0], { Fe: 0.5, Co: 0.5 }), makeSiteFromFrac(lattice, [0.5, 0.5, 0.5], { O: 1 })],
    };
    expect(() => crystalNN(mixed)).toThrow('CrystalNN needs one species per site; site 1 holds Fe:0.5 Co:0.5');
    const dummy: Structure = { name: 'x', lattice, sites: [makeSiteFromFrac(lattice, [0, 0, 0], { X: 1 })] };
    expect(() => crystalNN(dummy)).toThrow('CrystalNN has no data for the species "X" of site 1');
    expect(() => crystalNN({ name: 'x', lattice: null, sites: mixed.sites.slice(1) })).toThrow('Voronoi cells need a periodic structure');
  });

  it('refuses work past LIMITS.localEnvPairs', () => {
    overrideLimits({ localEnvPairs: 1000 });
    try {
      const s = parseStructureFile(readFileSync(join(CORPUS_FILES, 'pmg-LiFePO4.cif'), 'utf8'), 'pmg-LiFePO4.cif');
      if (!s.ok) throw new Error(s.error);
      expect(() => crystalNN(s.structures[0])).toThrow(LimitError);
    } finally {
      resetLimits();
    }
  });

  it('ends a cell 10⁻⁴ Å thin within seconds: a result or a LimitError', () => {
    const flat = new Lattice([
      [3, 0, 0],
      [0, 3, 0],
      [0, 0, 1e-4],
    ]);
    const s: Structure = { name: 'x', lattice: flat, sites: [makeSiteFromFrac(flat, [0, 0, 0], { Cu: 1 })] };
    const t0 = performance.now();
    try {
      crystalNN(s);
    } catch (e) {
      expect(e).toBeInstanceOf(LimitError);
    }
    expect(performance.now() - t0).toBeLessThan(20_000);
  });
});
