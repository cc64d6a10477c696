/** The io worker's interface, shared by the worker and its client (types only). */
import type { FormatId } from '../src/core/io/types.ts';
import type { PackedStructure } from '../src/core/structure/packed.ts';
import type { DisplayData, DisplayOptions } from '../src/core/analysis/display-scene.ts';
import type { Result } from './result.ts';

export type { Result };

/** Formulas are computed on the parsed structures, which keep oxidation states (packing drops them). */
export interface Formulas {
  formula: string;
  reducedFormula: string;
}

export interface ParsedFile {
  format: FormatId;
  warnings: string[];
  structures: PackedStructure[];
  formulas: Formulas[];
}

export type SpaceGroupSummary = {
  number: number;
  symbol: string;
  hallSymbol: string;
  crystalSystem: string;
  /** Wyckoff letter and multiplicity per site (analyzeSymmetry, src/core/symmetry/analyze.ts). */
  wyckoffs: string[];
  multiplicities: number[];
};

export interface SymmetryResult {
  spacegroup: SpaceGroupSummary | null;
  /** Why there is no space group when the search was not made (too many sites), for the notes list. */
  note: string | null;
}

export interface StructureSummary extends Formulas, SymmetryResult {}

export interface IoWorkerApi {
  /** A file that cannot be read answers "Could not read <name>[ line <n>]: <why>". */
  parse(text: string, fileName: string, onProgress?: (stage: string) => void): Promise<Result<ParsedFile>>;
  /**
   * The crystals of a CDVAE/DiffCSP `.pt` result file (src/core/tasks/generations/pt-crystals.ts: every crystal of every
   * eval, as `structlab convert x.pt out.extxyz` writes them) as extended XYZ text named `<name>.extxyz`, which `parse`
   * then reads as a multi-structure file; a bad file answers "Could not read <name>: <why>".
   */
  ptAsText(bytes: Uint8Array, fileName: string, onProgress?: (stage: string) => void): Promise<Result<{ name: string; text: string }>>;
  symmetry(p: PackedStructure, symprec: number, onProgress?: (stage: string) => void): Promise<Result<SymmetryResult>>;
  display(p: PackedStructure, options: Partial<DisplayOptions>, onProgress?: (stage: string) => void): Promise<Result<DisplayData>>;
  /**
   * Structure k of `source` (the file's text, read again so oxidation states and per-site columns survive; null: `p` itself)
   * written in `format`, as read or, with `supercell`, as the viewer draws it (src/core/analysis/structure-export.ts).
   */
  exportStructure(
    p: PackedStructure,
    source: { name: string; text: string; index: number } | null,
    format: FormatId,
    supercell: [number, number, number] | null,
  ): Promise<Result<{ fileName: string; text: string }>>;
}
