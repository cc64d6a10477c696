/**
 * Magpie composition features (Ward, Agrawal, Choudhary, Wolverton, npj Comput. Mater. 2, 16028 (2016)) as matminer
 * v0.7.3 computes them: `ElementProperty.from_preset('magpie').featurize(composition)`
 * (hackingmaterials/matminer matminer/featurizers/composition.py ElementProperty, matminer/utils/data.py MagpieData,
 * matminer/featurizers/utils/stats.py PropertyStats). 22 element properties × 6 statistics = 132 numbers, the order of
 * matminer's feature_labels. CDVAE's composition fingerprint (txie-93/cdvae scripts/compute_metrics.py) is this vector
 * of `Composition(Counter(atom_types))`. README.md here.
 *
 * The arithmetic is numpy's, so the numbers agree to the last bit or nearly: the weights are pymatgen's element amounts
 * (`comp.element_composition.items()`, not fractions) in composition order; `mean` is `np.average`, i.e. the
 * pairwise sum of value × amount over the pairwise sum of the amounts; `minimum`/`maximum`/`range` are NaN when any
 * value is NaN (a property missing from the tables), as PropertyStats tests it.
 */
import { pairwiseSum } from '../../math/statistics.ts';
import tables from './magpie.json' with { type: 'json' };

const STATS = ['minimum', 'maximum', 'range', 'mean', 'avg_dev', 'mode'] as const;

const ELEMENTS = tables.elements as Record<string, readonly (number | null)[]>;

/** pymatgen's Composition.amount_tolerance: smaller amounts are dropped. */
const AMOUNT_TOLERANCE = 1e-8;

/** matminer's feature_labels(), e.g. `MagpieData minimum Number`, in the order magpieFeatures returns them. */
export function magpieFeatureLabels(): string[] {
  return tables.properties.flatMap((p) => STATS.map((s) => `MagpieData ${s} ${p}`));
}

/**
 * The 132 Magpie features of a composition: element symbol → amount (atoms per cell: CDVAE counts the sites of each
 * element), in pymatgen's composition order (first appearance in the sites). NaN where matminer gives NaN (v0.7.3 has
 * no imputation). Throws an Error for an unknown element, a negative or non-finite amount, or no atoms.
 */
export function magpieFeatures(composition: ReadonlyMap<string, number>): number[] {
  const symbols: string[] = [],
    amounts: number[] = [];
  for (const [symbol, amount] of composition) {
    if (!Number.isFinite(amount) || amount < -AMOUNT_TOLERANCE) {
      throw new Error(`Magpie features: the amount of ${symbol} is ${amount}; amounts must be finite and not negative.`);
    }
    if (Math.abs(amount) < AMOUNT_TOLERANCE) continue;
    if (!Object.hasOwn(ELEMENTS, symbol)) {
      throw new Error(`Magpie features: unknown element "${symbol}" (matminer's Magpie tables cover H to Og).`);
    }
    symbols.push(symbol);
    // get_el_amt_dict sums into a defaultdict(float): 0.0 + amount.
    amounts.push(0 + amount);
  }
  if (symbols.length === 0) throw new Error('Magpie features: the composition has no atoms.');

  const totalAmount = pairwiseSum(amounts);
  const maxAmount = amounts.reduce((m, a) => (a > m ? a : m), -Infinity);
  // PropertyStats.mode: the entries whose weight np.isclose (rtol 1e-5, atol 1e-8) the largest weight.
  const modal = amounts.map((a) => Math.abs(a - maxAmount) <= 1e-8 + 1e-5 * Math.abs(maxAmount));
  const features: number[] = [];
  tables.properties.forEach((_, p) => {
    const values = symbols.map((s) => ELEMENTS[s][p] ?? NaN);
    const anyNaN = values.some((v) => Number.isNaN(v));
    // Python's min()/max(): the first value kept unless a later one is strictly smaller / larger.
    let min = values[0],
      max = values[0];
    for (const v of values) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    const mean = pairwiseSum(values.map((v, i) => v * amounts[i])) / totalAmount;
    const avgDev = pairwiseSum(values.map((v, i) => Math.abs(v - mean) * amounts[i])) / totalAmount;
    // np.min over the modal entries: NaN if any of them is NaN.
    let mode = Infinity;
    values.forEach((v, i) => {
      if (modal[i]) mode = Number.isNaN(v) || Number.isNaN(mode) ? NaN : Math.min(mode, v);
    });
    features.push(anyNaN ? NaN : min, anyNaN ? NaN : max, anyNaN ? NaN : max - min, mean, avgDev, mode);
  });
  return features;
}
