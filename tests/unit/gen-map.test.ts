/**
 * The Generations fingerprint map's pure parts (src/pages/generations/fingerprint-map-model.ts): which points are
 * drawn and in which group (covered: within both cutoffs of a truth, as compute_cov's precision counts), where they
 * fall in a canvas, which one the pointer is on, and the axis captions.
 */
import { describe, expect, it } from 'vitest';
import {
  MAP_PAD,
  axisCaption,
  hitTest,
  isCovered,
  layoutPoints,
  mapPoints,
  type MapPoint,
} from '../../src/pages/generations/fingerprint-map-model.ts';
import type { DenovoSample, FingerprintPlane } from '../../workers/generations-api.ts';

const row = (struc: number | null, comp: number | null) =>
  ({ struc_precision_dist: struc, comp_precision_dist: comp }) as Pick<DenovoSample, 'struc_precision_dist' | 'comp_precision_dist'>;

describe('fingerprint map points', () => {
  const plane: FingerprintPlane = {
    explained: [0.6, 0.25],
    predictions: [[1, 2], null, [3, -1], [0, 0]],
    truth: [[-1, -1], null, [2, 2]],
  };
  const rows = [row(0.3, 9), row(null, null), row(0.5, 1), row(0.4, 10)] as DenovoSample[];

  it('covered means both distances within their cutoffs (at the cutoff counts; NaN and null never)', () => {
    expect(isCovered(row(0.4, 10), 0.4, 10)).toBe(true);
    expect(isCovered(row(0.41, 1), 0.4, 10)).toBe(false);
    expect(isCovered(row(0.1, 10.5), 0.4, 10)).toBe(false);
    expect(isCovered(row(NaN, 1), 0.4, 10)).toBe(false);
    expect(isCovered(row(null, null), 0.4, 10)).toBe(false);
  });

  it('draws the truths first and leaves out crystals without fingerprints', () => {
    const points = mapPoints(plane, rows, { struc: 0.4, comp: 10 });
    expect(points.map((p) => [p.group, p.index])).toEqual([
      ['test', 0],
      ['test', 2],
      ['covered', 0],
      ['uncovered', 2],
      ['covered', 3],
    ]);
    expect(points[3]).toMatchObject({ x: 3, y: -1 });
  });
});

describe('fingerprint map layout and hit testing', () => {
  const points: MapPoint[] = [
    { group: 'test', index: 0, x: -2, y: 10 },
    { group: 'covered', index: 0, x: 2, y: 20 },
    { group: 'uncovered', index: 1, x: 0, y: 15 },
  ];

  it('fills the canvas inside the padding on each axis, y upwards', () => {
    const at = layoutPoints(points, 220, 120);
    expect(Array.from(at)).toEqual([MAP_PAD, 120 - MAP_PAD, 220 - MAP_PAD, MAP_PAD, 110, 60]);
  });

  it('puts an axis without spread in the middle', () => {
    const at = layoutPoints([{ group: 'test', index: 0, x: 5, y: 5 }], 100, 50);
    expect(Array.from(at)).toEqual([50, 25]);
  });

  it('finds the nearest point within reach, and only points accepted', () => {
    const at = layoutPoints(points, 220, 120);
    expect(hitTest(points, at, 108, 62, 8)).toBe(2);
    expect(hitTest(points, at, 150, 40, 8)).toBe(-1);
    expect(hitTest(points, at, MAP_PAD + 1, 120 - MAP_PAD, 8)).toBe(0);
    expect(hitTest(points, at, MAP_PAD + 1, 120 - MAP_PAD, 8, (p) => p.group !== 'test')).toBe(-1);
  });

  it('later points win a tie, as they are drawn on top', () => {
    const same: MapPoint[] = [
      { group: 'test', index: 0, x: 0, y: 0 },
      { group: 'covered', index: 4, x: 0, y: 0 },
    ];
    const at = layoutPoints(same, 100, 100);
    expect(hitTest(same, at, 50, 50, 4)).toBe(1);
  });

  it('names the axes with their share of the variance', () => {
    expect(axisCaption(1, 0.4213)).toBe('PC1 (42.1 % of variance)');
    expect(axisCaption(2, 0)).toBe('PC2 (0.0 % of variance)');
  });
});
