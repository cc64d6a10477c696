/**
 * The O-NNG page's "Obfuscated variants" panel end to end (built app, headless Chromium): open golden
 * FEM-Bench task files, see the renamed signature next to the original, download tasks.jsonl and check it
 * against the original files; then an AtomWorld cases file, and a bad file's error sentence.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { downloadOf, openLab, type Lab } from './harness.ts';

const FEM = join(REFERENCE, 'golden', 'fembench');
const FEM_FILES = readdirSync(FEM)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .slice(0, 4)
  .map((f) => join(FEM, f));
const CASES = join(REFERENCE, 'golden', 'atomworld', 'generated_cases.jsonl');

let lab: Lab;
let page: Page;
let pageErrors: string[] = [];
const byId = (id: string) => page.locator(`[data-testid="${id}"]`);

beforeAll(async () => {
  lab = await openLab('?fresh#/onng', { width: 1280, height: 900 });
  ({ page, pageErrors } = lab);
  await byId('onng-variants').waitFor({ timeout: 60_000 });
});

afterAll(async () => {
  await lab?.close();
});

describe('O-NNG obfuscated variants panel', () => {
  it('renames FEM-Bench tasks at λ = 0.6, previews them side by side and downloads tasks.jsonl', async () => {
    await byId('onng-variants-level').selectOption('3');
    await byId('onng-variants-input').setInputFiles(FEM_FILES);
    await byId('onng-variants-summary').waitFor({ timeout: 30_000 });
    expect(await byId('onng-variants-summary').innerText()).toMatch(/^4 tasks, \d+ names renamed at λ = 0\.6/);
    const original = await byId('onng-variants-original').first().innerText();
    const obfuscated = await byId('onng-variants-obfuscated').first().innerText();
    const task = JSON.parse(readFileSync(FEM_FILES[0], 'utf8'));
    expect(original).toContain(`def ${task.signature.name}(`);
    expect(obfuscated).not.toContain(task.signature.name);
    const download = await downloadOf(page, 'onng-variants-download-tasks.jsonl');
    expect(download.suggestedFilename()).toBe('fembench-lambda0.6-tasks.jsonl');
    const rows = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(4);
    expect(rows[0].cases[0].output).toEqual(task.cases[0].output);
    expect(obfuscated).toContain(`def ${rows[0].signature.name}(`);
    // Restore a renamed answer.
    await byId('onng-variants-answer').fill(`${rows[0].signature.name}()`);
    expect(await byId('onng-variants-restored').innerText()).toBe(`${task.signature.name}()`);
  });

  it('renames AtomWorld prompts, and names the line of a bad case file', async () => {
    await byId('onng-variants-benchmark').selectOption('atomworld');
    await byId('onng-variants-input').setInputFiles(CASES);
    await byId('onng-variants-summary').waitFor({ timeout: 30_000 });
    expect(await byId('onng-variants-summary').innerText()).toMatch(/^150 cases/);
    const first = JSON.parse(readFileSync(CASES, 'utf8').split('\n')[0]);
    expect(await byId('onng-variants-original').first().innerText()).toBe(first.prompt);
    expect(await byId('onng-variants-obfuscated').first().innerText()).not.toContain('Change the atom');
    await byId('onng-variants-input').setInputFiles({
      name: 'bad.jsonl',
      mimeType: 'application/json',
      buffer: Buffer.from('{"prompt": "x"}\n{"id": 2}\n'),
    });
    await expect
      .poll(async () => ((await byId('onng-variants-error').count()) ? byId('onng-variants-error').innerText() : ''))
      .toMatch(/bad\.jsonl: line 2 is not an AtomWorld case/);
    expect(pageErrors).toEqual([]);
  });
});
