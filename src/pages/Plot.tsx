/** A small uPlot chart, rebuilt when its data or options change (for plots of up to a few thousand points). */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface PlotProps {
  title: string;
  testId: string;
  /** x values first, then one array per series. */
  data: uPlot.AlignedData;
  series: uPlot.Series[];
  axes?: uPlot.Axis[];
  scales?: uPlot.Scales;
  width?: number;
  height?: number;
}

export function Plot({ title, testId, data, series, axes, scales, width = 300, height = 160 }: PlotProps) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const plot = new uPlot(
      {
        title,
        width,
        height,
        series: [{ label: 'x' }, ...series],
        axes,
        scales: { x: { time: false }, ...scales },
        legend: { show: true },
      },
      data,
      host.current,
    );
    return () => plot.destroy();
  }, [title, data, series, axes, scales, width, height]);
  return <div className="np-plot" data-testid={testId} ref={host} />;
}
