/**
 * A pair matched from its sides (`matcherSide`: each structure checked, hashed and Niggli-reduced on its own, then
 * sent through a structured clone as the AtomWorld batch sends it between threads) gives `matcherFitAndBestMapping`'s
 * answer for the two structures, bit for bit: on random crystals against jittered copies, supercells and other
 * crystals, under every comparator, with and without the primitive reduction and the supercell attempt.
 */
import { describe, expect, it } from 'vitest';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { type Structure, makeSiteFromFrac } from '../../src/core/structure/structure.ts';
import { makeSupercell } from '../../src/core/structure/supercell.ts';
import {
  type MatcherOptions,
  matcherFitAndBestMapping,
  matcherSide,
  matcherSidesFitAndBestMapping,
} from '../../src/core/match/structure-matcher.ts';
import { mulberry32, withNoise } from '../../scripts/support/random.ts';

function crystal(seed: number, sites: number): Structure {
  const rand = mulberry32(seed);
  const lattice = Lattice.fromParameters(4 + rand(), 4.5 + rand(), 5 + rand(), 80 + 15 * rand(), 85 + 15 * rand(), 95 + 15 * rand());
  const elements = ['Na', 'Cl', 'O'];
  return {
    name: `c${seed}`,
    lattice,
    sites: Array.from({ length: sites }, (_, i) =>
      makeSiteFromFrac(
        lattice,
        [rand(), rand(), rand()],
        { [elements[i % 3]]: 1 },
        i % 4 === 0 ? { oxidation: { [elements[i % 3]]: 1 } } : {},
      ),
    ),
  };
}

const OPTIONS: MatcherOptions[] = [
  {},
  { primitiveCell: false, stol: 0.5 },
  { attemptSupercell: true },
  { attemptSupercell: true, primitiveCell: false, comparator: 'element' },
  { comparator: 'orderDisorder', stol: 0.3 },
  { scale: false, ltol: 0.3 },
];

describe('matching from sides', () => {
  it('answers as the two structures do, bit for bit', () => {
    let fits = 0;
    let pairs = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const a = crystal(seed, 2 + (seed % 5));
      const others = [
        withNoise(a, 0.01, seed + 100),
        withNoise(a, 0.08, seed + 200),
        makeSupercell(a, [seed % 2 === 0 ? 2 : 1, 1, seed % 3 === 0 ? 2 : 1]),
        crystal(seed + 50, a.sites.length),
      ];
      for (const b of others) {
        for (const o of OPTIONS) {
          const direct = matcherFitAndBestMapping(a, b, o);
          const sides = structuredClone([matcherSide(a, o, 'a'), matcherSide(b, o, 'b')]);
          expect(matcherSidesFitAndBestMapping(sides[0], sides[1], o), `seed ${seed}, ${JSON.stringify(o)}`).toEqual(direct);
          if (direct.fit) fits++;
          pairs++;
        }
      }
    }
    // Both answers occur, with mappings (whose indices, rms and length scale are compared above).
    expect(fits).toBeGreaterThan(pairs / 4);
    expect(fits).toBeLessThan(pairs);
  });

  it('refuses sides made under another comparator', () => {
    const a = crystal(3, 4);
    expect(() => matcherSidesFitAndBestMapping(matcherSide(a, {}, 'a'), matcherSide(a, { comparator: 'element' }, 'b'))).toThrow(
      /comparator/,
    );
  });

  it('refuses at the side what matching would refuse', () => {
    const a = crystal(4, 3);
    expect(() => matcherSide({ ...a, lattice: null }, {}, 'the answer')).toThrow(/the answer has no lattice/);
  });
});
