/** A uPlot line chart of means against λ with ±1 standard-error whiskers drawn by a draw hook. */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ErrorBarSeries {
  label: string;
  color: string;
  mean: (number | null)[];
  se: (number | null)[];
}

export interface ErrorBarChartProps {
  title: string;
  testId: string;
  x: number[];
  xLabel: string;
  yLabel: string;
  series: ErrorBarSeries[];
  width?: number;
  height?: number;
}

function whiskers(series: ErrorBarSeries[], x: number[]): uPlot.Plugin {
  return {
    hooks: {
      draw: (u: uPlot) => {
        const ctx = u.ctx;
        const cap = 4 * devicePixelRatio;
        ctx.save();
        ctx.lineWidth = 1.2 * devicePixelRatio;
        series.forEach((s, k) => {
          if (u.series[k + 1]?.show === false) return;
          ctx.strokeStyle = s.color;
          ctx.beginPath();
          x.forEach((xv, i) => {
            const m = s.mean[i];
            const e = s.se[i];
            if (m === null || e === null || !Number.isFinite(m) || !Number.isFinite(e)) return;
            const px = u.valToPos(xv, 'x', true);
            const lo = u.valToPos(m - e, 'y', true);
            const hi = u.valToPos(m + e, 'y', true);
            ctx.moveTo(px, lo);
            ctx.lineTo(px, hi);
            ctx.moveTo(px - cap, lo);
            ctx.lineTo(px + cap, lo);
            ctx.moveTo(px - cap, hi);
            ctx.lineTo(px + cap, hi);
          });
          ctx.stroke();
        });
        ctx.restore();
      },
    },
  };
}

export function ErrorBarChart({ title, testId, x, xLabel, yLabel, series, width = 560, height = 260 }: ErrorBarChartProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const ends = series
      .flatMap((s) => s.mean.flatMap((m, i) => (m === null || !Number.isFinite(m) ? [] : [m - (s.se[i] ?? 0), m + (s.se[i] ?? 0)])))
      .filter(Number.isFinite);
    const lo = ends.length ? Math.min(...ends) : 0;
    const hi = ends.length ? Math.max(...ends) : 1;
    const pad = (hi - lo) * 0.06 || 1;
    const plot = new uPlot(
      {
        title,
        width,
        height,
        series: [{ label: xLabel }, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: true, size: 6 } }))],
        axes: [{ label: xLabel }, { label: yLabel, size: 60 }],
        scales: { x: { time: false, range: [Math.min(...x) - 0.05, Math.max(...x) + 0.05] }, y: { range: [lo - pad, hi + pad] } },
        legend: { show: true },
        plugins: [whiskers(series, x)],
      },
      [x, ...series.map((s) => s.mean)] as uPlot.AlignedData,
      host.current,
    );
    return () => plot.destroy();
  }, [title, x, xLabel, yLabel, series, width, height]);
  return <div className="onng-chart" data-testid={testId} ref={host} />;
}
