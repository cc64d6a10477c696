/**
 * How the Trajectory panel shows a per-frame series: a readable name with its unit, values in that unit (stress in
 * GPa), rounded readouts, which series is plotted first, and when the next frame of a playing trajectory is due.
 * Series names are the trajectory worker's (workers/trajectory.worker.ts, `structlab traj`'s metric names with their
 * unit); they stay the keys, only what the page shows changes.
 */
import type { FrameSeries } from '../../../workers/trajectory-api.ts';
import { fmt } from '../../ui/format.ts';

/** eV/Å³ in GPa: ASE's units (ase/units.py, GPa = 1e9 · Pascal with CODATA 2014 constants), 1 / units.GPa. */
export const EV_PER_A3_IN_GPA = 160.21766208;

/** Significant digits of a readout: an energy of −701.3837 eV keeps the meV its frames differ by. */
const READOUT_DIGITS = 6;

export interface SeriesLabel {
  /** What the menu, the plot and the readout call it, with its unit: "largest force (eV/Å)". */
  label: string;
  /** The shown value is the series' value times this (1 but for stress, shown in GPa). */
  scale: number;
}

/** frameMetrics' computed series (src/core/analysis/frame-metrics.ts) as the worker names them, readably. */
const COMPUTED: Record<string, SeriesLabel> = {
  'max_force (eV/Å)': { label: 'largest force |F| (eV/Å)', scale: 1 },
  'max_stress (eV/Å³)': { label: 'largest stress |σ| (GPa)', scale: EV_PER_A3_IN_GPA },
  'pressure (eV/Å³)': { label: 'pressure −tr σ/3 (GPa)', scale: EV_PER_A3_IN_GPA },
  'volume (Å³)': { label: 'volume (Å³)', scale: 1 },
  'a (Å)': { label: 'a (Å)', scale: 1 },
  'b (Å)': { label: 'b (Å)', scale: 1 },
  'c (Å)': { label: 'c (Å)', scale: 1 },
  'alpha (°)': { label: 'α (°)', scale: 1 },
  'beta (°)': { label: 'β (°)', scale: 1 },
  'gamma (°)': { label: 'γ (°)', scale: 1 },
  'min_distance (Å)': { label: 'shortest distance (Å)', scale: 1 },
};

/**
 * Units of the values files write under these names: ASE's extended XYZ conventions (energies in eV, forces in eV/Å;
 * ase/io/extxyz.py, ase/calculators/calculator.py) and MD codes' temperature in K. A name not known here has no unit.
 */
function fileUnit(name: string): string | null {
  const n = name.toLowerCase();
  if (/(^|_)energy$|^energy(_|$)|^e(tot|pot|kin)?$/.test(n)) return 'eV';
  if (/^(max_force|fmax|max_f)$/.test(n)) return 'eV/Å';
  if (/^(temperature|temp|t)$/.test(n)) return 'K';
  return null;
}

/** The page's name for series `name`: a computed metric readably, a file's own value (`info:NAME`) as NAME with its unit. */
export function seriesLabel(name: string): SeriesLabel {
  const computed = COMPUTED[name];
  if (computed) return computed;
  // frameMetrics prefixes a file value named like a computed one ("info:max_force"): it is the file's NAME.
  const own = name.startsWith('info:') ? name.slice('info:'.length) : name;
  const unit = fileUnit(own);
  return { label: unit && !own.endsWith(')') ? `${own} (${unit})` : own, scale: 1 };
}

/** A series as the page shows it: its label and its values in the label's unit. */
export function shownSeries(s: FrameSeries): { name: string; label: string; values: (number | null)[] } {
  const { label, scale } = seriesLabel(s.name);
  return { name: s.name, label, values: scale === 1 ? s.values : s.values.map((v) => (v === null ? null : v * scale)) };
}

/** A readout value: six significant digits, a dash where the frame has none. */
export const readout = (v: number | null | undefined): string => fmt(v, READOUT_DIGITS);

/** True when the finite values of `values` are not all the same (to within 1e-9 of their size). */
function varies(values: readonly (number | null)[]): boolean {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v === null || !Number.isFinite(v)) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return hi - lo > 1e-9 * Math.max(1, Math.abs(lo), Math.abs(hi));
}

/**
 * The series plotted when the user has chosen none: the file's energy when it has one, else the first series that
 * varies from frame to frame (an NVT run's volume is flat; its shortest distance is not), else the first.
 */
export function defaultSeries<S extends FrameSeries>(series: readonly S[]): S | undefined {
  const energy = series.find((s) => fileUnit(s.name.replace(/^info:/, '')) === 'eV' && varies(s.values));
  return energy ?? series.find((s) => varies(s.values)) ?? series[0];
}

/**
 * Milliseconds until the next frame of a trajectory playing at `fps`: one interval after the last frame was asked
 * for, less the time it took to show (never negative), so a frame that takes part of the interval does not stretch
 * it; `lastAt` null (the first frame after Play) is due at once.
 */
export function playDelay(fps: number, lastAt: number | null, now: number): number {
  if (lastAt === null) return 0;
  return Math.max(0, 1000 / fps - (now - lastAt));
}

/** The frame after `active` of `n` while playing: the next, the first again when looping, or null (the end). */
export function nextFrame(active: number, n: number, loop: boolean): number | null {
  if (active + 1 < n) return active + 1;
  return loop ? 0 : null;
}
