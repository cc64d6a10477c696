/**
 * The e2e tests' way into the built lab: `vite preview` and headless Chromium (SwiftShader). One of each serves the
 * whole run (tests/e2e/global-setup.ts); `openLab` gives each test file its own browser context on them.
 */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Download, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchChromium } from '../../scripts/support/browser.ts';

// The preview server, Chromium and the waits, shared with scripts/screenshot.ts.
export { CHROMIUM_ARGS, CHROMIUM_PATH, freePort, startPreview, waitForFrame, waitIdle } from '../../scripts/support/browser.ts';

/**
 * A fresh context on the run's shared Chromium (tests/e2e/global-setup.ts), and the connection it lives on. If that
 * browser has died (the connection is refused, or the context cannot be made), this file launches a Chromium of its
 * own and says so on stderr, rather than failing every later file; the connect timeout keeps a wedged browser from
 * hanging the run.
 */
async function newLabContext(options: BrowserContextOptions): Promise<{ browser: Browser; context: BrowserContext }> {
  try {
    const browser = await chromium.connectOverCDP(inject('e2eBrowserCdp'), { timeout: 30_000 });
    try {
      return { browser, context: await browser.newContext(options) };
    } catch (e) {
      await browser.close().catch(() => undefined);
      throw e;
    }
  } catch (e) {
    process.stderr.write(`e2e: the shared Chromium did not answer (${(e as Error).message.split('\n')[0]}); this file launches its own\n`);
    const browser = await launchChromium();
    return { browser, context: await browser.newContext(options) };
  }
}

/** The drawn atom nearest the camera, where the viewer projects it on the page (null when none is in view). */
export function frontmostAtom(page: Page): Promise<{ i: number; x: number; y: number; depth: number } | null> {
  return page.evaluate(() => {
    const sl = window.__structlab!;
    let best: { i: number; x: number; y: number; depth: number } | null = null;
    for (let i = 0; i < sl.natoms(); i++) {
      const p = sl.projectAtom(i);
      if (p && (!best || p.depth < best.depth)) best = { i, ...p };
    }
    return best;
  });
}

/** The built lab served by `vite preview` and opened in a fresh headless Chromium page, collecting page errors. */
export interface Lab {
  page: Page;
  /** The preview server's address (for navigating elsewhere in the lab). */
  url: string;
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * The address of `path` (e.g. "?fresh#/compare") in the lab served at `base`, with `testhooks` added: the lab
 * installs `window.__structlab` and the per-frame `body[data-rendered]` counter only when asked (src/app/App.tsx).
 * Every navigation of a test goes through this.
 */
export function labUrl(base: string, path = ''): string {
  const url = new URL(path, base);
  url.searchParams.set('testhooks', '1');
  return url.href;
}

/**
 * Opens `path` (e.g. "?fresh#/compare") of the built lab in a fresh browser context of the run's shared Chromium,
 * test hooks on; downloads are accepted. No service worker unless `options` allows one (the built lab registers
 * one, src/main.tsx): page.route must see every request; tests/e2e/offline.test.ts allows it. close() closes
 * this file's context and connection only; closeOpenLabs does it for a file that did not.
 */
export async function openLab(
  path: string,
  viewport = { width: 1280, height: 800 },
  options: Pick<BrowserContextOptions, 'serviceWorkers'> = {},
): Promise<Lab> {
  const url = inject('e2ePreviewUrl');
  const { browser, context } = await newLabContext({ viewport, acceptDownloads: true, serviceWorkers: 'block', ...options });
  try {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(labUrl(url, path));
    const lab: Lab = {
      page,
      url,
      pageErrors,
      close: async () => {
        openLabs.delete(lab);
        await context.close().catch(() => undefined);
        await browser.close();
      },
    };
    openLabs.add(lab);
    return lab;
  } catch (e) {
    await browser.close().catch(() => undefined);
    throw e;
  }
}

/** The labs of this worker not closed yet. */
const openLabs = new Set<Lab>();

/**
 * Closes the labs a test file left open (tests/e2e/setup.ts, after each file): the e2e files share one worker
 * process (isolate: false in vite.config.ts), so a context a failed file never closed would otherwise keep
 * drawing in the shared browser through the files after it.
 */
export async function closeOpenLabs(): Promise<void> {
  for (const lab of [...openLabs]) await lab.close().catch(() => undefined);
}

/**
 * Clicks `[data-testid=button]` and answers the download it starts. Without one within `timeout`, the error says what
 * the page showed instead (its alerts, its busy bar, whether the button was enabled): a bare "waiting for event
 * download" cannot tell a refused export from a lost click (CI, 2026-12-04).
 */
export async function downloadOf(page: Page, button: string, timeout = 30_000): Promise<Download> {
  const started = page.waitForEvent('download', { timeout });
  started.catch(() => undefined);
  try {
    await page.locator(`[data-testid="${button}"]`).click({ timeout });
    return await started;
  } catch (e) {
    const shown = await page
      .evaluate((button) => {
        const target = document.querySelector<HTMLButtonElement>(`[data-testid="${button}"]`);
        const alerts = [...document.querySelectorAll('[role=alert], [data-testid=progress]')].map((a) => a.textContent?.trim());
        return `${target ? `button ${target.disabled ? 'disabled' : 'enabled'}` : 'no button'}; ${alerts.join(' | ') || 'no alert'}`;
      }, button)
      .catch((reason: unknown) => `nothing readable (${String(reason)})`);
    throw new Error(`${button}: no download (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); the page showed ${shown}`, {
      cause: e,
    });
  }
}

/** A file for `setInputFiles` made from text. */
export const textFile = (name: string, text: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });

/** What `clickInPageWhen` saw when it clicked: how many elements matched, and the first one's value and max. */
export interface ClickedAt {
  count: number;
  value: number;
  max: number;
}

/**
 * Arms a click on `[data-testid=button]` that the page itself makes the moment `selector` matches at least `count`
 * elements (the first one's `value` attribute at least `minValue`) while `shown` matches too, runs `start` (the
 * action that starts the work), and returns once the click is made. Cancelling work under way must not race the
 * work: a Playwright click needs round trips to the page and the button to hold still for two frames, and on a fast
 * machine the work can end first (CI, 2026-12-04).
 */
export async function clickInPageWhen(
  page: Page,
  button: string,
  when: { selector: string; count?: number; minValue?: number; shown?: string },
  start: () => Promise<unknown>,
): Promise<ClickedAt> {
  await page.evaluate(
    ({ button, selector, count, minValue, shown }) => {
      const key = '__clickedAt';
      delete (window as unknown as Record<string, unknown>)[key];
      const check = () => {
        const matched = document.querySelectorAll(selector);
        const target = document.querySelector<HTMLButtonElement>(`[data-testid=${button}]`);
        if (!target || matched.length < count || (shown && !document.querySelector(shown))) return;
        const first = matched[0];
        const value = Number(first.getAttribute('value'));
        if (minValue !== null && !(value >= minValue)) return;
        observer.disconnect();
        (window as unknown as Record<string, unknown>)[key] = { count: matched.length, value, max: Number(first.getAttribute('max')) };
        target.click();
      };
      const observer = new MutationObserver(check);
      observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
    },
    { button, selector: when.selector, count: when.count ?? 1, minValue: when.minValue ?? null, shown: when.shown ?? null },
  );
  await start();
  const clicked = await page.waitForFunction(() => (window as unknown as Record<string, unknown>).__clickedAt, undefined, {
    timeout: 30_000,
  });
  return (await clicked.jsonValue()) as ClickedAt;
}
