/**
 * Local environments of an ordered periodic structure (docs/crystallography.md §5): neighbour lists either by
 * CrystalNN (local-env/crystal-nn.ts, pymatgen's CrystalNN with its defaults) or as pymatgen
 * `Structure.get_neighbor_list(r)` (core/structure.py, materialsproject/pymatgen v2022.11.7) finds them — every
 * periodic image within r + 1e-8 Å, a site's own images included — then coordination numbers, bond lengths per
 * element pair, bond-angle histograms and the periodic radial distribution function.
 */
import { type Vec3, norm, sub, wrapFrac } from '../math/mat3.ts';
import { angleBetween } from '../math/measure.ts';
import type { Lattice } from '../structure/lattice.ts';
import { type Structure, fracOf, majorSpecies } from '../structure/structure.ts';
import { findNeighborsRaw } from '../structure/neighbors.ts';
import { checkLimit } from '../limits.ts';
import { type CrystalNNSite, crystalNN } from './local-env/crystal-nn.ts';

export interface EnvNeighbor {
  index: number;
  image: Vec3;
  distance: number;
  /** CrystalNN only: pymatgen's get_nn_info weight (1 for each neighbour of the chosen CN, its default). */
  weight?: number;
}

export interface EnvOptions {
  /** 'crystalnn': CrystalNN's neighbours (the cutoff is then unused); 'cutoff' (default): all within the cutoff. */
  method?: 'cutoff' | 'crystalnn';
  /** CrystalNN's result for this structure when the caller has it already (crystalNN(s)): not computed again. */
  crystalNNSites?: CrystalNNSite[];
  cutoff: number;
  rdfMax: number;
  rdfBin: number;
}

export interface LocalEnvironment {
  sites: { element: string; frac: Vec3 }[];
  coordination: number[];
  /** CrystalNN only, per site: the candidate coordination numbers and their probabilities (get_nn_data's cn_weights). */
  cnWeights?: { cn: number; weight: number }[][];
  neighbors: EnvNeighbor[][];
  bondLengths: Map<string, number[]>;
  angles: { nAngles: number; histogram: number[]; byCenter: Map<string, number[]> };
  rdf: { rMax: number; binWidth: number; nBins: number; numberDensity: number; r: number[]; counts: number[]; g: number[] };
}

const ANGLE_BINS = 181;

/** Directed neighbour lists (j and image as seen from i) within `cutoff` (≤ cutoff + 1e-8), from the wrapped positions. */
function directedNeighbors(
  frac: Vec3[],
  lattice: Lattice,
  cutoff: number,
): { pairs: ReturnType<typeof findNeighborsRaw>; lists: EnvNeighbor[][] } {
  const pos = new Float64Array(3 * frac.length);
  frac.forEach((f, k) => {
    const c = lattice.fracToCart(f);
    pos.set(c, 3 * k);
  });
  const pairs = findNeighborsRaw(pos, lattice.matrix, cutoff + 1e-8);
  const lists: EnvNeighbor[][] = frac.map(() => []);
  for (let p = 0; p < pairs.i.length; p++) {
    const i = pairs.i[p],
      j = pairs.j[p],
      d = pairs.distance[p];
    const img: Vec3 = [pairs.image[3 * p], pairs.image[3 * p + 1], pairs.image[3 * p + 2]];
    lists[i].push({ index: j, image: img, distance: d });
    lists[j].push({ index: i, image: [-img[0] + 0, -img[1] + 0, -img[2] + 0], distance: d });
  }
  for (const list of lists) {
    list.sort(
      (a, b) =>
        a.distance - b.distance || a.index - b.index || a.image[0] - b.image[0] || a.image[1] - b.image[1] || a.image[2] - b.image[2],
    );
  }
  return { pairs, lists };
}

/**
 * CrystalNN's neighbour lists, each neighbour's image re-expressed for the wrapped coordinates (the site in
 * the cell at frac − ⌊frac⌋): CrystalNN reads the coordinates as given.
 */
function crystalNNNeighbors(
  s: Structure,
  lattice: Lattice,
  result: CrystalNNSite[],
): { lists: EnvNeighbor[][]; cnWeights: { cn: number; weight: number }[][] } {
  const shift = s.sites.map((site) => fracOf(site, lattice).map((x) => Math.round(x - wrapFrac(x))) as Vec3);
  return {
    lists: result.map((r, i) =>
      r.neighbors.map((nb) => ({
        index: nb.index,
        image: [0, 1, 2].map((d) => nb.image[d] + shift[nb.index][d] - shift[i][d] + 0) as Vec3,
        distance: nb.distance,
        weight: nb.weight,
      })),
    ),
    cnWeights: result.map((r) => r.cnWeights),
  };
}

/** Unordered bonds from directed lists, each once: (i, j, n) and (j, i, −n) are one bond, kept as found first. */
function bondsOnce(lists: EnvNeighbor[][]): { i: number; j: number; distance: number }[] {
  const seen = new Set<string>();
  const out: { i: number; j: number; distance: number }[] = [];
  lists.forEach((list, i) => {
    for (const nb of list) {
      const forward = i < nb.index || (i === nb.index && (nb.image[0] || nb.image[1] || nb.image[2]) > 0);
      const [a, b, n] = forward ? [i, nb.index, nb.image] : [nb.index, i, nb.image.map((x) => -x + 0)];
      const key = `${a} ${b} ${n[0]} ${n[1]} ${n[2]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ i: a, j: b, distance: nb.distance });
    }
  });
  return out;
}

/** The environment of an ordered periodic structure. */
export function localEnvironment(s: Structure, o: EnvOptions): LocalEnvironment {
  const lattice = s.lattice;
  if (!lattice) throw new Error('local environments need a periodic structure');
  const n = s.sites.length;
  const frac = s.sites.map((site) => fracOf(site, lattice).map((x) => wrapFrac(x)) as Vec3);
  const elements = s.sites.map((site) => majorSpecies(site));
  const numberDensity = n / lattice.volume;
  const nBins = Math.round(o.rdfMax / o.rdfBin);
  const rdfRange = nBins * o.rdfBin;
  // Pairs within the RDF range (each counted once): N·ρ·(4π/3)r³ / 2 on average.
  const reach = o.method === 'crystalnn' ? rdfRange : Math.max(rdfRange, o.cutoff);
  checkLimit('rdfPairs', 'the environment', Math.round((n * numberDensity * 4 * Math.PI * reach * reach * reach) / 6), 'atom pairs');

  let lists: EnvNeighbor[][];
  let bonds: { i: number; j: number; distance: number }[];
  let cnWeights: { cn: number; weight: number }[][] | undefined;
  if (o.method === 'crystalnn') {
    ({ lists, cnWeights } = crystalNNNeighbors(s, lattice, o.crystalNNSites ?? crystalNN(s)));
    bonds = bondsOnce(lists);
  } else {
    const found = directedNeighbors(frac, lattice, o.cutoff);
    lists = found.lists;
    const { pairs } = found;
    bonds = Array.from(pairs.i, (i, p) => ({ i, j: pairs.j[p], distance: pairs.distance[p] }));
  }
  const bondLengths = new Map<string, number[]>();
  for (const bond of bonds) {
    const [a, b] = [elements[bond.i], elements[bond.j]].sort();
    const key = `${a}-${b}`;
    const list = bondLengths.get(key);
    if (list) list.push(bond.distance);
    else bondLengths.set(key, [bond.distance]);
  }
  for (const list of bondLengths.values()) list.sort((x, y) => x - y);

  const histogram = new Array<number>(ANGLE_BINS).fill(0);
  const byCenter = new Map<string, number[]>();
  let nAngles = 0;
  for (let i = 0; i < n; i++) {
    const center = lattice.fracToCart(frac[i]);
    const vectors = lists[i]
      .map((nb) =>
        sub(
          lattice.fracToCart([frac[nb.index][0] + nb.image[0], frac[nb.index][1] + nb.image[1], frac[nb.index][2] + nb.image[2]]),
          center,
        ),
      )
      .filter((v) => norm(v) > 1e-8);
    // A centre element appears in by_center once it has an angle (as in the goldens).
    let own = byCenter.get(elements[i]);
    if (!own && vectors.length >= 2) byCenter.set(elements[i], (own = new Array<number>(ANGLE_BINS).fill(0)));
    for (let p = 0; p < vectors.length; p++) {
      for (let q = p + 1; q < vectors.length; q++) {
        const [u, v] = [vectors[p], vectors[q]];
        const theta = angleBetween(u, v);
        const bin = Math.min(ANGLE_BINS - 1, Math.floor(theta + 0.5));
        histogram[bin]++;
        own![bin]++;
        nAngles++;
      }
    }
  }

  // RDF over ordered pairs: every unordered pair (or own image) found once counts twice.
  const counts = new Array<number>(nBins).fill(0);
  const far = findNeighborsRaw(Float64Array.from(frac.flatMap((f) => lattice.fracToCart(f))), lattice.matrix, rdfRange + o.rdfBin);
  for (let p = 0; p < far.distance.length; p++) {
    const k = Math.floor(far.distance[p] / o.rdfBin + 1e-6);
    if (k < nBins) counts[k] += 2;
  }
  const shell = (k: number) => ((4 * Math.PI) / 3) * o.rdfBin * o.rdfBin * o.rdfBin * ((k + 1) * (k + 1) * (k + 1) - k * k * k);
  return {
    sites: frac.map((f, k) => ({ element: elements[k], frac: f })),
    coordination: lists.map((l) => l.length),
    ...(cnWeights ? { cnWeights } : {}),
    neighbors: lists,
    bondLengths,
    angles: { nAngles, histogram, byCenter },
    rdf: {
      rMax: o.rdfMax,
      binWidth: o.rdfBin,
      nBins,
      numberDensity,
      r: counts.map((_, k) => (k + 0.5) * o.rdfBin),
      counts,
      g: counts.map((c, k) => c / (n * numberDensity * shell(k))),
    },
  };
}
