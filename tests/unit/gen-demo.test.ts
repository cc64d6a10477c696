/** The Generations page's demo: 16 MP-20 truths, seeded predictions, and the CSP run over them shows matches and each kind of miss. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cspMetrics } from '../../src/core/tasks/generations/csp.ts';
import { DEMO_MODES, demoPredictions } from '../../src/core/tasks/generations/demo.ts';
import { pairCsp, setFromCsv } from '../../src/core/tasks/generations/inputs.ts';

const FILE = join(__dirname, '..', '..', 'datasets', 'generations', 'mp20-demo.csv');

describe('generations demo', () => {
  const truths = setFromCsv('truth', 'mp20-demo.csv', readFileSync(FILE, 'utf8'));
  const preds = demoPredictions(truths);

  it('builds 16 pairs with unique ids, every mode twice, the same on every call', () => {
    expect(truths).toHaveLength(16);
    expect(new Set(truths.map((t) => t.id)).size).toBe(16);
    const groups = pairCsp(preds, truths, 1);
    expect(groups).toHaveLength(16);
    for (const m of DEMO_MODES) expect(preds.filter((p) => p.where.includes(`(${m})`))).toHaveLength(2);
    expect(JSON.stringify(demoPredictions(truths))).toBe(JSON.stringify(preds));
    expect(JSON.stringify(demoPredictions(truths, 7))).not.toBe(JSON.stringify(preds));
  });

  it('gives a match rate strictly between 0 and 1, with too-close atoms, no-match rows and matches', () => {
    const r = cspMetrics(pairCsp(preds, truths, 1), { convention: 'diffcsp', smact: 'legacy' });
    expect(r.n).toBe(16);
    expect(r.match_rate).toBeGreaterThan(0);
    expect(r.match_rate).toBeLessThan(1);
    const reasons = new Set(r.per_sample.map((s) => s.reason));
    expect(reasons).toContain('atoms_too_close');
    expect(reasons).toContain('no_match');
    expect(reasons).toContain(null);
    const byMode = new Map(r.per_sample.map((s) => [preds.find((p) => p.id === s.id)!.where, s]));
    // A rotated, shifted copy matches, unless its truth is invalid too (an intermetallic fails the SMACT check).
    const truthValid = new Map(r.per_truth.map((t) => [t.id, t.truth_valid]));
    for (const [where, s] of byMode)
      if (where.includes('(rotated_shifted_copy)')) expect(s.matched || !truthValid.get(s.id), where).toBe(true);
    expect([...byMode].some(([where, s]) => where.includes('(rotated_shifted_copy)') && s.matched)).toBe(true);
  });
});
