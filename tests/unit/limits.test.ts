/**
 * The resource policy itself: one sentence shape, budgets raised for one CLI run (and only that run), facts
 * that stay fixed, and the work budgets that bound the matcher and the space-group searches of `info`.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { pairDistanceHistogram } from '../../src/core/analysis/rdf.ts';
import { hausdorffDistance } from '../../src/core/analysis/hausdorff.ts';
import { groupedNumber, LIMITS, LimitError, limitOverrides, limitSentence, overrideLimits, resetLimits } from '../../src/core/limits.ts';
import { matcherFit, matcherRmsDist } from '../../src/core/match/structure-matcher.ts';
import { pymatgenPrimitive } from '../../src/core/match/primitive.ts';
import { type Structure, fracOf } from '../../src/core/structure/structure.ts';
import { carveParticle } from '../../src/core/tasks/c2np/carve.ts';
import { solveInverse } from '../../src/core/tasks/c2np/inverse.ts';
import type { Vec3 } from '../../src/core/math/mat3.ts';
import { REPO_ROOT } from '../../scripts/support/paths.ts';
import { structlab, structlabInProcess } from '../cli-runner.ts';
import { shiftedFccCif } from '../hostile-structures.ts';
import { p1Cif } from '../cif.ts';

const tmp = mkdtempSync(join(tmpdir(), 'structlab-limits-'));

const run = structlabInProcess;

/** A 4 Å P1 cell with Fe at the corner and O at the centre, as the CIF block `name`. */
const feOCif = (name: string) => p1Cif(name, 4, ['Fe1 Fe 0 0 0', 'O1 O 0.5 0.5 0.5']);

/** The parsed shiftedFccCif structure. */
function shiftedFcc(n: number, extra: number): Structure {
  const r = parseStructureFile(shiftedFccCif(n, extra), 'fcc.cif');
  if (!r.ok) throw new Error(r.error);
  return r.structures[0];
}

afterEach(() => resetLimits());

describe('the policy', () => {
  it('one sentence shape; a name lets the front end say how to raise the limit', () => {
    expect(limitSentence('the file', 12, 10, 'atoms')).toBe('the file has 12 atoms; the limit is 10 atoms');
    expect(limitSentence('the stream', null, 10, 'lines')).toBe('the stream is over the limit; the limit is 10 lines');
  });

  it('budgets can be raised and reset; facts and unknown names cannot', () => {
    overrideLimits({ atoms: 5 });
    expect(LIMITS.atoms).toBe(5);
    expect(limitOverrides()).toEqual({ atoms: 5 });
    resetLimits();
    expect(LIMITS.atoms).toBe(200_000);
    expect(limitOverrides()).toEqual({});
    expect(() => overrideLimits({ symmetryOperations: 500 })).toThrow(/fixed/);
    expect(() => overrideLimits({ __proto__: 1 } as Record<string, number>)).not.toThrow(); // a literal __proto__ sets no key
    expect(() => overrideLimits(JSON.parse('{"__proto__": 1}'))).toThrow(/no limit called "__proto__"/);
    expect(() => overrideLimits({ atoms: -1 })).toThrow(/positive number/);
    expect(() => overrideLimits({ atoms: Number.NaN })).toThrow(/positive number/);
  });
});

describe('groupedNumber', () => {
  it("writes every number as toLocaleString('en') does (ICU, the independent method), grouping integers itself", () => {
    const values = [0, -0, 7, -7, 999, 1000, -1000, 12_345, 999_999, 1_000_000, -1_234_567, 200_000, 1e15, 2 ** 53 - 1, -(2 ** 53 - 1)];
    for (const v of values) expect(groupedNumber(v), String(v)).toBe(v.toLocaleString('en'));
    for (let k = 0, v = 1; k < 16; k++, v = v * 10 + (k % 10)) expect(groupedNumber(v)).toBe(v.toLocaleString('en'));
    // Not a safe integer: left to toLocaleString itself.
    for (const v of [2 ** 53, 1e21, 1.5, -0.25, NaN, Infinity, -Infinity]) expect(groupedNumber(v), String(v)).toBe(v.toLocaleString('en'));
  });
});

describe('structlab --limit', () => {
  const big = join(tmp, 'two-blocks.cif');
  writeFileSync(big, feOCif('a') + feOCif('b'));

  it('a refusal names the option that raises its limit; raising it lets the same input through, for that run only', async () => {
    const refused = await run(['--limit', 'atoms=1', 'info', big]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/has 2 atoms; the limit is 1 atoms \(raise it with --limit atoms=N\)/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    const ok = await run(['info', big, '--limit=atoms=2']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).structures).toHaveLength(2);
    expect(LIMITS.atoms).toBe(200_000);
  });

  it('bad --limit values are usage errors (exit 2, one line)', async () => {
    for (const args of [
      ['--limit', 'bogus=3', 'info', big],
      ['--limit', 'atoms', 'info', big],
      ['--limit', 'atoms=x', 'info', big],
      ['--limit', 'symmetryOperations=400', 'info', big],
      ['info', big, '--limit'],
    ]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('info searches space groups for the first symmetrySearches periodic structures and says so', async () => {
    const r = await run(['--limit', 'symmetrySearches=1', 'info', big]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.structures.map((s: { spacegroup: unknown }) => s.spacegroup !== null)).toEqual([true, false]);
    expect(out.warnings.at(-1)).toMatch(/2 periodic structures to search for a space group; the limit is 1 .*--limit symmetrySearches=N/);
  });
});

describe('work budgets', () => {
  it('the space-group search counts its overlap checks: past symmetryWork info names the limit, symmetry exits 2', async () => {
    // 600 scattered sites of one kind: spglib tests ~600 translations, a pass over the cell each (≈ 4 × 10⁵ visits).
    const lines = Array.from(
      { length: 600 },
      (_, k) =>
        `Fe${k} Fe ${((k * 0.6180339887) % 1).toFixed(6)} ${((k * 0.4142135623) % 1).toFixed(6)} ${((k * 0.7320508075) % 1).toFixed(6)}`,
    );
    const file = join(tmp, 'random.cif');
    writeFileSync(file, p1Cif('random', 20, lines));
    const ok = await run(['info', file]);
    expect(JSON.parse(ok.stdout).structures[0].spacegroup).not.toBeNull();
    const r = await run(['--limit', 'symmetryWork=1e5', 'info', file]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.structures[0].spacegroup).toBeNull();
    expect(out.warnings).toContainEqual(
      expect.stringMatching(/the limit is 100,000 atom visits \(raise it with --limit symmetryWork=N\); spacegroup is null/),
    );
    const strict = await run(['--limit', 'symmetryWork=1e5', 'symmetry', file]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/--limit symmetryWork=N/);
  });
  it('no space group for same-kind atoms closer than symprec, as spglib refuses them; info says why', async () => {
    const file = join(tmp, 'close.cif');
    writeFileSync(file, p1Cif('close', 4, ['Fe1 Fe 0 0 0', 'Fe2 Fe 0.0015 0 0']));
    const r = await run(['info', file]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.structures[0].spacegroup).toBeNull();
    expect(out.warnings).toContainEqual(
      expect.stringMatching(/sites 1 and 2 of one kind are 0\.00600 Å apart, closer than symprec \(0\.01 Å\)/),
    );
    const loose = await run(['info', file, '--symprec', '0.001']);
    expect(JSON.parse(loose.stdout).structures[0].spacegroup).not.toBeNull();
  });

  it('the matcher counts its work: a cubic cell whose rms scan needs every mapping × translation is refused past matchWork', () => {
    const target = shiftedFcc(2, 0);
    const answer = shiftedFcc(2, 0.05);
    // Within the budget the verdict is a match; with a budget far below the scan, a LimitError names matchWork.
    expect(matcherFit(target, answer, { primitiveCell: false, stol: 0.5 })).toBe(true);
    overrideLimits({ matchWork: 1e5 });
    let caught: unknown;
    try {
      matcherRmsDist(target, answer, { primitiveCell: false, stol: 0.5 });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(LimitError);
    expect((caught as LimitError).limit).toBe('matchWork');
  });

  it('the primitive-cell search reports its work, and stops when its budget throws', () => {
    const s = shiftedFcc(2, 0.05);
    const frac = new Float64Array(s.sites.flatMap((site) => fracOf(site, s.lattice!)));
    const input = { matrix: s.lattice!.matrix, frac, labels: s.sites.map(() => 'Na') };
    let units = 0;
    pymatgenPrimitive(input, 0.25, undefined, (u) => {
      units += u;
    });
    expect(units).toBeGreaterThan(s.sites.length ** 2);
    let spent = 0;
    expect(() =>
      pymatgenPrimitive(input, 0.25, undefined, (u) => {
        spent += u;
        if (spent > 100) throw new LimitError('matchWork', 'over');
      }),
    ).toThrow('over');
    // Through the matcher, a budget below that work refuses the match.
    overrideLimits({ matchWork: 100 });
    expect(() => matcherFit(s, s, { stol: 0.5 })).toThrow(LimitError);
  });

  it('the inverse solver gives up on a particle with no lattice once its search budget is spent', () => {
    let t = 7;
    const rnd = () => ((t = (t * 1103515245 + 12345) % 2147483648) / 2147483648) * 26;
    const cloud: Structure = {
      name: 'cloud',
      lattice: null,
      sites: Array.from({ length: 1500 }, () => ({ species: { Au: 1 }, xyz: [rnd(), rnd(), rnd()] as Vec3 })),
    };
    expect(() => solveInverse(cloud)).toThrow(
      /within the search budget \(the search is over the limit; the limit is 20,000,000 grid cells, points and translations looked at/,
    );
  });

  it('the inverse solver refuses piled-up atoms (no tolerance to work with) at once', () => {
    const sites = Array.from({ length: 2000 }, (_, k) => ({
      species: { Au: 1 },
      xyz: [(k % 7) * 3, (Math.floor(k / 7) % 5) * 3, 0] as Vec3,
    }));
    expect(() => solveInverse({ name: 'piled', lattice: null, sites })).toThrow(/nearest-neighbour distance is 0\.00 Å: the atoms overlap/);
  });

  it('a pair-distance histogram of piled-up atoms is refused up front; metrics exits 2 (the align thread ended quietly)', () => {
    const pile = new Float64Array(3 * 15_000);
    expect(() => pairDistanceHistogram(pile)).toThrow(/the limit is 100,000,000 atom pairs/);
    const file = join(tmp, 'pile.xyz');
    writeFileSync(file, `15000\n\n${'Au 0 0 0\n'.repeat(15_000)}`);
    const r = structlab(['metrics', file, file], { timeout: 60_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: .*atom pairs \(raise it with --limit rdfPairs=N\)$/)]);
  });

  it('the Hausdorff distance of two piles of 50,000 atoms on one point is 0 without scanning every pair (hang guard)', () => {
    const pile = new Float64Array(3 * 50_000);
    expect(hausdorffDistance(pile, pile)).toBe(0);
  }, 10_000);

  it('c2np build counts the atoms of every file before writing any: over buildAtoms nothing is written', async () => {
    const out = join(tmp, 'c2np-out');
    const r = await run([
      '--limit',
      'buildAtoms=20000',
      'c2np',
      'build',
      join(REPO_ROOT, 'datasets', 'SrTiO3.cif'),
      '--out',
      out,
      '--radii',
      '6-8',
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /the dataset up to R = \d+ Å .* atoms to write; the limit is 20,000 atoms to write \(raise it with --limit buildAtoms=N\)/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('carving a sphere that holds no atom is a sentence, not an empty particle; an absurd centre is refused', () => {
    const cell = parseStructureFile(feOCif('x'), 'x.cif');
    if (!cell.ok) throw new Error(cell.error);
    expect(() => carveParticle(cell.structures[0], { radius: 6, center: { kind: 'point', point: [1000, 0, 0] } })).toThrow(
      /no atom .* the particle would be empty/,
    );
    expect(() => carveParticle(cell.structures[0], { radius: 6, center: { kind: 'point', point: [1e300, 0, 0] } })).toThrow(LimitError);
  });
});
