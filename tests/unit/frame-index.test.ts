/**
 * The chunked frame index (src/core/io/frame-index.ts) against the whole-file reader (parseStructureFile) as the
 * independent method: the same frames, atom counts, header values and volumes wherever chunk boundaries fall; each
 * frame's byte range read alone parses to the reader's frame; CRLF files; truncated and bad counts refused as the
 * reader refuses them.
 */
import { describe, expect, it } from 'vitest';
import {
  bytesReader,
  frameFormatFor,
  indexFrames,
  indexSeries,
  naturalCompare,
  readFrame,
  XYZ_FRAMES,
} from '../../src/core/io/frame-index.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { LimitError, overrideLimits, resetLimits } from '../../src/core/limits.ts';
import { latticeOf, packStructure } from '../../src/core/structure/packed.ts';

const energy = (k: number) => -10 + 0.01 * k + 0.5 * Math.sin(k / 7);
const frameText = (k: number, atoms: number) => {
  const a = 4 + 0.05 * k;
  const lines = [
    `${atoms}`,
    `Lattice="${a} 0 0 0 ${a + 0.5} 0 0.1 0 ${a}" Properties=species:S:1:pos:R:3 energy=${energy(k)} note="α→β" step=${k} pbc="T T T"`,
  ];
  for (let i = 0; i < atoms; i++) lines.push(`${i % 2 ? 'Cl' : 'Na'} ${0.1 * i} ${0.2 * k} ${(i * k) % 3}`);
  return lines.join('\n') + '\n';
};
/** Frames of different sizes (1 to 6 atoms), with a blank line between two of them and multi-byte text in a header. */
const TRAJ = Array.from({ length: 12 }, (_, k) => frameText(k, 1 + (k % 6)) + (k === 5 ? '\n' : '')).join('');
const enc = new TextEncoder();
const dec = new TextDecoder();

async function indexOf(text: string, chunkBytes?: number) {
  const bytes = enc.encode(text);
  return { bytes, index: await indexFrames(bytesReader(bytes), bytes.length, XYZ_FRAMES, { chunkBytes }) };
}

describe('frame index of an extended XYZ', () => {
  const whole = parseStructureFile(TRAJ, 'md.extxyz');
  if (!whole.ok) throw new Error(whole.error);
  const packed = whole.structures.map(packStructure);

  it('equals the whole-file reader wherever the chunks break (1 byte to 4 MiB)', async () => {
    for (const chunk of [1, 2, 3, 5, 7, 16, 61, 256, undefined]) {
      const { bytes, index } = await indexOf(TRAJ, chunk);
      expect(index.frames.length, `chunk ${chunk}`).toBe(whole.structures.length);
      expect(index.frames.map((f) => f.atoms)).toEqual(whole.structures.map((s) => s.sites.length));
      const series = indexSeries(index);
      expect(series.map((s) => s.name)).toEqual(['energy', 'step', 'volume (Å³)']);
      expect(series[0].values).toEqual(packed.map((p) => p.info!.find((x) => x.name === 'energy')!.value));
      expect(series[1].values).toEqual(packed.map((_, k) => k));
      series[2].values.forEach((v, k) => expect(v).toBeCloseTo(latticeOf(packed[k])!.volume, 10));
      // Each frame's bytes read alone are the reader's frame k; its first line is where the reader counts it from.
      index.frames.forEach((f, k) => {
        const alone = readFrame(dec.decode(bytes.subarray(f.offset, f.offset + f.length)), 'md.extxyz', index, k);
        expect(alone, `frame ${k}`).toEqual(whole.structures[k]);
        expect(TRAJ.split('\n')[f.line - 1]).toMatch(/^\d+$|^$/);
      });
      expect(index.frames.at(-1)!.offset + index.frames.at(-1)!.length).toBe(bytes.length);
    }
  });

  it('reads CRLF files, a last line without a newline, and plain XYZ (no values)', async () => {
    const crlf = TRAJ.replace(/\n/g, '\r\n');
    const { index } = await indexOf(crlf, 5);
    expect(indexSeries(index)[0].values).toEqual(packed.map((p) => p.info!.find((x) => x.name === 'energy')!.value));
    expect(index.frames.map((f) => f.atoms)).toEqual(whole.structures.map((s) => s.sites.length));
    const plain = '2\nwater-ish\nO 0 0 0\nH 0 0 1\n1\n\nH 5 5 5';
    const p = await indexOf(plain, 3);
    expect(p.index.frames.map((f) => [f.atoms, f.values, f.volume, f.line])).toEqual([
      [2, [], null, 1],
      [1, [], null, 5],
    ]);
    expect(indexSeries(p.index)).toEqual([]);
  });

  it('refuses a truncated last frame and bad counts with the reader’s sentence and line', async () => {
    const cut = TRAJ.slice(0, TRAJ.lastIndexOf('Na'));
    const ref = parseStructureFile(cut, 'md.extxyz');
    expect(ref.ok).toBe(false);
    await expect(indexOf(cut, 7)).rejects.toMatchObject({ message: !ref.ok && ref.error, line: !ref.ok && ref.line });
    for (const bad of ['2\nx\nH 0 0 0\nH 0 0 1\nabc\nx\n', '-1\nx\n', '1e3\nx\n', '3']) {
      const r = parseStructureFile(bad, 'bad.xyz');
      expect(r.ok, bad).toBe(false);
      await expect(indexOf(bad, 2), bad).rejects.toMatchObject({ message: !r.ok && r.error, line: !r.ok && r.line });
    }
    await expect(indexOf('')).rejects.toThrow('The file holds no frames.');
    // A bad atom line is found when its frame is read, on the whole file's line.
    const badAtom = TRAJ.replace('Cl 0.1 0.2', 'Cl 0.1 zz');
    const r = parseStructureFile(badAtom, 'md.extxyz');
    const { bytes, index } = await indexOf(badAtom);
    const f = index.frames[1];
    expect(() => readFrame(dec.decode(bytes.subarray(f.offset, f.offset + f.length)), 'md.extxyz', index, 1)).toThrow(
      expect.objectContaining({ message: !r.ok && r.error, line: !r.ok && r.line }),
    );
  });

  it('holds frames to the atoms limit and the whole to trajectoryBytes and trajectoryFrames', async () => {
    await expect(indexOf('300000\nx\n')).rejects.toThrow(/The XYZ frame has 300,000 atoms; the limit is 200,000 atoms/);
    const bytes = enc.encode(TRAJ);
    try {
      overrideLimits({ trajectoryFrames: 3 });
      await expect(indexFrames(bytesReader(bytes), bytes.length, XYZ_FRAMES)).rejects.toThrow(/limit is 3 frames/);
      overrideLimits({ trajectoryBytes: 100 });
      await expect(indexFrames(bytesReader(bytes), bytes.length, XYZ_FRAMES)).rejects.toBeInstanceOf(LimitError);
      overrideLimits({ trajectoryLineBytes: 20, trajectoryBytes: 1e9, trajectoryFrames: 1e6 });
      await expect(indexFrames(bytesReader(bytes), bytes.length, XYZ_FRAMES)).rejects.toThrow(/Line 2 has \d+ bytes; the limit is 20/);
    } finally {
      resetLimits();
    }
  });

  it('is linear: 2,000 frames of 50 atoms index in one pass, a frame at a time', async () => {
    const big = Array.from({ length: 2000 }, (_, k) => frameText(k, 50)).join('');
    const reads: number[] = [];
    const bytes = enc.encode(big);
    const index = await indexFrames(
      (s, e) => {
        reads.push(e - s);
        return Promise.resolve(bytes.subarray(s, e));
      },
      bytes.length,
      XYZ_FRAMES,
      { chunkBytes: 65_536 },
    );
    expect(index.frames.length).toBe(2000);
    // Every byte is read once.
    expect(reads.reduce((a, b) => a + b, 0)).toBe(bytes.length);
  });
});

describe('frame index of a VASP XDATCAR (the format hook of src/core/io/xdatcar.ts)', () => {
  const header = (a: number) => `run\n1.0\n${a} 0 0\n0 ${a} 0\n0 0 ${a + 1}\nNa Cl\n1 2\n`;
  const block = (k: number) => `Direct configuration= ${k + 1}\n0 0 0\n0.5 0.5 ${0.1 * k}\n0.25 0.5 0.5\n`;
  const fixed = header(4) + Array.from({ length: 5 }, (_, k) => block(k)).join('');
  const variable = Array.from({ length: 5 }, (_, k) => header(4 + 0.1 * k) + block(k)).join('');

  for (const [kind, text] of [
    ['fixed cell', fixed],
    ['variable cell', variable],
  ] as const) {
    it(`${kind}: every frame read alone (shared header in front) equals the whole-file reader's, chunks anywhere`, async () => {
      const whole = parseStructureFile(text, 'XDATCAR');
      if (!whole.ok) throw new Error(whole.error);
      const bytes = enc.encode(text);
      for (const chunk of [1, 3, 17, undefined]) {
        const format = frameFormatFor('md_XDATCAR');
        const index = await indexFrames(bytesReader(bytes), bytes.length, format!, { chunkBytes: chunk });
        expect(index.frames.map((f) => f.atoms)).toEqual([3, 3, 3, 3, 3]);
        const head = index.header ? dec.decode(bytes.subarray(index.header.offset, index.header.offset + index.header.length)) : '';
        index.frames.forEach((f, k) => {
          const alone = readFrame(head + dec.decode(bytes.subarray(f.offset, f.offset + f.length)), 'XDATCAR', index, k);
          expect({ ...alone, name: '' }, `${kind} frame ${k}, chunk ${chunk}`).toEqual({ ...whole.structures[k], name: '' });
          expect(f.volume).toBeCloseTo(latticeOf(packStructure(whole.structures[k]))!.volume, 9);
        });
      }
    });
  }

  it('streams the names the lab reads as frames, natural order for folders', () => {
    expect(['a.xyz', 'b.EXTXYZ', 'XDATCAR', 'run1.xdatcar', 'c.cif', 'POSCAR'].map((n) => frameFormatFor(n)?.name ?? null)).toEqual([
      'xyz',
      'xyz',
      'xdatcar',
      'xdatcar',
      null,
      null,
    ]);
    const names = ['frame_10.cif', 'frame_2.cif', 'frame_1.cif', 'frame_02.cif', 'Frame_3.cif', 'frame_99999999999999999999.cif'];
    expect([...names].sort(naturalCompare)).toEqual([
      'Frame_3.cif',
      'frame_1.cif',
      'frame_2.cif',
      'frame_02.cif',
      'frame_10.cif',
      'frame_99999999999999999999.cif',
    ]);
  });
});
