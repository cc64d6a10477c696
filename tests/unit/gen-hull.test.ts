/**
 * `structlab gen eval --energies E --hull-reference R` through the CLI in this process: energies above hull and
 * decompositions of the binary Li–O golden queries (tests/reference/golden/generations/hull, pymatgen 2022.11) in
 * every energies and reference format, stability from them, and bad input refused in one sentence (exit 2).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REFERENCE } from '../../scripts/support/paths.ts';
import { structlabInProcess } from '../cli-runner.ts';

const TOL = 1e-9;
const golden = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'generations', 'hull', 'hull_goldens.json'), 'utf8'));
const binary = golden.sets[0] as {
  reference: { composition: Record<string, number>; energy: number }[];
  queries: {
    composition: Record<string, number>;
    energy: number;
    e_above_hull: number;
    decomposition: { formula: string; amount: number }[];
  }[];
};
// Whole-atom queries only: a structure has whole atoms.
const queries = binary.queries.filter((q) => Object.values(q.composition).every((n) => Number.isInteger(n)));

const dir = mkdtempSync(join(tmpdir(), 'gen-hull-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One frame per query: its atoms on a simple grid in a 12 Å cube, energy= its total energy. */
function extxyz(withEnergy: boolean): string {
  return queries
    .map((q, k) => {
      const symbols = Object.entries(q.composition).flatMap(([el, n]) => Array<string>(n).fill(el));
      const lines = symbols.map((el, j) => `${el} ${(j % 4) * 3} ${Math.floor(j / 4) * 3} 0`);
      const energy = withEnergy ? ` energy=${q.energy}` : '';
      const header = `Lattice="12 0 0 0 12 0 0 0 12" Properties=species:S:1:pos:R:3 id=q${k}${energy} pbc="T T T"`;
      return `${symbols.length}\n${header}\n${lines.join('\n')}\n`;
    })
    .join('');
}

const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const preds = write('pred.extxyz', extxyz(true));
const refJsonl = write(
  'ref.jsonl',
  binary.reference.map((r) => JSON.stringify({ composition: r.composition, energy: r.energy })).join('\n'),
);

function check(out: { per_sample: Record<string, unknown>[]; stable: number }) {
  expect(out.per_sample).toHaveLength(queries.length);
  out.per_sample.forEach((row, k) => {
    const q = queries[k];
    expect(Math.abs((row.e_above_hull as number) - q.e_above_hull)).toBeLessThan(TOL);
    const d = row.decomposition as Record<string, number>;
    expect(Object.keys(d).sort()).toEqual(q.decomposition.map((p) => p.formula).sort());
    for (const p of q.decomposition) expect(Math.abs(d[p.formula] - p.amount)).toBeLessThan(TOL);
    expect(row.stable).toBe(q.e_above_hull <= 0.1);
    expect(Object.keys(row).indexOf('decomposition')).toBe(Object.keys(row).indexOf('e_above_hull') + 1);
  });
  expect(out.stable).toBe(queries.filter((q) => q.e_above_hull <= 0.1).length / queries.length);
}

describe('gen eval --energies --hull-reference', () => {
  it('has queries below and above the hull and a tie-line decomposition', () => {
    expect(queries.length).toBeGreaterThanOrEqual(7);
    expect(queries.some((q) => q.e_above_hull < 0)).toBe(true);
    expect(queries.some((q) => q.decomposition.length === 2)).toBe(true);
  });

  it('reads energy= from the extended XYZ file and a JSONL reference', async () => {
    const r = await structlabInProcess(['gen', 'eval', '--pred', preds, '--energies', preds, '--hull-reference', refJsonl]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    check(JSON.parse(r.stdout));
  });

  it('reads JSON and CSV energies, CSV and pymatgen as_dict references', async () => {
    const json = write('e.json', JSON.stringify(Object.fromEntries(queries.map((q, k) => [`q${k}`, q.energy]))));
    const csv = write('e.csv', `id,energy\n${queries.map((q, k) => `q${k},${q.energy}`).join('\n')}\n`);
    const refCsv = write(
      'ref.csv',
      `formula,energy\n${binary.reference
        .map(
          (r) =>
            `${Object.entries(r.composition)
              .map(([el, n]) => `${el}${n}`)
              .join('')},${r.energy}`,
        )
        .join('\n')}\n`,
    );
    // ComputedEntry.as_dict(): "energy" uncorrected plus "correction".
    const asDict = write(
      'ref.json',
      JSON.stringify(
        binary.reference.map((r, i) => ({
          '@module': 'pymatgen.entries.computed_entries',
          '@class': 'ComputedEntry',
          composition: r.composition,
          energy: r.energy - 0.25 * i,
          correction: 0.25 * i,
          entry_id: `mp-${i}`,
        })),
      ),
    );
    const plain = write('plain.extxyz', extxyz(false));
    for (const [e, ref] of [
      [json, refCsv],
      [csv, asDict],
    ]) {
      const r = await structlabInProcess(['gen', 'eval', '--pred', plain, '--energies', e, '--hull-reference', ref]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      out.per_sample.forEach((row: Record<string, unknown>, k: number) =>
        expect(Math.abs((row.e_above_hull as number) - queries[k].e_above_hull)).toBeLessThan(1e-9),
      );
    }
  });

  it('gives nulls for a failed job', async () => {
    const e = write('null.json', JSON.stringify(Object.fromEntries(queries.map((q, k) => [`q${k}`, k === 0 ? null : q.energy]))));
    const r = await structlabInProcess(['gen', 'eval', '--pred', preds, '--energies', e, '--hull-reference', refJsonl]);
    expect(r.code).toBe(0);
    const row = JSON.parse(r.stdout).per_sample[0];
    expect([row.e_above_hull, row.decomposition, row.stable]).toEqual([null, null, false]);
  });

  it('refuses bad input in one sentence with exit 2', async () => {
    const noO = write('noO.jsonl', JSON.stringify({ composition: 'Li', energy: -1.9 }));
    const nan = write('nan.csv', 'formula,energy\nLi,NaN\nO2,-9.8\n');
    const zero = write('zero.jsonl', JSON.stringify({ composition: { Li: 0 }, energy: -1 }));
    const proto = write('proto.jsonl', JSON.stringify({ composition: JSON.parse('{"__proto__": 2, "O": 1}'), energy: -1 }));
    const huge = write('huge.jsonl', JSON.stringify({ composition: { Li: 1e15 }, energy: -1 }));
    const cases: [string[], RegExp][] = [
      [['--energies', preds, '--hull-reference', noO], /noO\.jsonl has no entry of pure O/],
      [['--energies', preds, '--hull-reference', nan], /nan\.csv line 2: the energy "NaN" is not a finite number/],
      [['--energies', preds, '--hull-reference', zero], /zero\.jsonl line 1 has no atoms/],
      [['--energies', preds, '--hull-reference', proto], /not an element symbol/],
      [['--energies', preds, '--hull-reference', huge], /the limit is/],
      [['--energies', preds], /go together/],
      [['--energies', preds, '--hull-reference', refJsonl, '--e-above-hull', preds], /not both/],
    ];
    for (const [args, message] of cases) {
      const r = await structlabInProcess(['gen', 'eval', '--pred', preds, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
