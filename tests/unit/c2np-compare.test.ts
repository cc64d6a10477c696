/**
 * The compare view's per-atom data: a damaged copy of a real C2NP particle (golden metric_cases.json) with
 * known damage — rotated, shuffled, three atoms deleted, two stray atoms added, one atom pushed by 0.3 Å —
 * must report exactly that damage. Hausdorff's worst pair is checked by brute force; the batch readers and
 * CSV export against hand-written inputs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Particle } from '../../src/core/analysis/alignment.ts';
import { hausdorffWorstPair } from '../../src/core/analysis/hausdorff.ts';
import { formatCsv } from '../../src/core/io/csv.ts';
import { BatchFormatError, pairFilesByName, parseC2npBatch } from '../../src/core/tasks/c2np/batch.ts';
import { LIMITS } from '../../src/core/limits.ts';
import { compareParticles, CompareSizeError } from '../../src/core/tasks/c2np/compare.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { mulberry32 } from '../../scripts/support/random.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const golden: any = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'c2np', 'metric_cases.json'), 'utf8'));
const identity = golden.cases.find((c: { name: string }) => c.name === 'identity');
// The perfect particle is symmetric (any of its point-group operations would be an equally good alignment),
// so it is first jittered by ±0.05 Å to make the right correspondence the unique best one.
const jitter = mulberry32(3);
const truth: Particle = {
  symbols: identity.gt.symbols,
  coords: Float64Array.from(identity.gt.coords.flat(), (v: number) => v + 0.1 * (jitter() - 0.5)),
};

function bruteHausdorffPair(a: Float64Array, b: Float64Array) {
  let best = { a: -1, b: -1, distance: -1 };
  const nearest = (x: Float64Array, i: number, y: Float64Array) => {
    let d = Infinity,
      at = -1;
    for (let j = 0; j < y.length / 3; j++) {
      const e = Math.hypot(x[3 * i] - y[3 * j], x[3 * i + 1] - y[3 * j + 1], x[3 * i + 2] - y[3 * j + 2]);
      if (e < d) {
        d = e;
        at = j;
      }
    }
    return { d, at };
  };
  for (let i = 0; i < a.length / 3; i++) {
    const n = nearest(a, i, b);
    if (n.d > best.distance) best = { a: i, b: n.at, distance: n.d };
  }
  for (let j = 0; j < b.length / 3; j++) {
    const n = nearest(b, j, a);
    if (n.d > best.distance) best = { a: n.at, b: j, distance: n.d };
  }
  return best;
}

describe('compareParticles on a particle with known damage', () => {
  const n = truth.symbols.length;
  const random = mulberry32(7);
  const removed = new Set([5, 40, 77]);
  const pushed = 12;
  const kept = [...Array(n).keys()].filter((i) => !removed.has(i));
  // Shuffle the kept atoms (Fisher–Yates with a seeded generator).
  for (let k = kept.length - 1; k > 0; k--) {
    const r = Math.floor(random() * (k + 1));
    [kept[k], kept[r]] = [kept[r], kept[k]];
  }
  // A rotation by 30° about z through the file origin, plus a translation.
  const c = Math.cos(Math.PI / 6),
    s = Math.sin(Math.PI / 6);
  const move = (x: number, y: number, z: number) => [c * x - s * y + 3, s * x + c * y - 1, z + 2];
  const symbols: string[] = [],
    coords: number[] = [];
  for (const j of kept) {
    let [x, y, z] = [truth.coords[3 * j], truth.coords[3 * j + 1], truth.coords[3 * j + 2]];
    if (j === pushed) x += 0.3;
    symbols.push(truth.symbols[j]);
    coords.push(...move(x, y, z));
  }
  // Two stray atoms far outside the particle.
  symbols.push('K', 'H');
  coords.push(...move(60, 40, 40), ...move(40, 62, 40));
  const pred: Particle = { symbols, coords: new Float64Array(coords) };
  const cmp = compareParticles(pred, truth, { matchTolerance: 0.5 });

  it('finds exactly the deleted atoms as missing and the strays as extra', () => {
    expect([...cmp.missing].sort((a, b) => a - b)).toEqual([...removed].sort((a, b) => a - b));
    expect([...cmp.extra].sort((a, b) => a - b)).toEqual([kept.length, kept.length + 1]);
  });

  it('pairs every surviving atom with its original and measures the 0.3 Å push (±0.01 Å)', () => {
    kept.forEach((j, i) => expect(cmp.predPartner[i]).toBe(j));
    const pushedIndex = kept.indexOf(pushed);
    expect(cmp.alignedDisplacement[pushedIndex]).toBeGreaterThan(0.29);
    expect(cmp.alignedDisplacement[pushedIndex]).toBeLessThan(0.31);
    kept.forEach((j, i) => {
      if (j !== pushed) expect(cmp.alignedDisplacement[i]).toBeLessThan(0.01);
    });
    expect(cmp.metrics.aligned?.matched_fraction).toBeCloseTo((n - 3) / n, 12);
  });

  it('has no index-paired displacement when the counts differ', () => {
    expect(cmp.pairedDisplacement).toBeNull();
    expect(cmp.metrics.rmsd).toBeNull();
  });

  it('reports the Hausdorff pair a brute-force search finds', () => {
    const brute = bruteHausdorffPair(pred.coords, truth.coords);
    expect(cmp.hausdorffPair).toEqual({ a: brute.a, b: brute.b, distance: expect.closeTo(brute.distance, 12) });
    expect(cmp.hausdorffPair!.distance).toBeCloseTo(cmp.metrics.hausdorff, 12);
  });

  it('gives index-paired displacements |p_i − g_i| when the counts agree', () => {
    const noisy = new Float64Array(truth.coords);
    const expected: number[] = [];
    for (let i = 0; i < n; i++) {
      const d = [random() - 0.5, random() - 0.5, random() - 0.5].map((v) => 0.2 * v);
      noisy[3 * i] += d[0];
      noisy[3 * i + 1] += d[1];
      noisy[3 * i + 2] += d[2];
      expected.push(Math.hypot(d[0], d[1], d[2]));
    }
    const same = compareParticles({ symbols: truth.symbols, coords: noisy }, truth);
    same.pairedDisplacement!.forEach((v, i) => expect(v).toBeCloseTo(expected[i], 12));
  });
});

describe('compareParticles refuses what it cannot do', () => {
  it('names a particle that is too large or empty', () => {
    const huge: Particle = { symbols: new Array(1_000_000).fill('K'), coords: new Float64Array(3_000_000) };
    expect(() => compareParticles(huge, truth)).toThrow(CompareSizeError);
    expect(() => compareParticles(huge, truth)).toThrow(
      `the prediction has 1,000,000 atoms; the limit is ${LIMITS.particleAtoms.toLocaleString('en')} atoms`,
    );
    expect(() => compareParticles(truth, { symbols: [], coords: new Float64Array(0) })).toThrow('The truth holds no atoms.');
  });
});

describe('hausdorffWorstPair', () => {
  it('equals brute force on random clouds', () => {
    const random = mulberry32(11);
    for (let t = 0; t < 20; t++) {
      const a = Float64Array.from({ length: 3 * (5 + Math.floor(random() * 60)) }, () => 10 * random());
      const b = Float64Array.from({ length: 3 * (5 + Math.floor(random() * 60)) }, () => 10 * random() + (t % 3));
      const got = hausdorffWorstPair(a, b)!,
        brute = bruteHausdorffPair(a, b);
      expect(got.distance).toBeCloseTo(brute.distance, 12);
      expect([got.a, got.b]).toEqual([brute.a, brute.b]);
    }
  });
  it('is null for an empty set', () => {
    expect(hausdorffWorstPair(new Float64Array(0), new Float64Array(3))).toBeNull();
  });
});

describe('C2NP batch files', () => {
  it('reads forward rows with XYZ text or symbol/position lists', () => {
    const xyz = '2\nc\nK 0 0 0\nH 1 0 0\n';
    const text = [
      JSON.stringify({
        id: 'a',
        pred: xyz,
        truth: {
          symbols: ['K', 'H'],
          positions: [
            [0, 0, 0],
            [1.1, 0, 0],
          ],
        },
        radius: 7,
      }),
      '',
      JSON.stringify({ pred: { symbols: ['K'], positions: [[0, 0, 0]] }, truth: { symbols: ['K'], positions: [[0, 0, 1]] } }),
    ].join('\n');
    const batch = parseC2npBatch(text);
    expect(batch.kind).toBe('forward');
    if (batch.kind !== 'forward') return;
    expect(batch.rows.map((r) => r.id)).toEqual(['a', '#2']);
    expect([...batch.rows[0].pred.coords]).toEqual([0, 0, 0, 1, 0, 0]);
    expect(batch.rows[0].truth.symbols).toEqual(['K', 'H']);
    expect(batch.rows[0].radius).toBe(7);
  });

  it('reads inverse rows with either space-group field name', () => {
    const batch = parseC2npBatch(
      [
        '{"id": "x", "pred_lattice": [4, 4, 4, 90, 90, 90], "pred_sg": 221, "true_lattice": [4.02, 4.02, 4.02, 90, 90, 90], ' +
          '"true_spacegroup": 221}',
      ].join('\n'),
    );
    expect(batch).toEqual({
      kind: 'inverse',
      rows: [
        {
          id: 'x',
          predLattice: [4, 4, 4, 90, 90, 90],
          predSpacegroup: 221,
          trueLattice: [4.02, 4.02, 4.02, 90, 90, 90],
          trueSpacegroup: 221,
        },
      ],
    });
  });

  it('names the line of a bad row', () => {
    const bad = (text: string, pattern: RegExp) => {
      expect(() => parseC2npBatch(text)).toThrow(BatchFormatError);
      expect(() => parseC2npBatch(text)).toThrow(pattern);
    };
    bad('{"pred_lattice": [1,2,3], "pred_sg": 1, "true_lattice": [1,1,1,90,90,90], "true_sg": 1}', /line 1: "pred_lattice" must be six/);
    bad('\n{oops', /line 2: not valid JSON/);
    bad(
      '{"pred": {"symbols": ["K"], "positions": [[0, null, 0]]}, "truth": "1\\n\\nK 0 0 0"}',
      /line 1: "pred" position 0 must be three finite numbers/,
    );
    bad('{"pred": "1\\n\\nK 0 0 nan", "truth": "1\\n\\nK 0 0 0"}', /line 1: pred/);
    bad('{"a": 1}', /line 1: a row needs/);
    bad('', /holds no rows/);
  });

  it('pairs files by relative path, then by a unique file name', () => {
    const preds = [{ path: 'pred/R7/rot_0.xyz' }, { path: 'pred/R8/rot_0.xyz' }, { path: 'pred/only.xyz' }, { path: 'pred/x/same.xyz' }];
    const truths = [{ path: 'gt/R8/rot_0.xyz' }, { path: 'gt/R7/rot_0.xyz' }, { path: 'gt/elsewhere/same.xyz' }, { path: 'gt/lonely.xyz' }];
    const { pairs, unpairedPreds, unpairedTruths } = pairFilesByName(preds, truths);
    expect(pairs.map(([p, t]) => `${p.path}=${t.path}`)).toEqual([
      'pred/R7/rot_0.xyz=gt/R7/rot_0.xyz',
      'pred/R8/rot_0.xyz=gt/R8/rot_0.xyz',
      'pred/x/same.xyz=gt/elsewhere/same.xyz',
    ]);
    expect(unpairedPreds.map((p) => p.path)).toEqual(['pred/only.xyz']);
    expect(unpairedTruths.map((t) => t.path)).toEqual(['gt/lonely.xyz']);
  });

  it('writes RFC 4180 CSV', () => {
    expect(
      formatCsv(
        ['id', 'rmsd', 'note'],
        [
          ['a,b', 0.5, 'say "hi"'],
          ['c', null, 'x\ny'],
          ['d', NaN, true],
        ],
      ),
    ).toBe('id,rmsd,note\r\n"a,b",0.5,"say ""hi"""\r\nc,,"x\ny"\r\nd,,true\r\n');
  });
});
