/**
 * Per-atom properties on the Structure page, part 2 (issue 15; built app, headless Chromium on SwiftShader): the colour
 * range control (the colour bar and an atom's colour follow min/max, values outside take the ramp's end, one atom-buffer
 * rebuild per change, a reset back to the data's range), a categorical column's legend (extended XYZ tags, POSCAR
 * selective dynamics) with its counts and palette colours, size by a property (the largest value's atom 4× the radius
 * of the smallest's of the same element), and the hover tip with an atom's values (no rebuild). Colours and radii are
 * read from the atom buffers the test hooks keep.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPLACEMENT_RAMP } from '../../src/viewer/colors.ts';
import { textFile, type Lab, waitForFrame } from './harness.ts';
import { loadFile, openWithFile } from './open.ts';

/** Five atoms 4 Å apart (no cell, no bonds): drawn in file order. charge is real-valued; tags a few whole numbers. */
const ATOMS = [
  ['Cu', 0, 0, 0, -1, 2],
  ['O', 4, 0, 0, 0.25, 0],
  ['O', 0, 4, 0, 0.5, 2],
  ['O', 4, 4, 0, 1.5, -1],
  ['Cu', 0, 0, 4, 3, 2],
] as const;
const XYZ =
  `${ATOMS.length}\nProperties=species:S:1:pos:R:3:charge:R:1:tags:I:1 comment="props"\n` + ATOMS.map((r) => r.join(' ')).join('\n') + '\n';

/** Five sites, three of them fixed on every axis. */
const POSCAR = `fixed atoms
1.0
6 0 0
0 6 0
0 0 6
Na Cl
3 2
Selective dynamics
Direct
0.1 0.1 0.1 T T F
0.6 0.1 0.1 F F F
0.1 0.6 0.1 T T T
0.6 0.6 0.6 F F F
0.1 0.1 0.6 F F F
`;

let lab: Lab;
let page: Page;

interface Buffers {
  atomBuilds: number;
  colors: number[];
  radii: number[];
}
const buffers = (): Promise<Buffers> =>
  page.evaluate(() => {
    const v = window.__structlab!.viewer('main')!;
    return { atomBuilds: v.atomBuilds, colors: Array.from(v.atomColors ?? []), radii: Array.from(v.atomRadii ?? []) };
  });
/** Waits for the atom buffers to be rebuilt once more than `builds`, then reads them. */
async function rebuilt(builds: number): Promise<Buffers> {
  await page.waitForFunction((n) => window.__structlab!.viewer('main')!.atomBuilds === n + 1, builds, { timeout: 30_000 });
  return buffers();
}
const colorOf = (b: Buffers, i: number) => b.colors.slice(3 * i, 3 * i + 3);
/** The ramp at t in [0, 1], interpolated here between its evenly spaced stops. */
const ramp = (t: number) => {
  const x = t * (DISPLACEMENT_RAMP.length - 1);
  const k = Math.min(DISPLACEMENT_RAMP.length - 2, Math.floor(x));
  return DISPLACEMENT_RAMP[k].map((c, j) => c + (DISPLACEMENT_RAMP[k + 1][j] - c) * (x - k));
};
const expectColor = (got: number[], want: readonly number[]) => want.forEach((c, j) => expect(got[j]).toBeCloseTo(c, 5));

/**
 * How far (CSS pixels) from drawn atom i's projected centre, heading away from the other atoms, the pointer still
 * hovers atom i: a bisection over synthetic pointer moves on the canvas, each read back from the hover tip.
 */
const hoverReach = (atom: number): Promise<number> =>
  page.evaluate(async (i) => {
    const sl = window.__structlab!;
    const canvas = document.querySelector('[data-testid=viewer] canvas')!;
    const c = sl.projectAtom(i)!;
    let [dx, dy, n] = [0, 0, 0];
    for (let j = 0; j < sl.natoms(); j++) {
      if (j === i) continue;
      const p = sl.projectAtom(j)!;
      [dx, dy, n] = [dx + c.x - p.x, dy + c.y - p.y, n + 1];
    }
    const len = Math.hypot(dx / n, dy / n) || 1;
    [dx, dy] = [dx / n / len, dy / n / len];
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const hits = async (d: number) => {
      const at = { clientX: c.x + dx * d, clientY: c.y + dy * d, buttons: 0, pointerType: 'mouse', bubbles: true };
      canvas.dispatchEvent(new PointerEvent('pointermove', at));
      await frame();
      await frame();
      await new Promise((r) => setTimeout(r, 0));
      return document.querySelector('[data-testid=atom-hover]')?.getAttribute('data-atom') === String(i);
    };
    if (!(await hits(0)) || (await hits(400))) throw new Error('atom not hovered at its centre, or still 400 px away');
    let [lo, hi] = [0, 400];
    while (hi - lo > 0.25) {
      const mid = (lo + hi) / 2;
      if (await hits(mid)) lo = mid;
      else hi = mid;
    }
    canvas.dispatchEvent(new PointerEvent('pointerleave'));
    return lo;
  }, atom);

beforeAll(async () => {
  lab = await openWithFile(textFile('props.xyz', XYZ));
  page = lab.page;
  await page.waitForFunction(() => window.__structlab!.natoms() === 5, undefined, { timeout: 30_000 });
});

afterAll(async () => {
  await lab?.close();
});

describe('per-atom properties: range, legend, size, hover', () => {
  it('a chosen colour range: colour bar, note, an atom clamped to the ramp end, one rebuild per change, reset', async () => {
    const before = await buffers();
    await page.locator('[data-testid=color-property]').selectOption('charge');
    const data = await rebuilt(before.atomBuilds);
    expect(await page.locator('[data-testid=property-min]').innerText()).toBe((-1).toPrecision(4));
    expect(await page.locator('[data-testid=property-max]').innerText()).toBe((3).toPrecision(4));
    expect(await page.locator('[data-testid=property-range-note]').count()).toBe(0);
    // Over the data's range [-1, 3]: charge 1.5 sits at 0.625, charge 3 at the top.
    expectColor(colorOf(data, 3), ramp(0.625));
    expectColor(colorOf(data, 4), ramp(1));

    await page.locator('[data-testid=property-range-max]').fill('1');
    const narrowed = await rebuilt(data.atomBuilds);
    expect(await page.locator('[data-testid=property-max]').innerText()).toBe((1).toPrecision(4));
    expect(await page.locator('[data-testid=property-range-note]').innerText()).toContain('Narrower than the data');
    expectColor(colorOf(narrowed, 3), ramp(1)); // 1.5 above the range's top: the ramp's end
    expectColor(colorOf(narrowed, 2), ramp(0.75)); // 0.5 at (0.5 + 1) / 2
    expectColor(colorOf(narrowed, 0), ramp(0));

    // A range with min ≥ max is not taken: no rebuild, the colour bar keeps the last good one.
    await page.locator('[data-testid=property-range-min]').fill('5');
    await page.locator('[data-testid=property-range-min]').blur();
    expect(await page.locator('[data-testid=property-min]').innerText()).toBe((-1).toPrecision(4));

    await page.locator('[data-testid=property-range-min]').fill('0');
    const raised = await rebuilt(narrowed.atomBuilds);
    expectColor(colorOf(raised, 0), ramp(0)); // -1 below 0
    expectColor(colorOf(raised, 1), ramp(0.25));

    await page.locator('[data-testid=property-range-reset]').click();
    const reset = await rebuilt(raised.atomBuilds);
    expect(await page.locator('[data-testid=property-max]').innerText()).toBe((3).toPrecision(4));
    expect(await page.locator('[data-testid=property-range-note]').count()).toBe(0);
    expect(reset.colors).toEqual(data.colors);
    expect(lab.pageErrors).toEqual([]);
  });

  it('a whole-number column shows a legend (value, colour, count of atoms) instead of the colour bar', async () => {
    const before = await buffers();
    await page.locator('[data-testid=color-property]').selectOption('tags');
    const after = await rebuilt(before.atomBuilds);
    await page.locator('[data-testid=property-legend]').waitFor();
    expect(await page.locator('[data-testid=property-colorbar]').count()).toBe(0);
    const rows = await page
      .locator('[data-testid=property-category]')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-value'), Number(e.getAttribute('data-count'))]));
    // Counted here from the file: tags -1 once, 0 once, 2 three times, in ascending order.
    expect(rows).toEqual([
      ['-1', 1],
      ['0', 1],
      ['2', 3],
    ]);
    // Atoms of one tag share a colour; different tags differ.
    expect(colorOf(after, 0)).toEqual(colorOf(after, 2));
    expect(colorOf(after, 0)).toEqual(colorOf(after, 4));
    expect(colorOf(after, 0)).not.toEqual(colorOf(after, 1));
    expect(colorOf(after, 1)).not.toEqual(colorOf(after, 3));
    expect(lab.pageErrors).toEqual([]);
  });

  it('size by charge: the largest value’s atom 4× the smallest’s radius (both Cu), picked out to 1.6× its radius, and back', async () => {
    const before = await buffers();
    const plainReach = await hoverReach(4);
    await page.locator('[data-testid=size-property]').selectOption('charge');
    const sized = await rebuilt(before.atomBuilds);
    // Hover and click pick through the same radii: atom 4 (1.6×) is now found 1.6× as far from its centre on screen.
    const sizedReach = await hoverReach(4);
    expect(sizedReach / plainReach).toBeGreaterThan(1.5);
    expect(sizedReach / plainReach).toBeLessThan(1.7);
    // 0.4× at charge -1 (atom 0), 1.6× at charge 3 (atom 4), both Cu.
    expect(sized.radii[4] / sized.radii[0]).toBeCloseTo(4, 5);
    expect(sized.radii[4]).toBeCloseTo(before.radii[4] * 1.6, 5);
    // O atoms: 0.25 → 0.4 + 1.2 × 1.25 / 4.
    expect(sized.radii[1]).toBeCloseTo(before.radii[1] * (0.4 + (1.2 * 1.25) / 4), 5);
    await page.locator('[data-testid=size-property]').selectOption('');
    const back = await rebuilt(sized.atomBuilds);
    expect(back.radii).toEqual(before.radii);
    expect(lab.pageErrors).toEqual([]);
  });

  it('hovering an atom shows its values without a rebuild; leaving the canvas hides them', async () => {
    const before = await buffers();
    const frames = await page.evaluate(() => Number(document.body.dataset.rendered));
    await waitForFrame(page, frames - 1);
    const at = await page.evaluate(() => window.__structlab!.projectAtom(3));
    expect(at).not.toBeNull();
    await page.mouse.move(at!.x, at!.y);
    const tip = page.locator('[data-testid=atom-hover]');
    await tip.waitFor({ timeout: 30_000 });
    // Drawn atom 3 is site 4 (sites numbered from 1, as the atom info numbers them).
    expect(await tip.getAttribute('data-atom')).toBe('3');
    expect(await tip.innerText()).toContain('O site 4');
    expect(await page.locator('[data-testid=atom-hover-charge]').innerText()).toBe(`charge: ${(1.5).toPrecision(4)}`);
    expect(await page.locator('[data-testid=atom-hover-tags]').innerText()).toBe(`tags: ${(-1).toPrecision(4)}`);
    await page.mouse.move(2, 2);
    await tip.waitFor({ state: 'detached', timeout: 30_000 });
    expect((await buffers()).atomBuilds).toBe(before.atomBuilds);
    expect(lab.pageErrors).toEqual([]);
  });

  it('selective-dynamics flags of a POSCAR: a legend of the per-axis flag tuples with their counts', async () => {
    await loadFile(page, textFile('POSCAR', POSCAR));
    await page.locator('[data-testid=color-property]').selectOption('selective_dynamics');
    await page.locator('[data-testid=property-legend]').waitFor();
    const rows = await page
      .locator('[data-testid=property-category]')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-value'), Number(e.getAttribute('data-count'))]));
    // Counted here from the file's flags (T = 1): F F F three times, T T F once, T T T once.
    expect(rows).toEqual([
      ['0 0 0', 3],
      ['1 1 0', 1],
      ['1 1 1', 1],
    ]);
    expect(lab.pageErrors).toEqual([]);
  });
});
