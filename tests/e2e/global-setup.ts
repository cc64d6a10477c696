/**
 * The e2e project's globalSetup (vite.config.ts): one `vite preview` of dist/ and one headless Chromium for the
 * whole run, instead of one of each per test file (their start-up was about half of the e2e time on the 2-core
 * machine). Each file still gets a fresh browser context from `openLab` (tests/e2e/harness.ts), so no cookie,
 * storage, cache or service worker is shared between files. Vitest runs this once in its main process and calls
 * the returned teardown after the last file, also when files failed (vitest docs, "globalSetup":
 * https://vitest.dev/config/globalsetup).
 */
import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort, startPreview } from './harness.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared preview server's address, e.g. http://127.0.0.1:41234/. */
    e2ePreviewUrl: string;
    /** The shared Chromium's DevTools address, for `chromium.connectOverCDP`. */
    e2eBrowserCdp: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const preview = await startPreview();
  let browser;
  try {
    // Reached over CDP, not through launchServer's Playwright protocol: a connection by that protocol counts as
    // remote, so setInputFiles streams every file through it (a 1,421-file folder took 4.7 s instead of 0.6 s) and a
    // download's path() refuses to answer. The port is on 127.0.0.1, open for the run only; the browser holds nothing
    // but the lab. Playwright closes it on SIGINT/SIGTERM/SIGHUP and when this process exits (launch's defaults), so
    // an interrupted run leaves no Chromium behind; startPreview does the same for the preview server.
    const port = await freePort();
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
    });
    project.provide('e2eBrowserCdp', `http://127.0.0.1:${port}`);
  } catch (e) {
    await preview.stop();
    throw e;
  }
  project.provide('e2ePreviewUrl', preview.url);
  return async () => {
    await browser.close().catch(() => undefined);
    await preview.stop();
  };
}
