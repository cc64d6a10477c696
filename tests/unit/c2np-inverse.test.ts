/**
 * C2NP inverse solver against the shared sample particles. Truth: the manifest's `cellpar` and
 * `spglib_number` (written by the data generator from the CIFs, not by this code). Joint success is
 * the C2NP task-2 criterion: space group equal and all six parameters within 0.5 (Å or degrees).
 * The sample cells are cubic, so the conventional setting is unambiguous; for the triclinic check the
 * lengths are compared sorted and the recovered translation cell must be an integer unimodular
 * transform of the true cell (independent of setting).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Mat3, type Vec3, det, inverse, matMul } from '../../src/core/math/mat3.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { InverseError, solveInverse } from '../../src/core/tasks/c2np/inverse.ts';
import { C2NP_SAMPLE as SAMPLE, HELD_BACK_MATERIALS } from '../c2np-sample.ts';
import { withNoise } from '../../scripts/support/random.ts';

interface MaterialTruth {
  cellpar: number[];
  spglib_number: number;
  atoms_frac: [string, number[]][];
}
const manifest = JSON.parse(readFileSync(join(SAMPLE, 'manifest.json'), 'utf8')) as {
  materials: Record<string, MaterialTruth>;
  files: { path: string; material: string; rot: number | null }[];
};

const readParticle = (path: string): Structure => {
  const parsed = parseStructureFile(readFileSync(path, 'utf8'), path.split('/').pop()!);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.structures[0];
};

const jointCorrect = (s: Structure, truth: MaterialTruth): boolean => {
  const r = solveInverse(s, 0.1);
  const L = r.lattice;
  const got = [L.a, L.b, L.c, L.alpha, L.beta, L.gamma];
  return r.spacegroup?.number === truth.spglib_number && got.every((x, k) => Math.abs(x - truth.cellpar[k]) <= 0.5);
};

const materialOf = (file: string) => file.replace(/_R\d+\.xyz$/, '');

describe('C2NP inverse solver on the sample particles', () => {
  it('recovers space group and cell of every raw particle, R 6–30 (joint accuracy ≥ 0.95)', () => {
    const dir = join(SAMPLE, 'raw', 'materials');
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.xyz'))
      .sort();
    expect(files.length).toBeGreaterThanOrEqual(25);
    const failures = files.filter((f) => !jointCorrect(readParticle(join(dir, f)), manifest.materials[materialOf(f)]));
    expect(failures.length / files.length).toBeLessThanOrEqual(0.05);
    expect(failures).toEqual([]); // measured: all pass; listed here if one regresses
  }, 120_000);

  it('is independent of the rotation (the rotated copies rot_k, k ≥ 1, of every radius present)', () => {
    // The manifest lists every sample file; the held-back materials ship only their CIFs.
    const cases = manifest.files.filter((f) => f.rot !== null && f.rot >= 1 && !HELD_BACK_MATERIALS.includes(f.material));
    expect(cases.length).toBe(16);
    const failures = cases.filter((c) => !jointCorrect(readParticle(join(SAMPLE, c.path)), manifest.materials[c.material]));
    expect(failures.map((c) => c.path)).toEqual([]);
  }, 120_000);

  it('tolerates Gaussian noise of 0.05 and 0.1 Å per coordinate (seeded)', () => {
    const picks = [
      'quaternions/illustrative_KMgH3_a4.0213_Borigin/R6/xyz/rot_1.xyz',
      'quaternions/illustrative_KMgH3_a4.0213_Borigin/R10/xyz/rot_2.xyz',
      'quaternions/illustrative_KMgH3_a4.0213_Borigin/R17/xyz/rot_1.xyz',
      'raw/materials/illustrative_KMgH3_a3.6173_Borigin_R10.xyz',
      'raw/materials/illustrative_KMgH3_a4.0213_Aorigin_R7.xyz',
    ];
    const failures: string[] = [];
    for (const sigma of [0.05, 0.1]) {
      for (const [k, p] of picks.entries()) {
        const material = p.startsWith('raw') ? materialOf(p.split('/').pop()!) : p.split('/')[1];
        if (!jointCorrect(withNoise(readParticle(join(SAMPLE, p)), sigma, 1000 + k), manifest.materials[material]))
          failures.push(`${p} σ=${sigma}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);
});

/** Independent carve: every lattice image of the cell's atoms strictly inside a sphere. */
function carveSphere(lattice: Lattice, atoms: [string, number[]][], centreFrac: Vec3, radius: number): Structure {
  const centre = lattice.fracToCart(centreFrac);
  const span = 12;
  const sites = [];
  for (let i = -span; i <= span; i++)
    for (let j = -span; j <= span; j++)
      for (let k = -span; k <= span; k++) {
        for (const [el, f] of atoms) {
          const xyz = lattice.fracToCart([f[0] + i, f[1] + j, f[2] + k]);
          if (Math.hypot(xyz[0] - centre[0], xyz[1] - centre[1], xyz[2] - centre[2]) < radius) sites.push({ species: { [el]: 1 }, xyz });
        }
      }
  return { name: 'carved', lattice: null, sites };
}

describe('C2NP inverse solver on a triclinic particle (setting-free checks)', () => {
  const truth = manifest.materials.synthetic_triclinic_P1;
  const [a, b, c, al, be, ga] = truth.cellpar;
  const lattice = Lattice.fromParameters(a, b, c, al, be, ga);
  for (const [radius, sigma] of [
    [9, 0],
    [14, 0],
    [14, 0.1],
  ] as const) {
    it(`R ${radius} Å, noise ${sigma} Å: P1 and a unimodular transform of the true cell`, () => {
      const particle = withNoise(carveSphere(lattice, truth.atoms_frac, [0.5, 0.5, 0.5], radius), sigma, 7);
      const r = solveInverse(particle, 0.1);
      expect(r.spacegroup?.number).toBe(1);
      // Recovered translation cell in the particle frame = M · true cell, M integer with |det M| = 1.
      const m = matMul(r.foldedCell.lattice!.matrix, inverse(lattice.matrix as Mat3));
      for (const row of m) for (const x of row) expect(Math.abs(x - Math.round(x))).toBeLessThan(0.02);
      expect(Math.abs(Math.abs(det(m.map((row) => row.map(Math.round)) as Mat3)) - 1)).toBe(0);
      const lengths = [r.lattice.a, r.lattice.b, r.lattice.c].sort();
      [c, a, b].forEach((x, k) => expect(Math.abs(lengths[k] - x)).toBeLessThanOrEqual(0.5));
    }, 30_000);
  }
});

describe('C2NP inverse solver input guards', () => {
  it('refuses particles above the atom limit and too-small or non-crystalline ones with a sentence', () => {
    const site = { species: { H: 1 }, xyz: [0, 0, 0] as Vec3 };
    const huge: Structure = { name: 'huge', lattice: null, sites: new Array(LIMITS.particleAtoms + 1).fill(site) };
    expect(() => solveInverse(huge)).toThrow(InverseError);
    expect(() => solveInverse({ name: 'tiny', lattice: null, sites: [site, site] })).toThrow(/at least 8/);
    let t = 12345;
    const rnd = () => ((t = (t * 1103515245 + 12345) % 2147483648) / 2147483648) * 20;
    const gas: Structure = {
      name: 'gas',
      lattice: null,
      sites: Array.from({ length: 300 }, () => ({ species: { Ar: 1 }, xyz: [rnd(), rnd(), rnd()] as Vec3 })),
    };
    expect(() => solveInverse(gas)).toThrow(/no three independent lattice translations/);
  });
});
