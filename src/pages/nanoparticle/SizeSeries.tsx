/**
 * The size series of the chosen shape (computed in workers/c2np.worker.ts by core's sizeSeries): its sizes, a slider
 * through its members that re-draws the particle, the CSV/JSON of `structlab series`, the side-by-side choice, and
 * the plots against N with the magic numbers marked.
 */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import uPlot from 'uplot';
import { downloadText } from '../../browser/download.ts';
import {
  type CompareMode,
  computeSizeSeries,
  setCompare,
  setCompareIndex,
  setSeriesIndex,
  setSeriesSizes,
  useNanoparticle,
} from '../../state/nanoparticle.ts';
import { Plot } from '../../ui/Plot.tsx';
import { toHex } from '../../viewer/colors.ts';
import { familyColors } from './ShapeControls.tsx';
import { type SeriesMember, seriesCsv } from '../../core/tasks/c2np/size-series.ts';
import {
  CLASS_COLORS,
  DEFAULT_SIZES,
  classHistogram,
  magicMarkers,
  seriesJson,
  seriesPlotData,
  sizeLabel,
} from '../../state/nanoparticle-shapes.ts';

/** The member line under the slider: its size as the page counts it, its atoms, whether it is a closed shell. */
function memberText(members: readonly SeriesMember[], pageSizes: readonly number[], k: number, shape: string): string {
  const m = members[k];
  const unit = shape === 'sphere' ? ` Å` : '';
  return `${k + 1} of ${members.length}: size ${pageSizes[k]}${unit}, N = ${m.nAtoms}${m.magic ? ' (magic)' : ''}`;
}

export function SeriesControls() {
  const s = useNanoparticle(
    useShallow((st) => ({
      shape: st.shape,
      sizes: st.seriesSizes,
      series: st.sizeSeries,
      index: st.seriesIndex,
      crystal: st.crystal,
    })),
  );
  const series = s.series;
  const markers = useMemo(() => (series ? magicMarkers(series.members) : null), [series]);
  const download = (kind: 'csv' | 'json') => {
    if (!series) return;
    const { shape } = series.spec;
    const text = kind === 'csv' ? seriesCsv(shape, series.members) : seriesJson(shape, series.source, series.members, series.areaFractions);
    downloadText(`structlab-series-${shape}.${kind}`, text, kind === 'csv' ? 'text/csv' : 'application/json');
  };
  return (
    <section className="np-series">
      <h3>Size series</h3>
      <label className="row">
        Sizes ({sizeLabel(s.shape)}), e.g. {DEFAULT_SIZES[s.shape]}
        <input
          data-testid="np-series-sizes"
          value={s.sizes}
          onChange={(e) => setSeriesSizes(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && void computeSizeSeries()}
        />
      </label>
      <button type="button" data-testid="np-series-run" disabled={!s.crystal} onClick={() => void computeSizeSeries()}>
        Compute the series
      </button>
      {series && (
        <>
          <label className="row">
            Member{' '}
            <span data-testid="np-series-member">
              {s.index >= 0 ? memberText(series.members, series.pageSizes, s.index, series.spec.shape) : '— (the particle is not one)'}
            </span>
            <input
              type="range"
              data-testid="np-series-slider"
              min={0}
              max={series.members.length - 1}
              step={1}
              value={Math.max(0, s.index)}
              onChange={(e) => void setSeriesIndex(Number(e.target.value))}
            />
          </label>
          {markers && markers.n.length > 0 && (
            <p className="hint" data-testid="np-series-magic" data-reference={markers.reference}>
              {markers.reference ? 'Closed-shell numbers in range (for reference): ' : 'Magic numbers (closed shells): '}
              {markers.n.join(', ')}
            </p>
          )}
          <div className="np-series-downloads">
            <button type="button" data-testid="np-series-csv" onClick={() => download('csv')} title="As structlab series --csv">
              CSV
            </button>
            <button type="button" data-testid="np-series-json" onClick={() => download('json')} title="As structlab series">
              JSON
            </button>
          </div>
        </>
      )}
    </section>
  );
}

const COMPARE_TEXT: Record<CompareMode, string> = {
  off: 'off',
  member: 'another member of the series',
  sphere: 'a C2NP sphere with the same N',
  wulff: 'a Wulff particle with the same N',
};

export function CompareControls() {
  const s = useNanoparticle(
    useShallow((st) => ({
      compare: st.compare,
      index: st.compareIndex,
      series: st.sizeSeries,
      shape: st.shape,
      particle: st.compareParticle,
    })),
  );
  const disabled = (mode: CompareMode) =>
    (mode === 'member' && !s.series) || (mode === 'sphere' && s.shape === 'sphere') || (mode === 'wulff' && s.shape === 'wulff');
  return (
    <section className="np-compare">
      <h3>Side by side (linked cameras)</h3>
      <label className="row">
        Beside the particle
        <select data-testid="np-compare" value={s.compare} onChange={(e) => setCompare(e.target.value as CompareMode)}>
          {(Object.keys(COMPARE_TEXT) as CompareMode[]).map((mode) => (
            <option key={mode} value={mode} disabled={disabled(mode)}>
              {COMPARE_TEXT[mode]}
            </option>
          ))}
        </select>
      </label>
      {s.compare === 'member' && s.series && (
        <label className="row">
          Member beside it: {memberText(s.series.members, s.series.pageSizes, s.index, s.series.spec.shape)}
          <input
            type="range"
            data-testid="np-compare-member"
            min={0}
            max={s.series.members.length - 1}
            step={1}
            value={s.index}
            onChange={(e) => setCompareIndex(Number(e.target.value))}
          />
        </label>
      )}
    </section>
  );
}

/** Vertical lines at the marker atom counts, labelled at the top (uPlot draw hook). */
function markerHooks(markers: { n: number[]; reference: boolean }): uPlot.Hooks.Arrays {
  return {
    draw: [
      (u: uPlot) => {
        const { ctx } = u;
        const { top, height, left, width } = u.bbox;
        ctx.save();
        ctx.strokeStyle = markers.reference ? 'rgba(120,120,120,0.6)' : 'rgba(214,39,40,0.75)';
        ctx.fillStyle = ctx.strokeStyle;
        ctx.lineWidth = devicePixelRatio;
        ctx.setLineDash(markers.reference ? [4 * devicePixelRatio, 3 * devicePixelRatio] : []);
        ctx.font = `${10 * devicePixelRatio}px sans-serif`;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'top';
        for (const n of markers.n) {
          const x = u.valToPos(n, 'x', true);
          if (!(x >= left - 0.5 && x <= left + width + 0.5)) continue;
          ctx.beginPath();
          ctx.moveTo(x, top + 12 * devicePixelRatio);
          ctx.lineTo(x, top + height);
          ctx.stroke();
          ctx.fillText(String(n), x, top);
        }
        ctx.restore();
      },
    ],
  };
}

/** N from a few atoms to thousands: a log axis once the series spans more than a factor of 8. */
function xScales(n: readonly number[]): uPlot.Scales {
  const lo = Math.min(...n);
  const hi = Math.max(...n);
  return hi > 8 * lo && lo > 0 ? { x: { time: false, distr: 3, log: 10 } } : { x: { time: false } };
}

const line = (label: string, stroke: string): uPlot.Series => ({ label, stroke, width: 2, points: { show: true, size: 5 } });

/** A stacked layer: its fill to zero under the layers drawn after it; the legend shows its own value, not the stack's. */
const layer = (label: string, color: string, own: readonly number[], digits: number): uPlot.Series => ({
  label,
  stroke: color,
  fill: `${color}cc`,
  width: 1,
  value: (_u, _v, _s, i) => (i === null || i === undefined ? '—' : own[i].toFixed(digits)),
  points: { show: false },
});

/** Whole coordination numbers, each bar whole inside the plot. */
const HIST_SCALES: uPlot.Scales = { x: { time: false, range: (_u, min, max) => [min - 0.6, max + 0.6] } };

const SERIES_SURFACE = [line('surface fraction', '#d62728')];
const SERIES_CN = [line('mean CN', '#1f5fd6')];
const SERIES_FWHM = [line('FWHM', '#9467bd')];

export function SeriesPlots() {
  const { series, index, formula } = useNanoparticle(
    useShallow((st) => ({ series: st.sizeSeries, index: st.seriesIndex, formula: st.crystal?.formula })),
  );
  const plots = useMemo(() => {
    if (!series) return null;
    const d = seriesPlotData(series.members);
    const markers = magicMarkers(series.members);
    const hooks = markerHooks(markers);
    const scales = xScales(d.n);
    // Back to front: the topmost cumulative layer first, each lower one painted over it.
    const stack = [...d.classStack].reverse();
    // A Wulff family keeps its polyhedron's colour (the order of the energies); other facets by their order here.
    const given = series.areaFractions ? Object.keys(series.areaFractions) : [];
    const familyIndex = (family: string, k: number) => (given.includes(family) ? given.indexOf(family) : given.length + k);
    return {
      markers,
      hooks,
      scales,
      surface: [d.n, d.surfaceFraction] as uPlot.AlignedData,
      cn: [d.n, d.meanCn] as uPlot.AlignedData,
      fwhm: d.fwhm.some((v) => v !== null) ? ([d.n, d.fwhm] as uPlot.AlignedData) : null,
      classes: [d.n, ...stack.map((l) => l.top)] as uPlot.AlignedData,
      classSeries: stack.map((l) => layer(l.cls, CLASS_COLORS[l.cls], l.own, 3)),
      facets: d.facets.length ? ([d.n, ...d.facets.map((f) => f.fraction)] as uPlot.AlignedData) : null,
      facetSeries: d.facets.map((f, k) => line(f.family, toHex(familyColors[familyIndex(f.family, k) % familyColors.length]))),
    };
  }, [series]);
  const member = series && index >= 0 ? series.members[index] : null;
  const hist = useMemo(() => {
    if (!member) return null;
    const h = classHistogram(member);
    const stack = [...h.layers].reverse();
    const bars = uPlot.paths.bars!({ size: [0.8, 40] });
    return {
      data: [h.cn, ...stack.map((l) => l.top)] as uPlot.AlignedData,
      series: stack.map((l) => ({ ...layer(l.cls, CLASS_COLORS[l.cls], l.own, 0), paths: bars })),
    };
  }, [member]);
  if (!series || !plots) return null;
  const shape = series.spec.shape;
  const markerText = plots.markers.n.join(',');
  return (
    <section className="np-series-plots" data-testid="np-series-plots" data-markers={markerText}>
      <h2>
        Size series: {shape}
        {formula ? ` of ${formula}` : ''}
      </h2>
      <p className="hint">
        x: atoms N{plots.markers.n.length ? (plots.markers.reference ? '; dashed: closed-shell numbers' : '; red: magic numbers') : ''}
      </p>
      <Plot
        title="Surface-atom fraction vs N"
        testId="np-series-plot-surface"
        data={plots.surface}
        series={SERIES_SURFACE}
        xLabel="N"
        scales={plots.scales}
        hooks={plots.hooks}
      />
      <Plot
        title="Mean coordination vs N"
        testId="np-series-plot-cn"
        data={plots.cn}
        series={SERIES_CN}
        xLabel="N"
        scales={plots.scales}
        hooks={plots.hooks}
      />
      <Plot
        title="Atoms by site class vs N (stacked shares)"
        testId="np-series-plot-classes"
        data={plots.classes}
        series={plots.classSeries}
        xLabel="N"
        scales={plots.scales}
        hooks={plots.hooks}
      />
      {hist && member && (
        <Plot
          title={`Coordination by site class, N = ${member.nAtoms} (stacked)`}
          testId="np-series-plot-hist"
          data={hist.data}
          series={hist.series}
          xLabel="coordination"
          scales={HIST_SCALES}
        />
      )}
      {plots.facets && (
        <Plot
          title="Facet fractions vs N (share of surface atoms)"
          testId="np-series-plot-facets"
          data={plots.facets}
          series={plots.facetSeries}
          xLabel="N"
          scales={plots.scales}
          hooks={plots.hooks}
        />
      )}
      {plots.fwhm && (
        <Plot
          title="Debye peak FWHM vs N (°2θ, Cu Kα)"
          testId="np-series-plot-fwhm"
          data={plots.fwhm}
          series={SERIES_FWHM}
          xLabel="N"
          scales={plots.scales}
          hooks={plots.hooks}
        />
      )}
    </section>
  );
}
