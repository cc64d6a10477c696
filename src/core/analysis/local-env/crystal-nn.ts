/**
 * CrystalNN coordination (Pan, Ganose, Horton, Aykol, Persson, Zimmermann, Jain, Inorg. Chem. 60, 1590 (2021)) as
 * pymatgen 2022.11.7 computes it with its defaults (pymatgen/analysis/local_env.py, CrystalNN.get_nn_data,
 * get_nn_info, get_cn, _semicircle_integral, _get_radius, _get_default_radius): weighted_cn=False, cation_anion=False,
 * distance_cutoffs=(0.5, 1), x_diff_weight=3, porous_adjustment=True, search_cutoff=7, fingerprint_length=None.
 *
 * Per site: the Voronoi facets (voronoi.ts) weighted by solid angle / largest solid angle, times solid angle / area
 * (the porous adjustment), times 1 + 3·√(|ΔX| / 3.3) (Pauling electronegativity difference); normalised to the
 * largest; times a distance weight that falls from 1 to 0 (half a cosine) between the radii sum + 0.5 Å and + 1 Å;
 * rounded to 3 decimals. Each distinct weight w is a threshold: the neighbours at or above it make one candidate CN,
 * scored by the area of the unit quarter circle between w and the next lower threshold; the best-scored CN wins.
 */
import { atan, cos } from '../../math/libm.ts';
import { isOrderedSite, type Structure } from '../../structure/structure.ts';
import tables from './tables.json' with { type: 'json' };
import { voronoiCells } from './voronoi.ts';

export interface CrystalNNNeighbor {
  /** Site index in the structure. */
  index: number;
  /** Lattice image: the neighbour sits at frac[index] + image. */
  image: [number, number, number];
  /** Centre–neighbour distance, Å. */
  distance: number;
  /** 1 (pymatgen's get_nn_info with weighted_cn=False), or the CrystalNN weight for `weighted` and `allNeighbors`. */
  weight: number;
}

export interface CrystalNNSite {
  /** Coordination number (pymatgen's get_cn: the number of `neighbors`, or their summed weights when weighted). */
  cn: number;
  /** pymatgen's get_nn_info: the neighbours of the most probable CN, highest weight first. */
  neighbors: CrystalNNNeighbor[];
  /** get_nn_data's all_nninfo: every neighbour with a weight (rounded to 3 decimals) above 0, highest first. */
  allNeighbors: CrystalNNNeighbor[];
  /** get_nn_data's cn_weights in pymatgen's order: candidate CNs and their probabilities (CN k: the first k of allNeighbors). */
  cnWeights: { cn: number; weight: number }[];
}

export interface CrystalNNOptions {
  /** pymatgen's weighted_cn: every neighbour of allNeighbors, weighted by the probability of the CNs it takes part in. */
  weighted?: boolean;
}

interface ElementRow {
  X: number | null;
  cov: number | null;
  at: number | null;
  ion: Record<string, number>;
  cat: number;
  an: number;
}
const ELEMENTS = tables.elements as Record<string, ElementRow>;

/** Options CrystalNN fixes here (pymatgen's defaults). */
const SEARCH_CUTOFF = 7;
const X_DIFF_WEIGHT = 3;
const DISTANCE_CUTOFFS = [0.5, 1] as const;

interface SiteChem {
  X: number;
  /** _get_radius: oxidation-state radius, 0 when none applies. */
  radius: number;
  /** _get_default_radius: covalent radius, else atomic. */
  fallback: number;
}

/** pymatgen's _get_default_radius: covalent radius of the element, else its atomic radius. */
function defaultRadius(el: string, row: ElementRow): number {
  const r = row.cov ?? row.at;
  if (r === null) throw new Error(`CrystalNN has no covalent or atomic radius for ${el}`);
  return r;
}

/** pymatgen's _get_radius: the ionic radius of the oxidation state (interpolated, else the average), 0 if none. */
function oxidationRadius(el: string, row: ElementRow, oxi: number | undefined): number {
  if (oxi === undefined) return 0;
  if (oxi === 0) return defaultRadius(el, row);
  const exact = Number.isInteger(oxi) ? row.ion[String(oxi)] : undefined;
  if (exact !== undefined) return exact;
  const lo = row.ion[String(Math.floor(oxi))],
    hi = row.ion[String(Math.ceil(oxi))];
  if (lo !== undefined && hi !== undefined) {
    const x = oxi - Math.floor(oxi);
    return (1 - x) * lo + x * hi;
  }
  if (oxi > 0 && row.cat > 0) return row.cat;
  if (row.an > 0 && oxi < 0) return row.an;
  return 0;
}

function siteChemistry(structure: Structure): SiteChem[] {
  return structure.sites.map((site, k) => {
    if (!isOrderedSite(site)) {
      const species = Object.entries(site.species)
        .map(([el, occ]) => `${el}:${occ}`)
        .join(' ');
      throw new Error(`CrystalNN needs one species per site; site ${k + 1} holds ${species}`);
    }
    const el = Object.keys(site.species)[0];
    const row = Object.hasOwn(ELEMENTS, el) ? ELEMENTS[el] : undefined;
    if (!row) throw new Error(`CrystalNN has no data for the species "${el}" of site ${k + 1}`);
    return { X: row.X ?? NaN, radius: oxidationRadius(el, row, site.oxidation?.[el]), fallback: defaultRadius(el, row) };
  });
}

/** Python's round(x, 3) for x ≥ 0: correctly rounded, ties to even. */
function round3(x: number): number {
  const y = x * 1000;
  const n = Math.floor(y);
  const f = y - n;
  if (f < 0.4999999 || f > 0.5000001) return (f > 0.5 ? n + 1 : n) / 1000;
  // Near a tie: an exact one only for odd multiples of 1/16 (then to even); else decimal rounding of the exact value.
  const t = x * 16;
  if (Number.isInteger(t) && t % 2 === 1) return (n % 2 === 0 ? n : n + 1) / 1000;
  return Number(x.toFixed(3));
}

const QUARTER_CIRCLE = tables.quarterCircle as number[];

/**
 * The area under the unit circle from 0 to x (π/4 at 1) as pymatgen computes it: from the table for the weights
 * CrystalNN rounds to 3 decimals (glibc's atan, which libm.ts's misses by an ulp at some), else by the formula.
 */
function quarterArea(x: number): number {
  const k = Math.round(x * 1000);
  if (k >= 0 && k <= 1000 && k / 1000 === x) return QUARTER_CIRCLE[k];
  return 0.5 * (x * Math.sqrt(1 - x ** 2) + atan(x / Math.sqrt(1 - x ** 2)));
}

/** CrystalNN._semicircle_integral: the share of the unit quarter circle between bins[idx + 1] and bins[idx]. */
function semicircleIntegral(bins: number[], idx: number): number {
  const x1 = bins[idx],
    x2 = bins[idx + 1];
  const area1 = x1 === 1 ? 0.25 * Math.PI : quarterArea(x1);
  return (area1 - quarterArea(x2)) / (0.25 * Math.PI);
}

/**
 * CrystalNN neighbours and coordination number of every site of an ordered periodic structure, equal to pymatgen
 * 2022.11.7's CrystalNN() (get_nn_info, get_cn, get_nn_data) site by site. Throws a sentence for disordered sites,
 * species without data and Voronoi cells that stay open (voronoiCells), a LimitError past LIMITS.localEnvPairs.
 */
export function crystalNN(structure: Structure, options: CrystalNNOptions = {}): CrystalNNSite[] {
  const chem = siteChemistry(structure);
  const cells = voronoiCells(structure, SEARCH_CUTOFF);
  const out: CrystalNNSite[] = [];
  const weight: number[] = [];
  const order: number[] = [];
  for (let i = 0; i < structure.sites.length; i++) {
    const first = cells.start[i],
      end = cells.start[i + 1];
    // VoronoiNN._extract_nn_info: solid angle / the largest, facets of solid angle > 0.
    let maxAngle = -Infinity;
    for (let k = first; k < end; k++) if (cells.solidAngle[k] > maxAngle) maxAngle = cells.solidAngle[k];
    weight.length = 0;
    order.length = 0;
    const X1 = chem[i].X;
    for (let k = first; k < end; k++) {
      const sa = cells.solidAngle[k];
      if (!(sa > 0)) continue;
      let w = sa / maxAngle;
      w *= sa / cells.area[k]; // porous adjustment
      const X2 = chem[cells.index[k]].X;
      const chemical = Number.isNaN(X1) || Number.isNaN(X2) ? 1 : 1 + X_DIFF_WEIGHT * Math.sqrt(Math.abs(X1 - X2) / 3.3);
      weight[k - first] = w * chemical;
      order.push(k - first);
    }
    const byWeight = (a: number, b: number) => (weight[a] < weight[b] ? 1 : weight[a] > weight[b] ? -1 : 0);
    order.sort(byWeight);
    if (order.length === 0 || weight[order[0]] === 0) {
      out.push({ cn: 0, neighbors: [], allNeighbors: [], cnWeights: [{ cn: 0, weight: 1 }] });
      continue;
    }
    const highest = weight[order[0]];
    for (const t of order) weight[t] = weight[t] / highest;
    // Distance weight against the radii sum (oxidation-state radii, else covalent/atomic).
    const r1 = chem[i].radius;
    for (const t of order) {
      const k = first + t;
      const j = cells.index[k];
      const r2 = chem[j].radius;
      const d = r1 > 0 && r2 > 0 ? r1 + r2 : chem[i].fallback + chem[j].fallback;
      const dist = distanceOf(cells.vector, k);
      const low = d + DISTANCE_CUTOFFS[0],
        high = d + DISTANCE_CUTOFFS[1];
      let distWeight = 0;
      if (dist <= low) distWeight = 1;
      else if (dist < high) distWeight = (cos(((dist - low) / (high - low)) * Math.PI) + 1) * 0.5;
      weight[t] = weight[t] * distWeight;
    }
    order.sort(byWeight);
    if (weight[order[0]] === 0) {
      out.push({ cn: 0, neighbors: [], allNeighbors: [], cnWeights: [{ cn: 0, weight: 1 }] });
      continue;
    }
    const all: CrystalNNNeighbor[] = [];
    for (const t of order) {
      const w = round3(weight[t]);
      if (!(w > 0)) continue;
      const k = first + t;
      all.push({
        index: cells.index[k],
        image: [cells.image[3 * k], cells.image[3 * k + 1], cells.image[3 * k + 2]],
        distance: distanceOf(cells.vector, k),
        weight: w,
      });
    }
    // Thresholds: the distinct weights, then 0; CN k = the neighbours at or above a threshold.
    const bins: number[] = [];
    for (const e of all) if (bins.length === 0 || bins[bins.length - 1] !== e.weight) bins.push(e.weight);
    bins.push(0);
    const cnWeights: { cn: number; weight: number }[] = [];
    let count = 0;
    let total = 0;
    for (let idx = 0; idx < bins.length - 1; idx++) {
      while (count < all.length && all[count].weight >= bins[idx]) count++;
      const w = semicircleIntegral(bins, idx);
      cnWeights.push({ cn: count, weight: w });
      total += w;
    }
    const cn0 = 1.0 - total;
    if (cn0 > 0) cnWeights.push({ cn: 0, weight: cn0 });
    let best = cnWeights[0];
    for (const c of cnWeights) if (c.weight > best.weight) best = c;
    if (options.weighted) {
      // Each neighbour: the summed probability of the CNs that include it (pymatgen sums in cn_weights order).
      const neighbors = all.map((e, position) => {
        let w = 0;
        for (const c of cnWeights) if (position < c.cn) w += c.weight;
        return { ...e, weight: w };
      });
      let cn = 0;
      for (const e of neighbors) cn += e.weight;
      out.push({ cn, neighbors, allNeighbors: all, cnWeights });
    } else {
      const neighbors = all.slice(0, best.cn).map((e) => ({ ...e, weight: 1 }));
      out.push({ cn: neighbors.length, neighbors, allNeighbors: all, cnWeights });
    }
  }
  return out;
}

const distanceOf = (v: Float64Array, k: number): number => Math.sqrt(v[3 * k] ** 2 + v[3 * k + 1] ** 2 + v[3 * k + 2] ** 2);
