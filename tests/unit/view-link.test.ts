/**
 * The view link and the session file (src/state/structure-view.ts) read hostile input: a camera written by the lab comes
 * back bit for bit; unknown settings, prototype keys, bad numbers and oversized sessions are refused with one sentence.
 */
import { describe, expect, it } from 'vitest';
import { readSessionFile, readViewLink, sessionFileText, viewLinkHash } from '../../src/state/structure-view.ts';
import { DEFAULT_SETTINGS } from '../../src/viewer/view-settings.ts';

const isDataset = (name: string) => name === 'CsCaH3.cif';
const camera = {
  position: [0.1 + 0.2, -7.123456789012345, 1e-17] as [number, number, number],
  target: [1, 2, 3] as [number, number, number],
  up: [0, 0, 1] as [number, number, number],
  zoom: 1.5,
};

describe('view link', () => {
  it('round-trips dataset, structure, camera (exactly) and the settings that differ', () => {
    const settings = { ...DEFAULT_SETTINGS, showPolyhedra: true, supercellA: 3, colorScheme: 'vesta' as const };
    const hash = viewLinkHash({ dataset: 'CsCaH3.cif', activeStructure: 2, settings, camera });
    const back = readViewLink(hash, isDataset);
    expect(back).toEqual({ ok: true, value: { dataset: 'CsCaH3.cif', activeStructure: 2, settings, camera } });
    expect(hash).not.toContain('atomScale'); // defaults are left out
  });

  it('says nothing for a plain page hash and refuses bad values in one sentence', () => {
    expect(readViewLink('#/structure', isDataset)).toBeNull();
    expect(readViewLink('#/compare', isDataset)).toBeNull();
    const bad = [
      ['#/structure?dataset=evil.cif', /not one of the lab's embedded structures/],
      ['#/structure?dataset=__proto__', /not one of the lab's embedded structures/],
      ['#/structure?dataset=CsCaH3.cif&set.__proto__=1', /unknown display setting "__proto__"/],
      ['#/structure?dataset=CsCaH3.cif&set.supercellA=999', /supercellA has a value it cannot take/],
      ['#/structure?dataset=CsCaH3.cif&set.showBonds=yes', /showBonds has a value/],
      ['#/structure?dataset=CsCaH3.cif&camera=1,2,3', /10 numbers/],
      ['#/structure?dataset=CsCaH3.cif&camera=1,2,3,4,5,6,0,0,0,1', /no up direction/],
      ['#/structure?dataset=CsCaH3.cif&camera=1,2,NaN,4,5,6,0,1,0,1', /not a finite number/],
      ['#/structure?dataset=CsCaH3.cif&camera=1,2,3,4,5,6,0,1,0,-1', /zoom/],
      ['#/structure?dataset=CsCaH3.cif&structure=-1', /whole number/],
    ] as const;
    for (const [hash, why] of bad) {
      const r = readViewLink(hash, isDataset);
      expect(r?.ok, hash).toBe(false);
      if (r && !r.ok) expect(r.error, hash).toMatch(why);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('session file', () => {
  it('round-trips files, the shown one and the view', () => {
    const session = {
      files: [
        { name: 'a.xyz', text: '1\n\nH 0 0 0\n' },
        { name: 'b.cif', text: 'data_x' },
      ],
      activeFile: 1,
      activeStructure: 0,
      settings: { ...DEFAULT_SETTINGS, orthographic: true },
      camera,
    };
    expect(readSessionFile(sessionFileText(session), 's.json')).toEqual({ ok: true, value: session });
  });

  it('refuses what is not a session, and keeps prototype keys out of the settings', () => {
    const wrap = (o: object) => JSON.stringify({ format: 'structlab-session', version: 1, files: [{ name: 'x', text: 'y' }], ...o });
    const cases: [string, RegExp][] = [
      ['not json', /not valid JSON/],
      ['[]', /not a JSON object/],
      [JSON.stringify({ format: 'other' }), /"format"/],
      [wrap({ files: [] }), /holds no files/],
      [wrap({ files: Array.from({ length: 9 }, () => ({ name: 'x', text: 'y' })) }), /at most 8/],
      [wrap({ files: [{ name: '', text: 'y' }] }), /"name"/],
      [wrap({ activeFile: 3 }), /"activeFile"/],
      [wrap({ camera: [1, 2, 3] }), /camera/],
    ];
    for (const [text, why] of cases) {
      const r = readSessionFile(text, 's.json');
      expect(r.ok, text.slice(0, 60)).toBe(false);
      if (!r.ok) expect(r.error).toMatch(why);
    }
    const r = readSessionFile(wrap({ settings: JSON.parse('{"__proto__": {"polluted": 1}, "atomScale": 99}') }), 's.json');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.settings.atomScale).toBe(2); // clamped to the schema's range
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
