/** Seeded randomness for tests and benchmarks: reproducible damage, cells and noise. */
import type { Vec3 } from '../../src/core/math/mat3.ts';
import type { Structure } from '../../src/core/structure/structure.ts';
import { gaussian, mulberry32 } from '../../src/core/math/random.ts';

export { gaussian, mulberry32 };

/** A copy of `s` with Gaussian noise of σ Å on every Cartesian coordinate (fractional coordinates dropped). */
export function withNoise(s: Structure, sigma: number, seed: number): Structure {
  const gauss = gaussian(mulberry32(seed));
  return { ...s, sites: s.sites.map(({ frac: _frac, ...site }) => ({ ...site, xyz: site.xyz.map((x) => x + sigma * gauss()) as Vec3 })) };
}
