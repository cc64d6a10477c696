/**
 * The convex hull of the selected sample's chemical system with the generated crystals placed on it: binary as
 * formation energy per atom against composition (uPlot), ternary as a composition triangle (SVG) coloured by energy
 * above hull. The geometry comes ready from src/core/analysis/hull-plot.ts through the worker; this only draws.
 */
import { useMemo } from 'react';
import uPlot from 'uplot';
import type { HullPlotData, HullPlotSample } from '../../core/analysis/hull-plot.ts';
import { ColorBar } from '../../ui/ColorBar.tsx';
import { Plot } from '../../ui/Plot.tsx';
import { fmt } from '../../ui/format.ts';
import { DISPLACEMENT_RAMP, rampColor, toHex } from '../../viewer/colors.ts';
import type { HullView } from '../../../workers/generations-api.ts';

const HULL_COLOR = '#222';
const SAMPLE_COLOR = '#d62728';
/** Pointer distance (px) within which a generated crystal is named under the binary plot. */
const HOVER_PX = 12;

const BINARY_SERIES: uPlot.Series[] = [
  { label: 'hull (stable phases)', stroke: HULL_COLOR, width: 2, spanGaps: true, points: { show: true, size: 7, fill: HULL_COLOR } },
  // Points only: the line between neighbouring crystals is transparent, their markers drawn.
  { label: 'generated', stroke: 'transparent', points: { show: true, size: 7, fill: SAMPLE_COLOR, stroke: SAMPLE_COLOR } },
];

const sampleTitle = (s: HullPlotSample) => `${s.label}: E_hull ${fmt(s.eAboveHull)} eV/atom`;

export function HullPlot({ hull, selected }: { hull: HullView; selected: number }) {
  if ('why' in hull)
    return (
      <p className="hint" data-testid="gen-hull-why">
        {hull.why}
      </p>
    );
  return (
    <>
      {hull.plot.elements.length === 2 ? <BinaryHull plot={hull.plot} /> : <TernaryHull plot={hull.plot} selected={selected} />}
      {hull.omitted > 0 && (
        <p className="hint">
          {hull.plot.samples.length} generated crystals of this system drawn, {hull.omitted} more left out.
        </p>
      )}
    </>
  );
}

function BinaryHull({ plot }: { plot: HullPlotData }) {
  const { data, points } = useMemo(() => {
    const rows = [
      ...plot.stable.map((p) => ({ x: p.xy[0], hull: p.xy[1], gen: null as number | null, sample: null as HullPlotSample | null })),
      ...plot.samples.map((s) => ({ x: s.xy[0], hull: null as number | null, gen: s.xy[1], sample: s })),
    ].sort((a, b) => a.x - b.x);
    const aligned: uPlot.AlignedData = [rows.map((r) => r.x), rows.map((r) => r.hull), rows.map((r) => r.gen)];
    return { data: aligned, points: rows };
  }, [plot]);
  const readout = useMemo(
    () => ({
      testId: 'gen-hull-hover',
      initial: 'Point at a generated crystal for its energy above hull.',
      text: (u: uPlot) => {
        const left = u.cursor.left ?? -1,
          top = u.cursor.top ?? -1;
        if (left < 0) return null;
        let best: HullPlotSample | null = null,
          bestPx = HOVER_PX;
        for (const p of points) {
          if (!p.sample) continue;
          const d = Math.hypot(u.valToPos(p.x, 'x') - left, u.valToPos(p.sample.xy[1], 'y') - top);
          if (d <= bestPx) [best, bestPx] = [p.sample, d];
        }
        return best ? sampleTitle(best) : null;
      },
    }),
    [points],
  );
  return (
    <div data-testid="gen-hull-plot" data-kind="binary" data-samples={plot.samples.length}>
      <Plot
        title={`${plot.elements.join('–')} hull: formation energy (eV/atom) against x(${plot.elements[1]})`}
        testId="gen-hull-binary"
        data={data}
        series={BINARY_SERIES}
        xLabel={`x(${plot.elements[1]})`}
        scales={{ x: { time: false, range: [0, 1] } }}
        readout={readout}
      />
    </div>
  );
}

/** Plot units per triangle side, and the margin around it for the corner labels. */
const SIDE = 100;
const PAD = 10;

function TernaryHull({ plot, selected }: { plot: HullPlotData; selected: number }) {
  const values = plot.samples.map((s) => s.eAboveHull);
  const lo = Math.min(0, ...values),
    hi = Math.max(0, ...values);
  const colour = (e: number) => toHex(rampColor(DISPLACEMENT_RAMP, hi > lo ? (e - lo) / (hi - lo) : 0));
  const h = (SIDE * Math.sqrt(3)) / 2;
  const at = (xy: [number, number]): [number, number] => [PAD + xy[0] * SIDE, PAD + h - xy[1] * SIDE];
  const corners: [number, number][] = [at([0, 0]), at([1, 0]), at([0.5, Math.sqrt(3) / 2])];
  return (
    <div className="gen-hull-ternary" data-testid="gen-hull-plot" data-kind="ternary" data-samples={plot.samples.length}>
      <div className="plot-title">{plot.elements.join('–')} hull: stable phases (black), tie lines, generated crystals by E_hull</div>
      <svg viewBox={`0 0 ${SIDE + 2 * PAD} ${h + 2 * PAD}`} role="img" aria-label={`${plot.elements.join('–')} convex hull`}>
        <polygon points={corners.map((c) => c.join(',')).join(' ')} fill="none" stroke="#999" strokeWidth={0.4} />
        {plot.tieLines.map(([i, j]) => {
          const [a, b] = [at(plot.stable[i].xy), at(plot.stable[j].xy)];
          return <line key={`${i}-${j}`} x1={a[0]} y1={a[1]} x2={b[0]} y2={b[1]} stroke={HULL_COLOR} strokeWidth={0.4} />;
        })}
        {plot.elements.map((el, k) => (
          <text key={el} x={corners[k][0]} y={corners[k][1] + (k === 2 ? -2.5 : 6)} fontSize={5} textAnchor="middle">
            {el}
          </text>
        ))}
        {plot.stable.map((p) => {
          const [x, y] = at(p.xy);
          return (
            <circle key={`s-${p.label}`} cx={x} cy={y} r={1.4} fill={HULL_COLOR}>
              <title>{`${p.label}: stable, formation energy ${fmt(p.formationEnergyPerAtom)} eV/atom`}</title>
            </circle>
          );
        })}
        {plot.samples.map((s) => {
          const [x, y] = at(s.xy);
          return (
            <rect
              key={`g-${s.index}`}
              x={x - 1.3}
              y={y - 1.3}
              width={2.6}
              height={2.6}
              fill={colour(s.eAboveHull)}
              stroke={s.index === selected ? '#000' : 'none'}
              strokeWidth={0.5}
            >
              <title>{sampleTitle(s)}</title>
            </rect>
          );
        })}
      </svg>
      <ColorBar
        caption="generated crystals: E_hull (eV/atom)"
        ramp={DISPLACEMENT_RAMP}
        min={fmt(lo, 3)}
        max={fmt(hi, 3)}
        testId="gen-hull-colorbar"
      />
    </div>
  );
}
