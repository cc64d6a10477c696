/** The io worker's interface, shared by the worker and its client (types only). */
import type { FormatId } from '../src/core/io/types.ts';
import type { PackedStructure } from '../src/core/structure/packed.ts';
import type { DisplayData, DisplayOptions } from '../src/core/analysis/display-scene.ts';

export type ParsedFile =
  | { ok: true; format: FormatId; warnings: string[]; structures: PackedStructure[] }
  | { ok: false; error: string; line?: number };

export interface StructureSummary {
  formula: string;
  reducedFormula: string;
  spacegroup: { number: number; symbol: string; hallSymbol: string; crystalSystem: string; wyckoffs: string[] } | null;
}

export interface IoWorkerApi {
  parse(text: string, fileName: string, onProgress?: (stage: string) => void): Promise<ParsedFile>;
  summarize(p: PackedStructure, symprec: number, onProgress?: (stage: string) => void): Promise<StructureSummary>;
  display(p: PackedStructure, options: Partial<DisplayOptions>, onProgress?: (stage: string) => void): Promise<DisplayData>;
}
