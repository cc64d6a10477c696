/** What the Structure page shows of a structure's symmetry, for the io and trajectory workers alike. */
import type { Structure } from '../src/core/structure/structure.ts';
import { analyzeSymmetry, symmetryUnavailable } from '../src/core/symmetry/analyze.ts';
import { initMoyo } from '../src/core/symmetry/moyo.ts';
import { formula, reducedFormula } from '../src/core/structure/composition.ts';
import type { Formulas, SymmetryResult } from './io-api.ts';

export const formulasOf = (s: Structure): Formulas => ({ formula: formula(s), reducedFormula: reducedFormula(s) });

/** The space group at `symprec`, or the note saying why none was searched for (too many sites). */
export async function symmetrySummary(s: Structure, symprec: number, onProgress?: (stage: string) => unknown): Promise<SymmetryResult> {
  await initMoyo();
  const skipped = s.lattice ? symmetryUnavailable(s) : null;
  if (s.lattice && !skipped) await onProgress?.('finding the space group');
  const sym = analyzeSymmetry(s, symprec);
  return {
    spacegroup: sym && {
      number: sym.number,
      symbol: sym.symbol,
      hallSymbol: sym.hallSymbol,
      wyckoffs: sym.wyckoffs,
      multiplicities: sym.multiplicities,
      crystalSystem: sym.crystalSystem,
    },
    note: skipped && `No space group: ${skipped}.`,
  };
}
