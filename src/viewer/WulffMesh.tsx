/**
 * A Wulff polyhedron over its particle: translucent faces coloured by plane family, with outlines. The buffers are
 * built at unit scale from the shape's corners and faces and kept while the shape is the same (`shape.key`); a new
 * size only moves and scales the group (center + scale·v, src/core/tasks/c2np/shapes.ts WulffParticle.corners).
 */
import * as THREE from 'three';
import type { WulffView } from '../../workers/c2np-api.ts';
import type { Rgb } from './colors.ts';
import { useDisposable } from './use-disposable.ts';

/** Triangles (a fan per face, coloured by its family, flat-shaded) and the edges of every face once. */
function buildPolyhedron(shape: WulffView, colors: readonly Rgb[]): THREE.Group {
  const v = shape.vertices;
  const corner = (i: number) => new THREE.Vector3(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  const positions: number[] = [];
  const normals: number[] = [];
  const vertexColors: number[] = [];
  const edges = new Map<string, [number, number]>();
  for (const face of shape.faces) {
    const c = face.corners;
    const a = corner(c[0]);
    const normal = corner(c[1]).sub(a).cross(corner(c[2]).sub(a)).normalize();
    const rgb = colors[face.family % colors.length];
    for (let k = 1; k + 1 < c.length; k++)
      for (const i of [c[0], c[k], c[k + 1]]) {
        positions.push(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
        normals.push(normal.x, normal.y, normal.z);
        vertexColors.push(...rgb);
      }
    for (let k = 0; k < c.length; k++) {
      const p = c[k];
      const q = c[(k + 1) % c.length];
      edges.set(p < q ? `${p},${q}` : `${q},${p}`, [p, q]);
    }
  }
  const faces = new THREE.BufferGeometry();
  faces.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
  faces.setAttribute('normal', new THREE.Float32BufferAttribute(normals, 3));
  faces.setAttribute('color', new THREE.Float32BufferAttribute(vertexColors, 3));
  const lines = new THREE.BufferGeometry();
  const ends: number[] = [];
  for (const [p, q] of edges.values()) ends.push(v[3 * p], v[3 * p + 1], v[3 * p + 2], v[3 * q], v[3 * q + 1], v[3 * q + 2]);
  lines.setAttribute('position', new THREE.Float32BufferAttribute(ends, 3));
  const group = new THREE.Group();
  const mesh = new THREE.Mesh(
    faces,
    new THREE.MeshLambertMaterial({ vertexColors: true, transparent: true, opacity: 0.38, depthWrite: false, side: THREE.DoubleSide }),
  );
  // After the atoms (opaque) and before the labels, as the hull and the carving sphere.
  mesh.renderOrder = 7;
  group.add(mesh);
  group.add(new THREE.LineSegments(lines, new THREE.LineBasicMaterial({ color: 0x333d4d, transparent: true, opacity: 0.7 })));
  return group;
}

export function WulffMesh({ shape, colors }: { shape: WulffView; colors: readonly Rgb[] }) {
  const group = useDisposable(() => buildPolyhedron(shape, colors), [shape.key, colors]);
  return (
    <group position={shape.center} scale={shape.scale}>
      <primitive object={group} />
    </group>
  );
}
