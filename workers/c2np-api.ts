/** The C2NP teaching worker's interface, shared by the worker and its client (types only). */
import type { FacetLabel } from '../src/core/analysis/facets.ts';
import type { ParticleDiffraction } from '../src/core/analysis/debye.ts';
import type { RadiusSeries } from '../src/core/tasks/c2np/teaching.ts';
import type { SurfaceEnergy } from '../src/core/structure/clusters/surface-energies.ts';
import type { SeriesMember, SeriesShape } from '../src/core/tasks/c2np/size-series.ts';
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
  /** A one-element fcc crystal's element and conventional a (ASE's shapes are built from it), else null. */
  fcc: { element: string; latticeConstant: number } | null;
  /** Why ASE's shapes (icosahedron, decahedron, octahedron, cuboctahedron) cannot be built from it: core's sentence. */
  aseRefusal: string | null;
}

/** The shapes the page builds: C2NP's sphere, a Wulff polyhedron, and ASE's closed-shell clusters. */
export type ParticleShape = SeriesShape;

/**
 * One particle of a shape. `size` is core's (src/core/tasks/c2np/size-series.ts SIZE_PARAMETER): the radius (Å), the
 * atoms wanted (Wulff), ASE's noshells (icosahedron, cuboctahedron), p = q (decahedron) or the edge length (octahedron).
 */
export interface ShapeSpec {
  shape: ParticleShape;
  size: number;
  /** Wulff: the surface energies. */
  energies?: SurfaceEnergy[];
  /** Decahedron: the Marks re-entrance. */
  r?: number;
  /** Octahedron: the corner cutoff. */
  cutoff?: number;
}

/** The Wulff polyhedron of a filled particle, for drawing: corners at unit scale about the origin, placed by center + scale·v. */
export interface WulffView {
  /** Equal keys: the same polyhedron (its GPU buffers are kept; only its placement changes). */
  key: string;
  /** Corners, 3 per corner (units of γ). */
  vertices: Float32Array;
  /** Each face's family and corners (indices into `vertices`), counter-clockwise seen from outside. */
  faces: { family: number; corners: number[] }[];
  families: { label: string; energy: number; areaFraction: number; onShape: boolean }[];
  center: [number, number, number];
  /** Å per unit of γ. */
  scale: number;
  pointGroup: string;
  warnings: string[];
}

/** A size series and, for Wulff, the polyhedron's area fractions (core's wulffShapeOf, as `structlab series`). */
export interface SizeSeriesResult {
  members: SeriesMember[];
  areaFractions: Record<string, number> | null;
}

/** Where a particle goes: the main view (its diffraction follows) or the side-by-side view. */
export type ViewRole = 'main' | 'compare';

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
  shape: ParticleShape;
  /** The shape's parameters as built (shells, p/q/r, length/cutoff, size and scale, radius). */
  parameters: Record<string, number>;
  /** A closed-shell (magic) size. */
  magic: boolean;
  /** Index into SITE_CLASSES (bulk, face, edge, vertex, recessed) per atom; null for the C2NP sphere. */
  siteClass: Uint8Array | null;
  wulff: WulffView | null;
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
  /** A particle of `spec` for the main or the side-by-side view. */
  build(spec: ShapeSpec, role: ViewRole): Promise<Result<ParticleView>>;
  /** The C2NP sphere (as carved, not rotated) whose atom count is nearest `natoms`, for the side-by-side view. */
  sphereNear(natoms: number): Promise<Result<ParticleView>>;
  /** The size series of `spec`'s shape over `sizes` (core's sizeSeries), one report per member. */
  sizeSeries(
    spec: Omit<ShapeSpec, 'size'>,
    sizes: number[],
    onProgress?: (done: number, total: number) => void,
  ): Promise<Result<SizeSeriesResult>>;
}

/** The slider's range (the C2NP radii) and the largest particle the view accepts. */
export const MIN_RADIUS = 6;
export const MAX_RADIUS = 30;
export const MAX_VIEW_ATOMS = 200_000;
