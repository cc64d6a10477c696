/** The C2NP teaching worker's interface, shared by the worker and its client (types only). */
import type { FacetLabel } from '../src/core/analysis/facets.ts';
import type { ParticleDiffraction } from '../src/core/analysis/debye.ts';
import type { RadiusSeries } from '../src/core/tasks/c2np/teaching.ts';
import type { Result } from './result.ts';

export type { Result };

export type Split = 'train' | 'ID' | 'OOD';

export interface CrystalInfo {
  name: string;
  formula: string;
  /** Smallest coordination of each element's sites in the bulk crystal (the surface threshold). */
  bulkCoordination: Record<string, number>;
  /** Radii per split in the shipped rotation sets, and each radius's number of quaternions. */
  splits: Record<Split, number[]>;
  rotationsPerRadius: Record<number, number>;
}

export interface RotationChoice {
  /** The radius whose rotation set is used (its split is the set's split). */
  setRadius: number;
  /** 1-based index into that set; 0 = not rotated (rot_0). */
  index: number;
}

export interface ParticleView {
  radius: number;
  natoms: number;
  elements: string[];
  /** Index into `elements` per atom. */
  element: Uint16Array;
  positions: Float32Array;
  coordination: Uint32Array;
  surface: Uint8Array;
  surfaceAtoms: number;
  surfaceFraction: number;
  meanCoordination: number;
  /** Sphere centre after the rotation (rotations turn about the file origin, as C2NP does). */
  center: [number, number, number];
  /** Hull triangles as a flat list of atom indices. */
  hull: Uint32Array;
  /** The hull's facets, largest first (src/core/analysis/facets.ts): Miller label (null: no low-index plane fits). */
  facets: FacetView[];
  coordinationHistogram: number[];
  rdf: { r: number[]; particle: number[]; bulk: number[] };
  /** The quaternion used (x, y, z, w) or null, and its split. */
  quaternion: [number, number, number, number] | null;
  split: Split | null;
  warnings: string[];
}

export type FacetView = FacetLabel;

/** The carved particle's Debye pattern beside the crystal's powder pattern (src/core/analysis/debye.ts). */
export type DiffractionView = ParticleDiffraction & { radius: number };

export interface C2npWorkerApi {
  loadCrystal(text: string, fileName: string): Promise<Result<CrystalInfo>>;
  carve(radius: number, rotation: RotationChoice | null): Promise<Result<ParticleView>>;
  series(onProgress?: (done: number, total: number) => void): Promise<Result<RadiusSeries>>;
  /** Cu Kα, 2θ 10–80°: the last carved particle against its crystal. */
  diffraction(): Promise<Result<DiffractionView>>;
}

/** The slider's range (the C2NP radii) and the largest particle the view accepts. */
export const MIN_RADIUS = 6;
export const MAX_RADIUS = 30;
export const MAX_VIEW_ATOMS = 200_000;
