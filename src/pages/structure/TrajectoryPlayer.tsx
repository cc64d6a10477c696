/**
 * A multi-frame file (an MD run, a relaxation, a diffusion model's denoising steps) as a trajectory: play and pause,
 * step, scrub, speed and loop, and the per-frame values the file carries (extended XYZ `energy=` and the like) with
 * the cell volume plotted against the frame. Each frame is shown by the session's own path (selectStructure), one at
 * a time: the next starts only when the last is drawn, so a slow frame lowers the rate instead of queueing frames.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { useShallow } from 'zustand/react/shallow';
import { type PackedStructure, latticeOf } from '../../core/structure/packed.ts';
import { selectStructure, useSession } from '../../state/session.ts';
import { Plot } from '../Plot.tsx';

const SPEEDS = [2, 5, 10, 20];

/** The per-frame series: every numeric value all frames carry, and the cell volume when the frames are periodic. */
function frameSeries(structures: readonly PackedStructure[]): { name: string; values: number[] }[] {
  const out: { name: string; values: number[] }[] = [];
  for (const { name } of structures[0]?.info ?? []) {
    const values = structures.map((p) => p.info?.find((x) => x.name === name)?.value);
    if (values.every((v): v is number => v !== undefined)) out.push({ name, values });
  }
  const volumes = structures.map((p) => latticeOf(p)?.volume ?? null);
  if (volumes.every((v): v is number => v !== null)) out.push({ name: 'volume (Å³)', values: volumes });
  return out;
}

export function TrajectoryPlayer() {
  const { structures, active, busy } = useSession(
    useShallow((s) => ({ structures: s.structures, active: s.activeStructure, busy: s.busy !== null })),
  );
  const [playing, setPlaying] = useState(false);
  const [fps, setFps] = useState(5);
  const [loop, setLoop] = useState(true);
  const n = structures.length;
  const series = useMemo(() => frameSeries(structures), [structures]);
  const [plotted, setPlotted] = useState(0);
  const shown = series[Math.min(plotted, series.length - 1)];
  const plotData = useMemo(() => (shown ? ([shown.values.map((_, k) => k + 1), shown.values] as uPlot.AlignedData) : null), [shown]);
  const plotSeries = useMemo((): uPlot.Series[] => (shown ? [{ label: shown.name, stroke: '#1f5fd6', width: 1.5 }] : []), [shown]);
  // The next frame once the current one is drawn (the session is idle) and the frame interval has passed.
  const last = useRef(0);
  useEffect(() => {
    if (!playing || busy) return;
    const wait = Math.max(0, 1000 / fps - (performance.now() - last.current));
    const timer = setTimeout(() => {
      const next = active + 1 < n ? active + 1 : loop ? 0 : null;
      if (next === null) {
        setPlaying(false);
        return;
      }
      last.current = performance.now();
      void selectStructure(next, false);
    }, wait);
    return () => clearTimeout(timer);
  }, [playing, busy, active, n, fps, loop]);
  if (n < 2) return null;
  const go = (k: number) => void selectStructure(Math.max(0, Math.min(n - 1, k)), false);
  return (
    <section className="trajectory" data-testid="trajectory">
      <h2>Trajectory</h2>
      <div className="row">
        <button type="button" data-testid="traj-back" title="previous frame" onClick={() => go(active - 1)}>
          ◀
        </button>
        <button type="button" data-testid="traj-play" onClick={() => setPlaying(!playing)}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <button type="button" data-testid="traj-forward" title="next frame" onClick={() => go(active + 1)}>
          ▶
        </button>
        <span data-testid="traj-frame">
          {active + 1} / {n}
        </span>
      </div>
      <input
        type="range"
        aria-label="frame"
        data-testid="traj-scrub"
        min={1}
        max={n}
        step={1}
        value={active + 1}
        onChange={(e) => go(Number(e.target.value) - 1)}
      />
      <div className="row">
        <label>
          speed
          <select data-testid="traj-speed" value={fps} onChange={(e) => setFps(Number(e.target.value))}>
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s} frames/s
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" data-testid="traj-loop" checked={loop} onChange={(e) => setLoop(e.target.checked)} /> loop
        </label>
      </div>
      {shown && plotData && (
        <>
          {series.length > 1 && (
            <select
              aria-label="per-frame value"
              data-testid="traj-series"
              value={plotted}
              onChange={(e) => setPlotted(Number(e.target.value))}
            >
              {series.map((s, k) => (
                <option key={s.name} value={k}>
                  {s.name}
                </option>
              ))}
            </select>
          )}
          <Plot title={`${shown.name} per frame`} testId="traj-plot" data={plotData} series={plotSeries} width={300} height={150} />
          <p className="hint" data-testid="traj-value">
            {shown.name} at frame {active + 1}: {shown.values[active]}
          </p>
        </>
      )}
    </section>
  );
}
