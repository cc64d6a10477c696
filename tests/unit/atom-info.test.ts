/**
 * The Structure page's atom info agrees with the Symmetry panel (issue 21): the Wyckoff position is multiplicity and
 * letter ("2b") as the panel's table writes it, and fractional coordinates are shown wrapped into [0, 1) by the core's
 * wrapFrac rule, never as 1.0000 or −0.0000.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseStructureFile } from '../../src/core/io/registry.ts';
import { makeSupercell } from '../../src/core/structure/supercell.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { analyzeSymmetry } from '../../src/core/symmetry/analyze.ts';
import { symmetryView } from '../../src/core/tasks/crystallography/lab.ts';
import { initMoyoNode } from '../../src/node/moyo.ts';
import { fracText } from '../../src/ui/format.ts';
import { REPO_ROOT } from '../../scripts/support/paths.ts';

beforeAll(() => initMoyoNode());

const dataset = (name: string): Structure => {
  const r = parseStructureFile(readFileSync(join(REPO_ROOT, 'datasets', name), 'utf8'), name);
  if (!r.ok) throw new Error(r.error);
  return r.structures[0];
};

describe('Wyckoff positions: the summary’s multiplicities are the Symmetry panel’s', () => {
  const cases: [string, () => Structure][] = [
    ['CsCaH3.cif', () => dataset('CsCaH3.cif')],
    ['LaFeO3-Pnma.cif', () => dataset('LaFeO3-Pnma.cif')],
    ['BaTiO3-tetragonal.vasp', () => dataset('BaTiO3-tetragonal.vasp')],
    ['MgH2.vasp', () => dataset('MgH2.vasp')],
    // Over 64 sites: moyo sees the primitive cell and the sites are mapped back (analyze.ts PRIMITIVE_FIRST_SITES).
    ['LaFeO3-Pnma.cif 2×2×1', () => makeSupercell(dataset('LaFeO3-Pnma.cif'), [2, 2, 1])],
  ];
  for (const [name, read] of cases) {
    it(name, () => {
      const s = read();
      const sym = analyzeSymmetry(s, 0.01)!;
      const view = symmetryView(s, 0.01)!;
      expect(sym.multiplicities).toHaveLength(s.sites.length);
      const fromTable = s.sites.map((_, k) => {
        const row = view.rows[view.rowOfSite[k]];
        return `${row.multiplicity}${row.wyckoff}`;
      });
      expect(sym.wyckoffs.map((w, k) => `${sym.multiplicities[k]}${w}`)).toEqual(fromTable);
    });
  }

  it('counts the conventional cell: CsCaH3 (Pm-3m) has 1a, 1b and 3c/3d', () => {
    const sym = analyzeSymmetry(dataset('CsCaH3.cif'), 0.01)!;
    expect(sym.number).toBe(221);
    expect(new Set(sym.multiplicities)).toEqual(new Set([1, 3]));
  });
});

describe('fractional coordinates as shown', () => {
  it('wraps into [0, 1) at the shown digits: no 1.0000, no −0.0000', () => {
    expect([1, 0.99999999, 0.99995, -0, -1e-9, -1e-20, 2].map((x) => fracText(x))).toEqual(Array(7).fill('0.0000'));
    expect(fracText(0.99994)).toBe('0.9999');
    expect(fracText(1.25)).toBe('0.2500');
    expect(fracText(-0.25)).toBe('0.7500');
    expect(fracText(0.999996, 5)).toBe('0.00000');
    expect(fracText(0.999994, 5)).toBe('0.99999');
    expect(fracText(NaN)).toBe('—');
    expect(fracText(null)).toBe('—');
  });
});
