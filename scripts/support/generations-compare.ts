/**
 * Compares a `structlab gen csp|eval` JSON document with a golden `expected.json` output, with the
 * tolerances the generations goldens are judged by (their README): exact for integers, booleans,
 * strings, nulls, key order and array order; 1e-12 for fractions; rms 1e-6 except where pymatgen's early
 * exit makes any value below 1e-5 right (then max_dist within 1e-4); rmse 1e-6 + 1e-5·z/m; distances and
 * volumes 1e-6; density relative 1e-9; Wasserstein distances 1e-6. Returns the differences (empty = equal).
 */

const FRACTIONS = new Set([
  'match_rate',
  'valid_fraction',
  'truth_valid_fraction',
  'structural',
  'compositional',
  'overall',
  'uniqueness',
  'novelty',
  'unique_novel',
  'stable',
  'sun',
]);
const LENGTHS = new Set(['min_distance', 'volume']);
const EARLY_EXIT = 1e-5;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function compareGenOutput(actual: unknown, expected: unknown, maxDiffs = 20): string[] {
  const diffs: string[] = [];
  const add = (path: string, what: string) => {
    if (diffs.length < maxDiffs) diffs.push(`${path}: ${what}`);
  };
  // rmse tolerance from the expected per-truth rows: m matched truths, z of them with rms < 1e-5.
  let rmseTol = 1e-6;
  if (isObject(expected) && Array.isArray(expected.per_truth)) {
    const matched = expected.per_truth.filter((r) => isObject(r) && typeof r.rms === 'number') as Record<string, Json>[];
    const z = matched.filter((r) => (r.rms as number) < EARLY_EXIT).length;
    if (matched.length > 0) rmseTol += (1e-5 * z) / matched.length;
  }

  const number = (path: string, key: string, a: number, e: number, row: Record<string, Json> | null) => {
    let ok: boolean;
    if (key === 'rms') ok = e < EARLY_EXIT ? a < EARLY_EXIT : Math.abs(a - e) <= 1e-6;
    else if (key === 'max_dist') {
      const early = row !== null && typeof row.rms === 'number' && row.rms < EARLY_EXIT;
      ok = Math.abs(a - e) <= 1e-6 || (early && Math.abs(a - e) < 1e-4);
    } else if (key === 'rmse') ok = Math.abs(a - e) <= rmseTol;
    else if (FRACTIONS.has(key)) ok = Math.abs(a - e) <= 1e-12;
    else if (LENGTHS.has(key)) ok = Math.abs(a - e) <= 1e-6;
    else if (key === 'density') ok = Math.abs(a - e) <= 1e-9 * Math.abs(e);
    else if (path.includes('.wasserstein.')) ok = Math.abs(a - e) <= 1e-6;
    else ok = a === e; // integers, and echoed inputs (e_above_hull, stability_threshold)
    if (!ok) add(path, `${a} ≠ expected ${e} (Δ ${a - e})`);
  };

  const walk = (path: string, key: string, a: unknown, e: unknown, row: Record<string, Json> | null) => {
    if (typeof e === 'number' && typeof a === 'number') return number(path, key, a, e, row);
    if (Array.isArray(e)) {
      if (!Array.isArray(a)) return add(path, `expected an array, got ${JSON.stringify(a)?.slice(0, 80)}`);
      if (a.length !== e.length) add(path, `length ${a.length} ≠ expected ${e.length}`);
      for (let i = 0; i < Math.min(a.length, e.length); i++) walk(`${path}[${i}]`, key, a[i], e[i], row);
      return;
    }
    if (isObject(e)) {
      if (!isObject(a)) return add(path, `expected an object, got ${JSON.stringify(a)?.slice(0, 80)}`);
      const ka = Object.keys(a),
        ke = Object.keys(e);
      if (ka.join(',') !== ke.join(',')) add(path, `keys [${ka.join(', ')}] ≠ expected [${ke.join(', ')}]`);
      for (const k of ke) if (k in a) walk(`${path}.${k}`, k, a[k], e[k], e);
      return;
    }
    if (a !== e) add(path, `${JSON.stringify(a)} ≠ expected ${JSON.stringify(e)}`);
  };
  walk('$', '', actual, expected, null);
  return diffs;
}
