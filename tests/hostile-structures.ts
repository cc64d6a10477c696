/** Structures for the tests of the resource policy: valid but costly by construction. */
import { p1Cif } from './cif.ts';

/**
 * An n×n×n FCC cell of Na (P1) with a fixed pattern of x shifts of 0.3 Å, `extra` Å more on some sites. Two of
 * them with different `extra` match, but only just: get_rms_dist scans every one of the 48 cubic lattice
 * mappings × every translation (n = 4: 256 sites, seconds of work on any machine).
 */
export function shiftedFccCif(n: number, extra: number): string {
  const a = 4.08 * n;
  const rows: string[] = [];
  let k = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      for (let l = 0; l < n; l++) {
        for (const [x, y, z] of [
          [0, 0, 0],
          [0.5, 0.5, 0],
          [0.5, 0, 0.5],
          [0, 0.5, 0.5],
        ]) {
          k++;
          const dx = (0.3 * (((k * 7) % 3) - 1) + extra * (((k * 5) % 3) - 1)) / a;
          rows.push(`Na${k} Na ${((i + x) / n + dx).toFixed(6)} ${((j + y) / n).toFixed(6)} ${((l + z) / n).toFixed(6)}`);
        }
      }
  return p1Cif('fcc', a, rows);
}

/** A pymatgen Structure.as_dict() of one site, with `site` merged into that site. */
export const pymatgenJson = (site: Record<string, unknown>) =>
  JSON.stringify({
    '@module': 'pymatgen.core.structure',
    '@class': 'Structure',
    lattice: {
      matrix: [
        [3, 0, 0],
        [0, 3, 0],
        [0, 0, 3],
      ],
    },
    sites: [{ species: [{ element: 'Fe', occu: 1 }], abc: [0, 0, 0], ...site }],
  });
