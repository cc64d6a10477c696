/**
 * The nanoparticle (C2NP teaching) page's store: the chosen crystal, radius, colouring, overlays, rotation,
 * and the worker's results. Its own worker (workers/c2np.worker.ts) does all carving and analysis.
 */
import { create } from 'zustand';
import type { RadiusSeries } from '../core/tasks/c2np/teaching.ts';
import type { C2npWorkerApi, CrystalInfo, DiffractionView, ParticleView, Split } from '../../workers/c2np-api.ts';
import { MAX_RADIUS, MIN_RADIUS } from '../../workers/c2np-api.ts';
import { type Status, WorkerClient } from './worker-client.ts';

export type ColorMode = 'element' | 'coordination';

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
  useNanoparticle.setState((s) => ({ crystal: loaded.value, particle: null, fitToken: s.fitToken + 1 }));
  await carve(true);
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
  useNanoparticle.setState((s) => ({ particle: result.value, diffraction: null, fitToken: s.fitToken + (refit ? 1 : 0) }));
  const diffraction = await client.request((w) => w.diffraction(), {
    lane: DIFFRACTION_LANE,
    status: setStatus,
    busy: `diffraction of R = ${radius} Å`,
  });
  if (diffraction?.ok) useNanoparticle.setState({ diffraction: diffraction.value });
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
  useNanoparticle.setState({ radius: value, rotation: Math.min(rotation, max) });
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
