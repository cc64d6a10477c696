/**
 * AtomWorld answers whose sites come in another order than pymatgen's (golden/atomworld/site_order.json, made by
 * scripts/make-atomworld-site-order-goldens.py with pymatgen 2022.11.7): shuffled P1 cells and supercells, some
 * jittered or with one site moved.
 * - The strict reading gives pymatgen's sites in pymatgen's order: species strings equal, fractional coordinates
 *   within 1e-12.
 * - The verdict equals pymatgen's, and rmsd and max_dist agree within 1e-12 Å. The matcher tries translations and
 *   breaks ties in site order: read in the file's order, an exact shuffled copy was matched through another image
 *   (rmsd 3e-16 where pymatgen, whose coordinates are rounded to 8 digits by CifWriter, reports 1.3e-8).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateAtomworldAnswer } from '../../src/core/tasks/atomworld/evaluate.ts';
import { parseCifStrict } from '../../src/core/tasks/atomworld/strict-cif.ts';
import { speciesString } from '../../src/core/structure/composition.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

interface SiteOrderCase {
  id: string;
  kind: string;
  /** Key of `targets`: the cell the answer shuffles, as CifWriter writes it. */
  target: string;
  answer_cif: string;
  answer_read: { species: string[]; frac: number[][] };
  expected: { correct: boolean; wrong_type: string | null; rmsd: number | null; max_dist: number | null };
}

const golden = JSON.parse(readFileSync(join(REFERENCE, 'golden', 'atomworld', 'site_order.json'), 'utf8')) as {
  targets: Record<string, string>;
  cases: SiteOrderCase[];
};
const cases = golden.cases;
const TOLERANCE = 1e-12;

describe('AtomWorld answers in another site order (pymatgen 2022.11)', () => {
  it('carries the golden cases, shuffled and with interleaved species', () => {
    expect(cases.length).toBe(160);
    // Interleaved: some answer file lists a later-sorted species before an earlier one.
    const interleaved = cases.filter((c) => {
      const inFile = [...c.answer_cif.matchAll(/^\s+(\S+)\s+\S+\s+1\s+[-\d.]+\s+[-\d.]+\s+[-\d.]+\s+1$/gm)].map((m) => m[1]);
      return inFile.join(' ') !== [...c.answer_read.species].map((s) => s.replace(/[+-]$|\d+[+-]$/, '')).join(' ');
    });
    expect(interleaved.length).toBeGreaterThan(120);
  });

  it("reads each answer in pymatgen's site order", () => {
    const failures: string[] = [];
    for (const c of cases) {
      const s = parseCifStrict(c.answer_cif);
      const species = s.sites.map(speciesString);
      if (species.join(' ') !== c.answer_read.species.join(' ')) {
        failures.push(`${c.id}: species ${species.slice(0, 6).join(' ')}… against ${c.answer_read.species.slice(0, 6).join(' ')}…`);
        continue;
      }
      const worst = Math.max(...s.sites.flatMap((site, i) => site.frac!.map((x, k) => Math.abs(x - c.answer_read.frac[i][k]))));
      if (!(worst <= TOLERANCE)) failures.push(`${c.id}: fractional coordinates differ by ${worst}`);
    }
    expect(failures).toEqual([]);
  });

  it('judges each answer as pymatgen does, rmsd and max_dist within 1e-12 Å', () => {
    const failures: string[] = [];
    const close = (got: number | null, want: number | null) =>
      want === null ? got === null : got !== null && Math.abs(got - want) <= TOLERANCE;
    for (const c of cases) {
      const got = evaluateAtomworldAnswer(golden.targets[c.target], `<cif>\n${c.answer_cif}\n</cif>`);
      const e = c.expected;
      if (got.correct !== e.correct || got.wrongType !== e.wrong_type || !close(got.rmsd, e.rmsd) || !close(got.maxDist, e.max_dist))
        failures.push(`${c.id} (${c.kind}): expected ${JSON.stringify(e)}, got ${got.correct} ${got.wrongType} ${got.rmsd} ${got.maxDist}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
