/** The structure lab page: load panel, 3D view with toolbar, structure / atom / measurement panels. */
import { Fragment, useCallback, useEffect, useMemo, useState, type DragEvent } from 'react';
import { ErrorBoundary } from '../../ui/ErrorBoundary.tsx';
import {
  cancelWork,
  clearMeasurements,
  clearSelection,
  dismissRetry,
  loadPasted,
  loadText,
  retryLastLoad,
  toggleElement,
  openSessionFile,
  pickAtom,
  resetSession,
  selectStructure,
  setMeasureMode,
  setSetting,
  useSession,
} from '../../state/session.ts';
import { SETTINGS_SCHEMA, labelMode, type ViewSettings } from '../../viewer/view-settings.ts';
import { LABELS_ALL_MAX, LABELS_NEAR_PICK, siteLabelTexts } from '../../viewer/label-layout.ts';
import { elementColor, elementName, toHex } from '../../viewer/colors.ts';
import { downloadPng, mainViewer, resetView, viewAlong } from '../../viewer/controller.ts';
import { angle, dihedral, distance } from '../../core/math/measure.ts';
import { StructureViewer } from '../../viewer/StructureViewer.tsx';
import { fixed, fmt, fracText } from '../../ui/format.ts';
import { DATASETS, datasetText, loadDefaultDataset } from '../../state/datasets.ts';
import { latticeOf } from '../../core/structure/packed.ts';
import { ErrorAlert } from '../../ui/ErrorAlert.tsx';
import { ExportPanel } from './ExportPanel.tsx';
import { useCrystallography } from '../../state/crystallography.ts';
import { CrystallographyOverlay } from './CrystallographyOverlay.tsx';
import { DiffractionPanel } from './DiffractionPanel.tsx';
import { PlanesPanel } from './PlanesPanel.tsx';
import { CELL_LABELS, SymmetryPanel } from './SymmetryPanel.tsx';
import { CoordinationRamp, EnvironmentPanel, useCoordinationColors } from './EnvironmentPanel.tsx';
import { AtomHoverTip, PropertyArrows, PropertyColoring, usePropertyColors, usePropertyRadiusFactors } from './PropertyColoring.tsx';
import { setAtomHover } from '../../state/atom-coloring.ts';
import { TrajectoryPlayer } from './TrajectoryPlayer.tsx';
import { openDropped, openPicked, setAsFrames, useTrajectory } from '../../state/trajectory.ts';
import { typingInto } from '../../ui/ShortcutsOverlay.tsx';
import { PanelResizer } from '../../ui/PanelResizer.tsx';
import { Progress } from '../../ui/Progress.tsx';
import { FilePick } from '../../ui/FilePick.tsx';
import { RecordButton, type RecordSources } from '../../ui/RecordDialog.tsx';
import { trajectoryFrames } from '../../state/trajectory-movie.ts';
import { groupedNumber } from '../../core/limits.ts';

export function StructurePage() {
  const display = useSession((s) => s.display);
  const settings = useSession((s) => s.settings);
  const selection = useSession((s) => s.selection);
  const hiddenElements = useSession((s) => s.hiddenElements);
  const fitToken = useSession((s) => s.fitToken);
  const formula = useSession((s) => s.summary?.formula);
  // The Symmetry panel's cell choice: its scene replaces the structure's (picking is off there; sites differ).
  const cellDisplay = useCrystallography((s) => s.cellDisplay);
  const cn = useCoordinationColors(cellDisplay ? null : display);
  const propertyColors = usePropertyColors(cellDisplay ? null : display);
  const propertyRadii = usePropertyRadiusFactors(cellDisplay ? null : display);
  const labelStructure = useSession((s) => (s.synthetic ? null : (s.structures[s.activeStructure] ?? null)));
  const wyckoffs = useSession((s) => s.summary?.spacegroup?.wyckoffs ?? null);
  // Site labels, Wyckoff letters and property values are per site of the structure (the Symmetry panel's cell has others).
  const siteLabels = useMemo(
    () => (cellDisplay ? null : siteLabelTexts(labelMode(settings.labels), labelStructure, wyckoffs)),
    [cellDisplay, settings.labels, labelStructure, wyckoffs],
  );
  const [dragging, setDragging] = useState(false);
  const onPick = useCallback((i: number | null) => {
    if (i !== null) pickAtom(i);
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Letters typed into text fields are not shortcuts; checkboxes and buttons keep them working.
      if (typingInto(e.target)) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'r') resetView();
      else if (e.key === 'a') viewAlong(1, 0, 0);
      else if (e.key === 'b') viewAlong(0, 1, 0);
      else if (e.key === 'c') viewAlong(0, 0, 1);
      else if (e.key === 'o') setSetting('orthographic', !useSession.getState().settings.orthographic);
      else if (e.key === 'Escape') clearSelection();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer.files.length) void openDropped(e.dataTransfer);
  };

  return (
    <div
      className={`lab${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <aside className="panel left">
        <h1>StructLab</h1>
        <LoadPanel />
        <SettingsPanel settings={settings} />
      </aside>
      <main className="view">
        <ErrorBoundary label="3D view">
          <StructureViewer
            display={cellDisplay ?? display}
            settings={settings}
            selection={selection}
            fitKey={fitToken}
            onPick={cellDisplay ? undefined : onPick}
            atomColors={propertyColors ?? cn?.colors ?? null}
            radiusFactors={propertyRadii}
            onHover={cellDisplay ? undefined : setAtomHover}
            hiddenElements={hiddenElements}
            siteLabels={siteLabels}
            label={display ? `3D view of the structure ${formula ?? ''}`.trim() : '3D structure view (empty)'}
            describedBy="view-summary"
          >
            <CrystallographyOverlay display={cellDisplay ?? display} />
            {!cellDisplay && <PropertyArrows display={display} />}
          </StructureViewer>
        </ErrorBoundary>
        <AtomHoverTip />
        <ViewSummary />
        <Toolbar settings={settings} />
        <WorkProgress />
        <Legend coordination={propertyColors ? null : cn} />
        <div className="shortcuts">
          drag: rotate · right-drag: pan · wheel: zoom · touch: drag, pinch, tap, double-tap · r reset · a/b/c view along axes · o ortho ·
          Esc clear · ? all shortcuts
        </div>
        {dragging && <div className="drop-hint">Drop structure files to load them</div>}
      </main>
      <aside className="panel right">
        <RetryOffer />
        <ErrorMessage />
        <StructureInfo />
        <TrajectoryPlayer />
        <PropertyColoring />
        <AtomInfo />
        <Measurement />
        <MeasurementList />
        <ExportPanel />
        <SymmetryPanel />
        <DiffractionPanel />
        <PlanesPanel />
        <EnvironmentPanel />
      </aside>
      <PanelResizer id="structure" defaultWidth={300} />
    </div>
  );
}

function LoadPanel() {
  const files = useSession((s) => s.files);
  const activeFile = useSession((s) => s.activeFile);
  const structures = useSession((s) => s.structures);
  const activeStructure = useSession((s) => s.activeStructure);
  const synthetic = useSession((s) => s.synthetic);
  const [paste, setPaste] = useState('');
  const asFrames = useTrajectory((s) => s.asFrames);
  return (
    <section>
      <h2>Load</h2>
      <label className="file-button">
        Open files…
        <FilePick
          data-testid="file-input"
          multiple
          accept=".cif,.mcif,.vasp,.poscar,.xyz,.extxyz,.json,.pt,.zip,.tar,.tgz,.gz,POSCAR,CONTCAR,*"
          onFiles={(files) => void openPicked(files)}
        />
      </label>
      <p className="hint">…or drop files anywhere on the page.</p>
      <label className="check">
        <input type="checkbox" data-testid="open-as-frames" checked={asFrames} onChange={(e) => setAsFrames(e.target.checked)} /> open
        several files (a folder) as the frames of one trajectory, in natural order of their names; an archive&apos;s files are separate
        trajectories (MatterGen&apos;s generated_trajectories.zip): its first opens
      </label>
      <label>
        Example
        <select
          data-testid="dataset"
          value=""
          onChange={(e) => {
            const f = e.target.value;
            if (f) void datasetText(f).then((t) => loadText(f, t));
          }}
        >
          <option value="">choose an embedded structure…</option>
          {DATASETS.map((d) => (
            <option key={d.file} value={d.file}>
              {d.title}
            </option>
          ))}
        </select>
      </label>
      <textarea
        data-testid="paste"
        rows={4}
        placeholder="Paste CIF, POSCAR, XYZ or pymatgen JSON text"
        value={paste}
        onChange={(e) => setPaste(e.target.value)}
      />
      <button type="button" disabled={!paste.trim()} onClick={() => void loadPasted(paste)}>
        Load pasted text
      </button>
      {files.length > 0 && (
        <>
          <h3>Session files</h3>
          <ul className="list">
            {files.map((f, i) => (
              <li key={f.name}>
                <button type="button" className={i === activeFile && !synthetic ? 'active' : ''} onClick={() => void openSessionFile(i)}>
                  {f.name}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {structures.length > 1 && (
        <>
          <h3>Structures in this file</h3>
          <ul className="list" data-testid="structure-list">
            {structures.map((p, k) => (
              <li key={k}>
                <button type="button" className={k === activeStructure ? 'active' : ''} onClick={() => void selectStructure(k)}>
                  {k + 1}. {p.name || '(unnamed)'} — {p.natoms} atoms
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <button type="button" data-testid="reset-session" onClick={() => void resetSession(loadDefaultDataset)}>
        Reset session
      </button>
    </section>
  );
}

function SettingsPanel({ settings }: { settings: ViewSettings }) {
  return (
    <section>
      <h2>Display</h2>
      {SETTINGS_SCHEMA.map((spec) => {
        const value = settings[spec.key];
        const id = `setting-${spec.key}`;
        if (spec.key === 'labels') return <LabelSetting key={spec.key} value={value as string} description={spec.description} />;
        if (spec.kind === 'boolean') {
          return (
            <label key={spec.key} className="check" title={spec.description}>
              <input
                id={id}
                data-testid={id}
                type="checkbox"
                checked={value as boolean}
                onChange={(e) => setSetting(spec.key, e.target.checked as never)}
              />
              {spec.label}
            </label>
          );
        }
        if (spec.kind === 'choice') {
          return (
            <label key={spec.key} title={spec.description}>
              {spec.label}
              <select id={id} data-testid={id} value={value as string} onChange={(e) => setSetting(spec.key, e.target.value as never)}>
                {spec.choices.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            </label>
          );
        }
        if (spec.kind === 'text') {
          // Committed on Enter or when the field loses focus, not on every keystroke.
          return (
            <label key={`${spec.key}:${value as string}`} title={spec.description}>
              {spec.label}
              <input
                id={id}
                data-testid={id}
                type="text"
                defaultValue={value as string}
                placeholder={spec.placeholder}
                maxLength={spec.maxLength}
                onBlur={(e) => {
                  if (e.target.value !== value) setSetting(spec.key, e.target.value as never);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') (e.target as HTMLInputElement).blur();
                }}
              />
            </label>
          );
        }
        return (
          <label key={spec.key} title={spec.description}>
            {spec.label}
            <input
              id={id}
              data-testid={id}
              type="number"
              min={spec.min}
              max={spec.max}
              step={spec.step}
              value={value as number}
              onChange={(e) => {
                const v = Number(e.target.value);
                if (Number.isFinite(v)) setSetting(spec.key, v as never);
              }}
            />
          </label>
        );
      })}
    </section>
  );
}

/** The labels choice: the fixed kinds and one entry per property column of the shown structure. */
function LabelSetting({ value, description }: { value: string; description: string }) {
  const columns = useSession((s) => (s.synthetic ? null : s.structures[s.activeStructure])?.properties);
  const natoms = useSession((s) => s.display?.natoms ?? 0);
  const hasSpacegroup = useSession((s) => !!s.summary?.spacegroup);
  const options: [string, string][] = [
    ['none', 'none'],
    ['index', 'index'],
    ['element', 'element'],
    ['site', 'site label'],
    ['wyckoff', 'Wyckoff letter'],
    ...(columns ?? []).map((c): [string, string] => [`prop:${c.name}`, c.name]),
  ];
  // A remembered property the shown structure lacks stays listed, so the select shows what is set.
  if (!options.some(([v]) => v === value)) options.push([value, `${value.slice(5)} (not in this structure)`]);
  const mode = labelMode(value);
  return (
    <>
      <label title={description}>
        Labels
        <select id="setting-labels" data-testid="setting-labels" value={value} onChange={(e) => setSetting('labels', e.target.value)}>
          {options.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      </label>
      {mode.kind !== 'none' && natoms > LABELS_ALL_MAX && (
        <p className="hint" data-testid="labels-note">
          {groupedNumber(natoms)} atoms drawn: labels only on the picked atoms and the {LABELS_NEAR_PICK} nearest the last pick.
        </p>
      )}
      {mode.kind === 'wyckoff' && !hasSpacegroup && <p className="hint">No space group found: no Wyckoff letters to show.</p>}
    </>
  );
}

function Toolbar({ settings }: { settings: ViewSettings }) {
  const measureMode = useSession((s) => s.measureMode);
  const [uvw, setUvw] = useState('1 1 1');
  const [exporting, setExporting] = useState(false);
  const applyUvw = () => {
    const v = uvw
      .trim()
      .replace(/[[\]]/g, '')
      .split(/[\s,]+/)
      .map(Number);
    if (v.length === 3 && v.every(Number.isFinite)) viewAlong(v[0], v[1], v[2]);
  };
  return (
    <div className="toolbar">
      <button type="button" title="Reset view (r)" onClick={resetView}>
        Reset
      </button>
      <button type="button" title="View along a (a)" onClick={() => viewAlong(1, 0, 0)}>
        a
      </button>
      <button type="button" title="View along b (b)" onClick={() => viewAlong(0, 1, 0)}>
        b
      </button>
      <button type="button" title="View along c (c)" onClick={() => viewAlong(0, 0, 1)}>
        c
      </button>
      <input
        aria-label="view direction [uvw]"
        className="uvw"
        value={uvw}
        onChange={(e) => setUvw(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') applyUvw();
        }}
      />
      <button type="button" title="View along [uvw]" onClick={applyUvw}>
        [uvw]
      </button>
      <button
        type="button"
        title="Toggle orthographic (o)"
        className={settings.orthographic ? 'active' : ''}
        onClick={() => setSetting('orthographic', !settings.orthographic)}
      >
        {settings.orthographic ? 'Ortho' : 'Persp'}
      </button>
      <button
        type="button"
        data-testid="measure"
        className={measureMode ? 'active' : ''}
        title="Pick 2 atoms for a distance, 3 for an angle, 4 for a dihedral"
        onClick={() => setMeasureMode(!measureMode)}
      >
        Measure
      </button>
      <button
        type="button"
        data-testid="export-png"
        disabled={exporting}
        title="PNG at 2× resolution, transparent background"
        onClick={() => {
          setExporting(true);
          downloadPng()
            .catch((e) => useSession.setState({ error: `PNG export failed: ${e instanceof Error ? e.message : e}` }))
            .finally(() => setExporting(false));
        }}
      >
        PNG
      </button>
      <RecordButton controller={mainViewer} sources={RECORD_SOURCES} />
    </div>
  );
}

/** What the Structure page's movies step through besides a rotation: the open trajectory. */
const RECORD_SOURCES: RecordSources = { trajectory: trajectoryFrames };

/** What the 3D view shows, as text for screen readers (the canvas's description; visually hidden). */
function ViewSummary() {
  const display = useSession((s) => s.display);
  const summary = useSession((s) => s.summary);
  const selection = useSession((s) => s.selection);
  const settings = useSession((s) => s.settings);
  let text = 'Nothing is loaded.';
  if (display && summary) {
    const group = summary.spacegroup ? `space group ${summary.spacegroup.symbol} (${summary.spacegroup.number})` : 'no space group';
    const cell = display.cell ? `, ${display.supercell.join('×')} cell${display.supercell.some((v) => v > 1) ? 's' : ''}` : ', finite';
    const picked = selection
      .filter((i) => i < display.natoms)
      .map((i) => `${display.elements[display.element[i]]} site ${display.site[i] + 1}`);
    text =
      `${summary.formula}, ${group}${cell}: ${groupedNumber(display.natoms)} atoms of ${display.elements.join(', ')} drawn` +
      `${settings.showBonds ? ` with ${groupedNumber(display.nbonds)} bonds` : ''}, ` +
      `${settings.orthographic ? 'orthographic' : 'perspective'} view.` +
      (picked.length ? ` Selected: ${picked.join(', ')}.` : '');
  }
  return (
    <p id="view-summary" className="sr-only" data-testid="view-summary" aria-live="polite">
      {text}
    </p>
  );
}

function WorkProgress() {
  const busy = useSession((s) => s.busy);
  if (!busy) return null;
  return (
    <Progress testId="progress" onCancel={cancelWork} cancelTestId="cancel">
      {busy}…
    </Progress>
  );
}

/**
 * The view's key: element colours (each a show/hide toggle), or the coordination ramp, named by the method that counted
 * (CrystalNN or a cutoff), while the atoms wear it.
 */
function Legend({ coordination }: { coordination: { coordination: readonly number[]; label: string } | null }) {
  const display = useSession((s) => s.display);
  const scheme = useSession((s) => s.settings.colorScheme);
  const hidden = useSession((s) => s.hiddenElements);
  if (!display) return null;
  return (
    <ul className="legend" data-testid="legend" data-coloring={coordination ? 'coordination' : 'element'}>
      {coordination && (
        <li>
          <CoordinationRamp coordination={coordination.coordination} label={coordination.label} testId="legend-coordination" />
        </li>
      )}
      {display.elements.map((el) => (
        <li key={el}>
          <button
            type="button"
            className={hidden.includes(el) ? 'hidden' : ''}
            title={`${elementName(el)}: click to ${hidden.includes(el) ? 'show' : 'hide'}`}
            onClick={() => toggleElement(el)}
          >
            {!coordination && <span className="swatch" style={{ background: toHex(elementColor(el, scheme)) }} />}
            {el}
          </button>
        </li>
      ))}
    </ul>
  );
}

function ErrorMessage() {
  const error = useSession((s) => s.error);
  if (!error) return null;
  return <ErrorAlert message={error} testId="error" onDismiss={() => useSession.setState({ error: null })} />;
}

/** A file whose last load failed or never finished is not parsed on start; it is offered here instead. */
function RetryOffer() {
  const retry = useSession((s) => s.retry);
  if (!retry) return null;
  return (
    <div className="retry-offer" data-testid="retry-offer" role="status">
      {retry.reason === 'unfinished'
        ? `Last time, ${retry.name} did not finish loading (the tab froze or closed), so it was not opened again.`
        : `Last time, ${retry.name} failed${retry.error ? `: ${retry.error}` : '.'}`}
      <button type="button" className="retry" data-testid="retry-load" onClick={() => void retryLastLoad()}>
        Retry
      </button>
      <button type="button" className="dismiss" aria-label="dismiss" onClick={dismissRetry}>
        ×
      </button>
    </div>
  );
}

function StructureInfo() {
  const summary = useSession((s) => s.summary);
  const structures = useSession((s) => s.structures);
  const k = useSession((s) => s.activeStructure);
  const warnings = useSession((s) => s.warnings);
  const display = useSession((s) => s.display);
  const notes = [...(summary?.note ? [summary.note] : []), ...(display?.notes ?? [])];
  const files = useSession((s) => s.files);
  const activeFile = useSession((s) => s.activeFile);
  const synthetic = useSession((s) => s.synthetic);
  // The Symmetry panel's cell, once the viewer shows it: atoms, lattice and formula are that cell's.
  const cell = useCrystallography((s) => (s.cellDisplay && s.symmetry && s.cell !== 'read' ? s.cell : null));
  const symmetry = useCrystallography((s) => s.symmetry);
  const read = structures[k];
  const p = cell && symmetry ? symmetry.cells[cell] : read;
  if (!read || !p || !summary)
    return (
      <section>
        <h2>Structure</h2>
        <p className="hint">Nothing loaded yet.</p>
      </section>
    );
  const lattice = latticeOf(p);
  const params = lattice && { ...lattice.parameters, volume: lattice.volume };
  return (
    <section>
      <h2>Structure</h2>
      <p className="source">
        {synthetic ? 'synthetic' : files[activeFile]?.name} {read.name ? `· ${read.name}` : ''}
      </p>
      <dl>
        {cell && symmetry && (
          <>
            <dt>Cell shown</dt>
            <dd data-testid="cell-shown">{CELL_LABELS[cell]}</dd>
          </>
        )}
        <dt>Formula</dt>
        <dd data-testid="formula">{cell && symmetry ? symmetry.formulas[cell] : summary.formula}</dd>
        <dt>Reduced</dt>
        <dd>{summary.reducedFormula}</dd>
        <dt>Atoms</dt>
        <dd data-testid="natoms">{p.natoms}</dd>
        <dt>Space group</dt>
        <dd data-testid="spacegroup">
          {summary.spacegroup
            ? `${summary.spacegroup.symbol} (${summary.spacegroup.number})`
            : !read.lattice
              ? 'none (finite)'
              : summary.note
                ? 'not searched (see notes)'
                : 'not found'}
        </dd>
        {params && (
          <>
            <dt>a, b, c (Å)</dt>
            <dd data-testid="lattice">
              {fixed(params.a)}, {fixed(params.b)}, {fixed(params.c)}
            </dd>
            <dt>α, β, γ (°)</dt>
            <dd>
              {fixed(params.alpha, 3)}, {fixed(params.beta, 3)}, {fixed(params.gamma, 3)}
            </dd>
            <dt>Volume (Å³)</dt>
            <dd>{fixed(params.volume, 3)}</dd>
          </>
        )}
      </dl>
      {[...warnings, ...notes].length > 0 && (
        <details className="warnings">
          <summary>{warnings.length + notes.length} note(s)</summary>
          <ul>
            {[...warnings, ...notes].map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function AtomInfo() {
  const selection = useSession((s) => s.selection);
  const display = useSession((s) => s.display);
  const structures = useSession((s) => s.structures);
  const k = useSession((s) => s.activeStructure);
  const summary = useSession((s) => s.summary);
  const p = structures[k];
  const i = selection[selection.length - 1];
  if (i === undefined || !display || !p || i >= display.natoms) return null;
  const site = display.site[i];
  const el = display.elements[display.element[i]];
  const cart = [display.positions[3 * i], display.positions[3 * i + 1], display.positions[3 * i + 2]];
  // The site's own coordinates, wrapped into [0, 1) as the Symmetry panel's table shows them; a drawn copy (boundary
  // image, supercell) is the same site, said beside its number.
  const frac = p.frac ? [0, 1, 2].map((ax) => p.frac![3 * site + ax]) : null;
  const copy = [0, 1, 2].map((ax) => display.cellOffset[3 * i + ax]);
  const species = [];
  for (let s = p.speciesStart[site]; s < p.speciesStart[site + 1]; s++)
    species.push(`${p.elements[p.speciesElement[s]]}:${fixed(p.speciesOcc[s], 3)}`);
  // Multiplicity and letter ("2b"), as the Symmetry panel's Wyckoff table writes it.
  const sg = summary?.spacegroup;
  const wyckoff = sg?.wyckoffs[site] ? `${sg.multiplicities[site] ?? ''}${sg.wyckoffs[site]}` : null;
  return (
    // data-atom: the drawn atom (a boundary image or supercell copy is its own), which the tests pick by.
    <section className="atom-info" data-testid="atom-info" data-atom={i}>
      <h2>Atom</h2>
      <dl>
        <dt>Element</dt>
        <dd>
          {el} ({elementName(el)})
        </dd>
        {/* One numbering: sites from 1 in file order, as the structure list, the Wyckoff table and site labels count. */}
        <dt>Site</dt>
        <dd data-testid="atom-site">
          {site + 1}
          {p.labels?.[site] ? ` (${p.labels[site]})` : ''}
          {i >= display.natoms - display.nimages
            ? ' · boundary image'
            : copy.some((c) => c !== 0)
              ? ` · copy in cell ${copy.join(', ')}`
              : ''}
        </dd>
        {species.length > 1 && (
          <>
            <dt>Occupancy</dt>
            <dd>{species.join(', ')}</dd>
          </>
        )}
        {frac && (
          <>
            <dt>Fractional</dt>
            <dd data-testid="atom-frac">{frac.map((v) => fracText(v, 5)).join(', ')}</dd>
          </>
        )}
        <dt>Cartesian (Å)</dt>
        <dd>{cart.map((v) => fixed(v, 4)).join(', ')}</dd>
        <dt>Wyckoff</dt>
        <dd data-testid="atom-wyckoff">{wyckoff ?? '—'}</dd>
        {(p.properties ?? []).map((c) => (
          <Fragment key={c.name}>
            <dt>{c.name}</dt>
            <dd data-testid={`atom-property-${c.name}`}>
              {Array.from(c.values.subarray(c.width * site, c.width * (site + 1)), (v) => fmt(v)).join(', ')}
            </dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

function Measurement() {
  const measureMode = useSession((s) => s.measureMode);
  const selection = useSession((s) => s.selection);
  const display = useSession((s) => s.display);
  if (!measureMode || !display) return null;
  const p = display.positions;
  const label = (i: number) => `${display.elements[display.element[i]]}#${i}`;
  return (
    <section data-testid="measurement">
      <h2>Measure</h2>
      {selection.length < 2 && <p className="hint">Pick two atoms for a distance, three for an angle, four for a dihedral.</p>}
      {selection.length >= 2 && (
        <p>
          d({label(selection[0])}, {label(selection[1])}) = <b>{fixed(distance(p, selection[0], selection[1]))} Å</b>
        </p>
      )}
      {selection.length >= 3 && (
        <>
          <p>
            d({label(selection[1])}, {label(selection[2])}) = <b>{fixed(distance(p, selection[1], selection[2]))} Å</b>
          </p>
          <p>
            ∠({label(selection[0])}, {label(selection[1])}, {label(selection[2])}) ={' '}
            <b>{fixed(angle(p, selection[0], selection[1], selection[2]), 2)}°</b>
          </p>
        </>
      )}
      {selection.length === 4 && (
        <p data-testid="dihedral">
          φ({selection.map(label).join(', ')}) = <b>{fixed(dihedral(p, selection[0], selection[1], selection[2], selection[3]), 2)}°</b>
        </p>
      )}
    </section>
  );
}

const SYMBOL = { distance: 'd', angle: '∠', dihedral: 'φ' } as const;

/** Every measurement taken, as a list that copies as tab-separated text and clears. */
function MeasurementList() {
  const rows = useSession((s) => s.measurements);
  const [copied, setCopied] = useState(false);
  if (rows.length === 0) return null;
  const text = rows.map((r) => `${r.kind}\t${r.atoms.join(' ')}\t${r.value.toFixed(4)}\t${r.unit}`).join('\n');
  return (
    <section data-testid="measurement-list">
      <h2>Measurements</h2>
      <ol className="measurements">
        {rows.map((r, k) => (
          <li key={k} data-kind={r.kind} data-value={r.value}>
            {SYMBOL[r.kind]}({r.atoms.join(', ')}) = {fixed(r.value, r.unit === 'Å' ? 4 : 2)} {r.unit}
          </li>
        ))}
      </ol>
      <button
        type="button"
        data-testid="measurements-copy"
        onClick={() =>
          void navigator.clipboard
            ?.writeText(text)
            .then(() => setCopied(true))
            .catch(() => useSession.setState({ error: 'The browser did not allow copying to the clipboard.' }))
        }
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
      <button
        type="button"
        data-testid="measurements-clear"
        onClick={() => {
          setCopied(false);
          clearMeasurements();
        }}
      >
        Clear
      </button>
    </section>
  );
}
