/**
 * Property-based fuzzing of every structure reader (issue 10): random mutations of real corpus files
 * and generated hostile shapes. The contract: parseStructureFile / parseParticleFile never throw; they
 * refuse with one clean line or return well-formed structures (finite, within LIMITS); each call within
 * a hang guard. `npm run fuzz` (FUZZ_SECONDS) runs each property for as long as asked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ParticleParseResult, parseParticleFile, parseStructureFile, writeStructureFile } from '../../src/core/io/registry.ts';
import type { ParseResult } from '../../src/core/io/types.ts';
import { CsvError, parseCsv } from '../../src/core/io/csv.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { corpusFileNames, readCorpusText } from '../../scripts/support/paths.ts';
import { assertCleanMessage, fuzzParams, fuzzTimeout, hostileLines, hostileToken, mutatedFrom, withinBudget } from '../fuzz-helpers.ts';

const names = corpusFileNames();
const texts = (pick: (n: string) => boolean): string[] => names.filter(pick).map(readCorpusText);
const small = (ts: string[]) => ts.filter((t) => t.length < 200_000);

const CIF = small(texts((n) => n.endsWith('.cif')));
const POSCAR = texts((n) => /POSCAR|CONTCAR|\.vasp$|\.poscar$/i.test(n));
const XYZ = texts((n) => n.endsWith('.xyz') && !n.includes('ext'));
const EXTXYZ = texts((n) => n.endsWith('.extxyz') || n.includes('_ext'));

/** pymatgen JSON written from a few corpus structures (the corpus holds no JSON file). */
const JSON_TEXTS = names.slice(0, 12).flatMap((n) => {
  const r = parseStructureFile(readCorpusText(n), n);
  return r.ok && r.structures[0].sites.length < 2000 ? [writeStructureFile(r.structures[0], 'x.json')] : [];
});
/** Extended XYZ of periodic corpus structures, so the Lattice= path is mutated too. */
const EXT_WRITTEN = CIF.slice(0, 20).flatMap((t) => {
  const r = parseStructureFile(t, 'x.cif');
  try {
    return r.ok ? [writeStructureFile(r.structures[0], 'x.extxyz')] : [];
  } catch {
    return []; // partial occupancy: extxyz cannot hold it
  }
});

function checkStructures(r: ParseResult, label: string): void {
  if (!r.ok) {
    assertCleanMessage(r.error, label);
    return;
  }
  if (r.structures.length === 0) throw new Error(`${label}: ok without structures`);
  let total = 0;
  for (const s of r.structures) {
    if (s.sites.length === 0 || s.sites.length > LIMITS.atoms) throw new Error(`${label}: ${s.sites.length} sites accepted`);
    total += s.sites.length;
    if (s.lattice && !s.lattice.matrix.flat().every((x) => Number.isFinite(x) && Math.abs(x) <= LIMITS.coordinateAbs))
      throw new Error(`${label}: bad lattice accepted`);
    for (const site of s.sites) {
      if (!site.xyz.every((x) => Number.isFinite(x) && Math.abs(x) <= LIMITS.coordinateAbs))
        throw new Error(`${label}: coordinate ${site.xyz} accepted`);
    }
  }
  if (total > LIMITS.fileAtoms) throw new Error(`${label}: ${total} atoms accepted`);
  r.warnings.forEach((w) => assertCleanMessage(w, `${label} (warning)`));
}

function checkParticles(r: ParticleParseResult, label: string): void {
  if (!r.ok) {
    assertCleanMessage(r.error, label);
    return;
  }
  for (const p of r.particles) {
    if (p.symbols.length === 0 || p.symbols.length > LIMITS.atoms || p.coords.length !== 3 * p.symbols.length)
      throw new Error(`${label}: malformed particle`);
    if (!p.coords.every((x) => Number.isFinite(x) && Math.abs(x) <= LIMITS.coordinateAbs)) throw new Error(`${label}: coordinate accepted`);
  }
  r.warnings.forEach((w) => assertCleanMessage(w, `${label} (warning)`));
}

const structureProperty = (label: string, fileName: string, corpus: string[]) =>
  fc.property(mutatedFrom(corpus), (text) => {
    checkStructures(
      withinBudget(() => parseStructureFile(text, fileName), label),
      label,
    );
  });

const SECONDS = 5;

describe('fuzz: structure readers on mutated real files', () => {
  it('sanity: the corpus groups are not empty', () => {
    for (const [what, list] of Object.entries({ CIF, POSCAR, XYZ, EXTXYZ, JSON_TEXTS, EXT_WRITTEN }))
      expect(list.length, what).toBeGreaterThan(0);
  });
  it('CIF', () => fc.assert(structureProperty('cif', 'f.cif', CIF), fuzzParams(150, SECONDS)), fuzzTimeout(SECONDS));
  it('POSCAR', () => fc.assert(structureProperty('poscar', 'POSCAR', POSCAR), fuzzParams(300, SECONDS)), fuzzTimeout(SECONDS));
  it('XYZ', () => fc.assert(structureProperty('xyz', 'f.xyz', XYZ), fuzzParams(300, SECONDS)), fuzzTimeout(SECONDS));
  it(
    'extended XYZ',
    () => fc.assert(structureProperty('extxyz', 'f.extxyz', [...EXTXYZ, ...EXT_WRITTEN]), fuzzParams(300, SECONDS)),
    fuzzTimeout(SECONDS),
  );
  it('pymatgen JSON', () => fc.assert(structureProperty('json', 'f.json', JSON_TEXTS), fuzzParams(300, SECONDS)), fuzzTimeout(SECONDS));
  it(
    'parseParticleFile (the plain-XYZ fast path and the others)',
    () =>
      fc.assert(
        fc.property(mutatedFrom([...XYZ, ...POSCAR.slice(0, 2)]), fc.constantFrom('p.xyz', 'POSCAR'), (text, name) => {
          checkParticles(
            withinBudget(() => parseParticleFile(text, name), 'particles'),
            'particles',
          );
        }),
        fuzzParams(300, SECONDS),
      ),
    fuzzTimeout(SECONDS),
  );
});

describe('fuzz: generated hostile shapes', () => {
  const fileName = fc.constantFrom('f.cif', 'POSCAR', 'f.xyz', 'f.extxyz', 'f.json', 'unknown.txt');
  /** Format skeletons with hostile tokens in every slot. */
  const skeleton = fc.oneof(
    fc.tuple(hostileToken, hostileToken, hostileToken).map(([a, b, c]) => `${a}\n${b}\nFe ${c} 0 0\n`),
    fc.tuple(hostileToken, hostileToken, hostileToken).map(([a, b, c]) => `x\n${a}\n1 0 0\n0 1 0\n0 0 ${b}\nFe\n${c}\nDirect\n0 0 0\n`),
    fc
      .tuple(hostileToken, hostileToken, hostileToken)
      .map(
        ([a, b, c]) =>
          `data_x\n_cell_length_a ${a}\n_cell_length_b 5\n_cell_length_c 5\n_cell_angle_alpha ${b}\n_cell_angle_beta 90\n` +
          `_cell_angle_gamma 90\nloop_\n_symmetry_equiv_pos_as_xyz\n'x,y,z'\n'${c}'\nloop_\n_atom_site_label\n` +
          `_atom_site_fract_x\n_atom_site_fract_y\n_atom_site_fract_z\nFe1 ${c} 0 0\n`,
      ),
    fc
      .tuple(hostileToken, hostileToken)
      .map(
        ([a, b]) =>
          `{"@class":"Structure","lattice":{"matrix":[[${a},0,0],[0,1,0],[0,0,1]]},` +
          `"sites":[{"species":[{"element":"${b}"}],"abc":[0,0,${a}]}]}`,
      ),
    fc
      .tuple(hostileToken, hostileToken)
      .map(([a, b]) => `1\nLattice="${a} 0 0 0 1 0 0 0 1" Properties=species:S:1:pos:R:3 ${b}=${a}\nFe 0 0 ${a}\n`),
    hostileLines,
    fc.string({ unit: 'binary', maxLength: 400 }),
  );
  it(
    'structure files',
    () =>
      fc.assert(
        fc.property(skeleton, fileName, (text, name) => {
          checkStructures(
            withinBudget(() => parseStructureFile(text, name), name),
            name,
          );
          checkParticles(
            withinBudget(() => parseParticleFile(text, name), name),
            `${name} (particles)`,
          );
        }),
        fuzzParams(600, SECONDS),
      ),
    fuzzTimeout(SECONDS),
  );
  it(
    'CSV text',
    () =>
      fc.assert(
        fc.property(fc.oneof(hostileLines, fc.string({ unit: 'binary', maxLength: 2000 })), (text) => {
          let records;
          try {
            records = withinBudget(() => parseCsv(text), 'csv');
          } catch (e) {
            // The one refusal a short text can earn: an unterminated quote, named by its line.
            if (e instanceof CsvError && e.line >= 1 && /^line \d+: /.test(e.message)) return;
            throw e;
          }
          if (!Array.isArray(records) || records.some((r) => !Number.isInteger(r.line) || r.fields.some((f) => typeof f !== 'string')))
            throw new Error('csv: not records of strings');
        }),
        fuzzParams(1000, 2),
      ),
    fuzzTimeout(2),
  );
});
