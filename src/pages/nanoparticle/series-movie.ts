/**
 * The size series as a growth movie (src/viewer/recorder.ts FrameProvider): show(index) draws member `index` as the
 * slider does; the member shown before the movie comes back after it.
 */
import type { FrameProvider } from '../../viewer/recorder.ts';
import { setSeriesIndex, showParticle, useNanoparticle } from '../../state/nanoparticle.ts';

/** Member `index` in the store: resolves as soon as its particle is there (its diffraction is not waited for). */
async function showMember(index: number): Promise<void> {
  const before = useNanoparticle.getState().particle;
  let off = () => {};
  const shown = new Promise<boolean>((resolve) => {
    off = useNanoparticle.subscribe((s) => {
      if (s.particle !== before) resolve(true);
    });
  });
  const built = setSeriesIndex(index).then(() => useNanoparticle.getState().particle !== before);
  const ok = await Promise.race([shown, built]);
  off();
  if (!ok) throw new Error(useNanoparticle.getState().error ?? `Could not build member ${index + 1} of the series.`);
}

/** The particle's reach about its centre (Å), the largest atom count of the series scaled from it. */
function extentOf(): number | undefined {
  const { particle, sizeSeries } = useNanoparticle.getState();
  if (!particle || !sizeSeries || particle.natoms === 0) return undefined;
  const p = particle.positions;
  const [cx, cy, cz] = particle.center;
  let r = 0;
  for (let i = 0; i < p.length; i += 3) r = Math.max(r, Math.hypot(p[i] - cx, p[i + 1] - cy, p[i + 2] - cz));
  const largest = Math.max(...sizeSeries.members.map((m) => m.nAtoms));
  // Radius grows as N^(1/3); 2 Å for an atom's drawn size.
  return r * Math.cbrt(largest / particle.natoms) + 2;
}

/** The computed size series as a growth movie, or null before one is computed. */
export function sizeSeriesMovie(): FrameProvider | null {
  const { sizeSeries, seriesIndex, sizes, radius } = useNanoparticle.getState();
  if (!sizeSeries) return null;
  const restore = async () => {
    if (seriesIndex >= 0) return showMember(seriesIndex);
    useNanoparticle.setState({ sizes, radius, seriesIndex });
    return showParticle(false);
  };
  return {
    count: sizeSeries.members.length,
    extent: extentOf(),
    show: (index) => showMember(index),
    finish: () => restore().catch(() => undefined),
  };
}
