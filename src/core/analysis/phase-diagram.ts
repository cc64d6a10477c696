/**
 * Energies above the convex hull, as pymatgen 2022.11 `PhaseDiagram` (pymatgen/analysis/phase_diagram.py) computes
 * them: entries grouped by reduced composition (lowest energy per atom kept, the first on ties), elemental
 * references (the lowest energy per atom of each element), formation energies per atom, and the lower hull of
 * (composition, energy per atom) — only entries with formation energy < −1e-11 eV/atom and the elemental references
 * take part — its decomposition of a composition (amounts ≤ 1e-8 dropped) and `get_decomp_and_e_above_hull(entry,
 * allow_negative=True)` for an entry that need not be in the diagram.
 *
 * Following microsoft/mattergen `mattergen/evaluation/metrics/energy.py` (`_get_phase_diagram`), each composition is
 * judged against the entries of its own chemical system and its subsystems. The hull energy at a composition c is the
 * optimum of the linear program  min Σ xᵢ fᵢ  s.t.  Σ xᵢ aᵢ = c, x ≥ 0  (aᵢ atomic fractions, fᵢ formation energies
 * per atom); its optimal basis is the facet of the lower hull that holds c, and its basic values are pymatgen's
 * barycentric amounts. The LP is solved exactly in structure (revised simplex, Bland's rule: no cycling on the
 * degenerate vertices hull problems are full of), in any number of elements, starting from the elemental references
 * (an identity basis, so no phase 1). Where qhull leaves a point lying on a facet out of the vertices ("coplanar"),
 * so does this: a basic entry that is not below the hull of the others by more than VERTEX_TOL is excluded and the LP
 * solved again. Only where c lies inside a facet with more than `dim` coplanar vertices (a non-simplicial facet) can
 * the phases differ from qhull's arbitrary triangulation; the energy is the same.
 */
import { reducedFormula } from '../structure/composition.ts';
import { isElementSymbol } from '../structure/elements.ts';
import { LIMITS, limitSentence, printable } from '../limits.ts';

/** An entry: element → amount (any order), total energy in eV (corrections included), an optional name. */
export interface PDEntry {
  composition: ReadonlyMap<string, number>;
  energy: number;
  name?: string;
}

/** A reference set or a composition the phase diagram cannot use; the message is one sentence. */
export class PhaseDiagramError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PhaseDiagramError';
  }
}

/** pymatgen PhaseDiagram.formation_energy_tol: entries above −1e-11 eV/atom never enter the hull. */
const FORMATION_ENERGY_TOL = 1e-11;
/** pymatgen PhaseDiagram.numerical_tol: decomposition amounts at or below it are dropped. */
const NUMERICAL_TOL = 1e-8;
/** Reduced cost below which a column improves the hull (eV/atom); far below pymatgen's tolerances. */
const PRICE_TOL = 1e-12;
/** An entry must lie this far (eV/atom) below the hull of the others to be a vertex, as qhull's coplanar points are not. */
const VERTEX_TOL = 1e-12;
/** pymatgen Composition.amount_tolerance: smaller amounts are no element of the composition. */
const AMOUNT_TOL = 1e-8;

/** Atoms in a composition. */
export const numAtoms = (c: ReadonlyMap<string, number>): number => {
  let n = 0;
  for (const v of c.values()) n += v;
  return n;
};

/**
 * Checks a composition from input and returns it without amounts below 1e-8: element symbols only, finite amounts
 * ≥ 0, at least one atom, at most LIMITS.atoms atoms. `what` names it in the sentence.
 */
export function checkComposition(what: string, c: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [el, v] of c) {
    if (!isElementSymbol(el)) throw new PhaseDiagramError(`${what} has "${printable(el, 20)}", which is not an element symbol`);
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new PhaseDiagramError(`${what} has ${printable(String(v), 20)} atoms of ${el}; amounts must be finite and ≥ 0`);
    if (v >= AMOUNT_TOL) out.set(el, (out.get(el) ?? 0) + v);
  }
  const n = numAtoms(out);
  if (out.size === 0 || !(n > 0)) throw new PhaseDiagramError(`${what} has no atoms`);
  if (n > LIMITS.atoms) throw new PhaseDiagramError(limitSentence(what, n, LIMITS.atoms, 'atoms', 'atoms'));
  return out;
}

/**
 * A chemical formula as pymatgen's `Composition("…")` reads it: element symbols with optional amounts (`Fe2O3`,
 * `Li0.5CoO2`, `Fe2 O3`), groups in () or [] with a multiplier (`Ca3(PO4)2`). One pass over the text.
 */
export function parseFormula(text: string): Map<string, number> {
  const fail = (why: string): never => {
    throw new PhaseDiagramError(`the formula "${printable(text, 40)}" ${why}`);
  };
  if (text.length > LIMITS.tokenChars) fail('is too long');
  const stack: Map<string, number>[] = [new Map()];
  const closers: string[] = [];
  let i = 0;
  const amount = (): number => {
    const m = /^\d*\.?\d+(?:[eE][-+]?\d+)?/.exec(text.slice(i, i + LIMITS.numberChars));
    if (!m) return 1;
    i += m[0].length;
    return Number(m[0]);
  };
  while (i < text.length) {
    const ch = text[i];
    if (ch === ' ') i++;
    else if (ch === '(' || ch === '[') {
      closers.push(ch === '(' ? ')' : ']');
      stack.push(new Map());
      i++;
    } else if (ch === ')' || ch === ']') {
      if (closers.pop() !== ch) fail(`has an unmatched "${ch}"`);
      i++;
      const k = amount();
      const inner = stack.pop()!,
        outer = stack[stack.length - 1];
      for (const [el, v] of inner) outer.set(el, (outer.get(el) ?? 0) + v * k);
    } else if (ch >= 'A' && ch <= 'Z') {
      const two = text.slice(i, i + 2);
      const sym = two.length === 2 && two[1] >= 'a' && two[1] <= 'z' && isElementSymbol(two) ? two : ch;
      if (!isElementSymbol(sym)) fail(`has "${printable(two, 2)}", which is not an element`);
      i += sym.length;
      const top = stack[stack.length - 1];
      top.set(sym, (top.get(sym) ?? 0) + amount());
    } else fail(`has an unexpected "${printable(ch, 1)}" at character ${i + 1}`);
  }
  if (closers.length > 0) fail('has an unclosed bracket');
  return stack[0];
}

/** pymatgen `Composition.reduced_formula` of element → amount (one site per element, in the map's order). */
export function compositionFormula(c: ReadonlyMap<string, number>): string {
  return reducedFormula({
    name: '',
    lattice: null,
    sites: [...c].map(([el, n]) => ({ species: { [el]: n }, xyz: [0, 0, 0] })),
  });
}

/** Fractional composition over `elements` (pymatgen `get_atomic_fraction`). */
function fractions(c: ReadonlyMap<string, number>, elements: readonly string[]): number[] {
  const n = numAtoms(c);
  return elements.map((el) => (c.get(el) ?? 0) / n);
}

/** Exact grouping key of a reduced composition: equal rationals give equal correctly rounded fractions. */
function compositionKey(c: ReadonlyMap<string, number>): string {
  const els = [...c.keys()].sort();
  const n = numAtoms(c);
  return els.map((el) => `${el}:${(c.get(el)! / n).toString()}`).join(' ');
}

const chemsysKey = (els: Iterable<string>): string => [...els].sort().join('-');

/** One phase of a decomposition: the entry and its amount of the fractional composition. */
export interface DecompositionPhase {
  entry: PDEntry;
  amount: number;
}

export interface HullResult {
  /** Phases with amounts > 1e-8, in the order of the system's elements' references then compounds. */
  decomposition: DecompositionPhase[];
  /** Σ amount × energy per atom over the decomposition (pymatgen get_hull_energy_per_atom). */
  hullEnergyPerAtom: number;
}

interface Column {
  entry: PDEntry;
  a: number[];
  /** Formation energy per atom: the LP cost. */
  f: number;
  /** Energy per atom. */
  e: number;
}

/** The lower hull of one chemical system: its candidate columns (references first) and LP state. */
class HullSystem {
  readonly columns: Column[];
  private readonly excluded = new Set<number>();
  private readonly vertex = new Map<number, boolean>();
  constructor(
    readonly elements: string[],
    columns: Column[],
  ) {
    this.columns = columns;
  }

  /** Optimal basis (column indices) and values for composition fractions c, with `skip` left out as well. */
  private solve(c: readonly number[], skip: number): { basis: number[]; x: number[]; value: number } {
    const k = this.elements.length;
    const cols = this.columns;
    const basis = Array.from({ length: k }, (_, r) => r);
    const binv: number[][] = Array.from({ length: k }, (_, r) => Array.from({ length: k }, (_, j) => (r === j ? 1 : 0)));
    const x = c.slice();
    const inBasis = new Set(basis);
    for (let iter = 0; ; iter++) {
      if (iter > 50 * (cols.length + k)) throw new PhaseDiagramError('the hull computation did not converge');
      const y = new Array<number>(k).fill(0);
      for (let r = 0; r < k; r++) {
        const cb = cols[basis[r]].f;
        if (cb !== 0) for (let j = 0; j < k; j++) y[j] += cb * binv[r][j];
      }
      let entering = -1;
      for (let i = 0; i < cols.length; i++) {
        if (inBasis.has(i) || i === skip || this.excluded.has(i)) continue;
        let red = cols[i].f;
        const a = cols[i].a;
        for (let j = 0; j < k; j++) red -= y[j] * a[j];
        if (red < -PRICE_TOL) {
          entering = i;
          break;
        }
      }
      if (entering < 0) break;
      const a = cols[entering].a;
      const d = binv.map((row) => row.reduce((s, v, j) => s + v * a[j], 0));
      let leave = -1,
        best = Infinity;
      for (let r = 0; r < k; r++) {
        if (d[r] <= 1e-12) continue;
        const ratio = Math.max(x[r], 0) / d[r];
        if (ratio < best || (ratio === best && basis[r] < basis[leave])) {
          best = ratio;
          leave = r;
        }
      }
      if (leave < 0) throw new PhaseDiagramError('the hull computation found no bounded step');
      const piv = d[leave];
      for (let r = 0; r < k; r++) if (r !== leave) x[r] -= d[r] * best;
      x[leave] = best;
      const pr = binv[leave].map((v) => v / piv);
      for (let r = 0; r < k; r++) {
        if (r === leave) continue;
        const m = d[r];
        if (m !== 0) for (let j = 0; j < k; j++) binv[r][j] -= m * pr[j];
      }
      binv[leave] = pr;
      inBasis.delete(basis[leave]);
      basis[leave] = entering;
      inBasis.add(entering);
    }
    const xs = solveLinear(
      basis.map((b) => cols[b].a),
      c,
    );
    let value = 0;
    basis.forEach((b, r) => (value += cols[b].f * xs[r]));
    return { basis, x: xs, value };
  }

  /** Whether column i lies below the hull of the other columns by more than VERTEX_TOL (elements always do). */
  private isVertex(i: number): boolean {
    if (i < this.elements.length) return true;
    let v = this.vertex.get(i);
    if (v === undefined) {
      v = this.solve(this.columns[i].a, i).value > this.columns[i].f + VERTEX_TOL;
      this.vertex.set(i, v);
    }
    return v;
  }

  /** The columns that are vertices of the lower hull (the stable phases), elemental references first. */
  vertices(): Column[] {
    return this.columns.filter((_, i) => this.isVertex(i));
  }

  /** The decomposition at fractions c, on hull vertices only. */
  decompose(c: readonly number[]): HullResult {
    for (;;) {
      const { basis, x } = this.solve(c, -1);
      const notVertex = basis.filter((b, r) => Math.abs(x[r]) > NUMERICAL_TOL && !this.isVertex(b));
      if (notVertex.length > 0) {
        for (const b of notVertex) this.excluded.add(b);
        continue;
      }
      const decomposition: DecompositionPhase[] = [];
      let hull = 0;
      basis
        .map((b, r) => ({ b, amount: x[r] }))
        .filter((p) => Math.abs(p.amount) > NUMERICAL_TOL)
        .sort((p, q) => p.b - q.b)
        .forEach(({ b, amount }) => {
          decomposition.push({ entry: this.columns[b].entry, amount });
          hull += this.columns[b].e * amount;
        });
      return { decomposition, hullEnergyPerAtom: hull };
    }
  }
}

/** Solves the k×k system Σ_r x_r cols[r] = c (columns given as rows) by Gaussian elimination with partial pivoting. */
function solveLinear(cols: readonly (readonly number[])[], c: readonly number[]): number[] {
  const k = c.length;
  // m[j] = [coefficients of x_0..x_{k-1} in equation j, rhs]
  const m = Array.from({ length: k }, (_, j) => [...cols.map((col) => col[j]), c[j]]);
  for (let p = 0; p < k; p++) {
    let best = p;
    for (let r = p + 1; r < k; r++) if (Math.abs(m[r][p]) > Math.abs(m[best][p])) best = r;
    [m[p], m[best]] = [m[best], m[p]];
    const piv = m[p][p];
    if (piv === 0) throw new PhaseDiagramError('the hull facet is singular');
    for (let r = p + 1; r < k; r++) {
      const f = m[r][p] / piv;
      if (f !== 0) for (let j = p; j <= k; j++) m[r][j] -= f * m[p][j];
    }
  }
  const x = new Array<number>(k).fill(0);
  for (let p = k - 1; p >= 0; p--) {
    let s = m[p][k];
    for (let j = p + 1; j < k; j++) s -= m[p][j] * x[j];
    x[p] = s / m[p][p];
  }
  return x;
}

/**
 * pymatgen's PhaseDiagram over a set of reference entries. Hulls are built per chemical system on first use and kept.
 * Throws PhaseDiagramError for a non-finite energy or a bad composition (`name(i)` names entry i in the sentence).
 */
export class PhaseDiagram {
  /** Lowest-energy entry per reduced composition, in input order of first appearance. */
  private readonly minEntries: { entry: PDEntry; epa: number; els: string[] }[] = [];
  /** Elemental reference per element. */
  readonly elementalReferences = new Map<string, PDEntry>();
  private readonly refEpa = new Map<string, number>();
  /** Indices into minEntries by chemical system key. */
  private readonly bySystem = new Map<string, number[]>();
  private readonly systems = new Map<string, HullSystem>();

  constructor(entries: readonly PDEntry[], name: (i: number) => string = (i) => `reference entry ${i + 1}`) {
    const byComposition = new Map<string, number>();
    entries.forEach((entry, i) => {
      const composition = checkComposition(name(i), entry.composition);
      if (!Number.isFinite(entry.energy)) throw new PhaseDiagramError(`${name(i)} has energy ${entry.energy}; energies must be finite`);
      const e = { ...entry, composition };
      const epa = e.energy / numAtoms(composition);
      const key = compositionKey(composition);
      const at = byComposition.get(key);
      if (at === undefined) {
        byComposition.set(key, this.minEntries.length);
        this.minEntries.push({ entry: e, epa, els: [...composition.keys()].sort() });
      } else if (epa < this.minEntries[at].epa) this.minEntries[at] = { entry: e, epa, els: this.minEntries[at].els };
    });
    this.minEntries.forEach((m, i) => {
      if (m.els.length === 1) {
        this.elementalReferences.set(m.els[0], m.entry);
        this.refEpa.set(m.els[0], m.epa);
      }
      const key = chemsysKey(m.els);
      const g = this.bySystem.get(key);
      if (g) g.push(i);
      else this.bySystem.set(key, [i]);
    });
  }

  /** The first element of `elements` with no elemental reference, or null. */
  missingReference(elements: Iterable<string>): string | null {
    for (const el of elements) if (!this.refEpa.has(el)) return el;
    return null;
  }

  private checkReferences(what: string, c: ReadonlyMap<string, number>): void {
    const missing = this.missingReference([...c.keys()].sort());
    if (missing !== null) throw new PhaseDiagramError(`${what} has ${missing}, and the reference entries have no entry of pure ${missing}`);
  }

  /** pymatgen get_form_energy_per_atom: (E − Σ nₑₗ ε_ref(el)) / N. */
  formationEnergyPerAtom(entry: PDEntry, what = 'the entry'): number {
    const c = checkComposition(what, entry.composition);
    this.checkReferences(what, c);
    let ref = 0;
    for (const [el, n] of c) ref += n * this.refEpa.get(el)!;
    return (entry.energy - ref) / numAtoms(c);
  }

  private system(els: readonly string[]): HullSystem {
    const key = chemsysKey(els);
    let s = this.systems.get(key);
    if (s) return s;
    const elements = [...els].sort();
    const wanted = new Set(elements);
    const members: number[] = [];
    if (2 ** elements.length <= this.bySystem.size) {
      for (let mask = 1; mask < 2 ** elements.length; mask++)
        members.push(...(this.bySystem.get(chemsysKey(elements.filter((_, j) => mask & (1 << j)))) ?? []));
    } else for (const [k, g] of this.bySystem) if (k.split('-').every((el) => wanted.has(el))) members.push(...g);
    members.sort((a, b) => a - b);
    const refs = elements.map((el) => this.refEpa.get(el)!);
    const column = (entry: PDEntry, epa: number): Column => {
      const a = fractions(entry.composition, elements);
      let ref = 0;
      a.forEach((v, j) => (ref += v * refs[j]));
      return { entry, a, f: epa - ref, e: epa };
    };
    const columns = elements.map((el) => column(this.elementalReferences.get(el)!, this.refEpa.get(el)!));
    for (const i of members) {
      const m = this.minEntries[i];
      if (m.els.length === 1) continue;
      const col = column(m.entry, m.epa);
      if (col.f < -FORMATION_ENERGY_TOL) columns.push(col);
    }
    s = new HullSystem(elements, columns);
    this.systems.set(key, s);
    return s;
  }

  /**
   * The stable phases of the chemical system of `elements` (its subsystems included): the lower hull's vertices, as
   * pymatgen's `PhaseDiagram.stable_entries` of the entries in that system, with their fractions over the sorted
   * elements and formation energies per atom. Throws when an element has no elemental reference.
   */
  stablePhases(elements: readonly string[]): { entry: PDEntry; fractions: number[]; formationEnergyPerAtom: number }[] {
    const missing = this.missingReference(elements);
    if (missing !== null) throw new PhaseDiagramError(`the reference entries have no entry of pure ${missing}`);
    return this.system(elements)
      .vertices()
      .map((c) => ({ entry: c.entry, fractions: c.a.slice(), formationEnergyPerAtom: c.f }));
  }

  /** pymatgen get_decomp_and_hull_energy_per_atom(comp). */
  decomposition(composition: ReadonlyMap<string, number>, what = 'the composition'): HullResult {
    const c = checkComposition(what, composition);
    this.checkReferences(what, c);
    const sys = this.system([...c.keys()]);
    return sys.decompose(fractions(c, sys.elements));
  }

  /**
   * pymatgen get_decomp_and_e_above_hull(entry, allow_negative=True) for an entry not in the diagram: energy per atom
   * minus the hull energy (negative below the hull).
   */
  eAboveHull(entry: PDEntry, what = 'the entry'): HullResult & { eAboveHull: number } {
    if (!Number.isFinite(entry.energy)) throw new PhaseDiagramError(`${what} has energy ${entry.energy}; energies must be finite`);
    const r = this.decomposition(entry.composition, what);
    return { ...r, eAboveHull: entry.energy / numAtoms(checkComposition(what, entry.composition)) - r.hullEnergyPerAtom };
  }
}
