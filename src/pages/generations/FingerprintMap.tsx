/**
 * The de novo run's coverage fingerprints on their principal plane (workers/generations.worker.ts fits it on the
 * test set and the predictions together): test structures and predictions, these split by whether they are within
 * both cutoffs of a test structure (COV-P). Drawn on one canvas, imperatively, so thousands of points stay smooth;
 * the pointer names a point and a click on a prediction opens its sample.
 */
import { type MouseEvent, useEffect, useMemo, useRef, useState } from 'react';
import type { DenovoSample, FingerprintMap as MapData } from '../../../workers/generations-api.ts';
import { type MapGroup, type MapPoint, axisCaption, hitTest, layoutPoints, mapPoints } from './fingerprint-map-model.ts';

type MapKind = 'structure' | 'composition';

const KINDS: { kind: MapKind; label: string; title: string }[] = [
  { kind: 'structure', label: 'structure', title: "mean CrystalNNFingerprint('ops') of the sites, 61 numbers" },
  { kind: 'composition', label: 'composition', title: "Magpie ElementProperty scaled by CDVAE's CompScaler, 132 numbers" },
];

const COLOR: Record<MapGroup, string> = { test: '#9aa3b2', covered: '#1f5fd6', uncovered: '#e07b00' };
const LEGEND: Record<MapGroup, string> = {
  test: 'test structures',
  covered: 'predictions covered (within both cutoffs of a test structure)',
  uncovered: 'predictions not covered',
};
const COVERED_TEXT: Record<MapGroup, string> = { test: '', covered: 'covered', uncovered: 'not covered' };
/** Marker radius and the pointer's reach, CSS pixels. */
const RADIUS = 3;
const REACH = 8;

interface Props {
  map: MapData;
  rows: readonly DenovoSample[];
  cutoffs: { struc: number; comp: number };
  selected: number | null;
  onSelect: (index: number) => void;
}

export function FingerprintMap({ map, rows, cutoffs, selected, onSelect }: Props) {
  const [kind, setKind] = useState<MapKind>('structure');
  const plane = map[kind];
  const points = useMemo(() => mapPoints(plane, rows, cutoffs), [plane, rows, cutoffs]);
  const counts = useMemo(() => {
    const c: Record<MapGroup, number> = { test: 0, covered: 0, uncovered: 0 };
    for (const p of points) c[p.group]++;
    return c;
  }, [points]);
  const missing = plane.predictions.length + plane.truth.length - points.length;
  const hostRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  // The hovered point, of the points it was found among: another kind's or run's points hover none.
  const [hoverOf, setHoverOf] = useState<{ points: MapPoint[]; k: number } | null>(null);
  const hover = hoverOf && hoverOf.points === points ? hoverOf.k : -1;
  const at = useMemo(() => (size ? layoutPoints(points, size.width, size.height) : new Float32Array(0)), [points, size]);

  useEffect(() => {
    const host = hostRef.current!;
    const observer = new ResizeObserver(() => setSize({ width: host.clientWidth, height: host.clientHeight }));
    observer.observe(host);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current!;
    if (!size) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(size.width * dpr));
    canvas.height = Math.max(1, Math.round(size.height * dpr));
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size.width, size.height);
    ctx.strokeStyle = '#c9d1dd';
    ctx.strokeRect(0.5, 0.5, size.width - 1, size.height - 1);
    // One path per group: a few thousand arcs fill in about a millisecond.
    for (const group of ['test', 'uncovered', 'covered'] as const) {
      ctx.beginPath();
      points.forEach((p, k) => {
        if (p.group !== group) return;
        ctx.moveTo(at[2 * k] + RADIUS, at[2 * k + 1]);
        ctx.arc(at[2 * k], at[2 * k + 1], RADIUS, 0, 2 * Math.PI);
      });
      ctx.fillStyle = COLOR[group];
      ctx.fill();
    }
    const ring = (k: number, color: string) => {
      ctx.beginPath();
      ctx.arc(at[2 * k], at[2 * k + 1], RADIUS + 3, 0, 2 * Math.PI);
      ctx.strokeStyle = color;
      ctx.lineWidth = 2;
      ctx.stroke();
      ctx.lineWidth = 1;
    };
    const chosen = points.findIndex((p) => p.group !== 'test' && p.index === selected);
    if (chosen >= 0) ring(chosen, '#000');
    if (hover >= 0 && hover < points.length) ring(hover, '#555');
  }, [points, at, size, selected, hover]);

  const first = points.findIndex((p) => p.group !== 'test');
  const pointAt = (e: MouseEvent, accept?: (p: MapPoint) => boolean) => {
    const box = canvasRef.current!.getBoundingClientRect();
    return hitTest(points, at, e.clientX - box.left, e.clientY - box.top, REACH, accept);
  };
  const hovered = hover >= 0 ? points[hover] : undefined;
  // For tests: the points drawn, and where the first prediction is (CSS pixels from the canvas's top-left corner).
  return (
    <div
      className="gen-map"
      data-testid="gen-fingerprint-map"
      data-kind={kind}
      data-points={size ? points.length : 0}
      data-first-prediction={size && first >= 0 ? `${at[2 * first].toFixed(1)},${at[2 * first + 1].toFixed(1)}` : undefined}
    >
      <div className="gen-toggle" role="group" aria-label="fingerprint">
        {KINDS.map((k) => (
          <button
            type="button"
            key={k.kind}
            title={k.title}
            aria-pressed={kind === k.kind}
            className={kind === k.kind ? 'active' : ''}
            data-testid={`gen-map-${k.kind}`}
            onClick={() => setKind(k.kind)}
          >
            {k.label}
          </button>
        ))}
      </div>
      <div className="gen-map-area">
        <div className="gen-map-ylabel">{axisCaption(2, plane.explained[1])}</div>
        <div className="gen-map-plot" ref={hostRef}>
          <canvas
            ref={canvasRef}
            data-testid="gen-map-canvas"
            role="img"
            aria-label={`${kind} fingerprints of ${counts.test} test structures and ${counts.covered + counts.uncovered} predictions`}
            style={{ cursor: hovered && hovered.group !== 'test' ? 'pointer' : 'default' }}
            onPointerMove={(e) => {
              const k = pointAt(e);
              if (k !== hover) setHoverOf({ points, k });
            }}
            onPointerLeave={() => setHoverOf(null)}
            onClick={(e) => {
              const k = pointAt(e, (p) => p.group !== 'test');
              if (k >= 0) onSelect(points[k].index);
            }}
          />
        </div>
        <div className="gen-map-xlabel">{axisCaption(1, plane.explained[0])}</div>
      </div>
      <div className="gen-map-legend">
        {(['covered', 'uncovered', 'test'] as const).map((g) => (
          <span key={g} data-testid={`gen-map-legend-${g}`} data-count={counts[g]}>
            <i className="swatch" style={{ background: COLOR[g] }} /> {LEGEND[g]} {counts[g]}
          </span>
        ))}
        {missing > 0 && <span>{missing} without fingerprints not drawn</span>}
      </div>
      <div className="gen-map-hover hint" data-testid="gen-map-hover">
        {hovered
          ? hovered.group === 'test'
            ? `test structure ${map.truthIds[hovered.index]}`
            : `prediction ${hovered.index + 1}: ${rows[hovered.index].id} (${COVERED_TEXT[hovered.group]}; click to open)`
          : 'Point at a crystal for its id; click a prediction to open it.'}
      </div>
    </div>
  );
}
