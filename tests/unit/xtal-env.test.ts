/**
 * `structlab env` against the goldens (pymatgen get_neighbor_list + numpy) with the rule of docs/crystallography.md §5:
 * counts exact, distances within 1e-6 Å, g(r) within 1e-9 relative, number density within 1e-9 relative.
 */
import { describe, expect, it } from 'vitest';
import { structlabInProcess } from '../cli-runner.ts';
import { type Json, corpusPath, matchSitesByPosition, readXtalGolden, xtalGoldenNames } from '../xtal-goldens.ts';

const names = xtalGoldenNames();
const ordered = names.filter((n) => readXtalGolden(n).env !== null);

describe.each(ordered)('structlab env %s', (name) => {
  const golden = readXtalGolden(name);
  for (const cutoff of ['3.5', '2.5']) {
    it(`equals the golden at cutoff ${cutoff}`, async () => {
      const g = golden.env[cutoff];
      expect(g, `golden env[${cutoff}]`).toBeTruthy();
      expect(g.ambiguous).toEqual({ near_cutoff: 0, near_rdf_edge: 0, near_angle_edge: 0 });
      const r = await structlabInProcess(['env', corpusPath(name), '--cutoff', cutoff]);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      const matrix: number[][] = golden.input.lattice.matrix;
      const perm = matchSitesByPosition(
        out.sites.map((s: Json) => ({ species: { [s.element]: 1 }, frac: s.frac })),
        golden.input.sites,
        matrix,
      );
      expect(out.n_sites).toBe(g.n_sites);
      out.coordination.forEach((c: number, k: number) => expect(c, `coordination of site ${k}`).toBe(g.coordination[perm[k]]));
      expect(Object.keys(out.bond_lengths).sort()).toEqual(Object.keys(g.bond_lengths).sort());
      for (const [key, list] of Object.entries(g.bond_lengths as Record<string, number[]>)) {
        expect(out.bond_lengths[key].length, key).toBe(list.length);
        out.bond_lengths[key].forEach((d: number, k: number) => expect(Math.abs(d - list[k]), key).toBeLessThanOrEqual(1e-6));
      }
      expect(out.angles.n_angles).toBe(g.angles.n_angles);
      expect(out.angles.histogram).toEqual(g.angles.histogram);
      expect(out.angles.by_center).toEqual(g.angles.by_center);
      if (cutoff !== '3.5') return;
      // Neighbour multisets per site (golden [index, distance]), and every printed image reproduces its distance.
      out.neighbors.forEach((list: Json[], k: number) => {
        const ours = list.map((nb) => [perm[nb.index], nb.distance]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        const theirs = [...g.neighbors[perm[k]]].sort((a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1]);
        expect(ours.length, `neighbours of site ${k}`).toBe(theirs.length);
        ours.forEach(([j, d], m) => {
          expect(j).toBe(theirs[m][0]);
          expect(Math.abs(d - theirs[m][1])).toBeLessThanOrEqual(1e-6);
        });
        for (const nb of list) {
          const f = [0, 1, 2].map((x) => out.sites[nb.index].frac[x] + nb.image[x] - out.sites[k].frac[x]);
          const c = [0, 1, 2].map((x) => f[0] * matrix[0][x] + f[1] * matrix[1][x] + f[2] * matrix[2][x]);
          expect(Math.abs(Math.hypot(...c) - nb.distance)).toBeLessThanOrEqual(1e-6);
        }
      });
      expect(out.rdf.counts).toEqual(g.rdf.counts);
      expect([out.rdf.r_max, out.rdf.bin_width, out.rdf.n_bins]).toEqual([g.rdf.r_max, g.rdf.bin_width, g.rdf.n_bins]);
      expect(Math.abs(out.rdf.number_density - g.rdf.number_density)).toBeLessThanOrEqual(1e-9 * g.rdf.number_density);
      out.rdf.g.forEach((x: number, k: number) =>
        expect(Math.abs(x - g.rdf.g[k])).toBeLessThanOrEqual(1e-9 * Math.abs(g.rdf.g[k]) + 1e-12),
      );
    });
  }
});

describe('structlab env refuses disordered structures', () => {
  it('exits 2 with a sentence', async () => {
    const disordered = names.find((n) => readXtalGolden(n).env === null)!;
    expect(disordered).toBeTruthy();
    const r = await structlabInProcess(['env', corpusPath(disordered)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ordered structure/);
  });
});
