/**
 * `structlab env FILE` (CrystalNN, the default method) against pymatgen 2022.11.7's CrystalNN() on every corpus file
 * of the CrystalNN goldens (tests/reference/golden/local-env/crystalnn.json, scripts/make-crystalnn-goldens.py):
 * per site the same CN and get_nn_info neighbours (each as the golden site it is and its Cartesian vector from the
 * centre, within 1e-6 Å, so file order and wrapping do not matter), weight 1 as get_nn_info gives it, distances within
 * 1e-9 Å, get_nn_data's cn_weights within 1e-9; every printed image reproduces its distance from the printed
 * coordinates within 1e-9 Å.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';
import type { GoldenStructure } from '../local-env.ts';
import { type Json, corpusPath, matchSitesByPosition } from '../xtal-goldens.ts';

type Row = [number, number, number, number, ...number[]];
interface Golden extends GoldenStructure {
  results?: { cn: number; neighbors: Row[]; cn_weights: [number, number][] }[];
}
const doc = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'local-env', 'crystalnn.json'), 'utf8')) as { structures: Golden[] };
/**
 * Files the repository's reader reads otherwise than pymatgen 2022.11 (tests/reference/corpus/README.md): another
 * block, or its P1 fallback. tests/unit/crystalnn.test.ts runs CrystalNN on the structures pymatgen read from them.
 */
const READER_DIFFERS = ['cod-1000055-unrecognised-spacegroup.cif', 'cod-2-entries-AMCSD-cifdata.cif', 'cod-2-entries-AMCSD-global.cif'];
const corpus = doc.structures.filter((g) => g.source.startsWith('corpus/') && g.results && !READER_DIFFERS.includes(g.source.slice(7)));

const cart = (m: number[][], f: number[]) => [0, 1, 2].map((x) => f[0] * m[0][x] + f[1] * m[1][x] + f[2] * m[2][x]);
/** A neighbour as "golden site:vector", the vector rounded to 1e-6 Å (no printed vector sits on a rounding edge here). */
const neighborKey = (site: number, v: number[]) => `${site}:${v.map((x) => (Math.round(x * 1e6) / 1e6 + 0).toFixed(6)).join(',')}`;

describe('structlab env (CrystalNN) against pymatgen', () => {
  it('covers the corpus', () => expect(corpus.length).toBeGreaterThanOrEqual(39));

  it.each(READER_DIFFERS)('%s is still read otherwise than pymatgen (else it belongs in the comparison)', async (name) => {
    const g = doc.structures.find((s) => s.source === `corpus/${name}`)!;
    const r = await structlabInProcess(['env', corpusPath(name)]);
    const same =
      r.code === 0 &&
      (() => {
        const out = JSON.parse(r.stdout);
        return (
          out.sites.length === g.sites.length &&
          out.sites.every((s: Json, k: number) => s.element === g.sites[k][0].replace(/[\d.]*[+-]$/, ''))
        );
      })();
    expect(same).toBe(false);
  });

  it.each(corpus.map((g) => [g.source, g] as const))('%s: same CN, neighbours and CN probabilities per site', async (source, g) => {
    const r = await structlabInProcess(['env', corpusPath(source.slice('corpus/'.length))]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect([out.method, out.cutoff]).toEqual(['crystalnn', null]);
    const matrix: number[][] = out.sites.length ? g.lattice : [];
    const goldenSites = g.sites.map(([species, frac]) => ({ species: { [species.replace(/[\d.]*[+-]$/, '')]: 1 }, frac }));
    const perm = matchSitesByPosition(
      out.sites.map((s: Json) => ({ species: { [s.element]: 1 }, frac: s.frac })),
      goldenSites,
      matrix,
    );
    out.coordination.forEach((cn: number, k: number) => {
      const want = g.results![perm[k]];
      expect(cn, `CN of site ${k}`).toBe(want.cn);
      const centre = g.sites[perm[k]][1];
      const theirs = want.neighbors
        .map(([j, a, b, c]) =>
          neighborKey(
            j,
            cart(
              matrix,
              [0, 1, 2].map((x) => g.sites[j][1][x] + [a, b, c][x] - centre[x]),
            ),
          ),
        )
        .sort();
      const list: Json[] = out.neighbors[k];
      const ours = list
        .map((nb) =>
          neighborKey(
            perm[nb.index],
            cart(
              matrix,
              [0, 1, 2].map((x) => out.sites[nb.index].frac[x] + nb.image[x] - out.sites[k].frac[x]),
            ),
          ),
        )
        .sort();
      expect(ours, `neighbours of site ${k}`).toEqual(theirs);
      for (const nb of list) {
        expect(nb.weight).toBe(1);
        const v = cart(
          matrix,
          [0, 1, 2].map((x) => out.sites[nb.index].frac[x] + nb.image[x] - out.sites[k].frac[x]),
        );
        expect(Math.abs(Math.hypot(...v) - nb.distance)).toBeLessThanOrEqual(1e-9);
      }
      const weights: Json[] = out.cn_weights[k];
      expect(weights.map((w) => w.cn)).toEqual(want.cn_weights.map(([cn]) => cn));
      weights.forEach((w, m) => expect(Math.abs(w.weight - want.cn_weights[m][1])).toBeLessThanOrEqual(1e-9));
    });
  });

  it('keeps the radius method for --cutoff alone and refuses the two together', async () => {
    const file = corpusPath('pmg-LiFePO4.cif');
    const radius = JSON.parse((await structlabInProcess(['env', file, '--cutoff', '3.5'])).stdout);
    expect(radius.method).toBeUndefined();
    expect(radius.cutoff).toBe(3.5);
    const both = await structlabInProcess(['env', file, '--method', 'crystalnn', '--cutoff', '3.5']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--cutoff applies to --method cutoff/);
    const bad = await structlabInProcess(['env', file, '--method', 'voronoi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--method must be crystalnn or cutoff/);
  });
});
