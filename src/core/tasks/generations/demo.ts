/**
 * The Generations page's demo: CSP predictions made from real MP-20 truths (datasets/generations/mp20-demo.csv) by
 * known, seeded failure modes, one per truth in turn, so that a run shows matches and each kind of miss.
 */
import { cos, sin } from '../../math/libm.ts';
import { gaussian, mulberry32 } from '../../math/random.ts';
import { type Mat3, type Vec3, add, matMul, norm, scale, sub, unit } from '../../math/mat3.ts';
import { Lattice } from '../../structure/lattice.ts';
import { type Site, type Structure, fracOf, majorSpecies, makeSiteFromCart, makeSiteFromFrac } from '../../structure/structure.ts';
import type { GenItem } from './inputs.ts';

/** The failure modes in the order the truths cycle through them. */
export const DEMO_MODES = [
  'rotated_shifted_copy',
  'noise_0.1A',
  'atoms_0.3A_apart',
  'atom_deleted',
  'c_stretched_1.6',
  'species_swapped',
  'random_positions',
  'extra_metal_atom',
] as const;
type DemoMode = (typeof DEMO_MODES)[number];

const DEMO_SEED = 20221;

/** Elements that are not metals (for the extra atom, which should be a metal of the truth). */
const NON_METALS = new Set(['H', 'He', 'B', 'C', 'N', 'O', 'F', 'Ne', 'Si', 'P', 'S', 'Cl', 'Ar', 'Ge', 'As', 'Se', 'Br', 'Kr']);
for (const e of ['Sb', 'Te', 'I', 'Xe', 'At', 'Rn']) NON_METALS.add(e);

function rotation(rand: () => number): Mat3 {
  // A random rotation from a random unit quaternion (Shoemake's method).
  const [u1, u2, u3] = [rand(), rand(), rand()];
  const [x, y, z, w] = [
    Math.sqrt(1 - u1) * sin(2 * Math.PI * u2),
    Math.sqrt(1 - u1) * cos(2 * Math.PI * u2),
    Math.sqrt(u1) * sin(2 * Math.PI * u3),
    Math.sqrt(u1) * cos(2 * Math.PI * u3),
  ];
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}

const withSites = (s: Structure, lattice: Lattice, sites: Site[]): Structure => ({ name: s.name, lattice, sites });
const fromFrac = (lattice: Lattice, frac: Vec3, species: Site['species']): Site => makeSiteFromFrac(lattice, frac, { ...species });

/** One prediction from one truth by `mode`. */
function predict(s: Structure, mode: DemoMode, rand: () => number): Structure {
  const lat = s.lattice!;
  const fracs = s.sites.map((site) => fracOf(site, lat));
  const normal = gaussian(rand);
  switch (mode) {
    case 'rotated_shifted_copy': {
      // Rows are lattice vectors: rotating every row rotates the crystal; the fractional positions are shifted.
      const rotated = new Lattice(matMul(lat.matrix, rotation(rand)));
      const shift: Vec3 = [rand(), rand(), rand()];
      const sites = s.sites.map((site, i) => fromFrac(rotated, add(fracs[i], shift), site.species));
      return withSites(s, rotated, sites.reverse());
    }
    case 'noise_0.1A':
      return withSites(
        s,
        lat,
        s.sites.map((site) => makeSiteFromCart(lat, add(site.xyz, [0.1 * normal(), 0.1 * normal(), 0.1 * normal()]), { ...site.species })),
      );
    case 'atoms_0.3A_apart': {
      // Site 1 moved to 0.3 Å from site 0, in a random direction.
      const dir = unit([normal(), normal(), normal()]);
      return withSites(
        s,
        lat,
        s.sites.map((site, i) => makeSiteFromCart(lat, i === 1 ? add(s.sites[0].xyz, scale(dir, 0.3)) : site.xyz, { ...site.species })),
      );
    }
    case 'atom_deleted': {
      const drop = Math.floor(rand() * s.sites.length);
      return withSites(
        s,
        lat,
        s.sites.filter((_, i) => i !== drop).map((site) => fromFrac(lat, fracOf(site, lat), site.species)),
      );
    }
    case 'c_stretched_1.6': {
      const m = lat.matrix;
      const stretched = new Lattice([m[0], m[1], scale(m[2], 1.6)]);
      return withSites(
        s,
        stretched,
        s.sites.map((site, i) => fromFrac(stretched, fracs[i], site.species)),
      );
    }
    case 'species_swapped': {
      // The first site and the first site of another element exchange species.
      const first = majorSpecies(s.sites[0]);
      const j = s.sites.findIndex((site) => majorSpecies(site) !== first);
      return withSites(
        s,
        lat,
        s.sites.map((site, i) => fromFrac(lat, fracs[i], (i === 0 ? s.sites[j] : i === j ? s.sites[0] : site).species)),
      );
    }
    case 'random_positions':
      return withSites(
        s,
        lat,
        s.sites.map((site) => fromFrac(lat, [rand(), rand(), rand()], site.species)),
      );
    case 'extra_metal_atom': {
      // One more atom of the truth's first metal (sodium if it has none), on the 4×4×4 grid point farthest from the atoms.
      const metal = s.sites.map(majorSpecies).find((e) => !NON_METALS.has(e)) ?? 'Na';
      let best: Vec3 = [0, 0, 0],
        bestDistance = -1;
      for (let g = 0; g < 64; g++) {
        const p: Vec3 = [(g >> 4) / 4 + 0.125, ((g >> 2) & 3) / 4 + 0.125, (g & 3) / 4 + 0.125];
        const d = Math.min(...fracs.map((f) => norm(lat.fracToCart(sub(p, f).map((x) => x - Math.round(x)) as Vec3))));
        if (d > bestDistance) [best, bestDistance] = [p, d];
      }
      return withSites(s, lat, [...s.sites.map((site, i) => fromFrac(lat, fracs[i], site.species)), fromFrac(lat, best, { [metal]: 1 })]);
    }
  }
}

/**
 * One prediction per truth, with the truth's id (CSP pairing with one sample): mode i mod 8 for truth i. Seeded
 * (mulberry32 and the project's libm), so the same in every browser and in Node.
 */
export function demoPredictions(truths: readonly GenItem[], seed = DEMO_SEED): GenItem[] {
  const rand = mulberry32(seed);
  return truths.map((t, i) => {
    const mode = DEMO_MODES[i % DEMO_MODES.length];
    return { id: t.id, structure: predict(t.structure, mode, rand), where: `demo prediction (${mode}) of ${t.id}` };
  });
}
