/**
 * Details of the review in issue 21, as the page shows them: no console warning on load or on GLB export (three's
 * Clock deprecation, GLTFExporter's material warning); "XDATCAR (one frame)" downloads under its own name, not as .txt;
 * the atom info numbers sites as the rest of the page does, writes the Wyckoff position as the Symmetry panel's
 * table does ("4a") and shows fractional coordinates wrapped into [0, 1) (a site written at 1.0 reads 0.00000); the
 * Generations page's failure reasons and thumbnail names are not cut off.
 */
import { readFileSync } from 'node:fs';
import type { ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadOf, labUrl, openLab, textFile, waitForFrame, waitIdle, type Lab } from './harness.ts';

let lab: Lab;
const warnings: string[] = [];
const onConsole = (m: ConsoleMessage) => {
  // Playwright's own note on the lab's service worker, which the harness blocks (openLab: serviceWorkers 'block').
  if (m.type() === 'warning' && m.text() !== 'Service Worker registration blocked by Playwright') warnings.push(m.text());
};

beforeAll(async () => {
  lab = await openLab('?fresh');
  lab.page.on('console', onConsole);
  // openLab navigated before the listener was attached: load the page again with it listening.
  await lab.page.reload();
  await lab.page.locator('[data-testid=formula]').waitFor({ timeout: 60_000 });
  await waitIdle(lab.page);
  await waitForFrame(lab.page);
}, 120_000);

afterAll(async () => {
  await lab?.close();
});

async function download(testId: string): Promise<{ name: string; text: string }> {
  const d = await downloadOf(lab.page, testId);
  return { name: d.suggestedFilename(), text: readFileSync((await d.path())!, 'utf8') };
}

describe('console', () => {
  it('has no warning once the Structure page has drawn its structure', () => {
    expect(warnings).toEqual([]);
  });

  it('has no warning on GLB export', async () => {
    const glb = await download('export-glb');
    expect(glb.name).toBe('structlab.glb');
    expect(warnings).toEqual([]);
  });
});

describe('downloads', () => {
  it('names the XDATCAR frame as a VASP file (no .txt added) and a POSCAR .vasp', async () => {
    const page = lab.page;
    await page.locator('[data-testid=export-original]').check();
    await page.locator('[data-testid=export-format]').selectOption('xdatcar');
    const xdatcar = await download('export-structure');
    expect(xdatcar.name).toBe('CsCaH3_XDATCAR');
    expect(xdatcar.text).toContain('Direct configuration=');
    await page.locator('[data-testid=export-format]').selectOption('poscar');
    expect((await download('export-structure')).name).toBe('CsCaH3.vasp');
  });
});

/**
 * Rock salt, conventional cell, every site written with a coordinate at 1.0, the first at 0.99999999 (Na 4a, Cl 4b in
 * Fm-3m): each reads 0.0000 wrapped.
 */
const NACL = `NaCl, sites on the far faces
1.0
5.64 0 0
0 5.64 0
0 0 5.64
Na Cl
4 4
Direct
0.99999999 1.0 1.0
1.0 0.5 0.5
0.5 1.0 0.5
0.5 0.5 1.0
0.5 0.5 0.5
0.5 1.0 1.0
1.0 0.5 1.0
1.0 1.0 0.5
`;
const shownFrac = (line: string) =>
  line
    .trim()
    .split(/\s+/)
    .map((x) => (Number(x) > 0.99999 ? '0.00000' : Number(x).toFixed(5)))
    .join(', ');

describe('atom info', () => {
  it('one site number, the Wyckoff position as the table writes it, and coordinates wrapped into [0, 1)', async () => {
    const page = lab.page;
    await page.locator('[data-testid=file-input]').setInputFiles(textFile('NaCl-faces.vasp', NACL));
    await page.locator('[data-testid=natoms]', { hasText: /^8$/ }).waitFor({ timeout: 60_000 });
    await waitIdle(page);
    await page.locator('[data-testid=spacegroup]', { hasText: 'Fm-3m (225)' }).waitFor({ timeout: 30_000 });
    await waitForFrame(page);
    await page.locator('[data-testid=symmetry-panel] > summary').click();
    const table = page.locator('[data-testid=wyckoff-table]');
    await table.waitFor({ timeout: 60_000 });
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.getAttribute('data-sites') ?? td.textContent)));
    // One row per orbit, the representative's coordinates wrapped: 0.0000, never 1.0000.
    expect(rows.map((r) => [r[0], r[2], r[4]])).toEqual([
      ['0 1 2 3', '4a', '0.0000, 0.0000, 0.0000'],
      ['4 5 6 7', '4b', '0.5000, 0.5000, 0.5000'],
    ]);
    // Every drawn atom (the sites and their boundary images), picked where the viewer draws it.
    const picked = new Set<string>();
    for (let k = 0; k < 12 && picked.size < 2; k++) {
      const atom = await page.evaluate((n) => {
        const sl = window.__structlab!;
        const all = Array.from({ length: sl.natoms() }, (_, i) => ({ i, p: sl.projectAtom(i) })).filter((a) => a.p);
        all.sort((a, b) => a.p!.depth - b.p!.depth);
        const a = all[n % all.length];
        return { i: a.i, x: a.p!.x, y: a.p!.y };
      }, k);
      await page.mouse.click(atom.x, atom.y);
      const info = page.locator('[data-testid=atom-info]');
      await info.waitFor({ timeout: 10_000 });
      const text = await info.innerText();
      expect(text).not.toMatch(/Index|#\d/);
      const site = Number((await page.locator('[data-testid=atom-site]').innerText()).split(' ')[0]);
      expect(site).toBeGreaterThanOrEqual(1);
      expect(site).toBeLessThanOrEqual(8);
      expect(await page.locator('[data-testid=atom-wyckoff]').innerText()).toBe(site <= 4 ? '4a' : '4b');
      expect(await page.locator('[data-testid=atom-frac]').innerText()).toBe(shownFrac(NACL.trim().split('\n')[8 + site - 1]));
      picked.add(site <= 4 ? 'Na' : 'Cl');
      await page.keyboard.press('Escape');
      await info.waitFor({ state: 'detached' });
    }
    expect(picked).toEqual(new Set(['Na', 'Cl']));
    await page.locator('[data-testid=symmetry-panel] > summary').click();
    expect(lab.pageErrors).toEqual([]);
  });
});

describe('Generations: reasons and thumbnail names', () => {
  it('wraps long sample names under their thumbnails and failure reasons in the table: nothing is cut off', async () => {
    const page = lab.page;
    await page.goto(labUrl(lab.url, '?fresh#/generations'));
    await page.locator('[data-testid=generations-page]').waitFor({ timeout: 60_000 });
    const cubic = (second: string) => `x\n1.0\n4 0 0\n0 4 0\n0 0 4\nNa Cl\n1 1\nDirect\n0 0 0\n${second}\n`;
    // Ids as a picked folder of a generator's runs gives them: long, differing only in their middle.
    const ids = ['random_structure_search-chemical_system-NaCl-0001', 'mattergen-chemical_system-NaCl-sample-0001'];
    const file = (id: string, text: string) => textFile(`${id}.vasp`, text);
    await page.locator('[data-testid=gen-files-pred]').setInputFiles([file(ids[0], cubic('0.5 0.5 0.5')), file(ids[1], cubic('0.05 0 0'))]);
    await page.locator('[data-testid=gen-set-pred-info]', { hasText: /2 structures/ }).waitFor({ timeout: 60_000 });
    await page.locator('[data-testid=gen-files-truth]').setInputFiles(ids.map((id) => file(id, cubic('0.5 0.5 0.5'))));
    await page.locator('[data-testid=gen-summary][data-convention=diffcsp]').waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid=gen-progress]'), undefined, { timeout: 120_000 });
    const clipped = (selector: string) =>
      page.evaluate(
        (sel) =>
          [...document.querySelectorAll<HTMLElement>(sel)]
            .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
            .map((e) => e.textContent),
        selector,
      );
    const reasons = await page.locator('[data-testid=gen-table] td[data-col=reason]').allInnerTexts();
    expect(reasons).toContain('atoms_too_close');
    expect(await clipped('[data-testid=gen-table] td[data-col=reason]')).toEqual([]);
    // … and in view: the table pane shows the column without scrolling sideways.
    const outside = await page.evaluate(() => {
      const pane = document.querySelector('[data-testid=gen-table]')!.getBoundingClientRect();
      return [...document.querySelectorAll('[data-testid=gen-table] td[data-col=reason]')]
        .filter((td) => td.getBoundingClientRect().right > pane.right + 0.5)
        .map((td) => td.textContent);
    });
    expect(outside).toEqual([]);
    await page.locator('[data-testid=gen-view-gallery]').click();
    await page.locator('[data-testid=gen-thumb]').first().waitFor({ timeout: 60_000 });
    const names = await page.locator('[data-testid=gen-thumb] .gen-thumb-id').allInnerTexts();
    expect(names.map((n) => n.replace(/\s+/g, '')).sort()).toEqual([...ids].sort());
    expect(await clipped('[data-testid=gen-thumb] .gen-thumb-id')).toEqual([]);
    expect(lab.pageErrors).toEqual([]);
  });
});
