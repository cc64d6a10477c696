/**
 * The Trajectory panel's series as shown (src/pages/structure/trajectory-series.ts, issue 21): readable names with
 * units (a file's `info:NAME` as NAME), stress in GPa, rounded readouts, the series plotted first (never a flat one
 * when one varies) and the playback schedule (one interval per frame, less the time the frame took).
 */
import { describe, expect, it } from 'vitest';
import {
  defaultSeries,
  EV_PER_A3_IN_GPA,
  nextFrame,
  playDelay,
  readout,
  seriesLabel,
  shownSeries,
} from '../../src/pages/structure/trajectory-series.ts';

const series = (name: string, values: (number | null)[]) => ({ name, values });

describe('series labels', () => {
  it('names the computed metrics readably, with their units', () => {
    expect(seriesLabel('max_force (eV/Å)').label).toBe('largest force |F| (eV/Å)');
    expect(seriesLabel('min_distance (Å)').label).toBe('shortest distance (Å)');
    expect(seriesLabel('volume (Å³)').label).toBe('volume (Å³)');
    expect(seriesLabel('alpha (°)').label).toBe('α (°)');
    expect(seriesLabel('pressure (eV/Å³)')).toEqual({ label: 'pressure −tr σ/3 (GPa)', scale: EV_PER_A3_IN_GPA });
  });

  it('shows a file value as its own name, with the unit ASE writes it in where the name is known', () => {
    expect(seriesLabel('info:max_force').label).toBe('max_force (eV/Å)');
    expect(seriesLabel('info:volume').label).toBe('volume');
    expect(seriesLabel('energy').label).toBe('energy (eV)');
    expect(seriesLabel('free_energy').label).toBe('free_energy (eV)');
    expect(seriesLabel('step').label).toBe('step');
    // The worker's on-demand series already say what they are.
    expect(seriesLabel('space group number (symprec 0.01)').label).toBe('space group number (symprec 0.01)');
  });

  it('converts stress to GPa (ASE: 1 eV/Å³ = 160.21766208 GPa) and leaves missing values missing', () => {
    expect(shownSeries(series('max_stress (eV/Å³)', [0.01, null])).values).toEqual([0.01 * EV_PER_A3_IN_GPA, null]);
    const energy = series('energy', [1, 2]);
    expect(shownSeries(energy)).toEqual({ name: 'energy', label: 'energy (eV)', values: [1, 2] });
  });

  it('reads out six significant digits and a dash for a frame without a value', () => {
    expect(readout(2012.4072856849496)).toBe('2012.41');
    expect(readout(-701.3836929723975)).toBe('-701.384');
    expect(readout(null)).toBe('—');
    expect(readout(undefined)).toBe('—');
  });
});

describe('the series plotted first', () => {
  const flatVolume = series('volume (Å³)', [2012.4072856849496, 2012.4072856849496, 2012.4072856849496]);
  const distance = series('min_distance (Å)', [2.31, 2.29, 2.35]);

  it('is the energy when the file has one', () => {
    const energy = series('energy', [-701.38, -701.4, -701.41]);
    expect(defaultSeries([flatVolume, distance, energy])).toBe(energy);
    expect(defaultSeries([series('info:max_force', [1, 2, 3]), series('free_energy', [3, 2, 1])])?.name).toBe('free_energy');
  });

  it('is never a constant series when one varies (an NVT run’s volume)', () => {
    expect(defaultSeries([flatVolume, series('a (Å)', [5, 5, 5]), distance])).toBe(distance);
    // A flat energy is no more informative than a flat volume.
    expect(defaultSeries([series('energy', [1, 1, 1]), flatVolume, distance])).toBe(distance);
  });

  it('is the first when none varies, and none when there are none', () => {
    expect(defaultSeries([flatVolume])).toBe(flatVolume);
    expect(defaultSeries([])).toBeUndefined();
  });
});

describe('playback schedule', () => {
  it('asks for the first frame after Play at once', () => {
    expect(playDelay(5, null, 12_345)).toBe(0);
  });

  it('keeps the rate: the time a frame took comes off the next wait, never below zero', () => {
    expect(playDelay(5, 1000, 1000)).toBe(200);
    expect(playDelay(5, 1000, 1150)).toBe(50);
    expect(playDelay(5, 1000, 1300)).toBe(0);
    expect(playDelay(60, 0, 0)).toBeCloseTo(1000 / 60, 12);
  });

  it('steps to the next frame, loops back to the first or stops at the end', () => {
    expect(nextFrame(0, 7, false)).toBe(1);
    expect(nextFrame(6, 7, true)).toBe(0);
    expect(nextFrame(6, 7, false)).toBeNull();
  });
});
