/**
 * Median wall time of findNeighbors on random periodic structures at a solid-like density
 * (0.08 atoms/Å³, like most oxides and metals), cutoff 3.5 Å, in a cubic and a strongly skewed
 * triclinic cell, and bond computation on the same atoms. Run: `npx tsx bench/neighbors.bench.ts`.
 */
import { computeBonds } from '../src/core/structure/bonds.ts';
import { Lattice } from '../src/core/structure/lattice.ts';
import { findNeighbors } from '../src/core/structure/neighbors.ts';
import type { Structure } from '../src/core/structure/structure.ts';
import { timeMedian } from './stats.ts';

function randomStructure(n: number, skewed: boolean, seed = 1): Structure {
  const volume = n / 0.08;
  const side = Math.cbrt(volume);
  const lattice = skewed
    ? (() => {
        const l = Lattice.fromParameters(1, 1.2, 0.9, 70, 110, 55);
        const s = Math.cbrt(volume / l.volume);
        return Lattice.fromParameters(s, 1.2 * s, 0.9 * s, 70, 110, 55);
      })()
    : Lattice.cubic(side);
  let state = seed;
  const rand = () => (state = (state * 16807) % 2147483647) / 2147483647;
  const symbols = ['O', 'O', 'Fe', 'Si'];
  const sites = Array.from({ length: n }, (_, k) => {
    const frac: [number, number, number] = [rand(), rand(), rand()];
    return { species: { [symbols[k % 4]]: 1 }, frac, xyz: lattice.fracToCart(frac) };
  });
  return { name: `random-${n}`, lattice, sites };
}

function time(label: string, repeats: number, fn: () => number): void {
  const { ms, result: count } = timeMedian(fn, repeats, 1);
  console.log(`${label.padEnd(44)} median ${ms.toFixed(1).padStart(8)} ms  (${repeats} runs, ${count} pairs)`);
}

const cutoff = 3.5;
for (const n of [10_000, 100_000]) {
  for (const skewed of [false, true]) {
    const s = randomStructure(n, skewed);
    const repeats = n > 50_000 ? 5 : 9;
    time(`findNeighbors ${n} atoms ${skewed ? 'triclinic' : 'cubic'} rc=${cutoff}`, repeats, () => findNeighbors(s, cutoff).i.length);
  }
  const s = randomStructure(n, false);
  time(`computeBonds ${n} atoms cubic`, n > 50_000 ? 5 : 9, () => computeBonds(s).i.length);
}
