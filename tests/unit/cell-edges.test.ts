import { describe, expect, it } from 'vitest';
import { CELL_CORNERS, CELL_EDGES } from '../../src/viewer/cell-edges.ts';

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
