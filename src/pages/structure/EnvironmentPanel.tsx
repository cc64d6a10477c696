/**
 * The Local environment panel: `structlab env`'s coordination numbers (per element, and as atom colours in the view),
 * bond lengths per element pair as histograms and the RDF, for the structure as read.
 */
import { useMemo, useState } from 'react';
import uPlot from 'uplot';
import type { DisplayData } from '../../core/analysis/display-scene.ts';
import { overlayEnvironmentOf, setColorByCn, setCutoff, setPanelOpen, useCrystallography } from '../../state/crystallography.ts';
import { DISPLACEMENT_RAMP, rampColorsBySite, rampGradient } from '../../viewer/colors.ts';
import { fixed } from '../../ui/format.ts';
import { Plot } from '../../ui/Plot.tsx';
import { FilePick } from '../../ui/FilePick.tsx';

const RDF_LABELS = ['g(r)'];
/** The x readouts: a distance for bond lengths and g(r), an angle for bond angles. */
const R_LABEL = 'r (Å)';
const ANGLE_LABEL = 'angle (°)';
const PAIR_COLORS = ['#1f5fd6', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'];

/** The coordination range the colours span. */
function cnRange(cn: readonly number[]): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (const c of cn) {
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  }
  return [lo, hi];
}

/**
 * Per drawn atom, the colour of its site's coordination number, for the viewer's atomColors, with the coordination
 * numbers for the view's legend; null while the atoms keep their element colours.
 */
export function useCoordinationColors(display: DisplayData | null): { colors: Float32Array; coordination: number[] } | null {
  const env = useCrystallography((s) => (s.open.env && s.colorByCn ? s.environment : null));
  return useMemo(() => {
    if (!env || !display || display.site.length !== display.natoms) return null;
    const colors = rampColorsBySite(display.site, env.coordination, cnRange(env.coordination));
    return colors && { colors, coordination: env.coordination };
  }, [env, display]);
}

/** The key of the coordination colours: the ramp between the smallest and the largest coordination number. */
export function CoordinationRamp({ coordination, testId }: { coordination: readonly number[]; testId?: string }) {
  const [lo, hi] = cnRange(coordination);
  return (
    <div className="xtal-ramp" data-testid={testId}>
      CN {lo} <span style={{ background: rampGradient(DISPLACEMENT_RAMP) }} /> {hi}
    </div>
  );
}

export function EnvironmentPanel() {
  const open = useCrystallography((s) => s.open.env);
  const structure = useCrystallography((s) => s.structure);
  const busy = useCrystallography((s) => s.busy.env);
  const error = useCrystallography((s) => s.error.env);
  const cutoff = useCrystallography((s) => s.cutoff);
  const env = useCrystallography((s) => s.environment);
  const env2 = useCrystallography((s) => s.environment2);
  const colorByCn = useCrystallography((s) => s.colorByCn);
  const [text, setText] = useState(String(cutoff));
  const summary = useMemo(() => {
    if (!env || !structure) return [];
    const byElement = new Map<string, Map<number, number>>();
    env.coordination.forEach((c, k) => {
      const el = structure.elements[structure.major[k]];
      const m = byElement.get(el) ?? new Map<number, number>();
      m.set(c, (m.get(c) ?? 0) + 1);
      byElement.set(el, m);
    });
    return [...byElement].map(([el, m]) => ({ el, cns: [...m].sort((a, b) => a[0] - b[0]) }));
  }, [env, structure]);
  const bondX = useMemo(() => (env ? (env.bondHistogram.counts[0] ?? []).map((_, k) => k * env.bondHistogram.bin) : []), [env]);
  const angleX = useMemo(() => (env ? (env.angles.counts[0] ?? []).map((_, k) => k) : []), [env]);
  // With a second structure: its g(r), and both structures' bond lengths and angles summed over pairs and centres.
  const overlay = useMemo(() => {
    if (!env) return null;
    const sum = (rows: number[][], n: number) => rows.reduce((acc, r) => acc.map((v, k) => v + (r[k] ?? 0)), new Array<number>(n).fill(0));
    const nb = env.bondHistogram.counts[0]?.length ?? 0;
    const labels = env2 ? ['shown', env2.name] : RDF_LABELS;
    return {
      labels,
      rdf: env2 && env2.view.rdf.g.length === env.rdf.g.length ? [env.rdf.g, env2.view.rdf.g] : [env.rdf.g],
      bonds: env2 ? [sum(env.bondHistogram.counts, nb), sum(env2.view.bondHistogram.counts, nb)] : null,
      angles: env2 ? [sum(env.angles.counts, angleX.length), sum(env2.view.angles.counts, angleX.length)] : null,
    };
  }, [env, env2, angleX]);
  if (!structure) return null;
  const commit = () => {
    if (Number(text) !== cutoff) setCutoff(Number(text));
  };
  return (
    <details className="xtal" data-testid="env-panel" open={open} onToggle={(e) => setPanelOpen('env', e.currentTarget.open)}>
      <summary>Local environment</summary>
      <div className="xtal-controls">
        <label>
          cutoff (Å)
          <input
            data-testid="env-cutoff"
            className="xtal-number"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onBlur={commit}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commit();
            }}
          />
        </label>
        <label className="check">
          <input type="checkbox" data-testid="env-color-by-cn" checked={colorByCn} onChange={(e) => setColorByCn(e.target.checked)} />
          colour atoms by coordination
        </label>
      </div>
      {busy && <p className="hint">{busy}…</p>}
      {error && <p className="xtal-error">{error}</p>}
      {env && (
        <>
          {colorByCn && <CoordinationRamp coordination={env.coordination} />}
          <table className="xtal-table" data-testid="env-coordination">
            <thead>
              <tr>
                <th>Element</th>
                <th>coordination (sites)</th>
              </tr>
            </thead>
            <tbody>
              {summary.map(({ el, cns }) => (
                <tr key={el}>
                  <td>{el}</td>
                  <td>{cns.map(([c, n]) => `${c} (${n})`).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <EnvPlot
            testId="env-bonds"
            title={`bond lengths (${fixed(env.bondHistogram.bin, 2)} Å bins)`}
            x={bondX}
            ys={env.bondHistogram.counts}
            labels={env.bondHistogram.pairs}
            bars
          />
          {env.angles.centers.length > 0 && (
            <EnvPlot
              testId="env-angles"
              title="bond angles at each centre element (1° bins)"
              x={angleX}
              xLabel={ANGLE_LABEL}
              ys={env.angles.counts}
              labels={env.angles.centers}
              bars
            />
          )}
          {overlay?.bonds && (
            <EnvPlot testId="env-bonds-overlay" title="bond lengths, all pairs" x={bondX} ys={overlay.bonds} labels={overlay.labels} bars />
          )}
          {overlay?.angles && (
            <EnvPlot
              testId="env-angles-overlay"
              title="bond angles, all centres"
              x={angleX}
              xLabel={ANGLE_LABEL}
              ys={overlay.angles}
              labels={overlay.labels}
              bars
            />
          )}
          {overlay && (
            <EnvPlot
              testId="env-rdf"
              title="g(r)"
              x={env.rdf.r}
              ys={overlay.rdf}
              labels={overlay.rdf.length > 1 ? overlay.labels : RDF_LABELS}
            />
          )}
          <label className="file-button" title="Overlay a second structure's bond lengths, bond angles and g(r)">
            Overlay a structure file…
            <FilePick data-testid="env-overlay-file" onFiles={(files) => void overlayEnvironmentOf(files[0])} />
          </label>
          {env2 && (
            <p className="hint" data-testid="env-overlay-name">
              overlaid: {env2.name} (mean coordination{' '}
              {(env2.view.coordination.reduce((a, b) => a + b, 0) / env2.view.coordination.length).toFixed(2)})
            </p>
          )}
        </>
      )}
    </details>
  );
}

/** A histogram or g(r) in a Plot (src/ui/Plot.tsx): it widens with the panel and opens large. */
function EnvPlot({
  testId,
  title,
  x,
  xLabel = R_LABEL,
  ys,
  labels,
  bars = false,
}: {
  testId: string;
  title: string;
  x: number[];
  /** The x readout's name and unit (uPlot's legend shows it beside the value under the pointer): a distance unless told. */
  xLabel?: string;
  ys: number[][];
  labels: string[];
  bars?: boolean;
}) {
  const data = useMemo(() => [x, ...ys] as uPlot.AlignedData, [x, ys]);
  const series = useMemo(
    (): uPlot.Series[] =>
      labels.map((label, k) => ({
        label,
        stroke: PAIR_COLORS[k % PAIR_COLORS.length],
        width: 1,
        ...(bars ? { paths: uPlot.paths.stepped!({ align: 1 }) } : {}),
      })),
    [labels, bars],
  );
  if (x.length === 0) return null;
  return <Plot title={title} testId={testId} data={data} series={series} xLabel={xLabel} height={150} legend={labels.length > 1} />;
}
