/**
 * Exports and sharing on the Structure page (issue 15): every structure format downloaded (original and as shown) and
 * read back by our readers equal to the source; PNG at a chosen scale, opaque or transparent; the scene as GLB with a
 * real mesh per atom; a link restoring the camera to 1e-6; a user's file refused for links and carried by the session
 * file instead; a dihedral equal to an independent computation; dark theme, shortcut overlay, the canvas's name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { initMoyoNode } from '../../src/node/moyo.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { downloadOf, labUrl, openLab, textFile, waitForFrame, waitIdle, type Lab } from './harness.ts';
import { decodePng } from './png.ts';
import { CELL_EDGE_COLORS } from '../../src/viewer/cell-edges.ts';
import { REPO_ROOT } from '../../scripts/support/paths.ts';

let lab: Lab;
const DATASET = 'CsCaH3.cif';

beforeAll(async () => {
  initMoyoNode();
  lab = await openLab('?fresh');
  await waitIdle(lab.page);
  await lab.page.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'Cs1 Ca1 H3', undefined, {
    timeout: 60_000,
  });
  await waitForFrame(lab.page);
}, 120_000);

afterAll(async () => {
  await lab?.close();
});

const read = (text: string, name: string): Structure => {
  const r = parseStructureFile(text, name);
  if (!r.ok) throw new Error(`${name}: ${r.error}`);
  return r.structures[0];
};

async function download(testId: string): Promise<{ name: string; bytes: Buffer }> {
  const d = await downloadOf(lab.page, testId);
  return { name: d.suggestedFilename(), bytes: readFileSync((await d.path())!) };
}

/** Same sites in the same order, positions equal modulo the lattice (files may wrap), within `tol` Å. */
function expectEqual(back: Structure, source: Structure, plain: boolean, tol = 1e-6): void {
  expect(back.sites).toHaveLength(source.sites.length);
  if (!plain)
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) expect(back.lattice!.matrix[r][c]).toBeCloseTo(source.lattice!.matrix[r][c], 6);
  source.sites.forEach((s, i) => {
    expect(Object.keys(back.sites[i].species)).toEqual(Object.keys(s.species));
    const d = [0, 1, 2].map((k) => back.sites[i].xyz[k] - s.xyz[k]) as [number, number, number];
    const f = source.lattice!.cartToFrac(d).map((x) => x - Math.round(x)) as [number, number, number];
    const cart = source.lattice!.fracToCart(f);
    expect(Math.hypot(...cart), `site ${i}`).toBeLessThan(tol);
  });
}

describe('structure downloads', () => {
  it('writes every format, original and as shown (2×1×1), each reading back equal to the source', async () => {
    const source = read(readFileSync(new URL(`../../datasets/${DATASET}`, import.meta.url), 'utf8'), DATASET);
    const formats = await lab.page
      .locator('[data-testid=export-format] option')
      .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
    expect(formats).toEqual(['cif', 'poscar', 'xyz', 'extxyz', 'pymatgen-json', 'xdatcar', 'jsonl']);
    for (const format of formats) {
      await lab.page.locator('[data-testid=export-format]').selectOption(format);
      await lab.page.locator('[data-testid=export-original]').check();
      const original = await download('export-structure');
      expect(original.name.startsWith('CsCaH3')).toBe(true);
      expectEqual(read(original.bytes.toString('utf8'), original.name), source, format === 'xyz');
    }
    await lab.page.locator('[data-testid=setting-supercellA]').fill('2');
    await waitIdle(lab.page);
    await lab.page.locator('[data-testid=export-as-shown]').check();
    for (const format of formats) {
      await lab.page.locator('[data-testid=export-format]').selectOption(format);
      const shown = await download('export-structure');
      const back = read(shown.bytes.toString('utf8'), shown.name);
      expect(back.sites).toHaveLength(2 * source.sites.length);
      if (format !== 'xyz') expect(back.lattice!.parameters.a).toBeCloseTo(2 * source.lattice!.parameters.a, 6);
      // pymatgen's order: each site, then its copy one a-vector along.
      source.sites.forEach((s, i) => {
        for (const t of [0, 1]) {
          const b = back.sites[2 * i + t];
          const f = source.lattice!.cartToFrac(b.xyz);
          const f0 = source.lattice!.cartToFrac(s.xyz);
          expect(Math.abs(f[0] - f0[0] - Math.round(f[0] - f0[0]))).toBeLessThan(1e-6);
          expect(Math.floor(f[0] + 1e-7)).toBe(t);
        }
      });
    }
    await lab.page.locator('[data-testid=setting-supercellA]').fill('1');
    await waitIdle(lab.page);
  });
});

describe('images and the 3D scene', () => {
  it('PNG at 1× opaque and 3× transparent', async () => {
    const css = await lab.page.evaluate(() => {
      const r = document.querySelector('[data-testid=viewer] canvas')!.getBoundingClientRect();
      return { width: Math.round(r.width), height: Math.round(r.height) };
    });
    await lab.page.locator('[data-testid=png-scale]').selectOption('1');
    await lab.page.locator('[data-testid=png-transparent]').uncheck();
    const opaque = decodePng((await download('export-png-scaled')).bytes);
    expect([opaque.width, opaque.height]).toEqual([css.width, css.height]);
    const alpha = (png: typeof opaque) => {
      let zero = 0;
      for (let k = 3; k < png.rgba!.length; k += 4) if (png.rgba![k] === 0) zero++;
      return zero / (png.width * png.height);
    };
    expect(alpha(opaque)).toBe(0);
    await lab.page.locator('[data-testid=png-scale]').selectOption('3');
    await lab.page.locator('[data-testid=png-transparent]').check();
    const clear = decodePng((await download('export-png-scaled')).bytes);
    expect([clear.width, clear.height]).toEqual([3 * css.width, 3 * css.height]);
    expect(alpha(clear)).toBeGreaterThan(0.2);
  });

  it('GLB: one sphere node per drawn atom with its element material, bonds and the cell', async () => {
    const natoms = await lab.page.evaluate(() => window.__structlab!.natoms());
    const glb = (await download('export-glb')).bytes;
    expect(glb.readUInt32LE(0)).toBe(0x46546c67); // "glTF"
    expect(glb.readUInt32LE(8)).toBe(glb.length);
    const jsonLength = glb.readUInt32LE(12);
    const json = JSON.parse(glb.toString('utf8', 20, 20 + jsonLength));
    const atomNodes = json.nodes.filter((n: { name?: string }) => / atoms \d+$/.test(n.name ?? ''));
    expect(atomNodes).toHaveLength(natoms);
    expect(atomNodes.every((n: { mesh?: number }) => typeof n.mesh === 'number')).toBe(true);
    const elements = new Set(atomNodes.map((n: { name: string }) => n.name.split(' ')[0]));
    expect([...elements].sort()).toEqual(['Ca', 'Cs', 'H']);
    expect(json.nodes.some((n: { name?: string }) => / bonds \d+$/.test(n.name ?? ''))).toBe(true);
    expect(json.nodes.some((n: { name?: string }) => n.name === 'cell')).toBe(true);
    expect(json.extensionsRequired ?? []).toEqual([]);
  });
});

describe('links and session files', () => {
  it('a link restores dataset, display settings and camera (1e-6)', async () => {
    await lab.page.locator('[data-testid=setting-showPolyhedra]').check();
    await lab.page.evaluate(() => window.__structlab!.orbit(37));
    await lab.page.locator('[data-testid=share-link]').click();
    const url = await lab.page.locator('[data-testid=share-url]').inputValue();
    const before = await lab.page.evaluate(() => window.__structlab!.viewer('main')!.viewState());
    expect(url).toContain('dataset=CsCaH3.cif');
    expect(url).toContain('set.showPolyhedra=true');

    const other = await lab.page.context().newPage();
    const errors: string[] = [];
    other.on('pageerror', (e) => errors.push(e.message));
    await other.goto(labUrl(lab.url, new URL(url).hash)); // the link's hash on a fresh page (labUrl adds the test hooks)
    await other.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'Cs1 Ca1 H3', undefined, {
      timeout: 60_000,
    });
    await waitIdle(other);
    await waitForFrame(other);
    const after = await other.evaluate(() => window.__structlab!.viewer('main')!.viewState());
    for (const key of ['position', 'target', 'up'] as const)
      for (let k = 0; k < 3; k++) expect(Math.abs(after![key][k] - before![key][k]), `${key}[${k}]`).toBeLessThan(1e-6);
    expect(Math.abs(after!.zoom - before!.zoom)).toBeLessThan(1e-6);
    expect(await other.locator('[data-testid=setting-showPolyhedra]').isChecked()).toBe(true);

    // A bad value is refused with one sentence, and the default structure is shown (never a blank canvas).
    // (A hash-only change does not reload the page: each link is opened by goto and reload.)
    await other.goto(labUrl(lab.url, '#/structure?dataset=CsCaH3.cif&camera=1,2,3,1,2,3,0,1,0,1'));
    await other.reload();
    await other.locator('[data-testid=error]').waitFor({ timeout: 30_000 });
    expect(await other.locator('[data-testid=error]').innerText()).toMatch(/camera .*target/);
    await other.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'Cs1 Ca1 H3');
    await other.goto(labUrl(lab.url, '#/structure?dataset=__proto__&set.__proto__=1'));
    await other.reload();
    await other.locator('[data-testid=error]').waitFor({ timeout: 30_000 });
    expect(await other.locator('[data-testid=error]').innerText()).toMatch(/not one of the lab's embedded structures/);
    expect(errors).toEqual([]);
    await other.close();
    await lab.page.locator('[data-testid=setting-showPolyhedra]').uncheck();
  });

  it('a file the user opened cannot travel in a link; the session file carries it and the view', async () => {
    await lab.page.locator('[data-testid=file-input]').setInputFiles(textFile('peroxide.xyz', MOLECULE));
    await lab.page.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'H2 O2', undefined, {
      timeout: 30_000,
    });
    await waitIdle(lab.page);
    await lab.page.locator('[data-testid=share-link]').click();
    expect(await lab.page.locator('[data-testid=share-note]').innerText()).toMatch(/cannot travel in a link.*session file/);
    await lab.page.evaluate(() => window.__structlab!.orbit(-23));
    const before = await lab.page.evaluate(() => window.__structlab!.viewer('main')!.viewState());
    const session = await download('session-save');
    const doc = JSON.parse(session.bytes.toString('utf8'));
    expect(doc.files.map((f: { name: string }) => f.name)).toContain('peroxide.xyz');

    // Back to the dataset, then open the session: the user's file and the camera come back.
    await lab.page.locator('[data-testid=dataset]').selectOption(DATASET);
    await lab.page.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'Cs1 Ca1 H3');
    await waitIdle(lab.page);
    await lab.page
      .locator('[data-testid=session-input]')
      .setInputFiles({ name: session.name, mimeType: 'application/json', buffer: session.bytes });
    await lab.page.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'H2 O2', undefined, {
      timeout: 30_000,
    });
    await waitIdle(lab.page);
    await waitForFrame(lab.page);
    const after = await lab.page.evaluate(() => window.__structlab!.viewer('main')!.viewState());
    for (const key of ['position', 'target', 'up'] as const)
      for (let k = 0; k < 3; k++) expect(Math.abs(after![key][k] - before![key][k])).toBeLessThan(1e-6);

    // A hostile session file is refused with one sentence; the structure stays.
    const hostile = JSON.stringify({ format: 'structlab-session', version: 1, files: [{ name: 'x', text: 'y' }], activeFile: 7 });
    await lab.page
      .locator('[data-testid=session-input]')
      .setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(hostile) });
    await lab.page.locator('[data-testid=error]').waitFor();
    expect(await lab.page.locator('[data-testid=error]').innerText()).toMatch(/bad\.json is not a StructLab session file: "activeFile"/);
    expect(await lab.page.locator('[data-testid=formula]').innerText()).toBe('H2 O2');
  });
});

/** Hydrogen peroxide, skewed (Å): atoms spread so each is clicked apart from the others. */
const ATOMS: [string, number, number, number][] = [
  ['H', -2.1, 1.6, 0.4],
  ['O', -0.7, 0.2, 0],
  ['O', 0.7, -0.2, 0],
  ['H', 1.6, -1.2, 1.9],
];
const MOLECULE = `4\nperoxide\n${ATOMS.map(([e, x, y, z]) => `${e} ${x} ${y} ${z}`).join('\n')}\n`;

/** The torsion by projection: the angle between b1 and b3 projected onto the plane normal to the middle bond, signed. */
function torsion(p: number[][]): number {
  const sub = (a: number[], b: number[]) => a.map((v, k) => v - b[k]);
  const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const axis = sub(p[2], p[1]);
  const u = axis.map((v) => v / Math.sqrt(dot(axis, axis)));
  const v = sub(p[0], p[1]);
  const w = sub(p[3], p[2]);
  const pv = v.map((x, k) => x - dot(v, u) * u[k]);
  const pw = w.map((x, k) => x - dot(w, u) * u[k]);
  const angle = (Math.acos(dot(pv, pw) / Math.sqrt(dot(pv, pv) * dot(pw, pw))) * 180) / Math.PI;
  const cross = [pv[1] * pw[2] - pv[2] * pw[1], pv[2] * pw[0] - pv[0] * pw[2], pv[0] * pw[1] - pv[1] * pw[0]];
  return dot(cross, u) >= 0 ? angle : -angle;
}

describe('measurements', () => {
  it('a dihedral equal to the independent torsion; listed, copied and cleared', async () => {
    const page = lab.page;
    await page.locator('[data-testid=measure]').click();
    await page.evaluate(() => window.__structlab!.viewer('main')!.viewAlong(0, 0, 1));
    await waitForFrame(page);
    for (let i = 0; i < 4; i++) {
      const at = await page.evaluate((k) => window.__structlab!.projectAtom(k), i);
      await page.mouse.click(at!.x, at!.y);
    }
    await page.locator('[data-testid=dihedral]').waitFor();
    const shown = Number(/=\s*(-?[0-9.]+)\s*°/.exec(await page.locator('[data-testid=dihedral]').innerText())![1]);
    const expected = torsion(ATOMS.map((a) => a.slice(1) as number[]));
    expect(Math.abs(shown - expected)).toBeLessThan(0.006);
    const rows = page.locator('[data-testid=measurement-list] li');
    expect(await rows.count()).toBe(3);
    const value = Number(await rows.nth(2).getAttribute('data-value'));
    expect(Math.abs(value - expected)).toBeLessThan(1e-4);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.locator('[data-testid=measurements-copy]').click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split('\n')[2]).toMatch(/^dihedral\tH#0 O#1 O#2 H#3\t-?\d+\.\d{4}\t°$/);
    await page.locator('[data-testid=measurements-clear]').click();
    expect(await page.locator('[data-testid=measurement-list]').count()).toBe(0);
    await page.locator('[data-testid=measure]').click();
  });
});

describe('everyday comfort', () => {
  it('dark theme switches and is remembered; ? shows the shortcuts; the canvas has a name and a summary', async () => {
    const page = lab.page;
    const toggle = page.locator('[data-testid=theme-toggle]');
    // The cell's edges as drawn: light lines on the dark view, dark ones on the light view (src/viewer/cell-edges.ts).
    const edgeColour = () =>
      page.evaluate(() => {
        const viewer = window.__structlab!.viewer('main') as unknown as {
          handles: { scene: { getObjectByName(n: string): { material: { color: { getHexString(): string } } } | undefined } };
        };
        const edges = viewer.handles.scene.getObjectByName('cell-edges');
        return edges ? `#${edges.material.color.getHexString()}` : null;
      });
    // A crystal (the tests above leave a molecule, which has no cell).
    await page.locator('[data-testid=file-input]').setInputFiles(join(REPO_ROOT, 'datasets', 'CsCaH3.cif'));
    await page.waitForFunction(() => document.querySelector('.source')?.textContent?.includes('CsCaH3.cif'));
    await waitForFrame(page);
    expect(await edgeColour()).toBe(CELL_EDGE_COLORS[(await page.evaluate(() => document.documentElement.dataset.theme)) as 'light']);
    while ((await toggle.getAttribute('data-theme-choice')) !== 'dark') await toggle.click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await edgeColour()).toBe(CELL_EDGE_COLORS.dark);
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    // The reload shows the crystal again; the first frame may come before it (a busy machine), so wait for its cell.
    await page.waitForFunction(() => document.querySelector('.source')?.textContent?.includes('CsCaH3.cif'));
    await waitForFrame(page);
    await page.waitForFunction(() => {
      const viewer = window.__structlab!.viewer('main') as unknown as { handles: { scene: { getObjectByName(n: string): unknown } } };
      return !!viewer.handles.scene.getObjectByName('cell-edges');
    });
    expect(await edgeColour()).toBe(CELL_EDGE_COLORS.dark);
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.keyboard.press('?');
    await page.locator('[data-testid=shortcuts-overlay]').waitFor();
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-testid=shortcuts-overlay]').count()).toBe(0);
    const canvas = page.locator('[data-testid=viewer] canvas');
    await page.waitForFunction(() =>
      /3D view of the structure/.test(document.querySelector('[data-testid=viewer] canvas')?.getAttribute('aria-label') ?? ''),
    );
    expect(await canvas.getAttribute('role')).toBe('img');
    expect(await canvas.getAttribute('aria-describedby')).toBe('view-summary');
    expect(await page.locator('#view-summary').innerText()).toMatch(/atoms of .* drawn/);
    while ((await toggle.getAttribute('data-theme-choice')) !== 'light') await toggle.click();
    expect(await edgeColour()).toBe(CELL_EDGE_COLORS.light);
    while ((await toggle.getAttribute('data-theme-choice')) !== 'system') await toggle.click();
    expect(lab.pageErrors).toEqual([]);
  });
});
