/**
 * matminer v0.7.3's CrystalNNFingerprint.from_preset("ops") (hackingmaterials/matminer
 * matminer/featurizers/site.py CrystalNNFingerprint: from_preset, __init__, featurize, feature_labels; motifs from
 * matminer/featurizers/cn_target_motif_op.yaml, their order-parameter types and parameters from pymatgen's
 * pymatgen/analysis/cn_opt_params.yaml), and the most likely named motif of a site.
 *
 * Per site, for CN 1 … 24: the CrystalNN probability w of that CN ("wt CN_k"), then for each named motif of the CN
 * w × its order parameter on the CN's neighbours (the k highest-weighted of get_nn_data's all_nninfo), 0 where w is
 * 0 or pymatgen gives None. 61 numbers, in feature_labels() order.
 */
import type { Structure } from '../../structure/structure.ts';
import { type CrystalNNSite, crystalNN } from './crystal-nn.ts';
import { NeighborGeometry, type OrderParam, dot3, orderParam } from './order-params.ts';

/** cn_target_motif_op.yaml: the motifs of each CN and the order parameter cn_opt_params.yaml gives each. */
const MOTIFS: [cn: number, motif: string, op: OrderParam][] = [
  [1, 'sgl_bd', orderParam('sgl_bd')],
  [2, 'L-shaped', orderParam('bent', { TA: 0.5, IGW_TA: 15.15 })],
  [2, 'water-like', orderParam('bent', { TA: 0.5802777777777778, IGW_TA: 13.95 })],
  [2, 'bent 120 degrees', orderParam('bent', { TA: 0.666666666667, IGW_TA: 13.25 })],
  [2, 'bent 150 degrees', orderParam('bent', { TA: 0.833333333333333, IGW_TA: 12.45 })],
  [2, 'linear', orderParam('bent', { TA: 1, IGW_TA: 8.667 })],
  [3, 'trigonal planar', orderParam('tri_plan_max')],
  [3, 'trigonal non-coplanar', orderParam('tet_max', { TA: 0.6081734479693927, IGW_TA: 18.33, fac_AA: 1.5, exp_cos_AA: 2 })],
  [3, 'T-shaped', orderParam('T')],
  [4, 'square co-planar', orderParam('sq_plan_max')],
  [4, 'tetrahedral', orderParam('tet_max')],
  [4, 'rectangular see-saw-like', orderParam('see_saw_rect')],
  [
    4,
    'see-saw-like',
    orderParam('tri_bipyr', { min_SPP: 2.356194490192345, IGW_EP: 15.75, IGW_SPP: 12.75, fac_AA: 1.5, exp_cos_AA: 2, w_SPP: 1 }),
  ],
  [4, 'trigonal pyramidal', orderParam('tri_pyr')],
  [5, 'pentagonal planar', orderParam('pent_plan_max')],
  [5, 'square pyramidal', orderParam('sq_pyr')],
  [5, 'trigonal bipyramidal', orderParam('tri_bipyr')],
  [6, 'hexagonal planar', orderParam('hex_plan_max')],
  [6, 'octahedral', orderParam('oct_max')],
  [6, 'pentagonal pyramidal', orderParam('pent_pyr')],
  [7, 'hexagonal pyramidal', orderParam('hex_pyr')],
  [7, 'pentagonal bipyramidal', orderParam('pent_bipyr')],
  [8, 'body-centered cubic', orderParam('bcc')],
  [8, 'hexagonal bipyramidal', orderParam('hex_bipyr')],
  ...[9, 10, 11, 12].flatMap((cn): [number, string, OrderParam][] => [
    ...(cn === 12 ? [[12, 'cuboctahedral', orderParam('cuboct_max')] as [number, string, OrderParam]] : []),
    [cn, 'q2', orderParam('q2')],
    [cn, 'q4', orderParam('q4')],
    [cn, 'q6', orderParam('q6')],
  ]),
];
/** The preset's largest CN ("wt" only beyond the motifs). */
const MAX_CN = 24;
/** The largest CN with motifs: no site needs more neighbours loaded. */
const MAX_MOTIF_CN = 12;

/** One feature: the CN's probability (op null) or probability × order parameter. */
interface Feature {
  cn: number;
  label: string;
  op: OrderParam | null;
}
const FEATURES: Feature[] = [];
for (let cn = 1; cn <= MAX_CN; cn++) {
  FEATURES.push({ cn, label: `wt CN_${cn}`, op: null });
  for (const [c, motif, op] of MOTIFS) if (c === cn) FEATURES.push({ cn, label: `${motif} CN_${cn}`, op });
}

/** matminer's feature_labels(): "wt CN_k", then "<motif> CN_k" for each motif of CN k. */
export const CRYSTALNN_FINGERPRINT_LABELS: readonly string[] = FEATURES.map((f) => f.label);

/**
 * Loads the first `count` of the site's allNeighbors into `geometry` as centre → neighbour vectors, placed as
 * pymatgen places them: Cartesian = numpy's dot(fractional, lattice) (get_cartesian_coords), the neighbour's
 * fractional coordinates wrapped into [0, 1) plus its image (get_sites_in_sphere), the centre's unwrapped.
 */
function loadNeighbors(
  structure: Structure,
  index: number,
  site: CrystalNNSite,
  count: number,
  geometry: NeighborGeometry,
  buf: Float64Array,
) {
  const m = structure.lattice!.matrix;
  const [c0, c1, c2] = structure.sites[index].frac!;
  const x0 = dot3(c0, c1, c2, m[0][0], m[1][0], m[2][0]),
    y0 = dot3(c0, c1, c2, m[0][1], m[1][1], m[2][1]),
    z0 = dot3(c0, c1, c2, m[0][2], m[1][2], m[2][2]);
  for (let t = 0; t < count; t++) {
    const e = site.allNeighbors[t];
    const frac = structure.sites[e.index].frac!;
    const f0 = frac[0] - Math.floor(frac[0]) + (e.image[0] + Math.floor(frac[0])),
      f1 = frac[1] - Math.floor(frac[1]) + (e.image[1] + Math.floor(frac[1])),
      f2 = frac[2] - Math.floor(frac[2]) + (e.image[2] + Math.floor(frac[2]));
    buf[3 * t] = dot3(f0, f1, f2, m[0][0], m[1][0], m[2][0]) - x0;
    buf[3 * t + 1] = dot3(f0, f1, f2, m[0][1], m[1][1], m[2][1]) - y0;
    buf[3 * t + 2] = dot3(f0, f1, f2, m[0][2], m[1][2], m[2][2]) - z0;
  }
  geometry.load(buf, count);
}

/** cn_weights as a table by CN (0 where get_nn_data has none). */
function weightsByCn(site: CrystalNNSite, out: Float64Array): void {
  out.fill(0);
  for (const { cn, weight } of site.cnWeights) if (cn >= 1 && cn <= MAX_CN) out[cn] = weight;
}

/**
 * CrystalNNFingerprint.from_preset("ops").featurize(structure, i) for every site: 61 numbers per site in
 * CRYSTALNN_FINGERPRINT_LABELS order. `sites` is crystalNN(structure) (computed here when not given); its errors
 * (disordered sites, unknown species, LimitError) propagate.
 */
export function crystalNNFingerprint(structure: Structure, sites: CrystalNNSite[] = crystalNN(structure)): number[][] {
  const geometry = new NeighborGeometry();
  const buf = new Float64Array(3 * MAX_MOTIF_CN);
  const wt = new Float64Array(MAX_CN + 1);
  return sites.map((site, i) => {
    weightsByCn(site, wt);
    let needed = 0;
    for (let cn = 1; cn <= MAX_MOTIF_CN; cn++) if (wt[cn] !== 0) needed = cn;
    if (needed > 0) loadNeighbors(structure, i, site, needed, geometry, buf);
    const row = new Array<number>(FEATURES.length);
    for (let k = 0; k < FEATURES.length; k++) {
      const { cn, op } = FEATURES[k];
      const w = wt[cn];
      row[k] = op === null || w === 0 ? w : w * (geometry.value(op, cn) ?? 0);
    }
    return row;
  });
}

/** A site's most likely named motif (siteMotif). */
export interface SiteMotif {
  /** matminer's motif name, e.g. "octahedral", "tetrahedral", "body-centered cubic". */
  motif: string;
  /** Its order parameter on the site's neighbours (about 1 for the ideal motif). */
  value: number;
}

/**
 * For the CN CrystalNN chose for site `index` (`site` = crystalNN(structure)[index]), the named motif of that CN
 * (cn_target_motif_op, not q2 / q4 / q6) whose order parameter is highest, and that value; null where the CN has no
 * named motif (0, 9–11, above 12) or none has a value.
 */
export function siteMotif(structure: Structure, index: number, site: CrystalNNSite): SiteMotif | null {
  if (site.cnWeights.length === 0) return null;
  let best = site.cnWeights[0];
  for (const c of site.cnWeights) if (c.weight > best.weight) best = c;
  const candidates = MOTIFS.filter(([cn, , op]) => cn === best.cn && !op.type.startsWith('q'));
  if (candidates.length === 0) return null;
  const geometry = new NeighborGeometry();
  loadNeighbors(structure, index, site, best.cn, geometry, new Float64Array(3 * best.cn));
  let out: SiteMotif | null = null;
  for (const [, motif, op] of candidates) {
    const value = geometry.value(op);
    if (value !== null && (out === null || value > out.value)) out = { motif, value };
  }
  return out;
}
