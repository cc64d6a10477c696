/**
 * CIF → Structure. One Structure per data block with atom sites; symmetry expanded with the
 * declared operations and atoms on the same position merged into one mixed-occupancy site
 * (pymatgen's CifParser semantics, site tolerance 1e-4 in fractional units).
 */
import { type Vec3, vec3, wrapFrac } from '../../math/mat3.ts';
import { PeriodicGrid } from '../../math/periodic-grid.ts';
import { Lattice } from '../../structure/lattice.ts';
import type { Site, SpeciesMap, Structure } from '../../structure/structure.ts';
import {
  lookupHM,
  lookupHall,
  operationsFromHall,
  operationsFromHallNumber,
  operationsFromITNumber,
  hallEntries,
} from '../../symmetry/spacegroups.ts';
import { type SymOp, applyOp, closeGroup, identityOp, isGroup, normalizeOp, opKey, parseSymop } from '../../symmetry/symop.ts';
import { ParseError, type ParseOutput } from '../types.ts';
import { LIMITS, LimitError, limitSentence, printable, quoted, groupedNumber } from '../../limits.ts';
import { cellProblem, checkLabel } from '../common.ts';
import { type CifBlock, type CifDocument, type CifItem, type CifValue, isNull, parseCifDocument } from './tokenizer.ts';
import { chargeFromSuffix, parseElementSymbol } from '../../structure/elements.ts';
import { pymatgenSortedOrder } from '../../structure/composition.ts';
import { boundedMemo } from '../../memo.ts';

/** Fractional tolerance for "same position" (pymatgen's site_tolerance). */
const SITE_TOLERANCE = 1e-4;

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Reads a CIF number: `0.1234(5)` → 0.1234, `90.` → 90, `.5`, `1/3`, `-.25`. NaN when not a number or
 * longer than LIMITS.numberChars. The patterns are unambiguous (linear even on a long run of digits).
 */
export function cifNumber(text: string): number {
  let s = text.trim();
  if (s.length > LIMITS.numberChars) return NaN;
  // Each pattern runs only where its tell-tale character is present (a number per coordinate adds up).
  if (s.endsWith(')')) {
    const su = /\(\d*\)$/.exec(s);
    if (su) s = s.slice(0, su.index);
  }
  if (s === '') return NaN;
  if (s.includes('/')) {
    const frac = /^([+-]?\d+(?:\.\d*)?)\/(\d+(?:\.\d*)?)$/.exec(s);
    if (frac) return Number(frac[1]) / Number(frac[2]);
  }
  if (!DECIMAL.test(s)) return NaN;
  return Number(s);
}

/** Why `cifNumber` gave a non-finite value for `text`: too long, an overflow (`1e400`, `1/0`) or no number at all. */
const notNumberReason = (x: number, text = ''): string =>
  text.trim().length > LIMITS.numberChars
    ? `longer than the ${LIMITS.numberChars}-character limit of a number`
    : Number.isNaN(x)
      ? 'not a number'
      : 'too large to represent';

/** The tags the reader asks for (a fixed set), normalised once. */
const lookupKeys = new Map<string, string>();
const LOOKUP_KEYS_KEPT = 512;

/** Item lookup with '.' and '_' after the category treated alike (`_atom_site.fract_x` = `_atom_site_fract_x`). */
class BlockView {
  private readonly map = new Map<string, CifItem>();
  constructor(readonly block: CifBlock) {
    // forEach, not for…of over entries: every CIF makes one, mostly before V8 optimises it, where each step's entry
    // and result were allocated.
    block.items.forEach((item, key) => {
      const k = key.includes('.') ? key.replace(/\./g, '_') : key;
      if (key === k || !this.map.has(k)) this.map.set(k, item);
    });
  }
  get(...tags: string[]): CifItem | undefined {
    for (const t of tags) {
      let key = lookupKeys.get(t);
      if (key === undefined) {
        key = t.toLowerCase().replace(/\./g, '_');
        if (lookupKeys.size < LOOKUP_KEYS_KEPT) lookupKeys.set(t, key);
      }
      const it = this.map.get(key);
      if (it) return it;
    }
    return undefined;
  }
  has(prefix: string): boolean {
    for (const k of this.map.keys()) if (k.startsWith(prefix)) return true;
    return false;
  }
  /** First non-null value of a single-valued item. */
  scalar(...tags: string[]): CifValue | undefined {
    const it = this.get(...tags);
    if (!it) return undefined;
    const v = it.values.find((x) => !isNull(x));
    return v;
  }
}

// -------------------------------------------------------------------------------------------
// Species

/** Water and similar pseudo-atom labels (pymatgen's list): map to the heavy atom; implicit H is dropped. */
const SPECIAL_LABELS: [string, string][] = [
  ['Hw', 'H'],
  ['Ow', 'O'],
  ['Wat', 'O'],
  ['wat', 'O'],
  ['OH2', ''],
  ['OH', ''],
  ['NO3', 'N'],
];

/** readElementFromLabel, memoised: a file names its few species on every row, and a batch of files the same ones again. */
const elementFromLabel = boundedMemo(readElementFromLabel, 4096);

/**
 * Element symbol from a type symbol or label: `Fe3+` → Fe, `Fe1A` → Fe, `CO1` → Co (two letters first,
 * as pymatgen), `O2-` → O, `Wat1` → O. Returns null when nothing element-like is found.
 */
function readElementFromLabel(text: string): string | null {
  const sym = text.trim();
  if (!sym) return null;
  for (const [prefix, el] of SPECIAL_LABELS) if (sym.startsWith(prefix)) return el === '' ? null : el;
  return parseElementSymbol(sym, { isotopesAnyCase: true })?.symbol ?? null;
}

/** Oxidation state written in a type symbol: `Fe3+` → 3, `O2-` → -2, `Cs+1` → 1, `Na+` → 1; null if none. Memoised as above. */
const oxidationFromSymbol = boundedMemo(readOxidationFromSymbol, 4096);

const LEADING_LETTERS = /^[A-Za-z]{1,2}(?![A-Za-z])/;

function readOxidationFromSymbol(text: string): number | null {
  // One or two letters (element or not), then exactly a charge.
  const symbol = text.trim();
  const letters = LEADING_LETTERS.exec(symbol);
  return letters ? (chargeFromSuffix(symbol.slice(letters[0].length)) ?? null) : null;
}

/**
 * Whether a site's symbol (type symbol or label) that reads as an element is worth a warning: it does not start
 * with that element (`CO1` read as Co) or names water. Memoised as above.
 */
const readAsOther = boundedMemo((text: string): boolean => {
  const element = elementFromLabel(text);
  const symbol = text.trim();
  return element !== null && (element.toLowerCase() !== symbol.slice(0, element.length).toLowerCase() || WATER_LABEL.test(symbol));
}, 4096);

const WATER_LABEL = /^(Wat|wat|Ow|Hw)/;

// -------------------------------------------------------------------------------------------
// Symmetry

const SYMOP_TAGS = ['_symmetry_equiv_pos_as_xyz', '_space_group_symop_operation_xyz', '_space_group_symop.operation_xyz'];
const HALL_TAGS = ['_symmetry_space_group_name_hall', '_space_group_name_hall', '_space_group.name_hall'];
const HM_TAGS = [
  '_symmetry_space_group_name_h-m',
  '_space_group_name_h-m_alt',
  '_space_group.name_h-m_alt',
  '_space_group_name_h-m',
  '_symmetry_space_group_name_h-m_alt',
];
const IT_TAGS = ['_space_group_it_number', '_symmetry_int_tables_number', '_space_group.it_number'];

interface SymmetryResult {
  ops: SymOp[];
  source: string;
}

/**
 * The distinct operations of a list (modulo lattice translations), in file order. The number of lines
 * is checked before any is parsed, the number of distinct operations as they come: no space group has
 * more than LIMITS.symmetryOperations. `parse` throws Error; it becomes a ParseError naming the line.
 */
function readOperations(item: CifItem, values: CifValue[], parse: (v: CifValue) => SymOp, warn: (m: string) => void): SymOp[] {
  const tag = printable(item.tag);
  if (values.length > LIMITS.symmetryOperationLines) {
    throw new ParseError(
      `${limitSentence(`the ${tag} list`, values.length, LIMITS.symmetryOperationLines, 'lines', 'symmetryOperationLines')}`,
      item.line,
    );
  }
  const ops: SymOp[] = [];
  const seen = new Set<string>();
  let duplicates = 0;
  for (const v of values) {
    let op: SymOp;
    try {
      op = parse(v);
    } catch (e) {
      throw new ParseError(printable((e as Error).message, 200), v.line);
    }
    const key = opKey(normalizeOp(op));
    if (seen.has(key)) {
      if (duplicates++ < 3) warn(`line ${v.line}: duplicate symmetry operation '${printable(v.text)}' ignored`);
      continue;
    }
    seen.add(key);
    ops.push(op);
    if (ops.length > LIMITS.symmetryOperations) {
      throw new ParseError(
        `${limitSentence(`the ${tag} list`, null, LIMITS.symmetryOperations, 'distinct operations')} (modulo lattice ` +
          'translations), as no space group has more',
        v.line,
      );
    }
  }
  if (duplicates > 3) warn(`line ${item.line}: ${duplicates - 3} more duplicate symmetry operations ignored`);
  return ops;
}

/** The group the operations generate, or a ParseError when it outgrows every space group (LIMITS.symmetryOperations). */
function closeOperations(item: CifItem, ops: SymOp[]): SymOp[] {
  try {
    return closeGroup(ops.length ? ops : [identityOp()], LIMITS.symmetryOperations);
  } catch {
    throw new ParseError(
      `the ${printable(item.tag)} operations do not form a space group (they generate more than ${LIMITS.symmetryOperations} ` +
        'distinct operations modulo lattice translations)',
      item.line,
    );
  }
}

function symmetryFromBlock(view: BlockView, warn: (msg: string) => void): SymmetryResult {
  // 1. Explicit operations.
  const symItem = view.get(...SYMOP_TAGS);
  if (symItem) {
    let values = symItem.values.filter((v) => !isNull(v));
    // Unquoted operations with spaces ("x, y, z") in a one-column loop split into several words: rejoin by line.
    if (symItem.loop && symItem.loop.tags.length === 1 && values.some((v) => !v.quoted && v.text.endsWith(','))) {
      const byLine = new Map<number, CifValue>();
      for (const v of values) {
        const prev = byLine.get(v.line);
        byLine.set(v.line, prev ? { text: `${prev.text} ${v.text}`, quoted: false, line: v.line } : v);
      }
      values = [...byLine.values()];
      warn(`line ${symItem.line}: unquoted symmetry operations with spaces read one per line`);
    }
    if (values.length > 0) {
      try {
        const ops = readOperations(symItem, values, (v) => parseSymop(v.text), warn);
        if (!isGroup(ops)) {
          const closed = closeOperations(symItem, ops);
          warn(
            `line ${symItem.line}: the ${ops.length} listed symmetry operations are not a group; completed to ${closed.length} operations`,
          );
          return { ops: closed, source: symItem.tag };
        }
        return { ops, source: symItem.tag };
      } catch (e) {
        if (!(e instanceof ParseError)) throw e;
        // Fall back to a symbol if the file has one; otherwise this is fatal.
        const hasSymbol = view.scalar(...HALL_TAGS) || view.scalar(...HM_TAGS);
        if (!hasSymbol) throw e;
        if (e.message.includes('the limit is')) throw e;
        warn(`line ${e.line}: ${e.message}; using the space-group symbol instead`);
      }
    }
  }
  // 1a. Magnetic CIF: operations "x,y,z,+1" (time reversal last) times the centring operations.
  const magn = view.get('_space_group_symop_magn_operation_xyz', '_space_group_symop_magn_operation.xyz');
  if (magn) {
    const readMagnetic = (item: CifItem): SymOp[] =>
      readOperations(
        item,
        item.values.filter((v) => !isNull(v)),
        (v) => {
          const parts = v.text.replace(/\s+/g, '').split(',');
          if (parts.length !== 4) throw new Error(`magnetic operation '${printable(v.text)}' must have four comma-separated parts`);
          return parseSymop(parts.slice(0, 3).join(','));
        },
        warn,
      );
    const ops = readMagnetic(magn);
    const centringItem = view.get('_space_group_symop_magn_centering_xyz', '_space_group_symop_magn_centering.xyz');
    const centrings = centringItem ? readMagnetic(centringItem) : [identityOp()];
    const unique = new Map<string, SymOp>();
    for (const op of ops)
      for (const c of centrings) {
        const t = applyOp(op, c.trans);
        const rot = op.rot.map((row) =>
          [0, 1, 2].map((j) => row[0] * c.rot[0][j] + row[1] * c.rot[1][j] + row[2] * c.rot[2][j]),
        ) as SymOp['rot'];
        const combined = normalizeOp({ rot, trans: t });
        unique.set(opKey(combined), combined);
      }
    let list = [...unique.values()];
    if (!isGroup(list)) list = closeOperations(magn, list);
    warn(`line ${magn.line}: magnetic CIF: positions from the magnetic operations; moments are not read`);
    return { ops: list, source: magn.tag };
  }
  // 1b. Superspace operations of a modulated structure (x1..x3 are the ordinary coordinates):
  // their three-dimensional parts give the average structure.
  const ssg = view.get('_space_group_symop_ssg_operation_algebraic');
  if (ssg) {
    let list = readOperations(
      ssg,
      ssg.values.filter((v) => !isNull(v)),
      (v) => {
        const parts = v.text.replace(/\s+/g, '').split(',');
        const basic = parts.slice(0, 3);
        if (parts.length < 4 || basic.some((p) => /x[4-9]/i.test(p))) {
          throw new Error(`superspace operation '${printable(v.text)}' does not keep x1, x2, x3 separate from the modulation coordinates`);
        }
        return parseSymop(basic.join(',').replace(/x1/gi, 'x').replace(/x2/gi, 'y').replace(/x3/gi, 'z'));
      },
      warn,
    );
    if (!isGroup(list)) list = closeOperations(ssg, list);
    warn(
      `line ${ssg.line}: modulated structure: the average structure is read from the three-dimensional part of the superspace ` +
        'operations; the modulation is ignored',
    );
    return { ops: list, source: ssg.tag };
  }
  // 2. Hall symbol.
  const hall = view.scalar(...HALL_TAGS);
  if (hall) {
    try {
      const h = lookupHall(hall.text);
      const ops = h !== null ? operationsFromHallNumber(h) : operationsFromHall(hall.text);
      return { ops, source: `Hall symbol '${hall.text.trim()}'` };
    } catch (e) {
      warn(`line ${hall.line}: cannot read Hall symbol '${printable(hall.text)}' (${(e as Error).message})`);
    }
  }
  // 3. Hermann–Mauguin symbol.
  const hm = view.scalar(...HM_TAGS);
  if (hm) {
    const hit = lookupHM(hm.text);
    if (hit) {
      if (hit.note) warn(`line ${hm.line}: space-group symbol '${printable(hm.text)}' read as Hall '${hit.hallSymbol}' (${hit.note})`);
      const ops = hit.hallNumber !== null ? operationsFromHallNumber(hit.hallNumber) : operationsFromHall(hit.hallSymbol);
      return { ops, source: `H-M symbol '${hm.text.trim()}'` };
    }
    warn(`line ${hm.line}: unknown space-group symbol '${printable(hm.text)}'`);
  }
  // 4. International Tables number.
  const it = view.scalar(...IT_TAGS);
  if (it) {
    const n = cifNumber(it.text);
    if (Number.isInteger(n) && n >= 1 && n <= 230) {
      const settings = hallEntries().filter((e) => e.number === n).length;
      if (settings > 1) warn(`line ${it.line}: only the space-group number ${n} is given; its default setting is assumed`);
      return { ops: operationsFromITNumber(n), source: `space-group number ${n}` };
    }
    warn(`line ${it.line}: space-group number '${printable(it.text)}' is not in 1..230`);
  }
  if (hm || hall || it) {
    throw new ParseError(
      `the declared space group cannot be interpreted (${[hall?.text, hm?.text, it?.text]
        .filter(Boolean)
        .map((t) => printable(t!))
        .join(', ')}) and no symmetry operations are listed`,
      (hall ?? hm ?? it)!.line,
    );
  }
  warn(`block ${printable(view.block.name)}: no symmetry given; P1 assumed`);
  return { ops: [identityOp()], source: 'P1 (no symmetry given)' };
}

// -------------------------------------------------------------------------------------------
// Expansion and merging with a spatial hash on wrapped fractional coordinates.

// Wrapping uses tolerance 0: only a value that rounds up to exactly 1 becomes 0.
const wrap3 = (p: Vec3): Vec3 => vec3(wrapFrac(p[0], 0), wrapFrac(p[1], 0), wrapFrac(p[2], 0));

/** How far a site's occupancies may sum above 1: pymatgen's Composition.amount_tolerance (pymatgen/core/composition.py). */
const OCCUPANCY_TOLERANCE = 1e-8;

interface AtomRow {
  label: string;
  element: string;
  oxidation: number | null;
  occupancy: number;
  frac: Vec3;
  /** 1-based line of its occupancy (or of its x where it has none), for messages. */
  line: number;
}

interface MergedSite {
  frac: Vec3;
  species: SpeciesMap;
  oxidation: Record<string, number>;
  labels: string[];
  /** The line of the row that last added to the site. */
  line: number;
}

function speciesKey(s: MergedSite): string {
  // Almost every site holds one species, fully occupied: its key without sorting or formatting.
  let only: string | null = null;
  for (const el in s.species) {
    if (only !== null) return mixedSpeciesKey(s);
    only = el;
  }
  if (only === null) return '';
  const occ = s.species[only];
  return `${only}:${occ === 1 ? ONE_TO_12_DIGITS : occ.toPrecision(12)}:${s.oxidation[only] ?? ''}`;
}

const ONE_TO_12_DIGITS = (1).toPrecision(12);

function mixedSpeciesKey(s: MergedSite): string {
  return Object.entries(s.species)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([el, occ]) => `${el}:${occ.toPrecision(12)}:${s.oxidation[el] ?? ''}`)
    .join(';');
}

/**
 * pymatgen rounds coordinates within 1e-4 (relative) of 1/3 and 2/3 to the exact value. Two tests written out, not a
 * loop over a pair: it runs for every coordinate of every CIF, mostly before it is optimised.
 */
function snapThird(x: number): number {
  if (Math.abs(1 - x / (1 / 3)) < 1e-4) return 1 / 3;
  if (Math.abs(1 - x / (2 / 3)) < 1e-4) return 2 / 3;
  return x;
}

const isExactIdentity = (op: SymOp): boolean =>
  op.rot.every((row, i) => row.every((x, j) => x === (i === j ? 1 : 0))) && op.trans.every((t) => t === 0);

function expand(rows: AtomRow[], ops: SymOp[], duplicates: string[]): MergedSite[] {
  // Stage 1: rows on the same position (up to symmetry) become one site with a mixed species map.
  const keys: MergedSite[] = [];
  const grid = new PeriodicGrid(SITE_TOLERANCE, rows.length);
  // The P1 shortcut below takes each site's image under the one operation from here (computed once, not twice).
  const images: Vec3[] = [];
  // Indexed loops here and below: per row and per image of every CIF, mostly before V8 optimises them, where each step
  // of for…of allocated its result.
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    let match = -1;
    let image: Vec3 | null = null;
    for (let o = 0; o < ops.length; o++) {
      const p = wrap3(applyOp(ops[o], row.frac));
      image ??= p;
      match = grid.find(p);
      if (match >= 0) break;
    }
    if (match < 0) {
      grid.add(wrap3(row.frac));
      images.push(image!);
      const site: MergedSite = {
        frac: row.frac,
        species: { [row.element]: row.occupancy },
        oxidation: {},
        labels: [row.label],
        line: row.line,
      };
      if (row.oxidation !== null) site.oxidation[row.element] = row.oxidation;
      keys.push(site);
    } else {
      const site = keys[match];
      const before = site.species[row.element] ?? 0;
      // The same element listed again on an equivalent position (files that list symmetry-generated
      // copies, e.g. labels Nd1A*) is a duplicate, not extra occupancy.
      if (before > 0 && before + row.occupancy > 1 + 1e-6) {
        duplicates.push(row.label);
        continue;
      }
      site.species[row.element] = before + row.occupancy;
      if (row.oxidation !== null) site.oxidation[row.element] = row.oxidation;
      site.labels.push(row.label);
      site.line = row.line;
    }
  }
  // Stage 2: images of each site; duplicates removed among sites of the same species (as pymatgen).
  if (keys.length === rows.length && ops.length === 1 && isExactIdentity(ops[0])) {
    // P1 with no rows merged: stage 1 searched every site's one image against all earlier sites on the same bins (the
    // same number of points sizes the same grid) and found none, so the per-species search would find none either.
    return keys.map((site, k) => ({
      frac: images[k],
      species: site.species,
      oxidation: site.oxidation,
      labels: site.labels,
      line: site.line,
    }));
  }
  const out: MergedSite[] = [];
  const grids = new Map<string, PeriodicGrid>();
  for (let s = 0; s < keys.length; s++) {
    const site = keys[s];
    const key = speciesKey(site);
    let g = grids.get(key);
    if (!g) {
      g = new PeriodicGrid(SITE_TOLERANCE, keys.length * ops.length);
      grids.set(key, g);
    }
    for (let o = 0; o < ops.length; o++) {
      const p = applyOp(ops[o], site.frac);
      const w = wrap3(p);
      if (g.find(w) >= 0) continue;
      g.add(w);
      out.push({ frac: w, species: site.species, oxidation: site.oxidation, labels: site.labels, line: site.line });
    }
  }
  return out;
}

// -------------------------------------------------------------------------------------------

const CELL_TAGS: [string, string][] = [
  ['a', '_cell_length_a'],
  ['b', '_cell_length_b'],
  ['c', '_cell_length_c'],
  ['alpha', '_cell_angle_alpha'],
  ['beta', '_cell_angle_beta'],
  ['gamma', '_cell_angle_gamma'],
];

function readLattice(view: BlockView, warn: (m: string) => void): Lattice {
  const values: number[] = [];
  const missing: string[] = [];
  let line: number | undefined;
  for (const [, tag] of CELL_TAGS) {
    const v = view.scalar(tag);
    const x = v ? cifNumber(v.text) : NaN;
    if (v && (x === Infinity || x === -Infinity)) {
      throw new ParseError(`block ${printable(view.block.name)}: ${tag} '${printable(v.text)}' is too large to represent`, v.line);
    }
    if (!v || !Number.isFinite(x)) missing.push(tag);
    else {
      values.push(x);
      line ??= v.line;
    }
  }
  if (missing.length === 6)
    throw new ParseError(
      `block ${printable(view.block.name)}: no unit cell (_cell_length_a/b/c, _cell_angle_alpha/beta/gamma are missing)`,
      view.block.line,
    );
  if (missing.length)
    throw new ParseError(
      `block ${printable(view.block.name)}: unit cell incomplete: ${missing.join(', ')} missing or not a number`,
      line ?? view.block.line,
    );
  const [a, b, c, alpha, beta, gamma] = values;
  if (a <= 0 || b <= 0 || c <= 0)
    throw new ParseError(`block ${printable(view.block.name)}: cell lengths must be positive (a=${a}, b=${b}, c=${c})`, line);
  if ([alpha, beta, gamma].some((x) => x <= 0 || x >= 180))
    throw new ParseError(`block ${printable(view.block.name)}: cell angles must lie between 0 and 180 degrees`, line);
  let lattice: Lattice;
  try {
    lattice = Lattice.fromParameters(a, b, c, alpha, beta, gamma);
  } catch {
    throw new ParseError(`block ${printable(view.block.name)}: the cell angles give no three-dimensional cell`, line);
  }
  if (!Number.isFinite(lattice.volume) || lattice.volume === 0)
    throw new ParseError(`block ${printable(view.block.name)}: the cell angles give no three-dimensional cell`, line);
  // A nearly flat cell (α = β = γ = 120° is exactly flat) would send neighbour searches and matching into
  // unbounded numbers of images; LIMITS.cellFlatness refuses it, as it does long cell lengths.
  const problem = cellProblem(lattice);
  if (problem) throw new ParseError(`block ${printable(view.block.name)}: ${problem}`, line);
  if (lattice.volume < 1e-6 * a * b * c)
    warn(`line ${line}: block ${printable(view.block.name)}: nearly flat cell (volume ${lattice.volume.toExponential(3)} Å³)`);
  return lattice;
}

function readAtomRows(view: BlockView, warn: (m: string) => void): AtomRow[] {
  const name = printable(view.block.name);
  const fx = view.get('_atom_site_fract_x');
  const fy = view.get('_atom_site_fract_y');
  const fz = view.get('_atom_site_fract_z');
  if (!fx || !fy || !fz) {
    if (view.get('_atom_site_cartn_x')) {
      throw new ParseError(
        `block ${name}: atom sites have only Cartesian coordinates (_atom_site_Cartn_x/y/z); fractional coordinates ` +
          '(_atom_site_fract_x/y/z) are required',
        view.get('_atom_site_cartn_x')!.line,
      );
    }
    const missing = ['_atom_site_fract_x', '_atom_site_fract_y', '_atom_site_fract_z'].filter((t) => !view.get(t));
    const anchor = view.get('_atom_site_label') ?? view.get('_atom_site_type_symbol');
    throw new ParseError(
      `block ${name}: atom sites have no fractional coordinates (${missing.join(', ')} missing)`,
      anchor?.line ?? view.block.line,
    );
  }
  const n = fx.values.length;
  const label = view.get('_atom_site_label');
  const type = view.get('_atom_site_type_symbol');
  const occ = view.get('_atom_site_occupancy');
  for (const [item, what] of [
    [fy, '_atom_site_fract_y'],
    [fz, '_atom_site_fract_z'],
    [label, '_atom_site_label'],
    [type, '_atom_site_type_symbol'],
    [occ, '_atom_site_occupancy'],
  ] as const) {
    if (item && item.values.length !== n) {
      throw new ParseError(`${what} has ${item.values.length} values for ${n} atoms`, item.line);
    }
  }
  // Oxidation numbers from the _atom_type loop, keyed by the type symbol (and by its bare element).
  const oxByType = new Map<string, number>();
  const typeSym = view.get('_atom_type_symbol');
  const typeOx = view.get('_atom_type_oxidation_number');
  if (typeSym && typeOx && typeSym.values.length === typeOx.values.length) {
    typeSym.values.forEach((v, i) => {
      const ox = cifNumber(typeOx.values[i].text);
      if (Number.isFinite(ox)) oxByType.set(v.text.trim(), ox);
    });
  }
  const rows: AtomRow[] = [];
  let unknownCoords = 0;
  for (let i = 0; i < n; i++) {
    const lab = label ? label.values[i].text : `${i + 1}`;
    if (label) checkLabel(lab, label.values[i].line, 'atom label');
    if (type) checkLabel(type.values[i].text, type.values[i].line, 'type symbol');
    const vx = fx.values[i],
      vy = fy.values[i],
      vz = fz.values[i];
    if (isNull(vx) || isNull(vy) || isNull(vz)) {
      unknownCoords++;
      continue;
    }
    const symSrc = type && !isNull(type.values[i]) ? type.values[i] : label?.values[i];
    if (!symSrc || isNull(symSrc)) throw new ParseError(`atom site ${i + 1} has neither a type symbol nor a label`, fx.values[i].line);
    let element = elementFromLabel(symSrc.text);
    if (element === null) {
      // Dummy atoms (X, Q, Lp...) are kept as pseudo-species, as pymatgen keeps DummySpecies.
      const dummy = /^[A-Z][a-z]*/.exec(symSrc.text.trim());
      if (!dummy || SPECIAL_LABELS.some(([prefix]) => symSrc.text.trim().startsWith(prefix))) {
        warn(`line ${symSrc.line}: atom '${printable(symSrc.text)}' is not a chemical element; skipped`);
        continue;
      }
      element = dummy[0];
      warn(`line ${symSrc.line}: '${printable(symSrc.text)}' is not a chemical element; kept as dummy species ${element}`);
    } else if (readAsOther(symSrc.text)) {
      warn(`line ${symSrc.line}: '${printable(symSrc.text)}' read as ${element}`);
    }
    const x = cifNumber(vx.text),
      y = cifNumber(vy.text),
      z = cifNumber(vz.text);
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
      const coordValues = [vx, vy, vz];
      [x, y, z].forEach((c, a) => {
        const text = coordValues[a].text;
        if (!Number.isFinite(c))
          throw new ParseError(
            `atom ${printable(lab)}: fractional coordinate '${printable(text)}' is ${notNumberReason(c, text)}`,
            coordValues[a].line,
          );
      });
    }
    let occupancy = 1;
    if (occ && !isNull(occ.values[i])) {
      occupancy = cifNumber(occ.values[i].text);
      if (!Number.isFinite(occupancy))
        throw new ParseError(
          `atom ${printable(lab)}: occupancy '${printable(occ.values[i].text)}' is ${notNumberReason(occupancy, occ.values[i].text)}`,
          occ.values[i].line,
        );
    }
    if (occupancy <= 0) {
      if (occupancy < 0) warn(`line ${occ!.values[i].line}: atom ${printable(lab)} has a negative occupancy; skipped`);
      continue;
    }
    let oxidation: number | null = null;
    if (type && !isNull(type.values[i])) {
      const t = type.values[i].text.trim();
      oxidation = oxByType.get(t) ?? oxidationFromSymbol(t);
    } else if (label) {
      oxidation = oxidationFromSymbol(lab);
    }
    if (oxidation === null && oxByType.size) {
      const byElement = oxByType.get(element);
      if (byElement !== undefined) oxidation = byElement;
    }
    const line = occ && !isNull(occ.values[i]) ? occ.values[i].line : fx.values[i].line;
    rows.push({ label: lab, element, oxidation, occupancy, frac: vec3(x, y, z), line });
  }
  if (unknownCoords) {
    if (unknownCoords === n) throw new ParseError(`block ${name}: all atom coordinates are unknown ('?')`, fx.line);
    warn(`block ${name}: ${unknownCoords} atom(s) with unknown coordinates skipped`);
  }
  return rows;
}

/** Work shared by the blocks of one file: symmetry read once per distinct operation list, atoms summed. */
interface FileBudget {
  atoms: number;
  symmetry: Map<string, { result: SymmetryResult | ParseError; warnings: string[] }>;
  /** Compositions the group checks of the file's distinct operation lists have cost (Σ n²). */
  compositions: number;
}

/**
 * Symmetry read without a warning, across files, by symmetry text and the limits it was read under: a batch of
 * CIFs (generated crystals, AtomWorld answers) repeats a few operation lists, almost always P1's 'x, y, z'.
 * Results are never changed by their users; lists that warned or failed are not kept (their messages name lines).
 */
const cleanSymmetry = new Map<string, SymmetryResult>();
const CLEAN_SYMMETRY_KEPT = 64;

/** symmetryFromBlock, memoised on the block's symmetry text (files repeat one block many times). */
function cachedSymmetry(view: BlockView, warn: (m: string) => void, budget: FileBudget): SymmetryResult {
  const key = [
    ...SYMOP_TAGS,
    '_space_group_symop_magn_operation_xyz',
    '_space_group_symop_magn_centering_xyz',
    '_space_group_symop_ssg_operation_algebraic',
    ...HALL_TAGS,
    ...HM_TAGS,
    ...IT_TAGS,
  ]
    .map(
      (t) =>
        view
          .get(t)
          ?.values.map((v) => v.text)
          .join('\n') ?? '',
    )
    .join('\u0000');
  const hit = budget.symmetry.get(key);
  if (hit) {
    if (hit.result instanceof ParseError) throw hit.result;
    hit.warnings.forEach(warn);
    return hit.result;
  }
  const cleanKey = `${LIMITS.symmetryOperations},${LIMITS.symmetryOperationLines},${LIMITS.tokenChars},${LIMITS.numberChars}\u0000${key}`;
  const clean = cleanSymmetry.get(cleanKey);
  if (clean) {
    budget.symmetry.set(key, { result: clean, warnings: [] });
    return clean;
  }
  const own: string[] = [];
  let result: SymmetryResult;
  try {
    result = symmetryFromBlock(view, (m) => own.push(m));
  } catch (e) {
    if (e instanceof ParseError) budget.symmetry.set(key, { result: e, warnings: [] });
    throw e;
  }
  // Each distinct list costs a group check of n² compositions: many blocks of different 192-operation lists
  // (each ~6 ms) would otherwise take minutes.
  budget.compositions += result.ops.length ** 2;
  if (budget.compositions > LIMITS.symmetryCompositions) {
    throw new LimitError(
      'symmetryCompositions',
      limitSentence(
        `the distinct symmetry-operation lists of the blocks up to ${printable(view.block.name)}`,
        null,
        LIMITS.symmetryCompositions,
        'compositions to check',
        'symmetryCompositions',
      ),
    );
  }
  own.forEach(warn);
  budget.symmetry.set(key, { result, warnings: own.filter((w) => !/^line \d+:/.test(w)) });
  if (own.length === 0) {
    if (cleanSymmetry.size >= CLEAN_SYMMETRY_KEPT) cleanSymmetry.clear();
    cleanSymmetry.set(cleanKey, result);
  }
  return result;
}

function structureFromBlock(view: BlockView, warnings: string[], budget: FileBudget, options: CifReadOptions): Structure {
  const block = view.block;
  const warn = (m: string) => warnings.push(m);
  const lattice = readLattice(view, warn);
  const rows = readAtomRows(view, warn);
  const { ops, source } = cachedSymmetry(view, warn, budget);
  if (rows.length === 0)
    throw new ParseError(`block ${printable(block.name)}: no atoms with a position and a positive occupancy`, block.line);
  // Checked before expanding: rows × operations bounds the atoms the expansion can make.
  if (rows.length * ops.length > LIMITS.atoms) {
    const what = `block ${printable(block.name)} (${groupedNumber(rows.length)} atom sites × ${ops.length} symmetry operations)`;
    throw new ParseError(limitSentence(what, rows.length * ops.length, LIMITS.atoms, 'atoms', 'atoms'), block.line);
  }
  budget.atoms += rows.length * ops.length;
  if (budget.atoms > LIMITS.fileAtoms) {
    const what = `the blocks up to ${printable(block.name)} (atom sites × symmetry operations)`;
    throw new LimitError('fileAtoms', limitSentence(what, budget.atoms, LIMITS.fileAtoms, 'atoms', 'fileAtoms'));
  }
  if (options.idealThirds === 'all' || ops.length > 1) {
    // pymatgen's CifParser._sanitize_data rounds in every CIF (pymatgen/io/cif.py); with symmetry it also keeps
    // images of 0.3333 from landing 1e-4 apart instead of on top of each other.
    let rounded = false;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r];
      // Indexed, not destructured: the iteration protocol costs more than the rest while the loop is interpreted.
      const x = row.frac[0],
        y = row.frac[1],
        z = row.frac[2];
      const sx = snapThird(x),
        sy = snapThird(y),
        sz = snapThird(z);
      if (sx !== x || sy !== y || sz !== z) rounded = true;
      row.frac = vec3(sx, sy, sz);
    }
    if (rounded) warn(`block ${printable(block.name)}: ${IDEAL_THIRDS_WARNING}`);
  }
  const duplicates: string[] = [];
  const merged = expand(rows, ops, duplicates);
  if (duplicates.length) {
    const shown = duplicates
      .slice(0, 5)
      .map((d) => printable(d))
      .join(', ');
    warnings.push(
      `block ${printable(block.name)}: ${duplicates.length} atom(s) repeat a symmetry-equivalent atom of the same element and were ` +
        `dropped (${shown}${duplicates.length > 5 ? ', ...' : ''})`,
    );
  }
  const sites: Site[] = [];
  for (let s = 0; s < merged.length; s++) {
    const m = merged[s];
    let total = 0;
    for (const el in m.species) total += m.species[el];
    // pymatgen refuses such a site ("Species occupancies sum to more than 1!", pymatgen/core/sites.py, tolerance
    // Composition.amount_tolerance); CifParser's occupancy_tolerance (pymatgen/io/cif.py, default 1.0) rescales
    // nothing by default, so the block gives no structure. An occupancy of 1e9 or 1e300 means nothing, either.
    if (total > 1 + OCCUPANCY_TOLERANCE) {
      const atoms =
        m.labels.length === 1
          ? `atom ${quoted(m.labels[0])} has occupancy`
          : `atoms ${m.labels.map((l) => quoted(l)).join(', ')} share a position and their occupancies sum to`;
      const sum = String(Number(total.toPrecision(6)));
      throw new ParseError(`block ${printable(block.name)}: ${atoms} ${sum}; the occupancies of one site sum to at most 1`, m.line);
    }
    // makeSiteFromFrac's object (label, oxidation?, species, frac, xyz) built directly: its spread of the extra
    // fields cost more than the rest of the site. m.frac is the expansion's own array, not shared.
    const species = { ...m.species };
    const xyz = lattice.fracToCart(m.frac);
    sites.push(
      Object.keys(m.oxidation).length
        ? { label: m.labels[0], oxidation: { ...m.oxidation }, species, frac: m.frac, xyz }
        : { label: m.labels[0], species, frac: m.frac, xyz },
    );
  }
  // Expanded cells take pymatgen's site order; P1 files keep the file's order (so written files read back unchanged)
  // unless pymatgen's order is asked for.
  return {
    name: block.name,
    lattice,
    sites: ops.length > 1 || options.pymatgenSiteOrder === 'all' ? sortLikePymatgen(sites) : sites,
    properties: { symmetrySource: source, symmetryOperations: ops.length },
  };
}

/** The sites in pymatgen's `get_sorted_structure` order (structure/composition.ts `pymatgenSortedOrder`). */
function sortLikePymatgen(sites: Site[]): Site[] {
  return pymatgenSortedOrder(sites).map((k) => sites[k]);
}

const hasAtomSites = (view: BlockView): boolean =>
  !!(
    view.get('_atom_site_fract_x') ||
    view.get('_atom_site_cartn_x') ||
    view.get('_atom_site_label') ||
    view.get('_atom_site_type_symbol')
  );

/** pymatgen 2022.11's warning for it (pymatgen/io/cif.py, CifParser._sanitize_data), word for word. */
const IDEAL_THIRDS_WARNING = 'Some fractional coordinates rounded to ideal values to avoid issues with finite precision.';

export interface CifReadOptions {
  /**
   * Which blocks get coordinates within 1e-4 (relative) of 1/3 or 2/3 set to the exact values: `all`, as
   * pymatgen's CifParser reads every CIF (the default), or only blocks with symmetry operations to apply (the
   * AtomWorld actions, which keep ASE's reading of a P1 file).
   */
  idealThirds?: 'all' | 'withSymmetry';
  /**
   * Which blocks get pymatgen's site order (`get_sorted_structure`): only those with symmetry operations to apply
   * (the default: a P1 file reads back in its own order, as ASE reads it), or `all`, as pymatgen's CifParser returns
   * every structure (the AtomWorld evaluator, whose matcher breaks ties between equal matches by site order).
   */
  pymatgenSiteOrder?: 'all' | 'withSymmetry';
}

export function parseCif(text: string, options: CifReadOptions = {}): ParseOutput {
  if (text.trim() === '') throw new ParseError('empty file');
  const read: Required<CifReadOptions> = {
    idealThirds: options.idealThirds ?? 'all',
    pymatgenSiteOrder: options.pymatgenSiteOrder ?? 'withSymmetry',
  };
  try {
    return structuresFromDocument(parseCifDocument(text), read);
  } catch (e) {
    // A value quoted over several lines (pymatgen's own srycoo.cif) is read as pymatgen reads it when a later
    // line closes the quote and that yields a structure; otherwise the strict reading's error stands.
    if (!(e instanceof ParseError) || !e.message.startsWith('unclosed quote')) throw e;
    try {
      return structuresFromDocument(parseCifDocument(text, { lenientQuotes: true }), read);
    } catch {
      throw e;
    }
  }
}

function structuresFromDocument(doc: CifDocument, options: Required<CifReadOptions>): ParseOutput {
  const budget: FileBudget = { atoms: 0, symmetry: new Map(), compositions: 0 };
  const warnings = [...doc.warnings];
  if (doc.blocks.length === 0) throw new ParseError('no data_ block found; this is not a CIF file');
  const structures: Structure[] = [];
  let firstError: ParseError | null = null;
  let candidates = 0;
  for (const block of doc.blocks) {
    const view = new BlockView(block);
    if (!hasAtomSites(view)) continue;
    candidates++;
    try {
      structures.push(structureFromBlock(view, warnings, budget, options));
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      firstError ??= e;
      warnings.push(`${e.line ? `line ${e.line}: ` : ''}block ${printable(block.name)} skipped: ${e.message}`);
    }
  }
  if (structures.length === 0) {
    if (firstError) throw firstError;
    throw new ParseError(candidates === 0 ? 'no data block has atom sites (_atom_site_fract_x/y/z)' : 'no structure could be read');
  }
  return { structures, warnings };
}
