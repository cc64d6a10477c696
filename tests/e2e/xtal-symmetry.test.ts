/**
 * The Structure page's Symmetry and Lattice-planes panels end to end (built lab, headless Chromium): the Wyckoff table
 * of a corpus structure equals its spglib golden (within the origin choices of docs/crystallography.md §1), the cell
 * switch shows the golden conventional lattice in the viewer, a (111) plane is drawn at the golden d-spacing, and the
 * Local environment panel lists pymatgen's coordination numbers and recolours the atoms once.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { initMoyoNode } from '../../src/node/moyo.ts';
import { type Json, corpusPath, matchSitesByPosition, readXtalGolden } from '../xtal-goldens.ts';
import { downloadOf, waitForFrame, type Lab } from './harness.ts';
import { openWithFile } from './open.ts';

/** R-3 on rhombohedral axes: 8 sites read, 24 in the conventional (hexagonal) cell. */
const NAME = 'pmg-MgNiF6.cif';
const golden = readXtalGolden(NAME);
const g = golden.symmetry['0.01'];

let lab: Lab;
let page: Page;

/** A number the page shows equals the golden's at the digits shown (half a unit of the last digit). */
const atDigits = (shown: string, value: number) => {
  const decimals = shown.split('.')[1]?.length ?? 0;
  return Math.abs(Number(shown) - value) <= 0.5 * 10 ** -decimals + 1e-9;
};

beforeAll(async () => {
  initMoyoNode();
  lab = await openWithFile(corpusPath(NAME), { viewport: { width: 1400, height: 900 } });
  page = lab.page;
});

afterAll(async () => {
  await lab?.close();
});

describe('symmetry panel', () => {
  it('shows the golden Wyckoff table', async () => {
    await page.locator('[data-testid=symmetry-panel] > summary').click();
    await page.locator('[data-testid=wyckoff-table] tbody tr').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid=sym-group]').innerText()).toContain(`${g.international} (${g.number})`);
    expect(await page.locator('[data-testid=sym-tolerances]').innerText()).toBe('spglib 2.0 search at symprec 0.01 Å, angle tolerance 5°');
    const rows: { sites: number[]; wyckoff: string; siteSymmetry: string }[] = await page.$$eval(
      '[data-testid=wyckoff-table] tbody tr',
      (trs) =>
        trs.map((tr) => ({
          sites: (tr.querySelector('[data-sites]') as HTMLElement).dataset.sites!.split(' ').map(Number),
          wyckoff: tr.querySelector('[data-testid=wyckoff]')!.textContent!,
          siteSymmetry: tr.querySelector('[data-testid=site-symmetry]')!.textContent!,
        })),
    );
    // The page's site order is our reader's; the golden's is pymatgen's: matched by position.
    const parsed = parseStructureFile(readFileSync(corpusPath(NAME), 'utf8'), NAME);
    if (!parsed.ok) throw new Error(parsed.error);
    const s = parsed.structures[0];
    const perm = matchSitesByPosition(
      s.sites.map((site) => ({ species: site.species, frac: s.lattice!.cartToFrac(site.xyz) })),
      golden.input.sites,
      golden.input.lattice.matrix,
    );
    // One row per golden orbit, every site once.
    expect(rows.flatMap((r) => r.sites).sort((a, b) => a - b)).toEqual(s.sites.map((_, k) => k));
    for (const r of rows) expect(new Set(r.sites.map((k) => g.equivalent_atoms[perm[k]])).size).toBe(1);
    expect(new Set(rows.map((r) => g.equivalent_atoms[perm[r.sites[0]]])).size).toBe(rows.length);
    const perSite: [number, string, string][] = [];
    for (const r of rows) {
      const letter = r.wyckoff.replace(/^\d+/, '');
      // The multiplicity shown is the conventional cell's: orbit size × (24 / 8).
      expect(Number(r.wyckoff.match(/^\d+/)![0])).toBe((r.sites.length * g.std_cell.sites.length) / s.sites.length);
      for (const k of r.sites) perSite.push([perm[k], letter, r.siteSymmetry]);
    }
    perSite.sort((a, b) => a[0] - b[0]);
    // spglib's own letters, not only one of the equivalent descriptions.
    expect(perSite).toEqual(g.wyckoffs.map((w: string, j: number) => [j, w, g.site_symmetry_symbols[j]]));
    expect(await page.locator('[data-testid=operations]').textContent()).toMatch(
      new RegExp(`^1\\. x,y,z[\\s\\S]*\\n${g.n_operations}\\. `),
    );
  });

  it('switches the viewer to the golden conventional cell', async () => {
    const before = await page.evaluate(() => window.__structlab!.natoms());
    const frames = await page.evaluate(() => window.__structlab!.frames);
    await page.locator('[data-testid=cell-choice]').selectOption('conventional');
    await page.waitForFunction((n) => window.__structlab!.natoms() !== n, before, { timeout: 60_000 });
    await waitForFrame(page, frames);
    const text = await page.locator('[data-testid=cell-lattice]').innerText();
    const m = text.match(/^(\d+) sites · a, b, c = ([\d.]+), ([\d.]+), ([\d.]+) Å · α, β, γ = ([\d.]+), ([\d.]+), ([\d.]+)°/);
    expect(m, text).not.toBeNull();
    expect(Number(m![1])).toBe(g.std_cell.sites.length);
    const shown = m!.slice(2);
    const l = g.std_cell.lattice;
    const spglib = [l.a, l.b, l.c, l.alpha, l.beta, l.gamma];
    expect(
      shown.every((v, i) => atDigits(v, spglib[i])),
      `${shown.join(' ')} vs spglib ${spglib.join(' ')}`,
    ).toBe(true);
    // The viewer draws the conventional cell: at least its 24 sites (boundary images add more), not the 8 read.
    expect(await page.evaluate(() => window.__structlab!.natoms())).toBeGreaterThanOrEqual(g.std_cell.sites.length);
    // The Structure panel describes the cell shown: its atoms, formula and lattice.
    const n = g.std_cell.sites.length;
    expect(await page.locator('[data-testid=cell-shown]').innerText()).toBe('conventional (standardized)');
    expect(await page.locator('[data-testid=natoms]').innerText()).toBe(String(n));
    const formula = await page.locator('[data-testid=formula]').innerText();
    expect(
      formula.split(' ').reduce((sum, part) => sum + Number(part.replace(/^[A-Za-z]+/, '') || 1), 0),
      formula,
    ).toBe(n);
    expect((await page.locator('[data-testid=lattice]').innerText()).split(', ')).toEqual(shown.slice(0, 3));
    // The Wyckoff table numbers the conventional cell's sites: 1 … 24, each orbit with as many as its multiplicity.
    const table = page.locator('[data-testid=wyckoff-table]');
    expect(await table.getAttribute('data-cell')).toBe('conventional');
    const rows = await table.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        sites: (tr.querySelector('[data-sites]') as HTMLElement).dataset.sites!.split(' ').map(Number),
        multiplicity: Number(tr.querySelector('[data-testid=wyckoff]')!.textContent!.match(/^\d+/)![0]),
      })),
    );
    expect(rows.flatMap((r) => r.sites).sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
    for (const r of rows) expect(r.sites.length).toBe(r.multiplicity);
    // The camera was fitted to the cell shown: the r key's fit (resetView) leaves it where it is.
    const camera = () => page.evaluate(() => window.__structlab!.viewers().main.camera!);
    const fitted = await camera();
    await page.evaluate(() => window.__structlab!.viewer('main')!.resetView());
    const refit = await camera();
    for (const key of ['position', 'target'] as const)
      refit[key].forEach((x, k) =>
        expect(Math.abs(x - fitted[key][k]), `${key} ${fitted[key].join(' ')} → ${refit[key].join(' ')}`).toBeLessThan(1e-6),
      );
    await page.locator('[data-testid=cell-choice]').selectOption('read');
    await page.waitForFunction((n) => window.__structlab!.natoms() === n, before, { timeout: 60_000 });
    expect(await page.locator('[data-testid=natoms]').innerText()).toBe(String(golden.input.sites.length));
    expect(await page.locator('[data-testid=cell-shown]').count()).toBe(0);
    expect(await table.getAttribute('data-cell')).toBe('read');
  });
});

describe('lattice planes panel', () => {
  it('draws the (111) plane at the golden d-spacing', async () => {
    const plane = golden.planes.planes.find((p: Json) => p.hkl.join(' ') === '1 1 1');
    expect(plane, 'golden (111)').toBeTruthy();
    await page.locator('[data-testid=planes-panel] > summary').click();
    await page.locator('[data-testid=planes-hkl]').fill('1 1 1');
    await page.locator('[data-testid=planes-hkl]').press('Enter');
    await page.locator('[data-testid=plane-d]').first().waitFor({ timeout: 60_000 });
    const d = await page.locator('[data-testid=plane-d]').first().innerText();
    expect(atDigits(d, plane.d), `${d} vs ${plane.d}`).toBe(true);
    // The drawn mesh: every vertex on the plane n·x = d (origin at the cell's corner for positive indices).
    await page.waitForFunction(() => !!(window.__structlab!.viewer('main') as Json).handles?.scene.getObjectByName('lattice-planes'));
    const offsets: number[] = await page.evaluate((n: number[]) => {
      const group = (window.__structlab!.viewer('main') as Json).handles.scene.getObjectByName('lattice-planes');
      const pos = group.children[0].geometry.attributes.position.array as Float32Array;
      const out: number[] = [];
      for (let i = 0; i < pos.length; i += 3) out.push(n[0] * pos[i] + n[1] * pos[i + 1] + n[2] * pos[i + 2]);
      return out;
    }, plane.normal);
    expect(offsets.length).toBe(3 * (plane.polygon.length - 2));
    for (const x of offsets) expect(Math.abs(x - plane.d)).toBeLessThan(1e-4);
  });
});

describe('local environment panel', () => {
  it('lists the golden coordination numbers per element and colours the atoms by them', async () => {
    const cn: number[] = golden.env['3.5'].coordination;
    const want = new Map<string, Map<number, number>>();
    golden.input.sites.forEach((site: Json, k: number) => {
      const el = Object.keys(site.species)[0];
      const m = want.get(el) ?? new Map<number, number>();
      m.set(cn[k], (m.get(cn[k]) ?? 0) + 1);
      want.set(el, m);
    });
    const builds = await page.evaluate(() => (window.__structlab!.viewer('main') as Json).atomBuilds as number);
    await page.locator('[data-testid=env-panel] > summary').click();
    // The goldens are pymatgen's neighbour list at 3.5 Å: the panel's cutoff method (CrystalNN is its default).
    await page.locator('[data-testid=env-method]').selectOption('cutoff');
    const byCutoff = () => document.querySelector('[data-testid=env-method-text]')?.textContent?.includes('within 3.5 Å');
    await page.waitForFunction(byCutoff, undefined, { timeout: 60_000 });
    const rows: string[][] = await page.$$eval('[data-testid=env-coordination] tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!)),
    );
    const shown = new Map(rows.map(([el, text]) => [el, text]));
    expect(shown.size).toBe(want.size);
    for (const [el, m] of want)
      expect(shown.get(el)).toBe(
        [...m]
          .sort((a, b) => a[0] - b[0])
          .map(([c, n]) => `${c} (${n})`)
          .join(', '),
      );
    // Opening the panel leaves the element colours, and the view's legend keeps naming them.
    const legend = page.locator('[data-testid=legend]');
    expect(await page.locator('[data-testid=env-color-by-cn]').isChecked()).toBe(false);
    expect(await legend.getAttribute('data-coloring')).toBe('element');
    expect(await legend.locator('.swatch').count()).toBe(want.size);
    // Asked for, the atoms are recoloured once and the legend shows the coordination ramp instead of element swatches.
    await page.locator('[data-testid=env-color-by-cn]').check();
    await page.waitForFunction((n) => (window.__structlab!.viewer('main') as Json).atomBuilds === n + 1, builds, { timeout: 30_000 });
    expect(await legend.getAttribute('data-coloring')).toBe('coordination');
    expect(await legend.locator('.swatch').count()).toBe(0);
    expect(await page.locator('[data-testid=legend-coordination]').innerText()).toMatch(
      new RegExp(`^CN within 3\\.5 Å: ${Math.min(...cn)}\\s+${Math.max(...cn)}$`),
    );
    await page.locator('[data-testid=env-color-by-cn]').uncheck();
    await page.waitForFunction((n) => (window.__structlab!.viewer('main') as Json).atomBuilds === n + 2, builds, { timeout: 30_000 });
    expect(await legend.getAttribute('data-coloring')).toBe('element');
    await page.locator('[data-testid=env-rdf] canvas').waitFor();
    await page.locator('[data-testid=env-angles] canvas').waitFor();
    expect(lab.pageErrors).toEqual([]);
  });

  it('overlays a second structure’s environment: its golden mean coordination, its g(r) and summed histograms drawn', async () => {
    const other = 'cod-1008029-oxidation-states.cif';
    const coordination: number[] = readXtalGolden(other).env['3.5'].coordination;
    const mean = coordination.reduce((a, b) => a + b, 0) / coordination.length;
    await page.locator('[data-testid=env-overlay-file]').setInputFiles(corpusPath(other));
    await page.locator('[data-testid=env-overlay-name]').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid=env-overlay-name]').innerText()).toBe(
      `overlaid: ${other} (mean coordination ${mean.toFixed(2)})`,
    );
    for (const id of ['env-bonds-overlay', 'env-angles-overlay', 'env-rdf']) await page.locator(`[data-testid=${id}] canvas`).waitFor();
    // The readout under the pointer names the x axis: an angle for bond angles, a distance for lengths and g(r).
    const xName = (id: string) => page.locator(`[data-testid=${id}] .u-legend .u-series`).first().locator('.u-label').innerText();
    expect(await xName('env-angles-overlay')).toBe('angle (°)');
    expect(await xName('env-bonds-overlay')).toBe('r (Å)');
    expect(await xName('env-rdf')).toBe('r (Å)');
    expect(lab.pageErrors).toEqual([]);
  });

  it('downloads the symmetrized CIF: the golden space group, one row per orbit, read back to the conventional cell', async () => {
    const download = await downloadOf(page, 'symmetrized-cif');
    const text = readFileSync(await download.path(), 'utf8');
    expect(text).toMatch(new RegExp(`_symmetry_Int_Tables_number\\s+${g.number}\\b|_space_group_IT_number\\s+${g.number}\\b`));
    const orbits = new Set<number>(g.equivalent_atoms).size;
    const back = parseStructureFile(text, download.suggestedFilename());
    if (!back.ok) throw new Error(back.error);
    expect(back.structures[0].sites.length).toBe(g.std_cell.sites.length);
    // One _atom_site row per orbit: the loop's data lines that carry coordinates.
    const atomRows = text.split('\n').filter((l) => /^\s*[A-Z][a-z]?\S*\s+[A-Z][a-z]?\S*\s+\d+\s+-?[\d.]+\s+-?[\d.]+\s+-?[\d.]+/.test(l));
    expect(atomRows.length).toBe(orbits);
    expect(lab.pageErrors).toEqual([]);
  });
});
