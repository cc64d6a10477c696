/**
 * Compositional validity as the CSP / generation benchmarks compute it: `smact_validity(comp, count,
 * use_pauling_test=True, include_alloys=True)` of txie-93/cdvae and jiaor17/DiffCSP
 * `scripts/eval_utils.py` (MatterGen `mattergen/evaluation/metrics/structure.py` calls the same idea),
 * running on SMACT's `neutral_ratios` and `screening.pauling_test`. Two SMACT data epochs give different
 * answers; both are here (README.md in this folder).
 */
import { gcd } from '../../math/gcd.ts';
import { ENEG_ICSD24_ROWS, ENEG_LEGACY_ROWS, METALS_ROW, OX_ICSD24_ROWS, OX_LEGACY_ROWS } from './smact-data.ts';

/** `legacy`: SMACT 2.3-2.5 tables and semantics (the default); `icsd24`: SMACT 3.0-3.2. */
export type SmactTable = 'legacy' | 'icsd24';
export const SMACT_TABLES: readonly SmactTable[] = ['legacy', 'icsd24'];

export type CompositionReason = 'charge_imbalance' | 'electronegativity' | 'oxidation_combinations_over_limit';

export interface CompositionalValidity {
  valid: boolean;
  reason: CompositionReason | null;
}

interface Table {
  /** Z - 1 → symbol (SMACT's element order, Z = 1 … 103). */
  symbols: string[];
  z: Map<string, number>;
  eneg: (number | null)[];
  ox: number[][];
}

/** SMACT's data_loader rules: one row per element, first token the symbol; `None` is a missing value. */
function readTable(enegRows: string, oxRows: string): Table {
  const symbols: string[] = [];
  const eneg: (number | null)[] = [];
  for (const row of enegRows.split('\n')) {
    const [symbol, value] = row.trim().split(/\s+/);
    symbols.push(symbol);
    eneg.push(value === 'None' ? null : Number(value));
  }
  const z = new Map(symbols.map((s, i) => [s, i + 1]));
  const ox: number[][] = symbols.map(() => []);
  for (const row of oxRows.split('\n')) {
    const [symbol, ...states] = row.trim().split(/\s+/);
    const at = z.get(symbol);
    // Rows past Z = 103 (Rf … Hs in the 2014 table) have no element_data row and are never asked for.
    if (at !== undefined) ox[at - 1] = states.map(Number);
  }
  return { symbols, z, eneg, ox };
}

const tables = new Map<SmactTable, Table>();
const tableOf = (t: SmactTable): Table => {
  let table = tables.get(t);
  if (!table) {
    table = t === 'legacy' ? readTable(ENEG_LEGACY_ROWS, OX_LEGACY_ROWS) : readTable(ENEG_ICSD24_ROWS, OX_ICSD24_ROWS);
    tables.set(t, table);
  }
  return table;
};

const METALS: ReadonlySet<string> = new Set(METALS_ROW.split(' '));

/** Atomic number as SMACT numbers elements (1 … 103), or undefined for anything else. */
export const smactAtomicNumber = (symbol: string): number | undefined => tableOf('legacy').z.get(symbol);

/** DiffCSP's `smact_validity` returns False when the oxidation-state product has more combinations than this. */
const DIFFCSP_COMBINATION_LIMIT = 1e7;

/**
 * SMACT's `eneg_states_test` over the pairs (i, j), i < j, in atomic-number order. `legacy` (SMACT ≤ 2.5.5):
 * an opposite-sign pair with a missing χ raises TypeError inside `pauling_test`, which `smact_validity` catches
 * as "no data, assume it is okay" — the choice passes there, whatever later pairs say; a missing χ in any other
 * pair fails it. `icsd24` (SMACT ≥ 2.6): a missing χ anywhere fails the choice.
 */
function paulingPasses(ox: readonly number[], eneg: readonly (number | null)[], table: SmactTable): boolean {
  const m = ox.length;
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      const o1 = ox[i],
        o2 = ox[j],
        e1 = eneg[i],
        e2 = eneg[j];
      const missing = e1 === null || e2 === null;
      if (table === 'icsd24' && missing) return false;
      const opposite = (o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0);
      if (opposite) {
        if (missing) return true; // legacy: the TypeError
        if (o1 > 0 ? e1! >= e2! : e1! <= e2!) return false;
      } else if (missing) return false;
    }
  }
  return true;
}

/**
 * `smact_validity` for element → count (integer counts of an ordered structure). `diffcspCut`: DiffCSP's
 * version, which refuses more than 10⁷ oxidation-state combinations. The search is depth first with charge
 * bounds; the answer is an existence test, so it equals upstream's full `itertools.product`.
 */
export function smactValidity(counts: Readonly<Record<string, number>>, table: SmactTable, diffcspCut: boolean): CompositionalValidity {
  const t = tableOf(table);
  const entries = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([symbol, n]) => {
      const z = t.z.get(symbol);
      if (z === undefined) throw new Error(`SMACT has no data for the element "${symbol}"`);
      return { symbol, z, n: Math.round(n) };
    })
    .sort((a, b) => a.z - b.z);
  if (entries.length <= 1) return { valid: true, reason: null };
  if (entries.every((e) => METALS.has(e.symbol))) return { valid: true, reason: null };
  const g = entries.reduce((acc, e) => gcd(acc, e.n), 0);
  const n = entries.map((e) => e.n / g);
  const ox = entries.map((e) => t.ox[e.z - 1]);
  const eneg = entries.map((e) => t.eneg[e.z - 1]);
  if (diffcspCut && ox.reduce((p, o) => p * o.length, 1) > DIFFCSP_COMBINATION_LIMIT) {
    return { valid: false, reason: 'oxidation_combinations_over_limit' };
  }
  const m = entries.length;
  if (ox.some((o) => o.length === 0)) return { valid: false, reason: 'charge_imbalance' };
  // Bounds of Σ_{j ≥ i} n_j o_j, to cut branches that can no longer reach zero charge.
  const lo = new Array<number>(m + 1).fill(0),
    hi = new Array<number>(m + 1).fill(0);
  for (let i = m - 1; i >= 0; i--) {
    lo[i] = lo[i + 1] + n[i] * Math.min(...ox[i]);
    hi[i] = hi[i + 1] + n[i] * Math.max(...ox[i]);
  }
  // Without a missing χ every failing pair is final, so a failing pair among the chosen states cuts the branch.
  const canPrune = table === 'icsd24' || eneg.every((e) => e !== null);
  const choice = new Array<number>(m).fill(0);
  let neutral = false;
  const search = (i: number, charge: number): boolean => {
    if (i === m) {
      if (charge !== 0) return false;
      neutral = true;
      return paulingPasses(choice, eneg, table);
    }
    for (const o of ox[i]) {
      const c = charge + n[i] * o;
      if (c + lo[i + 1] > 0 || c + hi[i + 1] < 0) continue;
      choice[i] = o;
      if (canPrune && neutral && !pairsPass(i)) continue;
      if (search(i + 1, c)) return true;
    }
    return false;
  };
  // Pairs (j, i), j < i, of the states chosen so far (only used where no χ is missing).
  const pairsPass = (i: number): boolean => {
    const o2 = choice[i],
      e2 = eneg[i]!;
    for (let j = 0; j < i; j++) {
      const o1 = choice[j],
        e1 = eneg[j]!;
      if ((o1 > 0 && o2 < 0 && e1 >= e2) || (o1 < 0 && o2 > 0 && e1 <= e2)) return false;
      if (table === 'icsd24' && (eneg[j] === null || eneg[i] === null)) return false;
    }
    return true;
  };
  if (search(0, 0)) return { valid: true, reason: null };
  return { valid: false, reason: neutral ? 'electronegativity' : 'charge_imbalance' };
}
