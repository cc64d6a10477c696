/**
 * Atom labels' pure half (src/viewer/label-layout.ts): which atoms are labelled (every drawn one in a small scene; in a
 * large one the picks and the atoms nearest the last pick, checked against a full sort), their texts, the atlas packing
 * and the glyph quads; and the labels setting's sanitizer (a mode outside the pattern keeps the default) and view link.
 */
import { describe, expect, it } from 'vitest';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { p1Cif } from '../cif.ts';
import { packStructure } from '../../src/core/structure/packed.ts';
import { sanitizeSettings } from '../../src/state/settings.ts';
import { DEFAULT_SETTINGS, labelMode } from '../../src/viewer/view-settings.ts';
import { readViewLink, viewLinkHash } from '../../src/state/structure-view.ts';
import {
  LABEL_MAX_CHARS,
  atomLabelText,
  compactNumber,
  glyphsOf,
  labelledAtoms,
  layoutLabels,
  packAtlas,
  siteLabelTexts,
} from '../../src/viewer/label-layout.ts';

const read = (text: string, name: string) => {
  const r = parseStructureFile(text, name);
  if (!r.ok) throw new Error(r.error);
  return packStructure(r.structures[0]);
};

/** A pseudo-random cloud (fixed seed): positions in a 40 Å box. */
function cloud(n: number): Float32Array {
  let s = 12345;
  const next = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 40;
  return Float32Array.from({ length: 3 * n }, next);
}

describe('labelled atoms', () => {
  it('labels every drawn atom of a small scene, skipping hidden ones (radius 0)', () => {
    const radii = Float32Array.from([0.5, 0, 0.5, 0.7]);
    expect(Array.from(labelledAtoms(cloud(4), radii, [], 10))).toEqual([0, 2, 3]);
  });

  it('labels nothing in a large scene until an atom is picked', () => {
    const n = 500;
    expect(labelledAtoms(cloud(n), new Float32Array(n).fill(0.5), [], 100)).toHaveLength(0);
  });

  it('labels the picks and the atoms nearest the last pick in a large scene, as a full sort finds them', () => {
    const n = 3000;
    const pos = cloud(n);
    const radii = new Float32Array(n).fill(0.5);
    radii[17] = 0; // hidden: never labelled
    const picks = [5, 2999, 1234];
    const got = Array.from(labelledAtoms(pos, radii, picks, 1000, 10));
    const last = 1234;
    const d2 = (i: number) =>
      (pos[3 * i] - pos[3 * last]) ** 2 + (pos[3 * i + 1] - pos[3 * last + 1]) ** 2 + (pos[3 * i + 2] - pos[3 * last + 2]) ** 2;
    const nearest = Array.from({ length: n }, (_, i) => i)
      .filter((i) => i !== 17)
      .sort((a, b) => d2(a) - d2(b))
      .slice(0, 10);
    expect(nearest[0]).toBe(last);
    expect(got).toEqual([...new Set([...picks, ...nearest])].sort((a, b) => a - b));
  });

  it('ignores picks that are not drawn atoms', () => {
    const n = 50;
    expect(Array.from(labelledAtoms(cloud(n), new Float32Array(n).fill(1), [-1, 1.5, 99, 7], 10, 1))).toEqual([7]);
  });
});

describe('label texts', () => {
  const cif = p1Cif('x', 4, ['Na1 Na 0 0 0', 'Cl7 Cl 0.5 0.5 0.5']);
  const structure = read(cif, 'x.cif');
  // Two drawn atoms per site, as a supercell draws them.
  const src = { natoms: 4, element: [0, 1, 0, 1], elements: ['Na', 'Cl'], site: [0, 1, 0, 1] };

  it('index, element and per-site texts', () => {
    expect(atomLabelText(labelMode('index'), 3, src, null)).toBe('3');
    expect(atomLabelText(labelMode('element'), 3, src, null)).toBe('Cl');
    const sites = siteLabelTexts(labelMode('site'), structure, null);
    expect(sites).toEqual(['Na1', 'Cl7']);
    expect(atomLabelText(labelMode('site'), 2, src, sites)).toBe('Na1');
    expect(siteLabelTexts(labelMode('wyckoff'), structure, ['a', 'b'])).toEqual(['a', 'b']);
    expect(atomLabelText(labelMode('wyckoff'), 0, src, null)).toBe('');
    expect(atomLabelText(labelMode('none'), 0, src, sites)).toBe('');
  });

  it('site labels fall back to element and site number; properties give their values; long texts are cut', () => {
    const xyz =
      '2\nLattice="5 0 0 0 5 0 0 0 5" Properties=species:S:1:pos:R:3:forces:R:3:q:R:1\n' +
      'Na 0 0 0 0.1 -2 30000 0.5\nCl 1 1 1 0 0 0 -1.23456\n';
    const p = read(xyz, 'f.extxyz');
    expect(siteLabelTexts(labelMode('site'), p, null)).toEqual(['Na1', 'Cl2']);
    expect(siteLabelTexts(labelMode('prop:forces'), p, null)).toEqual(['0.1 -2 30000', '0 0 0']);
    expect(siteLabelTexts(labelMode('prop:q'), p, null)).toEqual(['0.5', '-1.23']);
    expect(siteLabelTexts(labelMode('prop:absent'), p, null)).toBeNull();
    expect(compactNumber(NaN)).toBe('—');
    const long = atomLabelText(labelMode('site'), 0, { ...src, site: [0] }, ['x'.repeat(100)]);
    expect(Array.from(long)).toHaveLength(LABEL_MAX_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('glyph atlas and quads', () => {
  it('packs the distinct glyphs in rows, padded, inside the width', () => {
    const glyphs = glyphsOf(['Na1', 'Cl7', 'aN', 'é']);
    expect(glyphs).toEqual(['1', '7', 'C', 'N', 'a', 'l', 'é']);
    const atlas = packAtlas(glyphs, [6, 6, 16, 16, 8, 2, 8], 40, 2, 50, 4); // cells 10, 10, 20, 20, 12, 6, 12 wide
    const cells = [...atlas.cells.values()];
    for (const c of cells) expect(c.x + c.width).toBeLessThanOrEqual(50);
    for (let a = 0; a < cells.length; a++)
      for (let b = a + 1; b < cells.length; b++) {
        const [p, q] = [cells[a], cells[b]];
        const overlap = p.x < q.x + q.width + 4 && q.x < p.x + p.width + 4 && p.y < q.y + 40 + 4 && q.y < p.y + 40 + 4;
        expect(overlap, `${glyphs[a]} ${glyphs[b]}`).toBe(false);
      }
    expect(atlas.cells.get('C')!.advance).toBe(0.4);
    expect(atlas.cells.get('C')!.width).toBe(20);
    expect(atlas.height).toBe(Math.max(...cells.map((c) => c.y)) + 44);
  });

  it('lays each text out on one line centred on its atom, glyph after glyph by advance, with their texture cells', () => {
    const atlas = packAtlas(['1', 'N', 'a'], [10, 20, 10], 40, 4, 1024, 4); // cells 18, 28, 18 px: 4 px margins
    const q = layoutLabels(['Na', '1', 'Nx'], atlas); // 'x' is not in the atlas: no quad, no room
    expect(Array.from(q.label)).toEqual([0, 0, 1, 2]);
    // 'Na': advances 0.5 + 0.25 line heights, centred: pen from -0.375; each cell starts a margin (0.1) before its pen.
    const expected = [-0.475, -0.5, 0.225, -0.5, 0.225, 0.5, -0.475, 0.5, 0.025, -0.5, 0.475, -0.5, 0.475, 0.5, 0.025, 0.5];
    Array.from(q.offsets.subarray(0, 16)).forEach((v, k) => expect(v).toBeCloseTo(expected[k], 6));
    expect(q.offsets[16]).toBeCloseTo(-0.125 - 0.1, 6);
    expect(q.offsets[24]).toBeCloseTo(-0.25 - 0.1, 6);
    const n = atlas.cells.get('N')!;
    expect(q.uvs[0]).toBeCloseTo(n.x / atlas.width, 6);
    expect(q.uvs[2]).toBeCloseTo((n.x + n.width) / atlas.width, 6);
    expect(q.uvs[1]).toBeCloseTo(1 - (n.y + 40) / atlas.height, 6);
    expect(q.uvs[5]).toBeCloseTo(1 - n.y / atlas.height, 6);
  });
});

describe('labels setting', () => {
  it('keeps the known modes and property names, refuses anything else', () => {
    expect(DEFAULT_SETTINGS.labels).toBe('none');
    for (const v of ['index', 'element', 'site', 'wyckoff', 'prop:forces']) expect(sanitizeSettings({ labels: v }).labels).toBe(v);
    for (const v of ['rainbow', 'prop:', 'prop:a\nb', 3, null]) expect(sanitizeSettings({ labels: v }).labels).toBe('none');
    expect(labelMode('prop:magmom')).toEqual({ kind: 'property', name: 'magmom' });
    expect(labelMode('bogus')).toEqual({ kind: 'none' });
  });

  it('travels in a view link: a property kind comes back, an unknown kind is refused in one sentence', () => {
    const settings = { ...DEFAULT_SETTINGS, labels: 'prop:forces' };
    const hash = viewLinkHash({ dataset: 'CsCaH3.cif', activeStructure: 0, settings, camera: null });
    expect(hash).toContain('set.labels=prop%3Aforces');
    expect(readViewLink(hash, () => true)).toEqual({
      ok: true,
      value: { dataset: 'CsCaH3.cif', activeStructure: 0, settings, camera: null },
    });
    const bad = readViewLink('#/structure?dataset=CsCaH3.cif&set.labels=rainbow', () => true);
    expect(bad).toEqual({ ok: false, error: expect.stringMatching(/labels has a value it cannot take/) });
  });
});
