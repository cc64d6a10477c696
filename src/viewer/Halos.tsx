/** Translucent spheres around points (marked atoms, action sites), drawn after the atoms; used as viewer children. */
import { makeSphereMesh } from './impostors.ts';
import { useDisposable } from './use-disposable.ts';
import type { Rgb } from './colors.ts';

/**
 * One impostor mesh of spheres at `centers`: one `radius` for all, or one per centre. Pass stable arrays (memoised):
 * the mesh is rebuilt whenever one of them changes identity.
 */
export function Halos({
  centers,
  radius,
  color,
  opacity = 0.45,
}: {
  centers: readonly ArrayLike<number>[];
  radius: number | readonly number[];
  color: Rgb;
  opacity?: number;
}) {
  const mesh = useDisposable(() => {
    const n = centers.length;
    const c = new Float32Array(3 * n),
      radii = new Float32Array(n),
      colors = new Float32Array(3 * n);
    centers.forEach((p, k) => {
      c.set(p, 3 * k);
      radii[k] = typeof radius === 'number' ? radius : radius[k];
      colors.set(color, 3 * k);
    });
    const m = makeSphereMesh({ centers: c, radii, colors, count: n }, opacity);
    m.renderOrder = 4;
    return m;
  }, [centers, radius, color, opacity]);
  return centers.length ? <primitive object={mesh} /> : null;
}
