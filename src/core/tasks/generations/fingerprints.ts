/**
 * The two fingerprints CDVAE's coverage and diversity metrics compare (txie-93/cdvae `scripts/compute_metrics.py`,
 * Crystal.get_fingerprints): the structure's, the mean over its sites of matminer's CrystalNNFingerprint("ops")
 * (src/core/analysis/local-env/fingerprint.ts), and the composition's, matminer's Magpie ElementProperty of the
 * element counts (src/core/analysis/magpie/magpie.ts), unscaled. Upstream counts a crystal whose fingerprint raises
 * as having none; so does this, with the reason. A cell under 0.1 Å³ (CDVAE's `unrealistically_small_lattice`) gets
 * none either: upstream still tries it, and pymatgen's CrystalNN does not finish on such a cell (10⁵–10⁶ neighbours
 * per site within its 7 Å search).
 */
import { crystalNNFingerprint } from '../../analysis/local-env/fingerprint.ts';
import { magpieFeatures } from '../../analysis/magpie/magpie.ts';
import { errorText } from '../../errors.ts';
import { elementCounts } from '../../structure/composition.ts';
import type { Structure } from '../../structure/structure.ts';

export interface CoverageFingerprint {
  /** Mean of the sites' CrystalNNFingerprint("ops") rows (61 numbers); null when it could not be made. */
  struct: number[] | null;
  /** Magpie ElementProperty of the element counts (132 numbers, NaN where matminer has no data); null with struct. */
  comp: number[] | null;
  /** Why there is none: the error's sentence. */
  error: string | null;
}

/** numpy's mean over axis 0 of the site rows: the rows summed in site order, then divided by their number. */
function meanOfRows(rows: readonly ArrayLike<number>[]): number[] {
  const out = new Array<number>(rows[0].length).fill(0);
  for (const r of rows) for (let d = 0; d < out.length; d++) out[d] += r[d];
  return out.map((x) => x / rows.length);
}

/** compute_metrics.py Crystal.get_structure: a smaller volume is `unrealistically_small_lattice`. */
const SMALLEST_VOLUME = 0.1;

export function coverageFingerprint(s: Structure): CoverageFingerprint {
  try {
    const volume = s.lattice?.volume ?? 0;
    if (!(volume >= SMALLEST_VOLUME)) {
      throw new Error(
        `the cell's volume, ${volume.toPrecision(3)} Å³, is below CDVAE's ${SMALLEST_VOLUME} Å³ ` +
          '(unrealistically_small_lattice): no fingerprint',
      );
    }
    const sites = crystalNNFingerprint(s);
    if (sites.length === 0) throw new Error('the structure has no sites');
    return { struct: meanOfRows(sites), comp: magpieFeatures(elementCounts(s)), error: null };
  } catch (e) {
    return { struct: null, comp: null, error: errorText(e) };
  }
}
