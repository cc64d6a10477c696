/**
 * A multi-frame file (an MD run, a relaxation, a diffusion model's denoising steps) as a trajectory: play and pause,
 * step, scrub, speed and loop, and per-frame values plotted against the frame. A small file's frames are the session's
 * structures (selectStructure); a streamed one's (src/state/trajectory.ts) are read by its worker as they are shown.
 * Either way the trajectory worker computes the series (the file's values, max force, stress, lattice, minimum
 * distance; space group per frame and the match against a reference on request); until its pass ends the plot shows
 * the values the frames carry and the volume (a small file) or the index scan's (a streamed one). One frame at a
 * time: the next starts only when the last is drawn, so a slow frame lowers the rate instead of queueing frames.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { useShallow } from 'zustand/react/shallow';
import { type PackedStructure, latticeOf } from '../../core/structure/packed.ts';
import { afterFrame, selectStructure, setPlaying as setSessionPlaying, useSession } from '../../state/session.ts';
import {
  cancelTrajectory,
  followSmall,
  LEAN_AFTER_MS,
  requestReferenceSeries,
  requestSeries,
  showFrame,
  streamedNote,
  useTrajectory,
} from '../../state/trajectory.ts';
import type { FrameSeries } from '../../../workers/trajectory-api.ts';
import { Plot } from '../../ui/Plot.tsx';
import { FilePick } from '../../ui/FilePick.tsx';
import { formatCsv } from '../../core/io/csv.ts';
import { defaultSeries, nextFrame, playDelay, readout, shownSeries } from './trajectory-series.ts';

/** Frames per second; 1000: as fast as frames are drawn (the bench). */
const SPEEDS = [2, 5, 10, 20, 60, 1000];

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
  const session = useSession(useShallow((s) => ({ structures: s.structures, active: s.activeStructure, busy: s.busy !== null })));
  const traj = useTrajectory(
    useShallow((s) => ({
      info: s.info,
      frame: s.frame,
      loading: s.loading,
      stats: s.stats,
      shown: s.shown,
      busy: s.busy,
      error: s.error,
      extra: s.extra,
      computing: s.computing,
      metrics: s.metrics,
      lean: s.lean,
      smallOf: s.smallOf,
      smallSeries: s.smallSeries,
    })),
  );
  const streamed = traj.info;
  const structures = session.structures;
  const active = streamed ? traj.frame : session.active;
  const busy = streamed ? traj.loading || traj.busy !== null : session.busy;
  const [playing, setPlaying] = useState(false);
  // The session knows when frames are played, so that per-structure panels wait for the pause (src/state/crystallography.ts).
  useEffect(() => {
    setSessionPlaying(playing);
    return () => setSessionPlaying(false);
  }, [playing]);
  const [fps, setFps] = useState(5);
  const [loop, setLoop] = useState(true);
  const n = streamed ? streamed.frames : structures.length;
  const extra = traj.extra;
  // A small multi-frame file's series come from the worker too (followSmall); these are its structures' or not yet.
  const small = !streamed && traj.smallOf === structures;
  const smallSeries = small ? traj.smallSeries : null;
  useEffect(() => {
    if (!streamed && structures.length > 1) void followSmall(structures);
  }, [streamed, structures]);
  const series = useMemo(
    () =>
      (streamed ? [...streamed.series, ...extra] : [...(smallSeries ?? frameSeries(structures)), ...(small ? extra : [])]).map(
        (s: FrameSeries) => shownSeries(s),
      ),
    [streamed, extra, structures, small, smallSeries],
  );
  const symprec = useSession((s) => s.settings.symprec);
  // The plotted series by name: it stays plotted when the metrics pass replaces the first series.
  const [plotted, setPlotted] = useState<string | null>(null);
  const [csvOpen, setCsvOpen] = useState(false);
  const shown = series.find((s) => s.name === plotted) ?? defaultSeries(series);
  const plotData = useMemo(() => (shown ? ([shown.values.map((_, k) => k + 1), shown.values] as uPlot.AlignedData) : null), [shown]);
  const plotSeries = useMemo((): uPlot.Series[] => (shown ? [{ label: shown.label, stroke: '#1f5fd6', width: 1.5 }] : []), [shown]);
  // The next frame once the current one is drawn and the frame interval (from the last frame's request) has passed.
  // A small file's frames are awaited here until drawn, as showFrame awaits a streamed one's: without it the counter
  // ran ahead of what the view drew, and frames were skipped unseen when drawing was slower than the rate.
  const last = useRef<number | null>(null);
  const [stepping, setStepping] = useState(false);
  useEffect(() => {
    if (!playing || busy || stepping) return;
    const timer = setTimeout(
      () => {
        const next = nextFrame(active, n, loop);
        if (next === null) {
          setPlaying(false);
          return;
        }
        last.current = performance.now();
        if (streamed) {
          void showFrame(next, { symmetry: false, next: nextFrame(next, n, loop) });
          return;
        }
        setStepping(true);
        void selectStructure(next, false, false)
          .then((ok) => (ok ? afterFrame() : undefined))
          .finally(() => setStepping(false));
      },
      playDelay(fps, last.current, performance.now()),
    );
    return () => clearTimeout(timer);
  }, [playing, busy, stepping, active, n, fps, loop, streamed]);
  if (traj.busy !== null && !traj.loading)
    return (
      <section className="trajectory" data-testid="trajectory-opening">
        <h2>Trajectory</h2>
        <p className="hint">{traj.busy}</p>
        <button type="button" onClick={cancelTrajectory}>
          Cancel
        </button>
      </section>
    );
  if (n < 2)
    return traj.error ? (
      <p className="error" role="alert">
        {traj.error}
      </p>
    ) : null;
  const go = (k: number) => {
    const frame = Math.max(0, Math.min(n - 1, k));
    // Paused steps search the frame's space group; frames while playing do not.
    void (streamed ? showFrame(frame, { symmetry: !playing }) : selectStructure(frame, false, !playing));
  };
  return (
    <section
      className="trajectory"
      data-testid="trajectory"
      data-shown={traj.shown}
      data-streamed={streamed ? 'yes' : 'no'}
      data-loading={busy ? 'yes' : 'no'}
      data-metrics={streamed || small ? traj.metrics : 'done'}
      data-lean={traj.lean ? 'yes' : 'no'}
      data-playing={playing ? 'yes' : 'no'}
    >
      <h2>Trajectory</h2>
      {traj.error && (
        <p className="error" role="alert">
          {traj.error}
        </p>
      )}
      <div className="row">
        <button type="button" data-testid="traj-back" title="previous frame" onClick={() => go(active - 1)}>
          ◀
        </button>
        <button
          type="button"
          data-testid="traj-play"
          onClick={() => {
            setPlaying(!playing);
            // The first frame after Play is due at once.
            last.current = null;
            // Paused: the shown frame's space group, which frames while playing skip.
            if (playing) void (streamed ? showFrame(active) : selectStructure(active, false));
          }}
        >
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
                {s >= 1000 ? 'as drawn' : `${s} frames/s`}
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
            <select aria-label="per-frame value" data-testid="traj-series" value={shown.name} onChange={(e) => setPlotted(e.target.value)}>
              {series.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.label}
                </option>
              ))}
            </select>
          )}
          <Plot title={`${shown.label} per frame`} testId="traj-plot" data={plotData} series={plotSeries} width={300} height={150} />
          <p className="hint" data-testid="traj-value">
            {shown.label} at frame {active + 1}: {readout(shown.values[active])}
          </p>
          {/* Written only while open: a long trajectory's table is not built per frame. */}
          <details onToggle={(e) => setCsvOpen(e.currentTarget.open)}>
            <summary>values as CSV</summary>
            {csvOpen && (
              <textarea
                readOnly
                rows={4}
                data-testid="traj-csv"
                value={formatCsv(
                  ['frame', shown.label],
                  shown.values.map((v, k) => [k + 1, v]),
                )}
              />
            )}
          </details>
        </>
      )}
      {(streamed || small) && (
        <div className="row">
          <button
            type="button"
            data-testid="traj-spacegroup"
            disabled={traj.computing !== null}
            onClick={() => void requestSeries({ kind: 'spacegroup', symprec })}
          >
            Space group per frame
          </button>
          <label className="file-button">
            Against a reference…
            <FilePick
              data-testid="traj-reference"
              disabled={traj.computing !== null}
              onFiles={(files) => void requestReferenceSeries(files[0])}
            />
          </label>
        </div>
      )}
      {streamed && traj.lean && (
        <p className="hint" data-testid="traj-lean">
          Bonds are left out while playing: frames took over {LEAN_AFTER_MS / 1000} s each with them. Pause to see them.
        </p>
      )}
      {traj.computing && (
        <p className="hint" data-testid="traj-computing">
          {traj.computing}{' '}
          <button type="button" onClick={cancelTrajectory}>
            Stop
          </button>
        </p>
      )}
      {streamed && (
        <p className="hint" data-testid="traj-streamed">
          {streamedNote(streamed)}
          {traj.stats && (
            <>
              {' '}
              The worker holds <span data-testid="traj-cached">{traj.stats.cachedFrames}</span> of {n} frames.
            </>
          )}
        </p>
      )}
    </section>
  );
}
