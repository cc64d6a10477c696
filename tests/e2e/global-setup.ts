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
import { CHROMIUM_ARGS, CHROMIUM_PATH, startPreview } from './harness.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared preview server's address, e.g. http://127.0.0.1:41234/. */
    e2ePreviewUrl: string;
    /** The shared Chromium's Playwright server endpoint, for `chromium.connect`. */
    e2eBrowserWs: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const preview = await startPreview();
  let server;
  try {
    // launchServer closes the browser on SIGINT/SIGTERM/SIGHUP and when this process exits (its defaults), so an
    // interrupted run leaves no Chromium behind; startPreview does the same for the preview server.
    server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  } catch (e) {
    await preview.stop();
    throw e;
  }
  project.provide('e2ePreviewUrl', preview.url);
  project.provide('e2eBrowserWs', server.wsEndpoint());
  return async () => {
    await server.close().catch(() => server.kill());
    await preview.stop();
  };
}
