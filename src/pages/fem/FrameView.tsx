/**
 * The 3D frame: elements as tubes, nodes, support glyphs (cube = fixed, cone = pinned, octahedron = partial),
 * loads and reactions as arrows, optional local axes; the deformed shape coloured by displacement, or a buckling
 * mode animated (the scene re-renders per frame only while the animation plays).
 */
import { useFrame, useThree } from '@react-three/fiber';
import { useShallow } from 'zustand/react/shallow';
import { useEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import { DEFAULT_SETTINGS, type ViewSettings } from '../../viewer/view-settings.ts';
import { useFem } from '../../state/fem.ts';
import { ViewerController } from '../../viewer/controller.ts';
import { StructureViewer } from '../../viewer/StructureViewer.tsx';
import { useDisposable } from '../../viewer/use-disposable.ts';
import { DISPLACEMENT_RAMP, rampColor, type Rgb } from '../../viewer/colors.ts';
import { ColorBar } from '../../ui/ColorBar.tsx';
import { makeSphereMesh, makeTubeMesh } from '../../viewer/impostors.ts';
import {
  autoScale,
  bounds,
  characteristicLength,
  deformedPieces,
  elementAxes,
  reactionRows,
  supportKind,
  translationMagnitudes,
  type FrameModel,
} from '../../core/tasks/fembench/lab/frame-model.ts';

export const frameViewer = new ViewerController('fem-frame');
const VIEW_SETTINGS: ViewSettings = { ...DEFAULT_SETTINGS, showBonds: false, showCell: false, showPolyhedra: false };
const GREY: Rgb = [0.55, 0.58, 0.63];

export function FrameView() {
  const s = useFem(
    useShallow((st) => ({
      buckling: st.buckling,
      fitToken: st.fitToken,
      linear: st.linear,
      modeIndex: st.modeIndex,
      model: st.model,
      playing: st.playing,
      scale: st.scale,
      show: st.show,
      showAxes: st.showAxes,
    })),
  );
  const model = s.model;
  // The scene is drawn z-up (structural convention) inside a group turned so model z is the viewer's y (its orbit axis).
  const fit = useMemo(() => {
    const b = bounds(model.node_coords);
    return { center: toView(b.center), radius: b.radius + 0.25 * characteristicLength(model) };
  }, [model]);
  // After the viewer's own refit on a new model: an oblique view from the front-right, z up.
  useEffect(() => {
    frameViewer.viewAlong(0.55, 0.45, 1);
  }, [s.fitToken]);
  const size = useMemo(() => characteristicLength(model), [model]);
  const field =
    s.show === 'deformed' && s.linear ? s.linear.u : s.show === 'mode' && s.buckling ? (s.buckling.modes[s.modeIndex]?.mode ?? null) : null;
  const scale = field ? (s.scale ?? autoScale(field, model.node_coords.length, size)) : 0;
  return (
    <div className="view" data-testid="fem-frame-view">
      <StructureViewer
        controller={frameViewer}
        testId="viewer-fem"
        display={null}
        settings={VIEW_SETTINGS}
        fitKey={s.fitToken}
        fitBounds={fit}
      >
        <group rotation={[-Math.PI / 2, 0, 0]}>
          <FrameScene
            model={model}
            size={size}
            field={field}
            scale={scale}
            showAxes={s.showAxes}
            showReactions={s.show === 'deformed' && s.linear ? s.linear.r : null}
            animate={s.show === 'mode' && s.playing}
          />
        </group>
      </StructureViewer>
      {field && <DisplacementBar field={field} nNodes={model.node_coords.length} unit={s.show === 'mode' ? 'mode (unit norm)' : '|u|'} />}
    </div>
  );
}

/** Model (x, y, z) → viewer coordinates under the group's −90° turn about x: (x, z, −y). */
const toView = (c: readonly number[]): [number, number, number] => [c[0], c[2], -c[1]];

function DisplacementBar({ field, nNodes, unit }: { field: ArrayLike<number>; nNodes: number; unit: string }) {
  let max = 0;
  for (const v of translationMagnitudes(field, nNodes)) max = Math.max(max, v);
  return (
    <ColorBar caption={unit} ramp={DISPLACEMENT_RAMP} min="0" max={max.toPrecision(3)} testId="fem-colorbar" maxTestId="fem-colorbar-top" />
  );
}

interface SceneProps {
  model: FrameModel;
  size: number;
  field: ArrayLike<number> | null;
  scale: number;
  showAxes: boolean;
  showReactions: ArrayLike<number> | null;
  animate: boolean;
}

function FrameScene({ model, size, field, scale, showAxes, showReactions, animate }: SceneProps) {
  const radius = 0.008 * size;
  const undeformed = useDisposable(() => {
    const n = model.elements.length;
    const starts = new Float32Array(3 * n),
      ends = new Float32Array(3 * n),
      colors = new Float32Array(3 * n);
    model.elements.forEach((e, k) => {
      starts.set(model.node_coords[e.node_i] ?? [0, 0, 0], 3 * k);
      ends.set(model.node_coords[e.node_j] ?? [0, 0, 0], 3 * k);
      colors.set(field ? [0.78, 0.8, 0.84] : GREY, 3 * k);
    });
    return makeTubeMesh({ starts, ends, colors, count: n }, field ? radius * 0.6 : radius);
  }, [model, field !== null, radius]);
  const nodes = useDisposable(() => {
    const n = model.node_coords.length;
    const centers = new Float32Array(3 * n),
      radii = new Float32Array(n).fill(radius * 1.8),
      colors = new Float32Array(3 * n);
    model.node_coords.forEach((c, i) => {
      centers.set(c, 3 * i);
      colors.set([0.2, 0.22, 0.28], 3 * i);
    });
    return makeSphereMesh({ centers, radii, colors, count: n });
  }, [model, radius]);
  const glyphs = useDisposable(() => supportAndLoadGlyphs(model, size, showReactions), [model, size, showReactions]);
  const axes = useDisposable(() => (showAxes ? localAxesGroup(model, size) : new THREE.Group()), [model, size, showAxes]);
  return (
    <>
      <primitive object={undeformed} />
      <primitive object={nodes} />
      <primitive object={glyphs} />
      <primitive object={axes} />
      {field && <Deformed model={model} field={field} scale={scale} radius={radius} animate={animate} />}
    </>
  );
}

const SEGMENTS = 8;

function Deformed({
  model,
  field,
  scale,
  radius,
  animate,
}: {
  model: FrameModel;
  field: ArrayLike<number>;
  scale: number;
  radius: number;
  animate: boolean;
}) {
  const invalidate = useThree((st) => st.invalidate);
  const mesh = useDisposable(() => {
    const p = deformedPieces(model, field, scale, SEGMENTS);
    // Same top as the colour bar (largest nodal translation); curve interiors beyond it saturate.
    let max = 0;
    for (const v of translationMagnitudes(field, model.node_coords.length)) max = Math.max(max, v);
    const colors = new Float32Array(3 * p.count);
    for (let i = 0; i < p.count; i++) colors.set(rampColor(DISPLACEMENT_RAMP, max > 0 ? p.magnitude[i] / max : 0), 3 * i);
    return makeTubeMesh({ starts: p.starts, ends: p.ends, colors, count: p.count }, radius);
  }, [model, field, scale, radius]);
  const start = useRef(0); // set when the animation (re)starts, below
  useEffect(() => {
    start.current = performance.now();
    if (animate) invalidate();
    else setPieces(mesh, deformedPieces(model, field, scale, SEGMENTS)); // rest at full amplitude when paused
    invalidate();
  }, [animate, mesh, invalidate, model, field, scale]);
  useFrame(() => {
    if (!animate) return;
    const t = (performance.now() - start.current) / 1000;
    setPieces(mesh, deformedPieces(model, field, scale * Math.sin(2 * Math.PI * 0.5 * t), SEGMENTS));
    invalidate(); // keep rendering only while playing
  });
  return <primitive object={mesh} />;
}

/** Moves the tube pieces by rewriting the tube shader's start/end textures. */
function setPieces(mesh: THREE.Mesh, p: { starts: Float32Array; ends: Float32Array; count: number }): void {
  const u = (mesh.material as THREE.ShaderMaterial).uniforms;
  const st = u.uStart.value as THREE.DataTexture,
    en = u.uEnd.value as THREE.DataTexture;
  const sd = st.image.data as Float32Array,
    ed = en.image.data as Float32Array;
  for (let i = 0; i < p.count; i++)
    for (let k = 0; k < 3; k++) {
      sd[4 * i + k] = p.starts[3 * i + k];
      ed[4 * i + k] = p.ends[3 * i + k];
    }
  st.needsUpdate = true;
  en.needsUpdate = true;
}

function arrow(from: THREE.Vector3, dir: THREE.Vector3, length: number, color: number): THREE.ArrowHelper {
  return new THREE.ArrowHelper(dir.clone().normalize(), from, length, color, 0.3 * length, 0.15 * length);
}

function supportAndLoadGlyphs(model: FrameModel, size: number, reactions: ArrayLike<number> | null): THREE.Group {
  const g = new THREE.Group();
  const s = 0.06 * size;
  for (const [key, flags] of Object.entries(model.boundary_conditions)) {
    const c = model.node_coords[Number(key)];
    const kind = supportKind(flags);
    if (!c || !kind) continue;
    const geometry =
      kind === 'fixed'
        ? new THREE.BoxGeometry(s, s, s)
        : kind === 'pinned'
          ? new THREE.ConeGeometry(0.6 * s, s, 16)
          : new THREE.OctahedronGeometry(0.6 * s);
    const mesh = new THREE.Mesh(
      geometry,
      new THREE.MeshLambertMaterial({ color: kind === 'fixed' ? 0x3b4a63 : kind === 'pinned' ? 0x2f7d4a : 0x8a6d1f }),
    );
    mesh.position.set(c[0], c[1], c[2]);
    if (kind === 'pinned') {
      mesh.rotation.x = Math.PI / 2;
      mesh.position.z -= 0.5 * s;
    } // cone tip at the node, base below (model z up)
    mesh.name = `support-${kind}`;
    g.add(mesh);
  }
  // Arrow lengths: the largest force gets 25% of the frame size, others in proportion (moments in magenta).
  const drawVectors = (values: (node: number) => number[] | null, forceColor: number, momentColor: number, tipAtNode: boolean) => {
    let maxF = 0,
      maxM = 0;
    for (let i = 0; i < model.node_coords.length; i++) {
      const v = values(i);
      if (!v) continue;
      maxF = Math.max(maxF, Math.hypot(v[0], v[1], v[2]));
      maxM = Math.max(maxM, Math.hypot(v[3], v[4], v[5]));
    }
    model.node_coords.forEach((c, i) => {
      const v = values(i);
      if (!v) return;
      const node = new THREE.Vector3(c[0], c[1], c[2]);
      for (const [off, max, color] of [
        [0, maxF, forceColor],
        [3, maxM, momentColor],
      ] as const) {
        const vec = new THREE.Vector3(v[off], v[off + 1], v[off + 2]);
        const mag = vec.length();
        if (!(mag > 0) || !(max > 0)) continue;
        const len = 0.25 * size * Math.max(0.25, mag / max);
        const from = tipAtNode ? node.clone().addScaledVector(vec.clone().normalize(), -len) : node;
        g.add(arrow(from, vec, len, color));
      }
    });
  };
  drawVectors((i) => model.nodal_loads[String(i)] ?? null, 0xd62728, 0xc040c0, true);
  if (reactions) {
    drawVectors(
      (i) => {
        const rows = reactionRows(reactions, model).filter((r) => r.node === i);
        if (!rows.length) return null;
        return [0, 1, 2, 3, 4, 5].map((d) => reactions[6 * i + d]);
      },
      0x1a9641,
      0x4a8a8a,
      false,
    );
  }
  return g;
}

function localAxesGroup(model: FrameModel, size: number): THREE.Group {
  const g = new THREE.Group();
  const axes = elementAxes(model);
  model.elements.forEach((e, k) => {
    const ax = axes[k];
    const a = model.node_coords[e.node_i],
      b = model.node_coords[e.node_j];
    if (!ax || !a || !b) return;
    const mid = new THREE.Vector3((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2);
    const L = Math.min(0.12 * size, 0.35 * Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]));
    [0xd62728, 0x2ca02c, 0x1f5fd6].forEach((color, i) => g.add(arrow(mid, new THREE.Vector3(...ax[i]), L, color)));
  });
  return g;
}
