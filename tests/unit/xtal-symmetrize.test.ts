/**
 * `structlab convert IN OUT.cif --symmetrize` (docs/crystallography.md §2) on every golden structure: the CIF declares
 * spglib's space-group number, lists one _atom_site row per orbit and species, and reads back — with our CIF
 * reader, and with pymatgen 2022.11 when /usr/bin/python3 has it — to a structure StructureMatcher() matches with
 * the input, volume per site within 1 %.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { matcherFit } from '../../src/core/match/structure-matcher.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { corpusPath, readXtalGolden, xtalGoldenNames } from '../xtal-goldens.ts';

const names = xtalGoldenNames();
const tmp = mkdtempSync(join(tmpdir(), 'structlab-symmetrize-'));
const written = new Map<string, string>();

const PYTHON = '/usr/bin/python3';
const hasPymatgen = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import pymatgen'], { encoding: 'utf8' }).status === 0;

const readFirst = (path: string) => {
  const r = parseStructureFile(readFileSync(path, 'utf8'), path);
  if (!r.ok) throw new Error(`${path}: ${r.error}`);
  return r.structures[0];
};

describe.each(names)('structlab convert --symmetrize %s', (name) => {
  const expected = readXtalGolden(name).symmetrized_cif.expected;
  it('declares the group, one row per orbit and species, and re-reads to a matching structure', async () => {
    const out = join(tmp, `${name}.sym.cif`);
    const r = await structlabInProcess(['convert', corpusPath(name), out, '--symmetrize', '--symprec', '0.01']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).spacegroup.number).toBe(expected.spacegroup_number);
    const text = readFileSync(out, 'utf8');
    expect(Number(/_symmetry_Int_Tables_number\s+(\d+)/.exec(text)![1])).toBe(expected.spacegroup_number);
    const rows = text.split('\n').filter((l) => /^\s+\S+\s+\S+\s+\d+\s+[-\d.]+\s+[-\d.]+\s+[-\d.]+\s+[\d.]+\s*$/.test(l));
    expect(rows.length).toBe(expected.n_atom_site_rows);
    const input = readFirst(corpusPath(name));
    const back = readFirst(out);
    expect(matcherFit(back, input), 'our reader: StructureMatcher() matches the input').toBe(true);
    const ratio = back.lattice!.volume / back.sites.length / (input.lattice!.volume / input.sites.length);
    expect(Math.abs(ratio - 1)).toBeLessThanOrEqual(0.01);
    written.set(name, out);
  });
});

describe('pymatgen reads the symmetrized CIFs back', () => {
  it.runIf(hasPymatgen)('CifParser + StructureMatcher() on every file (pymatgen present)', () => {
    expect(written.size).toBe(names.length);
    const script = `
import json, sys, warnings
warnings.filterwarnings("ignore")
from pymatgen.io.cif import CifParser
from pymatgen.io.vasp import Poscar
from pymatgen.analysis.structure_matcher import StructureMatcher
out = {}
for name, path, original in json.load(sys.stdin):
    try:
        s = CifParser(path).get_structures(primitive=False)[0]
        if original.lower().endswith(".cif"):
            t = CifParser(original).get_structures(primitive=False)[0]
        else:
            t = Poscar.from_file(original, check_for_POTCAR=False).structure
        for x in (s, t):
            x.remove_oxidation_states()
        out[name] = bool(StructureMatcher().fit(s, t)) and abs(s.volume / len(s) / (t.volume / len(t)) - 1) <= 0.01
    except Exception as e:
        out[name] = repr(e)[:200]
print(json.dumps(out))
`;
    const input = JSON.stringify([...written].map(([name, path]) => [name, path, corpusPath(name)]));
    const r = spawnSync(PYTHON, ['-c', script], { input, encoding: 'utf8', timeout: 300_000 });
    expect(r.status, r.stderr).toBe(0);
    const verdicts = JSON.parse(r.stdout);
    expect(Object.entries(verdicts).filter(([, v]) => v !== true)).toEqual([]);
  });
});
