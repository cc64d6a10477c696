/** The io worker: parse + symmetry + display pipeline over core, exposed through comlink. */
import * as Comlink from 'comlink';
import { parseStructureFile, writeStructureFile } from '../src/core/io/registry.ts';
import { readTorchPt } from '../src/core/io/torch-pt.ts';
import { ptItems } from '../src/core/tasks/generations/pt-crystals.ts';
import { packStructure, packedTransferables, type PackedStructure, unpackStructure } from '../src/core/structure/packed.ts';
import { initMoyo } from '../src/core/symmetry/moyo.ts';
import { buildDisplay, displayTransferables, type DisplayData, type DisplayOptions } from '../src/core/analysis/display-scene.ts';
import { structureAsShown, writeExport } from '../src/core/analysis/structure-export.ts';
import type { IoWorkerApi, ParsedFile, Result } from './io-api.ts';
import { formulasOf, symmetrySummary } from './structure-summary.ts';
import { attempt, couldNotRead, errorText } from './result.ts';

type Progress = ((stage: string) => void) | undefined;

const api: IoWorkerApi = {
  async parse(text: string, fileName: string, onProgress?: Progress): Promise<Result<ParsedFile>> {
    try {
      // The CIF reader expands space groups through moyo, so it must be ready before parsing.
      await initMoyo();
      await onProgress?.(`parsing ${fileName}`);
      const result = parseStructureFile(text, fileName);
      if (!result.ok) return { ok: false, error: couldNotRead(fileName, result.error, result.line) };
      const structures: PackedStructure[] = result.structures.map(packStructure);
      const formulas = result.structures.map(formulasOf);
      // Transfer marks the answer object itself, so the Result is what is marked.
      return Comlink.transfer(
        { ok: true, value: { format: result.format, warnings: result.warnings, structures, formulas } },
        structures.flatMap(packedTransferables),
      );
    } catch (e) {
      return { ok: false, error: couldNotRead(fileName, errorText(e)) };
    }
  },

  async ptAsText(bytes: Uint8Array, fileName: string, onProgress?: Progress): Promise<Result<{ name: string; text: string }>> {
    try {
      await onProgress?.(`reading the tensors of ${fileName}`);
      const items = ptItems(readTorchPt(bytes, fileName), fileName, 'predictions');
      // One frame per crystal, tagged id= (batch index, i__k for eval k) as the CLI's convert writes them.
      const text = items.map((it) => writeStructureFile({ ...it.structure, name: it.id, properties: { id: it.id } }, 'x.extxyz')).join('');
      return { ok: true, value: { name: `${fileName}.extxyz`, text } };
    } catch (e) {
      return { ok: false, error: couldNotRead(fileName, errorText(e).replace(/\.\s*$/, '')) };
    }
  },

  symmetry: (p: PackedStructure, symprec: number, onProgress?: Progress) =>
    attempt(() => symmetrySummary(unpackStructure(p), symprec, onProgress)),

  async display(p: PackedStructure, options: Partial<DisplayOptions>, onProgress?: Progress): Promise<Result<DisplayData>> {
    try {
      await onProgress?.('building the scene (bonds, images)');
      const d = buildDisplay(p, options);
      return Comlink.transfer({ ok: true, value: d }, displayTransferables(d));
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },

  exportStructure: (p, source, format, supercell) =>
    attempt(async () => {
      let s = unpackStructure(p);
      if (source) {
        await initMoyo();
        const parsed = parseStructureFile(source.text, source.name);
        const again = parsed.ok ? parsed.structures[source.index] : undefined;
        if (!again) throw new Error(`${source.name} no longer reads as it did`);
        s = again;
      }
      return writeExport(supercell ? structureAsShown(s, supercell) : s, format, source?.name ?? p.name);
    }),
};

Comlink.expose(api);
