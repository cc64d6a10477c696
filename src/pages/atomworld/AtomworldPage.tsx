/**
 * AtomWorld: model answers to structure-editing cases judged as the benchmark judges them (StructureMatcher,
 * stol 0.5), a per-action summary beside a sortable case list, and for one case the BEFORE, the target and
 * the answer side by side with the action drawn, plus an overlay of target and answer after the matcher's
 * mapping. A second mode compares any two periodic structures with editable tolerances.
 * Judging runs in workers/atomworld.worker.ts.
 */
import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { DisplayData } from '../../core/analysis/display-scene.ts';
import { DEFAULT_SETTINGS, type ViewSettings } from '../../viewer/view-settings.ts';
import {
  compareCaseXrd,
  cancel,
  loadCasesFile,
  loadDemo,
  selectCase,
  setAnswersFile,
  setCompareFile,
  setMode,
  setSort,
  setTolerances,
  useAtomworld,
} from '../../state/atomworld.ts';
import { XrdComparison } from '../../ui/XrdComparison.tsx';
import { linkCameras, ViewerController } from '../../viewer/controller.ts';
import { atomRadii } from '../../viewer/StructureViewer.tsx';
import { ViewerPanel } from '../../ui/ViewerPanel.tsx';
import { useDisposable } from '../../viewer/use-disposable.ts';
import { DISPLACEMENT_RAMP, elementColor, rampColor, toHex, type Rgb } from '../../viewer/colors.ts';
import { makeSphereMesh } from '../../viewer/impostors.ts';
import { finiteDisplay, overlayTargetDisplay } from '../../viewer/particle-display.ts';
import { DEFAULT_DATASET, datasetText, isDataset } from '../../state/datasets.ts';
import type { CaseView, OverlayView } from '../../../workers/atomworld-api.ts';
import { COLORS, TraceDrawing, cellGrid, repeatColor } from './drawing.tsx';
import { Lines } from '../../viewer/Lines.tsx';
import { Halos } from '../../viewer/Halos.tsx';
import { pairDistance } from '../../core/tasks/atomworld/lab/overlay.ts';
import {
  type CaseRow,
  type CaseSortKey,
  actionsCsv,
  casesCsv,
  errorTypesOf,
  resultsJson,
  sortCaseRows,
} from '../../core/tasks/atomworld/lab/inputs.ts';
import { fmt } from '../../ui/format.ts';
import './atomworld.css';
import { downloadText } from '../../browser/download.ts';
import { ErrorAlert } from '../../ui/ErrorAlert.tsx';
import { Progress } from '../../ui/Progress.tsx';
import { SortableHeader } from '../../ui/SortableHeader.tsx';
import { FilePick } from '../../ui/FilePick.tsx';
import { ColorBar } from '../../ui/ColorBar.tsx';
import { PanelResizer } from '../../ui/PanelResizer.tsx';

const VIEW_SETTINGS: ViewSettings = { ...DEFAULT_SETTINGS, showPolyhedra: false };
const OVERLAY_SETTINGS: ViewSettings = { ...DEFAULT_SETTINGS, showBonds: false, showPolyhedra: false };

export const beforeViewer = new ViewerController('aw-before');
export const targetViewer = new ViewerController('aw-target');
export const answerViewer = new ViewerController('aw-answer');
export const overlayViewer = new ViewerController('aw-overlay');
export const compareAViewer = new ViewerController('aw-a');
export const compareBViewer = new ViewerController('aw-b');
export const matchViewer = new ViewerController('aw-match');

const ERROR_COLORS: Record<string, string> = {
  OutputFormatError: '#9aa3b2',
  CIFParsingError: '#c38bd9',
  AtomCountMismatch: '#f0a040',
  StructureMismatch: '#e05a4f',
  Unknown: '#555',
};
const SUCCESS_COLOR = '#3fae5a';
const DEMO_DATASET = isDataset('SrTiO3.cif') ? 'SrTiO3.cif' : DEFAULT_DATASET;

const startDemo = () => void datasetText(DEMO_DATASET).then((t) => loadDemo(t, DEMO_DATASET));

export function AtomworldPage() {
  // Only what this level draws: the batch ticks (`rows`, `progress`) reach the tables and the progress line, not the viewers.
  const s = useAtomworld(useShallow((st) => ({ mode: st.mode, hasBatch: st.batch !== null })));
  useEffect(() => {
    const { batch, busy } = useAtomworld.getState();
    if (!batch && !busy) startDemo();
  }, []);
  useEffect(
    () =>
      s.mode === 'cases'
        ? linkCameras([beforeViewer, targetViewer, answerViewer, overlayViewer])
        : linkCameras([compareAViewer, compareBViewer, matchViewer]),
    [s.mode],
  );
  return (
    <div className="lab aw-lab" data-testid="atomworld-page">
      <aside className="panel left">
        <Controls />
      </aside>
      <main className="aw-main">
        <div className="aw-views">
          {s.mode === 'cases' ? <CaseViews /> : <CompareViews />}
          <WorkProgress />
        </div>
        {s.mode === 'cases' && s.hasBatch && (
          <div className="aw-tables">
            <ActionTable />
            <CaseTable />
          </div>
        )}
      </main>
      <aside className="panel right">{s.mode === 'cases' ? <CaseDetails /> : <CompareDetails />}</aside>
      <PanelResizer id="atomworld" defaultWidth={300} />
    </div>
  );
}

function WorkProgress() {
  const { busy, progress } = useAtomworld(useShallow((st) => ({ busy: st.busy, progress: st.progress })));
  if (!busy && !progress) return null;
  return (
    <Progress
      testId="aw-progress"
      className="progress aw-progress"
      spinner={!!busy}
      bar={progress}
      onCancel={cancel}
      cancelTestId="aw-cancel"
    >
      {busy}…
    </Progress>
  );
}

function Controls() {
  const s = useAtomworld(
    useShallow((st) => ({
      mode: st.mode,
      casesFile: st.casesFile,
      answersFile: st.answersFile,
      batch: st.batch,
      summary: st.summary,
      rows: st.rows,
      compareA: st.compareA,
      compareB: st.compareB,
      tolerances: st.tolerances,
      error: st.error,
    })),
  );
  const tol = s.tolerances;
  const numberInput = (key: 'ltol' | 'stol' | 'angleTol', label: string, step: number) => (
    <label>
      {label}
      <input
        type="number"
        data-testid={`aw-tol-${key}`}
        step={step}
        min={0}
        defaultValue={tol[key]}
        key={`${key}-${tol[key]}`}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void setTolerances({ [key]: Number((e.target as HTMLInputElement).value) });
        }}
        onBlur={(e) => {
          const v = Number(e.target.value);
          if (v !== tol[key]) void setTolerances({ [key]: v });
        }}
      />
    </label>
  );
  return (
    <section>
      <div className="cmp-toggle" role="group" aria-label="mode">
        <button type="button" className={s.mode === 'cases' ? 'active' : ''} data-testid="aw-mode-cases" onClick={() => setMode('cases')}>
          Cases
        </button>
        <button
          type="button"
          className={s.mode === 'compare' ? 'active' : ''}
          data-testid="aw-mode-compare"
          onClick={() => setMode('compare')}
        >
          Compare two
        </button>
      </div>
      <h2>Batch</h2>
      <label className="file-button aw-file">
        Cases file…
        <FilePick accept=".jsonl,.json,.txt" data-testid="aw-cases-input" onFiles={([f]) => void loadCasesFile(f)} />
      </label>
      <span className="hint" data-testid="aw-cases-name">
        {s.casesFile?.path ?? s.batch?.source ?? ''}
      </span>
      <label className="file-button aw-file">
        Answers file…
        <FilePick accept=".jsonl,.json,.txt" data-testid="aw-answers-input" onFiles={([f]) => void setAnswersFile(f)} />
      </label>
      <span className="hint" data-testid="aw-answers-name">
        {s.answersFile ? (
          <>
            {s.answersFile.path}{' '}
            <button type="button" className="link" onClick={() => void setAnswersFile(null)}>
              ×
            </button>
          </>
        ) : (
          'none: answers from the cases file'
        )}
      </span>
      <p className="hint">
        Cases: JSONL rows {'{id, action, params, prompt, before_cif, after_cif}'}; answers: {'{id, answer}'} (the model's text, the CIF
        between the last {'<cif>…</cif>'}). Records that carry both (model_generated_cif, candidate_cif or answer) load as one file.
      </p>
      <button type="button" data-testid="aw-demo" onClick={startDemo}>
        Demo cases
      </button>
      {s.batch && s.batch.warnings.length > 0 && (
        <ul className="warnings" data-testid="aw-warnings">
          {s.batch.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {s.summary && s.batch && (
        <>
          <h2>Export</h2>
          <div className="aw-buttons">
            <button
              type="button"
              data-testid="aw-export-cases"
              onClick={() => downloadText('atomworld-cases.csv', casesCsv(rowsOf(s.rows)), 'text/csv')}
            >
              Cases CSV
            </button>
            <button
              type="button"
              data-testid="aw-export-actions"
              onClick={() => downloadText('atomworld-actions.csv', actionsCsv(s.summary!), 'text/csv')}
            >
              Actions CSV
            </button>
            <button
              type="button"
              data-testid="aw-export-json"
              onClick={() => downloadText('atomworld-results.json', resultsJson(rowsOf(s.rows), s.summary!), 'application/json')}
            >
              JSON
            </button>
          </div>
        </>
      )}

      <h2>Compare two structures</h2>
      <label className="file-button aw-file">
        Structure A…
        <FilePick data-testid="aw-compare-a" onFiles={([f]) => void setCompareFile('a', f)} />
      </label>
      <span className="hint" data-testid="aw-compare-a-name">
        {s.compareA?.path ?? ''}
      </span>
      <label className="file-button aw-file">
        Structure B…
        <FilePick data-testid="aw-compare-b" onFiles={([f]) => void setCompareFile('b', f)} />
      </label>
      <span className="hint" data-testid="aw-compare-b-name">
        {s.compareB?.path ?? ''}
      </span>
      {numberInput('ltol', 'ltol (fractional length)', 0.05)}
      {numberInput('stol', 'stol (× (V/n)^⅓)', 0.05)}
      {numberInput('angleTol', 'angle_tol (°)', 1)}
      <label className="check">
        <input
          type="checkbox"
          data-testid="aw-tol-primitive"
          checked={tol.primitiveCell}
          onChange={(e) => void setTolerances({ primitiveCell: e.target.checked })}
        />{' '}
        primitive_cell
      </label>
      <p className="hint">
        pymatgen's defaults: ltol 0.2, stol 0.3, angle_tol 5, primitive_cell on. AtomWorld judges with stol 0.5, primitive_cell off.
      </p>

      {s.error && <ErrorAlert message={s.error} testId="aw-error" onDismiss={() => useAtomworld.setState({ error: null })} />}
    </section>
  );
}

const rowsOf = (rows: (CaseRow | undefined)[]): CaseRow[] => rows.filter((r): r is CaseRow => !!r);

function Viewer({
  controller,
  testId,
  display,
  fitKey,
  settings = VIEW_SETTINGS,
  children,
  caption,
}: {
  controller: ViewerController;
  testId: string;
  display: DisplayData | null;
  fitKey: unknown;
  settings?: ViewSettings;
  children?: React.ReactNode;
  caption: string;
}) {
  return (
    <ViewerPanel
      panelTestId={`${testId}-panel`}
      controller={controller}
      testId={testId}
      display={display}
      settings={settings}
      fitKey={fitKey}
      caption={caption}
    >
      {children}
    </ViewerPanel>
  );
}

function CaseViews() {
  const s = useAtomworld(useShallow((st) => ({ view: st.view, fitToken: st.fitToken, hasBatch: st.batch !== null })));
  const v = s.view;
  const trace = v?.trace;
  const grid = useMemo(() => {
    if (!trace?.supercell) return null;
    const cells = trace.supercell.reduce((a, b) => a * b, 1);
    return { points: cellGrid(trace.cell, trace.supercell), colors: repeatColor(COLORS.cells, 2 * 12 * cells) };
  }, [trace]);
  if (!v) return <div className="aw-empty">{s.hasBatch ? 'Choose a case in the list.' : 'Load a cases file, or open the demo.'}</div>;
  return (
    <div className="aw-grid">
      {v.before ? (
        <Viewer controller={beforeViewer} testId="aw-viewer-before" display={v.before} fitKey={s.fitToken} caption={`before · ${v.action}`}>
          {v.trace && <TraceDrawing trace={v.trace} positions={v.before.positions} />}
        </Viewer>
      ) : (
        <div className="view aw-note" data-testid="aw-before-missing">
          {v.beforeError}
        </div>
      )}
      <Viewer controller={targetViewer} testId="aw-viewer-target" display={v.target} fitKey={s.fitToken} caption="target (ground truth)">
        {grid && <Lines points={grid.points} colors={grid.colors} dashed />}
      </Viewer>
      {v.answer ? (
        <Viewer controller={answerViewer} testId="aw-viewer-answer" display={v.answer} fitKey={s.fitToken} caption="model answer" />
      ) : (
        <div className="view aw-raw" data-testid="aw-answer-raw-panel">
          <div className="error" data-testid="aw-answer-error">
            {v.answerError ?? v.reason}
          </div>
          <pre data-testid="aw-answer-raw">{v.answerText || '(empty answer)'}</pre>
        </div>
      )}
      {v.overlay ? (
        <OverlayViewer
          controller={overlayViewer}
          testId="aw-viewer-overlay"
          overlay={v.overlay}
          fitKey={s.fitToken}
          caption="target (solid) + answer (translucent) after the mapping"
        />
      ) : (
        <div className="view aw-note" data-testid="aw-overlay-missing">
          No overlay: {v.answerError ?? 'the answer has no structure'}.
        </div>
      )}
    </div>
  );
}

/** Target atoms solid, answer atoms translucent beside their partners, lines coloured by distance. */
function OverlayViewer({
  controller,
  testId,
  overlay,
  fitKey,
  caption,
}: {
  controller: ViewerController;
  testId: string;
  overlay: OverlayView;
  fitKey: unknown;
  caption: string;
}) {
  const display = useMemo(() => overlayTargetDisplay(overlay), [overlay]);
  const { points, colors } = useMemo(() => {
    const points: number[] = [],
      colors: number[] = [];
    for (const p of overlay.pairs) {
      points.push(...overlay.targetCart[p.a], ...overlay.answerCart[p.b]);
      const c = rampColor(DISPLACEMENT_RAMP, pairDistance(p) / overlay.tolerance); // 0 → the stol distance (beyond it: red);
      colors.push(...c, ...c);
    }
    return { points, colors };
  }, [overlay]);
  const halos = useMemo(
    () => ({
      missing: overlay.missing.map((i) => overlay.targetCart[i]),
      extra: overlay.extra.map((i) => overlay.answerCart[i]),
      beyond: overlay.pairs.filter((p) => pairDistance(p) > overlay.tolerance).map((p) => overlay.targetCart[p.a]),
    }),
    [overlay],
  );
  return (
    <ViewerPanel
      panelTestId={`${testId}-panel`}
      controller={controller}
      testId={testId}
      display={display}
      settings={OVERLAY_SETTINGS}
      fitKey={fitKey}
      caption={caption}
      after={<OverlayLegend overlay={overlay} />}
    >
      <AnswerGhost overlay={overlay} elements={display.elements} />
      {points.length > 0 && <Lines points={points} colors={colors} />}
      <Halos centers={halos.missing} color={COLORS.missing} radius={0.85} />
      <Halos centers={halos.extra} color={COLORS.extra} radius={0.85} />
      <Halos centers={halos.beyond} color={COLORS.beyond} radius={0.75} opacity={0.35} />
    </ViewerPanel>
  );
}

function AnswerGhost({ overlay, elements }: { overlay: OverlayView; elements: string[] }) {
  const mesh = useDisposable(() => {
    const n = overlay.answerSymbols.length;
    const element = Uint16Array.from(overlay.answerSymbols, (e) => elements.indexOf(e));
    const positions = Float32Array.from(overlay.answerCart.flat());
    const d = finiteDisplay(elements, element, positions);
    const radii = atomRadii(d, OVERLAY_SETTINGS);
    const colors = new Float32Array(3 * n);
    for (let i = 0; i < n; i++) colors.set(elementColor(overlay.answerSymbols[i], OVERLAY_SETTINGS.colorScheme), 3 * i);
    const m = makeSphereMesh({ centers: positions, radii: radii.map((r) => r * 1.1), colors, count: n }, 0.35);
    m.renderOrder = 3;
    return m;
  }, [overlay, elements]);
  return <primitive object={mesh} />;
}

function OverlayLegend({ overlay }: { overlay: OverlayView }) {
  const beyond = overlay.pairs.filter((p) => pairDistance(p) > overlay.tolerance).length;
  return (
    <ColorBar
      caption={`target → matched answer atom, Å, up to stol (${
        overlay.source === 'matcher' ? 'matcher mapping' : 'least-distance pairs, no matcher mapping'
      })`}
      ramp={DISPLACEMENT_RAMP}
      min="0"
      max={overlay.tolerance.toFixed(2)}
      testId="aw-overlay-legend"
      keysTestId="aw-overlay-counts"
    >
      <span>{overlay.pairs.length} pairs</span>
      <span>
        <i className="swatch ring" style={{ borderColor: toHex(COLORS.beyond) }} /> beyond stol {beyond}
      </span>
      <span>
        <i className="swatch ring" style={{ borderColor: toHex(COLORS.missing) }} /> missing {overlay.missing.length}
      </span>
      <span>
        <i className="swatch ring" style={{ borderColor: toHex(COLORS.extra) }} /> extra {overlay.extra.length}
      </span>
    </ColorBar>
  );
}

function verdictText(r: { correct: boolean; wrong_type: string | null }): string {
  return r.correct ? 'correct' : (r.wrong_type ?? 'wrong');
}

const CASE_XRD_LABELS: [string, string] = ['answer', 'target'];

/** The answer's powder pattern over the target's, with `structlab xrd-compare`'s scores, on request. */
function CaseXrd() {
  const selected = useAtomworld((s) => s.selected);
  const xrd = useAtomworld((s) => s.xrd);
  return (
    <>
      <button type="button" data-testid="aw-xrd-compare" onClick={() => void compareCaseXrd()}>
        Compare powder patterns
      </button>
      {xrd && xrd.index === selected && <XrdComparison comparison={xrd.comparison} labels={CASE_XRD_LABELS} testId="aw-xrd" />}
    </>
  );
}

function CaseDetails() {
  const v = useAtomworld((st) => st.view);
  if (!v) return <p className="hint">No case selected.</p>;
  return (
    <section data-testid="aw-case">
      <h2>Case</h2>
      <p className="aw-id" data-testid="aw-case-id">
        {v.id}
      </p>
      <p>
        <strong className={v.row.correct ? 'aw-ok' : 'aw-bad'} data-testid="aw-case-verdict">
          {verdictText(v.row)}
        </strong>
        {v.row.rmsd !== null && (
          <>
            {' '}
            · rms {fmt(v.row.rmsd)} · max_dist {fmt(v.row.max_dist)}
          </>
        )}
      </p>
      {v.row.official && (
        <p className="hint" data-testid="aw-case-official">
          official: {verdictText(v.row.official)}
          {v.row.official.rmsd !== null ? ` · rms ${fmt(v.row.official.rmsd)} · max_dist ${fmt(v.row.official.max_dist)}` : ''}
          {v.row.official.correct === v.row.correct && v.row.official.wrong_type === v.row.wrong_type ? ' ✓ same' : ' ✗ differs'}
        </p>
      )}
      {v.reason && <p className="hint">{v.reason}</p>}
      {v.overlay && (
        <p className="hint" data-testid="aw-overlay-note">
          {v.overlay.note}.
        </p>
      )}
      {v.answer && <CaseXrd />}
      <h2>Prompt</h2>
      <p className="aw-prompt" data-testid="aw-prompt">
        {v.prompt || '(none)'}
      </p>
      {v.params && <pre className="aw-params">{JSON.stringify(v.params)}</pre>}
      {v.traceError && (
        <p className="hint" data-testid="aw-trace-error">
          {v.traceError}
        </p>
      )}
      <ActionKey view={v} />
      <h2>Lint</h2>
      {v.lint.length === 0 ? (
        <p className="hint" data-testid="aw-lint">
          no findings
        </p>
      ) : (
        <ul className="aw-lint" data-testid="aw-lint">
          {v.lint.map((l, k) => (
            <li key={k} className={`sev-${l.severity}`}>
              <b>{l.code}</b> ({l.severity}): {l.message}
            </li>
          ))}
        </ul>
      )}
      <details open={!!v.answerError}>
        <summary>Raw answer</summary>
        <pre className="aw-raw-text">{v.answerText || '(empty)'}</pre>
      </details>
    </section>
  );
}

function ActionKey({ view }: { view: CaseView }) {
  const t = view.trace;
  if (!t) return null;
  const items: [Rgb, string][] = [];
  if (t.moves.length)
    items.push([COLORS.moved, t.rotation ? `${t.moves.length} rotated neighbour(s) and their arcs` : 'moved atom and its path']);
  if (t.rotation)
    items.push(
      [COLORS.axis, `axis [${t.rotation.axis.map((x) => x.toFixed(2)).join(', ')}], ${t.rotation.angleDeg.toFixed(1)}°`],
      [COLORS.centre, `centre atom ${t.rotation.centreIndex}, radius ${t.rotation.radius.toFixed(2)} Å`],
    );
  if (t.plane) items.push([COLORS.plane, `plane z = ${t.plane.z.toFixed(3)} Å (atom ${t.plane.referenceIndex})`]);
  if (t.removed.length) items.push([COLORS.removed, `${t.removed.length} removed atom(s)`]);
  if (t.added.length)
    items.push([
      COLORS.added,
      t.segment
        ? `inserted ${t.added[0].symbol} on the segment ${t.segment.index1}→${t.segment.index2}`
        : `added ${t.added.map((a) => a.symbol).join(', ')}`,
    ]);
  if (t.changed.length) items.push([COLORS.changed, t.changed.map((c) => `${c.index}: ${c.from}→${c.to}`).join(', ')]);
  if (t.supercell) items.push([COLORS.cells, `${t.supercell.join('×')} repeated cells`]);
  return (
    <ul className="aw-key" data-testid="aw-action-key">
      {items.map(([c, text]) => (
        <li key={text}>
          <i className="swatch" style={{ background: toHex(c) }} /> {text}
        </li>
      ))}
    </ul>
  );
}

function ActionTable() {
  const summary = useAtomworld((st) => st.summary);
  if (!summary)
    return (
      <div className="aw-actions">
        <p className="hint">The summary appears when every case is judged.</p>
      </div>
    );
  const types = errorTypesOf(summary);
  return (
    <div className="aw-actions" data-testid="aw-actions">
      <table>
        <thead>
          <tr>
            <th>action</th>
            <th>n</th>
            <th>success</th>
            <th title="mean max_dist over the correct cases">mean max</th>
            <th className="aw-bar-col">outcomes</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(summary).map(([action, a]) => (
            <tr key={action} data-testid="aw-action-row" data-action={action}>
              <td>{action}</td>
              <td>{a.n}</td>
              <td data-testid="aw-success-rate">{(100 * a.success_rate).toFixed(1)} %</td>
              <td>{fmt(a.mean_max_dist, 3)}</td>
              <td className="aw-bar-col">
                <div
                  className="aw-stack"
                  title={[
                    `correct ${Math.round(a.success_rate * a.n)}`,
                    ...types.filter((t) => a.errors[t]).map((t) => `${t} ${a.errors[t]}`),
                  ].join(', ')}
                >
                  <span style={{ width: `${100 * a.success_rate}%`, background: SUCCESS_COLOR }} />
                  {types.map((t) =>
                    a.errors[t] ? (
                      <span key={t} style={{ width: `${(100 * a.errors[t]) / a.n}%`, background: ERROR_COLORS[t] ?? '#777' }} />
                    ) : null,
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="aw-stack-key">
        <span>
          <i className="swatch" style={{ background: SUCCESS_COLOR }} /> correct
        </span>
        {types.map((t) => (
          <span key={t}>
            <i className="swatch" style={{ background: ERROR_COLORS[t] ?? '#777' }} /> {t}
          </span>
        ))}
      </div>
    </div>
  );
}

const CASE_COLUMNS: { key: CaseSortKey; label: string }[] = [
  { key: 'index', label: '#' },
  { key: 'id', label: 'id' },
  { key: 'action', label: 'action' },
  { key: 'correct', label: 'verdict' },
  { key: 'wrong_type', label: 'wrong_type' },
  { key: 'rmsd', label: 'rmsd' },
  { key: 'max_dist', label: 'max_dist' },
  { key: 'lint', label: 'lint' },
];

function CaseTable() {
  const s = useAtomworld(useShallow((st) => ({ rows: st.rows, sort: st.sort, selected: st.selected, batch: st.batch })));
  const judged = useMemo(() => rowsOf(s.rows), [s.rows]);
  const rows = useMemo(() => sortCaseRows(judged, s.sort.key, s.sort.descending), [judged, s.sort]);
  const hasOfficial = !!s.batch?.hasOfficial;
  return (
    <div className="aw-cases cmp-table" data-testid="aw-cases">
      <table>
        <thead>
          <tr>
            <SortableHeader columns={CASE_COLUMNS} sort={s.sort} onSort={setSort} testIdPrefix="aw-sort" />
            {hasOfficial && <th>official</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const official = r.official ? verdictText(r.official) : null;
            return (
              <tr
                key={r.index}
                className={s.selected === r.index ? 'active' : ''}
                onClick={() => void selectCase(r.index)}
                data-testid="aw-row"
                data-id={r.id}
                data-verdict={verdictText(r)}
                data-official={official ?? ''}
              >
                <td>{r.index + 1}</td>
                <td title={r.id}>{r.id}</td>
                <td>{r.action}</td>
                <td className={r.correct ? 'aw-ok' : 'aw-bad'}>{r.correct ? '✓' : '✗'}</td>
                <td>{r.wrong_type ?? ''}</td>
                <td>{fmt(r.rmsd)}</td>
                <td>{fmt(r.max_dist)}</td>
                <td title={r.lint.join(', ')}>{r.lint.length ? r.lint.join(', ') : ''}</td>
                {hasOfficial && (
                  <td>
                    {official ?? '—'}
                    {official && official !== verdictText(r) ? ' ≠' : ''}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {judged.length < (s.batch?.count ?? 0) && (
        <p className="hint">
          {judged.length} of {s.batch!.count} judged
        </p>
      )}
    </div>
  );
}

function CompareViews() {
  const s = useAtomworld(useShallow((st) => ({ compare: st.compare, fitToken: st.fitToken })));
  const c = s.compare;
  if (!c)
    return (
      <div className="aw-empty" data-testid="aw-compare-empty">
        Choose two periodic structures (CIF, POSCAR, extended XYZ, pymatgen JSON) on the left.
      </div>
    );
  return (
    <div className="aw-grid aw-grid-3">
      <Viewer controller={compareAViewer} testId="aw-viewer-a" display={c.a} fitKey={s.fitToken} caption={`A: ${c.nameA}`} />
      <Viewer controller={compareBViewer} testId="aw-viewer-b" display={c.b} fitKey={s.fitToken} caption={`B: ${c.nameB}`} />
      <OverlayViewer
        controller={matchViewer}
        testId="aw-viewer-match"
        overlay={c.overlay}
        fitKey={s.fitToken}
        caption="A (solid) + B (translucent) after the mapping"
      />
    </div>
  );
}

function CompareDetails() {
  const c = useAtomworld((st) => st.compare);
  if (!c) return <p className="hint">No comparison yet.</p>;
  const t = c.tolerances;
  return (
    <section data-testid="aw-compare-result">
      <h2>Matcher</h2>
      <p>
        <strong className={c.fit ? 'aw-ok' : 'aw-bad'} data-testid="aw-compare-verdict">
          {c.fit ? 'match' : 'no match'}
        </strong>
      </p>
      <dl>
        <dt>A</dt>
        <dd>
          {c.formulaA}, {c.natomsA} sites
        </dd>
        <dt>B</dt>
        <dd>
          {c.formulaB}, {c.natomsB} sites
        </dd>
        <dt>rms</dt>
        <dd data-testid="aw-compare-rms">{fmt(c.rms)}</dd>
        <dt>max_dist</dt>
        <dd data-testid="aw-compare-max">{fmt(c.maxDist)}</dd>
        <dt>tolerances</dt>
        <dd data-testid="aw-compare-tolerances">
          ltol {t.ltol} · stol {t.stol} · angle_tol {t.angleTol}° · primitive_cell {t.primitiveCell ? 'on' : 'off'}
        </dd>
      </dl>
      <p className="hint">
        rms and max_dist are pymatgen's get_rms_dist: normalised by (V/n)^⅓ of the cell ({c.overlay.lengthScale.toFixed(3)} Å here).
      </p>
      <p className="hint">{c.overlay.note}.</p>
    </section>
  );
}
