/**
 * Per-frame numbers (src/core/analysis/frame-metrics.ts) against independent computations in the test: brute-force
 * minimum-image distances over every pair and 9³ lattice images, lattice parameters and stress worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { frameMetrics, frameSpaceGroup, minimumDistance } from '../../src/core/analysis/frame-metrics.ts';
import { frameAgainstReference } from '../../src/core/match/frame-reference.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { LimitError, overrideLimits, resetLimits } from '../../src/core/limits.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type PackedStructure, packStructure, syntheticFcc } from '../../src/core/structure/packed.ts';
import { makeSiteFromCart, makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import type { Vec3 } from '../../src/core/math/mat3.ts';
import { mulberry32 } from '../../scripts/support/random.ts';

const read = (text: string, name = 'f.extxyz'): Structure[] => {
  const r = parseStructureFile(text, name);
  if (!r.ok) throw new Error(r.error);
  return r.structures;
};
const metric = (p: PackedStructure, name: string) => frameMetrics(p).find((m) => m.name === name);

/** Every pair (and every atom with itself) over lattice images −3…3 on each axis: the shortest distance. */
function bruteMinimum(m: number[][] | null, xyz: Vec3[]): number {
  let best = Infinity;
  const r = m ? 3 : 0;
  for (let i = 0; i < xyz.length; i++)
    for (let j = i; j < xyz.length; j++)
      for (let a = -r; a <= r; a++)
        for (let b = -r; b <= r; b++)
          for (let c = -r; c <= r; c++) {
            if (i === j && a === 0 && b === 0 && c === 0) continue;
            const t = m ? [0, 1, 2].map((k) => a * m[0][k] + b * m[1][k] + c * m[2][k]) : [0, 0, 0];
            const d = Math.hypot(xyz[j][0] + t[0] - xyz[i][0], xyz[j][1] + t[1] - xyz[i][1], xyz[j][2] + t[2] - xyz[i][2]);
            if (d < best) best = d;
          }
  return best;
}

describe('frameMetrics', () => {
  const EXT = [
    '3',
    'Lattice="4 0 0 1 3 0 0 0 5" Properties=species:S:1:pos:R:3:forces:R:3 energy=-12.5 free_energy=-12.75 ' +
      'stress="0.1 0.02 0.03 0.02 -0.2 0.0 0.03 0.0 0.4" pbc="T T T"',
    'Si 0 0 0 0.3 -0.4 0',
    'Si 1 1 1 1 2 2',
    'O 2 1.5 2.5 0 0 -0.5',
    '',
  ].join('\n');

  it("lists the file's values, max force, stress, the cell and the shortest distance, in that order", () => {
    const p = packStructure(read(EXT)[0]);
    const names = frameMetrics(p).map((m) => m.name);
    expect(names).toEqual([
      'energy',
      'free_energy',
      'max_force',
      'max_stress',
      'pressure',
      'volume',
      'a',
      'b',
      'c',
      'alpha',
      'beta',
      'gamma',
      'min_distance',
    ]);
    expect(metric(p, 'energy')?.value).toBe(-12.5);
    // |(1, 2, 2)| = 3 is the largest force.
    expect(metric(p, 'max_force')).toEqual({ name: 'max_force', value: 3, unit: 'eV/Å' });
    expect(metric(p, 'max_stress')?.value).toBe(0.4);
    // −(0.1 − 0.2 + 0.4) / 3 = −0.1.
    expect(metric(p, 'pressure')?.value).toBeCloseTo(-0.1, 15);
    // Rows (4,0,0), (1,3,0), (0,0,5): volume 60, b = √10, γ = acos(4 / (4·√10)), α = β = 90°.
    expect(metric(p, 'volume')?.value).toBeCloseTo(60, 12);
    expect(metric(p, 'a')?.value).toBeCloseTo(4, 14);
    expect(metric(p, 'b')?.value).toBeCloseTo(Math.sqrt(10), 14);
    expect(metric(p, 'c')?.value).toBeCloseTo(5, 14);
    expect(metric(p, 'gamma')?.value).toBeCloseTo((Math.acos(1 / Math.sqrt(10)) * 180) / Math.PI, 10);
    expect(metric(p, 'alpha')?.value).toBeCloseTo(90, 12);
    expect(metric(p, 'beta')?.value).toBeCloseTo(90, 12);
    const m = [
      [4, 0, 0],
      [1, 3, 0],
      [0, 0, 5],
    ];
    expect(metric(p, 'min_distance')?.value).toBeCloseTo(
      bruteMinimum(m, [
        [0, 0, 0],
        [1, 1, 1],
        [2, 1.5, 2.5],
      ] as Vec3[]),
      12,
    );
  });

  it('takes 6 Voigt values (xx yy zz yz xz xy) and a virial (stress = −virial / volume)', () => {
    const voigt = packStructure(read(EXT.replace(/stress="[^"]*"/, 'stress="0.1 -0.2 0.4 0.0 0.03 -0.7"'))[0]);
    expect(metric(voigt, 'max_stress')?.value).toBe(0.7);
    expect(metric(voigt, 'pressure')?.value).toBeCloseTo(-0.1, 15);
    const virial = packStructure(read(EXT.replace(/stress="[^"]*"/, 'virial="6 0 0 0 -12 0 0 0 24"'))[0]);
    // σ = −W / 60: diagonal −0.1, 0.2, −0.4; pressure −tr σ / 3 = 0.1.
    expect(metric(virial, 'max_stress')?.value).toBeCloseTo(0.4, 15);
    expect(metric(virial, 'pressure')?.value).toBeCloseTo(0.1, 15);
  });

  it('lists a file value named like a computed one as info:NAME', () => {
    const p = packStructure(read(EXT.replace('energy=-12.5', 'volume=7'))[0]);
    expect(metric(p, 'info:volume')?.value).toBe(7);
    expect(metric(p, 'volume')?.value).toBeCloseTo(60, 12);
  });

  it('has no cell numbers, force or stress for a plain molecule', () => {
    const p = packStructure(read('3\nwater\nO 0 0 0\nH 0.96 0 0\nH -0.24 0.93 0\n', 'w.xyz')[0]);
    expect(frameMetrics(p).map((m) => m.name)).toEqual(['min_distance']);
    const water: Vec3[] = [
      [0, 0, 0],
      [0.96, 0, 0],
      [-0.24, 0.93, 0],
    ];
    expect(metric(p, 'min_distance')?.value).toBeCloseTo(bruteMinimum(null, water), 14);
  });
});

describe('minimumDistance', () => {
  it('equals the brute-force minimum image for random skewed cells of 1 to 25 atoms', () => {
    const rnd = mulberry32(11);
    for (let t = 0; t < 40; t++) {
      const L = () => 3 + 5 * rnd();
      const lattice = Lattice.fromParameters(L(), L(), L(), 65 + 50 * rnd(), 65 + 50 * rnd(), 65 + 50 * rnd());
      const n = t < 5 ? t + 1 : 1 + Math.floor(40 * rnd());
      const sites = Array.from({ length: n }, () => makeSiteFromFrac(lattice, [rnd() * 3 - 1, rnd(), rnd()] as Vec3, { Cu: 1 }));
      const s: Structure = { name: 'r', lattice, sites };
      const got = minimumDistance(packStructure(s))!;
      const want = bruteMinimum(
        lattice.matrix,
        sites.map((x) => x.xyz),
      );
      expect(Math.abs(got - want), `trial ${t}: ${got} vs ${want}`).toBeLessThan(1e-9);
    }
  });

  it('equals the brute-force minimum for finite clusters, lines and coincident atoms', () => {
    const rnd = mulberry32(5);
    for (let t = 0; t < 30; t++) {
      const n = 2 + Math.floor(60 * rnd());
      const flat = t % 3 === 0; // a line of atoms: a zero-volume bounding box
      const xyz = Array.from({ length: n }, () => [30 * rnd(), flat ? 0 : 10 * rnd(), flat ? 0 : 2 * rnd()] as Vec3);
      const s: Structure = { name: 'c', lattice: null, sites: xyz.map((x) => makeSiteFromCart(null, x, { C: 1 })) };
      expect(minimumDistance(packStructure(s))).toBeCloseTo(bruteMinimum(null, xyz), 12);
    }
    const one: Structure = { name: 'one', lattice: null, sites: [makeSiteFromCart(null, [1, 2, 3], { C: 1 })] };
    expect(minimumDistance(packStructure(one))).toBeNull();
    const same: Structure = { name: 'two', lattice: null, sites: [0, 1].map(() => makeSiteFromCart(null, [1, 2, 3], { C: 1 })) };
    expect(minimumDistance(packStructure(same))).toBe(0);
  });

  it("is a one-atom cell's shortest lattice vector", () => {
    expect(minimumDistance(syntheticFcc(1))).toBeCloseTo(3.615, 12);
  });

  it('equals brute force on a jittered 1,000-atom block and handles 10,000 atoms', () => {
    const rnd = mulberry32(3);
    const p = syntheticFcc(1000);
    for (let i = 0; i < p.cart.length; i++) p.cart[i] += (rnd() - 0.5) * 0.4;
    const m = [0, 1, 2].map((r) => [p.lattice![3 * r], p.lattice![3 * r + 1], p.lattice![3 * r + 2]]);
    const xyz = Array.from({ length: p.natoms }, (_, i) => [p.cart[3 * i], p.cart[3 * i + 1], p.cart[3 * i + 2]] as Vec3);
    // Brute force with images −1…1 is exact here: the cell (25.3 Å) is far wider than twice any shortest distance.
    let want = Infinity;
    for (let i = 0; i < xyz.length; i++)
      for (let j = i + 1; j < xyz.length; j++)
        for (let a = -1; a <= 1; a++)
          for (let b = -1; b <= 1; b++)
            for (let c = -1; c <= 1; c++) {
              const dx = xyz[j][0] - xyz[i][0] + a * m[0][0] + b * m[1][0] + c * m[2][0];
              const dy = xyz[j][1] - xyz[i][1] + a * m[0][1] + b * m[1][1] + c * m[2][1];
              const dz = xyz[j][2] - xyz[i][2] + a * m[0][2] + b * m[1][2] + c * m[2][2];
              const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
              if (d < want) want = d;
            }
    expect(minimumDistance(p)).toBeCloseTo(want, 12);
    const big = syntheticFcc(10_000);
    expect(minimumDistance(big)).toBeCloseTo(3.615 / Math.SQRT2, 9);
  });

  it('refuses atoms piled up past LIMITS.rdfPairs with a LimitError', () => {
    const lattice = Lattice.cubic(10);
    const s: Structure = {
      name: 'pile',
      lattice,
      sites: Array.from({ length: 200 }, () => makeSiteFromFrac(lattice, [0.5, 0.5, 0.5], { Cu: 1 })),
    };
    try {
      overrideLimits({ rdfPairs: 10_000 });
      expect(() => minimumDistance(packStructure(s))).toThrow(LimitError);
      expect(() => minimumDistance(packStructure(s))).toThrow(/piled|the limit is 10,000 atom pairs/);
    } finally {
      resetLimits();
    }
    expect(minimumDistance(packStructure(s))).toBe(0);
  });
});

describe('frameSpaceGroup and frameAgainstReference', () => {
  const rocksalt = (a: number, shift = 0): Structure => {
    const lattice = Lattice.cubic(a);
    const fcc: Vec3[] = [
      [0, 0, 0],
      [0, 0.5, 0.5],
      [0.5, 0, 0.5],
      [0.5, 0.5, 0],
    ];
    const sites = [
      ...fcc.map((f, i) => makeSiteFromFrac(lattice, [f[0] + (i === 0 ? shift : 0), f[1], f[2]] as Vec3, { Na: 1 })),
      ...fcc.map((f) => makeSiteFromFrac(lattice, [f[0] + 0.5, f[1], f[2]] as Vec3, { Cl: 1 })),
    ];
    return { name: 'NaCl', lattice, sites };
  };

  it('finds Fm-3m for rock salt, P1-like lower symmetry once an atom moves, and null for a molecule', () => {
    expect(frameSpaceGroup(packStructure(rocksalt(5.64)), 0.01)).toEqual({ number: 225, symbol: 'Fm-3m' });
    // One Na moved by 0.02 × 5.64 = 0.11 Å along a: P4mm (99) up to symprec 0.2 and Fm-3m again at 0.3, as spglib 2.0.2
    // gives them (get_symmetry_dataset with angle tolerance 5 or -1).
    expect(frameSpaceGroup(packStructure(rocksalt(5.64, 0.02)), 0.01)?.number).toBe(99);
    expect(frameSpaceGroup(packStructure(rocksalt(5.64, 0.02)), 0.2)?.number).toBe(99);
    expect(frameSpaceGroup(packStructure(rocksalt(5.64, 0.02)), 0.3)?.number).toBe(225);
    const molecule = packStructure(read('2\nm\nC 0 0 0\nO 0 0 1.13\n', 'm.xyz')[0]);
    expect(frameSpaceGroup(molecule, 0.01)).toBeNull();
  });

  it('matches a frame against its reference (rms 0 for itself, a small rms for a displaced atom, null for a molecule)', () => {
    const ref = rocksalt(5.64);
    const self = frameAgainstReference(packStructure(ref), ref)!;
    expect(self.match).toBe(true);
    expect(self.rms).toBeCloseTo(0, 12);
    expect(self.maxDist).toBeCloseTo(0, 12);
    const moved = frameAgainstReference(packStructure(rocksalt(5.7, 0.02)), ref)!;
    expect(moved.match).toBe(true);
    expect(moved.rms).toBeGreaterThan(0);
    expect(moved.rms).toBeLessThan(0.05);
    const molecule = packStructure(read('2\nm\nC 0 0 0\nO 0 0 1.13\n', 'm.xyz')[0]);
    expect(frameAgainstReference(molecule, ref)).toBeNull();
  });
});
