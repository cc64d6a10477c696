/**
 * Chemical formulas exactly as pymatgen 2022.11 writes `Composition.formula` and `reduced_formula`.
 *
 * pymatgen details reproduced here on purpose:
 * - Amounts are summed per species (element + oxidation state) in site order; amounts below 1e-8
 *   are dropped. `formula` sums them per element.
 * - Elements are ordered by Pauling electronegativity with Python's stable `sorted`; ties keep the
 *   order of first appearance. Elements without an electronegativity (He, Ne, Ar, Z ≥ 104) have a
 *   NaN key, and Python's timsort with NaN keys gives an order that depends on the input order, so the
 *   timsort steps (run detection + binary insertion, all of CPython's sort for < 64 items) are
 *   replayed here. Symbols that are not elements (`D`, `T`, dummy atoms) are pymatgen
 *   `DummySpecies` with electronegativity 0, so they come first.
 * - `reduced_formula`: if any species amount is not within 1e-8 of an integer, it is `formula`
 *   without spaces. Otherwise amounts are divided by their gcd, ordered by (electronegativity, symbol);
 *   the two most electronegative elements form a bracketed polyanion like `(SO4)3` when there are
 *   at least three elements, their electronegativities differ by less than 1.65 and their amounts
 *   share a factor; finally the peroxide/diatomic special cases (`O` → `O2`, `LiO` → `Li2O2`, …).
 * - Amounts are printed like `formula_double_format`: `1` is omitted in reduced formulas, values
 *   within 1e-8 above an integer print as that integer (Python's `int` truncates, so 2.9999999999 prints
 *   as `3.0`), others as Python's `repr(round(x, 8))`.
 */
import { gcd } from '../math/gcd.ts';
import { elementBySymbol, isElementSymbol } from './elements.ts';
import type { Site, Structure } from './structure.ts';

const AMOUNT_TOLERANCE = 1e-8;

const SPECIAL_FORMULAS: Record<string, string> = {
  LiO: 'Li2O2',
  NaO: 'Na2O2',
  KO: 'K2O2',
  HO: 'H2O2',
  CsO: 'Cs2O2',
  RbO: 'Rb2O2',
  O: 'O2',
  N: 'N2',
  F: 'F2',
  Cl: 'Cl2',
  H: 'H2',
};

/** pymatgen's `get_el_sp(symbol).X`: Pauling value for elements (NaN when none), 0 for dummy species. */
export function pymatgenElectronegativity(symbol: string): number {
  return isElementSymbol(symbol) ? elementBySymbol(symbol)!.X : 0;
}

/**
 * The order of pymatgen's `get_sorted_structure` as indices into `sites`: by the occupancy-weighted mean
 * electronegativity, then by species string, stable otherwise (pymatgen/core/sites.py `Site.__lt__`). It decides
 * formula order for equal electronegativities, and pymatgen's CifParser returns every structure in it.
 */
export function pymatgenSortedOrder(sites: readonly Pick<Site, 'species' | 'oxidation'>[]): number[] {
  const keyed = sites.map((site, index) => {
    let sum = 0,
      total = 0;
    // for…in, not Object.entries: this runs for every site a CIF reader sorts, mostly before V8 optimises it, where
    // the entries' arrays and their iteration were most of what it allocated.
    const species = site.species;
    for (const el in species) {
      const occ = species[el];
      sum += pymatgenElectronegativity(el) * occ;
      total += occ;
    }
    return { index, x: sum / total, str: speciesString(site) };
  });
  return pythonSort(keyed, (a, b) => a.x < b.x || (!(a.x > b.x) && a.str < b.str)).map((k) => k.index);
}

/**
 * CPython's `list.sort` for fewer than 64 items (one run found by `count_run`, then `binarysort`),
 * driven only by `lt`, so comparisons that are always false (NaN) order items exactly as Python does.
 * Larger inputs fall back to a stable merge sort with the same `lt`.
 */
export function pythonSort<T>(items: readonly T[], lt: (a: T, b: T) => boolean): T[] {
  const a = items.slice();
  const n = a.length;
  if (n < 2) return a;
  if (n >= 64) {
    return mergeSort(a, lt);
  }
  // count_run: the longest prefix that is non-descending, or strictly descending (then reversed).
  let run = 2;
  if (lt(a[1], a[0])) {
    while (run < n && lt(a[run], a[run - 1])) run++;
    const head = a.slice(0, run).reverse();
    for (let k = 0; k < run; k++) a[k] = head[k];
  } else {
    while (run < n && !lt(a[run], a[run - 1])) run++;
  }
  // binarysort: insert the rest one by one after the last element not greater than the pivot.
  for (let start = run; start < n; start++) {
    const pivot = a[start];
    let l = 0,
      r = start;
    while (l < r) {
      const p = l + ((r - l) >> 1);
      if (lt(pivot, a[p])) r = p;
      else l = p + 1;
    }
    for (let p = start; p > l; p--) a[p] = a[p - 1];
    a[l] = pivot;
  }
  return a;
}

function mergeSort<T>(a: T[], lt: (a: T, b: T) => boolean): T[] {
  if (a.length < 2) return a;
  const mid = a.length >> 1;
  const left = mergeSort(a.slice(0, mid), lt),
    right = mergeSort(a.slice(mid), lt);
  const out: T[] = [];
  let i = 0,
    j = 0;
  while (i < left.length && j < right.length) out.push(lt(right[j], left[i]) ? right[j++] : left[i++]);
  return out.concat(left.slice(i), right.slice(j));
}

/** Python's `repr(float)`: shortest round-trip digits, exponent form outside 1e-4 ≤ |x| < 1e16. */
export function pythonFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mant, expStr] = Math.abs(x).toExponential().split('e');
  const digits = mant.replace('.', '');
  const exp = Number(expStr);
  const decpt = exp + 1; // position of the decimal point after the first `decpt` digits
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = exp < 0 ? `-${String(-exp).padStart(2, '0')}` : `+${String(exp).padStart(2, '0')}`;
  return `${sign}${m}e${e}`;
}

/** Python's `round(x, 8)` (correctly rounded, ties to even on the exact binary value). */
export function pythonRound8(x: number): number {
  const fixed = x.toFixed(8); // exact decimal rounding, but ties go away from zero
  const exact = x.toFixed(100);
  const dot = exact.indexOf('.');
  const tail = exact.slice(dot + 9);
  if (/^50*$/.test(tail)) {
    // An exact tie: keep the even last digit, as Python does.
    const last = Number(fixed[fixed.length - 1]);
    if (last % 2 === 1) {
      const truncated = exact.slice(0, dot + 9);
      return Number(truncated);
    }
  }
  return Number(fixed);
}

/** pymatgen's `formula_double_format(afloat, ignore_ones)`. */
export function formatAmount(amount: number, ignoreOnes: boolean): string {
  if (ignoreOnes && amount === 1) return '';
  const truncated = Math.trunc(amount);
  if (Math.abs(amount - truncated) < AMOUNT_TOLERANCE) return String(truncated);
  return pythonFloatRepr(pythonRound8(amount));
}

interface Amounts {
  /** Species (element + oxidation state) amounts, in order of first appearance. */
  species: number[];
  /** Element → amount, in order of first appearance. */
  elements: Map<string, number>;
}

function amountsOf(s: Structure): Amounts {
  const speciesAmounts = new Map<string, { element: string; amount: number }>();
  for (const site of s.sites) {
    for (const [el, occ] of Object.entries(site.species)) {
      if (Math.abs(occ) < AMOUNT_TOLERANCE) continue; // a site's Composition drops these
      const ox = site.oxidation?.[el];
      const key = ox === undefined ? el : `${el}${ox}`;
      const entry = speciesAmounts.get(key);
      if (entry) entry.amount += occ;
      else speciesAmounts.set(key, { element: el, amount: occ });
    }
  }
  const species: number[] = [];
  const elements = new Map<string, number>();
  for (const { element, amount } of speciesAmounts.values()) {
    if (Math.abs(amount) < AMOUNT_TOLERANCE) continue;
    species.push(amount);
    elements.set(element, (elements.get(element) ?? 0) + amount);
  }
  return { species, elements };
}

/** `Composition.formula` for element → amount pairs given in order of first appearance. */
function formulaFromAmounts(elements: Map<string, number>): string {
  const syms = pythonSort([...elements.keys()], (a, b) => pymatgenElectronegativity(a) < pymatgenElectronegativity(b));
  return syms.map((sym) => sym + formatAmount(elements.get(sym)!, false)).join(' ');
}

/** Python's comparison of the keys `[X, symbol]`: X first (NaN never less), symbol on equal X. */
function keyLess(a: string, b: string): boolean {
  const xa = pymatgenElectronegativity(a),
    xb = pymatgenElectronegativity(b);
  if (xa === xb) return a < b;
  return xa < xb;
}

/** pymatgen's `reduce_formula(sym_amt)` → [formula, factor]. */
function reduceFormula(symAmt: Map<string, number>): [string, number] {
  let syms = pythonSort([...symAmt.keys()], keyLess);
  syms = syms.filter((x) => Math.abs(symAmt.get(x)!) > AMOUNT_TOLERANCE);
  const values = [...symAmt.values()];
  let factor = 1;
  if (values.every((v) => Number.isInteger(v))) factor = values.reduce((g, v) => gcd(g, v), 0);

  const polyanion: string[] = [];
  if (syms.length >= 3) {
    const last = syms[syms.length - 1],
      prev = syms[syms.length - 2];
    if (pymatgenElectronegativity(last) - pymatgenElectronegativity(prev) < 1.65) {
      const poly = new Map<string, number>([
        [prev, symAmt.get(prev)! / factor],
        [last, symAmt.get(last)! / factor],
      ]);
      const [polyForm, polyFactor] = reduceFormula(poly);
      if (polyFactor !== 1) polyanion.push(`(${polyForm})${polyFactor}`);
    }
  }
  if (polyanion.length) syms = syms.slice(0, syms.length - 2);
  const parts: string[] = [];
  for (const sym of syms) parts.push(sym, formatAmount(symAmt.get(sym)! / factor, true));
  return [parts.join('') + polyanion.join(''), factor];
}

/** Elements in pymatgen's composition order (first appearance) with their counts (occupancies summed). */
export function elementCounts(s: Structure): Map<string, number> {
  const counts = new Map<string, number>();
  for (const site of s.sites) for (const [el, occ] of Object.entries(site.species)) counts.set(el, (counts.get(el) ?? 0) + occ);
  return counts;
}

/** pymatgen `structure.composition.formula`, e.g. `Fe4 O6`, `Na0.36 Ca2.464 …`. */
export function formula(s: Structure): string {
  return formulaFromAmounts(amountsOf(s).elements);
}

/** pymatgen `structure.composition.reduced_formula`, e.g. `Fe2O3`, `Fe2(SO4)3`, `O2`. */
export function reducedFormula(s: Structure): string {
  return reducedFormulaFromAmounts(amountsOf(s));
}

function reducedFormulaFromAmounts({ species, elements }: Amounts): string {
  const allInt = species.every((v) => Math.abs(v - Math.round(v)) < AMOUNT_TOLERANCE);
  if (!allInt) return formulaFromAmounts(elements).replaceAll(' ', '');
  const rounded = new Map<string, number>();
  for (const [el, v] of elements) rounded.set(el, Math.round(v));
  const [f] = reduceFormula(rounded);
  return SPECIAL_FORMULAS[f] ?? f;
}

/** Python's `f"{x:.{digits}f}"`: exact ties round half to even (JS `toFixed` rounds them away from zero). */
export function pythonFixed(x: number, digits: number): string {
  const fixed = x.toFixed(digits);
  const exact = x.toFixed(100);
  const dot = exact.indexOf('.');
  if (/^50*$/.test(exact.slice(dot + 1 + digits))) {
    const truncated = exact.slice(0, dot + 1 + digits);
    if (Number(truncated[truncated.length - 1]) % 2 === 0) return truncated;
  }
  return fixed;
}

/** pymatgen's `Species.__lt__` for species of different elements: electronegativity (none = +inf), then symbol. */
function speciesLess(a: string, b: string): boolean {
  const inf = (x: number) => (Number.isNaN(x) ? Infinity : x);
  const xa = inf(pymatgenElectronegativity(a)),
    xb = inf(pymatgenElectronegativity(b));
  return xa !== xb ? xa < xb : a < b;
}

/** pymatgen's `str(Species)`: `Fe3+`, `Na+`, `O2-`, `P0+`, `Fe2.5+`; the bare symbol without an oxidation state. */
function speciesName(element: string, oxidation: number | undefined): string {
  if (oxidation === undefined) return element;
  return `${element}${formatAmount(Math.abs(oxidation), true)}${oxidation >= 0 ? '+' : '-'}`;
}

/**
 * pymatgen's `Site.species_string` (also its default site label): the species name of an ordered site
 * (one species, occupancy exactly 1), else `Fe3+:0.500, Ni2+:0.500` with species in pymatgen's sort order.
 */
export function speciesString(site: Pick<Site, 'species' | 'oxidation'>): string {
  // An ordered site (almost every one) without the entries array: see pymatgenSortedOrder.
  let only: string | null = null;
  for (const el in site.species) {
    if (only !== null) {
      only = null;
      break;
    }
    only = el;
  }
  if (only !== null && site.species[only] === 1) return speciesName(only, site.oxidation?.[only]);
  const name = (el: string) => speciesName(el, site.oxidation?.[el]);
  return pythonSort(Object.entries(site.species), (a, b) => speciesLess(a[0], b[0]))
    .map(([el, occ]) => `${name(el)}:${pythonFixed(occ, 3)}`)
    .join(', ');
}
