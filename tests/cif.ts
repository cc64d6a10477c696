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
