/** JSON Lines of pymatgen structures read as frames (src/core/io/jsonl-frames.ts); expected values by hand. */
import { describe, expect, it } from 'vitest';
import { parseJsonlFrames, writeJsonlFrame } from '../../src/core/io/jsonl-frames.ts';
import { detectFormat, parseStructureFile } from '../../src/core/io/registry.ts';
import { ParseError } from '../../src/core/io/types.ts';
import { LIMITS, overrideLimits, resetLimits } from '../../src/core/limits.ts';
import { errorOf } from '../expect.ts';

/** A `Structure.as_dict()` line as pymatgen writes it (its keys and nesting), Cu at (x, 0, 0) in a 3.6 Å cube. */
const line = (x: number, energy?: number) =>
  JSON.stringify({
    '@module': 'pymatgen.core.structure',
    '@class': 'Structure',
    charge: 0,
    lattice: {
      matrix: [
        [3.6, 0, 0],
        [0, 3.6, 0],
        [0, 0, 3.6],
      ],
      pbc: [true, true, true],
      a: 3.6,
      b: 3.6,
      c: 3.6,
      alpha: 90,
      beta: 90,
      gamma: 90,
      volume: 46.656,
    },
    properties: energy === undefined ? {} : { energy },
    sites: [
      { species: [{ element: 'Cu', occu: 1 }], abc: [x / 3.6, 0, 0], xyz: [x, 0, 0], label: 'Cu', properties: {} },
      { species: [{ element: 'Au', occu: 1 }], abc: [0.5, 0.5, 0.5], xyz: [1.8, 1.8, 1.8], label: 'Au', properties: {} },
    ],
  });

describe('JSONL of structures as frames', () => {
  it('reads one structure per line, skipping blank lines, with its properties', () => {
    const text = `${line(0, -3.5)}\n\n${line(0.1, -3.25)}\n${JSON.stringify({ id: 'x', structure: JSON.parse(line(0.2)) })}\n`;
    const { structures } = parseJsonlFrames(text);
    expect(structures.map((s) => s.name)).toEqual(['frame 1', 'frame 2', 'frame 3']);
    expect(structures.map((s) => s.sites[0].xyz[0])).toEqual([0, 0.1, 0.2]);
    expect(structures.map((s) => s.properties?.energy)).toEqual([-3.5, -3.25, undefined]);
  });

  it('is chosen by the .jsonl name and by content (two structure lines), not read as one JSON document', () => {
    const text = `${line(0)}\n${line(0.1)}\n`;
    expect(detectFormat('traj.jsonl', text)?.id).toBe('jsonl');
    expect(detectFormat('traj.txt', text)?.id).toBe('jsonl');
    expect(detectFormat('one.txt', `${line(0)}\n`)?.id).toBe('pymatgen-json');
    const r = parseStructureFile(text, 'frames.jsonl');
    expect(r.ok && r.structures.length).toBe(2);
  });

  it('refuses a bad line by its number, in one sentence', () => {
    const bad = (text: string): ParseError => {
      const e = errorOf(() => parseJsonlFrames(text), ParseError);
      expect(e.message).toMatch(/^[A-Z].*\.$/);
      return e;
    };
    expect(bad(`${line(0)}\n{"sites": [1]\n`).line).toBe(2);
    const noSpecies = bad(`${line(0)}\n${line(0)}\n${line(0).replace('"species":[{"element":"Au","occu":1}]', '"species":[]')}\n`);
    expect(noSpecies.line).toBe(3);
    expect(noSpecies.message).toMatch(/no "species" list/);
    expect(bad('\n\n').message).toMatch(/holds no structure/);
  });

  it('holds the file to LIMITS.fileStructures and fileAtoms', () => {
    try {
      overrideLimits({ fileStructures: 2 });
      const e = errorOf(() => parseJsonlFrames(`${line(0)}\n${line(0)}\n${line(0)}\n`), ParseError);
      expect(e.line).toBe(3);
      expect(e.message).toMatch(/the limit is 2 structures/);
      overrideLimits({ fileStructures: 50, fileAtoms: 3 });
      expect(() => parseJsonlFrames(`${line(0)}\n${line(0)}\n`)).toThrow(/the limit is 3 atoms/);
    } finally {
      resetLimits();
    }
    expect(LIMITS.fileAtoms).toBe(1_000_000);
  });

  it('writes one line that reads back', () => {
    const [s] = parseJsonlFrames(`${line(0.3, -1)}\n`).structures;
    const text = writeJsonlFrame(s);
    expect(text.split('\n')).toHaveLength(2);
    const [back] = parseJsonlFrames(text).structures;
    expect(back.sites.map((x) => x.xyz)).toEqual(s.sites.map((x) => x.xyz));
  });
});
