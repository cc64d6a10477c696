/**
 * The benchmark's frame: ASE's reading and writing of a P1 CIF (ase/io/cif.py).
 * Cell from parameters with a ∥ x and b in the xy-plane (not pymatgen's c ∥ z), fractional
 * coordinates wrapped with Python's `% 1.0`, and the AFTER file written the way ASE's write_cif does.
 */
import { type Mat3, type Vec3, inverse, norm, dot, vecMat } from '../../math/mat3.ts';
import type { LatticeParameters } from '../../structure/lattice.ts';
import { type Structure, majorSpecies } from '../../structure/structure.ts';
import { pythonFloatRepr, pythonFixed } from '../../structure/composition.ts';
import { sin, cos, acos } from '../../math/libm.ts';

const DEG = Math.PI / 180;
/** ASE treats an angle this close to 90° as exactly 90° (2·np.spacing(90.0)). */
const RIGHT_ANGLE_EPS = 2 * 1.4210854715202004e-14;

/** ASE `cellpar_to_cell` with the default orientation: a along x, b in the xy-plane. */
export function aseCellFromParameters(p: LatticeParameters): Mat3 {
  const cosOf = (angle: number) => (Math.abs(Math.abs(angle) - 90) < RIGHT_ANGLE_EPS ? 0 : cos(angle * DEG));
  const cosAlpha = cosOf(p.alpha),
    cosBeta = cosOf(p.beta),
    cosGamma = cosOf(p.gamma);
  let sinGamma: number;
  if (Math.abs(p.gamma - 90) < RIGHT_ANGLE_EPS) sinGamma = 1;
  else if (Math.abs(p.gamma + 90) < RIGHT_ANGLE_EPS) sinGamma = -1;
  else sinGamma = sin(p.gamma * DEG);
  const cx = cosBeta;
  const cy = (cosAlpha - cosBeta * cosGamma) / sinGamma;
  const czSquared = 1 - cx * cx - cy * cy;
  if (!(czSquared >= 0)) throw new Error(`the cell angles ${p.alpha}, ${p.beta}, ${p.gamma} do not describe a cell`);
  const cz = Math.sqrt(czSquared);
  return [
    [p.a, 0, 0],
    [p.b * cosGamma, p.b * sinGamma, 0],
    [p.c * cx, p.c * cy, p.c * cz],
  ];
}

/** ASE `cell_to_cellpar`: lengths and angles recomputed from the matrix (why 5.707849480000001 appears). */
export function aseCellParameters(cell: Mat3): LatticeParameters {
  const lengths = cell.map((v) => norm(v as Vec3)) as Vec3;
  const angles: number[] = [];
  for (let i = 0; i < 3; i++) {
    const j = (i + 2) % 3,
      k = (i + 1) % 3; // Python's i-1 and i-2 with negative indexing
    const ll = lengths[j] * lengths[k];
    angles.push(ll > 1e-16 ? (180 / Math.PI) * acos(dot(cell[j], cell[k]) / ll) : 90);
  }
  return { a: lengths[0], b: lengths[1], c: lengths[2], alpha: angles[0], beta: angles[1], gamma: angles[2] };
}

/** Python's `x % 1.0` for a float (result in [0, 1]; only a tiny negative can give exactly 1). */
const pyMod1 = (x: number): number => x - Math.floor(x);

/** ASE's wrap: `% 1.0` applied twice, so −1e-17 → 1.0 → 0.0. Always in [0, 1). */
export const aseWrap = (x: number): number => pyMod1(pyMod1(x));

export const aseWrap3 = (f: Vec3): Vec3 => [aseWrap(f[0]), aseWrap(f[1]), aseWrap(f[2])];

/**
 * Fractional coordinates of a Cartesian position. ASE solves cell.T · f = x (LAPACK); for ASE's
 * lower-triangular cells that is a back substitution, done here in LAPACK's order so that the
 * written digits mostly agree with the benchmark's files (0.125, not 0.12500000000000003; 96% of
 * the coordinates of the generated change cases agree to the last digit).
 */
export function cartToAseFrac(x: Vec3, cell: Mat3, inv: Mat3 = inverse(cell)): Vec3 {
  if (cell[0][1] !== 0 || cell[0][2] !== 0 || cell[1][2] !== 0) return vecMat(x, inv);
  // OpenBLAS's triangular solve multiplies by the reciprocal of the diagonal instead of dividing.
  const f2 = x[2] * (1 / cell[2][2]);
  const f1 = (x[1] - f2 * cell[2][1]) * (1 / cell[1][1]);
  const f0 = (x[0] - f2 * cell[2][0] - f1 * cell[1][0]) * (1 / cell[0][0]);
  return [f0, f1, f2];
}

/** Fractional coordinates of Cartesian positions in `cell`, wrapped as ASE does on writing. */
export function wrappedFractions(positions: readonly Vec3[], cell: Mat3): Vec3[] {
  const inv = inverse(cell);
  return positions.map((x) => aseWrap3(cartToAseFrac(x, cell, inv)));
}

/** ASE `get_chemical_formula('reduce')`: runs of the same symbol in atom order, e.g. CeMgBiMg12Ga. */
export function aseReducedFormula(symbols: readonly string[]): string {
  let out = '';
  for (let i = 0; i < symbols.length;) {
    let j = i;
    while (j < symbols.length && symbols[j] === symbols[i]) j++;
    out += j - i === 1 ? symbols[i] : `${symbols[i]}${j - i}`;
    i = j;
  }
  return out;
}

/** ASE's `_chemical_formula_sum`: element counts in order of first appearance, e.g. "Ce1 Mg13 Bi1 Ga1". */
export function aseFormulaSum(symbols: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const s of symbols) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].map(([el, n]) => `${el}${n}`).join(' ');
}

/** Per-element labels numbered from 1 in atom order (Cr1…Cr4 N1…N8), as ASE writes them. */
export function aseLabels(symbols: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return symbols.map((s) => {
    const n = (seen.get(s) ?? 0) + 1;
    seen.set(s, n);
    return `${s}${n}`;
  });
}

/**
 * The AFTER CIF in ASE's write_cif layout (data_image0, "P 1", per-element labels, Python float
 * reprs, coordinates wrapped into [0, 1)). Sites are written with their major species.
 */
export function writeAseCif(structure: Structure): string {
  const lattice = structure.lattice;
  if (!lattice) throw new Error('an AtomWorld structure needs a unit cell');
  const cell = lattice.matrix;
  const p = aseCellParameters(cell);
  const symbols = structure.sites.map(majorSpecies);
  const labels = aseLabels(symbols);
  const inv = inverse(cell);
  const lines: string[] = [];
  lines.push('data_image0');
  lines.push(`${'_chemical_formula_structural'.padEnd(34)} ${aseReducedFormula(symbols)}`);
  lines.push(`${'_chemical_formula_sum'.padEnd(34)} "${aseFormulaSum(symbols)}"`);
  const cellTags: [string, number][] = [
    ['_cell_length_a', p.a],
    ['_cell_length_b', p.b],
    ['_cell_length_c', p.c],
    ['_cell_angle_alpha', p.alpha],
    ['_cell_angle_beta', p.beta],
    ['_cell_angle_gamma', p.gamma],
  ];
  for (const [tag, value] of cellTags) lines.push(`${tag.padEnd(20)} ${pythonFloatRepr(value)}`);
  lines.push('');
  lines.push(`${'_space_group_name_H-M_alt'.padEnd(28)} "P 1"`);
  lines.push(`${'_space_group_IT_number'.padEnd(28)} 1`);
  lines.push('');
  lines.push('loop_');
  lines.push('  _space_group_symop_operation_xyz');
  lines.push("  'x, y, z'");
  lines.push('');
  lines.push('loop_');
  for (const tag of ['type_symbol', 'label', 'symmetry_multiplicity', 'fract_x', 'fract_y', 'fract_z', 'occupancy']) {
    lines.push(`  _atom_site_${tag}`);
  }
  structure.sites.forEach((site, i) => {
    const f = aseWrap3(site.frac ?? cartToAseFrac(site.xyz, cell, inv));
    const occupancy = site.species[symbols[i]] ?? 1;
    const cols = [symbols[i].padEnd(2), labels[i].padEnd(8), '1.0', ...f.map(pythonFloatRepr), pythonFixed(occupancy, 4)];
    lines.push(`  ${cols.join('  ')}`);
  });
  lines.push('');
  return lines.join('\n');
}
