/**
 * CrystalNNFingerprint("ops") and LocalStructOrderParams against matminer v0.7.3 / pymatgen 2022.11.7: the goldens
 * of scripts/make-fingerprint-goldens.py (tests/reference/golden/local-env/fingerprint.json), every feature of every
 * site of the crystalnn.json structures pymatgen accepts (built from that file as pymatgen built them), and the
 * order parameters of the preset's types on 1 to 12 neighbours, degenerate arrangements included.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CrystalNNNeighbor, type CrystalNNSite, crystalNN } from '../../src/core/analysis/local-env/crystal-nn.ts';
import { CRYSTALNN_FINGERPRINT_LABELS, crystalNNFingerprint, siteMotif } from '../../src/core/analysis/local-env/fingerprint.ts';
import {
  NeighborGeometry,
  type OrderParamSettings,
  type OrderParamType,
  orderParam,
} from '../../src/core/analysis/local-env/order-params.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { type GoldenStructure, storedStructure } from '../local-env.ts';

const GOLDEN = join(REFERENCE, 'golden', 'local-env');
interface GoldenWithNeighbors extends GoldenStructure {
  results?: { all_nninfo: number[][] }[];
}
const structures = (JSON.parse(readFileSync(join(GOLDEN, 'crystalnn.json'), 'utf8')) as { structures: GoldenWithNeighbors[] }).structures;
const doc = JSON.parse(readFileSync(join(GOLDEN, 'fingerprint.json'), 'utf8')) as {
  labels: string[];
  order_params: {
    ops: [OrderParamType, OrderParamSettings | null][];
    cases: { name: string; neighbors: number[][]; values: (number | null)[] }[];
  };
  structures: { source: string; features: number[][] }[];
};
const bySource = new Map(structures.map((g) => [g.source, g]));

/** A neighbour as `index:image` (crystalNN's { index, image } or a golden row [index, i, j, k, …]). */
const neighborKey = (e: CrystalNNNeighbor | number[]): string =>
  Array.isArray(e) ? `${e[0]}:${e[1]},${e[2]},${e[3]}` : `${e.index}:${e.image.join(',')}`;

/**
 * crystalNN's sites with allNeighbors in pymatgen's order (crystalnn.json's all_nninfo): the same neighbours and
 * weights (tests/unit/crystalnn.test.ts), but equal rounded weights are sorted by weights that agree to ~1e-15
 * only, so pymatgen's qhull and the port may list tied neighbours in different orders.
 */
function inPymatgenOrder(sites: CrystalNNSite[], g: GoldenWithNeighbors): CrystalNNSite[] {
  return sites.map((site, i) => {
    const byKey = new Map(site.allNeighbors.map((e) => [neighborKey(e), e]));
    const allNeighbors = g.results![i].all_nninfo.map((row) => byKey.get(neighborKey(row))!);
    expect(allNeighbors.every(Boolean), `${g.source} site ${i}`).toBe(true);
    return { ...site, allNeighbors };
  });
}
const TOLERANCE = 1e-9;

describe('CrystalNNFingerprint.from_preset("ops") against matminer v0.7.3', () => {
  it("has matminer's 61 feature labels", () => {
    expect(CRYSTALNN_FINGERPRINT_LABELS).toEqual(doc.labels);
    expect(CRYSTALNN_FINGERPRINT_LABELS).toHaveLength(61);
  });

  it("gives every feature of every site of the goldens within 1e-9, the neighbours in pymatgen's order", () => {
    let compared = 0;
    const problems: string[] = [];
    for (const want of doc.structures) {
      const g = bySource.get(want.source)!;
      const s = storedStructure(g);
      const got = crystalNNFingerprint(s, inPymatgenOrder(crystalNN(s), g));
      expect(got, want.source).toHaveLength(want.features.length);
      want.features.forEach((row, i) => {
        expect(got[i], `${want.source} site ${i}`).toHaveLength(61);
        row.forEach((x, k) => {
          compared++;
          if (!(Math.abs(got[i][k] - x) <= TOLERANCE)) problems.push(`${want.source} site ${i} ${doc.labels[k]}: ${got[i][k]} vs ${x}`);
        });
      });
    }
    expect(problems).toEqual([]);
    expect(compared).toBeGreaterThan(2000 * 61);
  }, 120_000);

  it('differs with its own neighbour order only in bcc, where pymatgen breaks weight ties otherwise', () => {
    const problems: string[] = [];
    let reordered = 0;
    for (const want of doc.structures) {
      const g = bySource.get(want.source)!;
      const s = storedStructure(g);
      const sites = crystalNN(s);
      const got = crystalNNFingerprint(s, sites);
      want.features.forEach((row, i) => {
        // bcc sums over neighbour pairs j < k only, so it depends on their order; CN 8 is the first 8 of all_nninfo.
        const mine = sites[i].allNeighbors.slice(0, 8).map(neighborKey).join(' ');
        const theirs = g.results![i].all_nninfo.slice(0, 8).map(neighborKey).join(' ');
        row.forEach((x, k) => {
          if (Math.abs(got[i][k] - x) <= TOLERANCE) return;
          if (doc.labels[k] === 'body-centered cubic CN_8' && mine !== theirs) reordered++;
          else problems.push(`${want.source} site ${i} ${doc.labels[k]}: ${got[i][k]} vs ${x}`);
        });
      });
    }
    expect(problems).toEqual([]);
    expect(reordered).toBeLessThan(30);
  }, 120_000);

  it('refuses the structures pymatgen refuses', () => {
    const refused = structures.filter((g) => g.error);
    expect(refused.length).toBeGreaterThan(0);
    for (const g of refused) expect(() => crystalNNFingerprint(storedStructure(g)), g.source).toThrow();
  });
});

describe('LocalStructOrderParams against pymatgen 2022.11.7', () => {
  const ops = doc.order_params.ops.map(([type, settings]) => orderParam(type, settings));

  it('gives every type of the preset on every case within 1e-9, None as null', () => {
    const geometry = new NeighborGeometry();
    const problems: string[] = [];
    let compared = 0;
    for (const c of doc.order_params.cases) {
      geometry.load(c.neighbors.flat(), c.neighbors.length);
      ops.forEach((op, k) => {
        const want = c.values[k];
        const got = geometry.value(op);
        compared++;
        const same = want === null ? got === null : got !== null && Math.abs(got - want) <= TOLERANCE;
        if (!same) problems.push(`${c.name} ${op.type} #${k}: ${got} vs ${want}`);
      });
    }
    expect(problems).toEqual([]);
    expect(new Set(doc.order_params.cases.map((c) => c.neighbors.length))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]));
    expect(doc.order_params.cases.flatMap((c) => c.values).filter((v) => v === null).length).toBeGreaterThan(0);
    expect(compared).toBe(doc.order_params.cases.length * ops.length);
  });

  it('gives the first k of n loaded neighbours the values of those k loaded alone', () => {
    const all = new NeighborGeometry(),
      alone = new NeighborGeometry();
    for (const c of doc.order_params.cases.filter((x) => x.neighbors.length > 2)) {
      all.load(c.neighbors.flat(), c.neighbors.length);
      for (let k = 1; k < c.neighbors.length; k++) {
        alone.load(c.neighbors.slice(0, k).flat(), k);
        for (const op of ops) expect(all.value(op, k), `${c.name} ${op.type} of ${k}`).toBe(alone.value(op));
      }
    }
  });
});

describe('siteMotif', () => {
  it("names the motif of the chosen CN with matminer's highest feature, its value the feature / probability", () => {
    let named = 0;
    for (const want of doc.structures) {
      const s = storedStructure(bySource.get(want.source)!);
      const sites = crystalNN(s);
      sites.forEach((site, i) => {
        const motif = siteMotif(s, i, site);
        const cn = site.neighbors.length;
        const columns = doc.labels
          .map((label, k) => ({ label, k }))
          .filter(({ label }) => label.endsWith(` CN_${cn}`) && !label.startsWith('wt ') && !/^q\d /.test(label));
        if (columns.length === 0) {
          expect(motif, `${want.source} site ${i}`).toBeNull();
          return;
        }
        const wt = want.features[i][doc.labels.indexOf(`wt CN_${cn}`)];
        const best = Math.max(...columns.map(({ k }) => want.features[i][k]));
        expect(motif, `${want.source} site ${i}`).not.toBeNull();
        expect(Math.abs(motif!.value * wt - best), `${want.source} site ${i}`).toBeLessThanOrEqual(TOLERANCE);
        expect(want.features[i][doc.labels.indexOf(`${motif!.motif} CN_${cn}`)]).toBeCloseTo(best, 9);
        named++;
      });
    }
    expect(named).toBeGreaterThan(1000);
  }, 120_000);

  it('finds octahedral Fe and Li and tetrahedral P in LiFePO4', () => {
    const s = storedStructure(bySource.get('corpus/pmg-LiFePO4.cif')!);
    const sites = crystalNN(s);
    const byElement = new Map<string, Set<string>>();
    s.sites.forEach((site, i) => {
      const el = Object.keys(site.species)[0];
      byElement.set(el, (byElement.get(el) ?? new Set()).add(siteMotif(s, i, sites[i])!.motif));
    });
    expect(byElement.get('Fe')).toEqual(new Set(['octahedral']));
    expect(byElement.get('Li')).toEqual(new Set(['octahedral']));
    expect(byElement.get('P')).toEqual(new Set(['tetrahedral']));
  });
});
