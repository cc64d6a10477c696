/**
 * FEM-Bench: the benchmark's reference tasks in the lab. 3D frames (linear solve, reactions, buckling modes), the
 * 2D Q8/T6 elements, the 1D bar against its closed form, and a model's outputs checked as the benchmark checks them.
 * Frame solves and output checks run in workers/fem.worker.ts.
 */
import { cancel, FRAME_EXAMPLES, loadExample, runBuckling, runLinear, setTab, useFem, type FemTab } from '../../state/fem.ts';
import { useShallow } from 'zustand/react/shallow';
import { autoScale, characteristicLength, formatNumber, reactionRows } from '../../core/tasks/fembench/lab/frame-model.ts';
import { FrameView } from './FrameView.tsx';
import { Mesh2DView } from './Mesh2DView.tsx';
import { ModelTables } from './ModelTables.tsx';
import { OneDView } from './OneDView.tsx';
import { OutputsView } from './OutputsView.tsx';
import { QuirkNotes } from './QuirkNotes.tsx';
import { benchmarkQuirkNotes } from './quirks.ts';
import './fem.css';

const TABS: { id: FemTab; title: string }[] = [
  { id: 'frame', title: '3D frame' },
  { id: '2d', title: '2D elements' },
  { id: '1d', title: '1D bar' },
  { id: 'outputs', title: 'Model outputs' },
];

export function FemPage() {
  const s = useFem(
    useShallow((st) => ({ buckling: st.buckling, busy: st.busy, error: st.error, model: st.model, showAxes: st.showAxes, tab: st.tab })),
  );
  return (
    <div className="lab fem-lab" data-testid="fem-page">
      <aside className="panel left">
        <nav className="fem-tabs">
          {TABS.map((t) => (
            <button key={t.id} className={s.tab === t.id ? 'active' : ''} data-testid={`fem-tab-${t.id}`} onClick={() => setTab(t.id)}>
              {t.title}
            </button>
          ))}
        </nav>
        {s.tab === 'frame' && <FrameControls />}
        {s.busy && (
          <div className="fem-progress" data-testid="fem-progress">
            {s.busy}… <button onClick={cancel}>cancel</button>
          </div>
        )}
        {s.error && (
          <p className="fem-error" role="alert" data-testid="fem-error">
            {s.error}
          </p>
        )}
        {s.tab === 'frame' && (
          <QuirkNotes
            notes={benchmarkQuirkNotes({
              view: 'frame',
              model: s.model,
              showAxes: s.showAxes,
              bucklingLambdas: s.buckling?.modes.map((m) => m.lambda) ?? null,
              error: s.error,
            })}
          />
        )}
      </aside>
      <main className="fem-main">
        {s.tab === 'frame' && (
          <>
            <FrameView />
            <div className="fem-bottom">
              <Results />
              <ModelTables />
            </div>
          </>
        )}
        {s.tab === '2d' && (
          <div className="fem-scroll">
            <Mesh2DView />
          </div>
        )}
        {s.tab === '1d' && (
          <div className="fem-scroll">
            <OneDView />
          </div>
        )}
        {s.tab === 'outputs' && (
          <div className="fem-scroll">
            <OutputsView />
          </div>
        )}
      </main>
    </div>
  );
}

function FrameControls() {
  const s = useFem(
    useShallow((st) => ({
      buckling: st.buckling,
      busy: st.busy,
      linear: st.linear,
      modeIndex: st.modeIndex,
      model: st.model,
      playing: st.playing,
      scale: st.scale,
      show: st.show,
      showAxes: st.showAxes,
    })),
  );
  const model = s.model;
  const field =
    s.show === 'deformed' && s.linear ? s.linear.u : s.show === 'mode' && s.buckling ? s.buckling.modes[s.modeIndex]?.mode : null;
  const auto = field ? autoScale(field, model.node_coords.length, characteristicLength(model)) : 1;
  const scale = s.scale ?? auto;
  return (
    <section>
      <label className="fem-field">
        example
        <select
          value={FRAME_EXAMPLES.some((e) => e.id === model.id) ? model.id : ''}
          data-testid="fem-example"
          onChange={(e) => loadExample(e.target.value)}
        >
          {FRAME_EXAMPLES.map((e) => (
            <option key={e.id} value={e.id}>
              {e.name}
            </option>
          ))}
        </select>
      </label>
      {model.description && <p className="fem-hint">{model.description}</p>}
      {model.source && (
        <p className="fem-hint">
          From FEM-Bench {model.source.task}, case {model.source.case}.{model.note ? ` ${model.note}` : ''}
        </p>
      )}
      <p className="fem-hint">
        {model.node_coords.length} nodes, {model.elements.length} elements.
      </p>
      <div className="fem-row">
        <button data-testid="fem-run-linear" onClick={() => void runLinear()} disabled={!!s.busy}>
          linear solve
        </button>
        <button data-testid="fem-run-buckling" onClick={() => void runBuckling(3)} disabled={!!s.busy}>
          buckling
        </button>
      </div>
      <div className="fem-row">
        <label>
          <input type="radio" checked={s.show === 'model'} onChange={() => useFem.setState({ show: 'model', playing: false })} /> model
        </label>
        <label>
          <input
            type="radio"
            checked={s.show === 'deformed'}
            disabled={!s.linear}
            onChange={() => useFem.setState({ show: 'deformed', playing: false, scale: null })}
          />{' '}
          deformed
        </label>
        <label>
          <input
            type="radio"
            checked={s.show === 'mode'}
            disabled={!s.buckling}
            onChange={() => useFem.setState({ show: 'mode', scale: null })}
          />{' '}
          buckling mode
        </label>
      </div>
      <label className="fem-field">
        <span>
          <input
            type="checkbox"
            checked={s.showAxes}
            data-testid="fem-axes"
            onChange={(e) => useFem.setState({ showAxes: e.target.checked })}
          />{' '}
          local axes (x red, y green, z blue)
        </span>
      </label>
      {field && (
        <label className="fem-field">
          scale ×{formatNumber(scale, 3)}
          <input
            type="range"
            min={-2}
            max={2}
            step={0.05}
            data-testid="fem-scale"
            value={Math.log10(scale / auto)}
            onChange={(e) => useFem.setState({ scale: auto * 10 ** Number(e.target.value) })}
          />
        </label>
      )}
      {s.show === 'mode' && s.buckling && (
        <div className="fem-modes">
          {s.buckling.modes.map((m, k) => (
            <label key={k}>
              <input type="radio" checked={s.modeIndex === k} onChange={() => useFem.setState({ modeIndex: k, scale: null })} /> mode{' '}
              {k + 1}: λ = <span data-testid={`fem-lambda-${k}`}>{formatNumber(m.lambda, 8)}</span>
            </label>
          ))}
          <button data-testid="fem-play" onClick={() => useFem.setState({ playing: !s.playing })}>
            {s.playing ? 'pause' : 'play'}
          </button>
          {s.buckling.note && <p className="fem-hint">{s.buckling.note}</p>}
        </div>
      )}
    </section>
  );
}

function Results() {
  const s = useFem(useShallow((st) => ({ buckling: st.buckling, linear: st.linear, model: st.model, show: st.show })));
  if (s.show === 'mode' && s.buckling) {
    const first = s.buckling.modes[0];
    return (
      <div className="fem-results" data-testid="fem-buckling-results">
        <h3>Buckling</h3>
        <p>
          Critical load factor λ<sub>cr</sub> = <strong data-testid="fem-lambda-cr">{formatNumber(first.lambda, 8)}</strong> (the applied
          loads × λ<sub>cr</sub> buckle the frame).
        </p>
        <table className="fem-small-table">
          <thead>
            <tr>
              <th>mode</th>
              <th>λ</th>
            </tr>
          </thead>
          <tbody>
            {s.buckling.modes.map((m, k) => (
              <tr key={k}>
                <td>{k + 1}</td>
                <td>{formatNumber(m.lambda, 8)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="fem-hint">{s.buckling.ms.toFixed(0)} ms in the worker.</p>
      </div>
    );
  }
  if (!s.linear)
    return (
      <div className="fem-results">
        <p className="fem-hint">
          Run the linear solve to see the deformed shape and the reactions, or the buckling analysis for λ<sub>cr</sub> and the modes.
        </p>
      </div>
    );
  const rows = reactionRows(s.linear.r, s.model);
  let maxU = 0,
    maxNode = 0;
  for (let i = 0; i < s.model.node_coords.length; i++) {
    const m = Math.hypot(s.linear.u[6 * i], s.linear.u[6 * i + 1], s.linear.u[6 * i + 2]);
    if (m > maxU) {
      maxU = m;
      maxNode = i;
    }
  }
  return (
    <div className="fem-results" data-testid="fem-linear-results">
      <h3>Linear solve</h3>
      <p>
        Largest translation <span data-testid="fem-max-u">{formatNumber(maxU)}</span> at node {maxNode}. {s.linear.ms.toFixed(0)} ms.
      </p>
      <table className="fem-small-table" data-testid="fem-reactions">
        <thead>
          <tr>
            <th>node</th>
            <th>reaction</th>
            <th>value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.node}-${r.dof}`}>
              <td>{r.node}</td>
              <td>{r.name}</td>
              <td data-testid={`fem-reaction-${r.node}-${r.name}`}>{formatNumber(r.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
