/** The crystallography worker: symmetry panel, symmetrized CIF, powder XRD and lattice planes over core, through comlink. */
import * as Comlink from 'comlink';
import { parseStructureFile } from '../src/core/io/registry.ts';
import { symmetrizedCif } from '../src/core/io/cif-symmetrized.ts';
import { packStructure, packedTransferables, unpackStructure, type PackedStructure } from '../src/core/structure/packed.ts';
import type { Structure } from '../src/core/structure/structure.ts';
import { initMoyo } from '../src/core/symmetry/moyo.ts';
import { symmetryUnavailable } from '../src/core/symmetry/analyze.ts';
import { formula } from '../src/core/structure/composition.ts';
import { buildDisplay, displayTransferables } from '../src/core/analysis/display-scene.ts';
import { xrdPattern } from '../src/core/analysis/xrd.ts';
import { XRD_COMPARE_DEFAULTS, broadenedProfile, comparePatterns, comparisonTransferables } from '../src/core/analysis/xrd-compare.ts';
import { latticePlane } from '../src/core/analysis/planes.ts';
import { environmentView, symmetryView } from '../src/core/tasks/crystallography/lab.ts';
import type { CrystallographyWorkerApi, SourceText, SymmetryPanelData } from './crystallography-api.ts';
import { attempt } from './result.ts';

function periodic(p: PackedStructure): Structure {
  const s = unpackStructure(p);
  if (!s.lattice) throw new Error(`${p.name || 'the structure'} is finite; crystallography needs a periodic structure`);
  return s;
}

/** The symmetry search's failure as the CLI words it. */
function searchFailed(s: Structure, symprec: number): Error {
  const why = symmetryUnavailable(s, symprec);
  return new Error(`symmetry search failed${why ? ` (${why})` : ''}`);
}

async function reread(p: PackedStructure, source: SourceText | null): Promise<Structure> {
  if (!source) return periodic(p);
  await initMoyo();
  const parsed = parseStructureFile(source.text, source.name);
  const again = parsed.ok ? parsed.structures[source.index] : undefined;
  if (!again?.lattice) throw new Error(`${source.name} no longer reads as it did`);
  return again;
}

/** The first periodic structure of a second file the user picked (the XRD and environment overlays). */
async function firstPeriodic(other: SourceText): Promise<Structure> {
  await initMoyo();
  const parsed = parseStructureFile(other.text, other.name);
  if (!parsed.ok) throw new Error(`${other.name}: ${parsed.error}`);
  const second = parsed.structures.find((s) => s.lattice);
  if (!second) throw new Error(`${other.name} holds no periodic structure`);
  return second;
}

const api: CrystallographyWorkerApi = {
  async xrdCompare(p, other, lambda, fwhm) {
    const r = await attempt(async () =>
      comparePatterns(periodic(p), await firstPeriodic(other), { ...XRD_COMPARE_DEFAULTS, lambda, fwhm }),
    );
    return r.ok ? Comlink.transfer(r, comparisonTransferables(r.value)) : r;
  },

  async symmetry(p, symprec) {
    const r = await attempt(async (): Promise<SymmetryPanelData> => {
      await initMoyo();
      const s = periodic(p);
      const view = symmetryView(s, symprec);
      if (!view) throw searchFailed(s, symprec);
      const { primitive, conventional, niggli } = view.cells;
      return {
        ...view,
        cells: { primitive: packStructure(primitive), conventional: packStructure(conventional), niggli: packStructure(niggli) },
        formulas: { primitive: formula(primitive), conventional: formula(conventional), niggli: formula(niggli) },
      };
    });
    return r.ok ? Comlink.transfer(r, Object.values(r.value.cells).flatMap(packedTransferables)) : r;
  },

  async display(p, options) {
    const r = await attempt(() => buildDisplay(p, options));
    return r.ok ? Comlink.transfer(r, displayTransferables(r.value)) : r;
  },

  symmetrizedCif: (p, source, symprec) =>
    attempt(async () => {
      await initMoyo();
      const s = await reread(p, source);
      const cif = symmetrizedCif(s, symprec);
      if (!cif) throw searchFailed(s, symprec);
      const base = (source?.name ?? p.name ?? 'structure').replace(/\.[^./]*$/, '') || 'structure';
      return { fileName: `${base}-symmetrized.cif`, text: cif.text };
    }),

  xrd: (p, lambda, range) => attempt(() => xrdPattern(periodic(p), lambda, range)),

  async profile(peaks, fwhm, step, range) {
    const r = await attempt(() => broadenedProfile(peaks, { fwhm, step, range }));
    return r.ok ? Comlink.transfer(r, [r.value.buffer as ArrayBuffer]) : r;
  },

  environment: (p, method, cutoff, source) =>
    attempt(async () => {
      const again = method === 'crystalnn' && source ? await reread(p, source) : null;
      // The file read again must still be the structure shown: the panel's site numbers are its.
      const s = again && again.sites.length === p.natoms ? again : periodic(p);
      return environmentView(s, cutoff, method);
    }),
  environmentOfFile: (other, method, cutoff) => attempt(async () => environmentView(await firstPeriodic(other), cutoff, method)),

  planes: (p, hkls) =>
    attempt(() => {
      const s = periodic(p);
      return hkls.map((hkl) => latticePlane(s.lattice!, hkl));
    }),
};

Comlink.expose(api);
