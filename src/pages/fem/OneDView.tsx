/** 1D view: the bar's mesh, displacement and stress from the FEM-Bench 1D solver against the closed form. */
import { useMemo } from 'react';
import type uPlot from 'uplot';
import { useFem } from '../../state/fem.ts';
import { Plot } from '../../ui/Plot.tsx';
import { analyticBar, solveBar, type BarSpec } from '../../core/tasks/fembench/lab/one-d-view.ts';
import { formatNumber } from '../../core/tasks/fembench/lab/frame-model.ts';
import { QuirkNotes } from './QuirkNotes.tsx';
import { benchmarkQuirkNotes } from './quirks.ts';

const FE_SERIES: uPlot.Series[] = [
  { label: 'FEM', stroke: '#1f5fd6', width: 2, spanGaps: true, points: { show: true, size: 6 } },
  { label: 'analytical', stroke: '#d62728', width: 1, dash: [5, 4], points: { show: false } },
];

const axisNumber = (v: number) =>
  v === 0 ? '0' : Math.abs(v) >= 1e-3 && Math.abs(v) < 1e4 ? String(Number(v.toPrecision(4))) : v.toExponential(1);
const AXES: uPlot.Axis[] = [{}, { size: 64, values: (_u, splits) => splits.map(axisNumber) }];

export function OneDView() {
  const bar = useFem((s) => s.bar);
  const set = (patch: Partial<BarSpec>) => useFem.setState({ bar: { ...bar, ...patch } });
  const result = useMemo(() => {
    try {
      const sol = solveBar(bar);
      const exact = analyticBar(bar);
      // A fine x grid carries both curves: FEM values at nodes (linear in between), the closed form everywhere.
      const fine: number[] = [];
      const N = 200;
      for (let i = 0; i <= N; i++) fine.push(bar.xMin + ((bar.xMax - bar.xMin) * i) / N);
      const xs = [...new Set([...fine, ...sol.x])].sort((a, b) => a - b);
      const interp = (x: number, xs0: number[], ys0: number[]) => {
        let k = 0;
        while (k < xs0.length - 2 && x > xs0[k + 1]) k++;
        const t = (x - xs0[k]) / (xs0[k + 1] - xs0[k] || 1);
        return ys0[k] + t * (ys0[k + 1] - ys0[k]);
      };
      const onNode = new Set(sol.x);
      const uData: uPlot.AlignedData = [xs, xs.map((x) => (onNode.has(x) ? interp(x, sol.x, sol.u) : null)) as number[], xs.map(exact.u)];
      // Stress is constant per element: draw it as steps at the element ends.
      const sx: number[] = [],
        sFe: number[] = [];
      for (let e = 0; e < sol.stress.length; e++) {
        sx.push(sol.x[e] + 1e-12, sol.x[e + 1] - 1e-12);
        sFe.push(sol.stress[e], sol.stress[e]);
      }
      const sData: uPlot.AlignedData = [sx, sFe, sx.map(exact.stress)];
      let maxErr = 0;
      sol.x.forEach((x, i) => {
        maxErr = Math.max(maxErr, Math.abs(sol.u[i] - exact.u(x)));
      });
      return { sol, uData, sData, maxErr, error: null as string | null };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e) };
    }
  }, [bar]);
  return (
    <div className="fem-1d" data-testid="fem-1d">
      <div className="fem-row">
        {(
          [
            ['xMin', 'x_min'],
            ['xMax', 'x_max'],
            ['nElements', 'elements'],
            ['E', 'E'],
            ['A', 'A'],
            ['uLeft', 'u(x_min)'],
            ['tipLoad', 'P at x_max'],
          ] as const
        ).map(([k, label]) => (
          <label key={k}>
            {label}{' '}
            <input
              type="number"
              value={bar[k]}
              style={{ width: 80 }}
              data-testid={`fem-1d-${k}`}
              onChange={(e) => set({ [k]: Number(e.target.value) })}
            />
          </label>
        ))}
        <label>
          body force f(x) = Σ c<sub>k</sub>x<sup>k</sup>, c ={' '}
          <input
            value={bar.bodyForce.join(', ')}
            style={{ width: 110 }}
            data-testid="fem-1d-force"
            onChange={(e) => {
              const c = e.target.value.split(',').map((t) => Number(t.trim()));
              if (c.every(Number.isFinite)) set({ bodyForce: c });
            }}
          />
        </label>
      </div>
      <QuirkNotes
        notes={benchmarkQuirkNotes({ view: '1d', xMin: bar.xMin, xMax: bar.xMax, reactionsShown: 'sol' in result && !!result.sol })}
      />
      {'sol' in result && result.sol ? (
        <>
          <p>
            Fixed at x_min, free at x_max. Reaction at x_min: <span data-testid="fem-1d-reaction">{formatNumber(result.sol.reaction)}</span>
            ; largest nodal |u − u_exact|: <span data-testid="fem-1d-error">{result.maxErr.toExponential(2)}</span>.
          </p>
          <svg viewBox="0 0 600 40" className="fem-bar-mesh" data-testid="fem-1d-mesh">
            <line x1={20} x2={580} y1={20} y2={20} stroke="#334" strokeWidth={4} />
            {result.sol.x.map((x, i) => {
              const px = 20 + (560 * (x - bar.xMin)) / (bar.xMax - bar.xMin);
              return (
                <g key={i}>
                  <circle cx={px} cy={20} r={4} fill="#1f3a66" />
                  {result.sol.x.length <= 40 && (
                    <text x={px} y={36} fontSize={9} textAnchor="middle">
                      {i}
                    </text>
                  )}
                </g>
              );
            })}
            <rect x={6} y={8} width={10} height={24} fill="#3b4a63" />
          </svg>
          <div className="fem-plots">
            <Plot title="displacement u(x)" testId="fem-1d-u" data={result.uData} series={FE_SERIES} axes={AXES} width={420} height={220} />
            <Plot title="stress σ(x)" testId="fem-1d-stress" data={result.sData} series={FE_SERIES} axes={AXES} width={420} height={220} />
          </div>
        </>
      ) : (
        <p className="fem-error" role="alert">
          {result.error}
        </p>
      )}
    </div>
  );
}
