/** Opening a structure file in the lab the way a user does: through the structure page's file input. */
import { basename } from 'node:path';
import type { Page } from 'playwright-core';
import { type Lab, openLab, waitForFrame, waitIdle } from './harness.ts';

/** A file for the file input: a path on disk, or a name with its bytes (harness.ts textFile makes one from text). */
export type InputFile = string | { name: string; mimeType: string; buffer: Buffer };

/**
 * Loads `file` through the structure page's file input and waits until it is shown: until the `ready` selector is on
 * the page if given (a trajectory's player: a streamed file is not named as the page's source), else until the page
 * names the file as its source; then until the worker is idle.
 */
export async function loadFile(page: Page, file: InputFile, ready?: string): Promise<void> {
  await page.locator('[data-testid=file-input]').setInputFiles(file);
  const name = typeof file === 'string' ? basename(file) : file.name;
  if (ready) await page.locator(ready).waitFor({ timeout: 60_000 });
  else await page.waitForFunction((n) => document.querySelector('.source')?.textContent?.includes(n), name, { timeout: 60_000 });
  await waitIdle(page);
}

/**
 * Opens `path` of the built lab (openLab), waits until its first structure is shown, drawn and analysed, then loads
 * `file` as loadFile does.
 */
export async function openWithFile(
  file: InputFile,
  { path = '?fresh', viewport, ready }: { path?: string; viewport?: { width: number; height: number }; ready?: string } = {},
): Promise<Lab> {
  const lab = await openLab(path, viewport);
  await lab.page.locator('[data-testid=formula]').waitFor({ timeout: 60_000 });
  await waitForFrame(lab.page);
  await waitIdle(lab.page);
  await loadFile(lab.page, file, ready);
  return lab;
}
