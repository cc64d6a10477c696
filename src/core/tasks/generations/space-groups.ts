/**
 * Space groups of generated crystals: per structure at symprec 0.1 Å (as pymatgen's SpacegroupAnalyzer(s, symprec=0.1)
 * is used on generated sets), and the distribution of a set. Matches across different space groups inflate CSP match
 * rates (materialsproject/pymatgen issue #3796), so CSP pairs carry both groups. README.md here.
 */
import type { Structure } from '../../structure/structure.ts';
import { crystalSystemOf, searchSymmetry } from '../../symmetry/analyze.ts';

/** Distance tolerance (Å) of every space group reported by `gen csp` and `gen eval`. */
export const GEN_SYMPREC = 0.1;

export interface GenSpaceGroup {
  number: number;
  /** International short symbol as spglib and pymatgen print it, e.g. "P2_1/c". */
  symbol: string;
}

/**
 * The space group of `s` at GEN_SYMPREC and pymatgen's angle tolerance (5°), as the `symmetry` command finds it;
 * null when spglib finds none (atoms of one kind closer than symprec) or the structure has too many sites.
 */
export function genSpaceGroup(s: Structure): GenSpaceGroup | null {
  const run = searchSymmetry(s, GEN_SYMPREC);
  if (!run) return null;
  return { number: run.dataset.spacegroup_number, symbol: run.dataset.international_symbol };
}

const CRYSTAL_SYSTEMS = ['triclinic', 'monoclinic', 'orthorhombic', 'tetragonal', 'trigonal', 'hexagonal', 'cubic'] as const;
type CrystalSystem = (typeof CRYSTAL_SYSTEMS)[number];

export interface SpaceGroupDistribution {
  n: number;
  /** Structures whose search gave no space group (counted in n, in no group). */
  n_unknown: number;
  /** Structures in P1 over all n. */
  p1_fraction: number;
  /** Every space group met, by number. */
  space_groups: { number: number; symbol: string; count: number }[];
  /** All seven systems (pymatgen's get_crystal_system from the number), zeros included. */
  crystal_systems: Record<CrystalSystem, number>;
}

/** The distribution of one set's space groups (null = unknown). */
export function spaceGroupDistribution(groups: readonly (GenSpaceGroup | null)[]): SpaceGroupDistribution {
  const byNumber = new Map<number, { number: number; symbol: string; count: number }>();
  const systems = Object.fromEntries(CRYSTAL_SYSTEMS.map((c) => [c, 0])) as Record<CrystalSystem, number>;
  let unknown = 0;
  for (const g of groups) {
    if (!g) {
      unknown++;
      continue;
    }
    const hit = byNumber.get(g.number);
    if (hit) hit.count++;
    else byNumber.set(g.number, { number: g.number, symbol: g.symbol, count: 1 });
    systems[crystalSystemOf(g.number) as CrystalSystem]++;
  }
  const n = groups.length;
  return {
    n,
    n_unknown: unknown,
    p1_fraction: n ? (byNumber.get(1)?.count ?? 0) / n : 0,
    space_groups: [...byNumber.values()].sort((a, b) => a.number - b.number),
    crystal_systems: systems,
  };
}
