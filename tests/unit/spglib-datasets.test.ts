/**
 * The spglib port against spglib 2.0.2 itself: 1,477 cells (the crystallography corpus as pymatgen types it, and
 * every Hall setting with special positions under a random change of basis, plus noisy strained copies searched
 * at symprec 0.1 with angle tolerance 5° and -1), made by scripts/make-spglib-dataset-goldens.py. Every field is
 * compared: integers and letters exactly, matrices within 1e-8 (lattices in Å, positions and shifts modulo 1).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { spgatGetDataset, spgatStandardizeCell } from '../../src/core/symmetry/spglib/dataset.ts';
import { REFERENCE } from '../../scripts/support/paths.ts';

interface GoldenDataset {
  number: number;
  hall_number: number;
  international: string;
  hall: string;
  choice: string;
  pointgroup: string;
  n_operations: number;
  wyckoffs: string;
  site_symmetry_symbols: string[];
  equivalent_atoms: number[];
  crystallographic_orbits: number[];
  transformation_matrix: number[][];
  origin_shift: number[];
  std_lattice: number[][];
  std_types: number[];
  std_positions: number[][];
  std_rotation_matrix: number[][];
  std_mapping_to_primitive: number[];
  primitive_lattice: number[][];
  mapping_to_primitive: number[];
  prim_std_lattice: number[][] | null;
  prim_std_positions: number[][] | null;
  prim_std_types: number[] | null;
}
interface GoldenCase {
  source: string;
  lattice: number[][];
  positions: number[][];
  types: number[];
  symprec: number;
  angle_tolerance: number;
  dataset: GoldenDataset | null;
}

const golden = JSON.parse(gunzipSync(readFileSync(join(REFERENCE, 'golden/spglib/datasets.json.gz'))).toString('utf8')) as {
  cases: GoldenCase[];
};
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const TOL = 1e-8;
const transpose = (m: number[][]) => [0, 1, 2].map((i) => [m[0][i], m[1][i], m[2][i]]);
const close = (a: number[], b: number[], modulo1 = false) =>
  a.length === b.length &&
  a.every((x, i) => {
    const d = x - b[i];
    return Math.abs(modulo1 ? d - Math.round(d) : d) < TOL;
  });
const closeRows = (a: number[][], b: number[][], modulo1 = false) => a.length === b.length && a.every((r, i) => close(r, b[i], modulo1));

function differences(c: GoldenCase): string[] {
  const g = c.dataset;
  const ours = spgatGetDataset(transpose(c.lattice), c.positions, c.types, c.types.length, c.symprec, c.angle_tolerance);
  if (!g || !ours) return g === null && ours === null ? [] : [`dataset ${ours ? 'found' : 'missing'} (spglib: ${g ? 'found' : 'none'})`];
  const out: string[] = [];
  const same = (field: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${field}: ${JSON.stringify(a)} vs spglib ${JSON.stringify(b)}`);
  };
  same('number', ours.spacegroup_number, g.number);
  same('hall_number', ours.hall_number, g.hall_number);
  same('international', ours.international_symbol, g.international);
  same('hall', ours.hall_symbol, g.hall);
  same('choice', ours.choice, g.choice);
  same('pointgroup', ours.pointgroup_symbol, g.pointgroup);
  same('n_operations', ours.n_operations, g.n_operations);
  same('wyckoffs', ours.wyckoffs.map((w) => LETTERS[w]).join(''), g.wyckoffs);
  same('site_symmetry_symbols', ours.site_symmetry_symbols, g.site_symmetry_symbols);
  same('equivalent_atoms', ours.equivalent_atoms, g.equivalent_atoms);
  same('crystallographic_orbits', ours.crystallographic_orbits, g.crystallographic_orbits);
  same('std_types', ours.std_types, g.std_types);
  same('std_mapping_to_primitive', ours.std_mapping_to_primitive, g.std_mapping_to_primitive);
  same('mapping_to_primitive', ours.mapping_to_primitive, g.mapping_to_primitive);
  if (!closeRows(ours.transformation_matrix, g.transformation_matrix)) out.push('transformation_matrix');
  if (!close(ours.origin_shift, g.origin_shift, true)) out.push(`origin_shift ${ours.origin_shift} vs ${g.origin_shift}`);
  if (!closeRows(transpose(ours.std_lattice), g.std_lattice)) out.push('std_lattice');
  if (!closeRows(ours.std_positions, g.std_positions, true)) out.push('std_positions');
  if (!closeRows(ours.std_rotation_matrix, g.std_rotation_matrix)) out.push('std_rotation_matrix');
  if (!closeRows(transpose(ours.primitive_lattice), g.primitive_lattice)) out.push('primitive_lattice');
  if (g.prim_std_lattice && g.prim_std_positions && g.prim_std_types) {
    const prim = spgatStandardizeCell(transpose(c.lattice), c.positions, c.types, c.types.length, 1, 0, c.symprec, c.angle_tolerance);
    if (!prim) out.push('prim_std: none');
    else {
      if (!closeRows(transpose(prim.lattice), g.prim_std_lattice)) out.push('prim_std_lattice');
      if (!closeRows(prim.position, g.prim_std_positions, true)) out.push('prim_std_positions');
      same('prim_std_types', prim.types, g.prim_std_types);
    }
  }
  return out;
}

describe('spglib port = spglib 2.0.2 on every field', () => {
  it(`golden cells: ${golden.cases.length}`, () => expect(golden.cases.length).toBe(1477));

  for (const group of ['corpus/', 'hall ']) {
    it(`${group === 'corpus/' ? 'corpus' : 'synthetic Hall settings'}: no field differs`, () => {
      const failures: string[] = [];
      const byField = new Map<string, number>();
      for (const c of golden.cases.filter((k) => k.source.startsWith(group))) {
        const diff = differences(c);
        for (const d of diff) {
          const field = d.split(':')[0].split(' ')[0];
          byField.set(field, (byField.get(field) ?? 0) + 1);
        }
        if (diff.length) failures.push(`${c.source} symprec ${c.symprec} angle ${c.angle_tolerance}: ${diff.slice(0, 3).join('; ')}`);
      }
      expect({ failures: failures.length, byField: Object.fromEntries(byField), first: failures.slice(0, 12) }).toEqual({
        failures: 0,
        byField: {},
        first: [],
      });
    });
  }
});
