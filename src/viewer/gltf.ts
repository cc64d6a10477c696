/**
 * The shown scene as binary glTF (GLB) for slides and Blender. The on-screen atoms and bonds are shader impostors
 * (impostors.ts) that GLTFExporter cannot write, so the export builds real meshes from the same display buffers: a
 * sphere per atom and a cylinder per half-bond, one material per element, plus the cell edges as lines.
 * Up to INSTANCING_ABOVE objects each is its own node sharing its element's mesh (every glTF reader loads that); above,
 * each element is one InstancedMesh, which three's GLTFExporter writes with EXT_mesh_gpu_instancing (TRANSLATION,
 * ROTATION, SCALE per instance; three/examples/jsm/exporters/GLTFExporter.js GLTFMeshGpuInstancing) and marks it required.
 */
import * as THREE from 'three';
import type { DisplayData } from '../core/analysis/display-scene.ts';
import type { ViewSettings } from './view-settings.ts';
import { CELL_EDGES } from './cell-edges.ts';
import { elementColor } from './colors.ts';
import { atomRadii } from './StructureViewer.tsx';

/** Above this many atoms plus half-bonds, per-element instancing instead of one node per object. */
const INSTANCING_ABOVE = 20_000;

function materialFor(rgb: readonly number[], name: string): THREE.MeshStandardMaterial {
  const color = new THREE.Color().setRGB(rgb[0], rgb[1], rgb[2], THREE.SRGBColorSpace);
  return new THREE.MeshStandardMaterial({ color, roughness: 0.5, metalness: 0, name });
}

/** Adds `count` copies of `geometry` placed by `place` (one node each, or one InstancedMesh). */
function addCopies(
  group: THREE.Group,
  geometry: THREE.BufferGeometry,
  material: THREE.Material,
  indices: number[],
  instanced: boolean,
  place: (i: number, m: THREE.Matrix4) => void,
  name: string,
): void {
  if (indices.length === 0) return;
  const m = new THREE.Matrix4();
  if (instanced) {
    const mesh = new THREE.InstancedMesh(geometry, material, indices.length);
    indices.forEach((i, k) => {
      place(i, m);
      mesh.setMatrixAt(k, m);
    });
    mesh.name = name;
    group.add(mesh);
    return;
  }
  for (const i of indices) {
    const mesh = new THREE.Mesh(geometry, material);
    place(i, m);
    m.decompose(mesh.position, mesh.quaternion, mesh.scale);
    mesh.name = `${name} ${i}`;
    group.add(mesh);
  }
}

/** The scene of `display` as drawn with `settings` (hidden elements left out), as three objects ready for GLTFExporter. */
export function exportScene(display: DisplayData, settings: ViewSettings, hidden: readonly string[]): THREE.Group {
  const group = new THREE.Group();
  group.name = 'StructLab';
  const radii = atomRadii(display, settings, hidden);
  const palette = display.elements.map((el) => elementColor(el, settings.colorScheme));
  const materials = display.elements.map((el, k) => materialFor(palette[k], el));
  const showBonds = settings.showBonds && settings.style === 'ball-and-stick';
  const bondCount = showBonds ? 2 * display.nbonds : 0;
  const instanced = display.natoms + bondCount > INSTANCING_ABOVE;

  const sphere = new THREE.SphereGeometry(1, 24, 16);
  const atomsOf = display.elements.map((): number[] => []);
  for (let i = 0; i < display.natoms; i++) if (radii[i] > 0) atomsOf[display.element[i]].push(i);
  const p = display.positions;
  display.elements.forEach((el, k) =>
    addCopies(
      group,
      sphere,
      materials[k],
      atomsOf[k],
      instanced,
      (i, m) => {
        const r = radii[i];
        m.makeScale(r, r, r).setPosition(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
      },
      `${el} atoms`,
    ),
  );

  if (bondCount > 0) {
    // Half-bond b·2 + end: from that end's atom to the midpoint, in that end's colour (as drawn on screen).
    const cylinder = new THREE.CylinderGeometry(1, 1, 1, 12, 1, true).translate(0, 0.5, 0);
    const halvesOf = display.elements.map((): number[] => []);
    const hiddenEl = display.elements.map((el) => hidden.includes(el));
    for (let b = 0; b < display.nbonds; b++) {
      const [ea, eb] = [display.bondElements[2 * b], display.bondElements[2 * b + 1]];
      if (hiddenEl[ea] || hiddenEl[eb]) continue;
      halvesOf[ea].push(2 * b);
      halvesOf[eb].push(2 * b + 1);
    }
    const s = display.bondStart;
    const e = display.bondEnd;
    const from = new THREE.Vector3();
    const to = new THREE.Vector3();
    const axis = new THREE.Vector3();
    const q = new THREE.Quaternion();
    const yAxis = new THREE.Vector3(0, 1, 0);
    const r = settings.bondRadius;
    display.elements.forEach((el, k) =>
      addCopies(
        group,
        cylinder,
        materials[k],
        halvesOf[k],
        instanced,
        (h, m) => {
          const b = h >> 1;
          const start = new THREE.Vector3(s[3 * b], s[3 * b + 1], s[3 * b + 2]);
          const end = new THREE.Vector3(e[3 * b], e[3 * b + 1], e[3 * b + 2]);
          const mid = start.clone().add(end).multiplyScalar(0.5);
          from.copy(h & 1 ? end : start);
          to.copy(mid);
          axis.subVectors(to, from);
          const len = axis.length();
          q.setFromUnitVectors(yAxis, len > 0 ? axis.divideScalar(len) : yAxis);
          m.compose(from, q, new THREE.Vector3(r, len, r));
        },
        `${el} bonds`,
      ),
    );
  }

  if (settings.showCell && display.cell) {
    const c = display.cell;
    const [na, nb, nc] = display.supercell;
    const corner = (x: number, y: number, z: number) =>
      new THREE.Vector3(
        x * na * c[0] + y * nb * c[3] + z * nc * c[6],
        x * na * c[1] + y * nb * c[4] + z * nc * c[7],
        x * na * c[2] + y * nb * c[5] + z * nc * c[8],
      );
    const points = CELL_EDGES.flatMap(([a, b]) => [corner(a[0], a[1], a[2]), corner(b[0], b[1], b[2])]);
    const lines = new THREE.LineSegments(
      new THREE.BufferGeometry().setFromPoints(points),
      // GLTFExporter writes MeshStandardMaterial and MeshBasicMaterial only and warns for any other (three/examples/jsm/
      // exporters/GLTFExporter.js, processMaterialAsync); an unlit basic material is what a line's colour is in glTF.
      new THREE.MeshBasicMaterial({ color: 0x333333 }),
    );
    lines.name = 'cell';
    group.add(lines);
  }
  return group;
}

/** The scene as a GLB file (three's GLTFExporter, loaded on first use). */
export async function sceneGlb(display: DisplayData, settings: ViewSettings, hidden: readonly string[]): Promise<Blob> {
  const { GLTFExporter } = await import('three/examples/jsm/exporters/GLTFExporter.js');
  const group = exportScene(display, settings, hidden);
  try {
    const glb = await new GLTFExporter().parseAsync(group, { binary: true });
    if (!(glb instanceof ArrayBuffer)) throw new Error('the glTF exporter did not return binary data');
    return new Blob([glb], { type: 'model/gltf-binary' });
  } finally {
    group.traverse((o) => {
      const mesh = o as THREE.Mesh;
      mesh.geometry?.dispose();
      (mesh.material as THREE.Material | undefined)?.dispose?.();
    });
  }
}
