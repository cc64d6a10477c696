/**
 * The built lab under its Content-Security-Policy (vite.config.ts): every page loads, runs its worker and draws
 * with no violation, in the document or in a worker. Then the lab's side of the resource policy: a file over
 * LIMITS.inputBytes is refused with the policy sentence before a byte is read (a small file whose reported
 * size is 300 MiB, since a real one is too costly here), and a file whose last load failed or never finished
 * is offered for a retry on the next start instead of being parsed again.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, REFERENCE } from '../../scripts/support/paths.ts';
import { type Lab, labUrl, openLab, textFile, waitForFrame, waitIdle } from './harness.ts';

declare global {
  interface Window {
    __csp?: string[];
    __hugeReads?: number;
  }
}

let lab: Lab;
let page: Page;
const consoleViolations: string[] = [];
const CSP_TEXT = /Content Security Policy|Content-Security-Policy|Refused to (load|execute|compile|create|connect|apply|evaluate)/i;
const HUGE = 300 * 2 ** 20;
const HUGE_SENTENCE = 'huge.cif is 300 MiB; the limit is 256 MiB per input';

/** Runs in every document before the app: records CSP violations, and makes files named huge* report 300 MiB. */
function initScript(huge: number): void {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__csp!.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
  });
  window.__hugeReads = 0;
  const size = Object.getOwnPropertyDescriptor(Blob.prototype, 'size')!.get!;
  Object.defineProperty(File.prototype, 'size', {
    configurable: true,
    get(this: File) {
      return this.name.startsWith('huge') ? huge : size.call(this);
    },
  });
  for (const method of ['text', 'arrayBuffer', 'stream', 'slice'] as const) {
    const real = Blob.prototype[method] as (...a: unknown[]) => unknown;
    Object.defineProperty(Blob.prototype, method, {
      configurable: true,
      value(this: Blob, ...args: unknown[]) {
        if (this instanceof File && this.name.startsWith('huge')) window.__hugeReads!++;
        return real.apply(this, args);
      },
    });
  }
}

let visits = 0;
/** Opens a page of the lab in a new document (a new `?visit=` forces a load, not a hash change). */
async function visit(hash: string, fresh = true): Promise<void> {
  await page.goto(labUrl(lab.url, `?${fresh ? 'fresh&' : ''}visit=${++visits}#/${hash}`));
}

/** Waits until the Structure page shows a structure and its worker is idle. */
async function structureShown(): Promise<void> {
  await page.waitForFunction(() => /\S/.test(document.querySelector('[data-testid=formula]')?.textContent ?? ''), undefined, {
    timeout: 60_000,
  });
  await waitIdle(page);
}

async function violations(): Promise<string[]> {
  return [...(await page.evaluate(() => window.__csp ?? ['the init script did not run'])), ...consoleViolations];
}

beforeAll(async () => {
  lab = await openLab('?fresh#/structure');
  page = lab.page;
  await page.addInitScript(initScript, HUGE);
  page.on('console', (m) => {
    if (CSP_TEXT.test(m.text())) consoleViolations.push(`console: ${m.text()}`);
  });
  page.on('worker', (w) =>
    w.on('console', (m) => {
      if (CSP_TEXT.test(m.text())) consoleViolations.push(`worker ${w.url()}: ${m.text()}`);
    }),
  );
});

afterAll(async () => {
  await lab?.close();
});

describe('Content-Security-Policy', () => {
  it('the built page and the preview server carry the same policy: self only, no inline script', async () => {
    const res = await fetch(lab.url);
    const header = res.headers.get('content-security-policy');
    const html = await res.text();
    expect(header).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(header).toMatch(/worker-src 'self' blob:(;|$)/);
    expect(header).toMatch(/connect-src 'self'(;|$)/);
    expect(header).toMatch(/default-src 'self'(;|$)/);
    expect(header).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*|https?:/);
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1]?.replaceAll('&#39;', "'");
    expect(meta).toBe(header);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    // A worker takes its policy from its own response, not from the page.
    const worker = readdirSync(join(REPO_ROOT, 'dist', 'assets')).find((f) => /^io\.worker-.*\.js$/.test(f));
    expect(worker).toBeDefined();
    expect((await fetch(`${lab.url}assets/${worker}`)).headers.get('content-security-policy')).toBe(header);
  });

  it('Structure: the default dataset is parsed (io worker, moyo wasm) and drawn without a violation', async () => {
    await visit('structure');
    await page.waitForFunction(() => /\S/.test(document.querySelector('[data-testid=formula]')?.textContent ?? ''), undefined, {
      timeout: 60_000,
    });
    await page.waitForFunction(() => /\(\d+\)/.test(document.querySelector('[data-testid=spacegroup]')?.textContent ?? ''), undefined, {
      timeout: 60_000,
    });
    await waitForFrame(page);
    await waitIdle(page);
    expect(await violations()).toEqual([]);
  });

  it('Nanoparticle: a particle carved in the c2np worker and drawn without a violation', async () => {
    await visit('nanoparticle');
    await page.locator('[data-testid=nanoparticle-page]').waitFor();
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid=np-natoms]')?.textContent ?? ''), undefined, {
      timeout: 60_000,
    });
    await waitForFrame(page);
    expect(await violations()).toEqual([]);
  });

  it('Compare: the demo pair scored in the compare worker and drawn without a violation', async () => {
    await visit('compare');
    await page.locator('[data-testid=cmp-metrics]').waitFor({ timeout: 60_000 });
    await waitForFrame(page);
    expect(await violations()).toEqual([]);
  });

  it('AtomWorld: the demo batch judged in the atomworld worker without a violation', async () => {
    await visit('atomworld');
    await page.locator('[data-testid=aw-actions]').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid=aw-progress]'), undefined, { timeout: 60_000 });
    await page.waitForFunction(() => Object.values(window.__structlab!.viewers()).some((v) => v.frames > 0), undefined, {
      timeout: 30_000,
    });
    expect(await violations()).toEqual([]);
  });

  it('FEM-Bench: a linear solve in the fem worker, drawn without a violation', async () => {
    await visit('fem');
    await page.waitForFunction(() => (window.__structlab?.viewers()['fem-frame']?.frames ?? 0) > 0, undefined, { timeout: 30_000 });
    await page.locator('[data-testid=fem-run-linear]').click();
    await page.locator('[data-testid=fem-linear-results]').waitFor({ timeout: 30_000 });
    expect(await violations()).toEqual([]);
  });

  it('O-NNG: an outcomes table analysed in the onng worker without a violation', async () => {
    await visit('onng');
    await page.locator('[data-testid=onng-page]').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid=onng-results-input]').setInputFiles(join(REFERENCE, 'onng', 'derived', 'per_problem_outcomes.csv'));
    await page.locator('[data-testid=onng-anova]').waitFor({ timeout: 60_000 });
    expect(await violations()).toEqual([]);
    expect(lab.pageErrors).toEqual([]);
  });

  it('the checks above can fail: an inline script is reported, and the policy reaches workers', async () => {
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.appendChild(s);
    });
    await expect.poll(() => page.evaluate(() => window.__csp!.join('\n')), { timeout: 10_000 }).toMatch(/^script-src/);
    await expect.poll(() => consoleViolations.join('\n'), { timeout: 10_000 }).toMatch(/Content Security Policy/);
    expect(await page.evaluate(() => (window as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    // A worker's violations fire in the worker, out of the listeners' reach; the pages' checks above therefore
    // also require each worker's result (its chunks, the moyo wasm fetched and compiled). Here a worker shows
    // that the policy is in force there.
    const inWorker = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const code =
            "self.addEventListener('securitypolicyviolation', (e) => postMessage('violation ' + e.violatedDirective));" +
            "fetch('https://example.invalid/x').catch((e) => setTimeout(() => postMessage('failed ' + e), 500));";
          const w = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
          w.onmessage = (e) => {
            resolve(String(e.data));
            w.terminate();
          };
        }),
    );
    expect(inWorker).toMatch(/^violation connect-src/);
    consoleViolations.length = 0;
  });
});

describe('file size is checked before reading', () => {
  const huge = () => textFile('huge.cif', 'data_x\n');
  const refused = async (input: string, error: string) => {
    await page.locator(`[data-testid=${input}]`).setInputFiles(huge());
    const shown = await page.waitForFunction(
      (id) => {
        const t = document.querySelector(`[data-testid=${id}]`)?.textContent ?? '';
        return /huge\.cif/.test(t) && t;
      },
      error,
      { timeout: 30_000 },
    );
    expect(await shown.jsonValue()).toContain(HUGE_SENTENCE);
  };

  it('every page’s file input refuses a 300 MiB file with the policy sentence and reads none of it', async () => {
    await visit('structure');
    await structureShown();
    await refused('file-input', 'error');
    await visit('nanoparticle');
    // Each page is left to finish its own start-up first, which would clear an earlier error.
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid=np-natoms]')?.textContent ?? ''), undefined, {
      timeout: 60_000,
    });
    await page.waitForFunction(() => !document.querySelector('[data-testid=progress]'), undefined, { timeout: 60_000 });
    await refused('np-file-input', 'np-error');
    await visit('compare');
    await page.locator('[data-testid=cmp-metrics]').waitFor({ timeout: 60_000 });
    await refused('cmp-truth-input', 'cmp-error');
    await visit('atomworld');
    await page.locator('[data-testid=aw-actions]').waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid=aw-progress]'), undefined, { timeout: 60_000 });
    await refused('aw-cases-input', 'aw-error');
    await visit('fem');
    await page.locator('[data-testid=fem-tab-outputs]').click();
    await refused('fem-cases-input', 'fem-error');
    await visit('onng');
    await page.locator('[data-testid=onng-page]').waitFor({ timeout: 60_000 });
    await refused('onng-results-input', 'onng-error');
    expect(await page.evaluate(() => window.__hugeReads)).toBe(0);
  });

  it('a dropped file is held to the same limit', async () => {
    await visit('structure');
    await structureShown();
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['data_x\n'], 'huge.cif'));
      document.querySelector('.lab')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.locator('[data-testid=error]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=error]').innerText()).toContain(HUGE_SENTENCE);
    expect(await page.evaluate(() => window.__hugeReads)).toBe(0);
  });
});

/** The value idb-keyval keeps under `key` (its default database), read in the page. */
const stored = (key: string) =>
  page.evaluate(
    (k) =>
      new Promise<unknown>((resolve, reject) => {
        const open = indexedDB.open('keyval-store');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('keyval', 'readonly').objectStore('keyval').get(k);
          req.onsuccess = () => {
            resolve(req.result);
            open.result.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
    key,
  );

const LAST_LOAD = 'structlab/session/last-load/v1';

describe('a file whose last load failed is not parsed again on start', () => {
  it('offers a retry instead, and parses it only when asked', async () => {
    await visit('structure');
    await structureShown();
    const formula = await page.locator('[data-testid=formula]').innerText();
    await page.locator('[data-testid=file-input]').setInputFiles(textFile('bad.cif', 'data_bad\n_cell_length_a oops\n'));
    await page.locator('[data-testid=error]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=error]').innerText()).toMatch(/^Could not read bad\.cif/);
    await expect
      .poll(async () => ((await stored(LAST_LOAD)) as { status?: string } | undefined)?.status, { timeout: 10_000 })
      .toBe('failed');
    await expect.poll(async () => !!(await stored('structlab/session/v1')), { timeout: 10_000 }).toBe(true);

    await visit('structure', false);
    await page.locator('[data-testid=retry-offer]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=retry-offer]').innerText()).toMatch(/^Last time, bad\.cif failed: Could not read bad\.cif/);
    await page.waitForFunction((f) => document.querySelector('[data-testid=formula]')?.textContent === f, formula, { timeout: 60_000 });
    await waitIdle(page);
    // Not parsed on start: its error is not shown, only the offer.
    expect(await page.locator('[data-testid=error]').count()).toBe(0);

    await page.locator('[data-testid=retry-load]').click();
    await page.locator('[data-testid=error]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=error]').innerText()).toMatch(/^Could not read bad\.cif/);
    expect(await page.locator('[data-testid=retry-offer]').count()).toBe(0);
  });

  it('a load still pending at start (the tab froze or closed) is offered, not parsed', async () => {
    // What a tab that died mid-parse leaves behind.
    await page.evaluate(
      (k) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('keyval-store');
          open.onsuccess = () => {
            const tx = open.result.transaction('keyval', 'readwrite');
            tx.objectStore('keyval').put(
              { name: 'frozen.xyz', text: '1\n\nFe 0 0 0\n', activeStructure: 0, status: 'pending', error: null },
              k,
            );
            tx.oncomplete = () => {
              open.result.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
      LAST_LOAD,
    );
    await visit('structure', false);
    await page.locator('[data-testid=retry-offer]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=retry-offer]').innerText()).toContain('Last time, frozen.xyz did not finish loading');
    await waitIdle(page);
    const sessionButton = page.getByRole('button', { name: 'frozen.xyz', exact: true });
    expect(await sessionButton.count()).toBe(0);
    await page.locator('[data-testid=retry-load]').click();
    await sessionButton.waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=formula]').innerText()).toMatch(/^Fe1?$/);
    await expect.poll(async () => await stored(LAST_LOAD), { timeout: 10_000 }).toBeUndefined();
    expect(await violations()).toEqual([]);
  });
});
