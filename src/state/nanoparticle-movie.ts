/**
 * The Nanoparticle page's growth series for the movie recorder (src/viewer/recorder.ts FrameProvider): the particle of
 * each radius of the series in turn. A size series of other shapes (issue 26 §2) implements the same interface; the
 * particle shown before the movie is carved again after it.
 */
import type { FrameProvider } from '../viewer/recorder.ts';
import { MAX_RADIUS, MIN_RADIUS } from '../../workers/c2np-api.ts';
import { carve, useNanoparticle } from './nanoparticle.ts';

/** Carves R = `radius` (rotation `rotation`) without moving the camera; resolves once the new particle is in the store. */
async function carveAt(radius: number, rotation: number): Promise<void> {
  const before = useNanoparticle.getState().particle;
  useNanoparticle.setState({ radius, rotation, error: null });
  let off = () => {};
  const shown = new Promise<boolean>((resolve) => {
    off = useNanoparticle.subscribe((s) => {
      if (s.particle !== before) resolve(true);
    });
  });
  // carve() also waits for the particle's diffraction; the movie needs the particle only, so whichever comes first.
  const carved = carve(false).then(() => useNanoparticle.getState().particle !== before);
  const ok = await Promise.race([shown, carved]);
  off();
  if (!ok) throw new Error(useNanoparticle.getState().error ?? `Could not carve the particle of R = ${radius} Å.`);
}

/**
 * The Nanoparticle page's growth series: one particle per radius of the crystal's series (R = 6 … 30 Å, as carved,
 * rotation 0), framed so the largest fits; null before a crystal is loaded.
 */
export function radiusSeries(): FrameProvider | null {
  const { crystal, series, radius, rotation } = useNanoparticle.getState();
  if (!crystal) return null;
  const radii = series?.radii.length ? [...series.radii] : Array.from({ length: MAX_RADIUS - MIN_RADIUS + 1 }, (_, k) => MIN_RADIUS + k);
  return {
    count: radii.length,
    // The carving sphere's radius and an atom's drawn size beyond it.
    extent: Math.max(...radii) + 2,
    show: (index) => carveAt(radii[index], 0),
    finish: () => carveAt(radius, rotation).catch(() => undefined),
  };
}
