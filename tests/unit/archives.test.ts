/** The containers people hand over: gzip, tar, tar.gz (src/core/io/gzip.ts, tar.ts, archive.ts), Chemeleon's results.csv. */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, strToU8, zipSync } from 'fflate';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openContainers } from '../../src/browser/read-file.ts';
import { readArchive } from '../../src/core/io/archive.ts';
import { keepArchivePath } from '../../src/core/io/archive-entries.ts';
import { gunzip } from '../../src/core/io/gzip.ts';
import { readTar } from '../../src/core/io/tar.ts';
import { ParseError } from '../../src/core/io/types.ts';
import { LimitError, overrideLimits, resetLimits } from '../../src/core/limits.ts';
import { GenInputError, chemeleonSets, setFromFolder, setFromZip } from '../../src/core/tasks/generations/inputs.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';

const CSP = join(REFERENCE, 'golden', 'generations', 'csp_visible');
const FIXTURES = join(REFERENCE, 'archives');
const tmp = mkdtempSync(join(tmpdir(), 'archives-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
afterEach(() => resetLimits());

/** One ustar header block for `name` (a minimal tar writer, POSIX 1003.1-1988 layout), checksum filled in. */
function tarHeader(name: string, size: number, type = '0', link = ''): Uint8Array {
  const h = new Uint8Array(512);
  const put = (at: number, text: string) => h.set(strToU8(text), at);
  const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, '0') + '\0';
  put(0, name);
  put(100, octal(0o644, 8));
  put(108, octal(0, 8));
  put(116, octal(0, 8));
  put(124, octal(size, 12));
  put(136, octal(1_700_000_000, 12));
  put(148, '        ');
  put(156, type);
  put(157, link);
  put(257, 'ustar\u000000');
  let sum = 0;
  for (const b of h) sum += b;
  put(148, sum.toString(8).padStart(6, '0') + '\0 ');
  return h;
}

/** A tar of `files` (path → bytes, or a header-only entry [type, link]), with the two end-of-archive blocks. */
function tar(files: [string, Uint8Array | [string, string]][]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, body] of files) {
    if (body instanceof Uint8Array) {
      parts.push(tarHeader(name, body.length), body, new Uint8Array((512 - (body.length % 512)) % 512));
    } else parts.push(tarHeader(name, 0, body[0], body[1]));
  }
  parts.push(new Uint8Array(1024));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const truthNames = new Set(readdirSync(join(CSP, 'truth')));
const cifNames = readdirSync(join(CSP, 'pred'))
  .filter((name) => name.endsWith('.cif') && truthNames.has(name))
  .sort()
  .filter((_, k) => k % 25 === 3);
const predFiles = cifNames.map((name) => ({ name, text: readFileSync(join(CSP, 'pred', name), 'utf8') }));
const truthFiles = cifNames.map((name) => ({ name, text: readFileSync(join(CSP, 'truth', name), 'utf8') }));
const comparable = (items: { id: string; structure: unknown }[]) => items.map((it) => ({ id: it.id, structure: it.structure }));

describe('gzip', () => {
  const text = predFiles[0].text;

  it('inflates a file, and one of several members as gzip(1) concatenates them', () => {
    expect(new TextDecoder().decode(gunzip(gzipSync(strToU8(text)), 'x.cif.gz'))).toBe(text);
    const a = gzipSync(strToU8('first\n')),
      b = gzipSync(strToU8('second\n'));
    const both = new Uint8Array([...a, ...b]);
    expect(new TextDecoder().decode(gunzip(both, 'two.gz'))).toBe('first\nsecond\n');
    // The second member's CRC damaged: refused (each member's trailer is checked).
    both[both.length - 6] ^= 0xff;
    expect(() => gunzip(both, 'two.gz')).toThrow(/^two\.gz is not a readable gzip file \(member 2 fails its CRC-32/);
  });

  it('refuses a truncated gzip, at any cut, in one sentence naming it', () => {
    const gz = gzipSync(strToU8(text));
    for (const cut of [4, 8, 20, gz.length - 11]) {
      expect(() => gunzip(gz.subarray(0, gz.length - cut), 'x.cif.gz')).toThrow(ParseError);
      expect(() => gunzip(gz.subarray(0, gz.length - cut), 'x.cif.gz')).toThrow(/^x\.cif\.gz is not a readable gzip file \(/);
    }
    expect(() => gunzip(strToU8('data_x\n'), 'x.cif.gz')).toThrow('x.cif.gz is not a readable gzip file (no gzip header)');
  });

  it('stops a gzip bomb at the limit while inflating, whatever its trailer says', () => {
    overrideLimits({ inputBytes: 1_000_000 });
    const bomb = gzipSync(new Uint8Array(4_000_000), { level: 9 });
    expect(bomb.length).toBeLessThan(10_000);
    expect(() => gunzip(bomb, 'bomb.gz')).toThrow(LimitError);
    // ISIZE says 100 bytes: the lie is caught while inflating, at the limit.
    const lying = bomb.slice();
    new DataView(lying.buffer).setUint32(lying.length - 4, 100, true);
    expect(() => gunzip(lying, 'lying.gz')).toThrow(/^lying\.gz inflated is over the limit; the limit is 1,000,000 bytes/);
  });
});

describe('tar', () => {
  const files = predFiles.slice(0, 3).map((f): [string, Uint8Array] => [`./samples/${f.name}`, strToU8(f.text)]);

  it('reads regular files, skips folders, keeps the order; "./" parts dropped', () => {
    const entries = readTar(tar([['samples/', ['5', '']], ...files]), 'x.tar');
    expect(entries.map((e) => e.path)).toEqual(predFiles.slice(0, 3).map((f) => `samples/${f.name}`));
    expect(entries.map((e) => new TextDecoder().decode(e.bytes))).toEqual(predFiles.slice(0, 3).map((f) => f.text));
  });

  it("reads Python tarfile's GNU long names and pax path records (tests/reference/archives)", () => {
    const expected = ['gate-mp-979426.cif', 'gate-mp-979432.cif', 'gate-mp-983609.cif'];
    for (const name of ['gnu-long-names.tar', 'pax-long-names.tar.gz']) {
      const entries = readArchive(new Uint8Array(readFileSync(join(FIXTURES, name))), name);
      expect(entries.map((e) => e.path.slice(e.path.lastIndexOf('/') + 1))).toEqual(expected);
      expect(entries[0].path.length).toBeGreaterThan(100);
      expect(entries[0].path.startsWith('crystallm_samples/a_folder_name')).toBe(true);
      entries.forEach((e, k) => expect(e.bytes).toEqual(new Uint8Array(readFileSync(join(CSP, 'pred', expected[k])))));
    }
  });

  it('refuses hostile tars in one sentence naming the file', () => {
    const cif = strToU8(predFiles[0].text);
    const keep = (name: string) => (path: string) => keepArchivePath(name, path, () => true);
    const refusal = (t: Uint8Array) => () => readTar(t, 'evil.tar', keep('evil.tar'));
    expect(refusal(tar([['../x.cif', cif]]))).toThrow('evil.tar holds the entry "../x.cif", whose path leaves the archive\'s folder');
    expect(refusal(tar([['/etc/x.cif', cif]]))).toThrow('evil.tar holds the entry "/etc/x.cif", whose path leaves the archive\'s folder');
    expect(refusal(tar([['a/../../x.cif', cif]]))).toThrow(/whose path leaves the archive's folder$/);
    expect(refusal(tar([['x.cif', ['2', '/etc/passwd']]]))).toThrow(
      'evil.tar holds the entry "x.cif", a link; only regular files are read from an archive',
    );
    expect(refusal(tar([['x.cif', ['1', 'y.cif']]]))).toThrow(/a link; only regular files/);
    const bad = tar([['x.cif', cif]]);
    bad[10] ^= 1;
    expect(refusal(bad)).toThrow('evil.tar is not a readable tar archive (the header at byte 0 fails its checksum)');
    const whole = tar([['x.cif', cif]]);
    expect(refusal(whole.subarray(0, 700))).toThrow('evil.tar is not a readable tar archive (the entry "x.cif" is cut short)');
    expect(refusal(whole.subarray(0, 300))).toThrow('evil.tar is not a readable tar archive (the header at byte 0 is cut short)');
    for (const t of [refusal(bad), refusal(whole.subarray(0, 700))]) expect(t).toThrow(ParseError);
  });

  it('holds the entry count to LIMITS.fileStructures', () => {
    overrideLimits({ fileStructures: 2 });
    const t = tar(files);
    expect(() => readTar(t, 'many.tar')).toThrow(LimitError);
    expect(() => readTar(t, 'many.tar')).toThrow(/^many\.tar has 3 entries; the limit is 2 entries/);
  });

  it('a tar.gz bomb is stopped by the gzip limit', () => {
    overrideLimits({ inputBytes: 1_000_000 });
    const bomb = gzipSync(tar([['x.cif', new Uint8Array(3_000_000)]]), { level: 9 });
    expect(() => setFromZip('prediction', 'bomb.tar.gz', bomb)).toThrow(/^bomb\.tar\.gz inflated is over the limit/);
  });
});

describe('archives as generation sets', () => {
  it('a .tar, .tar.gz, .tgz and .zip of a folder of CIFs are that folder', () => {
    const folder = comparable(setFromFolder('prediction', 'pred', predFiles));
    const entries: [string, Uint8Array][] = predFiles.map((f) => [`pred/${f.name}`, strToU8(f.text)]);
    const t = tar([['pred/.hidden.cif', strToU8('x')], ['__MACOSX/pred/._a.cif', strToU8('x')], ...entries]);
    expect(comparable(setFromZip('prediction', 'p.tar', t))).toEqual(folder);
    expect(comparable(setFromZip('prediction', 'p.tar.gz', gzipSync(t)))).toEqual(folder);
    expect(comparable(setFromZip('prediction', 'p.TGZ', gzipSync(t)))).toEqual(folder);
    expect(comparable(setFromZip('prediction', 'p.zip', zipSync(Object.fromEntries(entries))))).toEqual(folder);
  });

  it('subfolders repeating a file name are two structures with relative-path ids (tar, zip, folder)', () => {
    const cif = predFiles[0].text;
    const paths = ['mattergen/chemical_system/HfZnN2.cif', 'random_structure_search/chemical_system/HfZnN2.cif'];
    const want = ['mattergen/chemical_system/HfZnN2', 'random_structure_search/chemical_system/HfZnN2'];
    const t = tar(paths.map((p): [string, Uint8Array] => [`out/${p}`, strToU8(cif)]));
    expect(setFromZip('prediction', 'p.tar.gz', gzipSync(t)).map((s) => s.id)).toEqual(want);
    expect(setFromZip('prediction', 'p.zip', zipSync(Object.fromEntries(paths.map((p) => [p, strToU8(cif)])))).map((s) => s.id)).toEqual(
      want,
    );
    expect(
      setFromFolder(
        'prediction',
        'out',
        paths.map((name) => ({ name, text: cif })),
      ).map((s) => s.id),
    ).toEqual(want);
  });

  it('a gzipped set file or structure file is that file, named as the .gz', () => {
    const cif = predFiles[0].text;
    const one = setFromZip('prediction', 'x.cif.gz', gzipSync(strToU8(cif)));
    expect(comparable(one)).toEqual(comparable(setFromFolder('prediction', 'f', [{ name: 'x.cif', text: cif }])));
    expect(one[0].where).toBe('x.cif.gz');
    const extxyz = readFileSync(join(CSP, 'multi_pred.extxyz'), 'utf8');
    expect(setFromZip('prediction', 'multi.extxyz.gz', gzipSync(strToU8(extxyz))).length).toBeGreaterThan(1);
    expect(() => setFromZip('prediction', 'x.cif.gz', gzipSync(strToU8(cif)).subarray(0, 40))).toThrow(GenInputError);
    expect(() => setFromZip('prediction', 'evil.tgz', gzipSync(tar([['../x.cif', strToU8(cif)]])))).toThrow(
      'evil.tgz holds the entry "../x.cif", whose path leaves the archive\'s folder',
    );
  });
});

/** A CSV field, quoted as pandas writes one holding line breaks or quotes. */
const csvField = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** Chemeleon's results.csv layout (hspark1212/chemeleon chemeleon/scripts/evaluate.py): metrics, ref_structure, gen_structure_{n}. */
function chemeleonCsv(samples: (k: number, f: { name: string; text: string }) => string, n: number): string {
  const gen = Array.from({ length: n }, (_, k) => `gen_structure_${k}`);
  const lines = [['material_id', 'natoms', 'valid_samples', 'ref_structure', ...gen, 'mean_natoms'].join(',')];
  truthFiles.forEach((t, r) => {
    const row = [t.name.replace(/\.cif$/, ''), '5', '1.0', csvField(t.text)];
    for (let k = 0; k < n; k++) row.push(csvField(samples(k, predFiles[r])));
    lines.push([...row, '5.0'].join(','));
  });
  return lines.join('\n') + '\n';
}

describe("Chemeleon's results.csv", () => {
  it('reads truths and ID__n samples; refuses missing sample columns', () => {
    const sets = chemeleonSets(
      'results.csv',
      chemeleonCsv((k, f) => (k === 0 ? f.text : truthFiles[0].text), 2),
    )!;
    expect(sets.samples).toBe(2);
    expect(sets.truths.map((t) => t.id)).toEqual(cifNames.map((n) => n.replace(/\.cif$/, '')));
    expect(sets.preds.map((t) => t.id).slice(0, 2)).toEqual([`${sets.truths[0].id}__0`, `${sets.truths[0].id}__1`]);
    expect(chemeleonSets('x.csv', 'material_id,cif\nmp-1,x\n')).toBeNull();
    const gap = chemeleonCsv((_, f) => f.text, 3).replace('gen_structure_1', 'gen_structure_5');
    expect(() => chemeleonSets('results.csv', gap)).toThrow('results.csv has no "gen_structure_1" column but has "gen_structure_2"');
  });

  it('gen csp --pred results.csv (no --truth) gives the numbers of the same pairs as folders', async () => {
    const dirs = { p1: join(tmp, 'p1'), p2: join(tmp, 'p2'), t: join(tmp, 't') };
    for (const d of Object.values(dirs)) mkdirSync(d);
    truthFiles.forEach((f, r) => {
      writeFileSync(join(dirs.t, f.name), f.text);
      writeFileSync(join(dirs.p1, f.name), predFiles[r].text);
      const id = f.name.replace(/\.cif$/, '');
      writeFileSync(join(dirs.p2, `${id}__0.cif`), predFiles[r].text);
      writeFileSync(join(dirs.p2, `${id}__1.cif`), f.text);
    });
    writeFileSync(
      join(tmp, 'one.csv'),
      chemeleonCsv((_, f) => f.text, 1),
    );
    writeFileSync(
      join(tmp, 'two.csv.gz'),
      gzipSync(strToU8(chemeleonCsv((k, f) => (k === 0 ? f.text : truthFiles[predFiles.indexOf(f)].text), 2))),
    );
    const run = (args: string[]) => structlabInProcess(['gen', 'csp', ...args, '--workers', '0']);
    const [oneCsv, oneDirs, twoCsv, twoDirs] = await Promise.all([
      run(['--pred', join(tmp, 'one.csv')]),
      run(['--pred', dirs.p1, '--truth', dirs.t]),
      run(['--pred', join(tmp, 'two.csv.gz')]),
      run(['--pred', dirs.p2, '--truth', dirs.t, '--n-samples', '2']),
    ]);
    expect(oneDirs.code).toBe(0);
    expect(oneCsv.stdout).toBe(oneDirs.stdout);
    expect(twoDirs.code).toBe(0);
    expect(JSON.parse(twoDirs.stdout).n_samples).toBe(2);
    expect(twoCsv.stdout).toBe(twoDirs.stdout);
    const noTruth = await run(['--pred', dirs.p1]);
    expect(noTruth.code).toBe(2);
    expect(noTruth.stderr).toContain('gen csp needs --truth');
  }, 120_000);
});

describe('the CLI', () => {
  it('gen eval --pred x.tar.gz equals the same CIFs as a folder; a hostile tar exits 2 naming it', async () => {
    const dir = join(tmp, 'eval-folder');
    mkdirSync(dir);
    for (const f of predFiles) writeFileSync(join(dir, f.name), f.text);
    writeFileSync(join(tmp, 'crystallm.tar.gz'), gzipSync(tar(predFiles.map((f) => [`./crystallm/${f.name}`, strToU8(f.text)]))));
    const viaTar = await structlabInProcess(['gen', 'eval', '--pred', join(tmp, 'crystallm.tar.gz'), '--workers', '0']);
    const viaFolder = await structlabInProcess(['gen', 'eval', '--pred', dir, '--workers', '0']);
    expect(viaFolder.code).toBe(0);
    expect(viaTar.stdout).toBe(viaFolder.stdout);
    writeFileSync(join(tmp, 'evil.tar'), tar([['x.cif', ['2', '/etc/passwd']]]));
    const bad = await structlabInProcess(['gen', 'eval', '--pred', join(tmp, 'evil.tar')]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('evil.tar holds the entry "x.cif", a link');
  }, 120_000);

  it('info reads x.cif.gz as x.cif and a tar.gz as all its structures', async () => {
    writeFileSync(join(tmp, 'x.cif'), predFiles[0].text);
    writeFileSync(join(tmp, 'x.cif.gz'), gzipSync(strToU8(predFiles[0].text)));
    const [plain, gz] = await Promise.all([
      structlabInProcess(['info', join(tmp, 'x.cif')]),
      structlabInProcess(['info', join(tmp, 'x.cif.gz')]),
    ]);
    expect(plain.code).toBe(0);
    expect(gz.stdout.replaceAll(join(tmp, 'x.cif.gz'), 'F')).toBe(plain.stdout.replaceAll(join(tmp, 'x.cif'), 'F'));
    writeFileSync(join(tmp, 'three.tgz'), gzipSync(tar(predFiles.slice(0, 3).map((f) => [f.name, strToU8(f.text)]))));
    const three = await structlabInProcess(['info', join(tmp, 'three.tgz')]);
    expect(three.code).toBe(0);
    expect(three.stdout).toContain('"structures":');
    writeFileSync(join(tmp, 'cut.cif.gz'), gzipSync(strToU8(predFiles[0].text)).subarray(0, 50));
    const cut = await structlabInProcess(['info', join(tmp, 'cut.cif.gz')]);
    expect(cut.code).toBe(2);
    expect(cut.stderr.trim()).toMatch(/^.*cut\.cif\.gz is not a readable gzip file \([^\n]*$/);
  }, 120_000);
});

describe('the pages (src/browser/read-file.ts openContainers)', () => {
  it("open x.cif.gz as x.cif and MatterGen's generated_trajectories.zip as its gen_i.extxyz files", async () => {
    const frames = readFileSync(join(CSP, 'multi_pred.extxyz'), 'utf8');
    const zip = zipSync({ 'gen_0.extxyz': strToU8(frames), 'gen_1.extxyz': strToU8(frames), '__MACOSX/._gen_0.extxyz': strToU8('x') });
    const plain = new File([predFiles[0].text], 'y.cif');
    const files = await openContainers([
      new File([gzipSync(strToU8(predFiles[0].text))], 'x.cif.gz'),
      new File([zip], 'generated_trajectories.zip'),
      plain,
    ]);
    expect(files.map((f) => f.name)).toEqual(['x.cif', 'gen_0.extxyz', 'gen_1.extxyz', 'y.cif']);
    expect(await files[0].text()).toBe(predFiles[0].text);
    expect(await files[1].text()).toBe(frames);
    expect((files[2] as File & { webkitRelativePath: string }).webkitRelativePath).toBe('generated_trajectories.zip/gen_1.extxyz');
    expect(files[3]).toBe(plain);
    const evil = new File([gzipSync(tar([['../x.cif', strToU8('x')]]))], 'evil.tgz');
    await expect(openContainers([evil])).rejects.toThrow('evil.tgz holds the entry "../x.cif", whose path leaves the archive\'s folder');
  });
});
