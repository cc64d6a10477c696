/**
 * `structlab convert IN OUTDIR --to cif` (src/cli/commands/convert.ts): every structure of a multi-structure input as one CIF
 * named by its id, checked against the crystals compute_metrics.py builds (tests/reference/golden/generations/pt/expected.json).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { structlabInProcess } from '../cli-runner.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { fracOf, majorSpecies } from '../../src/core/structure/structure.ts';

const DIR = join(__dirname, '../reference/golden/generations/pt');

interface CrystalJson {
  lattice: number[][];
  species: string[];
  frac: number[][];
}
interface Expected {
  files: Record<string, { eval_dimension: boolean; evals: CrystalJson[][] }>;
}
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Expected;

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'convert-folder-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function expectCifEquals(path: string, want: CrystalJson): void {
  const r = parseStructureFile(readFileSync(path, 'utf8'), path);
  if (!r.ok) throw new Error(`${path} did not parse`);
  expect(r.structures).toHaveLength(1);
  const s = r.structures[0];
  if (!s.lattice) throw new Error(`${path} has no lattice`);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) expect(Math.abs(s.lattice.matrix[i][j] - want.lattice[i][j])).toBeLessThan(1e-9);
  expect(s.sites.map((site) => majorSpecies(site))).toEqual(want.species);
  // The CIF reader wraps sites into [0, 1) as pymatgen's CifParser does; the .pt's crystals are not wrapped.
  s.sites.forEach((site, k) => {
    const f = fracOf(site, s.lattice!);
    for (let j = 0; j < 3; j++) {
      const d = f[j] - want.frac[k][j];
      expect(Math.abs(d - Math.round(d))).toBeLessThan(1e-9);
    }
  });
}

const extxyzFrame = (id: string, species = 'Na'): string =>
  `1\nLattice="4 0 0 0 4 0 0 0 4" Properties=species:S:1:pos:R:3 id="${id}" pbc="T T T"\n${species} 0 0 0\n`;

describe('convert IN OUTDIR --to cif', () => {
  for (const name of ['diffcsp_eval_diff.pt', 'cdvae_eval_recon.pt', 'diffcsp_eval_gen.pt']) {
    it(`${name} becomes one CIF per crystal, named by id, equal to compute_metrics.py's crystals`, async () => {
      const file = expected.files[name];
      const out = join(dir, 'cifs');
      const r = await structlabInProcess(['convert', join(DIR, name), out, '--to', 'cif']);
      expect(r.code, r.stderr).toBe(0);
      const n = file.evals.reduce((sum, e) => sum + e.length, 0);
      const report = JSON.parse(r.stdout) as { written: string; nstructures: number; files: string[] };
      expect(report).toMatchObject({ written: out, nstructures: n });
      expect(readdirSync(out)).toHaveLength(n);
      file.evals.forEach((crystals, k) =>
        crystals.forEach((c, i) => {
          const path = join(out, file.eval_dimension ? `${i}__${k}.cif` : `${i}.cif`);
          expect(report.files).toContain(path);
          expectCifEquals(path, c);
        }),
      );
    });
  }

  it('refuses a non-empty folder without --force, writes into it with --force, and never over an input', async () => {
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'keep.txt'), 'mine');
    const pt = join(DIR, 'diffcsp_eval_gen.pt');
    const refused = await structlabInProcess(['convert', pt, out, '--to', 'cif']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/out is not empty; pass --force/);
    expect(readdirSync(out)).toEqual(['keep.txt']);
    const forced = await structlabInProcess(['convert', pt, out, '--to', 'cif', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['0.cif', '1.cif', '2.cif', '3.cif', '4.cif', 'keep.txt']);
    expect(readFileSync(join(out, 'keep.txt'), 'utf8')).toBe('mine');
    // An input inside the folder under a name the output would take is never replaced.
    const input = join(out, '0.cif');
    const before = readFileSync(input, 'utf8');
    const overInput = await structlabInProcess(['convert', input, out, '--to', 'cif', '--force']);
    expect(overInput.code).toBe(2);
    expect(readFileSync(input, 'utf8')).toBe(before);
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    const notFolder = await structlabInProcess(['convert', pt, file, '--to', 'cif', '--force']);
    expect(notFolder.code).toBe(2);
    expect(notFolder.stderr).toMatch(/file exists and is not a folder/);
  });

  it('sanitises ids into safe file names and refuses two ids naming one file', async () => {
    const input = join(dir, 'frames.extxyz');
    writeFileSync(input, extxyzFrame('a/b') + extxyzFrame('../../evil') + extxyzFrame('.hidden') + extxyzFrame('tab\there'));
    const out = join(dir, 'out');
    const r = await structlabInProcess(['convert', input, out, '--to', 'cif']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['____evil.cif', '_hidden.cif', 'a_b.cif', 'tab_here.cif']);
    expect(existsSync(join(dir, 'evil.cif'))).toBe(false);
    const clash = join(dir, 'clash.extxyz');
    writeFileSync(clash, extxyzFrame('a/b') + extxyzFrame('a_b'));
    const refused = await structlabInProcess(['convert', clash, join(dir, 'clash'), '--to', 'cif']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/clash\.extxyz: structures 0 and 1 would both be written as a_b\.cif/);
    expect(existsSync(join(dir, 'clash'))).toBe(false);
  });

  it('a multi-block CIF gives one CIF per data block, named by the block', async () => {
    const out = join(dir, 'gen');
    expect((await structlabInProcess(['convert', join(DIR, 'diffcsp_eval_gen.pt'), out, '--to', 'cif'])).code).toBe(0);
    const block = (k: number, name: string) => readFileSync(join(out, `${k}.cif`), 'utf8').replace(`data_${k}\n`, `data_${name}\n`);
    const input = join(dir, 'two.cif');
    writeFileSync(input, block(0, 'first') + block(1, 'second'));
    const r = await structlabInProcess(['convert', input, join(dir, 'blocks'), '--to', 'cif']);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(join(dir, 'blocks')).sort()).toEqual(['first.cif', 'second.cif']);
    expect(readFileSync(join(dir, 'blocks', 'first.cif'), 'utf8')).toBe(
      readFileSync(join(out, '0.cif'), 'utf8').replace('data_0', 'data_first'),
    );
  });

  it('writes nothing when one structure cannot be a CIF; a trailing / without --to cif and other --to values are refused', async () => {
    const input = join(dir, 'mixed.extxyz');
    writeFileSync(input, `${extxyzFrame('ok')}1\nplain molecule\nH 0 0 0\n`);
    const out = join(dir, 'out');
    const r = await structlabInProcess(['convert', input, out, '--to', 'cif']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no lattice/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual(['mixed.extxyz']);
    const slash = await structlabInProcess(['convert', join(DIR, 'diffcsp_eval_gen.pt'), `${out}/`]);
    expect(slash.code).toBe(2);
    expect(slash.stderr).toMatch(/pass --to cif/);
    const other = await structlabInProcess(['convert', join(DIR, 'diffcsp_eval_gen.pt'), out, '--to', 'xyz']);
    expect(other.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  });
});
