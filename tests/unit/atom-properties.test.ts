/**
 * Per-atom columns carried to the lab (src/core/structure/packed.ts packProperties, src/core/analysis/atom-properties.ts):
 * extended XYZ columns and POSCAR selective-dynamics flags are packed per site; a vector column colours by its length,
 * computed here independently; a column not on every site with one width is left out.
 */
import { describe, expect, it } from 'vitest';
import { propertyLabel, propertyScalars, valueRange } from '../../src/core/analysis/atom-properties.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { p1Cif } from '../cif.ts';
import { packStructure } from '../../src/core/structure/packed.ts';

const EXTXYZ = `3
Lattice="5 0 0 0 5 0 0 0 5" Properties=species:S:1:pos:R:3:forces:R:3:charge:R:1 energy=-1.5 pbc="T T T"
Na 0 0 0 0.1 -0.2 0.2 0.9
Cl 2.5 2.5 2.5 -3 0 4 -0.8
Na 0 2.5 2.5 0 0 0 0.1
`;

const read = (text: string, name: string) => {
  const r = parseStructureFile(text, name);
  if (!r.ok) throw new Error(r.error);
  return packStructure(r.structures[0]);
};

describe('per-atom properties', () => {
  it('packs extended XYZ columns: forces (3 per site) and charge (1 per site)', () => {
    const p = read(EXTXYZ, 'frame.extxyz');
    expect(p.properties!.map((c) => [c.name, c.width])).toEqual([
      ['forces', 3],
      ['charge', 1],
    ]);
    const forces = p.properties![0];
    expect(Array.from(forces.values)).toEqual([0.1, -0.2, 0.2, -3, 0, 4, 0, 0, 0]);
    expect(propertyLabel(forces)).toBe('|forces|');
    const lengths = propertyScalars(forces);
    expect(Array.from(lengths)).toEqual([Math.hypot(0.1, -0.2, 0.2), 5, 0]);
    expect(valueRange(lengths)).toEqual([0, 5]);
    expect(valueRange(propertyScalars(p.properties![1]))).toEqual([-0.8, 0.9]);
  });

  it('packs POSCAR selective-dynamics flags as 0/1 per axis', () => {
    const poscar = `NaCl
1.0
5 0 0
0 5 0
0 0 5
Na Cl
1 1
Selective dynamics
Direct
0 0 0 T T F
0.5 0.5 0.5 F F F
`;
    const p = read(poscar, 'POSCAR');
    const flags = p.properties!.find((c) => c.name === 'selective_dynamics')!;
    expect(flags.width).toBe(3);
    expect(Array.from(flags.values)).toEqual([1, 1, 0, 0, 0, 0]);
  });

  it('has no columns for a plain CIF', () => {
    expect(read(p1Cif('x', 4, ['Na1 Na 0 0 0']), 'x.cif').properties).toBeUndefined();
  });
});
