/**
 * Carving against the lab's own Atomsk particles (RADII fixtures, 60³ supercell) and the C2NP sample
 * (manifest counts for every radius, raw files byte for byte). Expected values come only from those files.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { atomskCellFromParameters, carveParticle } from '../../src/core/tasks/c2np/carve.ts';
import { formatRawXyz, parseParticleXyz } from '../../src/core/tasks/c2np/dataset.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const C2NP = join(REFERENCE, 'golden', 'c2np');
const FIXTURES = join(C2NP, 'radii_fixtures');
const SAMPLE = join(C2NP, 'sample');
const manifest = JSON.parse(readFileSync(join(SAMPLE, 'manifest.json'), 'utf8'));
const SAMPLE_RAW_COMMENT = '# c2np_gen illustrative raw particle (Atomsk-style xyz, f16.8)';

function loadCell(path: string): Structure {
  const parsed = parseStructureFile(readFileSync(path, 'utf8'), path.split('/').pop()!);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.structures[0];
}

describe('carve reproduces the RADII Atomsk particles (60×60×60)', () => {
  for (const material of ['SrTiO3', 'PbS']) {
    const cell = loadCell(join(FIXTURES, 'unit_cells', `${material}.cif`));
    for (const radius of [6, 7, 29, 30]) {
      it(`${material} R${radius}: same atoms, same order, coordinates within 2e-5 Å`, () => {
        const expected = parseParticleXyz(readFileSync(join(FIXTURES, material, `${material}_R${radius}.xyz`), 'utf8'));
        const particle = carveParticle(cell, { radius, repeats: 60 });
        expect(particle.symbols).toEqual(expected.symbols);
        let worst = 0;
        expected.positions.forEach((p, n) =>
          p.forEach((v, k) => {
            worst = Math.max(worst, Math.abs(v - particle.positions[n][k]));
          }),
        );
        expect(worst).toBeLessThan(2e-5);
      });
    }
  }
});

describe('carve reproduces the C2NP sample', () => {
  const rawEntries = manifest.files.filter((f: { rot: number | null }) => f.rot === null);

  it('writes every sample raw particle byte for byte (54 files)', () => {
    expect(rawEntries.length).toBeGreaterThan(40);
    for (const entry of rawEntries) {
      const particle = carveParticle(loadCell(join(SAMPLE, 'cifs', `${entry.material}.cif`)), { radius: entry.R, repeats: 20 });
      const text = formatRawXyz(particle, SAMPLE_RAW_COMMENT);
      expect(createHash('sha256').update(text).digest('hex'), entry.path).toBe(entry.sha256);
    }
  });

  it('matches the manifest atom counts, strict and inclusive, for all 6 cells × 25 radii', () => {
    for (const [material, info] of Object.entries<{ counts_by_R: Record<string, { n: number; n_if_inclusive: number }> }>(
      manifest.materials,
    )) {
      const cell = loadCell(join(SAMPLE, 'cifs', `${material}.cif`));
      for (const [r, counts] of Object.entries(info.counts_by_R)) {
        expect(carveParticle(cell, { radius: Number(r), repeats: 20 }).symbols.length, `${material} R${r}`).toBe(counts.n);
        expect(carveParticle(cell, { radius: Number(r), repeats: 20, inclusive: true }).symbols.length, `${material} R${r} inclusive`).toBe(
          counts.n_if_inclusive,
        );
      }
    }
  });

  it('builds cell vectors a along x, b in the xy-plane (manifest cell matrix of the triclinic cell)', () => {
    const info = manifest.materials.synthetic_triclinic_P1;
    const cell = atomskCellFromParameters(...(info.cellpar as [number, number, number, number, number, number]));
    cell.forEach((row, i) => row.forEach((v, k) => expect(Math.abs(v - info.cell_matrix[i][k])).toBeLessThan(1e-12)));
    const carved = carveParticle(loadCell(join(SAMPLE, 'cifs', 'synthetic_triclinic_P1.cif')), { radius: 6 });
    carved.center.forEach((v, k) => expect(Math.abs(v - info.centre_in_supercell_frame[k])).toBeLessThan(1e-9));
  });

  it('warns when the box clips the sphere and when atoms sit on it', () => {
    const clipped = carveParticle(loadCell(join(SAMPLE, 'cifs', 'synthetic_cubic_a2.9071_boxTruncated.cif')), { radius: 30 });
    expect(clipped.symbols.length).toBe(22970); // the C2NP manifest count
    expect(clipped.warnings.join(' ')).toMatch(/clipped/);
    expect(carveParticle(loadCell(join(SAMPLE, 'cifs', 'synthetic_cubic_a2.9071_boxTruncated.cif')), { radius: 20 }).warnings).toEqual([]);
    const tie = carveParticle(loadCell(join(SAMPLE, 'cifs', 'synthetic_exact_tie_a4.000_Borigin.cif')), { radius: 6 });
    expect(tie.warnings.join(' ')).toMatch(/30 atoms lie within/); // 87 inclusive − 57 strict
  });

  it('centres on an explicit point and on the origin', () => {
    const cell = loadCell(join(SAMPLE, 'cifs', 'illustrative_KMgH3_a4.0213_Borigin.cif'));
    const box = carveParticle(cell, { radius: 10 });
    const point = carveParticle(cell, { radius: 10, center: { kind: 'point', point: [40.213, 40.213, 40.213] } });
    expect(point.symbols).toEqual(box.symbols);
    const origin = carveParticle(cell, { radius: 10, center: { kind: 'origin' } });
    expect(origin.symbols.length).toBe(317); // manifest count for R10 (no ties at this radius)
    for (const p of origin.positions) expect(Math.hypot(...p)).toBeLessThan(10);
  });

  // Target 50 ms per carve (it visits only the cells that can reach the sphere); the timeout is a hang guard
  // against a regression to visiting the whole supercell, not a timing assertion.
  it('carves R = 30 Å five times within the hang guard', { timeout: 20_000 }, () => {
    const cell = loadCell(join(SAMPLE, 'cifs', 'illustrative_KMgH3_a4.0213_Borigin.cif'));
    for (let n = 0; n < 5; n++) expect(carveParticle(cell, { radius: 30 }).symbols.length).toBe(8729);
  });
});
