/**
 * The Local environment panel's data (src/core/tasks/crystallography/lab.ts `environmentView`) on LiFePO4 (olivine,
 * in P1): by CrystalNN, Fe and Li octahedral (6), P tetrahedral (4), each CN's
 * probability and every weighed neighbour as pymatgen's get_nn_data gives them (crystal-nn.ts) and the most likely
 * motif (fingerprint.ts); by the cutoff method,
 * the 3.5 Å neighbour list of `structlab env --cutoff 3.5`. Either way every neighbour's image, taken on the
 * coordinates as written (whole cells off included), reproduces its distance, and the polyhedra are the cations' chosen neighbours.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localEnvironment } from '../../src/core/analysis/env.ts';
import { crystalNN } from '../../src/core/analysis/local-env/crystal-nn.ts';
import { siteMotif } from '../../src/core/analysis/local-env/fingerprint.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { type Structure, fracOf, majorSpecies, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import { type EnvironmentView, environmentView } from '../../src/core/tasks/crystallography/lab.ts';
import { corpusPath } from '../xtal-goldens.ts';

const NAME = 'pmg-LiFePO4.cif';

function lifepo4(): Structure {
  const parsed = parseStructureFile(readFileSync(corpusPath(NAME), 'utf8'), NAME);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.structures[0];
}

/** CN per element → the set of CNs its sites have. */
function cnByElement(s: Structure, v: EnvironmentView): Record<string, number[]> {
  const out: Record<string, Set<number>> = {};
  v.coordination.forEach((c, k) => (out[majorSpecies(s.sites[k])] ??= new Set()).add(c));
  return Object.fromEntries(Object.entries(out).map(([el, set]) => [el, [...set].sort((a, b) => a - b)]));
}

/** Every neighbour at f_j + image (f as written) lies at its distance from f_i. */
function expectImagesAsWritten(s: Structure, v: EnvironmentView): void {
  const L = s.lattice!;
  const f = s.sites.map((site) => fracOf(site, L));
  v.sites.forEach((site, i) => {
    for (const nb of site.neighbors) {
      const c = L.fracToCart([0, 1, 2].map((ax) => f[nb.index][ax] + nb.image[ax] - f[i][ax]) as [number, number, number]);
      expect(Math.abs(Math.hypot(...c) - nb.distance), `site ${i} → ${nb.index}`).toBeLessThan(1e-6);
    }
  });
}

describe('environment panel on LiFePO4', () => {
  const s = lifepo4();

  it('by CrystalNN: Fe 6, Li 6, P 4, O 4, with each CN’s probability and the weighed neighbours', () => {
    const v = environmentView(s, 3.5, 'crystalnn');
    expect(v.method).toBe('crystalnn');
    expect(v.cutoff).toBeNull();
    expect(cnByElement(s, v)).toEqual({ Fe: [6], Li: [6], O: [4], P: [4] });
    const nn = crystalNN(s);
    v.sites.forEach((site, k) => {
      expect(site.cn).toBe(v.coordination[k]);
      expect(site.cnProbability).toBe(nn[k].cnWeights.find((w) => w.cn === site.cn)!.weight);
      expect(site.cnProbability!).toBeGreaterThan(0.5);
      expect(site.neighbors.map((nb) => [nb.index, nb.weight])).toEqual(nn[k].allNeighbors.map((nb) => [nb.index, nb.weight]));
      // The first CN of the weighed neighbours are the chosen ones (get_nn_info's).
      expect(site.neighbors.slice(0, site.cn).map((nb) => nb.index)).toEqual(nn[k].neighbors.map((nb) => nb.index));
    });
    // The most likely motif of the chosen CN (fingerprint.ts siteMotif): octahedra and tetrahedra, distorted.
    v.sites.forEach((site, k) => expect(site.motif, `site ${k}`).toEqual(siteMotif(s, k, nn[k])));
    const motifs = (el: string) => new Set(v.sites.filter((_, k) => majorSpecies(s.sites[k]) === el).map((x) => x.motif!.motif));
    expect([motifs('Fe'), motifs('Li'), motifs('P')]).toEqual([new Set(['octahedral']), new Set(['octahedral']), new Set(['tetrahedral'])]);
    // Fe's weights as pymatgen 2022.11.7 rounds them; a seventh neighbour (P, 3.28 Å) weighs 0.001 beyond the CN.
    expect(v.sites[0].neighbors.map((nb) => nb.weight)).toEqual([1, 0.999, 0.978, 0.873, 0.823, 0.758, 0.001]);
    expectImagesAsWritten(s, v);
  });

  it('by the cutoff method: the neighbour list of structlab env --cutoff 3.5, unchanged', () => {
    const v = environmentView(s, 3.5, 'cutoff');
    const e = localEnvironment(s, { method: 'cutoff', cutoff: 3.5, rdfMax: 10, rdfBin: 0.05 });
    expect(v.method).toBe('cutoff');
    expect(v.cutoff).toBe(3.5);
    expect(v.coordination).toEqual(e.coordination);
    expect(cnByElement(s, v).Fe).toEqual([14]);
    expect(cnByElement(s, v).P).toEqual([16]);
    v.sites.forEach((site, k) => {
      expect(site.cnProbability).toBeNull();
      expect(site.motif).toBeNull();
      expect(site.neighbors.every((nb) => nb.weight === null)).toBe(true);
      expect(site.neighbors.map((nb) => nb.distance)).toEqual(e.neighbors[k].map((nb) => nb.distance));
    });
    expectImagesAsWritten(s, v);
  });

  it('takes the images on the coordinates as written, whole cells off included (env.ts wraps them)', () => {
    const L = s.lattice!;
    const moved: Structure = {
      ...s,
      sites: s.sites.map((x, k) =>
        makeSiteFromFrac(L, fracOf(x, L).map((c, ax) => c + (k % 3 === 0 ? [1, -1, 2][ax] : 0)) as [number, number, number], x.species),
      ),
    };
    for (const method of ['cutoff', 'crystalnn'] as const) {
      const v = environmentView(moved, 3.5, method);
      expect(v.coordination, method).toEqual(environmentView(s, 3.5, method).coordination);
      expectImagesAsWritten(moved, v);
    }
  });

  it('gives polyhedra to the cations (Fe, Li, P) from their chosen neighbours, none to O', () => {
    const v = environmentView(s, 3.5, 'crystalnn');
    const { start, site } = v.polyhedra;
    expect(start.length).toBe(s.sites.length + 1);
    s.sites.forEach((x, k) => {
      const count = start[k + 1] - start[k];
      const el = majorSpecies(x);
      expect(count, `${el} site ${k}`).toBe(el === 'O' ? 0 : v.coordination[k]);
      for (let m = start[k]; m < start[k + 1]; m++) expect(majorSpecies(s.sites[site[m]])).toBe('O');
    });
  });

  it('bins CrystalNN’s bond lengths up to the longest bond, rounded up to 0.5 Å', () => {
    const v = environmentView(s, 3.5, 'crystalnn');
    const longest = Math.max(...v.sites.flatMap((x) => x.neighbors.slice(0, x.cn).map((nb) => nb.distance)));
    const range = v.bondHistogram.counts[0].length * v.bondHistogram.bin;
    expect(range).toBeGreaterThan(longest);
    expect(range - longest).toBeLessThanOrEqual(0.5 + 1e-9);
    // Each bond once: half the chosen neighbours summed over the sites.
    const bonds = v.bondHistogram.counts.flat().reduce((a, b) => a + b, 0);
    expect(bonds).toBe(v.coordination.reduce((a, b) => a + b, 0) / 2);
  });
});
