/**
 * Structural validity as txie-93/cdvae `scripts/eval_utils.py` `structure_validity` (the same in
 * jiaor17/DiffCSP and microsoft/mattergen): the smallest distance between two different sites under
 * periodic boundary conditions, and the cell volume.
 */
import { det, inverse } from '../../math/mat3.ts';
import { lllReduce } from '../../structure/lll.ts';
import { type Structure, fracOf } from '../../structure/structure.ts';
import { type CompositionReason, type SmactTable, smactValidity } from './smact.ts';

export type StructureReason = 'atoms_too_close' | 'volume_too_small';

export interface StructuralValidity {
  /** Smallest distance between two different sites, Å; null for a one-site structure. */
  minDistance: number | null;
  /** |det(lattice)|, Å³. */
  volume: number;
  valid: boolean;
  /** In the contract's order: atoms_too_close, volume_too_small. */
  reasons: StructureReason[];
}

/** Upstream's thresholds, both strict: d_min < 0.5 Å or V < 0.1 Å³ is invalid. */
const MIN_DISTANCE = 0.5;
const MIN_VOLUME = 0.1;

const wrap01 = (x: number): number => x - Math.floor(x);

/**
 * min over i ≠ j of pymatgen's `Structure.distance_matrix` (`Lattice.get_all_distances` →
 * `pbc_shortest_vectors`): fractional coordinates in the LLL-reduced basis, wrapped into [0, 1), and the
 * shortest of the 27 images (-1, 0, 1)³ — the routine src/core/match/structure-matcher.ts follows. The
 * diagonal (a site and its own periodic image) is never tested, as upstream pads it with 10.5 Å.
 */
export function minPairDistance(s: Structure): number | null {
  const n = s.sites.length;
  if (n < 2) return null;
  const { cart, images } = pbcFrame(s);
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const p0 = cart[3 * j] - cart[3 * i],
        p1 = cart[3 * j + 1] - cart[3 * i + 1],
        p2 = cart[3 * j + 2] - cart[3 * i + 2];
      for (let m = 0; m < 27; m++) {
        const d0 = p0 + images[3 * m],
          d1 = p1 + images[3 * m + 1],
          d2 = p2 + images[3 * m + 2];
        const d = d0 * d0 + d1 * d1 + d2 * d2;
        if (d < best) best = d;
      }
    }
  }
  return Math.sqrt(best);
}

/** Sites in the LLL-reduced basis, wrapped, as Cartesian rows, and the 27 image translations (-1, 0, 1)³. */
function pbcFrame(s: Structure): { cart: Float64Array; images: Float64Array } {
  if (!s.lattice) throw new Error('structural validity needs a periodic structure');
  const n = s.sites.length;
  const lll = lllReduce(s.lattice.matrix);
  const toLll = inverse(lll.mapping);
  const L = lll.matrix;
  const cart = new Float64Array(3 * n);
  s.sites.forEach((site, i) => {
    const f = fracOf(site, s.lattice!);
    const w = [0, 1, 2].map((k) => wrap01(f[0] * toLll[0][k] + f[1] * toLll[1][k] + f[2] * toLll[2][k]));
    for (let k = 0; k < 3; k++) cart[3 * i + k] = w[0] * L[0][k] + w[1] * L[1][k] + w[2] * L[2][k];
  });
  const images = new Float64Array(81);
  let x = 0;
  for (const a of [-1, 0, 1])
    for (const b of [-1, 0, 1])
      for (const c of [-1, 0, 1]) {
        for (let k = 0; k < 3; k++) images[3 * x + k] = a * L[0][k] + b * L[1][k] + c * L[2][k];
        x++;
      }
  return { cart, images };
}

/** Two different sites closer than the structural cutoff, with the shortest vector from i to j's image. */
export interface ClosePair {
  i: number;
  j: number;
  /** Å, as minPairDistance measures it. */
  distance: number;
  /** The vector from site i to the nearest image of site j, in fractions of the structure's own lattice. */
  frac: [number, number, number];
}

/** Every pair of different sites nearer than `cutoff` Å (upstream's 0.5 Å by default), as minPairDistance measures them. */
export function closePairs(s: Structure, cutoff = MIN_DISTANCE): ClosePair[] {
  const n = s.sites.length;
  if (n < 2) return [];
  const { cart, images } = pbcFrame(s);
  const toFrac = inverse(s.lattice!.matrix);
  const out: ClosePair[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let best = Infinity,
        v = [0, 0, 0];
      for (let m = 0; m < 27; m++) {
        const d0 = cart[3 * j] - cart[3 * i] + images[3 * m],
          d1 = cart[3 * j + 1] - cart[3 * i + 1] + images[3 * m + 1],
          d2 = cart[3 * j + 2] - cart[3 * i + 2] + images[3 * m + 2];
        const d = d0 * d0 + d1 * d1 + d2 * d2;
        if (d < best) [best, v] = [d, [d0, d1, d2]];
      }
      if (Math.sqrt(best) < cutoff) {
        const frac = [0, 1, 2].map((k) => v[0] * toFrac[0][k] + v[1] * toFrac[1][k] + v[2] * toFrac[2][k]) as [number, number, number];
        out.push({ i, j, distance: Math.sqrt(best), frac });
      }
    }
  }
  return out.sort((a, b) => a.distance - b.distance);
}

export function structuralValidity(s: Structure): StructuralValidity {
  if (!s.lattice) throw new Error('structural validity needs a periodic structure');
  const minDistance = minPairDistance(s);
  const volume = Math.abs(det(s.lattice.matrix));
  const reasons: StructureReason[] = [];
  if (minDistance !== null && minDistance < MIN_DISTANCE) reasons.push('atoms_too_close');
  if (volume < MIN_VOLUME) reasons.push('volume_too_small');
  return { minDistance, volume, valid: reasons.length === 0, reasons };
}

export type ValidityReason = StructureReason | CompositionReason;

/** Structural and compositional validity of one structure, as every gen metric reports it. */
export interface Assessment {
  nsites: number;
  minDistance: number | null;
  volume: number;
  structValid: boolean;
  compValid: boolean;
  valid: boolean;
  /** atoms_too_close, volume_too_small, then at most one SMACT reason; empty when valid. */
  reasons: ValidityReason[];
}

/**
 * `Crystal.valid` of cdvae / DiffCSP `scripts/compute_metrics.py` (struct_valid ∧ comp_valid), for an
 * ordered structure (inputs.ts). `diffcspCut`: DiffCSP's `smact_validity` with its 10⁷ combination cut.
 */
export function assessStructure(s: Structure, table: SmactTable, diffcspCut: boolean): Assessment {
  const st = structuralValidity(s);
  const counts: Record<string, number> = {};
  for (const site of s.sites) for (const el in site.species) counts[el] = (counts[el] ?? 0) + 1;
  const comp = smactValidity(counts, table, diffcspCut);
  const reasons: ValidityReason[] = [...st.reasons];
  if (comp.reason) reasons.push(comp.reason);
  return {
    nsites: s.sites.length,
    minDistance: st.minDistance,
    volume: st.volume,
    structValid: st.valid,
    compValid: comp.valid,
    valid: st.valid && comp.valid,
    reasons,
  };
}
