/**
 * Every page looks right at common window sizes (issue 21, part 2): each page with its default content at
 * 1280×800, 1440×900 and 1920×1080. Pages that show 3D by default give their views at least a quarter of the window
 * and the largest at least 240 px of height; text drawn over a view (captions, legends, toolbars, colour-bar labels)
 * never overlaps other text; colour bars (src/ui/ColorBar.tsx) show their gradient and keep their end values —
 * one number each — apart; no page error and no console error. One page per window size, moving between the lab's
 * pages by their tabs. At 1440×900 the side panel's plots are also widened (the panel's drag handle, by keyboard and
 * pointer) and opened large (the plot's dialog): the plot's canvas must grow.
 *
 * LAYOUT_SHOTS=DIR writes a screenshot of every page at every size to DIR, for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Lab, openLab, waitIdle } from './harness.ts';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;

const SHOTS = process.env.LAYOUT_SHOTS;
if (SHOTS) mkdirSync(SHOTS, { recursive: true });

/** The number of 3D views a page shows with its default content (0: none). */
interface PageSpec {
  id: string;
  views: number;
  /** Resolves once the page's default content is shown. */
  ready: (page: Page) => Promise<void>;
}

const gone = (page: Page, testId: string) =>
  page.waitForFunction((id) => !document.querySelector(`[data-testid=${id}]`), testId, { timeout: 60_000 });

/**
 * The page's 3D canvases are laid out and every viewer that holds atoms has drawn (the viewers draw on demand: no
 * further frame comes once the scene is still).
 */
const drawn = (page: Page, views: number) =>
  page.waitForFunction(
    (n) => {
      const shown = [...document.querySelectorAll('canvas')].filter((c) => !c.closest('.uplot') && c.getBoundingClientRect().width > 0);
      // A canvas that does not fill its host yet is one whose resize observer has not run since the page was shown
      // (a browser's first size for a canvas is 300×150): measured then, the view would look 2 % of the window.
      const sized = shown.every((c) => {
        const own = c.getBoundingClientRect();
        const host = c.parentElement!.getBoundingClientRect();
        return Math.abs(own.width - host.width) < 2 && Math.abs(own.height - host.height) < 2;
      });
      return shown.length >= n && sized && Object.values(window.__structlab?.viewers() ?? {}).every((v) => v.natoms === 0 || v.frames > 0);
    },
    views,
    { timeout: 60_000 },
  );

const PAGES: PageSpec[] = [
  {
    id: 'structure',
    views: 1,
    ready: async (page) => {
      await page.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'Cs1 Ca1 H3', undefined, {
        timeout: 60_000,
      });
      await waitIdle(page);
      await drawn(page, 1);
    },
  },
  {
    id: 'nanoparticle',
    views: 1,
    ready: async (page) => {
      await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid=np-natoms]')?.textContent ?? ''), undefined, {
        timeout: 60_000,
      });
      await drawn(page, 1);
    },
  },
  {
    id: 'compare',
    views: 1,
    ready: async (page) => {
      await page.locator('[data-testid=cmp-metrics]').waitFor({ timeout: 60_000 });
      await gone(page, 'compare-progress');
      await drawn(page, 1);
    },
  },
  {
    id: 'onng',
    views: 0,
    ready: (page) => page.locator('[data-testid=onng-page] h2').first().waitFor({ timeout: 60_000 }),
  },
  {
    id: 'atomworld',
    views: 4,
    ready: async (page) => {
      await page.locator('[data-testid=aw-actions]').waitFor({ timeout: 60_000 });
      await gone(page, 'aw-progress');
      await page.locator('[data-testid=aw-overlay-legend]').waitFor({ timeout: 60_000 });
      await drawn(page, 4);
    },
  },
  {
    id: 'fem',
    views: 1,
    ready: async (page) => {
      await page.waitForFunction(() => (window.__structlab?.viewers()['fem-frame']?.frames ?? 0) > 0, undefined, { timeout: 60_000 });
      await drawn(page, 1);
    },
  },
  {
    id: 'generations',
    views: 0,
    ready: (page) => page.locator('[data-testid=generations-page]').waitFor({ timeout: 60_000 }),
  },
];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The 3D views' canvases (uPlot's canvases are plots, not views), as drawn in the window. */
const viewBoxes = (page: Page): Promise<Box[]> =>
  page.evaluate(() =>
    [...document.querySelectorAll('canvas')]
      .filter((c) => !c.closest('.uplot'))
      .map((c) => {
        const r = c.getBoundingClientRect();
        const x = Math.max(0, r.left);
        const y = Math.max(0, r.top);
        return {
          x,
          y,
          width: Math.max(0, Math.min(innerWidth, r.right) - x),
          height: Math.max(0, Math.min(innerHeight, r.bottom) - y),
        };
      })
      .filter((b) => b.width > 0 && b.height > 0),
  );

/**
 * Pairs of visible text runs over a 3D view whose boxes overlap (more than a pixel each way). Each text node's own
 * line boxes (Range.getClientRects), so a caption that wraps is measured line by line, not as its element's box.
 */
const textOverlaps = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const views = new Set(
      [...document.querySelectorAll('canvas')].filter((c) => !c.closest('.uplot')).map((c) => c.closest('.view') ?? c.parentElement!),
    );
    const runs: { text: string; node: number; r: DOMRect }[] = [];
    let node = 0;
    for (const view of views) {
      const area = view.getBoundingClientRect();
      const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent?.trim() ?? '';
        const el = n.parentElement;
        if (!text || !el || el.closest('.sr-only, option, select, script, style')) continue;
        if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        node++;
        const range = document.createRange();
        range.selectNodeContents(n);
        for (const r of range.getClientRects())
          if (r.width > 0 && r.height > 0 && r.right > area.left && r.left < area.right && r.bottom > area.top && r.top < area.bottom)
            runs.push({ text: text.slice(0, 40), node, r });
      }
    }
    const found: string[] = [];
    for (let i = 0; i < runs.length; i++)
      for (let j = i + 1; j < runs.length; j++) {
        const a = runs[i].r,
          b = runs[j].r;
        if (runs[i].node === runs[j].node) continue;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) found.push(`"${runs[i].text}" overlaps "${runs[j].text}" (${w.toFixed(0)}×${h.toFixed(0)} px)`);
      }
    return found;
  });

interface ColorBarLook {
  id: string;
  gradient: string;
  ramp: Box;
  ends: { text: string; box: Box }[];
}

const colorBars = (page: Page): Promise<ColorBarLook[]> =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-colorbar]')]
      .filter((bar) => bar.checkVisibility())
      .map((bar) => {
        const ramp = bar.querySelector<HTMLElement>('[data-colorbar-ramp]')!;
        const box = (el: Element) => {
          const r = el.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        };
        return {
          id: bar.dataset.testid ?? '',
          gradient: getComputedStyle(ramp).backgroundImage,
          ramp: box(ramp),
          ends: [...bar.querySelectorAll('[data-colorbar-end]')].map((el) => ({ text: el.textContent ?? '', box: box(el) })),
        };
      }),
  );

const overlap = (a: Box, b: Box) =>
  Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0;

/** A colour bar's end value: one number. */
const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/;

/** No text over a view overlaps other text; every colour bar shown draws its ramp, with one number at each end, apart. */
async function expectTextAndColorBars(page: Page): Promise<void> {
  expect(await textOverlaps(page)).toEqual([]);
  for (const bar of await colorBars(page)) {
    expect(bar.gradient, `${bar.id}: the ramp is drawn`).toMatch(/gradient\(/);
    expect(bar.ramp.width, `${bar.id}: the ramp's width`).toBeGreaterThanOrEqual(60);
    expect(bar.ramp.height, `${bar.id}: the ramp's height`).toBeGreaterThanOrEqual(6);
    expect(bar.ends.map((e) => e.text)).toEqual([expect.stringMatching(NUMBER), expect.stringMatching(NUMBER)]);
    expect(overlap(bar.ends[0].box, bar.ends[1].box), `${bar.id}: its end values apart`).toBe(false);
    for (const end of bar.ends) expect(overlap(end.box, bar.ramp), `${bar.id}: "${end.text}" beside the ramp`).toBe(false);
  }
}

/** A plot's canvas width in CSS pixels. */
const canvasWidth = (page: Page, selector: string) =>
  page
    .locator(`${selector} canvas`)
    .first()
    .evaluate((c) => c.getBoundingClientRect().width);

for (const size of SIZES) {
  describe(`at ${size.width}×${size.height}`, () => {
    let lab: Lab;
    let page: Page;
    // The page's console keeps its messages from the first load on (the listener of openLab's caller would come late).
    const consoleErrors = async () =>
      (await page.consoleMessages({ filter: 'all' })).filter((m) => m.type() === 'error').map((m) => m.text());

    beforeAll(async () => {
      lab = await openLab('?fresh#/structure', size);
      page = lab.page;
    });

    afterAll(async () => {
      await lab?.close();
    });

    // The widest window visits the pages in the reverse order: a page that borrows another page's stylesheet
    // (which loads only with that page's chunk) shows it in one order and not in the other.
    for (const spec of size.width === 1920 ? [...PAGES].reverse() : PAGES) {
      it(`${spec.id} is laid out`, async () => {
        await page.locator(`[data-testid=tab-${spec.id}]`).click();
        await spec.ready(page);
        if (SHOTS) await page.screenshot({ path: join(SHOTS, `${spec.id}-${size.width}.png`) });

        if (spec.views > 0) {
          const views = await viewBoxes(page);
          expect(views.length, 'the 3D views').toBe(spec.views);
          const covered = views.reduce((sum, v) => sum + v.width * v.height, 0) / (size.width * size.height);
          expect(covered, `the 3D views cover ${(100 * covered).toFixed(0)} % of the window`).toBeGreaterThanOrEqual(0.25);
          expect(Math.max(...views.map((v) => v.height)), 'the largest view is tall enough').toBeGreaterThanOrEqual(240);
        }

        await expectTextAndColorBars(page);
        expect(lab.pageErrors).toEqual([]);
        expect(await consoleErrors()).toEqual([]);
      });
    }

    if (size.width === 1280) {
      it('colour bars shown on request: the Nanoparticle page by coordination, FEM-Bench after a linear solve', async () => {
        await page.locator('[data-testid=tab-nanoparticle]').click();
        await page.locator('[data-testid=np-color]').selectOption('coordination');
        await page.locator('[data-testid=np-legend][data-colorbar]').waitFor();
        await expectTextAndColorBars(page);
        await page.locator('[data-testid=tab-fem]').click();
        await page.locator('[data-testid=fem-run-linear]').click();
        await page.locator('[data-testid=fem-colorbar]').waitFor({ timeout: 60_000 });
        expect((await colorBars(page)).map((b) => b.id)).toEqual(['fem-colorbar']);
        await expectTextAndColorBars(page);
        expect(lab.pageErrors).toEqual([]);
        expect(await consoleErrors()).toEqual([]);
      });
    }

    if (size.width === 1440) {
      it('the Structure page side panel widens, and its plots with it; a plot opens large and Escape closes it', async () => {
        await page.locator('[data-testid=tab-structure]').click();
        await page.locator('[data-testid=formula]').waitFor();
        // The Diffraction and Local environment panels open (each computes in a worker).
        for (const id of ['xrd-panel', 'env-panel']) {
          const panel = page.locator(`[data-testid=${id}]`);
          if (!(await panel.evaluate((d) => (d as HTMLDetailsElement).open))) await panel.locator('> summary').click();
        }
        await page.locator('[data-testid=xrd-plot] canvas').waitFor({ timeout: 60_000 });
        await page.locator('[data-testid=env-bonds] canvas').waitFor({ timeout: 60_000 });
        const before = await canvasWidth(page, '[data-testid=xrd-plot]');
        const envBefore = await canvasWidth(page, '[data-testid=env-bonds]');
        const panelBefore = await page.locator('aside.panel.right').evaluate((a) => a.getBoundingClientRect().width);
        expect(before, 'the plot fills the panel').toBeGreaterThan(panelBefore - 60);

        // The panel's drag handle by keyboard: End widens the panel as far as the view allows.
        await page.locator('[data-testid=panel-resizer]').focus();
        await page.keyboard.press('End');
        await page.waitForFunction((w) => {
          const c = document.querySelector('[data-testid=xrd-plot] canvas');
          return !!c && c.getBoundingClientRect().width > w + 200;
        }, before);
        const widened = await canvasWidth(page, '[data-testid=xrd-plot]');
        expect(await canvasWidth(page, '[data-testid=env-bonds]'), 'the bond-length histogram widens too').toBeGreaterThan(envBefore + 200);
        const view = (await viewBoxes(page))[0];
        expect(view.width, 'the 3D view keeps its minimum width').toBeGreaterThanOrEqual(360);
        const remembered = await page.evaluate(() => localStorage.getItem('structlab/panel-width/structure'));
        expect(Number(remembered)).toBeGreaterThan(panelBefore + 200);

        // Opened large: a modal dialog with the plot at most of the window's width; Escape closes it.
        await page.locator('[data-testid=xrd-plot-expand]').click();
        await page.locator('[data-testid=xrd-plot-dialog] canvas').waitFor();
        const large = await canvasWidth(page, '[data-testid=xrd-plot-dialog]');
        expect(large, 'the dialog plot is large').toBeGreaterThan(Math.max(widened, 0.8 * size.width * 0.94) - 40);
        await page.keyboard.press('Escape');
        await gone(page, 'xrd-plot-dialog');

        // Remembered: a reload opens the panel at the chosen width.
        await page.reload();
        await page.locator('[data-testid=formula]').waitFor({ timeout: 60_000 });
        const panelWidth = () => page.locator('aside.panel.right').evaluate((a) => Math.round(a.getBoundingClientRect().width));
        expect(await panelWidth()).toBe(Number(remembered));

        // Enter puts the panel back to its default width, and forgets the chosen one.
        await page.locator('[data-testid=panel-resizer]').focus();
        await page.keyboard.press('Enter');
        await expect.poll(panelWidth).toBe(Math.round(panelBefore));
        expect(await page.evaluate(() => localStorage.getItem('structlab/panel-width/structure'))).toBeNull();

        // Dragged with the pointer: the edge follows it; a double-click on the handle restores the default.
        const handle = (await page.locator('[data-testid=panel-resizer]').boundingBox())!;
        const [x, y] = [handle.x + handle.width / 2, handle.y + handle.height / 2];
        await page.mouse.move(x, y);
        await page.mouse.down();
        await page.mouse.move(x - 150, y, { steps: 5 });
        await page.mouse.up();
        await expect.poll(panelWidth).toBe(Math.round(panelBefore) + 150);
        await page.locator('[data-testid=panel-resizer]').dblclick();
        await expect.poll(panelWidth).toBe(Math.round(panelBefore));
        expect(lab.pageErrors).toEqual([]);
        expect(await consoleErrors()).toEqual([]);
      });

      it('plot axes are drawn in the theme’s text colour: light on the dark theme, dark on the light one', async () => {
        await page.locator('[data-testid=tab-structure]').click();
        const panel = page.locator('[data-testid=xrd-panel]');
        if (!(await panel.evaluate((d) => (d as HTMLDetailsElement).open))) await panel.locator('> summary').click();
        await page.locator('[data-testid=xrd-plot] canvas').waitFor({ timeout: 60_000 });
        // The mean luminance (0–1) of the drawn pixels of the value axis: the canvas is transparent elsewhere.
        const axisLuminance = () =>
          page.locator('[data-testid=xrd-plot] canvas').evaluate((c: HTMLCanvasElement) => {
            const axis = c.closest('.uplot')!.querySelectorAll<HTMLElement>('.u-axis')[1];
            const ratio = c.width / c.getBoundingClientRect().width;
            const w = Math.max(1, Math.floor(axis.getBoundingClientRect().width * ratio));
            const pixels = c.getContext('2d')!.getImageData(0, 0, w, c.height).data;
            let sum = 0;
            let n = 0;
            for (let k = 0; k < pixels.length; k += 4) {
              if (pixels[k + 3] < 128) continue;
              sum += (0.2126 * pixels[k] + 0.7152 * pixels[k + 1] + 0.0722 * pixels[k + 2]) / 255;
              n++;
            }
            return n > 20 ? sum / n : NaN;
          });
        const toggle = page.locator('[data-testid=theme-toggle]');
        const setTheme = async (theme: string) => {
          while ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await toggle.click();
        };
        await setTheme('light');
        await expect.poll(axisLuminance).toBeLessThan(0.35);
        await setTheme('dark');
        await expect.poll(axisLuminance).toBeGreaterThan(0.65);
        await setTheme('light');
        await expect.poll(axisLuminance).toBeLessThan(0.35);
        expect(lab.pageErrors).toEqual([]);
      });
    }
  });
}
