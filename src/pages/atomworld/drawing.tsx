/** Scene pieces for the AtomWorld page: lines, halos, planes, cell boxes and the drawn action. */
import { useMemo } from 'react';
import * as THREE from 'three';
import type { Mat3, Vec3 } from '../../core/math/mat3.ts';
import { type ActionTrace, rotateVector } from '../../core/tasks/atomworld/actions.ts';
import { useDisposable } from '../../viewer/use-disposable.ts';
import type { Rgb } from '../../viewer/colors.ts';
import { Halos } from '../../viewer/Halos.tsx';
import { Lines } from '../../viewer/Lines.tsx';
import { CELL_EDGES } from '../../viewer/cell-edges.ts';

export const COLORS = {
  moved: [0.95, 0.55, 0.1] as Rgb,
  centre: [0.95, 0.85, 0.1] as Rgb,
  axis: [0.8, 0.1, 0.8] as Rgb,
  removed: [0.9, 0.1, 0.1] as Rgb,
  added: [0.1, 0.7, 0.25] as Rgb,
  changed: [0.45, 0.25, 0.9] as Rgb,
  plane: [0.2, 0.45, 0.95] as Rgb,
  cells: [0.35, 0.35, 0.45] as Rgb,
  missing: [0.9, 0.1, 0.1] as Rgb,
  extra: [0.85, 0.1, 0.85] as Rgb,
  beyond: [0.95, 0.55, 0.1] as Rgb,
};

/** A translucent horizontal plane z = const across the cell's xy extent (delete_below). */
export function ZPlane({ cell, z, color }: { cell: Mat3; z: number; color: Rgb }) {
  const mesh = useDisposable(() => {
    const [a, b] = cell;
    const corners = [
      [0, 0],
      [a[0], a[1]],
      [a[0] + b[0], a[1] + b[1]],
      [b[0], b[1]],
    ];
    const pad = 0.5;
    const cx = corners.reduce((s, c) => s + c[0], 0) / 4,
      cy = corners.reduce((s, c) => s + c[1], 0) / 4;
    const pts = corners.map(([x, y]) => {
      const dx = x - cx,
        dy = y - cy,
        l = Math.hypot(dx, dy) || 1;
      return [x + (pad * dx) / l, y + (pad * dy) / l, z];
    });
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute([...pts[0], ...pts[1], ...pts[2], ...pts[0], ...pts[2], ...pts[3]], 3));
    const m = new THREE.Mesh(
      g,
      new THREE.MeshBasicMaterial({
        color: new THREE.Color(...color),
        transparent: true,
        opacity: 0.22,
        side: THREE.DoubleSide,
        depthWrite: false,
      }),
    );
    m.renderOrder = 5;
    return m;
  }, [cell, z, color]);
  return <primitive object={mesh} />;
}

/** The segments of n0×n1×n2 copies of `cell` (the supercell's repeated cells). */
export function cellGrid(cell: Mat3, n: Vec3): number[] {
  const out: number[] = [];
  const at = (f: Vec3) => [0, 1, 2].map((k) => f[0] * cell[0][k] + f[1] * cell[1][k] + f[2] * cell[2][k]);
  for (let i = 0; i < n[0]; i++)
    for (let j = 0; j < n[1]; j++)
      for (let k = 0; k < n[2]; k++) {
        for (const [p, q] of CELL_EDGES) out.push(...at([p[0] + i, p[1] + j, p[2] + k]), ...at([q[0] + i, q[1] + j, q[2] + k]));
      }
  return out;
}

/** `n` copies of one colour, flattened (per-vertex colours for Lines). */
export const repeatColor = (c: Rgb, n: number): number[] => Array.from({ length: n }, () => c).flat();
const pos = (p: Float32Array, i: number): Vec3 => [p[3 * i], p[3 * i + 1], p[3 * i + 2]];

/** The action in the BEFORE scene: paths, axis, plane, inserted position, changed / removed atoms, repeated cells. */
export function TraceDrawing({ trace, positions }: { trace: ActionTrace; positions: Float32Array }) {
  // Built once per case: fresh arrays on every render would rebuild each line and halo mesh.
  const d = useMemo(() => traceGeometry(trace, positions), [trace, positions]);
  const r = trace.rotation;
  return (
    <>
      {d.paths.length > 0 && <Lines points={d.paths} colors={d.pathColors} />}
      <Halos centers={d.movedTo} color={COLORS.moved} radius={0.45} opacity={0.6} />
      <Halos centers={d.movedFrom} color={COLORS.moved} radius={0.75} opacity={0.3} />
      {r && d.axis && <Lines points={d.axis} colors={d.axisColors} />}
      {r && d.centre && <Halos centers={d.centre} color={COLORS.centre} radius={0.8} opacity={0.45} />}
      {r && d.centre && <Halos centers={d.centre} color={COLORS.centre} radius={r.radius} opacity={0.07} />}
      {trace.plane && <ZPlane cell={trace.cell} z={trace.plane.z} color={COLORS.plane} />}
      {trace.plane && <Halos centers={d.planeReference} color={COLORS.centre} radius={0.8} opacity={0.45} />}
      {d.segment && <Lines points={d.segment} colors={d.segmentColors} dashed />}
      <Halos centers={d.added} color={COLORS.added} radius={0.55} opacity={0.75} />
      <Halos centers={d.removed} color={COLORS.removed} radius={0.8} opacity={0.45} />
      <Halos centers={d.changed} color={COLORS.changed} radius={0.8} opacity={0.45} />
      {d.grid && <Lines points={d.grid} colors={d.gridColors} dashed />}
    </>
  );
}

function traceGeometry(trace: ActionTrace, positions: Float32Array) {
  const natoms = positions.length / 3;
  const at = (i: number): Vec3 | null => (i < natoms ? pos(positions, i) : null);
  const some = (xs: (Vec3 | null)[]) => xs.filter((x): x is Vec3 => x !== null);
  const paths: number[] = [];
  const r = trace.rotation;
  for (const m of trace.moves) {
    if (r) {
      // The rotated atom's arc about the axis through the centre.
      const steps = 24;
      let prev = m.from;
      for (let s = 1; s <= steps; s++) {
        const rel: Vec3 = [m.from[0] - r.centre[0], m.from[1] - r.centre[1], m.from[2] - r.centre[2]];
        const v = rotateVector(rel, r.axis, (r.angleDeg * s) / steps);
        const next: Vec3 = [r.centre[0] + v[0], r.centre[1] + v[1], r.centre[2] + v[2]];
        paths.push(...prev, ...next);
        prev = next;
      }
    } else paths.push(...m.from, ...m.to);
  }
  const axis = r
    ? (() => {
        const L = Math.max(r.radius * 1.4, 1.5);
        return [
          r.centre[0] - r.axis[0] * L,
          r.centre[1] - r.axis[1] * L,
          r.centre[2] - r.axis[2] * L,
          r.centre[0] + r.axis[0] * L,
          r.centre[1] + r.axis[1] * L,
          r.centre[2] + r.axis[2] * L,
        ];
      })()
    : null;
  const segment = trace.segment ? [...trace.segment.from, ...trace.segment.to] : null;
  const grid = trace.supercell ? cellGrid(trace.cell, trace.supercell) : null;
  return {
    paths,
    axis,
    segment,
    grid,
    pathColors: repeatColor(COLORS.moved, paths.length / 3),
    axisColors: repeatColor(COLORS.axis, 2),
    segmentColors: repeatColor(COLORS.added, 2),
    gridColors: grid ? repeatColor(COLORS.cells, grid.length / 3) : [],
    movedTo: trace.moves.map((m) => m.to),
    movedFrom: some(trace.moves.map((m) => at(m.beforeIndex))),
    centre: r ? [r.centre] : null,
    planeReference: trace.plane ? some([at(trace.plane.referenceIndex)]) : [],
    added: trace.added.map((a) => a.position),
    removed: some(trace.removed.map(at)),
    changed: some(trace.changed.map((c) => at(c.index))),
  };
}
