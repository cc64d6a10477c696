/**
 * The nanoparticle (C2NP teaching) page's store: the chosen crystal, radius, colouring, overlays, rotation,
 * and the worker's results. Its own worker (workers/c2np.worker.ts) does all carving and analysis.
 */
import { create } from 'zustand';
import type { RadiusSeries } from '../core/tasks/c2np/teaching.ts';
import type { SeriesMember } from '../core/tasks/c2np/size-series.ts';
import type { SurfaceEnergy } from '../core/structure/clusters/surface-energies.ts';
import type { C2npWorkerApi, CrystalInfo, DiffractionView, ParticleShape, ParticleView, ShapeSpec, Split } from '../../workers/c2np-api.ts';
import { MAX_RADIUS, MIN_RADIUS } from '../../workers/c2np-api.ts';
import { type Status, WorkerClient } from './worker-client.ts';
import {
  DEFAULT_SIZES,
  type EnergyRow,
  SHAPES,
  coreSize,
  defaultEnergyRows,
  energiesOf,
  parseSizes,
  sentence,
} from './nanoparticle-shapes.ts';

export type ColorMode = 'element' | 'coordination' | 'site';

/** What the side-by-side view shows beside the particle: another member of the series, or the other shape at the same N. */
export type CompareMode = 'off' | 'member' | 'sphere' | 'wulff';

/** A computed size series: the request it answers (page and core sizes) and its members, one per size. */
export interface SizeSeriesState {
  spec: Omit<ShapeSpec, 'size'>;
  /** The sizes as the page counts them (shells around the centre atom, edge atoms, atoms, Å). */
  pageSizes: number[];
  /** Core's sizes (ASE's noshells, p, L, atoms, radius): the CSV's and JSON's `size`. */
  sizes: number[];
  members: SeriesMember[];
  /** Wulff: the polyhedron's area fraction per family (core's wulffShapeOf). */
  areaFractions: Record<string, number> | null;
  /** The crystal's name, as the JSON's `source`. */
  source: string;
}

export interface NanoparticleState {
  dataset: string;
  crystal: CrystalInfo | null;
  radius: number;
  colorMode: ColorMode;
  showSphere: boolean;
  showHull: boolean;
  split: Split;
  /** 0 = not rotated; k ≥ 1 = the k-th quaternion of the chosen split's set. */
  rotation: number;
  particle: ParticleView | null;
  /** The particle's Debye pattern beside the crystal's, computed after the particle is shown. */
  diffraction: DiffractionView | null;
  series: RadiusSeries | null;
  /** Progress of the per-radius series, e.g. "7 / 25". */
  seriesProgress: string | null;
  busy: string | null;
  error: string | null;
  /** Bumped when the camera should refit (new crystal or a new rotation). */
  fitToken: number;
  /** The particle's shape (sphere: C2NP's carve, the radius and rotation above). */
  shape: ParticleShape;
  /** Each shape's size in page units (shells around the centre atom, atoms on an edge, atoms); the sphere uses `radius`. */
  sizes: Record<ParticleShape, number>;
  /** Decahedron: Marks re-entrance r; octahedron: corner cutoff. */
  decahedronR: number;
  octahedronCutoff: number;
  /** The surface-energy table as typed, and the sentence of what is wrong with it (null: it is valid). */
  energyRows: EnergyRow[];
  energiesError: string | null;
  showWulff: boolean;
  /** The size series' sizes as typed (page units). */
  seriesSizes: string;
  sizeSeries: SizeSeriesState | null;
  /** "3 / 5" while a size series is computed. */
  sizeSeriesProgress: string | null;
  /** The member shown (an index into sizeSeries.members), −1: the particle is not one of them. */
  seriesIndex: number;
  compare: CompareMode;
  /** The member the side-by-side view shows (compare 'member'). */
  compareIndex: number;
  compareParticle: ParticleView | null;
}

export const useNanoparticle = create<NanoparticleState>(() => ({
  dataset: '',
  crystal: null,
  radius: 8,
  colorMode: 'element',
  showSphere: false,
  showHull: false,
  split: 'train',
  rotation: 0,
  particle: null,
  diffraction: null,
  series: null,
  seriesProgress: null,
  busy: null,
  error: null,
  fitToken: 0,
  shape: 'sphere',
  sizes: { sphere: 8, wulff: 500, icosahedron: 3, decahedron: 3, octahedron: 5, cuboctahedron: 3 },
  decahedronR: 0,
  octahedronCutoff: 0,
  energyRows: defaultEnergyRows(false),
  energiesError: null,
  showWulff: true,
  seriesSizes: DEFAULT_SIZES.sphere,
  sizeSeries: null,
  sizeSeriesProgress: null,
  seriesIndex: -1,
  compare: 'off',
  compareIndex: 0,
  compareParticle: null,
}));

// Vite needs the `new URL(..., import.meta.url)` inline to bundle the worker.
const client = new WorkerClient<C2npWorkerApi>(
  () => new Worker(new URL('../../workers/c2np.worker.ts', import.meta.url), { type: 'module', name: 'structlab-c2np' }),
);

/** A crystal load and a carve supersede only their own kind: a new radius never drops the crystal's series. */
const CRYSTAL_LANE = 'crystal';
const CARVE_LANE = 'carve';
/** The diffraction of a particle is dropped when another particle is carved. */
const DIFFRACTION_LANE = 'diffraction';
/** A size series and the side-by-side particle: each only supersedes its own kind. */
const SERIES_LANE = 'size-series';
const COMPARE_LANE = 'compare';

const setStatus = (patch: Status) => useNanoparticle.setState(patch);

/** The radius whose rotation set serves `split`: the current radius if it belongs to it, else the nearest one that does. */
export function setRadiusFor(crystal: CrystalInfo, split: Split, radius: number): number | null {
  const radii = crystal.splits[split];
  if (!radii.length) return null;
  const r = Math.round(radius);
  return radii.reduce((best, x) => (Math.abs(x - r) < Math.abs(best - r) ? x : best), radii[0]);
}

export async function loadCrystal(name: string, text: string): Promise<void> {
  const ticket = client.begin(CRYSTAL_LANE);
  useNanoparticle.setState({ dataset: name, series: null, seriesProgress: null });
  const failed = (message: string, thrown: unknown) => {
    useNanoparticle.setState({ seriesProgress: null });
    return thrown === undefined ? message : `Could not prepare ${name}: ${message}`;
  };
  const loaded = await client.request((w) => w.loadCrystal(text, name), {
    ticket,
    status: setStatus,
    busy: `reading ${name}`,
    error: failed,
  });
  if (!loaded?.ok) return;
  const crystal = loaded.value;
  // Energies belong to a material: a new crystal starts from its own defaults; ASE's shapes need an fcc one.
  const ase = SHAPES.find((x) => x.id === useNanoparticle.getState().shape)?.ase ?? false;
  useNanoparticle.setState((s) => ({
    crystal,
    particle: null,
    compareParticle: null,
    sizeSeries: null,
    seriesIndex: -1,
    energyRows: defaultEnergyRows(crystal.fcc !== null),
    energiesError: null,
    ...(ase && crystal.aseRefusal ? { shape: 'sphere' as const, compare: 'off' as const } : {}),
    // The series went with the old crystal, and with it the member beside the particle.
    ...(s.compare === 'member' ? { compare: 'off' as const } : {}),
    fitToken: s.fitToken + 1,
  }));
  await showParticle(true);
  if (!ticket.current) return;
  useNanoparticle.setState({ seriesProgress: `0 / 25` });
  // Each radius reported renews the worker's time budget: the budget bounds one radius, not the series.
  const series = await client.request(
    (w, progress) =>
      w.series(progress((done: number, total: number) => useNanoparticle.setState({ seriesProgress: `${done} / ${total}` }))),
    { ticket, status: setStatus, keepBusy: true, error: (message) => failed(message, true) },
  );
  if (series?.ok) useNanoparticle.setState({ series: series.value, seriesProgress: null });
}

/** Shows the particle of the current shape and size: C2NP's carve for a sphere, else the shape's builder. */
export async function showParticle(refit = false): Promise<void> {
  const { shape, sizes } = useNanoparticle.getState();
  if (shape === 'sphere') return carve(refit);
  const spec = shapeSpec(shape, coreSize(shape, sizes[shape]));
  if (spec) await buildMain(spec, refit);
}

/** The request for `shape` at core size `size` from the page's settings; null (and the error shown) when the energies are bad. */
function shapeSpec(shape: ParticleShape, size: number): ShapeSpec | null {
  const s = useNanoparticle.getState();
  const spec: ShapeSpec = { shape, size };
  if (shape === 'wulff') {
    const energies = currentEnergies();
    if (!energies) return null;
    spec.energies = energies;
  }
  if (shape === 'decahedron') spec.r = s.decahedronR;
  if (shape === 'octahedron') spec.cutoff = s.octahedronCutoff;
  return spec;
}

/** The table's energies, or null with its sentence shown. */
function currentEnergies(): SurfaceEnergy[] | null {
  const read = energiesOf(useNanoparticle.getState().energyRows);
  if ('error' in read) {
    useNanoparticle.setState({ energiesError: read.error, error: read.error });
    return null;
  }
  useNanoparticle.setState({ energiesError: null });
  return read.energies;
}

const shapeName = (spec: ShapeSpec): string => SHAPES.find((x) => x.id === spec.shape)?.label.split(' (')[0] ?? spec.shape;

/** Builds `spec` for the main view (the diffraction follows); `refit` moves the camera onto it. */
async function buildMain(spec: ShapeSpec, refit: boolean): Promise<void> {
  const result = await client.request((w) => w.build(spec, 'main'), {
    lane: CARVE_LANE,
    status: setStatus,
    busy: `building the ${shapeName(spec)}`,
    error: (message, thrown) => sentence(thrown === undefined ? message : `could not build the ${shapeName(spec)}: ${message}`),
  });
  if (!result?.ok) return;
  await shown(result.value, refit, `the ${shapeName(spec)}`);
}

/** Puts a new particle in the store, refreshes the side-by-side view, then computes its diffraction. */
async function shown(particle: ParticleView, refit: boolean, what: string): Promise<void> {
  useNanoparticle.setState((s) => ({ particle, diffraction: null, fitToken: s.fitToken + (refit ? 1 : 0) }));
  // The other shape at the same N follows the particle; a series member beside it stays as chosen.
  const { compare } = useNanoparticle.getState();
  if (compare === 'sphere' || compare === 'wulff') void refreshCompare();
  const diffraction = await client.request((w) => w.diffraction(), {
    lane: DIFFRACTION_LANE,
    status: setStatus,
    busy: `diffraction of ${what}`,
  });
  if (diffraction?.ok) useNanoparticle.setState({ diffraction: diffraction.value });
}

/** Carves the particle for the current radius and rotation; `refit` moves the camera onto it. */
export async function carve(refit = false): Promise<void> {
  const { crystal, radius, split, rotation } = useNanoparticle.getState();
  if (!crystal) return;
  const setRadius = setRadiusFor(crystal, split, radius);
  const result = await client.request((w) => w.carve(radius, rotation > 0 && setRadius !== null ? { setRadius, index: rotation } : null), {
    lane: CARVE_LANE,
    status: setStatus,
    busy: `carving R = ${radius} Å`,
    error: (message, thrown) => (thrown === undefined ? message : `Could not carve: ${message}`),
  });
  if (!result?.ok) return;
  await shown(result.value, refit, `R = ${radius} Å`);
}

export function setRadius(value: number): void {
  if (!Number.isFinite(value) || value < MIN_RADIUS || value > MAX_RADIUS) {
    useNanoparticle.setState({ error: `The radius must be between ${MIN_RADIUS} and ${MAX_RADIUS} Å.` });
    return;
  }
  const { crystal, split, rotation } = useNanoparticle.getState();
  // Keep the rotation index inside the (possibly different) set of the new radius.
  const setRadius = crystal ? setRadiusFor(crystal, split, value) : null;
  const max = crystal && setRadius !== null ? crystal.rotationsPerRadius[setRadius] : 0;
  const series = useNanoparticle.getState().sizeSeries;
  const seriesIndex = series?.spec.shape === 'sphere' ? series.pageSizes.indexOf(value) : -1;
  useNanoparticle.setState({ radius: value, rotation: Math.min(rotation, max), seriesIndex });
  // Refit so the growing or shrinking particle stays framed.
  void carve(true);
}

export function setRotation(split: Split, index: number): void {
  useNanoparticle.setState({ split, rotation: Math.max(0, Math.floor(index) || 0) });
  void carve(true);
}

export const setColorMode = (colorMode: ColorMode) => useNanoparticle.setState({ colorMode });
export const setShowSphere = (showSphere: boolean) => useNanoparticle.setState({ showSphere });
export const setShowHull = (showHull: boolean) => useNanoparticle.setState({ showHull });

/** A new shape: its own size and series sizes; the series and a side-by-side view that no longer applies go. */
export function setShape(shape: ParticleShape): void {
  const { compare } = useNanoparticle.getState();
  const keep = compare === 'off' || (compare === 'sphere' && shape !== 'sphere') || (compare === 'wulff' && shape !== 'wulff');
  useNanoparticle.setState({
    shape,
    seriesSizes: DEFAULT_SIZES[shape],
    sizeSeries: null,
    sizeSeriesProgress: null,
    seriesIndex: -1,
    compare: keep ? compare : 'off',
    compareParticle: keep ? useNanoparticle.getState().compareParticle : null,
    error: null,
  });
  void showParticle(true);
}

/** The current shape's size (page units); a size outside the series leaves the slider unset. */
export function setShapeSize(size: number): void {
  const { shape, sizes, sizeSeries } = useNanoparticle.getState();
  if (!Number.isInteger(size) || size < 1) {
    useNanoparticle.setState({ error: `The ${shape === 'wulff' ? 'atom count' : 'size'} must be a whole number of at least 1.` });
    return;
  }
  useNanoparticle.setState({ sizes: { ...sizes, [shape]: size }, seriesIndex: sizeSeries?.pageSizes.indexOf(size) ?? -1 });
  void showParticle(false);
}

/** Decahedron r or octahedron cutoff: a different family of particles, so the series goes. */
export function setShapeOption(patch: { decahedronR?: number; octahedronCutoff?: number }): void {
  const value = patch.decahedronR ?? patch.octahedronCutoff ?? 0;
  if (!Number.isInteger(value) || value < 0) {
    useNanoparticle.setState({ error: 'The re-entrance r and the cutoff must be whole numbers of at least 0.' });
    return;
  }
  useNanoparticle.setState({ ...patch, sizeSeries: null, seriesIndex: -1 });
  void showParticle(false);
}

/** The table as typed (no rebuild: `applyEnergies` does that when a row is done). */
export const setEnergyRows = (energyRows: EnergyRow[]) => useNanoparticle.setState({ energyRows });

/** Rebuilds the Wulff particle from the table (a row finished, added, removed or loaded); its series goes. */
export function applyEnergies(rows?: EnergyRow[]): void {
  if (rows) useNanoparticle.setState({ energyRows: rows });
  const { shape, compare } = useNanoparticle.getState();
  if (!currentEnergies()) return;
  useNanoparticle.setState({ error: null });
  if (shape === 'wulff') {
    useNanoparticle.setState({ sizeSeries: null, seriesIndex: -1 });
    void showParticle(false);
  } else if (compare === 'wulff') void refreshCompare();
}

export const setShowWulff = (showWulff: boolean) => useNanoparticle.setState({ showWulff });
export const setSeriesSizes = (seriesSizes: string) => useNanoparticle.setState({ seriesSizes });

/** Computes the size series of the current shape over the typed sizes, in the worker, with progress. */
export async function computeSizeSeries(): Promise<void> {
  const { shape, seriesSizes, crystal, dataset } = useNanoparticle.getState();
  if (!crystal) return;
  let pageSizes: number[];
  try {
    pageSizes = parseSizes(seriesSizes, shape === 'sphere');
  } catch (e) {
    useNanoparticle.setState({ error: (e as Error).message });
    return;
  }
  const spec = shapeSpec(shape, 0);
  if (!spec) return;
  const { size: _unused, ...request } = spec;
  const sizes = pageSizes.map((n) => coreSize(shape, n));
  useNanoparticle.setState({ sizeSeriesProgress: `0 / ${sizes.length}` });
  // Each member reported renews the worker's time budget: the budget bounds one particle, not the series.
  const result = await client.request(
    (w, progress) =>
      w.sizeSeries(
        request,
        sizes,
        progress((done: number, total: number) => useNanoparticle.setState({ sizeSeriesProgress: `${done} / ${total}` })),
      ),
    {
      lane: SERIES_LANE,
      status: setStatus,
      error: (message, thrown) => {
        useNanoparticle.setState({ sizeSeriesProgress: null });
        return sentence(thrown === undefined ? message : `could not compute the series: ${message}`);
      },
    },
  );
  if (!result?.ok) return;
  const series: SizeSeriesState = { spec: request, pageSizes, sizes, source: dataset, ...result.value };
  // The member of the shown particle's size, else the one nearest its atom count: the slider starts where the view is.
  const { particle, sizes: now } = useNanoparticle.getState();
  let index = shape === 'sphere' ? -1 : pageSizes.indexOf(now[shape]);
  const rebuild = index < 0;
  if (rebuild) {
    const n = particle?.natoms ?? 0;
    index = series.members.reduce((best, m, k) => (Math.abs(m.nAtoms - n) < Math.abs(series.members[best].nAtoms - n) ? k : best), 0);
  }
  useNanoparticle.setState({ sizeSeries: series, sizeSeriesProgress: null, compareIndex: Math.min(series.members.length - 1, index + 1) });
  if (rebuild) await setSeriesIndex(index);
  else useNanoparticle.setState({ seriesIndex: index });
  if (useNanoparticle.getState().compare === 'member') void refreshCompare();
}

/** Shows member `index` of the series (the slider; the growth movie); resolves once it is in the store. */
export async function setSeriesIndex(index: number): Promise<void> {
  const { sizeSeries, sizes } = useNanoparticle.getState();
  if (!sizeSeries || !(index >= 0 && index < sizeSeries.members.length)) return;
  const { shape } = sizeSeries.spec;
  const size = sizeSeries.pageSizes[index];
  useNanoparticle.setState({
    seriesIndex: index,
    ...(shape === 'sphere'
      ? { radius: Math.min(MAX_RADIUS, Math.max(MIN_RADIUS, size)), rotation: 0 }
      : { sizes: { ...sizes, [shape]: size } }),
  });
  await buildMain({ ...sizeSeries.spec, size: sizeSeries.sizes[index] }, false);
}

/** Side by side: off, another member of the series, or the other shape (sphere, Wulff) at the particle's atom count. */
export function setCompare(compare: CompareMode): void {
  useNanoparticle.setState({ compare, compareParticle: null });
  void refreshCompare();
}

export function setCompareIndex(compareIndex: number): void {
  useNanoparticle.setState({ compareIndex });
  void refreshCompare();
}

/** Builds the side-by-side particle for the current choice (after every new main particle). */
async function refreshCompare(): Promise<void> {
  const { compare, compareIndex, sizeSeries, particle } = useNanoparticle.getState();
  if (compare === 'off' || !particle) return;
  let spec: ShapeSpec | null = null;
  if (compare === 'member') {
    if (!sizeSeries || !(compareIndex >= 0 && compareIndex < sizeSeries.members.length)) return;
    spec = { ...sizeSeries.spec, size: sizeSeries.sizes[compareIndex] };
  } else if (compare === 'wulff') spec = shapeSpec('wulff', particle.natoms);
  if (compare !== 'sphere' && !spec) return;
  const result = await client.request((w) => (spec ? w.build(spec, 'compare') : w.sphereNear(particle.natoms)), {
    lane: COMPARE_LANE,
    status: setStatus,
    busy: 'building the particle beside it',
    error: (message) => sentence(`the particle beside it: ${message}`),
  });
  if (result?.ok) useNanoparticle.setState({ compareParticle: result.value });
}
