/** The crystallography goldens (docs/crystallography.md) and the spec's comparison helpers, shared by tests/unit/xtal-*.test.ts. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_FILES, REFERENCE } from '../scripts/support/paths.ts';

export const XTAL_GOLDEN = join(REFERENCE, 'golden', 'crystallography');

/** Every golden structure file name (a missing folder throws: the tests fail, never skip). */
export function xtalGoldenNames(): string[] {
  const names = readdirSync(join(XTAL_GOLDEN, 'structures'))
    .filter((n) => n.endsWith('.json'))
    .map((n) => n.slice(0, -'.json'.length))
    .sort();
  if (names.length < 40) throw new Error(`expected about 45 crystallography goldens, found ${names.length}`);
  return names;
}

/** Parsed golden or CLI JSON: its shape is the spec's, checked field by field by the tests. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export const readXtalGolden = (name: string): Json => JSON.parse(readFileSync(join(XTAL_GOLDEN, 'structures', `${name}.json`), 'utf8'));

export function corpusPath(name: string): string {
  const p = join(CORPUS_FILES, name);
  if (!existsSync(p)) throw new Error(`corpus file ${name} is missing`);
  return p;
}

type V3 = [number, number, number];

/** Cartesian distance between fractional positions modulo the lattice (minimum over neighbouring images). */
export function periodicDistance(a: number[], b: number[], matrix: number[][]): number {
  let best = Infinity;
  const d = [0, 1, 2].map((i) => a[i] - b[i] - Math.round(a[i] - b[i]));
  for (let i = -1; i <= 1; i++)
    for (let j = -1; j <= 1; j++)
      for (let k = -1; k <= 1; k++) {
        const f = [d[0] + i, d[1] + j, d[2] + k];
        const c: V3 = [0, 1, 2].map((x) => f[0] * matrix[0][x] + f[1] * matrix[1][x] + f[2] * matrix[2][x]) as V3;
        best = Math.min(best, Math.hypot(...c));
      }
  return best;
}

const speciesKey = (sp: Record<string, number>): string =>
  Object.keys(sp)
    .sort()
    .map((k) => `${k}:${sp[k].toFixed(4)}`)
    .join(',');

/** For every candidate site, the index of the golden site of the same species within `tol` Å (the spec's 2e-3 Å). */
export function matchSitesByPosition(
  ours: { species: Record<string, number>; frac: number[] }[],
  golden: { species: Record<string, number>; frac: number[] }[],
  matrix: number[][],
  tol = 2e-3,
): number[] {
  return ours.map((s, k) => {
    const hits = golden.flatMap((g, j) =>
      speciesKey(g.species) === speciesKey(s.species) && periodicDistance(s.frac, g.frac, matrix) <= tol ? [j] : [],
    );
    if (hits.length !== 1) throw new Error(`site ${k} (${speciesKey(s.species)}) matches ${hits.length} golden sites`);
    return hits[0];
  });
}
