/** Generation inputs as people have them (zip archives, the MP-20 CSV) and the gen commands in worker threads. */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/core/io/csv.ts';
import { readZip } from '../../src/core/io/zip.ts';
import { LimitError, overrideLimits, resetLimits } from '../../src/core/limits.ts';
import { GenInputError, setFromCsv, setFromFolder, setFromJsonl, setFromZip } from '../../src/core/tasks/generations/inputs.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';

const GOLDEN = join(REFERENCE, 'golden', 'generations');
const CSP = join(GOLDEN, 'csp_visible');
const tmp = mkdtempSync(join(tmpdir(), 'gen-scale-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => resetLimits());

const folderFiles = (dir: string) => readdirSync(dir).map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
const comparable = (items: { id: string; structure: unknown }[]) => items.map((it) => ({ id: it.id, structure: it.structure }));

/** Patches a 32-bit little-endian field of every central-directory record (signature PK\1\2) at `offset`. */
function patchCentral(zip: Uint8Array, offset: number, value: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let at = 0; at + 46 <= out.length; at++) if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + offset, value, true);
  return out;
}

describe('zip inputs', () => {
  const predFiles = folderFiles(join(CSP, 'pred'));
  const folderSet = setFromFolder('prediction', 'pred', predFiles);

  it('a zip of a folder (with its folder name, macOS forks and dot-files) is that folder', () => {
    const entries: Record<string, Uint8Array> = { 'pred/': new Uint8Array(0) };
    for (const f of predFiles) entries[`pred/${f.name}`] = strToU8(f.text);
    entries['__MACOSX/pred/._x.cif'] = strToU8('not a CIF');
    entries['pred/.hidden.cif'] = strToU8('not a CIF');
    entries['pred/README.txt'] = strToU8('ignored');
    const items = setFromZip('prediction', 'pred.zip', zipSync(entries, { level: 6 }));
    expect(comparable(items)).toEqual(comparable(folderSet));
    expect(items[0].where).toBe(`pred.zip/pred/${predFiles.find((f) => f.name.startsWith(items[0].id + '.'))!.name}`);
  });

  it('a zip holding one JSONL (stored, not deflated) is that file', () => {
    const text = readFileSync(join(CSP, 'multi_truth.jsonl'), 'utf8');
    const items = setFromZip('truth', 't.zip', zipSync({ 'multi_truth.jsonl': [strToU8(text), { level: 0 }] }));
    expect(comparable(items)).toEqual(comparable(setFromJsonl('truth', 'multi_truth.jsonl', text)));
  });

  it('refuses a zip bomb from its headers, before inflating', () => {
    overrideLimits({ inputBytes: 1_000_000 });
    const bomb = zipSync({ 'a.cif': new Uint8Array(2_000_000) }, { level: 9 });
    expect(bomb.length).toBeLessThan(10_000);
    expect(() => setFromZip('prediction', 'bomb.zip', bomb)).toThrow(LimitError);
    expect(() => setFromZip('prediction', 'bomb.zip', bomb)).toThrow(
      /bomb\.zip inflated has 2,000,000 bytes; the limit is 1,000,000 bytes/,
    );
    // A header that declares ~4 GB is refused at the default limit too.
    resetLimits();
    const huge = patchCentral(zipSync({ 'a.cif': strToU8('x') }), 24, 0xfffffff0);
    expect(() => setFromZip('prediction', 'huge.zip', huge)).toThrow(/huge\.zip inflated has 4,294,967,280 bytes/);
  });

  it('refuses an entry that inflates past the size its header declares (checked while inflating)', () => {
    const lying = patchCentral(zipSync({ 'a.cif': new Uint8Array(5_000_000) }, { level: 9 }), 24, 1000);
    expect(() => setFromZip('prediction', 'lying.zip', lying)).toThrow(GenInputError);
    expect(() => setFromZip('prediction', 'lying.zip', lying)).toThrow(/lying\.zip: the entry "a\.cif" inflates past the 1000 bytes/);
  });

  it('refuses more entries than LIMITS.fileStructures from the end record', () => {
    overrideLimits({ fileStructures: 3 });
    const zip = zipSync({ '1.cif': strToU8('x'), '2.cif': strToU8('x'), '3.cif': strToU8('x'), '4.cif': strToU8('x') });
    expect(() => readZip(zip, 'many.zip')).toThrow(/many\.zip has 4 entries; the limit is 3 entries/);
  });

  it('refuses path traversal, mixed contents, damage and junk, each in one sentence', () => {
    const cif = strToU8(predFiles.find((f) => f.name.endsWith('.cif'))!.text);
    const refusal = (entries: Record<string, Uint8Array>) => () => setFromZip('prediction', 'p.zip', zipSync(entries));
    expect(refusal({ '../evil.cif': cif })).toThrow(/p\.zip holds the entry "\.\.\/evil\.cif", whose path leaves/);
    expect(refusal({ 'a/../../evil.cif': cif })).toThrow(/leaves the archive's folder/);
    expect(refusal({ '/abs/x.cif': cif })).toThrow(/leaves the archive's folder/);
    // One name in two folders is two structures, ids the paths below the deepest folder holding every entry (a folder's rule).
    const ids = (entries: Record<string, Uint8Array>) => setFromZip('prediction', 'p.zip', zipSync(entries)).map((s) => s.id);
    expect(ids({ 'a/x.cif': cif, 'b/x.cif': cif })).toEqual(['a/x', 'b/x']);
    expect(ids({ 'p/a/x.cif': cif, 'p/b/c/x.cif': cif })).toEqual(['a/x', 'b/c/x']);
    expect(ids({ 'p/x.cif': cif, 'p/y.cif': cif })).toEqual(['x', 'y']);
    // Ids may repeat in a set (CSP pairing refuses them there, tests/unit/gen-inputs.test.ts).
    expect(ids({ 'x.cif': cif, 'x.CIF': cif })).toEqual(['x', 'x']);
    expect(refusal({ 'x.cif': cif, 'set.jsonl': strToU8('{}') })).toThrow(/both structure files/);
    expect(refusal({ 'a.jsonl': strToU8('{}'), 'b.csv': strToU8('x') })).toThrow(/2 set files/);
    expect(refusal({ 'notes.txt': cif })).toThrow(/p\.zip holds no \.cif/);
    expect(refusal({ 'bad.cif': strToU8('data_x\n_cell_length_a 4\n') })).toThrow(/^p\.zip\/bad\.cif cannot be read/);
    const zip = zipSync({ 'x.cif': cif });
    const damaged = zip.slice();
    damaged[40] ^= 0xff; // inside the deflated data
    expect(() => setFromZip('prediction', 'd.zip', damaged)).toThrow(/^d\.zip is not a readable zip archive \(the entry "x\.cif" /);
    expect(() => setFromZip('prediction', 'j.zip', strToU8('not a zip at all, just text'))).toThrow(
      /j\.zip is not a readable zip archive \(no end-of-central-directory record\)/,
    );
  });

  it('the CLI reads .zip sets; a bad zip exits 2 with one sentence naming it', async () => {
    const entries: Record<string, Uint8Array> = {};
    for (const f of predFiles) entries[`pred/${f.name}`] = strToU8(f.text);
    writeFileSync(join(tmp, 'pred.zip'), zipSync(entries));
    const viaZip = await structlabInProcess([
      'gen',
      'csp',
      '--pred',
      join(tmp, 'pred.zip'),
      '--truth',
      join(CSP, 'truth'),
      '--workers',
      '0',
    ]);
    const viaFolder = await structlabInProcess([
      'gen',
      'csp',
      '--pred',
      join(CSP, 'pred'),
      '--truth',
      join(CSP, 'truth'),
      '--workers',
      '0',
    ]);
    expect(viaZip.code).toBe(0);
    expect(viaZip.stdout).toBe(viaFolder.stdout);
    writeFileSync(join(tmp, 'evil.zip'), zipSync({ '../x.cif': strToU8('x') }));
    const bad = await structlabInProcess(['gen', 'eval', '--pred', join(tmp, 'evil.zip')]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('evil.zip holds the entry');
  }, 120_000);
});

describe('MP-20-style CSV inputs', () => {
  const rows = parseCsv(readFileSync(join(GOLDEN, 'sources', 'mp20_rows.csv'), 'utf8'));
  const header = rows[0].fields;
  const pick = rows.slice(1, 9).map((r) => ({ id: r.fields[header.indexOf('material_id')], cif: r.fields[header.indexOf('cif')] }));
  const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
  /** CDVAE's layout: a leading unnamed index column, properties, the quoted CIF (with its line breaks), more properties. */
  const mp20Csv = (items: { id: string; cif: string }[]) =>
    ',material_id,formation_energy_per_atom,pretty_formula,cif,spacegroup.number\n' +
    items.map((it, k) => `${k},${it.id},-1.5,"X""Y",${quote(it.cif)},225`).join('\n') +
    '\n';

  it('reads material_id and the cif column as the same CIF files would be read, in row order', () => {
    const items = setFromCsv('truth', 'mp20.csv', mp20Csv(pick));
    const asFiles = setFromFolder(
      'truth',
      'f',
      pick.map((p) => ({ name: `${p.id}.cif`, text: p.cif })),
    );
    expect(items.map((it) => it.id)).toEqual(pick.map((p) => p.id));
    const byId = new Map(asFiles.map((it) => [it.id, it.structure]));
    for (const it of items) expect(it.structure).toEqual(byId.get(it.id));
    expect(items[1].where).toMatch(/^mp20\.csv line \d+ \(m[pv]c?-/);
  });

  it('reads the golden rows file itself (split, material_id, commit, cif) and a first column named id', () => {
    const all = setFromCsv('reference', 'mp20_rows.csv', readFileSync(join(GOLDEN, 'sources', 'mp20_rows.csv'), 'utf8'));
    expect(all.length).toBe(rows.length - 1);
    const idFirst = setFromCsv('truth', 'x.csv', `id,cif\n${pick[0].id},${quote(pick[0].cif)}\n`);
    expect(idFirst.map((it) => it.id)).toEqual([pick[0].id]);
  });

  it('refuses a missing cif or id column, a bad CIF on its line, a short row and an open quote; reads repeated ids', () => {
    const bad = (text: string) => () => setFromCsv('truth', 't.csv', text);
    expect(bad(`material_id,formula\nmp-1,NaCl\n`)).toThrow(/^t\.csv has no "cif" column/);
    expect(bad(`name,cif\nx,${quote(pick[0].cif)}\n`)).toThrow(/^t\.csv has no "material_id" column/);
    // Row 2's CIF spans many lines: the third record starts after them.
    const third = mp20Csv([pick[0], pick[1], { id: 'mp-bad', cif: 'data_x\n_cell_length_a 4\n' }]);
    const line = parseCsv(third)[3].line;
    expect(line).toBeGreaterThan(40);
    expect(bad(third)).toThrow(new RegExp(`^t\\.csv line ${line} \\(mp-bad\\): the CIF cannot be read`));
    expect(bad(`material_id,cif\nmp-1\n`)).toThrow(/^t\.csv line 2 has 1 fields, the header has 2/);
    expect(bad(`material_id,cif\nmp-1,\n`)).toThrow(/empty cif field/);
    expect(setFromCsv('truth', 't.csv', mp20Csv([pick[0], pick[0]])).map((s) => s.id)).toEqual([pick[0].id, pick[0].id]);
    expect(bad(`material_id,cif\nmp-1,"data_x\n`)).toThrow(/^t\.csv line 2: a quoted field opened on this line is never closed/);
    expect(bad('')).toThrow(/^t\.csv is empty/);
  });

  it('the CLI reads .csv sets, also inside a zip', async () => {
    const csv = mp20Csv(pick);
    writeFileSync(join(tmp, 'mp20.csv'), csv);
    writeFileSync(join(tmp, 'mp20.zip'), zipSync({ 'data/mp20.csv': strToU8(csv) }));
    const a = await structlabInProcess(['gen', 'eval', '--pred', join(tmp, 'mp20.csv'), '--workers', '0']);
    const b = await structlabInProcess(['gen', 'eval', '--pred', join(tmp, 'mp20.zip'), '--workers', '0']);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).n).toBe(pick.length);
    expect(b.stdout).toBe(a.stdout);
    writeFileSync(join(tmp, 'nocif.csv'), 'material_id,x\nmp-1,2\n');
    const bad = await structlabInProcess(['gen', 'eval', '--pred', join(tmp, 'nocif.csv')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('nocif.csv has no "cif" column');
  }, 120_000);
});

describe('gen commands in worker threads', () => {
  const DENOVO = join(GOLDEN, 'denovo_visible');
  const same = async (args: string[]) => {
    const one = await structlabInProcess([...args, '--workers', '0']);
    const two = await structlabInProcess([...args, '--workers', '2']);
    const three = await structlabInProcess([...args, '--workers', '3']);
    expect(one.code).toBe(0);
    expect(one.stderr).toBe('');
    expect(two.stderr).toBe('');
    expect(two.stdout).toBe(one.stdout);
    expect(three.stdout).toBe(one.stdout);
    return JSON.parse(one.stdout);
  };

  it('gen csp gives the same bytes with 0, 2 and 3 worker threads (one sample and best of 4)', async () => {
    expect((await same(['gen', 'csp', '--pred', join(CSP, 'pred'), '--truth', join(CSP, 'truth')])).n).toBe(203);
    const multi = ['gen', 'csp', '--pred', join(CSP, 'multi_pred.extxyz'), '--truth', join(CSP, 'multi_truth.jsonl'), '--n-samples', '4'];
    expect((await same([...multi, '--convention', 'cdvae'])).n_predictions).toBe(160);
  }, 240_000);

  it('gen eval gives the same bytes with 0, 2 and 3 worker threads (both matchers, reference, truth, energies)', async () => {
    const base = ['gen', 'eval', '--pred', join(DENOVO, 'pred'), '--reference', join(DENOVO, 'reference.jsonl')];
    const doc = await same([...base, '--truth', join(DENOVO, 'truth.extxyz'), '--e-above-hull', join(DENOVO, 'e_above_hull.json')]);
    expect(doc.per_sample.some((s: { duplicate_of: string | null }) => s.duplicate_of !== null)).toBe(true);
    expect(doc.per_sample.some((s: { reference_match: string | null }) => s.reference_match !== null)).toBe(true);
    await same(['gen', 'eval', '--pred', join(DENOVO, 'pred'), '--matcher', 'ordered']);
  }, 240_000);

  it('refuses a --workers value that is not a whole number', async () => {
    const r = await structlabInProcess(['gen', 'csp', '--pred', 'x', '--truth', 'y', '--workers', 'many']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--workers must be a whole number');
  });
});
