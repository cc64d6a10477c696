/** Display buffers for a finite set of atoms (a nanoparticle): atoms only, no cell, bonds or polyhedra. */
import type { DisplayData } from '../core/analysis/display-scene.ts';
import type { OverlayGeometry } from '../core/tasks/atomworld/lab/overlay.ts';

export function finiteDisplay(elements: string[], element: Uint16Array, positions: Float32Array): DisplayData {
  const natoms = element.length;
  const empty32 = new Float32Array(0);
  return {
    natoms,
    elements,
    positions,
    element,
    site: Uint32Array.from({ length: natoms }, (_, i) => i),
    cellOffset: new Int16Array(3 * natoms),
    nimages: 0,
    bondStart: empty32,
    bondEnd: empty32,
    bondElements: new Uint16Array(0),
    nbonds: 0,
    polyTriangles: empty32,
    polyElement: new Uint16Array(0),
    cell: null,
    supercell: [1, 1, 1],
    notes: [],
  };
}

/** The overlay's target atoms in its cell, with every element of both sides in the legend (AtomWorld, Generations). */
export function overlayTargetDisplay(overlay: OverlayGeometry): DisplayData {
  const elements = [...new Set([...overlay.targetSymbols, ...overlay.answerSymbols])];
  const d = finiteDisplay(
    elements,
    Uint16Array.from(overlay.targetSymbols, (e) => elements.indexOf(e)),
    Float32Array.from(overlay.targetCart.flat()),
  );
  return { ...d, cell: Float64Array.from(overlay.cell.flat()) };
}
