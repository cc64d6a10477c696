/**
 * The geometry of a convex-hull plot of a binary or ternary chemical system (the Generations page draws it): the
 * stable phases of src/core/analysis/phase-diagram.ts with their formation energies per atom, the hull's tie lines
 * between them, generated crystals placed at their compositions, and the projections of compositions onto the plot
 * (binary: the fraction of the second element; ternary: an equilateral triangle). Pure: the page only draws.
 */
import { type PDEntry, PhaseDiagram, PhaseDiagramError, compositionFormula, numAtoms } from './phase-diagram.ts';

/** A point of the plot: a composition (fractions over the system's sorted elements) and its formation energy per atom. */
export interface HullPlotPoint {
  label: string;
  fractions: number[];
  /** eV/atom. */
  formationEnergyPerAtom: number;
  /** Plot coordinates: binary [x, formation energy]; ternary [x, y] in the triangle of unit side. */
  xy: [number, number];
}

export interface HullPlotSample extends HullPlotPoint {
  /** per_sample row of the generated crystal. */
  index: number;
  /** eV/atom (negative below the hull). */
  eAboveHull: number;
}

export interface HullPlotData {
  /** The system's elements, sorted (binary: x is the fraction of elements[1]; ternary: corners 0, 1, 2 as ternaryXY). */
  elements: string[];
  stable: HullPlotPoint[];
  /** Pairs of indices into `stable`: the edges of the lower hull (binary: in order of x). */
  tieLines: [number, number][];
  samples: HullPlotSample[];
}

/** Binary composition → x: the fraction of the second (sorted) element. */
export const binaryX = (fractions: readonly number[]): number => fractions[1];

/** Ternary composition → the triangle of unit side: elements[0] at (0, 0), elements[1] at (1, 0), elements[2] at (½, √3/2). */
export const ternaryXY = (fractions: readonly number[]): [number, number] => [
  fractions[1] + fractions[2] / 2,
  (fractions[2] * Math.sqrt(3)) / 2,
];

/** The plot coordinates of a point of a system of 2 or 3 elements. */
export const plotXY = (fractions: readonly number[], formationEnergyPerAtom: number): [number, number] =>
  fractions.length === 2 ? [binaryX(fractions), formationEnergyPerAtom] : ternaryXY(fractions);

/** Fractions of a composition over `elements` (sorted); null when it has an element outside them. */
export function fractionsIn(composition: ReadonlyMap<string, number>, elements: readonly string[]): number[] | null {
  const n = numAtoms(composition);
  for (const [el, v] of composition) if (v > 0 && !elements.includes(el)) return null;
  if (!(n > 0)) return null;
  return elements.map((el) => (composition.get(el) ?? 0) / n);
}

/**
 * The hull's tie lines: the pairs of stable phases whose midpoint decomposes into exactly those two (an edge of the
 * lower hull holds its midpoint; a chord across a facet or through another phase does not). Where a facet has more
 * than three coplanar vertices the diagonal chosen is the decomposition's, as qhull's triangulation chooses one.
 */
export function tieLines(
  pd: PhaseDiagram,
  elements: readonly string[],
  stable: readonly { entry: PDEntry; fractions: number[] }[],
): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < stable.length; i++)
    for (let j = i + 1; j < stable.length; j++) {
      const mid = new Map(elements.map((el, k) => [el, (stable[i].fractions[k] + stable[j].fractions[k]) / 2]));
      const phases = pd.decomposition(mid).decomposition.map((d) => d.entry);
      if (phases.length === 2 && phases.includes(stable[i].entry) && phases.includes(stable[j].entry)) out.push([i, j]);
    }
  return out;
}

/** Generated crystals to place: composition, total energy (eV) and energy above hull, by per_sample row. */
export interface HullPlotInput {
  index: number;
  label: string;
  composition: ReadonlyMap<string, number>;
  energy: number;
  eAboveHull: number;
}

/**
 * The plot of the chemical system of `elements` (2 or 3 of them): stable phases (binary: sorted by x), tie lines,
 * and those of `samples` whose elements lie in the system, at their formation energies per atom.
 */
export function hullPlotData(pd: PhaseDiagram, elements: readonly string[], samples: readonly HullPlotInput[]): HullPlotData {
  const els = [...elements].sort();
  if (els.length !== 2 && els.length !== 3) throw new PhaseDiagramError(`a hull plot needs 2 or 3 elements, not ${els.length}`);
  const phases = pd.stablePhases(els);
  if (els.length === 2) phases.sort((a, b) => a.fractions[1] - b.fractions[1]);
  const stable = phases.map((p): HullPlotPoint => ({
    label: compositionFormula(p.entry.composition),
    fractions: p.fractions,
    formationEnergyPerAtom: p.formationEnergyPerAtom,
    xy: plotXY(p.fractions, p.formationEnergyPerAtom),
  }));
  const placed: HullPlotSample[] = [];
  for (const s of samples) {
    const fractions = fractionsIn(s.composition, els);
    if (!fractions) continue;
    const f = pd.formationEnergyPerAtom({ composition: s.composition, energy: s.energy });
    placed.push({
      index: s.index,
      label: s.label,
      fractions,
      formationEnergyPerAtom: f,
      xy: plotXY(fractions, f),
      eAboveHull: s.eAboveHull,
    });
  }
  return { elements: els, stable, tieLines: tieLines(pd, els, phases), samples: placed };
}
