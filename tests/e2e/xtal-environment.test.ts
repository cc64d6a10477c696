/**
 * The Structure page's Local environment panel end to end (built lab, headless Chromium) on LiFePO4: by default it
 * counts CrystalNN's neighbours (Fe 6, Li 6, P 4) and says so; its site table groups the sites by element, CN and motif
 * (Fe octahedral, P tetrahedral) with CrystalNN's probabilities, order parameters and weights as the core computes
 * them (src/core/tasks/crystallography/lab.ts); a site's name selects its atom; the CN colours' legend names the
 * method; "polyhedra from these neighbours" puts exactly the core's triangles in the scene (display-scene.ts with the
 * panel's lists) and a frame is drawn with them; the cutoff method gives the 3.5 Å counts again. At a narrow and a
 * wide window the panel keeps its table inside and scrolls it.
 *
 * ENV_SHOTS=DIR writes screenshots of the panel at both window sizes to DIR, for a person to look at.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDisplay } from '../../src/core/analysis/display-scene.ts';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { packStructure } from '../../src/core/structure/packed.ts';
import { type Structure, majorSpecies } from '../../src/core/structure/structure.ts';
import { type EnvironmentView, environmentView } from '../../src/core/tasks/crystallography/lab.ts';
import { initMoyoNode } from '../../src/node/moyo.ts';
import { corpusPath } from '../xtal-goldens.ts';
import { type Lab, waitForFrame } from './harness.ts';
import { openWithFile } from './open.ts';

const NAME = 'pmg-LiFePO4.cif';
const SHOTS = process.env.ENV_SHOTS;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

let lab: Lab;
let page: Page;
let s: Structure;
let crystalNN: EnvironmentView;
let cutoff: EnvironmentView;

/** "CN (sites)" per element, as the panel's first table writes them. */
function perElement(v: EnvironmentView): Map<string, string> {
  const m = new Map<string, Map<number, number>>();
  v.coordination.forEach((c, k) => {
    const el = majorSpecies(s.sites[k]);
    const counts = m.get(el) ?? new Map<number, number>();
    counts.set(c, (counts.get(c) ?? 0) + 1);
    m.set(el, counts);
  });
  return new Map(
    [...m].map(([el, counts]) => [
      el,
      [...counts]
        .sort((a, b) => a[0] - b[0])
        .map(([c, n]) => `${c} (${n})`)
        .join(', '),
    ]),
  );
}

const coordinationRows = async (): Promise<Map<string, string>> =>
  new Map(
    await page.$$eval('[data-testid=env-coordination] tbody tr', (trs) =>
      trs.map((tr) => [tr.children[0].textContent!, tr.children[1].textContent!] as [string, string]),
    ),
  );

const methodText = () => page.locator('[data-testid=env-method-text]').innerText();

beforeAll(async () => {
  initMoyoNode();
  const parsed = parseStructureFile(readFileSync(corpusPath(NAME), 'utf8'), NAME);
  if (!parsed.ok) throw new Error(parsed.error);
  s = parsed.structures[0];
  crystalNN = environmentView(s, 3.5, 'crystalnn');
  cutoff = environmentView(s, 3.5, 'cutoff');
  lab = await openWithFile(corpusPath(NAME), { viewport: { width: 1400, height: 900 } });
  page = lab.page;
});

afterAll(async () => {
  await lab?.close();
});

describe('local environment panel on CrystalNN', () => {
  it('counts CrystalNN’s neighbours by default and says so: Fe 6, Li 6, P 4', async () => {
    await page.locator('[data-testid=env-panel] > summary').click();
    await page.locator('[data-testid=env-coordination] tbody tr').first().waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid=env-method]').inputValue()).toBe('crystalnn');
    expect(await page.locator('[data-testid=env-cutoff]').count()).toBe(0);
    expect(await methodText()).toBe('neighbours: CrystalNN (pymatgen 2022.11 defaults)');
    const rows = await coordinationRows();
    expect(rows).toEqual(perElement(crystalNN));
    expect([rows.get('Fe'), rows.get('Li'), rows.get('P')]).toEqual(['6 (4)', '6 (4)', '4 (4)']);
    expect(lab.pageErrors).toEqual([]);
  });

  it('groups the sites by element, CN and motif with the CN’s probability, and lists each site’s weighed neighbours', async () => {
    const groups = await page.$$eval('[data-testid=env-group]', (trs) =>
      trs.map((tr) => ({
        element: (tr as HTMLElement).dataset.element!,
        cn: Number((tr as HTMLElement).dataset.cn),
        p: tr.children[2].textContent!,
        motif: tr.children[3].textContent!,
      })),
    );
    // LiFePO4's O sites share one motif name, so one group per element.
    expect(groups.map((g) => `${g.element} ${g.cn}`)).toEqual(['Fe 6', 'Li 6', 'O 4', 'P 4']);
    const range = (xs: number[]) => {
      const [lo, hi] = [Math.min(...xs).toFixed(2), Math.max(...xs).toFixed(2)];
      return lo === hi ? lo : `${lo}–${hi}`;
    };
    for (const g of groups) {
      const sites = crystalNN.sites.filter((_, k) => majorSpecies(s.sites[k]) === g.element);
      expect(g.p, g.element).toBe(range(sites.map((x) => x.cnProbability!)));
      expect(g.motif, g.element).toBe(`${sites[0].motif!.motif} ${range(sites.map((x) => x.motif!.value))}`);
    }
    expect(groups.find((g) => g.element === 'Fe')!.motif).toMatch(/^octahedral /);
    expect(groups.find((g) => g.element === 'Li')!.motif).toMatch(/^octahedral /);
    expect(groups.find((g) => g.element === 'P')!.motif).toMatch(/^tetrahedral /);
    // The Fe group opens to its four sites: CN, probability, motif, and under each every neighbour CrystalNN weighs
    // (those beyond the CN greyed).
    await page.locator('[data-testid=env-group][data-element=Fe] button').click();
    const sites = await page.$$eval('[data-testid=env-site]', (trs) =>
      trs.map((tr) => ({
        site: Number((tr as HTMLElement).dataset.site),
        cells: [...tr.children].slice(1).map((td) => td.textContent!),
        neighbours: [...tr.nextElementSibling!.querySelectorAll('.xtal-neighbours span')].map((x) => ({
          text: x.textContent!,
          beyond: x.className === 'beyond',
        })),
      })),
    );
    if (SHOTS) await page.locator('[data-testid=env-panel]').screenshot({ path: join(SHOTS, 'env-panel-crystalnn.png') });
    const fe = crystalNN.sites.map((_, k) => k).filter((k) => majorSpecies(s.sites[k]) === 'Fe');
    expect(sites.map((x) => x.site)).toEqual(fe);
    for (const row of sites) {
      const want = crystalNN.sites[row.site];
      expect(row.cells).toEqual(['6', want.cnProbability!.toFixed(2), `octahedral ${want.motif!.value.toFixed(2)}`]);
      expect(row.neighbours.map((x) => x.beyond)).toEqual(want.neighbors.map((_, m) => m >= want.cn));
      row.neighbours.forEach((x, m) => {
        const nb = want.neighbors[m];
        expect(x.text).toMatch(new RegExp(`^\\S+ ${nb.distance.toFixed(3)} ${nb.weight!.toFixed(3)}$`));
      });
    }
    expect(lab.pageErrors).toEqual([]);
  });

  it('selects a site’s atom in the view from its name', async () => {
    const k = crystalNN.sites.findIndex((_, j) => majorSpecies(s.sites[j]) === 'Fe');
    await page.locator(`[data-testid=env-site][data-site="${k}"] button`).click();
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid=view-summary]')?.textContent?.includes(text),
      `Selected: Fe site ${k + 1}.`,
    );
    await page.keyboard.press('Escape');
  });

  it('colours the atoms by CrystalNN CN, the legend naming the method', async () => {
    const builds = await page.evaluate(() => window.__structlab!.viewer('main')!.atomBuilds);
    await page.locator('[data-testid=env-color-by-cn]').check();
    await page.waitForFunction((n) => window.__structlab!.viewer('main')!.atomBuilds > n, builds, { timeout: 30_000 });
    const legend = page.locator('[data-testid=legend]');
    expect(await legend.getAttribute('data-coloring')).toBe('coordination');
    const [lo, hi] = [Math.min(...crystalNN.coordination), Math.max(...crystalNN.coordination)];
    expect(await page.locator('[data-testid=legend-coordination]').innerText()).toMatch(new RegExp(`^CrystalNN CN: ${lo}\\s+${hi}$`));
    expect(lab.pageErrors).toEqual([]);
  });

  it('draws the polyhedra of the panel’s neighbours: the core’s triangles, in a drawn frame; off again restores the setting', async () => {
    const expected = buildDisplay(packStructure(s), { polyhedra: true, bonds: false, polyhedronNeighbors: crystalNN.polyhedra });
    // Fe and Li octahedra (8 triangles), P tetrahedra (4), around every drawn copy, boundary images included.
    const drawn = (el: string) => Array.from(expected.element).filter((e) => expected.elements[e] === el).length;
    expect(expected.polyElement.length).toBe(8 * drawn('Fe') + 8 * drawn('Li') + 4 * drawn('P'));
    expect(await page.locator('[data-testid=setting-showPolyhedra]').isChecked()).toBe(false);
    const frames = await page.evaluate(() => window.__structlab!.frames);
    await page.locator('[data-testid=env-polyhedra]').check();
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid=env-polyhedra]')?.getAttribute('data-triangles')) === n,
      expected.polyElement.length,
      { timeout: 30_000 },
    );
    await waitForFrame(page, frames);
    expect(await page.locator('[data-testid=setting-showPolyhedra]').isChecked()).toBe(true);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'env-polyhedra.png') });
    await page.locator('[data-testid=env-polyhedra]').uncheck();
    await page.waitForFunction(
      () => document.querySelector('[data-testid=env-polyhedra]')?.getAttribute('data-triangles') === '0',
      undefined,
      {
        timeout: 30_000,
      },
    );
    expect(await page.locator('[data-testid=setting-showPolyhedra]').isChecked()).toBe(false);
    expect(lab.pageErrors).toEqual([]);
  });

  it('switches to the cutoff method: the radius counts (Fe 14, P 16), named in the panel and the legend', async () => {
    await page.locator('[data-testid=env-method]').selectOption('cutoff');
    await page.waitForFunction(() => document.querySelector('[data-testid=env-method-text]')?.textContent?.includes('within'), undefined, {
      timeout: 60_000,
    });
    expect(await methodText()).toBe('neighbours: all neighbours within 3.5 Å');
    expect(await page.locator('[data-testid=env-cutoff]').inputValue()).toBe('3.5');
    const rows = await coordinationRows();
    expect(rows).toEqual(perElement(cutoff));
    expect([rows.get('Fe'), rows.get('P')]).toEqual(['14 (4)', '16 (4)']);
    const [lo, hi] = [Math.min(...cutoff.coordination), Math.max(...cutoff.coordination)];
    await page.waitForFunction(
      (text) => document.querySelector('[data-testid=legend-coordination]')?.textContent?.startsWith(text),
      'CN within 3.5 Å',
    );
    expect(await page.locator('[data-testid=legend-coordination]').innerText()).toMatch(new RegExp(`^CN within 3\\.5 Å: ${lo}\\s+${hi}$`));
    // No CrystalNN probabilities, motifs or weights for a radius.
    const cells = await page.$$eval('[data-testid=env-group]', (trs) =>
      trs.flatMap((tr) => [tr.children[2].textContent, tr.children[3].textContent]),
    );
    expect(cells.length).toBeGreaterThanOrEqual(8);
    expect(new Set(cells)).toEqual(new Set(['—']));
    expect(lab.pageErrors).toEqual([]);
  });
});

describe('local environment panel layout', () => {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    it(`keeps the site table inside the panel and scrolls it at ${size.width}×${size.height}`, async () => {
      await page.setViewportSize(size);
      // Every group open: 28 sites with 14–16 neighbours each (the cutoff method) are more than the box shows.
      const closed = page.locator('[data-testid=env-group] button[aria-expanded=false]');
      while ((await closed.count()) > 0) await closed.first().click();
      await page
        .locator('[data-testid=env-site]')
        .nth(s.sites.length - 1)
        .waitFor();
      const box = await page.locator('[data-testid=env-sites-scroll]').evaluate((el) => {
        const panel = el.closest('aside')!;
        const r = el.getBoundingClientRect();
        const p = panel.getBoundingClientRect();
        return {
          left: r.left - p.left,
          right: p.right - r.right,
          height: el.clientHeight,
          scrollHeight: el.scrollHeight,
          panelOverflow: panel.scrollWidth - panel.clientWidth,
          tableOverflow: el.scrollWidth - el.clientWidth,
        };
      });
      expect(box.left, 'the table starts inside the panel').toBeGreaterThanOrEqual(0);
      expect(box.right, 'the table ends inside the panel').toBeGreaterThanOrEqual(0);
      expect(box.panelOverflow, 'nothing widens the panel').toBeLessThanOrEqual(0);
      expect(box.tableOverflow, 'the neighbours wrap instead of widening the table').toBeLessThanOrEqual(0);
      expect(box.height, 'the site table keeps to its box').toBeLessThanOrEqual(320);
      expect(box.scrollHeight, 'and scrolls').toBeGreaterThan(box.height);
      if (SHOTS) await page.locator('[data-testid=env-panel]').screenshot({ path: join(SHOTS, `env-panel-${size.width}.png`) });
      expect(lab.pageErrors).toEqual([]);
    });
  }
});
