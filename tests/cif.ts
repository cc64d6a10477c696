import { type Site, type Structure, fracOf, makeSiteFromFrac } from '../src/core/structure/structure.ts';
import { vec3 } from '../src/core/math/mat3.ts';

/** CIF text for tests: the small P1 cells that tests write inline. */

/** The atom loop most test CIFs use: label, type symbol and fractional x, y, z. */
export const ATOM_SITE_COLUMNS: readonly string[] = [
  '_atom_site_label',
  '_atom_site_type_symbol',
  '_atom_site_fract_x',
  '_atom_site_fract_y',
  '_atom_site_fract_z',
];

export interface P1CifOptions {
  /** The atom loop's column names, in order; the atom rows follow them. */
  columns?: readonly string[];
  /** Data items written between the `data_` line and the cell, as some real files have them. */
  preamble?: readonly string[];
}

/**
 * A cubic P1 CIF: block `name`, edge `a` Å, `_symmetry_space_group_name_H-M 'P 1'`, one atom loop of `columns` holding
 * `rows`, and a final newline. With no rows it is the head of the file, ready for rows to be appended.
 */
export function p1Cif(
  name: string,
  a: number,
  rows: readonly string[],
  { columns = ATOM_SITE_COLUMNS, preamble = [] }: P1CifOptions = {},
): string {
  const lines = [
    `data_${name}`,
    ...preamble,
    `_cell_length_a ${a}`,
    `_cell_length_b ${a}`,
    `_cell_length_c ${a}`,
    '_cell_angle_alpha 90',
    '_cell_angle_beta 90',
    '_cell_angle_gamma 90',
    "_symmetry_space_group_name_H-M 'P 1'",
    'loop_',
    ...columns,
    ...rows,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * A structure as pymatgen's CifParser reads it back from a CIF holding its fractional coordinates: each one within
 * 1e-4 (relative) of 1/3 or 2/3 becomes the exact value (`CifParser._sanitize_data`, pymatgen/io/cif.py 2022.11).
 */
export function asPymatgenReadsIt(s: Structure): Structure {
  const lattice = s.lattice;
  if (!lattice) return s;
  const ideal = (x: number) => [1 / 3, 2 / 3].find((third) => Math.abs(1 - x / third) < 1e-4) ?? x;
  const sites = s.sites.map((site) => {
    const f = fracOf(site, lattice);
    const g = vec3(ideal(f[0]), ideal(f[1]), ideal(f[2]));
    return g.every((x, k) => x === f[k]) ? site : { ...makeSiteFromFrac(lattice, g, site.species), ...extrasOf(site) };
  });
  return { ...s, sites };
}

const extrasOf = (site: Site): Partial<Site> => ({ label: site.label, oxidation: site.oxidation, properties: site.properties });

/**
 * fcc Cu (a = 3.6149 Å) as a conventional F m -3 m cell with its four centring operations: the one-element fcc crystal
 * the nanoparticle shape tests carve icosahedra, decahedra and Wulff particles from.
 */
export const FCC_CU_CIF = `data_Cu
_symmetry_space_group_name_H-M 'F m -3 m'
_symmetry_Int_Tables_number 225
_cell_length_a 3.6149
_cell_length_b 3.6149
_cell_length_c 3.6149
_cell_angle_alpha 90
_cell_angle_beta 90
_cell_angle_gamma 90
loop_
_symmetry_equiv_pos_as_xyz
x,y,z
x,y+1/2,z+1/2
x+1/2,y,z+1/2
x+1/2,y+1/2,z
loop_
_atom_site_label
_atom_site_type_symbol
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
Cu1 Cu 0 0 0
`;
