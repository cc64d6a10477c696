/**
 * Regenerates docs/screenshot.png (the README picture): the built lab on its embedded default
 * dataset, in headless Debian Chromium. Run after `npm run build`: `npx tsx scripts/screenshot.ts [query]`.
 */
import { join } from 'node:path';
import { launchChromium, startPreview, waitForFrame, waitIdle } from './support/browser.ts';
import { REPO_ROOT } from './support/paths.ts';

const query = new URLSearchParams(process.argv[2] ?? '?fresh');
// waitForFrame reads the viewer's frame counter, which the lab exposes only with its test hooks on.
query.set('testhooks', '1');
const out = process.argv[3] ?? join(REPO_ROOT, 'docs', 'screenshot.png');
const preview = await startPreview();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  await page.goto(`${preview.url}?${query}`);
  await waitIdle(page);
  await waitForFrame(page, 0, 60_000);
  await page.waitForTimeout(500);
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await preview.stop();
}
