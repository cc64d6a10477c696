/** The `structlab` command: the process contract (bin launcher, stdin) in real processes, the rest in-process through main(). */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_FILES, readCorpusGolden } from '../../scripts/support/paths.ts';
import { structlab, structlabInProcess } from '../cli-runner.ts';
import { p1Cif } from '../cif.ts';

describe('structlab CLI process contract', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'structlab-cli-'));

  it('prints help and exits 0', async () => {
    const r = structlab(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/info/);
    expect((await structlabInProcess(['info', '--help'])).stdout).toMatch(/--symprec/);
  });

  it("info on a real CIF gives pymatgen's formula and spglib's space group", async () => {
    const file = 'cod-1000035.cif';
    const g = readCorpusGolden(file).pymatgen.structures[0];
    const r = await structlabInProcess(['info', join(CORPUS_FILES, file)]);
    expect(r.code, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.format).toBe('cif');
    expect(info.structures[0].formula).toBe(g.formula);
    expect(info.structures[0].reduced_formula).toBe(g.reduced_formula);
    expect(info.structures[0].nsites).toBe(g.n_sites);
    expect(info.structures[0].spacegroup).toEqual({ number: g.symmetry['0.01'].number, symbol: g.symmetry['0.01'].international });
    for (const site of info.structures[0].sites) for (const x of site.frac) expect(x >= 0 && x < 1).toBe(true);
  });

  it('reads standard input when the file is "-"', () => {
    const text = readFileSync(join(CORPUS_FILES, 'p2-POSCAR_MgH2_1'), 'utf8');
    const r = structlab(['info', '-'], { input: text });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).structures[0].nsites).toBe(readCorpusGolden('p2-POSCAR_MgH2_1').pymatgen.structures[0].n_sites);
  });

  it('exits 2 with one sentence for a missing file, a malformed file and a bad option', async () => {
    for (const args of [
      ['info', join(tmp, 'nope.cif')],
      ['info', join(CORPUS_FILES, 'cod-unclosed-quote.cif')],
      ['info', join(CORPUS_FILES, 'cod-1000035.cif'), '--symprec', 'abc'],
      ['convert', join(CORPUS_FILES, 'cod-1000035.cif'), join(tmp, 'out.unknown')],
      ['frobnicate'],
    ]) {
      const r = await structlabInProcess(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: /);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  // (An unclosed quote is no longer malformed: it is read as pymatgen reads it, with a warning.)
  it('names the file and line of a malformed CIF', async () => {
    const bad = join(tmp, 'bad.cif');
    // The last row lacks its z.
    writeFileSync(bad, p1Cif('x', 5, ['Na1 Na 0 0 0', 'Cl1 Cl 0.5 0.5']));
    const r = await structlabInProcess(['info', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.cif line \d+/);
  });

  it('converts CIF → POSCAR → JSON and reads back the same structure', async () => {
    const src = join(CORPUS_FILES, 'pmg-LiFePO4.cif');
    const poscar = join(tmp, 'POSCAR');
    const json = join(tmp, 'LiFePO4.json');
    const a = await structlabInProcess(['convert', src, poscar]);
    expect(a.code, a.stderr).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual({ written: poscar, nsites: 28 });
    expect((await structlabInProcess(['convert', poscar, json])).code).toBe(0);
    const before = JSON.parse((await structlabInProcess(['info', src])).stdout).structures[0];
    const after = JSON.parse((await structlabInProcess(['info', json])).stdout).structures[0];
    expect(after.nsites).toBe(before.nsites);
    expect(after.formula).toBe(before.formula);
    for (let i = 0; i < before.nsites; i++) {
      expect(after.sites[i].species).toEqual(before.sites[i].species);
      for (let k = 0; k < 3; k++) {
        const d = after.sites[i].frac[k] - before.sites[i].frac[k];
        expect(Math.abs(d - Math.round(d))).toBeLessThan(1e-8);
      }
    }
    expect(after.spacegroup).toEqual(before.spacegroup);
  });
});
