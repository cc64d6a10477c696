/**
 * What the crystallography panels add to the 3D view, as viewer children: halos on the atoms of the Wyckoff row under
 * the pointer (one impostor mesh) and the lattice planes (one merged mesh and one outline for all of them).
 */
import { useMemo } from 'react';
import * as THREE from 'three';
import type { DisplayData } from '../../core/analysis/display-scene.ts';
import type { LatticePlane } from '../../core/analysis/planes.ts';
import { shownWyckoffTable, useCrystallography } from '../../state/crystallography.ts';
import { useSession } from '../../state/session.ts';
import { Halos } from '../../viewer/Halos.tsx';
import { atomRadii } from '../../viewer/StructureViewer.tsx';
import { useDisposable } from '../../viewer/use-disposable.ts';
import type { Rgb } from '../../viewer/colors.ts';

const ORBIT_COLOR: Rgb = [0.1, 0.75, 0.95];
const PLANE_COLOR = 0xd6336c;

export function CrystallographyOverlay({ display }: { display: DisplayData | null }) {
  const planes = useCrystallography((s) => s.planes);
  const planesOpen = useCrystallography((s) => s.open.planes);
  return (
    <>
      <OrbitHalos display={display} />
      {planesOpen && planes && planes.length > 0 && <PlaneMesh planes={planes} />}
    </>
  );
}

function OrbitHalos({ display }: { display: DisplayData | null }) {
  const row = useCrystallography((s) => s.hoverRow);
  // The table of the cell shown: its sites are the ones the shown scene's atoms belong to (display.site).
  const table = useCrystallography(shownWyckoffTable);
  const settings = useSession((s) => s.settings);
  const hidden = useSession((s) => s.hiddenElements);
  const halos = useMemo(() => {
    if (row === null || !table || !display) return null;
    const member = new Uint8Array(table.rowOfSite.length);
    for (const k of table.rows[row]?.sites ?? []) member[k] = 1;
    const radii = atomRadii(display, settings, hidden);
    const centers: Float32Array[] = [];
    const r: number[] = [];
    for (let i = 0; i < display.natoms; i++) {
      if (!member[display.site[i]] || radii[i] === 0) continue;
      centers.push(display.positions.subarray(3 * i, 3 * i + 3));
      r.push(radii[i] * 1.35 + 0.08);
    }
    return { centers, r };
  }, [row, table, display, settings, hidden]);
  return halos ? <Halos centers={halos.centers} radius={halos.r} color={ORBIT_COLOR} opacity={0.5} /> : null;
}

function PlaneMesh({ planes }: { planes: LatticePlane[] }) {
  const group = useDisposable(() => {
    const tri: number[] = [];
    const edges: number[] = [];
    for (const p of planes) {
      const v = p.polygon;
      for (let k = 1; k + 1 < v.length; k++) tri.push(...v[0], ...v[k], ...v[k + 1]);
      for (let k = 0; k < v.length; k++) edges.push(...v[k], ...v[(k + 1) % v.length]);
    }
    const g = new THREE.Group();
    const faces = new THREE.BufferGeometry();
    faces.setAttribute('position', new THREE.Float32BufferAttribute(tri, 3));
    const mesh = new THREE.Mesh(
      faces,
      new THREE.MeshBasicMaterial({ color: PLANE_COLOR, transparent: true, opacity: 0.35, side: THREE.DoubleSide, depthWrite: false }),
    );
    mesh.renderOrder = 6;
    const outline = new THREE.BufferGeometry();
    outline.setAttribute('position', new THREE.Float32BufferAttribute(edges, 3));
    g.add(mesh, new THREE.LineSegments(outline, new THREE.LineBasicMaterial({ color: PLANE_COLOR })));
    g.name = 'lattice-planes';
    return g;
  }, [planes]);
  return <primitive object={group} />;
}
