/**
 * 2D view: a Q8 or T6 mesh of a rectangle (the reference generators) with node and element numbers, the Gauss
 * points of the chosen rule, one shape function as a colour map over an element, and det J per element;
 * nodes can be dragged (or typed) to distort an element until it inverts.
 */
import { useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useFem } from '../../state/fem.ts';
import { DISPLACEMENT_RAMP, rampColor } from '../../viewer/colors.ts';
import {
  elementOutline,
  gaussPoints,
  jacobianChecks,
  rectangleMesh,
  RULES,
  shapeFunctionSamples,
  type ElementKind,
  type Mesh2D,
} from '../../core/tasks/fembench/lab/mesh2d-view.ts';
import { QuirkNotes } from './QuirkNotes.tsx';
import { benchmarkQuirkNotes } from './quirks.ts';

const W = 640,
  H = 420,
  PAD = 30;
const SHAPE_RAMP = [
  [0.2, 0.3, 0.8],
  [1, 1, 1],
  [0.85, 0.2, 0.1],
] as [number, number, number][];

export function Mesh2DView() {
  const s = useFem(
    useShallow((st) => ({
      movedNodes: st.movedNodes,
      rect: st.rect,
      ruleN: st.ruleN,
      shapeElement: st.shapeElement,
      shapeIndex: st.shapeIndex,
    })),
  );
  const [selectedNode, setSelectedNode] = useState<number | null>(null);
  const built = useMemo(() => {
    try {
      const mesh = rectangleMesh(s.rect);
      for (const [k, xy] of Object.entries(s.movedNodes)) if (mesh.coords[Number(k)]) mesh.coords[Number(k)] = [...xy];
      return { mesh, error: null as string | null };
    } catch (e) {
      return { mesh: null, error: e instanceof Error ? e.message : String(e) };
    }
  }, [s.rect, s.movedNodes]);
  const mesh = built.mesh;
  const ruleN = RULES[s.rect.kind].includes(s.ruleN) ? s.ruleN : RULES[s.rect.kind][1];
  const checks = useMemo(() => (mesh ? jacobianChecks(mesh, ruleN) : []), [mesh, ruleN]);
  const gauss = useMemo(() => (mesh ? gaussPoints(mesh, ruleN) : []), [mesh, ruleN]);
  const setRect = (patch: Partial<typeof s.rect>) =>
    useFem.setState({ rect: { ...s.rect, ...patch }, movedNodes: {}, shapeElement: 0, shapeIndex: 0 });
  const inverted = checks.filter((c) => c.inverted);
  return (
    <div className="fem-2d" data-testid="fem-2d">
      <div className="fem-row">
        <label>
          element{' '}
          <select value={s.rect.kind} data-testid="fem-2d-kind" onChange={(e) => setRect({ kind: e.target.value as ElementKind })}>
            <option value="Q8">Q8 (8-node quad)</option>
            <option value="T6">T6 (6-node triangle)</option>
          </select>
        </label>
        {(['nx', 'ny'] as const).map((k) => (
          <label key={k}>
            {k}{' '}
            <input
              type="number"
              min={1}
              max={20}
              value={s.rect[k]}
              data-testid={`fem-2d-${k}`}
              style={{ width: 48 }}
              onChange={(e) => setRect({ [k]: Math.round(Number(e.target.value)) })}
            />
          </label>
        ))}
        {(['xl', 'yl', 'xh', 'yh'] as const).map((k) => (
          <label key={k}>
            {k}{' '}
            <input
              type="number"
              step="0.5"
              value={s.rect[k]}
              style={{ width: 56 }}
              onChange={(e) => setRect({ [k]: Number(e.target.value) })}
            />
          </label>
        ))}
        <label>
          Gauss rule{' '}
          <select value={ruleN} onChange={(e) => useFem.setState({ ruleN: Number(e.target.value) })}>
            {RULES[s.rect.kind].map((n) => (
              <option key={n} value={n}>
                {n} point{n > 1 ? 's' : ''}
              </option>
            ))}
          </select>
        </label>
      </div>
      {built.error && (
        <p className="fem-error" role="alert">
          {built.error}
        </p>
      )}
      <QuirkNotes notes={benchmarkQuirkNotes({ view: '2d', kind: s.rect.kind, invertedElements: inverted.length })} />
      {mesh && (
        <>
          <p data-testid="fem-2d-counts">
            <span data-testid="fem-2d-nodes">{mesh.coords.length}</span> nodes,{' '}
            <span data-testid="fem-2d-elements">{mesh.connect.length}</span> elements, {gauss.length} Gauss points.{' '}
            {inverted.length > 0 ? (
              <strong className="fem-bad" data-testid="fem-2d-inverted">
                Inverted: element{inverted.length > 1 ? 's' : ''} {inverted.map((c) => c.element).join(', ')} (det J ≤ 0)
              </strong>
            ) : (
              <span data-testid="fem-2d-inverted">No inverted element.</span>
            )}
          </p>
          <div className="fem-row">
            <label>
              shape function over element{' '}
              <input
                type="number"
                min={0}
                max={mesh.connect.length - 1}
                value={s.shapeElement}
                style={{ width: 48 }}
                onChange={(e) =>
                  useFem.setState({ shapeElement: Math.max(0, Math.min(mesh.connect.length - 1, Math.round(Number(e.target.value)))) })
                }
              />
            </label>
            <label>
              N<sub>a</sub>, a ={' '}
              <select value={s.shapeIndex} onChange={(e) => useFem.setState({ shapeIndex: Number(e.target.value) })}>
                {mesh.connect[0].map((_, a) => (
                  <option key={a} value={a}>
                    {a + 1}
                  </option>
                ))}
              </select>
            </label>
            {selectedNode !== null && mesh.coords[selectedNode] && <NodeEditor index={selectedNode} xy={mesh.coords[selectedNode]} />}
            <button onClick={() => useFem.setState({ movedNodes: {} })} disabled={Object.keys(s.movedNodes).length === 0}>
              reset nodes
            </button>
          </div>
          <p className="fem-hint">
            N<sub>{s.shapeIndex + 1}</sub> over element {s.shapeElement}: <span className="fem-ramp" /> −0.25 (blue) · 0 (white) · 1 (red);
            red dots: Gauss points; numbers: nodes (blue) and elements (dark red).
          </p>
          <MeshSvg
            mesh={mesh}
            gauss={gauss}
            inverted={new Set(inverted.map((c) => c.element))}
            shapeElement={s.shapeElement}
            shapeIndex={s.shapeIndex}
            selectedNode={selectedNode}
            onSelect={setSelectedNode}
          />
          <table className="fem-small-table" data-testid="fem-2d-jacobians">
            <thead>
              <tr>
                <th>element</th>
                <th>min det J</th>
                <th>max det J</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {checks.slice(0, 60).map((c) => (
                <tr key={c.element} className={c.inverted ? 'bad' : ''}>
                  <td>{c.element}</td>
                  <td>{c.min.toPrecision(4)}</td>
                  <td>{c.max.toPrecision(4)}</td>
                  <td>{c.inverted ? 'inverted' : 'ok'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="fem-hint">
            Drag a node (or select it and type its coordinates) to distort the mesh; det J is sampled at the Gauss points and the element's
            nodes.
          </p>
        </>
      )}
    </div>
  );
}

function NodeEditor({ index, xy }: { index: number; xy: number[] }) {
  const set = (k: 0 | 1, v: number) => {
    if (!Number.isFinite(v)) return;
    const next: [number, number] = [xy[0], xy[1]];
    next[k] = v;
    useFem.setState((s) => ({ movedNodes: { ...s.movedNodes, [index]: next } }));
  };
  return (
    <span data-testid="fem-2d-node-editor">
      node {index}: x{' '}
      <input
        type="number"
        step="0.1"
        value={xy[0]}
        style={{ width: 64 }}
        data-testid="fem-2d-node-x"
        onChange={(e) => set(0, Number(e.target.value))}
      />{' '}
      y{' '}
      <input
        type="number"
        step="0.1"
        value={xy[1]}
        style={{ width: 64 }}
        data-testid="fem-2d-node-y"
        onChange={(e) => set(1, Number(e.target.value))}
      />
    </span>
  );
}

interface SvgProps {
  mesh: Mesh2D;
  gauss: { element: number; x: number; y: number }[];
  inverted: Set<number>;
  shapeElement: number;
  shapeIndex: number;
  selectedNode: number | null;
  onSelect: (i: number | null) => void;
}

function MeshSvg({ mesh, gauss, inverted, shapeElement, shapeIndex, selectedNode, onSelect }: SvgProps) {
  const svgRef = useRef<SVGSVGElement>(null);
  const drag = useRef<number | null>(null);
  // Fixed view box from the undistorted rectangle so dragging does not rescale the view.
  const rect = useFem((s) => s.rect);
  const sx = (W - 2 * PAD) / (rect.xh - rect.xl || 1),
    sy = (H - 2 * PAD) / (rect.yh - rect.yl || 1);
  const k = Math.min(sx, sy);
  const X = (x: number) => PAD + (x - rect.xl) * k;
  const Y = (y: number) => H - PAD - (y - rect.yl) * k;
  const toModel = (cx: number, cy: number): [number, number] => {
    const r = svgRef.current!.getBoundingClientRect();
    const px = ((cx - r.left) / r.width) * W,
      py = ((cy - r.top) / r.height) * H;
    return [rect.xl + (px - PAD) / k, rect.yl + (H - PAD - py) / k];
  };
  const samples = mesh.connect[shapeElement] ? shapeFunctionSamples(mesh, shapeElement, shapeIndex, 14) : [];
  const showLabels = mesh.connect.length <= 80;
  return (
    <svg
      ref={svgRef}
      viewBox={`0 0 ${W} ${H}`}
      className="fem-svg"
      data-testid="fem-2d-svg"
      onPointerMove={(e) => {
        if (drag.current === null) return;
        const xy = toModel(e.clientX, e.clientY);
        const i = drag.current;
        useFem.setState((s) => ({ movedNodes: { ...s.movedNodes, [i]: xy } }));
      }}
      onPointerUp={() => {
        drag.current = null;
      }}
      onPointerLeave={() => {
        drag.current = null;
      }}
    >
      {samples.slice(0, -1).map((row, i) =>
        row.slice(0, -1).map((p, j) => {
          const q = [p, row[j + 1], samples[i + 1][j + 1], samples[i + 1][j]];
          const v = (q[0].value + q[1].value + q[2].value + q[3].value) / 4;
          // white at N = 0: negative lobes (down to −0.25 for quadratic shapes) blue, positive red
          const c = v < 0 ? rampColor(SHAPE_RAMP.slice(0, 2), 1 + v / 0.25) : rampColor(SHAPE_RAMP.slice(1), v);
          return (
            <polygon
              key={`${i}-${j}`}
              points={q.map((t) => `${X(t.x)},${Y(t.y)}`).join(' ')}
              fill={`rgb(${c.map((x) => Math.round(255 * x)).join(',')})`}
              stroke="none"
            />
          );
        }),
      )}
      {mesh.connect.map((_, e) => {
        const pts = elementOutline(mesh, e)
          .map((n) => `${X(mesh.coords[n][0])},${Y(mesh.coords[n][1])}`)
          .join(' ');
        return (
          <polyline
            key={e}
            points={pts}
            fill={inverted.has(e) ? 'rgba(214,39,40,0.25)' : 'none'}
            stroke={inverted.has(e) ? '#d62728' : '#334'}
            strokeWidth={inverted.has(e) ? 2 : 1}
          />
        );
      })}
      {showLabels &&
        mesh.connect.map((c, e) => {
          const corners = mesh.kind === 'Q8' ? c.slice(0, 4) : c.slice(0, 3);
          const cx = corners.reduce((a, n) => a + mesh.coords[n][0], 0) / corners.length,
            cy = corners.reduce((a, n) => a + mesh.coords[n][1], 0) / corners.length;
          return (
            <text key={e} x={X(cx)} y={Y(cy)} className="fem-el-label" textAnchor="middle">
              {e}
            </text>
          );
        })}
      {gauss.map((g, i) => (
        <circle key={i} cx={X(g.x)} cy={Y(g.y)} r={2.2} fill={rgb(DISPLACEMENT_RAMP[3])} />
      ))}
      {mesh.coords.map((c, i) => (
        <g
          key={i}
          onPointerDown={(e) => {
            drag.current = i;
            onSelect(i);
            try {
              (e.target as Element).setPointerCapture(e.pointerId);
            } catch {
              /* no active pointer (synthetic event): dragging still works inside the SVG */
            }
          }}
          style={{ cursor: 'grab' }}
        >
          <circle
            cx={X(c[0])}
            cy={Y(c[1])}
            r={selectedNode === i ? 5 : 3.5}
            fill={selectedNode === i ? '#e0a000' : '#1f3a66'}
            data-testid={`fem-2d-node-${i}`}
          />
          {showLabels && (
            <text x={X(c[0]) + 4} y={Y(c[1]) - 4} className="fem-node-label">
              {i}
            </text>
          )}
        </g>
      ))}
    </svg>
  );
}

const rgb = (c: number[]) => `rgb(${c.map((x) => Math.round(255 * x)).join(',')})`;
