/**
 * The store-only zip writer (src/core/io/zip-writer.ts) against Info-ZIP's `unzip` and Python's zipfile (its CRC
 * check, names, sizes, method) and the lab's own reader.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeZip } from '../../src/core/io/zip-writer.ts';
import { readZip } from '../../src/core/io/zip.ts';

const dir = mkdtempSync(join(tmpdir(), 'structlab-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entries = [1, 2, 3].map((k) => ({
  name: `frame-${String(k).padStart(4, '0')}.png`,
  data: Uint8Array.from({ length: 1000 * k }, (_, i) => (i * 7 + k) & 0xff),
}));
const date = new Date(2026, 2, 14, 15, 9, 26);

describe('writeZip', () => {
  const bytes = writeZip(entries, date);
  const path = join(dir, 'frames.zip');
  writeFileSync(path, bytes);

  it('unzip -l lists the entries, their sizes and the date', () => {
    const listing = execFileSync('unzip', ['-l', path], { encoding: 'utf8' });
    for (const e of entries) expect(listing).toMatch(new RegExp(`\\s${e.data.length}\\s+2026-03-14 15:09\\s+${e.name}`));
    expect(listing).toMatch(/6000\s+3 files/);
    execFileSync('unzip', ['-tq', path]); // CRCs checked; throws on a bad archive
  });

  it("Python's zipfile reads the same names, stored, with matching CRCs and bytes", () => {
    const script = [
      'import sys, zipfile, json, hashlib',
      'z = zipfile.ZipFile(sys.argv[1])',
      'assert z.testzip() is None',
      'print(json.dumps([[i.filename, i.compress_type, i.file_size, hashlib.sha256(z.read(i)).hexdigest()] for i in z.infolist()]))',
    ].join('\n');
    const rows = JSON.parse(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }));
    expect(rows).toEqual(entries.map((e) => [e.name, 0, e.data.length, createHash('sha256').update(e.data).digest('hex')]));
  });

  it("the lab's reader reads it back", () => {
    const back = readZip(bytes, 'frames.zip');
    expect(back.map((e) => e.path)).toEqual(entries.map((e) => e.name));
    back.forEach((e, k) => expect(Buffer.from(e.bytes).equals(Buffer.from(entries[k].data))).toBe(true));
  });

  it('UTF-8 names carry the language-encoding flag', () => {
    const utf8 = writeZip([{ name: 'Ångström.txt', data: new Uint8Array([65]) }], date);
    const p = join(dir, 'utf8.zip');
    writeFileSync(p, utf8);
    const names = execFileSync('python3', ['-c', 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).namelist()[0])', p], {
      encoding: 'utf8',
    });
    expect(names.trim()).toBe('Ångström.txt');
  });
});
