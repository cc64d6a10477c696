import { describe, expect, it } from 'vitest';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import { packStructure } from '../../src/core/structure/packed.ts';
import { buildDisplay } from '../../src/core/analysis/display-scene.ts';

/** Conventional rock salt: Na on the FCC lattice, Cl shifted by (½,0,0); a = 5.64 Å, Na–Cl = 2.82 Å. */
function rockSalt(cation = 'Na', anion = 'Cl', a = 5.64): Structure {
  const L = Lattice.cubic(a);
  const fcc = [
    [0, 0, 0],
    [0.5, 0.5, 0],
    [0.5, 0, 0.5],
    [0, 0.5, 0.5],
  ];
  const sites = [
    ...fcc.map((f) => makeSiteFromFrac(L, f as [number, number, number], { [cation]: 1 })),
    ...fcc.map((f) => makeSiteFromFrac(L, [(f[0] + 0.5) % 1, f[1], f[2]], { [anion]: 1 })),
  ];
  return { name: 'NaCl', lattice: L, sites };
}

describe('display pipeline', () => {
  it('gives atoms written just below 1 or 0 their boundary copies (0.99999 and -0.00001 lie on the face)', () => {
    const L = Lattice.cubic(4);
    for (const x of [0.99999, -0.00001]) {
      const s: Structure = { name: 'x', lattice: L, sites: [makeSiteFromFrac(L, [x, 0.5, 0.5], { Cu: 1 })] };
      const d = buildDisplay(packStructure(s), { bonds: false });
      expect(d.natoms, `x = ${x}`).toBe(2);
      const xs = [d.positions[0], d.positions[3]].sort((a, b) => a - b);
      expect(xs[0]).toBeCloseTo(0, 3);
      expect(xs[1]).toBeCloseTo(4, 3);
    }
  });

  it('refuses scenes beyond the drawn-atom limit with a sentence instead of exhausting memory', () => {
    expect(() => buildDisplay(packStructure(rockSalt()), { supercell: [90, 90, 90], bonds: false })).toThrow(/limit is 4,000,000/);
  });

  it('adds boundary images: rock salt fills the 3×3×3 half-cell grid (27 atoms)', () => {
    const d = buildDisplay(packStructure(rockSalt()), { bonds: false });
    expect(d.natoms).toBe(27);
    expect(d.nimages).toBe(19);
    // every drawn atom sits on the grid {0, ½, 1}³ and no two coincide
    const keys = new Set<string>();
    for (let i = 0; i < d.natoms; i++) {
      const k = [0, 1, 2].map((ax) => Math.round(d.positions[3 * i + ax] / 2.82)).join(',');
      for (let ax = 0; ax < 3; ax++)
        expect(Math.abs(d.positions[3 * i + ax] / 2.82 - Math.round(d.positions[3 * i + ax] / 2.82))).toBeLessThan(1e-5);
      keys.add(k);
    }
    expect(keys.size).toBe(27);
  });

  it('replicates supercells and maps every copy to its site', () => {
    const d = buildDisplay(packStructure(rockSalt()), { supercell: [2, 1, 3], boundaryImages: false, bonds: false });
    expect(d.natoms).toBe(8 * 6);
    for (let i = 0; i < d.natoms; i++) expect(d.site[i]).toBe(i % 8);
  });

  it('draws six bonds at every cell atom, across the boundaries too: full to drawn atoms, half-bond stubs otherwise', () => {
    const d = buildDisplay(packStructure(rockSalt()), { boundaryImages: false, bonds: true, bondTolerance: 1.15 });
    expect(d.nbonds).toBeGreaterThan(0);
    const at = (buf: Float32Array, b: number, i: number) =>
      Math.hypot(buf[3 * b] - d.positions[3 * i], buf[3 * b + 1] - d.positions[3 * i + 1], buf[3 * b + 2] - d.positions[3 * i + 2]) < 1e-4;
    for (let b = 0; b < d.nbonds; b++) {
      const len = Math.hypot(
        d.bondEnd[3 * b] - d.bondStart[3 * b],
        d.bondEnd[3 * b + 1] - d.bondStart[3 * b + 1],
        d.bondEnd[3 * b + 2] - d.bondStart[3 * b + 2],
      );
      const endsAtAtom = Array.from({ length: d.natoms }, (_, i) => at(d.bondEnd, b, i)).some(Boolean);
      // A bond between two drawn atoms is 2.82 Å; a stub towards an atom that is not drawn is half of it.
      expect(len).toBeCloseTo(endsAtAtom ? 2.82 : 1.41, 4);
    }
    for (let i = 0; i < 8; i++) {
      let touching = 0;
      for (let b = 0; b < d.nbonds; b++) if (at(d.bondStart, b, i) || at(d.bondEnd, b, i)) touching++;
      expect(touching, `atom ${i}`).toBe(6);
    }
  });

  it('joins every pair of drawn atoms (boundary images included) that are 2.82 Å apart, once', () => {
    const d = buildDisplay(packStructure(rockSalt()), { boundaryImages: true, bonds: true, bondTolerance: 1.15 });
    // Brute force over the drawn positions: rock salt's 27 drawn atoms on the half-cell grid.
    let pairs = 0;
    for (let i = 0; i < d.natoms; i++)
      for (let j = i + 1; j < d.natoms; j++) {
        const r = Math.hypot(
          d.positions[3 * i] - d.positions[3 * j],
          d.positions[3 * i + 1] - d.positions[3 * j + 1],
          d.positions[3 * i + 2] - d.positions[3 * j + 2],
        );
        if (Math.abs(r - 2.82) < 1e-4) pairs++;
      }
    let full = 0;
    for (let b = 0; b < d.nbonds; b++) {
      const len = Math.hypot(
        d.bondEnd[3 * b] - d.bondStart[3 * b],
        d.bondEnd[3 * b + 1] - d.bondStart[3 * b + 1],
        d.bondEnd[3 * b + 2] - d.bondStart[3 * b + 2],
      );
      if (Math.abs(len - 2.82) < 1e-4) full++;
    }
    expect(pairs).toBe(54); // 3 axes × 3 × 3 lines × 2 segments
    expect(full).toBe(pairs);
  });

  it('builds MgO6 octahedra around the cation only (O is the anion)', () => {
    const d = buildDisplay(packStructure(rockSalt('Mg', 'O', 4.21)), { boundaryImages: false, bonds: true, polyhedra: true });
    const mg = d.elements.indexOf('Mg');
    // 4 octahedra × 8 triangular faces, every vertex 2.105 Å from an Mg site
    expect(d.polyElement.length).toBe(32);
    expect(Array.from(d.polyElement).every((e) => e === mg)).toBe(true);
  });

  it('leaves large A-site cations without polyhedra (Na in NaCl)', () => {
    const d = buildDisplay(packStructure(rockSalt()), { boundaryImages: false, bonds: true, polyhedra: true });
    expect(d.polyElement.length).toBe(0);
  });
});
