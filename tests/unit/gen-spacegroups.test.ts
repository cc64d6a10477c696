/**
 * Space groups of generated crystals (`gen csp --space-groups`, `gen eval --space-groups`) against pymatgen's
 * SpacegroupAnalyzer(structure, symprec=0.1) on every structure of the visible generation goldens
 * (golden/generations/spacegroups.json, scripts/make-sg-goldens.py; Debian's pymatgen 2022.11.7, spglib 2.0.2).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';
import { readGenSet } from '../../src/cli/commands/gen-inputs.ts';
import { initMoyoNode } from '../../src/node/moyo.ts';
import { genSpaceGroup, spaceGroupDistribution } from '../../src/core/tasks/generations/space-groups.ts';
import { crystalSystemOf } from '../../src/core/symmetry/analyze.ts';
import { spaceGroupSymbol } from '../../src/core/symmetry/analyze.ts';

const GOLDEN = join(REFERENCE, 'golden', 'generations');

interface GoldenRow {
  id: string;
  number: number | null;
  symbol: string | null;
  crystal_system: string | null;
}
const golden = JSON.parse(readFileSync(join(GOLDEN, 'spacegroups.json'), 'utf8')) as {
  symprec: number;
  sets: Record<string, GoldenRow[]>;
};

/** The golden's sets and the files they were read from. */
const SETS: Record<string, string> = {
  'csp_visible/truth': 'csp_visible/truth',
  'csp_visible/pred': 'csp_visible/pred',
  'csp_visible/multi_truth': 'csp_visible/multi_truth.jsonl',
  'csp_visible/multi_pred': 'csp_visible/multi_pred.extxyz',
  'denovo_visible/pred': 'denovo_visible/pred',
  'denovo_visible/reference': 'denovo_visible/reference.jsonl',
  'denovo_visible/truth': 'denovo_visible/truth.extxyz',
};

/** StructLab's expected number per structure: pymatgen's (SpacegroupAnalyzer(s, 0.1), angle tolerance 5°) on every one. */
const expectedNumber = (_set: string, row: GoldenRow): number | null => row.number;
const goldenById = (set: string) => new Map(golden.sets[set].map((r) => [r.id, r]));

beforeAll(() => initMoyoNode());

describe('space groups at symprec 0.1 equal pymatgen SpacegroupAnalyzer on the visible generation goldens', () => {
  it('has every set, 1,405 structures', () => {
    expect(golden.symprec).toBe(0.1);
    expect(Object.keys(golden.sets).sort()).toEqual(Object.keys(SETS).sort());
    expect(Object.values(golden.sets).reduce((n, rows) => n + rows.length, 0)).toBe(1405);
  });

  for (const [set, path] of Object.entries(SETS)) {
    it(`${set}: per structure, number and symbol`, () => {
      const items = readGenSet('structure', join(GOLDEN, path));
      const rows = golden.sets[set];
      expect(items.map((it) => it.id)).toEqual(rows.map((r) => r.id));
      const wrong: string[] = [];
      items.forEach((it, i) => {
        const g = genSpaceGroup(it.structure);
        const e = rows[i];
        if (
          g === null ? e.number !== null : g.number !== e.number || g.symbol !== e.symbol || crystalSystemOf(g.number) !== e.crystal_system
        )
          wrong.push(`${e.id}: ${JSON.stringify(g)} ≠ pymatgen ${e.number} ${e.symbol} ${e.crystal_system}`);
      });
      expect(wrong).toEqual([]);
    }, 60_000);
  }
});

describe('gen csp --space-groups', () => {
  const CSP = join(GOLDEN, 'csp_visible');
  const args = ['gen', 'csp', '--pred', join(CSP, 'pred'), '--truth', join(CSP, 'truth'), '--space-groups'];

  it('per pair: both groups and same_space_group as pymatgen gives them; the summary counts them', async () => {
    const r = await structlabInProcess([...args, '--workers', '0']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const truths = goldenById('csp_visible/truth'),
      preds = goldenById('csp_visible/pred');
    let same = 0,
      different = 0,
      matchedSame = 0,
      matchedDifferent = 0;
    for (const row of doc.per_sample) {
      const t = expectedNumber('csp_visible/truth', truths.get(row.id)!);
      const p = expectedNumber('csp_visible/pred', preds.get(row.id)!);
      expect(row.truth_space_group?.number ?? null, row.id).toBe(t);
      expect(row.pred_space_group?.number ?? null, row.id).toBe(p);
      expect(row.same_space_group, row.id).toBe(t === null || p === null ? null : t === p);
      if (t !== null && p !== null) {
        if (t === p) same++;
        else different++;
        if (row.matched && t === p) matchedSame++;
        if (row.matched && t !== p) matchedDifferent++;
      }
    }
    expect(doc.space_groups).toEqual({
      symprec: 0.1,
      angle_tolerance: 5,
      n_pairs: 203,
      n_same: same,
      n_different: different,
      n_unknown: 203 - same - different,
      match_rate_same: matchedSame / same,
      n_matched_different: matchedDifferent,
    });
    // The point of pymatgen #3796: the matcher (stol 0.5) matches many pairs whose space groups differ.
    expect(matchedDifferent).toBeGreaterThan(0);
    // Keys sit after the existing ones: the report without --space-groups is unchanged (gen-csp.test.ts).
    expect(Object.keys(doc.per_sample[0]).slice(-3)).toEqual(['truth_space_group', 'pred_space_group', 'same_space_group']);
    expect(Object.keys(doc).indexOf('space_groups')).toBe(Object.keys(doc).indexOf('truth_valid_fraction') + 1);
    // Worker threads give the same bytes (each thread starts its own moyo).
    const two = await structlabInProcess([...args, '--workers', '2']);
    expect(two.stderr).toBe('');
    expect(two.stdout).toBe(r.stdout);
  }, 240_000);

  it('sharded and merged: the same document (the rows carry their groups)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'structlab-gen-sg-'));
    try {
      const parts = [];
      for (const shard of ['0/2', '1/2']) {
        const r = await structlabInProcess([...args, '--shard', shard]);
        expect(r.code, r.stderr).toBe(0);
        const path = join(tmp, `${shard.replace('/', '-')}.json`);
        writeFileSync(path, r.stdout);
        parts.push(path);
      }
      const merged = await structlabInProcess(['merge', ...parts]);
      expect(merged.code, merged.stderr).toBe(0);
      expect(merged.stdout).toBe((await structlabInProcess(args)).stdout);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 240_000);

  it('best of 4: every sample row carries its groups', async () => {
    const multi = ['gen', 'csp', '--pred', join(CSP, 'multi_pred.extxyz'), '--truth', join(CSP, 'multi_truth.jsonl'), '--n-samples', '4'];
    const r = await structlabInProcess([...multi, '--space-groups']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const truths = goldenById('csp_visible/multi_truth'),
      preds = goldenById('csp_visible/multi_pred');
    expect(doc.space_groups.n_pairs).toBe(160);
    for (const row of doc.per_sample) {
      expect(row.truth_space_group?.number ?? null).toBe(expectedNumber('csp_visible/multi_truth', truths.get(row.id)!));
      expect(row.pred_space_group?.number ?? null).toBe(expectedNumber('csp_visible/multi_pred', preds.get(`${row.id}__${row.sample}`)!));
    }
  }, 120_000);
});

describe('gen eval --space-groups', () => {
  const DENOVO = join(GOLDEN, 'denovo_visible');

  it('per sample number and symbol; distributions of the predictions and the reference, P1 fraction', async () => {
    const args = ['gen', 'eval', '--pred', join(DENOVO, 'pred'), '--reference', join(DENOVO, 'reference.jsonl'), '--space-groups'];
    const r = await structlabInProcess([...args, '--workers', '0']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const expectedOf = (set: string) =>
      golden.sets[set].map((row) => {
        const n = expectedNumber(set, row);
        // The symbol is pymatgen's where the numbers agree; listed cases take StructLab's symbol of their number.
        return n === null ? null : { number: n, symbol: n === row.number ? row.symbol! : spaceGroupSymbol(n).symbol };
      });
    const preds = expectedOf('denovo_visible/pred');
    expect(doc.per_sample.map((s: { space_group: unknown }) => s.space_group)).toEqual(preds);
    const reference = expectedOf('denovo_visible/reference');
    expect(doc.space_groups).toEqual({
      symprec: 0.1,
      angle_tolerance: 5,
      predictions: spaceGroupDistribution(preds),
      reference: spaceGroupDistribution(reference),
    });
    // Independent of spaceGroupDistribution: the P1 fraction, and the crystal systems from pymatgen's own names.
    expect(doc.space_groups.predictions.p1_fraction).toBe(preds.filter((g) => g?.number === 1).length / 329);
    const systems: Record<string, number> = {};
    golden.sets['denovo_visible/reference'].forEach((row) => {
      const system = row.crystal_system;
      if (system) systems[system] = (systems[system] ?? 0) + 1;
    });
    for (const [system, count] of Object.entries(doc.space_groups.reference.crystal_systems))
      expect(count, system).toBe(systems[system] ?? 0);
    expect(Object.values(systems).reduce((a, b) => a + b, 0)).toBe(320);
    const two = await structlabInProcess([...args, '--workers', '2']);
    expect(two.stdout).toBe(r.stdout);
  }, 240_000);

  it('without --space-groups the document has no space-group keys', async () => {
    const r = await structlabInProcess(['gen', 'eval', '--pred', join(DENOVO, 'pred'), '--smact', 'icsd24', '--convention', 'mattergen']);
    const doc = JSON.parse(r.stdout);
    expect('space_groups' in doc).toBe(false);
    expect('space_group' in doc.per_sample[0]).toBe(false);
  }, 120_000);
});

describe('the Generations page table with space groups', () => {
  it('sorts space-group cells by number and writes them to CSV as "symbol (number)"', async () => {
    const { rowsCsv, tableOrder } = await import('../../src/state/generations.ts');
    const row = (id: string, g: { number: number; symbol: string } | null) => ({ id, space_group: g }) as never;
    const rows = [row('a', { number: 225, symbol: 'Fm-3m' }), row('b', null), row('c', { number: 14, symbol: 'P2_1/c' })];
    expect(tableOrder(rows, { key: 'space_group', descending: false }, null)).toEqual([2, 0, 1]);
    expect(tableOrder(rows, { key: 'space_group', descending: true }, null)).toEqual([0, 2, 1]);
    expect(rowsCsv(rows).trim().split(/\r?\n/)).toEqual(['id,space_group', 'a,Fm-3m (225)', 'b,', 'c,P2_1/c (14)']);
  });
});
