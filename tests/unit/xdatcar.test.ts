/**
 * VASP XDATCAR reader (src/core/io/xdatcar.ts): fixed and variable cell, scale factors, Cartesian blocks, VASP 4
 * headers, bad input by line, the frame boundaries and the streamed index's hooks. The Cartesian positions and cells
 * of FIXED and VARIABLE were printed by ASE 3.22.1 (`ase.io.read(f, index=':', format='vasp-xdatcar')`, positions and
 * cell.array), an independent reader; the rest is worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { parseXdatcar, writeXdatcar, xdatcarFrameBoundaries, xdatcarFrameFormat } from '../../src/core/io/xdatcar.ts';
import { detectFormat, parseStructureFile } from '../../src/core/io/registry.ts';
import { bytesReader, indexFrames, readFrame } from '../../src/core/io/frame-index.ts';
import { ParseError } from '../../src/core/io/types.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { errorOf, expectVec } from '../expect.ts';

const FIXED = `SiO2 md
   1.05
     4.9000000000    0.0000000000    0.0000000000
    -2.4500000000    4.2435244785    0.0000000000
     0.3000000000    0.2000000000    5.4000000000
   Si   O
     1     2
Direct configuration=     1
  0.10000000  0.20000000  0.30000000
  0.50000000  0.40000000  0.90000000
  0.95000000  0.05000000  0.50000000
Direct configuration=     2
  0.11000000  0.21000000  0.31000000
  0.52000000  0.41000000  0.88000000
  0.96000000  0.02000000  0.49000000
`;

const HEADER2 = `unknown system
           1
     3.700000    0.100000    0.000000
     0.000000    3.650000    0.050000
     0.020000    0.000000    3.550000
   Cu   Au
     3     1
`;
const BLOCK2 = `Direct configuration=     2
   0.01000000   0.49000000   0.51000000
   0.50000000   0.02000000   0.48000000
   0.49000000   0.50000000   0.01000000
   0.99000000   0.00000000   0.99000000
`;
const VARIABLE = `unknown system
           1
     3.600000    0.000000    0.000000
     0.000000    3.600000    0.000000
     0.000000    0.000000    3.600000
   Cu   Au
     3     1
Direct configuration=     1
   0.00000000   0.50000000   0.50000000
   0.50000000   0.00000000   0.50000000
   0.50000000   0.50000000   0.00000000
   0.00000000   0.00000000   0.00000000
${HEADER2}${BLOCK2}`;

/** ASE 3.22.1's reading of FIXED and VARIABLE (see the header comment). */
const ASE_FIXED = {
  cell: [
    [5.1450000000000005, 0.0, 0.0],
    [-2.5725000000000002, 4.455700702425, 0.0],
    [0.315, 0.21000000000000002, 5.670000000000001],
  ],
  positions: [
    [
      [0.09449999999999999, 0.9541401404850002, 1.7010000000000003],
      [1.8270000000000002, 1.9712802809700003, 5.103000000000001],
      [4.916625, 0.32778503512125, 2.8350000000000004],
    ],
    [
      [0.12337500000000004, 1.00079714750925, 1.7577000000000003],
      [1.8978750000000002, 2.01163728799425, 4.989600000000001],
      [5.0421000000000005, 0.19201401404850002, 2.7783],
    ],
  ],
};
const ASE_VARIABLE = {
  cells: [
    [
      [3.6, 0.0, 0.0],
      [0.0, 3.6, 0.0],
      [0.0, 0.0, 3.6],
    ],
    [
      [3.7, 0.1, 0.0],
      [0.0, 3.65, 0.05],
      [0.02, 0.0, 3.55],
    ],
  ],
  positions: [
    [
      [0.0, 1.8, 1.8],
      [1.8, 0.0, 1.8],
      [1.8, 1.8, 0.0],
      [0.0, 0.0, 0.0],
    ],
    [
      [0.047200000000000006, 1.7894999999999999, 1.835],
      [1.8596000000000001, 0.123, 1.7049999999999998],
      [1.8132, 1.8739999999999999, 0.0605],
      [3.6828000000000003, 0.099, 3.5145],
    ],
  ],
};

/** Per-component absolute tolerance against ASE's printed values and the hand-worked ones. */
const TOL = 1e-9;
const symbols = (s: Structure) => s.sites.map((x) => Object.keys(x.species)[0]);

const parseError = (text: string) => errorOf(() => parseXdatcar(text), ParseError);

describe('XDATCAR reader', () => {
  it('reads a fixed-cell file as one structure per configuration, as ASE reads it', () => {
    const { structures } = parseXdatcar(FIXED);
    expect(structures.map((s) => s.name)).toEqual(['frame 1', 'frame 2']);
    structures.forEach((s, k) => {
      expect(symbols(s)).toEqual(['Si', 'O', 'O']);
      s.lattice!.matrix.forEach((row, i) => expectVec(row, ASE_FIXED.cell[i], TOL, `frame ${k + 1} cell row ${i}`));
      s.sites.forEach((site, i) => expectVec(site.xyz, ASE_FIXED.positions[k][i], TOL, `frame ${k + 1} site ${i + 1}`));
    });
    expect(structures[0].properties?.comment).toBe('SiO2 md');
  });

  it('reads a variable-cell file (the header before every configuration), as ASE reads it', () => {
    const { structures } = parseXdatcar(VARIABLE);
    expect(structures).toHaveLength(2);
    structures.forEach((s, k) => {
      expect(symbols(s)).toEqual(['Cu', 'Cu', 'Cu', 'Au']);
      s.lattice!.matrix.forEach((row, i) => expectVec(row, ASE_VARIABLE.cells[k][i], TOL, `frame ${k + 1} cell row ${i}`));
      s.sites.forEach((site, i) => expectVec(site.xyz, ASE_VARIABLE.positions[k][i], TOL, `frame ${k + 1} site ${i + 1}`));
    });
  });

  it('takes a negative scale as the cell volume and scales Cartesian blocks', () => {
    // The raw cell 2×2×2 has volume 8; -64 asks for volume 64: factor 2, a 4 Å cube. Cartesian (1, 1, 1) × 2 = (2, 2, 2).
    const text = 'c\n-64\n2 0 0\n0 2 0\n0 0 2\nNa\n1\nCartesian configuration= 1\n1 1 1\n';
    const [s] = parseXdatcar(text).structures;
    expect(s.lattice!.volume).toBeCloseTo(64, 10);
    expectVec(s.sites[0].xyz, [2, 2, 2], TOL);
    expectVec(s.sites[0].frac!, [0.5, 0.5, 0.5], TOL);
  });

  it('reads a VASP 4 header only when the title names the elements', () => {
    const body = '1\n3 0 0\n0 3 0\n0 0 3\n1 1\nDirect configuration= 1\n0 0 0\n0.5 0.5 0.5\n';
    expect(symbols(parseXdatcar(`NaCl run\n${body}`).structures[0])).toEqual(['Na', 'Cl']);
    const e = parseError(`my run\n${body}`);
    expect(e.message).toMatch(/no species line \(VASP 4\)/);
    expect(e.line).toBe(6);
  });

  it('accepts a header repeated with no configuration between (a variable-cell frame cut out behind the first header)', () => {
    const head = VARIABLE.slice(0, VARIABLE.indexOf('Direct'));
    const [s] = parseXdatcar(head + HEADER2 + BLOCK2).structures;
    s.lattice!.matrix.forEach((row, i) => expectVec(row, ASE_VARIABLE.cells[1][i], TOL));
    s.sites.forEach((site, i) => expectVec(site.xyz, ASE_VARIABLE.positions[1][i], TOL));
  });

  it('refuses bad input with the line', () => {
    expect(parseError('').line).toBe(1);
    const cut = FIXED.split('\n').slice(0, 14).join('\n');
    const short = parseError(cut);
    expect(short.message).toMatch(/Expected 3 atom positions after the configuration on line 12 but found 2/);
    expect(short.line).toBe(15);
    const bad = parseError(FIXED.replace('0.52000000', '0.5x'));
    expect(bad.message).toMatch(/not a number/);
    expect(bad.line).toBe(14);
    const badCell = parseError(FIXED.replace('-2.4500000000', 'abc'));
    expect(badCell.line).toBe(4);
    expect(parseError(FIXED.slice(0, FIXED.indexOf('Direct'))).message).toMatch(/no configuration follows/);
    expect(parseError('t\n1\n1 0 0\n0 1 0\n0 0 1\nNa\nDirect configuration= 1\n0 0 0\n').message).toMatch(/atom counts/);
  });

  it('fails only with a ParseError of one sentence on damaged files (lines cut, dropped, garbled)', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const text of [FIXED, VARIABLE]) {
      const lines = text.split('\n');
      for (let k = 0; k < 200; k++) {
        const c = [...lines];
        const at = Math.floor(rnd() * c.length);
        if (k % 3 === 0) c.splice(at, 1);
        else if (k % 3 === 1) c[at] = c[at].replace(/\S+/, 'x#1');
        else c.length = at;
        try {
          parseXdatcar(c.join('\n'));
        } catch (e) {
          expect(e, `damage ${k}`).toBeInstanceOf(ParseError);
          expect((e as Error).message).toMatch(/^[A-Z].*\.$/);
        }
      }
    }
  });

  it('finds the frame boundaries: each frame header and block as text ranges', () => {
    const frames = xdatcarFrameBoundaries(VARIABLE);
    expect(frames.map((f) => [f.headerLine, f.line, f.atoms])).toEqual([
      [1, 8, 4],
      [13, 20, 4],
    ]);
    expect(VARIABLE.slice(frames[1].header.start, frames[1].header.end)).toBe(HEADER2);
    expect(VARIABLE.slice(frames[1].block.start, frames[1].block.end)).toBe(BLOCK2);
    const fixed = xdatcarFrameBoundaries(FIXED);
    expect(fixed[1].header).toEqual(fixed[0].header);
    expect(FIXED.slice(fixed[1].block.start, fixed[1].block.end).split('\n')[0]).toBe('Direct configuration=     2');
  });

  it('is detected by name and by content, ahead of POSCAR', () => {
    expect(detectFormat('run/XDATCAR', FIXED)?.id).toBe('xdatcar');
    expect(detectFormat('traj.txt', FIXED)?.id).toBe('xdatcar');
    const r = parseStructureFile(VARIABLE, 'XDATCAR');
    expect(r.ok && r.structures.length).toBe(2);
  });

  it('writes one frame that reads back', () => {
    const s = parseXdatcar(VARIABLE).structures[1];
    const [back] = parseXdatcar(writeXdatcar(s)).structures;
    expect(symbols(back)).toEqual(symbols(s));
    back.sites.forEach((site, i) => expectVec(site.xyz, s.sites[i].xyz, 1e-12));
  });

  it('indexes in chunks with the streamed index (src/core/io/frame-index.ts) and reads each frame as the whole file does', async () => {
    for (const text of [FIXED, VARIABLE]) {
      const bytes = new TextEncoder().encode(text);
      const index = await indexFrames(bytesReader(bytes), bytes.length, xdatcarFrameFormat(), { chunkBytes: 7 });
      const whole = parseXdatcar(text).structures;
      expect(index.frames).toHaveLength(whole.length);
      index.frames.forEach((f, k) => {
        const head = index.header ? text.slice(index.header.offset, index.header.offset + index.header.length) : '';
        const s = readFrame(head + text.slice(f.offset, f.offset + f.length), 'XDATCAR', index, k);
        expect(f.volume).toBeCloseTo(whole[k].lattice!.volume, 9);
        s.sites.forEach((site, i) => expectVec(site.xyz, whole[k].sites[i].xyz, 1e-12));
      });
    }
  });
});
