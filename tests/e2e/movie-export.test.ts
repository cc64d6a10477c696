/**
 * Movies for slides (issue 26 §3): the Record dialog on the Structure page writes a 1 s rotation at 10 fps, 320×240, as
 * WebM, read back here by an independent EBML reader (tests/ebml.ts) and decoded by the browser's own VideoDecoder; a
 * 3-frame PNG sequence as a zip of frame-0001.png…; a cancel mid-way that downloads nothing and leaves the camera; a
 * small trajectory, frame by frame, after which the frame shown before is shown again; the MediaRecorder fallback
 * (`?movieEncoder=mediarecorder`) on the same timeline; the Nanoparticle page's radius series as a growth movie.
 */
import { readFileSync } from 'node:fs';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readZip } from '../../src/core/io/zip.ts';
import { summarizeWebm, type WebmSummary } from '../ebml.ts';
import { clickInPageWhen, openLab, textFile, waitForFrame, waitIdle, type Lab } from './harness.ts';
import { loadFile } from './open.ts';
import { decodePng } from './png.ts';

let lab: Lab;
let page: Page;
/** Every download of the page, in order (a cancelled movie must add none). */
const downloads: Download[] = [];

beforeAll(async () => {
  lab = await openLab('?fresh');
  page = lab.page;
  page.on('download', (d) => downloads.push(d));
  await page.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'Cs1 Ca1 H3', undefined, {
    timeout: 60_000,
  });
  await waitIdle(page);
  await waitForFrame(page);
}, 120_000);

afterAll(async () => {
  await lab?.close();
});

const dialog = () => page.locator('[data-testid=record-dialog]');
const viewState = () => page.evaluate(() => window.__structlab!.viewer('main')!.viewState());

/** Opens the dialog (if closed) and sets a rotation of `seconds` at `fps`, `width` × `height`, in `format`. */
async function setRotation(seconds: number, fps: number, format: 'webm' | 'png', width = 320, height = 240): Promise<void> {
  if (!(await dialog().isVisible())) await page.locator('[data-testid=record-open]').click();
  await page.locator('[data-testid=record-kind]').selectOption('rotation');
  await page.locator('[data-testid=record-seconds]').fill(String(seconds));
  await page.locator('[data-testid=record-size]').selectOption('custom');
  await page.locator('[data-testid=record-width]').fill(String(width));
  await page.locator('[data-testid=record-height]').fill(String(height));
  await page.locator('[data-testid=record-fps]').fill(String(fps));
  await page.locator('[data-testid=record-format]').selectOption(format);
}

/** Clicks Record and returns the file it downloads (name and bytes). */
async function record(): Promise<{ name: string; bytes: Buffer }> {
  const [d] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.locator('[data-testid=record-start]').click()]);
  await page.locator('[data-testid=record-done]').waitFor();
  return { name: d.suggestedFilename(), bytes: readFileSync((await d.path())!) };
}

/** Decodes the movie's blocks with the page's VideoDecoder: the frames' sizes and each frame's mean RGB. */
function decodeInPage(webm: WebmSummary, bytes: Buffer): Promise<{ width: number; height: number; mean: number[] }[]> {
  const chunks = webm.blocks.map((b) => ({ key: b.key, timeMs: b.timeMs, data: [...bytes.subarray(b.offset, b.offset + b.size)] }));
  const codec = webm.codec === 'V_VP9' ? 'vp09.00.51.08' : 'vp8';
  return page.evaluate(
    async ({ chunks, codec }) => {
      const out: { width: number; height: number; mean: number[] }[] = [];
      const canvas = new OffscreenCanvas(1, 1);
      const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
      const decoder = new VideoDecoder({
        output: (frame) => {
          canvas.width = frame.displayWidth;
          canvas.height = frame.displayHeight;
          ctx.drawImage(frame, 0, 0);
          const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
          const mean = [0, 0, 0];
          for (let i = 0; i < px.length; i += 4) for (let c = 0; c < 3; c++) mean[c] += px[i + c] / (px.length / 4);
          out.push({ width: frame.displayWidth, height: frame.displayHeight, mean });
          frame.close();
        },
        error: (e) => {
          throw e;
        },
      });
      decoder.configure({ codec });
      for (const c of chunks)
        decoder.decode(new EncodedVideoChunk({ type: c.key ? 'key' : 'delta', timestamp: c.timeMs * 1000, data: new Uint8Array(c.data) }));
      await decoder.flush();
      return out;
    },
    { chunks, codec },
  );
}

describe('movie export', () => {
  it('a 1 s rotation at 10 fps, 320×240: WebM with exactly 10 frames on a 100 ms timeline, Duration 1 s', async () => {
    const before = await viewState();
    await setRotation(1, 10, 'webm');
    expect(await page.locator('[data-testid=record-summary]').innerText()).toBe('10 frames of 320 × 240, 1.00 s.');
    const movie = await record();
    expect(movie.name).toBe('structlab-rotation.webm');
    // The EBML header, then the DocType.
    expect(movie.bytes.readUInt32BE(0)).toBe(0x1a45dfa3);
    const webm = summarizeWebm(new Uint8Array(movie.bytes));
    expect(webm.docType).toBe('webm');
    expect(['V_VP9', 'V_VP8']).toContain(webm.codec);
    expect([webm.width, webm.height]).toEqual([320, 240]);
    expect(webm.blocks).toHaveLength(10);
    expect(webm.blocks.map((b) => b.timeMs)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    expect(webm.blocks[0].key).toBe(true);
    // Stated tolerance: one frame (100 ms); the muxer writes it exactly.
    expect(Math.abs(webm.durationMs - 1000)).toBeLessThanOrEqual(100);
    expect(webm.durationMs).toBe(1000);
    expect(webm.defaultDurationNs).toBe(100_000_000);

    // The browser decodes all 10 frames at 320×240; the turn shows: frame 5 (180°) differs from frame 0.
    const decoded = await decodeInPage(webm, movie.bytes);
    expect(decoded).toHaveLength(10);
    expect(decoded.every((f) => f.width === 320 && f.height === 240)).toBe(true);
    const diff = (a: number[], b: number[]) => Math.max(...a.map((v, c) => Math.abs(v - b[c])));
    expect(Math.max(...decoded.slice(1).map((f) => diff(f.mean, decoded[0].mean)))).toBeGreaterThan(0.5);

    // The user's camera was never moved.
    const after = await viewState();
    for (const key of ['position', 'target', 'up'] as const)
      for (let k = 0; k < 3; k++) expect(Math.abs(after![key][k] - before![key][k])).toBeLessThan(1e-9);
  });

  it('a PNG sequence of 3 frames: frame-0001.png … frame-0003.png, each 320×240', async () => {
    await setRotation(0.5, 6, 'png');
    expect(await page.locator('[data-testid=record-summary]').innerText()).toBe('3 frames of 320 × 240, 0.50 s.');
    const zip = await record();
    expect(zip.name).toBe('structlab-rotation.zip');
    const entries = readZip(new Uint8Array(zip.bytes), zip.name);
    expect(entries.map((e) => e.path)).toEqual(['frame-0001.png', 'frame-0002.png', 'frame-0003.png']);
    const pngs = entries.map((e) => decodePng(Buffer.from(e.bytes)));
    for (const png of pngs) expect([png.width, png.height]).toEqual([320, 240]);
    // Opaque on the theme's background, and the frames differ (120° apart).
    expect(pngs[0].rgba!.every((v, i) => i % 4 !== 3 || v === 255)).toBe(true);
    expect(Buffer.from(pngs[0].rgba!).equals(Buffer.from(pngs[1].rgba!))).toBe(false);
  });

  it('Cancel mid-way stops the movie: no download, the camera unchanged', async () => {
    const before = await viewState();
    const count = downloads.length;
    await setRotation(10, 30, 'webm');
    // Two frames done, then cancel.
    await clickInPageWhen(page, 'record-cancel', { selector: '[data-testid=record-progress-bar]', minValue: 2 }, () =>
      page.locator('[data-testid=record-start]').click(),
    );
    await page.locator('[data-testid=record-progress]').waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid=record-done]').count()).toBe(0);
    expect(await page.locator('[data-testid=record-error]').count()).toBe(0);
    // The next movie's download is the first one after the cancelled movie: that one left none.
    await setRotation(0.5, 2, 'png');
    const next = await record();
    expect(next.name).toBe('structlab-rotation.zip');
    expect(downloads.slice(count).map((d) => d.suggestedFilename())).toEqual(['structlab-rotation.zip']);
    const after = await viewState();
    for (const key of ['position', 'target', 'up'] as const)
      for (let k = 0; k < 3; k++) expect(Math.abs(after![key][k] - before![key][k])).toBeLessThan(1e-9);
    await page.locator('[data-testid=record-close]').click();
  });

  it('a trajectory of 4 frames, every 2nd: 2 frames showing frames 1 and 3; frame 2 is shown again after', async () => {
    const frames = Array.from({ length: 4 }, (_, k) => `2\nstep ${k}\nNa 0 0 0\nCl ${2 + 0.5 * k} 0 0\n`).join('');
    await loadFile(page, textFile('steps.xyz', frames), '[data-testid=trajectory]');
    await page.locator('[data-testid=traj-forward]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=traj-frame]')?.textContent === '2 / 4');
    await waitIdle(page);
    await page.locator('[data-testid=record-open]').click();
    expect(await page.locator('[data-testid=record-kind]').inputValue()).toBe('trajectory');
    await page.locator('[data-testid=record-every]').fill('2');
    await page.locator('[data-testid=record-size]').selectOption('custom');
    await page.locator('[data-testid=record-width]').fill('160');
    await page.locator('[data-testid=record-height]').fill('120');
    await page.locator('[data-testid=record-format]').selectOption('png');
    const zip = await record();
    expect(zip.name).toBe('structlab-trajectory.zip');
    const pngs = readZip(new Uint8Array(zip.bytes), zip.name).map((e) => decodePng(Buffer.from(e.bytes)));
    expect(pngs).toHaveLength(2);
    expect(Buffer.from(pngs[0].rgba!).equals(Buffer.from(pngs[1].rgba!))).toBe(false);
    await page.locator('[data-testid=record-close]').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=traj-frame]')?.textContent === '2 / 4');
    expect(lab.pageErrors).toEqual([]);
  });
});

describe('movie export without WebCodecs (MediaRecorder, re-timed)', () => {
  it('the same 1 s rotation: 10 frames on the 100 ms timeline, Duration 1 s', async () => {
    const fallback = await openLab('?fresh&movieEncoder=mediarecorder');
    try {
      page = fallback.page;
      await page.waitForFunction(() => document.querySelector('[data-testid=formula]')?.textContent === 'Cs1 Ca1 H3', undefined, {
        timeout: 60_000,
      });
      await waitIdle(page);
      await waitForFrame(page);
      await setRotation(1, 10, 'webm');
      const movie = await record();
      const webm = summarizeWebm(new Uint8Array(movie.bytes));
      expect(webm.docType).toBe('webm');
      expect([webm.width, webm.height]).toEqual([320, 240]);
      expect(webm.blocks.map((b) => b.timeMs)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
      expect(webm.durationMs).toBe(1000);
      expect(await decodeInPage(webm, movie.bytes)).toHaveLength(10);
      expect(fallback.pageErrors).toEqual([]);
    } finally {
      page = lab.page;
      await fallback.close();
    }
  });
});

describe('growth series on the Nanoparticle page', () => {
  it("the radius series (R = 6 … 30 Å) as 25 PNGs: the particle grows in a fixed frame; the page's particle comes back", async () => {
    const np = await openLab('?fresh#/nanoparticle');
    try {
      page = np.page;
      await page.waitForFunction(() => Number(document.querySelector('[data-testid=np-natoms]')?.textContent) > 0, undefined, {
        timeout: 60_000,
      });
      await waitIdle(page, 120_000); // the R series too
      await waitForFrame(page);
      const natoms = await page.locator('[data-testid=np-natoms]').innerText();
      const before = await viewState();
      await page.locator('[data-testid=record-open]').click();
      await page.locator('[data-testid=record-kind]').selectOption('growth');
      await page.locator('[data-testid=record-hold]').fill('1');
      await page.locator('[data-testid=record-size]').selectOption('custom');
      await page.locator('[data-testid=record-width]').fill('120');
      await page.locator('[data-testid=record-height]').fill('90');
      await page.locator('[data-testid=record-format]').selectOption('png');
      expect(await page.locator('[data-testid=record-summary]').innerText()).toBe('25 frames of 120 × 90, 0.83 s.');
      const zip = await record();
      expect(zip.name).toBe('structlab-particle-growth.zip');
      const pngs = readZip(new Uint8Array(zip.bytes), zip.name).map((e) => decodePng(Buffer.from(e.bytes)));
      expect(pngs).toHaveLength(25);
      // Pixels darker than the light background: more with every radius (the camera is fixed, framed for R = 30 Å).
      const ink = pngs.map((p) => {
        let n = 0;
        for (let i = 0; i < p.rgba!.length; i += 4) if (p.rgba![i] < 200) n++;
        return n;
      });
      for (let k = 1; k < ink.length; k++) expect(ink[k], `frame ${k + 1}`).toBeGreaterThanOrEqual(ink[k - 1]);
      expect(ink[24]).toBeGreaterThan(10 * ink[0]);
      await page.locator('[data-testid=record-close]').click();
      await page.waitForFunction((n) => document.querySelector('[data-testid=np-natoms]')?.textContent === n, natoms);
      expect(await viewState()).toEqual(before);
      expect(np.pageErrors).toEqual([]);
    } finally {
      page = lab.page;
      await np.close();
    }
  }, 180_000);
});
