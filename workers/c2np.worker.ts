/** The C2NP teaching worker: keeps one crystal, carves particles from it on demand and computes the plots' data. */
import * as Comlink from 'comlink';
import rotationSetsText from '../datasets/c2np/rotation_sets.json?raw';
import { parseStructureFile } from '../src/core/io/registry.ts';
import { formula } from '../src/core/structure/composition.ts';
import type { BondOptions } from '../src/core/structure/bonds.ts';
import type { Structure } from '../src/core/structure/structure.ts';
import { initMoyo } from '../src/core/symmetry/moyo.ts';
import { C2NP_RADII } from '../src/core/tasks/c2np/dataset.ts';
import { applyRotation, parseRotationSets, quaternionToMatrix, type RotationSet } from '../src/core/tasks/c2np/rotation.ts';
import {
  analyzeParticle,
  bulkCoordinationByElement,
  coordinationHistogram,
  radiusSeries,
  rdfCurve,
  teachingBondOptions,
  type RadiusSeries,
} from '../src/core/tasks/c2np/teaching.ts';
import {
  MAX_RADIUS,
  MAX_VIEW_ATOMS,
  MIN_RADIUS,
  type C2npWorkerApi,
  type CrystalInfo,
  type ParticleView,
  type Result,
  type Split,
} from './c2np-api.ts';
import { couldNotRead, errorText } from './result.ts';
import { convexHullTriangles } from '../src/core/analysis/hull.ts';
import { facetLabels } from '../src/core/analysis/facets.ts';
import { particleVersusBulk } from '../src/core/analysis/debye.ts';
import type { Mat3 } from '../src/core/math/mat3.ts';

/** C2NP carves from a 20×20×20 supercell. */
const REPEATS = 20;
/** The bulk reference for the RDF: the largest C2NP particle. */
const BULK_RADIUS = 30;

let crystal: Structure | null = null;
let bonds: BondOptions = {};
let bulk: Record<string, number> = {};
let bulkRdf: number[] | null = null;
let series: RadiusSeries | null = null;
let rotationSets: Map<number, RotationSet> | null = null;
/** The last carved particle (its diffraction is asked for after it is shown). */
let lastParticle: { radius: number; symbols: string[]; positions: Float64Array } | null = null;

function sets(): Map<number, RotationSet> {
  rotationSets ??= parseRotationSets(rotationSetsText);
  return rotationSets;
}

const api: C2npWorkerApi = {
  async loadCrystal(text, fileName): Promise<Result<CrystalInfo>> {
    try {
      await initMoyo();
      const parsed = parseStructureFile(text, fileName);
      if (!parsed.ok) return { ok: false, error: couldNotRead(fileName, parsed.error, parsed.line) };
      const s = parsed.structures[0];
      if (!s?.lattice) return { ok: false, error: `${fileName} has no unit cell; only a periodic crystal can be carved.` };
      crystal = s;
      lastParticle = null;
      bonds = teachingBondOptions(s);
      bulk = bulkCoordinationByElement(s, bonds);
      bulkRdf = null;
      series = null;
      const splits: Record<Split, number[]> = { train: [], ID: [], OOD: [] };
      const rotationsPerRadius: Record<number, number> = {};
      for (const [radius, set] of [...sets()].sort((a, b) => a[0] - b[0])) {
        splits[set.split].push(radius);
        rotationsPerRadius[radius] = set.quaternions.length;
      }
      return { ok: true, value: { name: fileName, formula: formula(s), bulkCoordination: bulk, splits, rotationsPerRadius } };
    } catch (e) {
      return { ok: false, error: `Could not prepare ${fileName}: ${errorText(e)}` };
    }
  },

  async carve(radius, rotation): Promise<Result<ParticleView>> {
    if (!crystal) return { ok: false, error: 'Choose a crystal first.' };
    if (!Number.isFinite(radius) || radius < MIN_RADIUS || radius > MAX_RADIUS) {
      return { ok: false, error: `The radius must be between ${MIN_RADIUS} and ${MAX_RADIUS} Å, got ${radius}.` };
    }
    // Refuse huge particles before carving: estimate the count from the crystal's number density.
    const estimate = (crystal.sites.length / crystal.lattice!.volume) * (4 / 3) * Math.PI * radius ** 3;
    if (estimate > MAX_VIEW_ATOMS) {
      return {
        ok: false,
        error:
          `R = ${radius} Å would hold about ${Math.round(estimate).toLocaleString('en')} atoms; the view shows at most ` +
          `${MAX_VIEW_ATOMS.toLocaleString('en')}.`,
      };
    }
    try {
      const a = analyzeParticle(crystal, { radius, repeats: REPEATS }, bonds, bulk);
      let positions = a.positions;
      let center = a.center;
      let quaternion: [number, number, number, number] | null = null;
      let turn: Mat3 | null = null;
      let split: Split | null = sets().get(Math.round(radius))?.split ?? null;
      if (rotation && rotation.index > 0) {
        const set = sets().get(rotation.setRadius);
        const q = set?.quaternions[rotation.index - 1];
        if (!set || !q) return { ok: false, error: `There is no rotation ${rotation.index} in the set for R = ${rotation.setRadius} Å.` };
        const m = quaternionToMatrix(q);
        turn = m;
        positions = applyRotation(m, positions);
        center = applyRotation(m, [center])[0];
        quaternion = [...q] as [number, number, number, number];
        split = set.split;
      }
      if (!bulkRdf) {
        bulkRdf = rdfCurve(analyzeParticle(crystal, { radius: BULK_RADIUS, repeats: REPEATS }, bonds, bulk).positions).density;
      }
      const rdf = rdfCurve(positions);
      const elements = [...new Set(a.symbols)];
      const element = Uint16Array.from(a.symbols, (s) => elements.indexOf(s));
      const flat = new Float32Array(3 * positions.length);
      positions.forEach((p, i) => flat.set(p, 3 * i));
      lastParticle = { radius, symbols: a.symbols, positions: Float64Array.from(positions.flat()) };
      const triangles = convexHullTriangles(positions);
      const hull = Uint32Array.from(triangles);
      const facets = facetLabels(positions, triangles, a.cell, turn);
      const particle: ParticleView = {
        radius,
        natoms: a.stats.natoms,
        elements,
        element,
        positions: flat,
        coordination: a.coordination,
        surface: a.surface,
        surfaceAtoms: a.stats.surfaceAtoms,
        surfaceFraction: a.stats.surfaceFraction,
        meanCoordination: a.stats.meanCoordination,
        center: center as [number, number, number],
        hull,
        facets,
        coordinationHistogram: coordinationHistogram(a.coordination),
        rdf: { r: rdf.r, particle: rdf.density, bulk: bulkRdf },
        quaternion,
        split,
        warnings: a.warnings,
      };
      return Comlink.transfer({ ok: true, value: particle }, [
        flat.buffer,
        element.buffer,
        a.coordination.buffer,
        a.surface.buffer,
        hull.buffer,
      ] as ArrayBuffer[]);
    } catch (e) {
      return { ok: false, error: `Could not carve R = ${radius} Å: ${errorText(e)}` };
    }
  },

  async diffraction() {
    if (!crystal || !lastParticle) return { ok: false, error: 'Carve a particle first.' };
    try {
      const d = particleVersusBulk(lastParticle.symbols, lastParticle.positions, crystal, {
        lambda: 1.54184,
        twoTheta: [10, 80],
        step: 0.05,
      });
      return Comlink.transfer({ ok: true, value: { ...d, radius: lastParticle.radius } }, [
        d.twoTheta.buffer,
        d.particle.buffer,
        d.bulk.buffer,
      ] as ArrayBuffer[]);
    } catch (e) {
      return { ok: false, error: `Could not compute the diffraction pattern: ${errorText(e)}` };
    }
  },

  async series(onProgress) {
    if (!crystal) return { ok: false, error: 'Choose a crystal first.' };
    try {
      const radii = C2NP_RADII;
      series ??= radiusSeries(crystal, radii, { repeats: REPEATS }, bonds, bulk, (_r, done) => {
        void onProgress?.(done, radii.length);
      });
      return { ok: true, value: series };
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },
};

Comlink.expose(api);
