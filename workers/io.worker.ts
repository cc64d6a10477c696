/** The io worker: parse + symmetry + display pipeline over core, exposed through comlink. */
import * as Comlink from 'comlink';
import { parseStructureFile } from '../src/core/io/registry.ts';
import { packStructure, packedTransferables, type PackedStructure, unpackStructure } from '../src/core/structure/packed.ts';
import { formula, reducedFormula } from '../src/core/structure/composition.ts';
import { analyzeSymmetry } from '../src/core/symmetry/analyze.ts';
import { initMoyo } from '../src/core/symmetry/moyo.ts';
import { buildDisplay, displayTransferables, type DisplayOptions } from '../src/core/analysis/display-scene.ts';
import type { IoWorkerApi, ParsedFile, StructureSummary } from './io-api.ts';

type Progress = ((stage: string) => void) | undefined;

const api: IoWorkerApi = {
  async parse(text: string, fileName: string, onProgress?: Progress): Promise<ParsedFile> {
    // The CIF reader expands space groups through moyo, so it must be ready before parsing.
    await initMoyo();
    await onProgress?.(`parsing ${fileName}`);
    const result = parseStructureFile(text, fileName);
    if (!result.ok) return { ok: false, error: result.error, line: result.line };
    const structures: PackedStructure[] = result.structures.map(packStructure);
    return Comlink.transfer(
      { ok: true, format: result.format, warnings: result.warnings, structures },
      structures.flatMap(packedTransferables),
    );
  },

  async summarize(p: PackedStructure, symprec: number, onProgress?: Progress): Promise<StructureSummary> {
    await initMoyo();
    const s = unpackStructure(p);
    let spacegroup: StructureSummary['spacegroup'] = null;
    if (s.lattice) {
      await onProgress?.('finding the space group');
      const sym = analyzeSymmetry(s, symprec);
      if (sym) spacegroup = { number: sym.number, symbol: sym.symbol, hallSymbol: sym.hallSymbol, wyckoffs: sym.wyckoffs, crystalSystem: sym.crystalSystem };
    }
    return { formula: formula(s), reducedFormula: reducedFormula(s), spacegroup };
  },

  async display(p: PackedStructure, options: Partial<DisplayOptions>, onProgress?: Progress) {
    await onProgress?.('building the scene (bonds, images)');
    const d = buildDisplay(p, options);
    return Comlink.transfer(d, displayTransferables(d));
  },
};

Comlink.expose(api);
