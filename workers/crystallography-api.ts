/** The crystallography worker's interface (Structure page panels), shared by the worker and its client (types only). */
import type { PatternComparison } from '../src/core/analysis/xrd-compare.ts';
import type { PackedStructure } from '../src/core/structure/packed.ts';
import type { DisplayData, DisplayOptions } from '../src/core/analysis/display-scene.ts';
import type { XrdPattern } from '../src/core/analysis/xrd.ts';
import type { LatticePlane } from '../src/core/analysis/planes.ts';
import type { Vec3 } from '../src/core/math/mat3.ts';
import type { CellChoice, EnvironmentMethod, EnvironmentView, SymmetryView } from '../src/core/tasks/crystallography/lab.ts';
import type { Result } from './result.ts';

/** The Symmetry panel's data; the cells packed for the viewer. */
export interface SymmetryPanelData extends Omit<SymmetryView, 'cells'> {
  cells: Record<Exclude<CellChoice, 'read'>, PackedStructure>;
  /** Each cell's formula as the Structure panel writes the structure's (pymatgen's composition.formula, e.g. "Bi6 Se9"). */
  formulas: Record<Exclude<CellChoice, 'read'>, string>;
}

/** A file's text, read again in the worker so oxidation states survive (packing drops them). */
export interface SourceText {
  name: string;
  text: string;
  index: number;
}

export interface CrystallographyWorkerApi {
  symmetry(p: PackedStructure, symprec: number): Promise<Result<SymmetryPanelData>>;
  /** The scene of one of the cells (built as the session builds the structure's scene). */
  display(p: PackedStructure, options: Partial<DisplayOptions>): Promise<Result<DisplayData>>;
  /** `structlab convert IN OUT.cif --symmetrize` of structure `source.index` (or of `p` without a source). */
  symmetrizedCif(p: PackedStructure, source: SourceText | null, symprec: number): Promise<Result<{ fileName: string; text: string }>>;
  /** `structlab xrd` at wavelength `lambda` Å over `range` (2θ, degrees). */
  xrd(p: PackedStructure, lambda: number, range: [number, number]): Promise<Result<XrdPattern>>;
  /** `structlab xrd-compare` of `p` against the structure in file `other` (its first periodic structure). */
  xrdCompare(p: PackedStructure, other: SourceText, lambda: number, fwhm: number): Promise<Result<PatternComparison>>;
  /** The broadened profile of `peaks` on lo, lo + step, …, hi (docs/crystallography.md §4). */
  profile(peaks: XrdPattern['peaks'], fwhm: number, step: number, range: [number, number]): Promise<Result<Float64Array>>;
  /** The same for the first periodic structure of file `other` (a second structure overlaid in the panel). */
  environmentOfFile(other: SourceText, method: EnvironmentMethod, cutoff: number): Promise<Result<EnvironmentView>>;
  /**
   * `structlab env` of `p` (CrystalNN, or `--cutoff` with method 'cutoff'): coordination, neighbours, bond lengths
   * binned per element pair, RDF. CrystalNN reads `source` again for its oxidation states (ionic radii), as the CLI does.
   */
  environment(p: PackedStructure, method: EnvironmentMethod, cutoff: number, source: SourceText | null): Promise<Result<EnvironmentView>>;
  /** `structlab planes` of the cell of `p`. */
  planes(p: PackedStructure, hkls: Vec3[]): Promise<Result<LatticePlane[]>>;
}
