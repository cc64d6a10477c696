/**
 * Vectors drawn at points (forces, velocities, magnetic moments): one instanced shaft mesh and one instanced head
 * mesh for all of them, so ten thousand arrows cost two draw calls and no React component each. A zero vector
 * draws nothing.
 */
import * as THREE from 'three';
import { useDisposable } from './use-disposable.ts';

/** Head length and radius as fractions of the arrow's length (capped in Å so long arrows keep slim heads). */
const HEAD = 0.25,
  HEAD_MAX = 0.6,
  SHAFT_RADIUS = 0.05,
  HEAD_RADIUS = 0.14;

/** Arrows from `origins[i]` along `vectors[i] · scale` (both xyz triples, Å). */
export function Arrows({ origins, vectors, scale, color }: { origins: Float32Array; vectors: Float64Array; scale: number; color: string }) {
  const group = useDisposable(() => {
    const n = origins.length / 3;
    const shaft = new THREE.CylinderGeometry(SHAFT_RADIUS, SHAFT_RADIUS, 1, 10, 1);
    shaft.translate(0, 0.5, 0); // base at the origin, along +y
    const head = new THREE.ConeGeometry(HEAD_RADIUS, 1, 14, 1);
    head.translate(0, 0.5, 0);
    const material = new THREE.MeshLambertMaterial({ color });
    const shafts = new THREE.InstancedMesh(shaft, material, Math.max(1, n));
    const heads = new THREE.InstancedMesh(head, material, Math.max(1, n));
    const up = new THREE.Vector3(0, 1, 0);
    const dir = new THREE.Vector3();
    const q = new THREE.Quaternion();
    const m = new THREE.Matrix4();
    const at = new THREE.Vector3();
    const s = new THREE.Vector3();
    let drawn = 0;
    for (let i = 0; i < n; i++) {
      dir.set(vectors[3 * i], vectors[3 * i + 1], vectors[3 * i + 2]).multiplyScalar(scale);
      const length = dir.length();
      if (!(length > 1e-9)) continue;
      dir.divideScalar(length);
      q.setFromUnitVectors(up, dir);
      const headLength = Math.min(HEAD * length, HEAD_MAX);
      at.set(origins[3 * i], origins[3 * i + 1], origins[3 * i + 2]);
      s.set(1, length - headLength, 1);
      shafts.setMatrixAt(drawn, m.compose(at, q, s));
      at.addScaledVector(dir, length - headLength);
      s.set(Math.min(1, length / 0.6), headLength, Math.min(1, length / 0.6));
      heads.setMatrixAt(drawn, m.compose(at, q, s));
      drawn++;
    }
    shafts.count = drawn;
    heads.count = drawn;
    const g = new THREE.Group();
    g.add(shafts, heads);
    return g;
  }, [origins, vectors, scale, color]);
  return <primitive object={group} />;
}
