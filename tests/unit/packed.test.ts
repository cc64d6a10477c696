import { describe, expect, it } from 'vitest';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import { packStructure, packedTransferables, syntheticFcc, unpackStructure } from '../../src/core/structure/packed.ts';

describe('packed structures', () => {
  const lattice = Lattice.fromParameters(4, 5, 6, 80, 95, 105);
  const structure: Structure = {
    name: 'mixed',
    lattice,
    sites: [
      makeSiteFromFrac(lattice, [0, 0, 0], { Na: 1 }, { label: 'Na1' }),
      makeSiteFromFrac(lattice, [0.5, 0.25, 1.2], { Fe: 0.6, Ni: 0.4 }),
      makeSiteFromFrac(lattice, [-0.1, 0.5, 0.5], { Cl: 1 }, { label: 'Cl1' }),
    ],
  };

  it('round-trips species, occupancies, positions and labels exactly', () => {
    const back = unpackStructure(packStructure(structure));
    expect(back.name).toBe('mixed');
    expect(back.lattice!.matrix).toEqual(lattice.matrix);
    expect(back.sites.map((s) => s.species)).toEqual(structure.sites.map((s) => s.species));
    expect(back.sites.map((s) => s.xyz)).toEqual(structure.sites.map((s) => s.xyz));
    expect(back.sites.map((s) => s.frac)).toEqual(structure.sites.map((s) => s.frac));
    expect(back.sites.map((s) => s.label)).toEqual(['Na1', undefined, 'Cl1']);
  });

  it('indexes the dominant species and lists distinct buffers', () => {
    const p = packStructure(structure);
    expect(Array.from(p.major).map((k) => p.elements[k])).toEqual(['Na', 'Fe', 'Cl']);
    expect(p.speciesStart[3]).toBe(4);
    expect(packedTransferables(p).length).toBe(7);
  });

  it('keeps finite structures finite', () => {
    const mol: Structure = {
      name: 'h2',
      lattice: null,
      sites: [
        { species: { H: 1 }, xyz: [0, 0, 0] },
        { species: { H: 1 }, xyz: [0, 0, 0.74] },
      ],
    };
    const p = packStructure(mol);
    expect(p.lattice).toBeNull();
    expect(p.frac).toBeNull();
    expect(unpackStructure(p).sites[1].xyz).toEqual([0, 0, 0.74]);
  });

  it('builds an FCC block whose nearest-neighbour distance is a/√2', () => {
    const p = syntheticFcc(500, 'Cu', 3.615);
    expect(p.natoms).toBe(500);
    // brute force: minimum pair distance over all pairs
    let min = Infinity;
    for (let i = 0; i < p.natoms; i++)
      for (let j = i + 1; j < p.natoms; j++) {
        const d = Math.hypot(p.cart[3 * i] - p.cart[3 * j], p.cart[3 * i + 1] - p.cart[3 * j + 1], p.cart[3 * i + 2] - p.cart[3 * j + 2]);
        if (d < min) min = d;
      }
    expect(min).toBeCloseTo(3.615 / Math.SQRT2, 10);
  });
});
