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
import { carveParticle } from '../src/core/tasks/c2np/carve.ts';
import { fccOfCrystal, fillWulff } from '../src/core/tasks/c2np/shapes.ts';
import { type ShapeParticle, particleSites, shapeParticle, sizeSeries } from '../src/core/tasks/c2np/size-series.ts';
import type { SurfaceEnergy } from '../src/core/structure/clusters/surface-energies.ts';
import { type WulffShape, wulffShapeOf } from '../src/core/tasks/c2np/wulff-crystal.ts';
import type { Vec3 } from '../src/core/math/mat3.ts';
import {
  MAX_RADIUS,
  MAX_VIEW_ATOMS,
  MIN_RADIUS,
  type C2npWorkerApi,
  type CrystalInfo,
  type ParticleView,
  type Result,
  type ShapeSpec,
  type Split,
  type ViewRole,
  type WulffView,
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
/** Bumped with every crystal: a Wulff shape's key names the crystal it was built from. */
let crystalLoads = 0;

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
      crystalLoads++;
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
      let fcc: CrystalInfo['fcc'] = null;
      let aseRefusal: string | null = null;
      try {
        fcc = fccOfCrystal(s);
      } catch (e) {
        aseRefusal = errorText(e);
      }
      return {
        ok: true,
        value: { name: fileName, formula: formula(s), bulkCoordination: bulk, splits, rotationsPerRadius, fcc, aseRefusal },
      };
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
        shape: 'sphere',
        parameters: { radius },
        magic: false,
        siteClass: null,
        wulff: null,
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

  async build(spec, role) {
    if (!crystal) return { ok: false, error: 'Choose a crystal first.' };
    try {
      return transferView(shapeView(crystal, spec, role));
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },

  async sphereNear(natoms) {
    if (!crystal) return { ok: false, error: 'Choose a crystal first.' };
    try {
      return transferView(sphereView(crystal, natoms));
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },

  async sizeSeries(spec, sizes, onProgress) {
    if (!crystal) return { ok: false, error: 'Choose a crystal first.' };
    try {
      const members = sizeSeries(
        spec.shape,
        sizes,
        { crystal },
        { energies: spec.energies, r: spec.r, cutoff: spec.cutoff },
        (done, total) => {
          void onProgress?.(done, total);
        },
      );
      // The polyhedron's own fractions, from the crystal as read (`structlab series` writes the same).
      const areaFractions =
        spec.shape === 'wulff'
          ? Object.fromEntries(wulffShapeOf(crystal, spec.energies ?? []).families.map((f) => [f.label, f.areaFraction]))
          : null;
      return { ok: true, value: { members, areaFractions } };
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  },
};

/** The view's buffers are handed over, not copied. */
function transferView(view: ParticleView): Result<ParticleView> {
  const buffers = [view.positions, view.element, view.coordination, view.surface, view.hull, view.siteClass, view.wulff?.vertices];
  return Comlink.transfer(
    { ok: true, value: view },
    buffers.filter((b) => b !== null && b !== undefined).map((b) => b.buffer as ArrayBuffer),
  );
}

/** The polyhedron of a filled Wulff particle for drawing; `energies` name it (with the crystal) in its key. */
function wulffView(shape: WulffShape, energies: readonly SurfaceEnergy[], center: Vec3, scale: number): WulffView {
  return {
    key: JSON.stringify([crystalLoads, shape.symmetry, energies]),
    vertices: Float32Array.from(shape.vertices.flat()),
    faces: shape.faces.map((f) => ({ family: f.family, corners: [...f.vertices] })),
    families: shape.families.map((f) => ({ label: f.label, energy: f.energy, areaFraction: f.areaFraction, onShape: f.onShape })),
    center: [center[0], center[1], center[2]],
    scale,
    pointGroup: shape.pointGroup,
    warnings: shape.warnings,
  };
}

/** The particle of `spec` (core's shapes), analysed as the size series analyses it; the main view's feeds the diffraction. */
function shapeView(s: Structure, spec: ShapeSpec, role: ViewRole): ParticleView {
  const energies = spec.energies ?? [];
  let particle: ShapeParticle;
  let wulff: WulffView | null = null;
  let center: Vec3 | null = null;
  if (spec.shape === 'wulff') {
    // fillWulff itself, not shapeParticle: its polyhedron, centre and scale are drawn with the atoms.
    const p = fillWulff(s, energies, { size: spec.size });
    particle = {
      symbols: p.symbols,
      positions: p.positions,
      parameters: { size: spec.size, scale: p.scale },
      magic: false,
      cell: p.cell,
      shape: 'wulff',
      warnings: p.warnings,
    };
    wulff = wulffView(p.shape, energies, p.center, p.scale);
    center = p.center;
  } else {
    particle = shapeParticle(spec.shape, spec.size, { crystal: s }, { energies, r: spec.r, cutoff: spec.cutoff });
  }
  const view = particleViewOf(s, particle, energies, center, wulff);
  if (role === 'main') {
    lastParticle = {
      radius: spec.shape === 'sphere' ? spec.size : 0,
      symbols: particle.symbols,
      positions: Float64Array.from(particle.positions.flat()),
    };
  }
  return view;
}

/** The C2NP sphere whose count is nearest `natoms` (the smaller on a tie): every distance from the centre sorted once. */
function sphereView(s: Structure, natoms: number): ParticleView {
  if (!Number.isInteger(natoms) || natoms < 1) throw new Error(`The atom count must be a whole number of at least 1, got ${natoms}.`);
  const density = s.sites.length / s.lattice!.volume;
  let reach = Math.cbrt((3 * natoms) / (4 * Math.PI * density)) * 1.3 + 2;
  for (;;) {
    const p = carveParticle(s, { radius: reach, repeats: REPEATS });
    if (p.positions.length <= natoms) {
      reach *= 1.5;
      continue;
    }
    const d = p.positions.map((x) => Math.hypot(x[0] - p.center[0], x[1] - p.center[1], x[2] - p.center[2])).sort((a, b) => a - b);
    // Closed spheres end where the next distance is larger; the carve keeps |r − c| < R, so R is halfway to the next shell.
    let best = { count: 0, radius: d[0] / 2 };
    for (let i = 0; i < d.length - 1; i++) {
      if (d[i + 1] - d[i] <= 1e-6) continue;
      const candidate = { count: i + 1, radius: (d[i] + d[i + 1]) / 2 };
      const closer = Math.abs(candidate.count - natoms) < Math.abs(best.count - natoms);
      if (closer || best.count === 0) best = candidate;
      if (candidate.count >= natoms) break;
    }
    const particle = shapeParticle('sphere', best.radius, { crystal: s });
    return particleViewOf(s, particle, [], p.center, null);
  }
}

/** A shape particle as the page draws it: coordination, surface and site classes (core's), hull, facets and RDF. */
function particleViewOf(
  s: Structure,
  particle: ShapeParticle,
  energies: readonly SurfaceEnergy[],
  centre: Vec3 | null,
  wulff: WulffView | null,
): ParticleView {
  const { positions, symbols } = particle;
  if (positions.length > MAX_VIEW_ATOMS)
    throw new Error(
      `The particle has ${positions.length.toLocaleString('en')} atoms; the view shows at most ${MAX_VIEW_ATOMS.toLocaleString('en')}.`,
    );
  // The energies name a Wulff particle's facet families (core's labeler); the sphere's and ASE's need none.
  const sites = particleSites(particle, { crystal: s }, { energies });
  const n = positions.length;
  const center = centre ?? centroid(positions);
  if (!bulkRdf) bulkRdf = rdfCurve(analyzeParticle(s, { radius: BULK_RADIUS, repeats: REPEATS }, bonds, bulk).positions).density;
  const rdf = rdfCurve(positions);
  const elements = [...new Set(symbols)];
  const element = Uint16Array.from(symbols, (x) => elements.indexOf(x));
  const flat = Float32Array.from(positions.flat());
  const triangles = n >= 4 ? convexHullTriangles(positions) : [];
  let surfaceAtoms = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    surfaceAtoms += sites.surface[i];
    total += sites.coordination[i];
  }
  return {
    radius: particle.parameters.radius ?? 0,
    natoms: n,
    elements,
    element,
    positions: flat,
    coordination: sites.coordination,
    surface: sites.surface,
    surfaceAtoms,
    surfaceFraction: n ? surfaceAtoms / n : 0,
    meanCoordination: n ? total / n : 0,
    center,
    hull: Uint32Array.from(triangles),
    facets: triangles.length ? facetLabels(positions, triangles, particle.cell, null) : [],
    coordinationHistogram: coordinationHistogram(sites.coordination),
    rdf: { r: rdf.r, particle: rdf.density, bulk: bulkRdf },
    quaternion: null,
    split: null,
    warnings: particle.warnings,
    shape: particle.shape,
    parameters: particle.parameters,
    magic: particle.magic,
    siteClass: sites.siteClass,
    wulff,
  };
}

function centroid(positions: readonly Vec3[]): [number, number, number] {
  const c: [number, number, number] = [0, 0, 0];
  for (const p of positions) for (let k = 0; k < 3; k++) c[k] += p[k] / positions.length;
  return c;
}

Comlink.expose(api);
