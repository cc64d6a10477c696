/** `structlab/structure`: the structure model every area shares (sites, lattice, formulas). */
export {
  type SpeciesMap,
  type Site,
  type Structure,
  makeSiteFromFrac,
  makeSiteFromCart,
  fracOf,
  elementAmounts,
  isOrdered,
} from '../core/structure/structure.ts';
export { Lattice, type LatticeParameters } from '../core/structure/lattice.ts';
export { formula, reducedFormula } from '../core/structure/composition.ts';
export { type ElementData, ELEMENTS, elementBySymbol, elementByNumber } from '../core/structure/elements.ts';
export type { Mat3, Vec3 } from '../core/math/mat3.ts';
