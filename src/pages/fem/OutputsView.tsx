/** Model outputs: a model's answers for a task against the reference, case by case, with the benchmark verdict. */
import { FEM_BENCH_TASK_IDS } from '../../core/tasks/fembench/task-ids.ts';
import { useShallow } from 'zustand/react/shallow';
import { checkOutputs, setOutputsFile, useFem } from '../../state/fem.ts';
import { DISPLACEMENT_RAMP, rampColor } from '../../viewer/colors.ts';
import type { CaseReport, MatrixDiff } from '../../core/tasks/fembench/lab/model-outputs.ts';
import { QuirkNotes } from './QuirkNotes.tsx';
import { benchmarkQuirkNotes } from './quirks.ts';

export function OutputsView() {
  const s = useFem(useShallow((st) => ({ outputsTask: st.outputsTask, report: st.report })));
  const r = s.report;
  return (
    <div className="fem-outputs" data-testid="fem-outputs">
      <p>
        Load the task's cases (golden layout, e.g. <code>fembench_models/verification/&lt;task&gt;.json</code>) and a model's outputs{' '}
        {'(the '}
        <code>structlab fem run</code> layout, or <code>fembench_models/&lt;model&gt;/&lt;task&gt;.json</code>). The reference runs here,
        and the benchmark's comparator (atol 1e-8, rtol 1e-5) decides each case.
      </p>
      <div className="fem-row">
        <label>
          cases{' '}
          <input
            type="file"
            accept=".json"
            data-testid="fem-cases-input"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void setOutputsFile('cases', f);
            }}
          />
        </label>
        <label>
          outputs{' '}
          <input
            type="file"
            accept=".json"
            data-testid="fem-outputs-input"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void setOutputsFile('outputs', f);
            }}
          />
        </label>
        <label>
          task{' '}
          <select
            value={s.outputsTask ?? ''}
            data-testid="fem-outputs-task"
            onChange={(e) => {
              useFem.setState({ outputsTask: e.target.value || null });
              void checkOutputs();
            }}
          >
            <option value="">(from the files)</option>
            {FEM_BENCH_TASK_IDS.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QuirkNotes notes={benchmarkQuirkNotes({ view: 'outputs', taskId: s.outputsTask ?? r?.taskId ?? null })} />
      {r && (
        <>
          <p className={r.passed ? 'fem-good' : 'fem-bad'}>
            <strong>{r.taskId}</strong>
            {r.model ? ` — ${r.model}` : ''}: verdict <strong data-testid="fem-verdict">{r.passed ? 'pass' : 'fail'}</strong> (
            {r.cases.filter((c) => c.verdict.match).length} of {r.cases.length} cases match)
            {r.benchmarkVerdict !== null && (
              <>
                {' '}
                · the file's benchmark_verdict: <strong data-testid="fem-file-verdict">{r.benchmarkVerdict ? 'pass' : 'fail'}</strong>
                {r.benchmarkVerdict === r.passed ? ' (agrees)' : ' (disagrees!)'}
              </>
            )}
          </p>
          <table className="fem-small-table" data-testid="fem-cases-table">
            <thead>
              <tr>
                <th>case</th>
                <th>source</th>
                <th>verdict</th>
                <th>entries</th>
                <th>differing</th>
                <th>max |Δ|</th>
                <th>detail</th>
              </tr>
            </thead>
            <tbody>
              {r.cases.map((c) => (
                <tr key={c.index} className={c.verdict.match ? '' : 'bad'} data-testid={`fem-case-${c.index}`}>
                  <td>{c.index}</td>
                  <td>{c.source ?? ''}</td>
                  <td>{c.verdict.match ? 'match' : 'differs'}</td>
                  <td>{c.entries}</td>
                  <td>{c.differing.length}</td>
                  <td>{c.entries ? c.maxDiff.toExponential(2) : '—'}</td>
                  <td className="detail">{c.verdict.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {r.cases
            .filter((c) => !c.verdict.match)
            .slice(0, 6)
            .map((c) => (
              <CaseDetail key={c.index} c={c} />
            ))}
        </>
      )}
    </div>
  );
}

function CaseDetail({ c }: { c: CaseReport }) {
  return (
    <div className="fem-case">
      <h4>
        Case {c.index}
        {c.source ? ` (${c.source})` : ''}
      </h4>
      {c.referenceError && <p>Reference raised {c.referenceError}</p>}
      {c.candidateError && <p>Model raised {c.candidateError}</p>}
      {c.differing.length > 0 && (
        <table className="fem-small-table">
          <thead>
            <tr>
              <th>entry</th>
              <th>reference</th>
              <th>model</th>
              <th>|Δ|</th>
            </tr>
          </thead>
          <tbody>
            {c.differing.slice(0, 12).map((d) => (
              <tr key={d.path}>
                <td>{d.path}</td>
                <td>{d.ref.toPrecision(8)}</td>
                <td>{d.gen === null ? 'missing' : d.gen.toPrecision(8)}</td>
                <td>{d.diff.toExponential(2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {c.matrices
        .filter((m) => m.ok.some((x) => !x))
        .slice(0, 2)
        .map((m) => (
          <HeatMap key={m.path} m={m} />
        ))}
    </div>
  );
}

/** |Δ| per matrix entry on a log colour scale; entries that fail the tolerance are outlined. */
function HeatMap({ m }: { m: MatrixDiff }) {
  const cell = Math.max(4, Math.min(18, Math.floor(360 / Math.max(m.rows, m.cols))));
  const finite = m.diff.filter((d) => Number.isFinite(d) && d > 0);
  const lo = finite.length ? Math.log10(Math.min(...finite)) : 0,
    hi = finite.length ? Math.log10(Math.max(...finite)) : 1;
  return (
    <div className="fem-heat">
      <span>
        {m.path || 'output'}: {m.rows}×{m.cols}, |Δ| from 1e{lo.toFixed(0)} (blue) to 1e{hi.toFixed(0)} (red); outlined entries fail
      </span>
      <svg width={m.cols * cell} height={m.rows * cell} data-testid="fem-heatmap">
        {m.diff.map((d, k) => {
          const t = !Number.isFinite(d) ? 1 : d <= 0 ? 0 : (Math.log10(d) - lo) / (hi - lo || 1);
          const c = rampColor(DISPLACEMENT_RAMP, t)
            .map((x) => Math.round(255 * x))
            .join(',');
          return (
            <rect
              key={k}
              x={(k % m.cols) * cell}
              y={Math.floor(k / m.cols) * cell}
              width={cell}
              height={cell}
              fill={d === 0 ? '#f4f6f9' : `rgb(${c})`}
              stroke={m.ok[k] ? 'none' : '#111'}
              strokeWidth={m.ok[k] ? 0 : 1}
            >
              <title>{`[${Math.floor(k / m.cols)}][${k % m.cols}] |Δ| = ${d.toExponential(2)}`}</title>
            </rect>
          );
        })}
      </svg>
    </div>
  );
}
