/**
 * The AtomWorld page's overlay geometry (expected distances worked out by hand for a cubic cell) and
 * its built-in demo (expected verdicts follow from how each answer was made, not from the evaluator).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Vec3 } from '../../src/core/math/mat3.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type Structure, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import { readAtomworldCif } from '../../src/core/tasks/atomworld/actions.ts';
import { judgeAtomworldJob } from '../../src/core/tasks/atomworld/batch.ts';
import { evaluateAtomworldAnswer } from '../../src/core/tasks/atomworld/evaluate.ts';
import { buildDemoCases } from '../../src/core/tasks/atomworld/lab/demo.ts';
import { aseFrameOf, overlayGeometry } from '../../src/core/tasks/atomworld/lab/overlay.ts';
import { REPO_ROOT, REFERENCE } from '../../scripts/support/paths.ts';

const cubic = (a: number, atoms: [string, Vec3][]): Structure => {
  const lattice = Lattice.fromParameters(a, a, a, 90, 90, 90);
  return { name: 'test', lattice, sites: atoms.map(([el, f]) => makeSiteFromFrac(lattice, f, { [el]: 1 })) };
};

describe('overlay geometry', () => {
  const target = cubic(4, [
    ['Na', [0, 0, 0]],
    ['Cl', [0.5, 0.5, 0.5]],
  ]);

  it('removes the mean shift: a rigid 0.4 Å shift plus 0.2 Å on one atom leaves 0.1 Å per pair (1e-12)', () => {
    // Na moves by 0.1 (fractional, 0.4 Å) along x, Cl by 0.15 (0.6 Å); the mean 0.125 is removed.
    const answer = cubic(4, [
      ['Na', [0.1, 0, 0]],
      ['Cl', [0.65, 0.5, 0.5]],
    ]);
    const o = overlayGeometry(
      target,
      answer,
      [
        { a: 0, b: 0 },
        { a: 1, b: 1 },
      ],
      1,
    );
    expect(o.pairs.map((p) => p.distance)).toEqual([expect.closeTo(0.1, 12), expect.closeTo(0.1, 12)]);
    expect(o.shift[0]).toBeCloseTo(0.125, 12);
    expect(o.answerCart[0][0]).toBeCloseTo(-0.1, 12); // beside its partner at the origin, not wrapped to 3.9
    expect([o.missing, o.extra]).toEqual([[], []]);
  });

  it('pairs across the cell boundary by the periodic image (0.98 → −0.02)', () => {
    const answer = cubic(4, [
      ['Na', [0.98, 0, 0]],
      ['Cl', [0.48, 0.5, 0.5]],
    ]);
    const o = overlayGeometry(
      target,
      answer,
      [
        { a: 0, b: 0 },
        { a: 1, b: 1 },
      ],
      1,
    );
    expect(o.shift[0]).toBeCloseTo(-0.02, 12);
    expect(o.pairs.map((p) => p.distance)).toEqual([expect.closeTo(0, 12), expect.closeTo(0, 12)]);
  });

  it('without a mapping: nearest same-element pairs within the limit; the rest are missing / extra', () => {
    const bigger = cubic(4, [
      ['Na', [0, 0, 0]],
      ['Cl', [0.5, 0.5, 0.5]],
      ['Na', [0.5, 0, 0]],
      ['Cl', [0, 0, 0.1]],
    ]);
    const answer = cubic(4, [
      ['Cl', [0.52, 0.5, 0.5]],
      ['Na', [0.02, 0, 0]],
      ['Cl', [0, 0, 0.9]],
    ]);
    const o = overlayGeometry(bigger, answer, null, 1);
    // Na0 ↔ Na b1 (0.08 Å), Cl1 ↔ Cl b0 (0.08 Å), Cl3 (z 0.1) ↔ Cl b2 (z −0.1): 0.8 Å.
    expect(o.pairs.map((p) => [p.a, p.b])).toEqual([
      [0, 1],
      [1, 0],
      [3, 2],
    ]);
    expect(o.pairs[2].distance).toBeCloseTo(0.8, 12);
    expect(o.missing).toEqual([2]);
    expect(o.extra).toEqual([]);
    expect(overlayGeometry(bigger, answer, null, 0.5).extra).toEqual([2]);
  });

  it("uses ASE's frame (a ∥ x) for an oblique cell", () => {
    const lattice = Lattice.fromParameters(3, 4, 5, 80, 95, 110);
    const s: Structure = {
      name: 'x',
      lattice,
      sites: [makeSiteFromFrac(lattice, [1, 0, 0], { Fe: 1 }), makeSiteFromFrac(lattice, [0.25, 0, 0], { Fe: 1 })],
    };
    const f = aseFrameOf(s);
    expect(f.cell[0][1]).toBe(0);
    expect(f.cell[0][2]).toBe(0);
    expect(f.frac[0]).toEqual([0, 0, 0]);
    expect(f.cart[1][0]).toBeCloseTo(0.75, 12);
  });
});

describe('built-in demo', () => {
  const cif = readFileSync(join(REPO_ROOT, 'datasets', 'SrTiO3.cif'), 'utf8');
  const cases = buildDemoCases(cif, 'SrTiO3.cif');
  const verdict = (action: string) => {
    const c = cases.find((x) => x.action === action)!;
    return judgeAtomworldJob({ id: c.id, action: c.action, targetCif: c.targetCif, answer: c.answer });
  };

  it('8 cases on a 10-atom BEFORE (2×1×1 SrTiO3), no golden data', () => {
    expect(cases).toHaveLength(8);
    expect(cases.map((c) => readAtomworldCif(c.beforeCif!).sites.length)).toEqual(Array(8).fill(10));
  });

  it('answers made right are judged correct (rms < 1e-6); the broken ones fail the way they were broken', () => {
    for (const action of ['move', 'insert_between', 'super_cell']) {
      const v = verdict(action);
      expect([action, v.correct]).toEqual([action, true]);
      expect(v.rmsd!).toBeLessThan(1e-6);
    }
    expect(verdict('swap').wrong_type).toBe('OutputFormatError'); // no <cif> tags
    expect(verdict('change').wrong_type).toBe('CIFParsingError'); // unreadable cell length
    expect(verdict('remove').wrong_type).toBe('AtomCountMismatch'); // a Ti removed instead of an O
    expect(verdict('delete_below').wrong_type).toBe('AtomCountMismatch'); // nothing lies below z = 0
    // Four O atoms 1.95 Å from Ti turn by 45°: 1.49 Å, above stol 0.5 × (V/n)^⅓ = 1.14 Å.
    expect(verdict('rotate_around').correct).toBe(false);
  });
});

describe('overlay against the benchmark', () => {
  const rows = readFileSync(join(REFERENCE, 'golden', 'atomworld', 'real_samples_icml_fullprec.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

  it('ICML answers matched through a symmetry of the cell: the drawn offsets give the official max_dist and rms (normalised, 1e-6)', () => {
    const matched = rows.filter((r) => r.evaluator.correct);
    expect(matched).toHaveLength(4);
    const reproduced: string[] = [];
    for (const r of matched) {
      const e = evaluateAtomworldAnswer(r.after_cif, `<cif>${r.model_generated_cif}</cif>`);
      const o = overlayGeometry(e.target, e.answer!, e.mapping!.pairs, Infinity);
      expect(o.pairs).toHaveLength(e.target.sites.length);
      const d = o.pairs.map((p) => p.distance / e.mapping!.lengthScale);
      const max = Math.max(...d),
        rms = Math.sqrt(d.reduce((s, x) => s + x * x, 0) / d.length);
      if (Math.abs(max - r.evaluator.max_dist) < 1e-6 && Math.abs(rms - r.evaluator.rmsd) < 1e-6) reproduced.push(r.id);
    }
    // frameNone: the matcher's best basis is a distorted one (within ltol / angle_tol), measured in an
    // average lattice; the page colours its pairs by the matcher's own distances and says so.
    expect(reproduced).toEqual(matched.map((r) => r.id).filter((id) => !id.endsWith('frameNone')));
  });
});
