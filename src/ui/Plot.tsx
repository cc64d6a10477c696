/**
 * A uPlot chart (for plots of up to a few thousand points) that fills the width of its panel, follows the panel
 * when it is widened (ResizeObserver → setSize, no rebuild) and opens large in a modal dialog (the ⤢ button;
 * Escape or the close button shuts it): a diffraction pattern or a bond-angle histogram is unreadable at 300 px.
 * The chart is rebuilt only when its data or options change.
 */
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import { type ShownTheme, shownTheme, watchShownTheme } from '../browser/shown-theme.ts';
import 'uplot/dist/uPlot.min.css';
import './plot.css';

export interface PlotProps {
  /** The heading over the plot (and of its dialog). */
  title: string;
  testId: string;
  /** x values first, then one array per series. */
  data: uPlot.AlignedData;
  series: uPlot.Series[];
  /** The x series' name in the legend (with its unit). */
  xLabel?: string;
  axes?: uPlot.Axis[];
  scales?: uPlot.Scales;
  /** The width used until the panel has been measured (a hidden panel has none). */
  width?: number;
  /** The plotting height in the panel; the dialog uses most of the window's height. */
  height?: number;
  /** uPlot's legend (series names and the values under the pointer); on by default. */
  legend?: boolean;
  /** Draw and cursor hooks (e.g. sticks drawn on the canvas); they run for the panel's and the dialog's chart. */
  hooks?: uPlot.Hooks.Arrays;
  /** A line under the chart the pointer updates (e.g. the peak's hkl): its text for a uPlot, null to keep `initial`. */
  readout?: { testId: string; initial: string; text: (u: uPlot) => string | null };
}

export function Plot(props: PlotProps) {
  const [expanded, setExpanded] = useState(false);
  return (
    <figure className="plot" data-testid={props.testId}>
      <figcaption className="plot-head">
        <span className="plot-title">{props.title}</span>
        <button
          type="button"
          className="plot-expand"
          data-testid={`${props.testId}-expand`}
          title="Open this plot large (Escape closes)"
          aria-label={`Open the plot "${props.title}" large`}
          aria-haspopup="dialog"
          onClick={() => setExpanded(true)}
        >
          ⤢
        </button>
      </figcaption>
      <Chart {...props} height={props.height ?? 160} readoutTestId={props.readout?.testId} />
      {expanded && <PlotDialog {...props} onClose={() => setExpanded(false)} />}
    </figure>
  );
}

/** The plot again in a modal <dialog>: the browser traps focus and closes it on Escape. */
function PlotDialog({ onClose, ...props }: PlotProps & { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  const height = Math.max(240, Math.round(window.innerHeight * 0.62));
  return (
    <dialog
      ref={dialog}
      className="plot-dialog"
      data-testid={`${props.testId}-dialog`}
      aria-label={props.title}
      onClose={onClose}
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose(); // a click on the backdrop
      }}
    >
      <div className="plot-head">
        <strong className="plot-title">{props.title}</strong>
        <button type="button" data-testid={`${props.testId}-close`} onClick={onClose} autoFocus>
          Close
        </button>
      </div>
      <Chart {...props} testId={`${props.testId}-large`} height={height} readoutTestId={props.readout && `${props.readout.testId}-large`} />
    </dialog>
  );
}

/**
 * A vertical axis as wide as its longest tick label: uPlot's fixed default (50 px) cuts labels such as
 * "-701.38" to "01.38". The measure-and-converge sizing follows uPlot's own axis-autosize demo
 * (leeoniya/uPlot demos/axis-autosize.html): uPlot calls `size` again until the width stops changing.
 */
function fitTickLabels(u: uPlot, values: string[] | null, axisIdx: number, cycleNum: number): number {
  const axis = u.axes[axisIdx] as uPlot.Axis & { _size?: number; font?: string[] };
  if (cycleNum > 1 && axis._size) return axis._size;
  const tick = typeof axis.ticks?.size === 'number' ? axis.ticks.size : 10;
  let size = tick + (axis.gap ?? 5) + 2;
  const longest = (values ?? []).reduce((a, v) => (String(v).length > a.length ? String(v) : a), '');
  if (longest) {
    u.ctx.font = axis.font?.[0] ?? u.ctx.font;
    size += u.ctx.measureText(longest).width / devicePixelRatio;
  }
  return Math.max(40, Math.ceil(size));
}

/**
 * Axis text, ticks and grid per theme: uPlot draws them on the canvas in black (leeoniya/uPlot src/opts.js), which
 * the dark theme's panels hide. The text colours are the page's (src/app/styles.css body and its dark rule).
 */
const PLOT_AXIS_COLOURS: Record<ShownTheme, { text: string; grid: string }> = {
  light: { text: '#1d2430', grid: 'rgba(0, 0, 0, 0.07)' },
  dark: { text: '#d8dee9', grid: 'rgba(255, 255, 255, 0.1)' },
};

/**
 * The caller's axes (or uPlot's two defaults) in the theme's colours where they set none, with every vertical axis
 * that sets no size fitted to its labels.
 */
function styledAxes(axes: uPlot.Axis[] | undefined, theme: ShownTheme): uPlot.Axis[] {
  const given = axes && axes.length > 0 ? axes : [{}, {}];
  const { text, grid } = PLOT_AXIS_COLOURS[theme];
  return given.map((a, i) => {
    const themed: uPlot.Axis = {
      stroke: text,
      ...a,
      grid: { stroke: grid, ...a.grid },
      ticks: { stroke: grid, ...a.ticks },
    };
    return i === 0 || a.size !== undefined || a.side === 0 || a.side === 2 ? themed : { ...themed, size: fitTickLabels };
  });
}

function Chart({
  testId,
  data,
  series,
  xLabel = 'x',
  axes,
  scales,
  width = 300,
  height,
  legend = true,
  hooks,
  readout,
  readoutTestId,
}: Omit<PlotProps, 'title' | 'height'> & { height: number; readoutTestId?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const line = useRef<HTMLDivElement>(null);
  const [theme, setTheme] = useState(shownTheme);
  useEffect(() => watchShownTheme(setTheme), []);
  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const widthNow = () => Math.floor(el.clientWidth) || width;
    const showReadout = readout
      ? (u: uPlot) => {
          const t = readout.text(u);
          if (line.current) line.current.textContent = t ?? readout.initial;
        }
      : null;
    const plot = new uPlot(
      {
        width: widthNow(),
        height,
        series: [{ label: xLabel }, ...series],
        axes: styledAxes(axes, theme),
        scales: { x: { time: false }, ...scales },
        legend: { show: legend },
        hooks: { ...hooks, setCursor: [...(hooks?.setCursor ?? []), ...(showReadout ? [showReadout] : [])] },
      },
      data,
      el,
    );
    // The panel's width, not the plot's: uPlot sizes its root to what it is given, so the host never grows from it.
    const observer = new ResizeObserver(() => {
      const w = widthNow();
      if (w !== plot.width) plot.setSize({ width: w, height });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [data, series, xLabel, axes, scales, width, height, legend, hooks, readout, theme]);
  return (
    <>
      <div className="plot-host" data-testid={`${testId}-chart`} ref={host} />
      {readout && (
        <div className="hint plot-readout" data-testid={readoutTestId} ref={line}>
          {readout.initial}
        </div>
      )}
    </>
  );
}
