/**
 * Compare: a predicted nanoparticle against its ground truth, or a batch of them. Atoms are coloured by
 * displacement (index-paired as the benchmark pairs them, or after the order- and motion-invariant
 * alignment); missing and extra atoms are marked; the pair that sets the Hausdorff distance is drawn.
 * Scoring runs in workers/compare.worker.ts.
 */
import { useEffect, useMemo } from 'react';
import * as THREE from 'three';
import { useShallow } from 'zustand/react/shallow';
import { formatCsv } from '../../core/io/csv.ts';
import { DEFAULT_SETTINGS, type ViewSettings } from '../../viewer/view-settings.ts';
import {
  cancel,
  loadBatchJsonl,
  loadDemo,
  selectRow,
  setBatchFolder,
  setLayout,
  setMode,
  setPairFile,
  setRadius,
  setSort,
  useCompare,
  type CompareLayout,
  type DisplacementMode,
  type SortKey,
} from '../../state/compare.ts';
import { linkCameras, ViewerController } from '../../viewer/controller.ts';
import { atomRadii } from '../../viewer/StructureViewer.tsx';
import { ViewerPanel } from '../../ui/ViewerPanel.tsx';
import { useDisposable } from '../../viewer/use-disposable.ts';
import { DISPLACEMENT_RAMP, elementColor, rampColor, toHex, type Rgb } from '../../viewer/colors.ts';
import { Halos } from '../../viewer/Halos.tsx';
import { makeSphereMesh } from '../../viewer/impostors.ts';
import { finiteDisplay } from '../../viewer/particle-display.ts';
import { DEFAULT_DATASET, datasetText } from '../../state/datasets.ts';
import type { ForwardRow, PairView } from '../../../workers/compare-api.ts';
import { fmt } from '../../ui/format.ts';
import './compare.css';
import { downloadText } from '../../browser/download.ts';
import { ErrorAlert } from '../../ui/ErrorAlert.tsx';
import { Progress } from '../../ui/Progress.tsx';
import { SortableHeader } from '../../ui/SortableHeader.tsx';
import { FilePick } from '../../ui/FilePick.tsx';
import { ColorBar } from '../../ui/ColorBar.tsx';

const VIEW_SETTINGS: ViewSettings = { ...DEFAULT_SETTINGS, showBonds: false, showCell: false, showPolyhedra: false };

export const overlayViewer = new ViewerController('overlay');
export const truthViewer = new ViewerController('truth');
export const predViewer = new ViewerController('pred');

/** Grey for atoms with no partner (the others take DISPLACEMENT_RAMP up to the scale's top). */
const UNPAIRED: Rgb = [0.6, 0.6, 0.6];
const MISSING_COLOR: Rgb = [0.9, 0.1, 0.1];
const EXTRA_COLOR: Rgb = [0.85, 0.1, 0.85];

function displacements(pair: PairView, mode: DisplacementMode): Float32Array | null {
  return mode === 'paired' ? pair.pairedDisplacement : pair.alignedDisplacement;
}

/**
 * The colour bar's top: the largest finite displacement, rounded up a little (never 0). Atoms marked extra are
 * left out (a stray atom 20 Å away would wash every other colour out); they are clamped to the top colour.
 */
function scaleTop(d: Float32Array | null, skip: Uint32Array | null): number {
  let max = 0;
  const skipped = new Set(skip ?? []);
  if (d)
    d.forEach((v, i) => {
      if (Number.isFinite(v) && v > max && !skipped.has(i)) max = v;
    });
  if (max <= 0) return 0.1;
  const step = 10 ** Math.floor(Math.log10(max)) / 2;
  return Math.ceil(max / step) * step;
}

function displacementColors(d: Float32Array | null, n: number, top: number): Float32Array {
  const colors = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) colors.set(d && Number.isFinite(d[i]) ? rampColor(DISPLACEMENT_RAMP, d[i] / top) : UNPAIRED, 3 * i);
  return colors;
}

export function ComparePage() {
  // Only what the views draw: a batch-progress tick (`progress`) must not re-render the viewers.
  const s = useCompare(
    useShallow((st) => ({
      layout: st.layout,
      pair: st.pair,
      mode: st.mode,
      fitToken: st.fitToken,
      showTruth: st.showTruth,
      showMissing: st.showMissing,
      showHausdorff: st.showHausdorff,
      hasTable: !!(st.rows || st.batch?.inverse),
    })),
  );
  useEffect(() => {
    const { pair, busy } = useCompare.getState();
    if (!pair && !busy) void datasetText(DEFAULT_DATASET).then((text) => loadDemo(text, DEFAULT_DATASET));
  }, []);
  useEffect(() => (s.layout === 'side-by-side' ? linkCameras([truthViewer, predViewer]) : undefined), [s.layout]);
  const pair = s.pair;
  const predPositions = pair ? (s.mode === 'aligned' ? pair.pred.aligned : pair.pred.positions) : null;
  const predDisplay = useMemo(
    () => (pair && predPositions ? finiteDisplay(pair.elements, pair.pred.element, predPositions) : null),
    [pair, predPositions],
  );
  const truthDisplay = useMemo(() => (pair ? finiteDisplay(pair.elements, pair.truth.element, pair.truth.positions) : null), [pair]);
  const d = pair ? displacements(pair, s.mode) : null;
  const top = useMemo(() => scaleTop(d, pair && s.mode === 'aligned' ? pair.extra : null), [d, pair, s.mode]);
  const predColors = useMemo(() => (pair ? displacementColors(d, pair.pred.natoms, top) : null), [pair, d, top]);

  const markers = (which: 'truth' | 'pred' | 'both') =>
    pair &&
    predPositions && (
      <>
        {s.showMissing && which !== 'pred' && pair.missing.length > 0 && (
          <MarkedAtoms
            positions={pair.truth.positions}
            elements={pair.elements}
            element={pair.truth.element}
            indices={pair.missing}
            color={MISSING_COLOR}
          />
        )}
        {s.showMissing && which !== 'truth' && pair.extra.length > 0 && (
          <MarkedAtoms
            positions={predPositions}
            elements={pair.elements}
            element={pair.pred.element}
            indices={pair.extra}
            color={EXTRA_COLOR}
          />
        )}
        {s.showHausdorff && s.mode === 'paired' && pair.hausdorffPair && (
          <Segment from={predPositions} a={pair.hausdorffPair.a} to={pair.truth.positions} b={pair.hausdorffPair.b} />
        )}
      </>
    );

  return (
    <div className="lab cmp-lab" data-testid="compare-page">
      <aside className="panel left">
        <Controls />
      </aside>
      <main className="cmp-main">
        {/* cmp-layout-*: a bare `overlay` class took the shortcuts dialog's fixed, centring, dimming `.overlay` rule (styles.css). */}
        <div className={`cmp-views cmp-layout-${s.layout}`}>
          {s.layout === 'overlay' ? (
            <ViewerPanel
              panelTestId="compare-overlay"
              controller={overlayViewer}
              testId="viewer-overlay"
              display={predDisplay}
              settings={VIEW_SETTINGS}
              fitKey={s.fitToken}
              atomColors={predColors}
              caption={<>prediction (coloured by displacement){s.showTruth ? ' over the truth (translucent)' : ''}</>}
              after={pair && <DisplacementBar mode={s.mode} top={top} pair={pair} />}
            >
              {pair && s.showTruth && <Ghost pair={pair} />}
              {markers('both')}
            </ViewerPanel>
          ) : (
            <>
              <ViewerPanel
                panelTestId="compare-truth"
                controller={truthViewer}
                testId="viewer-truth"
                display={truthDisplay}
                settings={VIEW_SETTINGS}
                fitKey={s.fitToken}
                caption={<>ground truth{pair ? `: ${pair.truth.name}` : ''}</>}
                after={pair && <ElementLegend elements={pair.elements} />}
              >
                {markers('truth')}
              </ViewerPanel>
              <ViewerPanel
                panelTestId="compare-pred"
                controller={predViewer}
                testId="viewer-pred"
                display={predDisplay}
                settings={VIEW_SETTINGS}
                fitKey={s.fitToken}
                atomColors={predColors}
                caption={<>prediction{pair ? `: ${pair.pred.name}` : ''}</>}
                after={pair && <DisplacementBar mode={s.mode} top={top} pair={pair} />}
              >
                {markers('pred')}
              </ViewerPanel>
            </>
          )}
          <WorkProgress />
        </div>
        {s.hasTable && <BatchTable />}
      </main>
    </div>
  );
}

/** The busy line and progress: the one part of the page that follows the batch ticks. */
function WorkProgress() {
  const { busy, progress } = useCompare(useShallow((st) => ({ busy: st.busy, progress: st.progress })));
  if (!busy && !progress) return null;
  return (
    <Progress testId="compare-progress" spinner={!!busy} onCancel={busy ? cancel : undefined} cancelTestId="compare-cancel">
      {busy}
      {progress ? ` ${progress}` : ''}
      {busy ? '…' : ''}
    </Progress>
  );
}

function Controls() {
  const s = useCompare(
    useShallow((st) => ({
      truthFile: st.truthFile,
      predFile: st.predFile,
      pair: st.pair,
      radius: st.radius,
      batch: st.batch,
      layout: st.layout,
      mode: st.mode,
      showTruth: st.showTruth,
      showHausdorff: st.showHausdorff,
      showMissing: st.showMissing,
      error: st.error,
    })),
  );
  const pickFile = (role: 'truth' | 'pred') => (files: File[]) => void setPairFile(role, files[0]);
  const pickFolder = (role: 'preds' | 'truths') => (picked: File[]) => {
    const files = picked.filter((f) => !f.name.startsWith('.'));
    if (files.length) void setBatchFolder(role, files);
  };
  return (
    <section>
      <h2>Prediction vs truth</h2>
      <label className="file-button cmp-file">
        Ground truth…
        <FilePick data-testid="cmp-truth-input" onFiles={pickFile('truth')} />
      </label>
      <span className="hint" data-testid="cmp-truth-name">
        {s.truthFile?.path ?? (s.pair?.truth.name || '')}
      </span>
      <label className="file-button cmp-file">
        Prediction…
        <FilePick data-testid="cmp-pred-input" onFiles={pickFile('pred')} />
      </label>
      <span className="hint" data-testid="cmp-pred-name">
        {s.predFile?.path ?? (s.pair?.pred.name || '')}
      </span>
      <label>
        R for volume ratio (Å)
        <input
          type="number"
          data-testid="cmp-radius"
          min={0}
          step={0.5}
          defaultValue={s.radius ?? ''}
          key={String(s.radius)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              const v = (e.target as HTMLInputElement).value;
              setRadius(v === '' ? null : Number(v));
            }
          }}
        />
      </label>
      <button
        type="button"
        data-testid="cmp-demo"
        onClick={() => void datasetText(DEFAULT_DATASET).then((t) => loadDemo(t, DEFAULT_DATASET))}
      >
        Demo pair
      </button>

      <h2>Batch</h2>
      <label className="file-button cmp-file">
        Predictions JSONL…
        <FilePick accept=".jsonl,.json,.txt" data-testid="cmp-jsonl-input" onFiles={(files) => void loadBatchJsonl(files[0])} />
      </label>
      <p className="hint">
        One JSON object per line: {'{"id", "pred", "truth", "radius"?}'} with XYZ text or {'{symbols, positions}'}; or inverse-task{' '}
        {'rows {"id", "pred_lattice", "pred_sg", "true_lattice", "true_sg"}'}.
      </p>
      <label className="file-button cmp-file">
        Predictions folder…
        <FilePick multiple folder data-testid="cmp-preds-folder" onFiles={pickFolder('preds')} />
      </label>
      <label className="file-button cmp-file">
        Truths folder…
        <FilePick multiple folder data-testid="cmp-truths-folder" onFiles={pickFolder('truths')} />
      </label>
      <p className="hint">Folder files pair by path below the folder, else by unique file name.</p>
      {s.batch && s.batch.unpaired.length > 0 && (
        <p className="hint" data-testid="cmp-unpaired">
          unpaired: {s.batch.unpaired.join(', ')}
        </p>
      )}

      <h2>View</h2>
      <div className="cmp-toggle" role="group" aria-label="layout">
        {(['overlay', 'side-by-side'] as CompareLayout[]).map((l) => (
          <button
            key={l}
            type="button"
            className={s.layout === l ? 'active' : ''}
            data-testid={`cmp-layout-${l}`}
            onClick={() => setLayout(l)}
          >
            {l}
          </button>
        ))}
      </div>
      <label>
        Displacement
        <select data-testid="cmp-mode" value={s.mode} onChange={(e) => setMode(e.target.value as DisplacementMode)}>
          <option value="paired" disabled={!!s.pair && !s.pair.pairedDisplacement}>
            index-paired
          </option>
          <option value="aligned">aligned</option>
        </select>
      </label>
      <label className="check">
        <input type="checkbox" checked={s.showTruth} onChange={(e) => useCompare.setState({ showTruth: e.target.checked })} /> truth
        (overlay)
      </label>
      <label className="check">
        <input
          type="checkbox"
          data-testid="cmp-show-hausdorff"
          checked={s.showHausdorff}
          onChange={(e) => useCompare.setState({ showHausdorff: e.target.checked })}
        />{' '}
        Hausdorff pair (index-paired frame)
      </label>
      <label className="check">
        <input type="checkbox" checked={s.showMissing} onChange={(e) => useCompare.setState({ showMissing: e.target.checked })} /> missing /
        extra atoms
      </label>

      {s.pair && <MetricsPanel pair={s.pair} />}
      {s.error && <ErrorAlert message={s.error} testId="cmp-error" onDismiss={() => useCompare.setState({ error: null })} />}
    </section>
  );
}

function MetricsPanel({ pair }: { pair: PairView }) {
  const m = pair.metrics;
  return (
    <>
      <h2>Metrics</h2>
      <dl data-testid="cmp-metrics">
        <dt>atoms</dt>
        <dd>
          {m.n_pred} predicted, {m.n_truth} true
        </dd>
        <dt>RMSD (C2NP)</dt>
        <dd data-testid="cmp-rmsd">{m.rmsd === null ? 'undefined (counts differ)' : `${fmt(m.rmsd)} Å`}</dd>
        <dt>Hausdorff</dt>
        <dd data-testid="cmp-hausdorff">{fmt(m.hausdorff)} Å</dd>
        <dt>hull volumes</dt>
        <dd>
          {fmt(m.hull_volume_pred, 6)} / {fmt(m.hull_volume_truth, 6)} Å³
        </dd>
        <dt>ΔHull</dt>
        <dd>{fmt(m.delta_hull_volume)} Å³</dd>
        <dt>RDF error</dt>
        <dd>{fmt(m.rdf_error)}</dd>
        <dt>volume ratio</dt>
        <dd>{m.volume_ratio === null ? '— (no R)' : fmt(m.volume_ratio)}</dd>
        <dt>aligned RMSD</dt>
        <dd data-testid="cmp-aligned-rmsd">{m.aligned ? `${fmt(m.aligned.rmsd)} Å` : '—'}</dd>
        <dt>max displacement</dt>
        <dd>{m.aligned ? `${fmt(m.aligned.max_displacement)} Å` : '—'}</dd>
        <dt>matched ≤ {pair.matchTolerance} Å</dt>
        <dd data-testid="cmp-matched">{m.aligned ? `${(100 * m.aligned.matched_fraction).toFixed(1)} %` : '—'}</dd>
        <dt>missing / extra</dt>
        <dd data-testid="cmp-missing-extra">
          {pair.missing.length} / {pair.extra.length}
        </dd>
      </dl>
      <p className="hint">
        Index-paired: row i against row i in the files' own frame, as the benchmark scores. Aligned: after the best per-species assignment
        and rigid motion (order- and motion-invariant).
      </p>
      {pair.warnings.length > 0 && (
        <ul className="warnings" data-testid="cmp-warnings">
          {pair.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </>
  );
}

function DisplacementBar({ mode, top, pair }: { mode: DisplacementMode; top: number; pair: PairView }) {
  return (
    <ColorBar
      caption={mode === 'paired' ? '|p_i − g_i| (index-paired), Å' : 'distance to the matched true atom after alignment, Å'}
      ramp={DISPLACEMENT_RAMP}
      min="0"
      max={top.toPrecision(2)}
      testId="cmp-colorbar"
      maxTestId="cmp-colorbar-top"
    >
      <span>
        <i className="swatch" style={{ background: toHex(UNPAIRED) }} /> no partner
      </span>
      {pair.missing.length > 0 && (
        <span>
          <i className="swatch ring" style={{ borderColor: toHex(MISSING_COLOR) }} /> missing
        </span>
      )}
      {pair.extra.length > 0 && (
        <span>
          <i className="swatch ring" style={{ borderColor: toHex(EXTRA_COLOR) }} /> extra
        </span>
      )}
      {mode === 'paired' && pair.hausdorffPair && (
        <span>
          <i className="line" /> Hausdorff pair {pair.hausdorffPair.distance.toFixed(2)} Å
        </span>
      )}
    </ColorBar>
  );
}

function ElementLegend({ elements }: { elements: string[] }) {
  return (
    <ul className="legend">
      {elements.map((el) => (
        <li key={el}>
          <span style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
            <span className="swatch" style={{ background: toHex(elementColor(el, VIEW_SETTINGS.colorScheme)) }} />
            {el}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The truth as translucent element-coloured spheres under the prediction. */
function Ghost({ pair }: { pair: PairView }) {
  const mesh = useDisposable(() => {
    const display = finiteDisplay(pair.elements, pair.truth.element, pair.truth.positions);
    const radii = atomRadii(display, VIEW_SETTINGS);
    const palette = pair.elements.map((el) => elementColor(el, VIEW_SETTINGS.colorScheme));
    const colors = new Float32Array(3 * display.natoms);
    for (let i = 0; i < display.natoms; i++) colors.set(palette[display.element[i]], 3 * i);
    const m = makeSphereMesh({ centers: pair.truth.positions, radii: radii.map((r) => r * 1.15), colors, count: display.natoms }, 0.25);
    m.renderOrder = 3;
    return m;
  }, [pair]);
  return <primitive object={mesh} />;
}

/** Halos around marked atoms (missing, extra), a little larger than the atoms drawn there. */
function MarkedAtoms({
  positions,
  elements,
  element,
  indices,
  color,
}: {
  positions: Float32Array;
  elements: string[];
  element: Uint16Array;
  indices: Uint32Array;
  color: Rgb;
}) {
  const { centers, radii } = useMemo(() => {
    const atomRadius = atomRadii(finiteDisplay(elements, element, positions), VIEW_SETTINGS);
    return {
      centers: Array.from(indices, (i) => positions.subarray(3 * i, 3 * i + 3)),
      radii: Array.from(indices, (i) => 1.4 * atomRadius[i] + 0.25),
    };
  }, [positions, elements, element, indices]);
  return <Halos centers={centers} radius={radii} color={color} />;
}

function Segment({ from, a, to, b }: { from: Float32Array; a: number; to: Float32Array; b: number }) {
  const line = useDisposable(() => {
    const p = new THREE.Vector3(from[3 * a], from[3 * a + 1], from[3 * a + 2]);
    const q = new THREE.Vector3(to[3 * b], to[3 * b + 1], to[3 * b + 2]);
    const l = new THREE.Line(
      new THREE.BufferGeometry().setFromPoints([p, q]),
      new THREE.LineDashedMaterial({ color: 0x111111, dashSize: 0.25, gapSize: 0.12, depthTest: false }),
    );
    l.computeLineDistances();
    l.renderOrder = 8;
    return l;
  }, [from, a, to, b]);
  return <primitive object={line} />;
}

const FORWARD_COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'index', label: '#' },
  { key: 'id', label: 'id' },
  { key: 'n_pred', label: 'N pred' },
  { key: 'n_truth', label: 'N true' },
  { key: 'rmsd', label: 'RMSD' },
  { key: 'hausdorff', label: 'Hausdorff' },
  { key: 'delta_hull_volume', label: 'ΔHull' },
  { key: 'rdf_error', label: 'RDF err' },
  { key: 'volume_ratio', label: 'V ratio' },
  { key: 'aligned_rmsd', label: 'aligned RMSD' },
  { key: 'max_displacement', label: 'max disp' },
  { key: 'matched_fraction', label: 'matched' },
];

/** Sorted copy: numbers and strings ascending (or descending), undefined values always last. */
export function sortRows(rows: ForwardRow[], key: SortKey, descending: boolean): ForwardRow[] {
  return [...rows].sort((x, y) => {
    const a = x[key],
      b = y[key];
    if (a === null || a === undefined) return b === null || b === undefined ? x.index - y.index : 1;
    if (b === null || b === undefined) return -1;
    const c = typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
    return (descending ? -c : c) || x.index - y.index;
  });
}

function BatchTable() {
  const s = useCompare(useShallow((st) => ({ batch: st.batch, rows: st.rows, sort: st.sort, selectedRow: st.selectedRow })));
  const rows = useMemo(() => (s.rows ? sortRows(s.rows, s.sort.key, s.sort.descending) : null), [s.rows, s.sort]);
  if (s.batch?.kind === 'inverse' && s.batch.inverse) return <InverseTable />;
  if (!s.rows || !rows) return null;
  const keys = FORWARD_COLUMNS.map((c) => c.key);
  const exportCsv = () =>
    downloadText(
      'c2np-metrics.csv',
      formatCsv(
        [...keys, 'error'],
        s.rows!.map((r) => [...keys.map((k) => r[k]), r.error]),
      ),
      'text/csv',
    );
  const exportJson = () => downloadText('c2np-metrics.json', JSON.stringify(s.rows, null, 1), 'application/json');
  return (
    <div className="cmp-table" data-testid="cmp-batch">
      <div className="cmp-table-bar">
        <strong>{s.rows.length} pairs</strong>
        <button type="button" data-testid="cmp-export-csv" onClick={exportCsv}>
          Export CSV
        </button>
        <button type="button" data-testid="cmp-export-json" onClick={exportJson}>
          Export JSON
        </button>
        <span className="hint">click a header to sort, a row to view it</span>
      </div>
      <table>
        <thead>
          <tr>
            <SortableHeader columns={FORWARD_COLUMNS} sort={s.sort} onSort={setSort} testIdPrefix="cmp-sort" />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.index}
              className={s.selectedRow === r.index ? 'active' : ''}
              onClick={() => void selectRow(r.index)}
              data-testid="cmp-row"
            >
              {FORWARD_COLUMNS.map((c) => {
                const v = r[c.key];
                return (
                  <td key={c.key}>
                    {c.key === 'index'
                      ? r.index + 1
                      : typeof v === 'number' && c.key !== 'n_pred' && c.key !== 'n_truth'
                        ? fmt(v)
                        : (v ?? (r.error && c.key === 'rmsd' ? r.error : '—'))}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InverseTable() {
  const inv = useCompare((st) => st.batch?.inverse);
  if (!inv) return null;
  const header = [
    'id',
    'a',
    'b',
    'c',
    'alpha',
    'beta',
    'gamma',
    'sg',
    'true_a',
    'true_b',
    'true_c',
    'true_alpha',
    'true_beta',
    'true_gamma',
    'true_sg',
    'max_error',
    'sg_correct',
    'joint_correct',
  ];
  const values = inv.rows.map((r) => [
    r.id,
    ...r.pred,
    r.predSpacegroup,
    ...r.truth,
    r.trueSpacegroup,
    r.maxError,
    r.spacegroupCorrect,
    r.jointCorrect,
  ]);
  return (
    <div className="cmp-table" data-testid="cmp-inverse">
      <div className="cmp-table-bar">
        <strong data-testid="cmp-inverse-summary">
          {inv.rows.length} cells · lattice RMSE {fmt(inv.summary.lattice_rmse)} · space-group accuracy {fmt(inv.summary.sg_accuracy, 3)} ·
          joint accuracy {fmt(inv.summary.joint_accuracy, 3)}
        </strong>
        <button type="button" onClick={() => downloadText('c2np-inverse.csv', formatCsv(header, values), 'text/csv')}>
          Export CSV
        </button>
        <button
          type="button"
          onClick={() =>
            downloadText('c2np-inverse.json', JSON.stringify({ summary: inv.summary, rows: inv.rows }, null, 1), 'application/json')
          }
        >
          Export JSON
        </button>
      </div>
      <table>
        <thead>
          <tr>
            <th>id</th>
            <th>predicted a b c α β γ</th>
            <th>SG</th>
            <th>true a b c α β γ</th>
            <th>SG</th>
            <th>max |err|</th>
            <th>joint (≤ 0.5)</th>
          </tr>
        </thead>
        <tbody>
          {inv.rows.map((r) => (
            <tr key={r.id} className={r.jointCorrect ? '' : 'bad'}>
              <td>{r.id}</td>
              <td>{r.pred.map((v) => v.toFixed(3)).join(' ')}</td>
              <td>
                {r.predSpacegroup}
                {r.spacegroupCorrect ? '' : ' ✗'}
              </td>
              <td>{r.truth.map((v) => v.toFixed(3)).join(' ')}</td>
              <td>{r.trueSpacegroup}</td>
              <td>{fmt(r.maxError, 3)}</td>
              <td>{r.jointCorrect ? '✓' : '✗'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
