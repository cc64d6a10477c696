/** The local-environment goldens (tests/reference/golden/local-env/), shared by tests/unit/crystalnn*.test.ts. */
import { Lattice } from '../src/core/structure/lattice.ts';
import { makeSiteFromFrac, type Structure } from '../src/core/structure/structure.ts';

/** A structure of crystalnn.json as pymatgen held it: species strings, fractional coordinates, lattice rows, oxidation states. */
export interface GoldenStructure {
  source: string;
  sites: [string, [number, number, number]][];
  lattice: number[][];
  oxidation: (number | null)[];
  /** What pymatgen raised for the structure, if it refused it. */
  error?: string;
}

/** The structure as pymatgen read it (lattice, species, oxidation states and fractional coordinates of the golden). */
export function storedStructure(g: GoldenStructure): Structure {
  const lattice = new Lattice(g.lattice);
  const sites = g.sites.map(([species, frac], k) => {
    const el = species.replace(/[\d.]*[+-]$/, '');
    const ox = g.oxidation[k];
    return makeSiteFromFrac(lattice, frac, { [el]: 1 }, ox === null ? {} : { oxidation: { [el]: ox } });
  });
  return { name: g.source, lattice, sites };
}
