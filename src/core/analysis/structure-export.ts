/**
 * Structure downloads of the lab: the same writers as `structlab convert` (src/core/io/registry.ts), applied to the structure
 * as read ("original") or to the cell the viewer draws ("as shown": every site wrapped into the cell, then the n×m×k
 * supercell of makeSupercell, pymatgen's site order). Wrapped exactly: display-scene.ts also snaps coordinates within
 * 1e-4 of a face onto it for drawing, which a file should not inherit.
 */
import { checkLimit } from '../limits.ts';
import { makeSupercell } from '../structure/supercell.ts';
import { type Site, type Structure, fracOf } from '../structure/structure.ts';
import { type Vec3, wrapFrac } from '../math/mat3.ts';
import { FORMATS } from '../io/registry.ts';
import type { FormatId } from '../io/types.ts';

/** Every format the writers produce, with the label a format menu shows. */
export const WRITTEN_FORMATS: readonly { id: FormatId; label: string }[] = [
  { id: 'cif', label: 'CIF' },
  { id: 'poscar', label: 'POSCAR' },
  { id: 'xyz', label: 'XYZ' },
  { id: 'extxyz', label: 'extended XYZ' },
  { id: 'pymatgen-json', label: 'pymatgen JSON' },
  { id: 'xdatcar', label: 'XDATCAR (one frame)' },
  { id: 'jsonl', label: 'JSONL (one structure)' },
];

/** The structure the viewer draws: sites wrapped into the cell, repeated n×m×k (a finite structure is returned as is). */
export function structureAsShown(s: Structure, supercell: [number, number, number]): Structure {
  const lattice = s.lattice;
  if (!lattice) return s;
  if (supercell.some((v) => !Number.isInteger(v) || v < 1)) throw new Error('supercell multipliers must be whole numbers ≥ 1');
  checkLimit('atoms', 'The supercell', s.sites.length * supercell[0] * supercell[1] * supercell[2], 'atoms');
  const sites = s.sites.map((site): Site => {
    const frac = fracOf(site, lattice).map((f) => wrapFrac(f)) as Vec3;
    return { ...site, frac, xyz: lattice.fracToCart(frac) };
  });
  const wrapped = { ...s, sites };
  return supercell.every((v) => v === 1) ? wrapped : makeSupercell(wrapped, supercell);
}

/** A file-name stem made safe for a download (no path separators, no characters Windows refuses). */
const safeStem = (name: string): string => name.replace(/\.[A-Za-z]{1,7}$/, '').replace(/[\\/:*?"<>|\s]+/g, '_') || 'structure';

/** `s` written in `format`, with a file name: the stem of `sourceName` and the format's own ending. Throws Error when it cannot be held. */
export function writeExport(s: Structure, format: FormatId, sourceName: string): { fileName: string; text: string } {
  const writer = FORMATS.find((f) => f.id === format);
  if (!writer) throw new Error(`there is no format "${format}"`);
  // A format known by a name rather than an ending (XDATCAR) keeps that name after the stem.
  const ending = writer.extensions.find((e) => e.startsWith('.')) ?? `_${writer.extensions[0]}`;
  return { fileName: `${safeStem(sourceName)}${ending}`, text: writer.write(s) };
}
