/**
 * The upstream C2NP file formats and layout: rotated files byte for byte against the sample
 * (sha256 from its manifest, including cells whose particles are held back), Euler comments against the
 * shipped scipy values, Python's %f rounding, and the `structlab c2np build` / `carve` commands.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { carveParticle } from '../../src/core/tasks/c2np/carve.ts';
import {
  ParticleFormatError,
  datasetFiles,
  formatFixedPython,
  formatRawXyz,
  parseParticleXyz,
  rotatedFileText,
  splitOfRadius,
} from '../../src/core/tasks/c2np/dataset.ts';
import { eulerXyzDegrees, parseRotationSets } from '../../src/core/tasks/c2np/rotation.ts';
import { REPO_ROOT, REFERENCE } from '../../scripts/support/paths.ts';
import { C2NP_SAMPLE as SAMPLE, HELD_BACK_MATERIALS } from '../c2np-sample.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { errorOf } from '../expect.ts';

const manifest = JSON.parse(readFileSync(join(SAMPLE, 'manifest.json'), 'utf8'));
const shippedText = readFileSync(join(REPO_ROOT, 'datasets', 'c2np', 'rotation_sets.json'), 'utf8');
const sets = parseRotationSets(shippedText);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

interface Entry {
  path: string;
  material: string;
  R: number;
  split: string;
  rot: number | null;
  quat_xyzw: number[] | null;
  n_atoms: number;
  sha256: string;
}
const rotatedEntries: Entry[] = manifest.files.filter((f: Entry) => f.rot !== null);

function carveRaw(material: string, radius: number) {
  const parsed = parseStructureFile(readFileSync(join(SAMPLE, 'cifs', `${material}.cif`), 'utf8'), `${material}.cif`);
  if (!parsed.ok) throw new Error(parsed.error);
  const particle = carveParticle(parsed.structures[0], { radius, repeats: 20 });
  return { ...particle, ...parseParticleXyz(formatRawXyz(particle, 'raw')) };
}

describe('Python %f formatting', () => {
  it('rounds exact binary ties to even and keeps the sign of negative zero', () => {
    // Analytic: 0.25, 0.125, 2.5 are exact in binary; Python gives '0.2', '0.12', '2', '-0.2'.
    expect(formatFixedPython(0.25, 1)).toBe('0.2');
    expect(formatFixedPython(0.75, 1)).toBe('0.8');
    expect(formatFixedPython(0.125, 2)).toBe('0.12');
    expect(formatFixedPython(2.5, 0)).toBe('2');
    expect(formatFixedPython(-0.25, 1)).toBe('-0.2');
    expect(formatFixedPython(1 / 512, 8)).toBe('0.00195312'); // 0.001953125 exactly: tie, even
    expect(formatFixedPython(-0, 8, 15)).toBe('    -0.00000000');
    expect(formatFixedPython(-1e-10, 8)).toBe('-0.00000000');
    expect(formatFixedPython(0.1 + 0.2, 1)).toBe('0.3');
    expect(formatFixedPython(123.456789012, 8, 15)).toBe('   123.45678901');
  });
});

describe('shipped rotation sets', () => {
  it('hold 25 radii with 59 train, 92 ID, 163 OOD rotations and the config splits', () => {
    expect([...sets.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, n) => n + 6));
    const expectedCount = { train: 59, ID: 92, OOD: 163 };
    for (const set of sets.values()) {
      expect(set.split).toBe(splitOfRadius(set.radius));
      expect(set.quaternions.length).toBe(expectedCount[set.split]);
    }
    expect(shippedText).toBe(readFileSync(join(REFERENCE, 'golden', 'c2np', 'rotation_sets.json'), 'utf8'));
  });

  it('give scipy\'s as_euler("xyz") angles (shipped values) for all 25 × N quaternions', () => {
    const data = JSON.parse(shippedText);
    let worst = 0;
    for (const [r, entry] of Object.entries<{ quats: number[][]; euler_xyz_deg: number[][] }>(data.radii)) {
      entry.quats.forEach((q, n) => {
        const euler = eulerXyzDegrees(q);
        euler.forEach((v, k) => {
          worst = Math.max(worst, Math.abs(v - entry.euler_xyz_deg[n][k]));
        });
        expect(
          euler.map((v) => formatFixedPython(v, 1)),
          `R${r} #${n + 1}`,
        ).toEqual(entry.euler_xyz_deg[n].map((v) => formatFixedPython(v, 1)));
      });
    }
    expect(worst).toBeLessThan(1e-9);
  });
});

describe('rotated files byte for byte', () => {
  it('from the sample raw particles (every rot file of a material whose particles the sample ships)', () => {
    const shipped = rotatedEntries.filter((entry) => !HELD_BACK_MATERIALS.includes(entry.material));
    expect(shipped.length).toBe(57); // the manifest's 71 rotated files less 14 of held-back materials
    for (const entry of shipped) {
      const raw = parseParticleXyz(readFileSync(join(SAMPLE, 'raw', 'materials', `${entry.material}_R${entry.R}.xyz`), 'utf8'));
      expect(sha256(rotatedFileText(raw, entry.R, entry.rot!, sets.get(entry.R)!)), entry.path).toBe(entry.sha256);
    }
  });

  it('from the CIFs alone, for every rot file in the manifest (held-back cells included)', () => {
    const cache = new Map<string, ReturnType<typeof carveRaw>>();
    for (const entry of rotatedEntries) {
      const key = `${entry.material}:${entry.R}`;
      if (!cache.has(key)) cache.set(key, carveRaw(entry.material, entry.R));
      const raw = cache.get(key)!;
      expect(raw.symbols.length).toBe(entry.n_atoms);
      expect(sha256(rotatedFileText(raw, entry.R, entry.rot!, sets.get(entry.R)!)), entry.path).toBe(entry.sha256);
    }
    expect(rotatedEntries.length).toBe(71);
  });

  it('datasetFiles yields the upstream layout for one radius: raw + rot_0 … rot_163', () => {
    const files = [
      ...datasetFiles('illustrative_KMgH3_a4.0213_Borigin', [6], (r) => carveRaw('illustrative_KMgH3_a4.0213_Borigin', r), sets),
    ];
    expect(files.length).toBe(1 + 1 + 163);
    expect(files[0].path).toBe('raw/materials/illustrative_KMgH3_a4.0213_Borigin_R6.xyz');
    const byPath = new Map(files.map((f) => [f.path, f]));
    for (const entry of rotatedEntries.filter((e) => e.material === 'illustrative_KMgH3_a4.0213_Borigin' && e.R === 6)) {
      expect(sha256(byPath.get(entry.path)!.text), entry.path).toBe(entry.sha256);
      expect(byPath.get(entry.path)!.split).toBe('OOD');
    }
  });
});

describe('XYZ reader', () => {
  it('names the line of a malformed atom and a wrong count', () => {
    expect(errorOf(() => parseParticleXyz('2\nc\nH 0 0 0\nH 0 x 0\n'), ParticleFormatError).line).toBe(4);
    expect(() => parseParticleXyz('3\nc\nH 0 0 0\n')).toThrow(/3 atoms but 1/);
  });
});

describe('structlab carve and c2np build', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-c2np-'));

  it('c2np build writes the upstream tree whose files match the sample manifest', async () => {
    const material = 'synthetic_triclinic_P1';
    const r = await structlabInProcess(['c2np', 'build', join(SAMPLE, 'cifs', `${material}.cif`), '--out', tmp, '--radii', '6,12']);
    expect(r.code, r.stderr).toBe(0);
    // Two CIF copies; R6 (OOD): raw + rot_0..163; R12 (train): raw + rot_0..59.
    expect(JSON.parse(r.stdout)).toMatchObject({ material, files: 2 + (1 + 1 + 163) + (1 + 1 + 59) });
    for (const entry of rotatedEntries.filter((e) => e.material === material && (e.R === 6 || e.R === 12))) {
      expect(sha256(readFileSync(join(tmp, entry.path), 'utf8')), entry.path).toBe(entry.sha256);
    }
    const built = JSON.parse(readFileSync(join(tmp, 'manifest.json'), 'utf8'));
    expect(built.files.length).toBe(165 + 61);
    expect(readFileSync(join(tmp, 'cifs', `${material}.cif`), 'utf8')).toBe(readFileSync(join(SAMPLE, 'cifs', `${material}.cif`), 'utf8'));
  });

  it('carve writes the particle and the rotated copy; bad input exits 2', async () => {
    const cell = join(SAMPLE, 'cifs', 'illustrative_KMgH3_a4.0213_Borigin.cif');
    const out = join(tmp, 'p.xyz');
    const r = await structlabInProcess(['carve', cell, '--radius', '7', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ written: out, natoms: 119, center: [40.213, 40.213, 40.213] });
    const entry = rotatedEntries.find((e) => e.material === 'illustrative_KMgH3_a4.0213_Borigin' && e.R === 7 && e.rot === 1)!;
    // The same output again: replacing it takes --force.
    const rotated = await structlabInProcess([
      'carve',
      cell,
      '--radius',
      '7',
      '--quaternion',
      entry.quat_xyzw!.join(','),
      '-o',
      out,
      '--force',
    ]);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(sha256(readFileSync(out, 'utf8'))).toBe(entry.sha256);
    const bad = await structlabInProcess(['carve', cell, '--radius', '-3', '-o', out]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect((await structlabInProcess(['c2np', 'build', cell, '--out', tmp, '--radii', '5-7'])).code).toBe(2);
  });
});
