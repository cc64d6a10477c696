/**
 * The AtomWorld single-answer evaluator against pymatgen 2022.11's verdicts:
 * - every pair of golden/atomworld/eval_oracle.jsonl: (correct, wrong_type) equal, rmsd and max_dist
 *   within 1e-4 where defined;
 * - the same verdicts, bit for bit, whatever order a batch judges the pairs in (what is kept between pairs);
 * - the same verdicts, bit for bit, when the CLI's main thread read the CIFs ahead (`readJobAhead`, sent through a
 *   structured clone as a message is; wholly read jobs go without their texts) or when only part of what it read
 *   reached the judging thread;
 * - the six real ICML records: verdict, rmsd and max_dist within 1e-6;
 * - the extraction and strict-parse rules of AtomWorldBench's evaluator on hand-made answers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateAtomworldAnswer, extractLastCif } from '../../src/core/tasks/atomworld/evaluate.ts';
import { parseCifStrict } from '../../src/core/tasks/atomworld/strict-cif.ts';
import { type AtomworldJob, type AtomworldReadJob, judgeAtomworldJob, readJobAhead } from '../../src/core/tasks/atomworld/batch.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

const GOLDEN = join(REFERENCE, 'golden', 'atomworld');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const readJsonl = (name: string): any[] =>
  readFileSync(join(GOLDEN, name), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('AtomWorld evaluation oracle (pymatgen 2022.11)', () => {
  it('reproduces every verdict, rmsd and max_dist of eval_oracle.jsonl', () => {
    const rows = readJsonl('eval_oracle.jsonl');
    expect(rows.length).toBeGreaterThan(400);
    const failures: string[] = [];
    let slowest = 0;
    for (const r of rows) {
      const t0 = performance.now();
      const got = evaluateAtomworldAnswer(r.target_cif, `<cif>\n${r.candidate_cif}\n</cif>`);
      slowest = Math.max(slowest, performance.now() - t0);
      const e = r.expected;
      const ok =
        got.correct === e.correct &&
        got.wrongType === e.wrong_type &&
        (e.rmsd == null ? got.rmsd === null : Math.abs(got.rmsd! - e.rmsd) <= 1e-4) &&
        (e.max_dist == null ? got.maxDist === null : Math.abs(got.maxDist! - e.max_dist) <= 1e-4);
      if (!ok)
        failures.push(
          `${r.case_id} (${r.candidate}): expected ${JSON.stringify(e)}, got ${got.correct} ${got.wrongType} ${got.rmsd} ${got.maxDist}`,
        );
    }
    expect(failures).toEqual([]);
    // Reported, not asserted (a shared machine must not decide a test); the timeout is the hang guard.
    console.log(`eval_oracle.jsonl: slowest pair ${slowest.toFixed(0)} ms`);
  }, 180_000);

  it('gives the same verdicts bit for bit whatever order a batch judges the pairs in', () => {
    // Targets, reduced cells, lattice mappings and scratch are kept from one pair to the next (judgeAtomworldJob and
    // the matcher): in reverse order, and with each pair judged twice in a row, other pairs reuse what is kept.
    const rows = readJsonl('eval_oracle.jsonl');
    const jobs = rows.map((r, k) => ({
      id: String(k),
      action: r.action,
      targetCif: r.target_cif,
      answer: `<cif>\n${r.candidate_cif}\n</cif>`,
    }));
    const forward = jobs.map(judgeAtomworldJob);
    const backward = [...jobs].reverse().flatMap((j) => [judgeAtomworldJob(j), judgeAtomworldJob(j)]);
    backward.forEach((v) => expect(v, v.id).toEqual(forward[Number(v.id)]));
    expect(backward).toHaveLength(2 * jobs.length);
    expect(forward.filter((v) => v.correct).length).toBeGreaterThan(100);
  });

  it('gives the same verdicts bit for bit when the CIFs were read ahead in another thread, or only partly', () => {
    const rows = readJsonl('eval_oracle.jsonl');
    const oracle: AtomworldJob[] = rows.map((r, k) => ({
      id: String(k),
      action: r.action,
      targetCif: r.target_cif,
      answer: `<cif>\n${r.candidate_cif}\n</cif>`,
    }));
    // Every step that can fail where the CIFs are read ahead: a CIF that does not parse, a pair the matcher refuses
    // (a flat cell: LimitError), a target that does not parse, no tags, no answer, counts or compositions that differ.
    const flat = cifWith(['Na Na1 0 0 0', 'Cl Cl1 0.5 0.5 0.5']).replace('_cell_length_c 4.0', '_cell_length_c 0.0004');
    const hostile: [string, string | null][] = [
      [TARGET, '<cif>not a cif</cif>'],
      [flat, `<cif>${flat}</cif>`],
      [TARGET, `<cif>${flat}</cif>`],
      ['data_x\n_cell_length_a 1', `<cif>${TARGET}</cif>`],
      [TARGET, 'no tags'],
      [TARGET, null],
      [TARGET, `<cif>${cifWith(['Na Na1 0 0 0', 'K K1 0.5 0.5 0.5'])}</cif>`],
      [TARGET, `<cif>${cifWith(['Na Na1 0 0 0', 'Cl Cl1 0.02 0 0'])}</cif>`],
    ];
    const jobs: AtomworldJob[] = [
      ...oracle,
      ...hostile.map(([targetCif, answer], k) => ({ id: `h${k}`, action: 'hostile', targetCif, answer })),
    ];
    const alone = jobs.map(judgeAtomworldJob);
    expect(new Set(alone.map((v) => v.wrong_type))).toEqual(
      new Set([null, 'AtomCountMismatch', 'StructureMismatch', 'CIFParsingError', 'OutputFormatError', 'ResourceLimit', 'Unknown']),
    );
    const readAhead = jobs.map((j) => structuredClone(readJobAhead({ ...j })));
    expect(readAhead.filter((j) => j.read?.target?.matcher && j.read.answer?.matcher).length).toBeGreaterThan(300);
    // Read wholly, a job goes without its texts (pairs matched, and pairs the count or composition gate stops)...
    const whole = readAhead.filter((j): j is AtomworldReadJob => !('targetCif' in j));
    expect(whole.length).toBeGreaterThan(400);
    expect(whole.filter((j) => !(j.read.target.matcher && j.read.answer.matcher)).length).toBeGreaterThan(20);
    // ...and keeps them where something failed to read: the judging thread meets the error itself.
    const failed = new Set(alone.filter((v) => v.wrong_type === 'CIFParsingError' || v.wrong_type === 'Unknown').map((v) => v.id));
    expect(failed.size).toBeGreaterThan(1);
    for (const j of readAhead) if (failed.has(j.id)) expect('targetCif' in j, j.id).toBe(true);
    readAhead.map(judgeAtomworldJob).forEach((v, k) => expect(v, v.id).toEqual(alone[k]));
    // What a judging thread gets may lack the reduced cells, or the answer, or the target: it reads them itself.
    const partly = readAhead.map((j, k) => {
      const read = j.read && structuredClone(j.read);
      if (read?.target && k % 3 === 0) read.target.matcher = null;
      if (read && k % 3 === 1) read.answer = null;
      if (read && k % 3 === 2) read.target = null;
      return { ...jobs[k], read };
    });
    partly.map(judgeAtomworldJob).forEach((v, k) => expect(v, v.id).toEqual(alone[k]));
  });

  it('reproduces the six real ICML records to 1e-6', () => {
    const rows = readJsonl('real_samples_icml_fullprec.jsonl');
    expect(rows).toHaveLength(6);
    for (const r of rows) {
      const got = evaluateAtomworldAnswer(r.after_cif, `Here is the result.\n<cif>\n${r.model_generated_cif}\n</cif>`);
      const e = r.evaluator;
      expect(got.correct, r.id).toBe(e.correct);
      expect(got.wrongType, r.id).toBe(e.wrong_type);
      if (e.rmsd == null) {
        expect(got.rmsd).toBeNull();
      } else {
        expect(Math.abs(got.rmsd! - e.rmsd), r.id).toBeLessThanOrEqual(1e-6);
        expect(Math.abs(got.maxDist! - e.max_dist), r.id).toBeLessThanOrEqual(1e-6);
      }
    }
  });
});

const P1_HEADER = `data_test
_cell_length_a 4.0
_cell_length_b 4.0
_cell_length_c 4.0
_cell_angle_alpha 90
_cell_angle_beta 90
_cell_angle_gamma 90
_symmetry_space_group_name_H-M 'P 1'
loop_
_symmetry_equiv_pos_as_xyz
'x, y, z'
`;
const cifWith = (
  rows: string[],
  columns = ['_atom_site_type_symbol', '_atom_site_label', '_atom_site_fract_x', '_atom_site_fract_y', '_atom_site_fract_z'],
) => `${P1_HEADER}loop_\n${columns.join('\n')}\n${rows.join('\n')}\n`;
const TARGET = cifWith(['Na Na1 0 0 0', 'Cl Cl1 0.5 0.5 0.5']);

describe('AtomWorld evaluation rules (AtomWorldBench src/evaluation/evaluator.py)', () => {
  it('takes the text between the last <cif> and the last </cif>', () => {
    expect(extractLastCif('a <cif>one</cif> b <cif> two </cif> c')).toBe('two');
    expect(extractLastCif('no tags')).toBeNull();
    expect(extractLastCif('<cif>unterminated')).toBeNull();
    expect(extractLastCif('</cif> before <cif>')).toBe('');
  });

  it('classifies each failure in order', () => {
    expect(evaluateAtomworldAnswer(TARGET, 'I cannot do that.').wrongType).toBe('OutputFormatError');
    expect(evaluateAtomworldAnswer(TARGET, '<cif>```cif\nnot a cif\n```</cif>').wrongType).toBe('CIFParsingError');
    // Cartesian-only sites do not parse in pymatgen 2022.11.
    const cart = cifWith(
      ['Na Na1 0 0 0', 'Cl Cl1 2 2 2'],
      ['_atom_site_type_symbol', '_atom_site_label', '_atom_site_Cartn_x', '_atom_site_Cartn_y', '_atom_site_Cartn_z'],
    );
    expect(evaluateAtomworldAnswer(TARGET, `<cif>${cart}</cif>`).wrongType).toBe('CIFParsingError');
    // Two atoms at the same place make the whole parse fail.
    expect(evaluateAtomworldAnswer(TARGET, `<cif>${cifWith(['Na Na1 0 0 0', 'Na Na2 0 0 0', 'Cl Cl1 0.5 0.5 0.5'])}</cif>`).wrongType).toBe(
      'CIFParsingError',
    );
    expect(evaluateAtomworldAnswer(TARGET, `<cif>${cifWith(['Na Na1 0 0 0', 'Cl Cl1 0.00001 0 0'])}</cif>`).wrongType).toBe(
      'CIFParsingError',
    );
    expect(
      evaluateAtomworldAnswer(TARGET, `<cif>${cifWith(['Na Na1 0 0 0', 'Cl Cl1 0.5 0.5 0.5', 'Cl Cl2 0.5 0 0'])}</cif>`).wrongType,
    ).toBe('AtomCountMismatch');
    expect(evaluateAtomworldAnswer(TARGET, `<cif>${cifWith(['Na Na1 0 0 0', 'K K1 0.5 0.5 0.5'])}</cif>`).wrongType).toBe(
      'AtomCountMismatch',
    );
    // Same composition, Cl put 0.08 Å from Na: in a 4 Å cubic cell, any lattice map leaves the Cl–Na
    // vector at least |(2,2,2)| - 0.08 = 3.38 Å from the target's, so after the mean shift each atom
    // is ≥ 1.69 Å off, i.e. ≥ 0.533 in units of (V/N)^(1/3) = 3.17 Å > stol = 0.5.
    expect(evaluateAtomworldAnswer(TARGET, `<cif>${cifWith(['Na Na1 0 0 0', 'Cl Cl1 0.02 0 0'])}</cif>`).wrongType).toBe(
      'StructureMismatch',
    );
    const ok = evaluateAtomworldAnswer(TARGET, `<cif>${cifWith(['Cl Cl1 0.25 0.25 0.25', 'Na Na1 0.75 0.75 0.75'])}</cif>`);
    expect(ok.correct).toBe(true);
    expect(ok.wrongType).toBeNull();
    expect(ok.rmsd!).toBeLessThan(1e-10);
    expect(ok.mapping!.pairs).toHaveLength(2);
  });

  it('skips a block pymatgen cannot build and uses the next one, as get_structures does', () => {
    const bad = cifWith(['Na Na1 0 0 0', 'Na Na2 0 0 0', 'Cl Cl1 0.5 0.5 0.5']).replace('data_test', 'data_bad');
    const good = cifWith(['Cl Cl1 0.25 0.25 0.25', 'Na Na1 0.75 0.75 0.75']);
    const r = evaluateAtomworldAnswer(TARGET, `<cif>${bad}\n${good}</cif>`);
    expect(r.correct).toBe(true);
  });

  it('snaps coordinates within 1e-4 (relative) of 1/3 and 2/3 as pymatgen does, also in P1', () => {
    const s = parseCifStrict(cifWith(['Na Na1 0.33334 0.66666 0.5']));
    expect(s.sites[0].frac).toEqual([1 / 3, 2 / 3, 0.5]);
  });
});
