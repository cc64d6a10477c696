import { describe, expect, it } from 'vitest';
import {
  fDistribution,
  linearTrend,
  logGamma,
  oneWayAnova,
  regularizedBeta,
  standardError,
  studentTTwoSided,
} from '../../src/core/math/statistics.ts';
import { expectRelClose } from '../expect.ts';

// Expected values: SciPy 1.17.1 on CPython 3.11.7 (scipy.special.betainc, scipy.stats.f/t/f_oneway/linregress,
// math.lgamma), printed with repr. Tolerance: 1e-13 relative (the target accuracy is ~1e-14).
const REL = 1e-13;

describe('statistics', () => {
  it('logGamma matches math.lgamma', () => {
    expectRelClose(logGamma(0.5), 0.5723649429247004, REL);
    expectRelClose(logGamma(3.7), 1.4280723266653883, REL);
    expectRelClose(logGamma(40.2), 107.36753118525645, REL);
  });

  it('regularized incomplete beta matches scipy.special.betainc', () => {
    const cases: [number, number, number, number][] = [
      [2.5, 12, 0.3, 0.8935823627475179],
      [0.5, 0.5, 0.9, 0.7951672353008665],
      [12, 2.5, 0.999, 0.9999945383589527],
      [30, 40, 0.45, 0.6447480085585666],
      [1, 1, 0.25, 0.25],
    ];
    for (const [a, b, x, expected] of cases) expectRelClose(regularizedBeta(a, b, x).lower, expected, REL);
  });

  it('F distribution tail and CDF match scipy.stats.f, including a 4e-21 tail', () => {
    const cases: [number, number, number, number, number][] = [
      [3.18, 5, 24, 0.024211739884417025, 0.9757882601155831],
      [37.5, 5, 24, 1.4003520049403513e-10, 0.9999999998599648],
      [0.5, 2, 7, 0.6266545330387997, 0.37334546696120025],
      [100, 3, 50, 3.965655749240172e-21, 1.0],
    ];
    for (const [f, d1, d2, sf, cdf] of cases) {
      const r = fDistribution(f, d1, d2);
      expectRelClose(r.sf, sf, 1e-12);
      expectRelClose(r.cdf, cdf, REL);
    }
    expectRelClose(studentTTwoSided(2.3, 10), 0.044254313284287146, REL);
  });

  it('one-way ANOVA with unequal groups matches scipy.stats.f_oneway', () => {
    const r = oneWayAnova([
      [1, 2, 3.5],
      [2, 4, 6, 7],
      [10, 9.5],
    ]);
    expectRelClose(r.F, 11.54965357967667, REL);
    expectRelClose(r.p, 0.00876608757153656, REL);
    expect([r.df_between, r.df_within]).toEqual([2, 6]);
  });

  it('linear trend matches scipy.stats.linregress', () => {
    const r = linearTrend([0, 0, 1, 1, 2, 2, 3], [1, 1.5, 2.4, 2.2, 4, 3.5, 5.1]);
    expectRelClose(r.slope, 1.2884615384615383, REL);
    expectRelClose(r.intercept, 1.157692307692308, REL);
    expectRelClose(r.p, 3.9315651058695256e-5, 1e-11);
    expectRelClose(r.slope_se, 0.0951330429345563, REL);
  });

  it('standard error uses ddof = 1 (analytic: sd of 1..5 is √2.5)', () => {
    expectRelClose(standardError([1, 2, 3, 4, 5]), Math.sqrt(2.5) / Math.sqrt(5), 1e-15);
  });
});
