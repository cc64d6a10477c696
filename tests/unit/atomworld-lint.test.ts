/**
 * Prompt lint on the golden AtomWorld cases. Expected flags are recomputed here independently:
 * prompt text for delete_below, brute-force periodic distances (pymatgen-frame lattice, 5³ images)
 * for the raw-segment and periodic-neighbour flags, and hand-made mutations for mismatches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Vec3, norm, sub, vecMat } from '../../src/core/math/mat3.ts';
import { parseCif } from '../../src/core/io/cif/reader.ts';
import { majorSpecies } from '../../src/core/structure/structure.ts';
import { type LintCase, lintAtomworldCase } from '../../src/core/tasks/atomworld/lint.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

type Row = LintCase & { id: string };
const read = (file: string): Row[] =>
  readFileSync(join(REFERENCE, 'golden', 'atomworld', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
const generated = read('generated_cases.jsonl');
const real4dp = read('real_samples_simple4dp.jsonl');
const icml = read('real_samples_icml_fullprec.jsonl');
const all = [...generated, ...real4dp, ...icml];

const codes = (c: LintCase) => lintAtomworldCase(c).map((i) => i.code);

/** Wrapped fractional positions and the pymatgen-frame matrix (distances do not depend on the frame). */
function geometry(cif: string) {
  const s = parseCif(cif).structures[0];
  const m = s.lattice!.matrix;
  const frac = s.sites.map((x) => x.frac!.map((v) => v - Math.floor(v)) as Vec3);
  return { m, frac, symbols: s.sites.map(majorSpecies) };
}
const cart = (f: Vec3, m: ReturnType<typeof geometry>['m']) => vecMat(f, m);
function shortest(fa: Vec3, fb: Vec3, m: ReturnType<typeof geometry>['m']): number {
  let best = Infinity;
  for (let i = -2; i <= 2; i++)
    for (let j = -2; j <= 2; j++)
      for (let k = -2; k <= 2; k++) {
        best = Math.min(best, norm(sub(cart([fb[0] + i, fb[1] + j, fb[2] + k], m), cart(fa, m))));
      }
  return best;
}

describe('AtomWorld prompt lint', () => {
  it('flags exactly the delete_below prompts that say "Including itself" (8 generated, 2 real)', () => {
    for (const rows of [generated, real4dp]) {
      const cases = rows.filter((r) => r.action === 'delete_below');
      const flagged = cases.filter((c) => codes(c).includes('delete_below_including_itself')).map((c) => c.id);
      expect(flagged).toEqual(cases.filter((c) => c.prompt.includes('Including itself')).map((c) => c.id));
    }
    expect(generated.filter((c) => codes(c).includes('delete_below_including_itself'))).toHaveLength(8);
    expect(real4dp.filter((c) => codes(c).includes('delete_below_including_itself'))).toHaveLength(2);
  });

  it('finds no prompt/parameter mismatch and no atom-count contradiction in any golden case (186)', () => {
    expect(all).toHaveLength(186);
    const bad = all.flatMap((c) =>
      lintAtomworldCase(c)
        .filter((i) => i.code === 'prompt_params_mismatch' || i.code === 'target_atom_count')
        .map((i) => `${c.id}: ${i.message}`),
    );
    expect(bad).toEqual([]);
  });

  it('flags raw in-cell segments exactly where the shortest periodic distance is shorter (brute force)', () => {
    let flaggedCount = 0;
    for (const c of all.filter((r) => r.action === 'insert_between' || r.action === 'move_towards')) {
      const g = geometry(c.before_cif!);
      const i = c.params.index1 as number,
        j = c.params.index2 as number;
      const raw = norm(sub(cart(g.frac[j], g.m), cart(g.frac[i], g.m)));
      const expected = raw - shortest(g.frac[i], g.frac[j], g.m) > 1e-6;
      const flagged = codes(c).includes(`${c.action}_raw_segment`);
      expect(flagged, c.id).toBe(expected);
      if (flagged) flaggedCount++;
    }
    // The two ICML insert_between failures (Claude used the nearest image) are among them.
    expect(icml.filter((c) => c.action === 'insert_between').every((c) => codes(c).includes('insert_between_raw_segment'))).toBe(true);
    expect(flaggedCount).toBe(6 + 5 + 2 + 2 + 2);
  });

  it('flags rotate_around cases with a neighbour selected only through a periodic image (brute force)', () => {
    for (const c of all.filter((r) => r.action === 'rotate_around')) {
      const g = geometry(c.before_cif!);
      const centre = c.params.index as number,
        radius = c.params.radius as number;
      const expected = g.frac.some(
        (f, k) =>
          k !== centre && shortest(g.frac[centre], f, g.m) < radius && !(norm(sub(cart(f, g.m), cart(g.frac[centre], g.m))) < radius),
      );
      expect(codes(c).includes('rotate_periodic_neighbour'), c.id).toBe(expected);
    }
  });

  it('flags the rounded insert_between distance of every generated case', () => {
    const cases = generated.filter((r) => r.action === 'insert_between');
    expect(cases.every((c) => codes(c).includes('insert_between_rounded_distance'))).toBe(true);
  });

  it('catches mutated prompts, no-op actions and the "of the way" wording', () => {
    const change = generated.find((r) => r.action === 'change')!;
    expect(
      codes({
        ...change,
        prompt:
          change.prompt.replace(/index \d+/, 'index 0') === change.prompt
            ? change.prompt.replace(/index \d+/, 'index 1')
            : change.prompt.replace(/index \d+/, 'index 0'),
      }),
    ).toContain('prompt_params_mismatch');
    const symbols = geometry(change.before_cif!).symbols;
    const idx = change.params.index as number;
    expect(
      codes({
        ...change,
        params: { ...change.params, symbol: symbols[idx] },
        prompt: change.prompt.replace(/into \w+/, `into ${symbols[idx]}`),
        after_cif: undefined,
      }),
    ).toContain('change_same_element');

    const swap = generated.find((r) => r.action === 'swap')!;
    const sg = geometry(swap.before_cif!);
    const first = sg.symbols.findIndex((s, k) => sg.symbols.indexOf(s) !== k);
    const pair = sg.symbols.indexOf(sg.symbols[first]);
    expect(pair).toBeGreaterThanOrEqual(0);
    expect(
      codes({
        ...swap,
        params: { index1: pair, index2: first },
        prompt: `Swap the spatial positions of atoms at indices ${pair} and ${first} in the cif file.`,
        after_cif: undefined,
      }),
    ).toContain('swap_same_element');

    const move = generated.find((r) => r.action === 'move')!;
    const d = move.params.d_pos_cart as number[];
    expect(codes({ ...move, params: { ...move.params, d_pos_cart: [d[0] + 0.01, d[1], d[2]] } })).toContain('prompt_params_mismatch');

    const ins = generated.find((r) => r.action === 'insert_between')!;
    expect(codes({ ...ins, prompt: ins.prompt.replace(/that are ([\d.]+) Å from/, 'that are $1 of the way from') })).toContain(
      'insert_between_fraction_wording',
    );
    expect(codes({ ...ins, prompt: ins.prompt.replace(/that are [\d.]+ Å/, 'that are 9.99 Å') })).toContain('prompt_params_mismatch');

    const rot = generated.find((r) => r.action === 'rotate_around')!;
    expect(
      codes({
        ...rot,
        params: { ...rot.params, radius: 0.01 },
        prompt: rot.prompt.replace(/within [\d.]+ angstrom/, 'within 0.01 angstrom'),
        after_cif: undefined,
      }),
    ).toContain('rotate_no_neighbour');
  });
});
