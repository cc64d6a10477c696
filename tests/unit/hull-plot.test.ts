/**
 * src/core/analysis/hull-plot.ts against hand-computed hulls: a binary Na–Sb (elemental references at −1 and −2 eV/atom)
 * and a ternary K–Sn–Te with three edge compounds at −0.5 eV/atom and a centre compound at −1 eV/atom, whose stable phases,
 * tie lines, projections and placed crystals are worked out below. Tolerance 1e-12 (a few float operations).
 */
import { describe, expect, it } from 'vitest';
import { binaryX, fractionsIn, hullPlotData, ternaryXY } from '../../src/core/analysis/hull-plot.ts';
import { type PDEntry, PhaseDiagram, PhaseDiagramError } from '../../src/core/analysis/phase-diagram.ts';

const TOL = 1e-12;
/** The ternary's letters as its elements. */
const name = (l: string): string => l.replace(/A/g, 'K').replace(/B/g, 'Sn').replace(/C/g, 'Te');
const entry = (c: Record<string, number>, energy: number): PDEntry => ({ composition: new Map(Object.entries(c)), energy });

describe('hull plot geometry', () => {
  it('projects compositions: binary x is the second element, ternary onto the unit triangle', () => {
    expect(binaryX([0.25, 0.75])).toBe(0.75);
    const corner = ternaryXY([0, 0, 1]);
    expect(corner[0]).toBeCloseTo(0.5, 12);
    expect(corner[1]).toBeCloseTo(Math.sqrt(3) / 2, 12);
    const centre = ternaryXY([1 / 3, 1 / 3, 1 / 3]);
    expect(Math.abs(centre[0] - 0.5)).toBeLessThan(TOL);
    expect(Math.abs(centre[1] - Math.sqrt(3) / 6)).toBeLessThan(TOL);
    expect(ternaryXY([1, 0, 0])).toEqual([0, 0]);
    expect(ternaryXY([0, 1, 0])).toEqual([1, 0]);
    expect(
      fractionsIn(
        new Map([
          ['Li', 2],
          ['O', 1],
        ]),
        ['Li', 'O'],
      ),
    ).toEqual([2 / 3, 1 / 3]);
    expect(
      fractionsIn(
        new Map([
          ['Li', 2],
          ['Fe', 1],
        ]),
        ['Li', 'O'],
      ),
    ).toBeNull();
  });

  // A = Na at −1 eV/atom, B = Sb at −2 eV/atom. AB (E −4): f = −2 − (−1.5) = −0.5 at x 0.5. AB3 (E −8.4):
  // −2.1 − (−1.75) = −0.35 at x 0.75, below the AB2–B line (−0.325 there): stable. A3B (E −5): −1.25 − (−1.25) = 0,
  // never on the hull. AB2 (E −6.3): −2.1 − (−5/3) = −0.4333 at x 2/3, below the AB–AB3 line (−0.4 there): stable,
  // so AB–AB3 is no tie line.
  const binary = new PhaseDiagram([
    entry({ Na: 1 }, -1),
    entry({ Sb: 1 }, -2),
    entry({ Na: 1, Sb: 1 }, -4),
    entry({ Na: 1, Sb: 3 }, -8.4),
    entry({ Na: 3, Sb: 1 }, -5),
    entry({ Na: 1, Sb: 2 }, -6.3),
  ]);

  it('binary: stable phases in order of x with their formation energies, tie lines between neighbours', () => {
    const plot = hullPlotData(binary, ['Sb', 'Na'], []);
    expect(plot.elements).toEqual(['Na', 'Sb']);
    expect(plot.stable.map((p) => p.label)).toEqual(['Na', 'NaSb', 'NaSb2', 'NaSb3', 'Sb']);
    const want = [
      [0, 0],
      [0.5, -0.5],
      [2 / 3, -2.1 + 5 / 3],
      [0.75, -0.35],
      [1, 0],
    ];
    plot.stable.forEach((p, i) => {
      expect(Math.abs(p.xy[0] - want[i][0]), p.label).toBeLessThan(TOL);
      expect(Math.abs(p.xy[1] - want[i][1]), p.label).toBeLessThan(TOL);
    });
    expect(plot.tieLines).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
  });

  it('binary: a generated crystal at its composition and formation energy, others left out', () => {
    // A2B3 at E −9: −1.8 − (0.4·−1 + 0.6·−2) = −0.2 at x 0.6.
    const plot = hullPlotData(
      binary,
      ['Na', 'Sb'],
      [
        {
          index: 4,
          label: 'Na2Sb3',
          composition: new Map([
            ['Na', 2],
            ['Sb', 3],
          ]),
          energy: -9,
          eAboveHull: 0.123,
        },
        {
          index: 5,
          label: 'NaGe',
          composition: new Map([
            ['Na', 1],
            ['Ge', 1],
          ]),
          energy: -9,
          eAboveHull: 0,
        },
      ],
    );
    expect(plot.samples).toHaveLength(1);
    const s = plot.samples[0];
    expect(s.index).toBe(4);
    expect(s.eAboveHull).toBe(0.123);
    expect(Math.abs(s.xy[0] - 0.6)).toBeLessThan(TOL);
    expect(Math.abs(s.xy[1] + 0.2)).toBeLessThan(TOL);
  });

  // K, Sn, Te stand for A, B, C below (KSn = AB, KSnTe = ABC).
  // Elements at 0 eV/atom; AB, BC, AC at −0.5 eV/atom (E −1 for two atoms); ABC at −1 eV/atom (E −3), below the plane
  // of the three edge compounds (−0.5 at the centre). The hull is six triangles around ABC: tie lines are the six
  // edge segments and ABC to each corner and edge compound; AB–AC is not one (its midpoint is 1/4 A + 3/4 ABC, −0.75).
  it('ternary: stable phases, the twelve tie lines of the six triangles, positions in the triangle', () => {
    const pd = new PhaseDiagram([
      entry({ K: 1 }, 0),
      entry({ Sn: 1 }, 0),
      entry({ Te: 1 }, 0),
      entry({ K: 1, Sn: 1 }, -1),
      entry({ Sn: 1, Te: 1 }, -1),
      entry({ K: 1, Te: 1 }, -1),
      entry({ K: 1, Sn: 1, Te: 1 }, -3),
      entry({ K: 2, Sn: 1 }, 0.3),
    ]);
    const plot = hullPlotData(
      pd,
      ['Te', 'K', 'Sn'],
      [
        {
          index: 0,
          label: 'A2BC',
          composition: new Map([
            ['K', 2],
            ['Sn', 1],
            ['Te', 1],
          ]),
          energy: -2,
          eAboveHull: 0.25,
        },
      ],
    );
    const labels = plot.stable.map((p) => p.label);
    expect([...labels].sort()).toEqual(['K', 'KSn', 'KSnTe', 'KTe', 'Sn', 'SnTe', 'Te']);
    const at = (l: string) => labels.indexOf(l);
    const edges = plot.tieLines.map(([i, j]) => [labels[i], labels[j]].sort().join('–')).sort();
    expect(edges).toEqual(
      ['A–AB', 'AB–B', 'B–BC', 'BC–C', 'AC–C', 'A–AC', 'A–ABC', 'ABC–B', 'ABC–C', 'AB–ABC', 'ABC–BC', 'ABC–AC']
        .map((e) => e.split('–').map(name).sort().join('–'))
        .sort(),
    );
    const abc = plot.stable[at('KSnTe')];
    expect(Math.abs(abc.formationEnergyPerAtom + 1)).toBeLessThan(TOL);
    expect(Math.abs(abc.xy[0] - 0.5)).toBeLessThan(TOL);
    expect(Math.abs(abc.xy[1] - Math.sqrt(3) / 6)).toBeLessThan(TOL);
    // A2BC: fractions (1/2, 1/4, 1/4) → (1/4 + 1/8, √3/8); formation energy −2/4 = −0.5.
    const s = plot.samples[0];
    expect(Math.abs(s.xy[0] - 0.375)).toBeLessThan(TOL);
    expect(Math.abs(s.xy[1] - Math.sqrt(3) / 8)).toBeLessThan(TOL);
    expect(Math.abs(s.formationEnergyPerAtom + 0.5)).toBeLessThan(TOL);
  });

  it('refuses systems that are not binary or ternary, and missing elemental references, in one sentence', () => {
    expect(() => hullPlotData(binary, ['Na'], [])).toThrow(PhaseDiagramError);
    expect(() => hullPlotData(binary, ['Na', 'Sb', 'K', 'Te'], [])).toThrow(/2 or 3 elements/);
    expect(() => hullPlotData(binary, ['Na', 'Ge'], [])).toThrow(PhaseDiagramError);
  });
});
