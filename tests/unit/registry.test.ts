/** Format registry: detection by name and by content, parse/write dispatch, error shape. */
import { describe, expect, it } from 'vitest';
import { corpusFileNames, readCorpusGolden, readCorpusText } from '../../scripts/support/paths.ts';
import {
  FORMATS,
  parseParticleFile,
  detectFormat,
  formatForOutputName,
  parseStructureFile,
  writeStructureFile,
} from '../../src/core/io/registry.ts';
import { ParseError } from '../../src/core/io/types.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { majorSpecies, makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import { mulberry32 } from '../../scripts/support/random.ts';

const POSCAR = 'NaCl\n5.64\n0 0.5 0.5\n0.5 0 0.5\n0.5 0.5 0\nNa Cl\n1 1\nDirect\n0 0 0\n0.5 0.5 0.5\n';
const XYZ = '2\nmol\nC 0 0 0\nO 0 0 1.13\n';
const EXTXYZ = '1\nLattice="3 0 0 0 3 0 0 0 3" Properties=species:S:1:pos:R:3\nCu 0 0 0\n';
const JSON_DICT =
  '{"@module": "pymatgen.core.structure", "@class": "Molecule", "charge": 0, "sites": [{"species": [{"element": "H", "occu": ' +
  '1}], "xyz": [0, 0, 0]}]}';
const CIF =
  'data_x\n_cell_length_a 3\n_cell_length_b 3\n_cell_length_c 3\n_cell_angle_alpha 90\n_cell_angle_beta 90\n' +
  '_cell_angle_gamma 90\nloop_\n_atom_site_label\n_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\nCu1 0 0 0\n';

describe('detectFormat by name', () => {
  const cases: [string, string][] = [
    ['x.cif', 'cif'],
    ['X.CIF', 'cif'],
    ['m.mcif', 'cif'],
    ['POSCAR', 'poscar'],
    ['CONTCAR', 'poscar'],
    ['dir/POSCAR_LaH10', 'poscar'],
    ['custodian-files-POSCAR', 'poscar'],
    ['pmg-vasp-outputs-CONTCAR.MD', 'poscar'],
    ['a.vasp', 'poscar'],
    ['b.poscar', 'poscar'],
    ['C:\\runs\\CONTCAR', 'poscar'],
    ['t.extxyz', 'extxyz'],
    ['s.json', 'pymatgen-json'],
  ];
  for (const [name, id] of cases) it(`${name} → ${id}`, () => expect(detectFormat(name, '')?.id).toBe(id));

  it('.xyz is extended when the second line has Lattice= or Properties=', () => {
    expect(detectFormat('a.xyz', XYZ)?.id).toBe('xyz');
    expect(detectFormat('a.xyz', EXTXYZ)?.id).toBe('extxyz');
    expect(detectFormat('a.xyz', '1\nProperties=species:S:1:pos:R:3\nH 0 0 0\n')?.id).toBe('extxyz');
  });

  it('the name wins over the content', () => expect(detectFormat('POSCAR', XYZ)?.id).toBe('poscar'));
});

describe('detectFormat by content when the name says nothing', () => {
  const cases: [string, string][] = [
    [POSCAR, 'poscar'],
    [XYZ, 'xyz'],
    [EXTXYZ, 'extxyz'],
    [JSON_DICT, 'pymatgen-json'],
    [CIF, 'cif'],
  ];
  for (const [text, id] of cases) it(id, () => expect(detectFormat('upload.txt', text)?.id).toBe(id));
  it('unknown content', () => expect(detectFormat('notes.txt', 'hello world\n')).toBeNull());
});

describe('corpus: every file detected as its golden format', () => {
  const names = corpusFileNames();
  it('by name', () => {
    const wrong = names.filter((n) => detectFormat(n, readCorpusText(n))?.id !== readCorpusGolden(n).format);
    expect(wrong).toEqual([]);
  });
  it('by content alone (non-empty files)', () => {
    let checked = 0;
    const wrong: string[] = [];
    for (const n of names) {
      const text = readCorpusText(n);
      if (text.trim() === '') continue;
      checked++;
      const id = detectFormat('unnamed', text)?.id;
      if (id !== readCorpusGolden(n).format) wrong.push(`${n}: ${id}`);
    }
    console.log(`content detection: ${checked - wrong.length}/${checked} corpus files; misses: ${wrong.join('; ') || 'none'}`);
    // Some CIF fragments (syntax tests without a data_ header near the top) cannot be told by content.
    expect(wrong.filter((w) => !readCorpusGolden(w.split(':')[0]).format.startsWith('cif'))).toEqual([]);
    expect(wrong.length).toBeLessThanOrEqual(Math.ceil(0.05 * checked));
  });
});

describe('parseStructureFile', () => {
  it('returns structures, format and warnings', () => {
    const r = parseStructureFile(POSCAR, 'POSCAR');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.format).toBe('poscar');
      expect(r.structures[0].sites.length).toBe(2);
      expect(r.warnings).toEqual([]);
    }
  });
  it('never throws: parse errors come back with the format, one sentence and the line', () => {
    const r = parseStructureFile(POSCAR.replace('0.5 0.5 0.5\n', '0.5 oops 0.5\n'), 'POSCAR');
    expect(r).toEqual({ ok: false, format: 'poscar', error: 'The value "oops" is not a number (atom position).', line: 10 });
    const u = parseStructureFile('hello', 'notes.txt');
    expect(u.ok).toBe(false);
    if (!u.ok) {
      expect(u.format).toBeNull();
      expect(u.error).toMatch(/could not be recognised/);
    }
    for (const [text, name] of [
      ['', 'POSCAR'],
      ['', 'a.xyz'],
      ['', 'a.json'],
      ['{', 'a.json'],
      ['\u0000\u0001', 'a.extxyz'],
    ]) {
      const e = parseStructureFile(text, name);
      expect(e.ok).toBe(false);
      if (!e.ok) expect(e.error.length).toBeGreaterThan(10);
    }
  });
});

describe('numbers that overflow (1e400) are rejected, never passed on as Infinity', () => {
  // Hand-made files: one value of each format replaced by 1e400, which no double can hold.
  const cases: [string, string, string, number | undefined][] = [
    ['POSCAR coordinate', 'POSCAR', POSCAR.replace('0.5 0.5 0.5\n', '0.5 1e400 0.5\n'), 10],
    ['POSCAR lattice', 'POSCAR', POSCAR.replace('0 0.5 0.5\n', '0 1e400 0.5\n'), 3],
    ['XYZ coordinate', 'a.xyz', XYZ.replace('O 0 0 1.13', 'O 0 0 1e400'), 4],
    ['extxyz lattice', 'a.extxyz', EXTXYZ.replace('Lattice="3 0', 'Lattice="1e400 0'), 2],
    ['extxyz coordinate', 'a.extxyz', EXTXYZ.replace('Cu 0 0 0', 'Cu 0 -1e400 0'), 3],
    ['CIF coordinate', 'a.cif', CIF.replace('Cu1 0 0 0', 'Cu1 0 0 1e400'), 13],
    ['CIF cell length', 'a.cif', CIF.replace('_cell_length_b 3', '_cell_length_b 1e400'), 3],
    ['JSON coordinate', 'a.json', JSON_DICT.replace('"xyz": [0, 0, 0]', '"xyz": [0, 1e400, 0]'), 1],
  ];
  for (const [what, name, text, line] of cases) {
    it(what, () => {
      const r = parseStructureFile(text, name);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error).toMatch(/too large to represent/);
        expect(r.line).toBe(line);
      }
    });
  }

  it('the registry rejects a structure whose coordinates overflow only after reading (safety net)', () => {
    // Every number is finite, but Cartesian 1e300 Å times the scale factor 1e10 is not.
    const text = 'big\n1e10\n1e-9 0 0\n0 1e-9 0\n0 0 1e-9\nCu\n2\nCartesian\n0 0 0\n1e300 0 0\n';
    const r = parseStructureFile(text, 'POSCAR');
    expect(r).toEqual({ ok: false, format: 'poscar', error: 'The structure "big", site 2: a coordinate is not a finite number.' });
  });
});

describe('writing', () => {
  const lattice = new Lattice([
    [3, 0, 0],
    [0, 3, 0],
    [0, 0, 3],
  ]);
  const s: Structure = { name: 'Cu', lattice, sites: [makeSiteFromFrac(lattice, [0, 0, 0], { Cu: 1 })] };

  it('formatForOutputName', () => {
    const cases: [string, string | null][] = [
      ['out.cif', 'cif'],
      ['out.xyz', 'xyz'],
      ['out.extxyz', 'extxyz'],
      ['POSCAR', 'poscar'],
      ['CONTCAR', 'poscar'],
      ['x.vasp', 'poscar'],
      ['x.poscar', 'poscar'],
      ['x.json', 'pymatgen-json'],
      ['x.txt', null],
      ['x', null],
    ];
    for (const [name, id] of cases) expect(formatForOutputName(name)?.id ?? null, name).toBe(id);
  });

  it('writes in the format of the name and reads back', () => {
    for (const name of ['POSCAR', 'a.extxyz', 'a.xyz', 'a.json']) {
      const r = parseStructureFile(writeStructureFile(s, name), name);
      expect(r.ok, name).toBe(true);
      if (r.ok) expect(r.structures[0].sites[0].species).toEqual({ Cu: 1 });
    }
  });

  it('throws a clear Error for an unknown name or a structure the format cannot hold', () => {
    expect(() => writeStructureFile(s, 'out.txt')).toThrow(/Cannot tell the output format from the name "out.txt"/);
    expect(() => writeStructureFile({ name: 'm', lattice: null, sites: [] }, 'POSCAR')).toThrow(/no lattice/);
  });

  it('lists the seven formats once each', () => {
    expect(FORMATS.map((f) => f.id).sort()).toEqual(['cif', 'extxyz', 'jsonl', 'poscar', 'pymatgen-json', 'xdatcar', 'xyz']);
  });
});

describe('damaged files: readers fail only with ParseError, the registry never throws', () => {
  // Deterministic pseudo-random damage (mulberry32) to every non-CIF corpus file.
  const rng = mulberry32;
  const damages: ((lines: string[], r: () => number) => string[])[] = [
    (l, r) => l.slice(0, Math.floor(r() * l.length)), // truncated
    (l, r) => {
      const k = Math.floor(r() * l.length);
      return [...l.slice(0, k), ...l.slice(k + 1)];
    }, // a line lost
    (l, r) => {
      const k = Math.floor(r() * l.length);
      const c = [...l];
      c[k] = c[k].replace(/\S+/, 'x#1');
      return c;
    },
    (l, r) => {
      const k = Math.floor(r() * l.length);
      const c = [...l];
      c[k] = c[k].split(/\s+/).slice(0, 2).join(' ');
      return c;
    },
    (l, r) => {
      const k = Math.floor(r() * l.length);
      const c = [...l];
      c[k] = c[k].replace(/\d/, 'nan');
      return c;
    },
  ];

  it('over 5 kinds x 20 damages of each POSCAR/XYZ file', () => {
    const r = rng(42);
    let okCount = 0;
    let failCount = 0;
    for (const name of corpusFileNames().filter((n) => readCorpusGolden(n).format !== 'cif')) {
      const lines = readCorpusText(name).split('\n');
      for (let k = 0; k < 100; k++) {
        const text = damages[k % damages.length](lines, r).join('\n');
        const format = detectFormat(name, text)!;
        try {
          format.parse(text);
        } catch (e) {
          if (!(e instanceof ParseError)) throw new Error(`${name} damage ${k}: ${String(e)}`, { cause: e });
          expect(e.message).toMatch(/^[A-Z].*\.$/);
        }
        const res = parseStructureFile(text, name);
        if (res.ok) okCount++;
        else failCount++;
      }
    }
    console.log(`damaged files: ${okCount} still parse, ${failCount} rejected with a ParseError`);
    expect(failCount).toBeGreaterThan(0);
  });
});

describe('parseParticleFile (the particle fast path)', () => {
  it('agrees with parseStructureFile on every corpus file: same success or error and line, same species and positions', () => {
    for (const name of corpusFileNames()) {
      const text = readCorpusText(name);
      const slow = parseStructureFile(text, name),
        fast = parseParticleFile(text, name);
      expect(fast.ok, name).toBe(slow.ok);
      if (!slow.ok || !fast.ok) {
        if (!slow.ok && !fast.ok) {
          expect(fast.error, name).toBe(slow.error);
          expect(fast.line, name).toBe(slow.line);
        }
        continue;
      }
      expect(fast.warnings, name).toEqual(slow.warnings);
      expect(fast.particles.length, name).toBe(slow.structures.length);
      slow.structures.forEach((s, k) => {
        expect(fast.particles[k].symbols, name).toEqual(s.sites.map(majorSpecies));
        expect([...fast.particles[k].coords], name).toEqual(s.sites.flatMap((site) => site.xyz));
      });
    }
  });
});
