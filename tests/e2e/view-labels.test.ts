/**
 * Atom labels on the Structure page (issue 15; built app, headless Chromium on SwiftShader): the label mesh carries
 * the texts of the chosen kind (element, index, a property, site label, the golden Wyckoff letter) for every drawn
 * atom of a small scene, dark letters are drawn at an atom where none were before, switching the kind rebuilds the
 * labels alone (not the atoms), a recolouring the atoms alone, and a pick or a camera turn neither; a scene over 2,000
 * atoms labels nothing until an atom is picked, then the pick and the 24 atoms nearest it (computed here by a full sort).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, readXtalGolden } from '../xtal-goldens.ts';
import { frontmostAtom, textFile, type Lab, waitForFrame } from './harness.ts';
import { loadFile, openWithFile } from './open.ts';

/** Four atoms 4 Å apart (no bonds), no cell: drawn in file order. Colours without near-black: the letters are #111. */
const MOLECULE = [
  ['C', 0, 0, 0, 0.25],
  ['N', 4, 0, 0, -1.5],
  ['O', 0, 4, 0, 12345],
  ['S', 4, 4, 0.5, 0.001],
] as const;
const MOLECULE_XYZ =
  `${MOLECULE.length}\nProperties=species:S:1:pos:R:3:q:R:1 comment="labels"\n` + MOLECULE.map((r) => r.join(' ')).join('\n') + '\n';

let lab: Lab;
let page: Page;

interface LabelState {
  texts: string[];
  atoms: number[];
  labelBuilds: number;
  atomBuilds: number;
}
const labelState = (): Promise<LabelState> =>
  page.evaluate(() => {
    const v = window.__structlab!.viewer('main')!;
    return { texts: [...v.labelTexts], atoms: Array.from(v.labelAtoms), labelBuilds: v.labelBuilds, atomBuilds: v.atomBuilds };
  });

/** Chooses a label kind and waits for the label mesh it builds (one more than `builds`). */
async function chooseLabels(value: string, builds: number): Promise<LabelState> {
  await page.locator('[data-testid=setting-labels]').selectOption(value);
  await page.waitForFunction((n) => window.__structlab!.viewer('main')!.labelBuilds > n, builds, { timeout: 30_000 });
  return labelState();
}

/** Pixels of the rendered scene (the PNG export at 1×, transparent background) in a square of `half` px around atom i. */
function pixelsAround(i: number, half: number): Promise<number[]> {
  return page.evaluate(
    async ([i, half]) => {
      const v = window.__structlab!.viewer('main')!;
      const at = v.projectAtom(i)!;
      const rect = document.querySelector('[data-testid=viewer] canvas')!.getBoundingClientRect();
      const bitmap = await createImageBitmap(await v.renderPng(1, null));
      const canvas = document.createElement('canvas');
      [canvas.width, canvas.height] = [bitmap.width, bitmap.height];
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const x = Math.round(at.x - rect.left),
        y = Math.round(at.y - rect.top);
      return Array.from(ctx.getImageData(x - half, y - half, 2 * half, 2 * half).data);
    },
    [i, half] as const,
  );
}

/** Opaque near-black pixels (the letters' fill on the light theme) among RGBA bytes. */
function darkPixels(rgba: number[]): number {
  let n = 0;
  for (let k = 0; k < rgba.length; k += 4) if (rgba[k + 3] > 200 && rgba[k] < 60 && rgba[k + 1] < 60 && rgba[k + 2] < 60) n++;
  return n;
}

beforeAll(async () => {
  lab = await openWithFile(textFile('labels.extxyz', MOLECULE_XYZ));
  page = lab.page;
  await waitForFrame(page);
});

afterAll(async () => {
  await lab?.close();
});

describe('atom labels', () => {
  it('element labels on every atom of a small scene, drawn as dark letters at the atom', async () => {
    expect(await page.evaluate(() => window.__structlab!.natoms())).toBe(MOLECULE.length);
    const before = await labelState();
    const front = await page.evaluate((n) => {
      const sl = window.__structlab!;
      return Array.from({ length: n }, (_, i) => i).sort((a, b) => sl.projectAtom(a)!.depth - sl.projectAtom(b)!.depth)[0];
    }, MOLECULE.length);
    const plain = darkPixels(await pixelsAround(front, 10));
    const s = await chooseLabels('element', before.labelBuilds);
    expect(s.atoms).toEqual([0, 1, 2, 3]);
    expect(s.texts).toEqual(MOLECULE.map((r) => r[0]));
    expect(s.labelBuilds).toBe(before.labelBuilds + 1);
    expect(s.atomBuilds).toBe(before.atomBuilds);
    expect(plain).toBe(0);
    expect(darkPixels(await pixelsAround(front, 10))).toBeGreaterThan(8);
    expect(lab.pageErrors).toEqual([]);
  });

  it('switching to index and to a property changes the texts; a recolouring rebuilds the atoms, not the labels', async () => {
    let s = await chooseLabels('index', (await labelState()).labelBuilds);
    expect(s.texts).toEqual(['0', '1', '2', '3']);
    s = await chooseLabels('prop:q', s.labelBuilds);
    expect(s.texts).toEqual(MOLECULE.map((r) => String(Number(r[4].toPrecision(3)))));
    const frames = await page.evaluate(() => Number(document.body.dataset.rendered));
    await page.locator('[data-testid=setting-colorScheme]').selectOption('vesta');
    await page.waitForFunction((n) => window.__structlab!.viewer('main')!.atomBuilds > n, s.atomBuilds, { timeout: 30_000 });
    await waitForFrame(page, frames);
    expect((await labelState()).labelBuilds).toBe(s.labelBuilds);
    await page.locator('[data-testid=setting-colorScheme]').selectOption('jmol');
    // A pick and a camera turn in a small scene: new frames, the same labels.
    const at = await page.evaluate(() => window.__structlab!.projectAtom(0)!);
    await page.mouse.click(at.x, at.y);
    await page.locator('[data-testid=atom-info]').waitFor({ timeout: 30_000 });
    const turned = await page.evaluate(() => Number(document.body.dataset.rendered));
    await page.evaluate(() => window.__structlab!.orbit(30));
    await waitForFrame(page, turned);
    expect((await labelState()).labelBuilds).toBe(s.labelBuilds);
    expect(lab.pageErrors).toEqual([]);
  });

  it('site labels and Wyckoff letters of a CIF: each site label carries its golden Wyckoff letter', async () => {
    const name = 'cod-1011060-graphite.cif';
    await loadFile(page, corpusPath(name));
    await waitForFrame(page);
    await page.waitForFunction(() => document.querySelector('[data-testid=spacegroup]')?.textContent?.includes('186'), undefined, {
      timeout: 60_000,
    });
    let s = await chooseLabels('site', (await labelState()).labelBuilds);
    const sites = s.texts;
    expect(new Set(sites)).toEqual(new Set(['C1', 'C2']));
    s = await chooseLabels('wyckoff', s.labelBuilds);
    // The file's rows C1 (0, 0, 0) and C2 (1/3, 2/3, 0.005) are the golden's input sites 0 and 2 (its expansion order).
    const golden = readXtalGolden(name).symmetry['0.01'].wyckoffs as string[];
    const expected: Record<string, string> = { C1: golden[0], C2: golden[2] };
    expect(s.atoms.length).toBe(sites.length);
    expect(s.texts).toEqual(sites.map((t) => expected[t]));
    expect(new Set(s.texts)).toEqual(new Set(['a', 'b']));
    expect(lab.pageErrors).toEqual([]);
  });

  it('over 2,000 atoms: no labels until a pick, then the pick and the 24 atoms nearest it', async () => {
    // 13³ atoms on a 3 Å grid, jittered (a fixed sequence) so that no two distances to the pick tie.
    let seed = 7;
    const jitter = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.6;
    const pos: number[][] = [];
    for (let a = 0; a < 13; a++)
      for (let b = 0; b < 13; b++) for (let c = 0; c < 13; c++) pos.push([3 * a + jitter(), 3 * b + jitter(), 3 * c + jitter()]);
    const xyz = `${pos.length}\nbig\n${pos.map((p) => `Ar ${p.map((v) => v.toFixed(6)).join(' ')}`).join('\n')}\n`;
    await loadFile(page, textFile('big.xyz', xyz));
    await waitForFrame(page);
    await page.locator('[data-testid=setting-labels]').selectOption('index');
    await page.locator('[data-testid=labels-note]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=labels-note]').innerText()).toContain('2,197 atoms drawn');
    await waitForFrame(page);
    expect((await labelState()).texts).toEqual([]);
    const builds = (await labelState()).labelBuilds;
    // The front-most atom, clicked where the viewer projects it.
    const atom = (await frontmostAtom(page))!;
    await page.mouse.click(atom.x, atom.y);
    await page.waitForFunction((n) => window.__structlab!.viewer('main')!.labelBuilds > n, builds, { timeout: 30_000 });
    const s = await labelState();
    const picked = Number(await page.locator('[data-testid=atom-info]').getAttribute('data-atom'));
    const d2 = (i: number) => pos[i].reduce((sum, v, k) => sum + (v - pos[picked][k]) ** 2, 0);
    const nearest = pos
      .map((_, i) => i)
      .sort((a, b) => d2(a) - d2(b))
      .slice(0, 24)
      .sort((a, b) => a - b);
    expect(nearest).toContain(picked);
    expect(s.atoms).toEqual(nearest);
    expect(s.texts).toEqual(nearest.map(String));
    expect(lab.pageErrors).toEqual([]);
  });
});
