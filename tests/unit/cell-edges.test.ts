import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CELL_CORNERS, CELL_EDGE_COLORS, CELL_EDGES } from '../../src/viewer/cell-edges.ts';
import { contrastRatio, relativeLuminance } from '../../src/viewer/colors.ts';

describe('the edges of a cell', () => {
  it('are the 12 unit steps along one axis between the 8 corners, each corner on 3 of them', () => {
    expect(new Set(CELL_CORNERS.map((c) => c.join(','))).size).toBe(8);
    expect(CELL_EDGES).toHaveLength(12);
    const seen = new Map<string, number>();
    for (const [p, q] of CELL_EDGES) {
      const step = q.map((x, k) => x - p[k]);
      expect(step.filter((x) => x === 1)).toHaveLength(1);
      expect(step.filter((x) => x === 0)).toHaveLength(2);
      for (const c of [p, q]) seen.set(c.join(','), (seen.get(c.join(',')) ?? 0) + 1);
    }
    expect([...seen.values()]).toEqual(Array(8).fill(3));
  });
});

/** The colours of the view's background gradient per theme, as styles.css draws them (`.view`, and its dark rule). */
function viewBackgrounds(): Record<'light' | 'dark', string[]> {
  const css = readFileSync(new URL('../../src/app/styles.css', import.meta.url), 'utf8');
  const stops = (selector: string) => {
    const rule = new RegExp(`(?:^|\\n)${selector.replace(/[[\]'.]/g, '\\$&')} \\{([^}]*)\\}`).exec(css);
    if (!rule) throw new Error(`styles.css has no rule ${selector}`);
    return rule[1].match(/#[0-9a-f]{6}/gi) ?? [];
  };
  return { light: stops('.view'), dark: stops(":root[data-theme='dark'] .view") };
}

describe('the colour of the cell edges', () => {
  it('has a contrast of at least 3:1 against every colour of the view background in both themes (WCAG 2.2 SC 1.4.11)', () => {
    const backgrounds = viewBackgrounds();
    for (const theme of ['light', 'dark'] as const) {
      expect(backgrounds[theme].length, theme).toBeGreaterThanOrEqual(2);
      for (const bg of backgrounds[theme])
        expect(contrastRatio(CELL_EDGE_COLORS[theme], bg), `${theme}: ${CELL_EDGE_COLORS[theme]} on ${bg}`).toBeGreaterThanOrEqual(3);
    }
    // Dark lines on the light view, light lines on the dark one.
    expect(relativeLuminance(CELL_EDGE_COLORS.light)).toBeLessThan(Math.min(...backgrounds.light.map(relativeLuminance)));
    expect(relativeLuminance(CELL_EDGE_COLORS.dark)).toBeGreaterThan(Math.max(...backgrounds.dark.map(relativeLuminance)));
  });

  it('measures contrast as WCAG 2.2 does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // #767676 on white is the familiar 4.54:1 (the lightest grey that passes AA for text).
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});
