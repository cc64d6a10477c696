/**
 * Generations: the metrics of generated crystals as the community computes them (CSP match rate and RMSE as
 * DiffCSP / CDVAE, de novo validity, uniqueness, novelty, S.U.N. as CDVAE / DiffCSP / MatterGen; the
 * conventions in src/core/tasks/generations/README.md), every sample in a sortable table filtered by why it
 * failed, and one sample's detail. The metrics run in workers/generations.worker.ts.
 */
import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { downloadText } from '../../browser/download.ts';
import {
  cancel,
  failureReasons,
  type FailureReason,
  type GenRow,
  loadDemo,
  loadDroppedSet,
  loadEnergiesFile,
  loadHullFile,
  loadSetFiles,
  PAGE_ROWS,
  reasonCounts,
  rowsCsv,
  runJson,
  selectSample,
  setCspOptions,
  setDenovoOptions,
  setFilter,
  setMode,
  setPage,
  setSort,
  setView,
  tableOrder,
  thumbnailDisplay,
  useGenerations,
} from '../../state/generations.ts';
import type {
  CspResult,
  DenovoResult,
  DenovoRunOptions,
  DenovoSample,
  GenRun,
  HullInputKind,
  SetRole,
} from '../../../workers/generations-api.ts';
import { COVERAGE_CUTOFFS } from '../../core/tasks/generations/coverage.ts';
import type { CoverageDataset } from '../../core/tasks/generations/denovo.ts';
import {
  CSP_PRESET_NAMES,
  type CspMatcherTolerances,
  type CspPreset,
  type CspTolerances,
  cspTolerancesProblem,
  namedTolerances,
} from '../../core/tasks/generations/tolerances.ts';
import type { SpaceGroupDistribution } from '../../core/tasks/generations/space-groups.ts';
import { fmt } from '../../ui/format.ts';
import { Gallery } from './Gallery.tsx';
import { FingerprintMap } from './FingerprintMap.tsx';
import type { GallerySample } from './detail-model.ts';
import { SampleDetail } from './SampleDetail.tsx';
import './generations.css';
import { ErrorAlert } from '../../ui/ErrorAlert.tsx';
import { Progress } from '../../ui/Progress.tsx';
import { SortableHeader } from '../../ui/SortableHeader.tsx';
import { FilePick } from '../../ui/FilePick.tsx';

export function GenerationsPage() {
  const hasRun = useGenerations((st) => st.run !== null);
  return (
    <div className="lab gen-lab" data-testid="generations-page">
      <aside className="panel left">
        <Controls />
      </aside>
      <main className="gen-main">
        <Summary />
        <WorkProgress />
        {hasRun ? (
          <div className="gen-body">
            <Samples />
            <Detail />
          </div>
        ) : (
          <div className="gen-empty" data-testid="gen-empty">
            Load predictions (and truths, for CSP) on the left: a folder or several CIF / POSCAR / JSON files, one extended XYZ, one JSONL
            of pymatgen dicts, an MP-20 or Chemeleon .csv, a CDVAE/DiffCSP .pt, or an archive of them.
          </div>
        )}
      </main>
    </div>
  );
}

function WorkProgress() {
  const { busy, progress } = useGenerations(useShallow((st) => ({ busy: st.busy, progress: st.progress })));
  if (!busy) return null;
  return (
    <Progress testId="gen-progress" className="gen-progress" bar={progress} onCancel={cancel} cancelTestId="gen-cancel">
      {busy}…
    </Progress>
  );
}

const ROLES: Record<'csp' | 'denovo', { role: SetRole; label: string; hint: string }[]> = {
  csp: [
    { role: 'pred', label: 'Predictions', hint: 'id = path in the folder, no ending (K > 1: TRUTHID__k)' },
    { role: 'truth', label: 'Truths', hint: 'same ids as the predictions' },
  ],
  denovo: [
    { role: 'pred', label: 'Generated crystals', hint: 'judged in input order (paths sorted)' },
    { role: 'reference', label: 'Reference set (novelty)', hint: 'optional: the training set' },
    { role: 'test', label: 'Test set (Wasserstein, coverage)', hint: 'optional: density and element-count distances, coverage' },
  ],
};

/** webkitdirectory is not in React's input attributes: set on the element. */
const folderPicker = (el: HTMLInputElement | null) => el?.setAttribute('webkitdirectory', '');

function SetInput({ role, label, hint }: { role: SetRole; label: string; hint: string }) {
  const loaded = useGenerations((st) => st.sets[role]);
  // CSP's truths may come with the predictions (a .pt's input_data_batch, Chemeleon's ref_structure column).
  const carried = useGenerations((st) => (role === 'truth' && st.sets.pred?.ownTruths ? st.sets.pred : null));
  const [over, setOver] = useState(false);
  const load = (files: File[]) => void loadSetFiles(role, files);
  return (
    <div
      className={`gen-set${over ? ' over' : ''}`}
      data-testid={`gen-set-${role}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        void loadDroppedSet(role, e.dataTransfer);
      }}
    >
      <div className="gen-set-title">{label}</div>
      <div className="gen-set-buttons">
        <label className="file-button">
          Files…
          <FilePick multiple data-testid={`gen-files-${role}`} onFiles={load} />
        </label>
        <label className="file-button">
          Folder…
          <FilePick ref={folderPicker} data-testid={`gen-folder-${role}`} onFiles={load} />
        </label>
        {loaded && (
          <button type="button" className="link" aria-label={`drop the ${label}`} onClick={() => load([])}>
            ×
          </button>
        )}
      </div>
      <span className="hint" data-testid={`gen-set-${role}-info`}>
        {loaded
          ? `${loaded.source}: ${loaded.count} structures`
          : carried
            ? `${carried.ownTruths} truths in ${carried.source} (or pick a truth set)`
            : `${hint}; files, a folder, .zip, .tar.gz, .gz, a .csv (MP-20, Chemeleon results.csv) ` +
              'or a CDVAE/DiffCSP .pt; or drop them here'}
      </span>
    </div>
  );
}

function Controls() {
  const s = useGenerations(
    useShallow((st) => ({
      mode: st.mode,
      csp: st.csp,
      denovo: st.denovo,
      energies: st.energies,
      run: st.run,
      error: st.error,
      hasTest: !!st.sets.test,
    })),
  );
  return (
    <section>
      <div className="gen-toggle" role="group" aria-label="mode">
        <button type="button" className={s.mode === 'csp' ? 'active' : ''} data-testid="gen-mode-csp" onClick={() => setMode('csp')}>
          CSP
        </button>
        <button
          type="button"
          className={s.mode === 'denovo' ? 'active' : ''}
          data-testid="gen-mode-denovo"
          onClick={() => setMode('denovo')}
        >
          De novo
        </button>
      </div>
      <button
        type="button"
        data-testid="gen-demo"
        title="16 MP-20 crystals as truths; predictions made from them by known failure modes"
        onClick={() => void loadDemo()}
      >
        Demo
      </button>
      <h2>Sets</h2>
      {ROLES[s.mode].map((r) => (
        <SetInput key={r.role} {...r} />
      ))}
      {s.mode === 'denovo' && (
        <div className="gen-set">
          <div className="gen-set-title">Energies above hull (S.U.N.)</div>
          <label className="file-button">
            JSON…
            <FilePick accept=".json" data-testid="gen-energies" onFiles={(f) => void loadEnergiesFile(f[0])} />
          </label>
          {s.energies && (
            <button type="button" className="link" aria-label="drop the energies" onClick={() => void loadEnergiesFile(null)}>
              ×
            </button>
          )}
          <span className="hint">{s.energies ? `${s.energies.name}: ${s.energies.count} entries` : '{"id": eV/atom or null}'}</span>
        </div>
      )}
      {s.mode === 'denovo' && <HullInputs />}
      <p className="hint">
        Formats: CIF, POSCAR (.vasp, .poscar) and pymatgen JSON files (one structure each, id = the path in the picked folder without its
        ending), one extended XYZ (id = the frame's id=, else its index) or one JSONL of {'{"id", "structure"}'}.
      </p>
      <h2>Convention</h2>
      {s.mode === 'csp' ? (
        <>
          <Choice
            testId="gen-convention"
            label="convention"
            value={s.csp.convention}
            options={['diffcsp', 'cdvae']}
            onChange={(v) => setCspOptions({ convention: v })}
          />
          <Choice
            testId="gen-smact"
            label="SMACT table"
            value={s.csp.smact}
            options={['legacy', 'icsd24']}
            onChange={(v) => setCspOptions({ smact: v })}
          />
          <label>
            samples per truth (K){' '}
            <input
              type="number"
              min={1}
              step={1}
              className="gen-number"
              data-testid="gen-n-samples"
              defaultValue={s.csp.nSamples}
              key={s.csp.nSamples}
              onBlur={(e) => {
                const k = Number(e.target.value);
                if (Number.isInteger(k) && k >= 1 && k !== s.csp.nSamples) setCspOptions({ nSamples: k });
              }}
            />
          </label>
          <p className="hint">
            diffcsp: with one sample a pair counts only when prediction and truth are valid, and SMACT refuses more than 10⁷ oxidation-state
            combinations; cdvae: only the prediction's validity counts.
          </p>
          <ToleranceControls t={s.csp.tolerances} />
          <SpaceGroupsCheck checked={s.csp.spaceGroups} onChange={(v) => setCspOptions({ spaceGroups: v })} />
        </>
      ) : (
        <>
          <Choice
            testId="gen-convention"
            label="convention"
            value={s.denovo.convention}
            options={['diffcsp', 'cdvae', 'mattergen']}
            onChange={(v) => setDenovoOptions({ convention: v })}
          />
          <Choice
            testId="gen-smact"
            label="SMACT table"
            value={s.denovo.smact}
            options={['legacy', 'icsd24']}
            onChange={(v) => setDenovoOptions({ smact: v })}
          />
          <Choice
            testId="gen-matcher"
            label="matcher"
            value={s.denovo.matcher}
            options={['disordered', 'ordered']}
            onChange={(v) => setDenovoOptions({ matcher: v })}
          />
          <label>
            stability threshold (eV/atom){' '}
            <input
              type="number"
              step={0.01}
              className="gen-number"
              data-testid="gen-threshold"
              defaultValue={s.denovo.stabilityThreshold}
              key={s.denovo.stabilityThreshold}
              onBlur={(e) => {
                const t = Number(e.target.value);
                if (Number.isFinite(t) && t !== s.denovo.stabilityThreshold) setDenovoOptions({ stabilityThreshold: t });
              }}
            />
          </label>
          <SpaceGroupsCheck checked={s.denovo.spaceGroups} onChange={(v) => setDenovoOptions({ spaceGroups: v })} />
          <CoverageControls coverage={s.denovo.coverage} hasTest={s.hasTest} />
        </>
      )}
      {s.run && (
        <>
          <h2>Export</h2>
          <div className="gen-buttons">
            <button
              type="button"
              data-testid="gen-export-json"
              onClick={() => downloadText(`gen-${s.run!.mode}.json`, runJson(s.run!), 'application/json')}
            >
              JSON
            </button>
            <button
              type="button"
              data-testid="gen-export-csv"
              onClick={() => downloadText(`gen-${s.run!.mode}-samples.csv`, rowsCsv(s.run!.result.per_sample), 'text/csv')}
            >
              Samples CSV
            </button>
          </div>
          <p className="hint">
            JSON: the document `structlab gen {s.run.mode === 'csp' ? 'csp' : 'eval'}` prints; CSV: its per_sample rows.
          </p>
        </>
      )}
      {s.run && s.run.matcherErrors.length > 0 && (
        <p className="hint" data-testid="gen-matcher-errors">
          The matcher failed on {s.run.matcherErrors.length} comparison(s), counted as no match; first: {s.run.matcherErrors[0]}
        </p>
      )}
      {s.error && <ErrorAlert message={s.error} testId="gen-error" onDismiss={() => useGenerations.setState({ error: null })} />}
    </section>
  );
}

const HULL_PICKS: { kind: HullInputKind; label: string; accept: string; hint: string; unit: string }[] = [
  {
    kind: 'energies',
    label: 'Energies…',
    accept: '.extxyz,.xyz,.json,.csv',
    hint: 'total eV per id: .extxyz energy=, .json, .csv id,energy',
    unit: 'energies',
  },
  {
    kind: 'reference',
    label: 'Hull reference…',
    accept: '.jsonl,.json,.csv',
    hint: 'entries: .jsonl/.json {composition, energy, correction}, .csv formula,energy',
    unit: 'entries',
  },
];

/** Energies above hull computed here (`gen eval --energies E --hull-reference R`): total energies and the reference entries. */
function HullInputs() {
  const inputs = useGenerations((st) => st.hullInputs);
  return (
    <div className="gen-set" data-testid="gen-hull-inputs">
      <div className="gen-set-title">Energies above hull from total energies</div>
      {HULL_PICKS.map((h) => (
        <div key={h.kind} className="gen-set-buttons">
          <label className="file-button">
            {h.label}
            <FilePick accept={h.accept} data-testid={`gen-hull-${h.kind}`} onFiles={(f) => void loadHullFile(h.kind, f[0])} />
          </label>
          {inputs[h.kind] && (
            <button type="button" className="link" aria-label={`drop the ${h.kind}`} onClick={() => void loadHullFile(h.kind, null)}>
              ×
            </button>
          )}
          <span className="hint" data-testid={`gen-hull-${h.kind}-info`}>
            {inputs[h.kind] ? `${inputs[h.kind]!.name}: ${inputs[h.kind]!.count} ${h.unit}` : h.hint}
          </span>
        </div>
      ))}
      {!inputs.energies !== !inputs.reference && (
        <span className="hint" data-testid="gen-hull-needs">
          Energies above hull need both files: the total energies and the hull reference.
        </span>
      )}
    </div>
  );
}

const TOLERANCE_FIELDS: { key: keyof CspMatcherTolerances; label: string; step: number }[] = [
  { key: 'stol', label: 'stol', step: 0.05 },
  { key: 'ltol', label: 'ltol', step: 0.05 },
  { key: 'angle_tol', label: 'angle_tol (°)', step: 1 },
];

/**
 * A number option's input (≥ 0), committed when it loses focus: an empty box is NaN; an unchanged value is not
 * committed; a value `onCommit` refuses (false) is put back.
 */
function NumberField(props: {
  label: string;
  step: number;
  testId: string;
  value: number;
  disabled?: boolean;
  onCommit: (x: number) => boolean;
}) {
  const { label, step, testId, value, disabled, onCommit } = props;
  return (
    <label>
      {label}{' '}
      <input
        type="number"
        min={0}
        step={step}
        className="gen-number"
        data-testid={testId}
        disabled={disabled}
        defaultValue={value}
        key={value}
        onBlur={(e) => {
          const x = e.target.value.trim() === '' ? NaN : Number(e.target.value);
          if (x !== value && !onCommit(x)) e.target.value = String(value);
        }}
      />
    </label>
  );
}

/** The matcher's tolerances as `gen csp --tolerances/--stol/--ltol/--angle-tol` takes them: a preset, or values over it. */
function ToleranceControls({ t }: { t: CspTolerances }) {
  const presets: (CspPreset | 'custom')[] = t.preset === 'custom' ? [...CSP_PRESET_NAMES, 'custom'] : CSP_PRESET_NAMES;
  const set = (key: keyof CspMatcherTolerances, value: number) => {
    const next = { stol: t.stol, ltol: t.ltol, angle_tol: t.angle_tol, [key]: value };
    const problem = cspTolerancesProblem(next);
    if (problem) {
      useGenerations.setState({ error: `The matcher's ${problem}.` });
      return false;
    }
    setCspOptions({ tolerances: namedTolerances(t.preset === 'custom' ? 'cdvae' : t.preset, next) });
    return true;
  };
  return (
    <div className="gen-tolerances" data-testid="gen-tolerance-controls">
      <Choice
        testId="gen-tolerances"
        label="matcher tolerances"
        value={t.preset}
        options={presets}
        onChange={(v) => v !== 'custom' && setCspOptions({ tolerances: namedTolerances(v) })}
      />
      <div className="gen-tolerance-fields">
        {TOLERANCE_FIELDS.map((f) => (
          <NumberField
            key={f.key}
            label={f.label}
            step={f.step}
            testId={`gen-${f.key.replace('_', '-')}`}
            value={t[f.key]}
            onCommit={(x) => set(f.key, x)}
          />
        ))}
      </div>
      <p className="hint">cdvae: stol 0.5, ltol 0.3, angle_tol 10 (CDVAE, DiffCSP); strict: 0.3, 0.2, 5 (as CrystaLLM reports).</p>
    </div>
  );
}

const COVERAGE_DATASETS = Object.keys(COVERAGE_CUTOFFS) as CoverageDataset[];
const COVERAGE_FIELDS: { key: 'struc' | 'comp'; label: string; step: number }[] = [
  { key: 'struc', label: 'structure ≤', step: 0.05 },
  { key: 'comp', label: 'composition ≤', step: 1 },
];

/**
 * CDVAE's coverage against the test set, as `gen eval --coverage D` / `--cov-cutoffs S,C` take it: a data set's cutoffs,
 * or cutoffs edited by hand (then no data set, as --cov-cutoffs alone).
 */
function CoverageControls({ coverage, hasTest }: { coverage: DenovoRunOptions['coverage']; hasTest: boolean }) {
  const value = coverage ? (coverage.dataset ?? 'custom') : 'off';
  const options: (CoverageDataset | 'off' | 'custom')[] = ['off', ...COVERAGE_DATASETS, ...(value === 'custom' ? ['custom' as const] : [])];
  const setCutoff = (key: 'struc' | 'comp', x: number) => {
    if (!coverage) return true;
    if (!(Number.isFinite(x) && x >= 0)) {
      useGenerations.setState({ error: `The coverage cutoffs are distances ≥ 0, got ${x}.` });
      return false;
    }
    setDenovoOptions({ coverage: { ...coverage, dataset: null, [key]: x } });
    return true;
  };
  return (
    <div className="gen-coverage" data-testid="gen-coverage-controls">
      <Choice
        testId="gen-coverage-dataset"
        label="coverage (CDVAE)"
        value={value}
        options={options}
        disabled={!hasTest}
        onChange={(v) => {
          if (v === 'off') setDenovoOptions({ coverage: null });
          else if (v !== 'custom') setDenovoOptions({ coverage: { dataset: v, ...COVERAGE_CUTOFFS[v] } });
        }}
      />
      {coverage && (
        <div className="gen-coverage-fields">
          {COVERAGE_FIELDS.map((f) => (
            <NumberField
              key={f.key}
              label={f.label}
              step={f.step}
              testId={`gen-cov-${f.key}`}
              disabled={!hasTest}
              value={coverage[f.key]}
              onCommit={(x) => setCutoff(f.key, x)}
            />
          ))}
        </div>
      )}
      <p className="hint" data-testid="gen-coverage-hint">
        {hasTest
          ? 'COV-R/P and AMSD/AMCD against the test set: CrystalNN structure and Magpie composition fingerprints ' +
            '(mp20 0.4, 10; carbon and perovskite 0.2, 4), and a map of them beside the table.'
          : 'Coverage compares the predictions with a test set: load one above.'}
      </p>
    </div>
  );
}

function SpaceGroupsCheck({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label title="spglib's space group at symprec 0.1 Å per structure (a few ms each)">
      <input type="checkbox" data-testid="gen-space-groups" checked={checked} onChange={(e) => onChange(e.target.checked)} /> space groups
      (symprec 0.1)
    </label>
  );
}

/** "stol 0.5 · ltol 0.3 · angle_tol 10 (cdvae)": the tolerances beside every number they made. */
const toleranceNote = (t: CspTolerances): string => `stol ${t.stol} · ltol ${t.ltol} · angle_tol ${t.angle_tol} (${t.preset})`;

function Choice<T extends string>({
  testId,
  label,
  value,
  options,
  onChange,
  disabled = false,
}: {
  testId: string;
  label: string;
  value: T;
  options: readonly T[];
  onChange: (v: T) => void;
  disabled?: boolean;
}) {
  return (
    <label className="gen-choice">
      {label}{' '}
      <select data-testid={testId} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as T)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
}

const percent = (x: number | null): string => (x === null ? '—' : `${(100 * x).toFixed(2)} %`);

function Metric({ label, value, testId, note }: { label: string; value: string; testId: string; note: string }) {
  return (
    <div className="gen-metric">
      <div className="gen-metric-label">{label}</div>
      <div className="gen-metric-value" data-testid={testId}>
        {value}
      </div>
      <div className="gen-metric-note">{note}</div>
    </div>
  );
}

function Summary() {
  const run = useGenerations((st) => st.run);
  if (!run) return null;
  const r = run.result;
  return (
    <div
      className="gen-summary"
      data-testid="gen-summary"
      data-convention={r.convention}
      data-smact={r.smact}
      data-mode={run.mode}
      data-tolerances={'tolerances' in r ? toleranceNote(r.tolerances) : undefined}
      data-space-groups={'space_groups' in r}
    >
      {run.mode === 'csp' ? <CspSummary r={run.result as CspResult} /> : <DenovoSummary r={run.result as DenovoResult} />}
    </div>
  );
}

function CspSummary({ r }: { r: CspResult }) {
  const by = `${r.convention} · SMACT ${r.smact}`;
  const k = r.n_samples > 1 ? ` · best of ${r.n_samples}` : '';
  const tol = toleranceNote(r.tolerances);
  const sg = r.space_groups;
  return (
    <>
      <Metric label="match rate" value={percent(r.match_rate)} testId="gen-match-rate" note={`${by}${k} · ${tol}`} />
      {sg && (
        <Metric
          label="match rate, same space group"
          value={percent(sg.match_rate_same)}
          testId="gen-match-rate-same"
          note={`${sg.n_same} of ${sg.n_pairs} pairs share a space group · ${sg.n_matched_different} matches across groups · ${tol}`}
        />
      )}
      <Metric label="RMSE" value={fmt(r.rmse)} testId="gen-rmse" note={`${by}${k} · rms / (V/n)^⅓ · ${tol}`} />
      <Metric label="valid predictions" value={percent(r.valid_fraction)} testId="gen-valid" note={by} />
      <Metric label="valid truths" value={percent(r.truth_valid_fraction)} testId="gen-truth-valid" note={by} />
      <Metric label="truths · predictions" value={`${r.n} · ${r.n_predictions}`} testId="gen-counts" note={tol} />
    </>
  );
}

function DenovoSummary({ r }: { r: DenovoResult }) {
  const by = `${r.convention} · SMACT ${r.smact}`;
  const m = `${r.matcher} matcher`;
  return (
    <>
      <Metric label="validity" value={percent(r.validity.overall)} testId="gen-validity" note={by} />
      <Metric
        label="structural · compositional"
        value={`${percent(r.validity.structural)} · ${percent(r.validity.compositional)}`}
        testId="gen-validity-parts"
        note={by}
      />
      <Metric label="uniqueness" value={percent(r.uniqueness)} testId="gen-uniqueness" note={m} />
      <Metric label="novelty" value={percent(r.novelty)} testId="gen-novelty" note={r.n_reference === null ? 'no reference set' : m} />
      <Metric label="unique ∧ novel" value={percent(r.unique_novel)} testId="gen-unique-novel" note={m} />
      <Metric label="stable" value={percent(r.stable)} testId="gen-stable" note={`E_hull ≤ ${r.stability_threshold} eV/atom`} />
      <Metric label="S.U.N." value={percent(r.sun)} testId="gen-sun" note={`${m} · E_hull ≤ ${r.stability_threshold}`} />
      <Metric
        label="W₁ density · #elements"
        value={`${fmt(r.wasserstein.density)} · ${fmt(r.wasserstein.n_elements)}`}
        testId="gen-wasserstein"
        note={r.n_truth === null ? 'no test set' : `valid predictions vs ${r.n_truth} test structures`}
      />
      {r.coverage && <CoverageMetrics r={r} coverage={r.coverage} />}
      {r.space_groups && (
        <>
          <Metric
            label="in P1"
            value={percent(r.space_groups.predictions.p1_fraction)}
            testId="gen-p1"
            note={`symprec ${r.space_groups.symprec} · ${r.space_groups.predictions.n_unknown} without a group`}
          />
          <SpaceGroupTable predictions={r.space_groups.predictions} reference={r.space_groups.reference} />
        </>
      )}
    </>
  );
}

/** CDVAE's coverage and diversity (`gen eval --coverage`), with the cutoffs and how many crystals had fingerprints. */
function CoverageMetrics({ r, coverage: c }: { r: DenovoResult; coverage: NonNullable<DenovoResult['coverage']> }) {
  const cutoffs = `struc ≤ ${c.struc_cutoff} · comp ≤ ${c.comp_cutoff} (${c.dataset ? `${c.dataset} cutoffs` : 'cutoffs given'})`;
  const counted = `${c.n_predictions} of ${r.n} predictions fingerprinted vs ${c.n_truth} test structures`;
  return (
    <>
      <Metric
        label="COV-R · COV-P"
        value={`${percent(c.cov_recall)} · ${percent(c.cov_precision)}`}
        testId="gen-coverage"
        note={`${cutoffs} · ${counted}`}
      />
      <Metric
        label="AMSD R · P"
        value={`${fmt(c.amsd_recall)} · ${fmt(c.amsd_precision)}`}
        testId="gen-amsd"
        note="mean nearest structure-fingerprint distance (CrystalNN)"
      />
      <Metric
        label="AMCD R · P"
        value={`${fmt(c.amcd_recall)} · ${fmt(c.amcd_precision)}`}
        testId="gen-amcd"
        note="mean nearest composition-fingerprint distance (scaled Magpie)"
      />
      <Metric
        label="diversity comp · struct"
        value={`${fmt(r.comp_div)} · ${fmt(r.struct_div)}`}
        testId="gen-diversity"
        note="mean pairwise fingerprint distance of the valid predictions"
      />
    </>
  );
}

const SYSTEMS = ['triclinic', 'monoclinic', 'orthorhombic', 'tetragonal', 'trigonal', 'hexagonal', 'cubic'] as const;
const topGroups = (d: SpaceGroupDistribution): string =>
  [...d.space_groups]
    .sort((a, b) => b.count - a.count || a.number - b.number)
    .slice(0, 6)
    .map((g) => `${g.symbol} ${g.count}`)
    .join(' · ');

/** The crystal-system distribution of the predictions (and the reference), and their most frequent space groups. */
function SpaceGroupTable({ predictions, reference }: { predictions: SpaceGroupDistribution; reference: SpaceGroupDistribution | null }) {
  return (
    <div className="gen-metric gen-sg" data-testid="gen-sg-distribution">
      <div className="gen-metric-label">crystal systems</div>
      <table>
        <thead>
          <tr>
            <th />
            <th>generated</th>
            {reference && <th>reference</th>}
          </tr>
        </thead>
        <tbody>
          {SYSTEMS.map((c) => (
            <tr key={c} data-system={c}>
              <td>{c}</td>
              <td>{predictions.crystal_systems[c]}</td>
              {reference && <td>{reference.crystal_systems[c]}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="gen-metric-note" data-testid="gen-sg-top">
        most frequent: {topGroups(predictions)}
        {reference && ` (reference: ${topGroups(reference)})`}
      </div>
    </div>
  );
}

interface Column {
  key: string;
  label: string;
  cell: (r: GenRow) => string;
}

const v = (r: GenRow, k: string): unknown => (r as unknown as Record<string, unknown>)[k];
const num =
  (k: string): Column['cell'] =>
  (r) =>
    fmt(v(r, k) as number | null);
const flag =
  (k: string): Column['cell'] =>
  (r) =>
    v(r, k) === null ? '—' : v(r, k) ? '✓' : '✗';
const text =
  (k: string): Column['cell'] =>
  (r) =>
    String(v(r, k) ?? '');
/** Ids longer than the column: a folder set's path ids keep their first folder and their name, which tell them apart
 * ("mattergen/…/HfZnN2", "random_structure_search/…/HfZnN2"); the row's title has the whole id. */
const shortId =
  (k: string): Column['cell'] =>
  (r) => {
    const id = String(v(r, k) ?? '');
    const parts = id.split('/');
    return id.length > 30 && parts.length > 2 ? `${parts[0]}/…/${parts[parts.length - 1]}` : id;
  };

const spaceGroup =
  (k: string): Column['cell'] =>
  (r) => {
    const g = v(r, k) as { number: number; symbol: string } | null | undefined;
    return g ? `${g.symbol} (${g.number})` : '—';
  };

const CSP_COLUMNS: Column[] = [
  { key: 'index', label: '#', cell: () => '' },
  { key: 'id', label: 'truth id', cell: shortId('id') },
  { key: 'sample', label: 'k', cell: text('sample') },
  { key: 'nsites', label: 'sites', cell: text('nsites') },
  { key: 'min_distance', label: 'd_min Å', cell: num('min_distance') },
  { key: 'valid', label: 'valid', cell: flag('valid') },
  { key: 'reason', label: 'reason', cell: text('reason') },
  { key: 'rms', label: 'rms', cell: num('rms') },
  { key: 'max_dist', label: 'max_dist', cell: num('max_dist') },
];
const CSP_SG_COLUMNS: Column[] = [
  ...CSP_COLUMNS,
  { key: 'truth_space_group', label: 'truth SG', cell: spaceGroup('truth_space_group') },
  { key: 'pred_space_group', label: 'pred SG', cell: spaceGroup('pred_space_group') },
  { key: 'same_space_group', label: 'same SG', cell: flag('same_space_group') },
];

const DENOVO_COLUMNS: Column[] = [
  { key: 'index', label: '#', cell: () => '' },
  { key: 'id', label: 'id', cell: shortId('id') },
  { key: 'formula', label: 'formula', cell: text('formula') },
  { key: 'nsites', label: 'sites', cell: text('nsites') },
  { key: 'min_distance', label: 'd_min Å', cell: num('min_distance') },
  { key: 'valid', label: 'valid', cell: flag('valid') },
  { key: 'reasons', label: 'reasons', cell: (r) => failureReasons(r).join(', ') },
  { key: 'duplicate_of', label: 'duplicate of', cell: text('duplicate_of') },
  { key: 'reference_match', label: 'reference match', cell: text('reference_match') },
  { key: 'e_above_hull', label: 'E_hull', cell: num('e_above_hull') },
  { key: 'sun', label: 'S.U.N.', cell: flag('sun') },
];
const DENOVO_SG_COLUMNS: Column[] = [...DENOVO_COLUMNS, { key: 'space_group', label: 'space group', cell: spaceGroup('space_group') }];
/** With coverage: each prediction's distances to the nearest test structure. */
const DENOVO_COVERAGE_COLUMNS: Column[] = [
  { key: 'struc_precision_dist', label: 'd_struc→test', cell: num('struc_precision_dist') },
  { key: 'comp_precision_dist', label: 'd_comp→test', cell: num('comp_precision_dist') },
];

/** The table's columns for a run: the mode's, then the space groups' and the coverage distances' when the run has them. */
function columnsOf(run: GenRun | null): Column[] {
  const withGroups = !!run && 'space_groups' in run.result;
  if (run?.mode !== 'denovo') return withGroups ? CSP_SG_COLUMNS : CSP_COLUMNS;
  const base = withGroups ? DENOVO_SG_COLUMNS : DENOVO_COLUMNS;
  return run.result.coverage ? [...base, ...DENOVO_COVERAGE_COLUMNS] : base;
}

function SampleTable() {
  const s = useGenerations(
    useShallow((st) => ({ run: st.run, sort: st.sort, filter: st.filter, page: st.page, selected: st.selected, mode: st.mode })),
  );
  const rows: GenRow[] = useMemo(() => s.run?.result.per_sample ?? [], [s.run]);
  const counts = useMemo(() => reasonCounts(rows), [rows]);
  const order = useMemo(() => tableOrder(rows, s.sort, s.filter), [rows, s.sort, s.filter]);
  const columns = useMemo(() => columnsOf(s.run), [s.run]);
  const pages = Math.max(1, Math.ceil(order.length / PAGE_ROWS));
  const page = Math.min(s.page, pages - 1);
  const shown = order.slice(page * PAGE_ROWS, (page + 1) * PAGE_ROWS);
  return (
    <>
      <div className="gen-filters" role="group" aria-label="filter by failure reason" data-testid="gen-filters">
        <button type="button" className={s.filter === null ? 'active' : ''} data-testid="gen-filter-all" onClick={() => setFilter(null)}>
          all {rows.length}
        </button>
        {counts.map(([reason, n]) => (
          <button
            type="button"
            key={reason}
            className={s.filter === reason ? 'active' : ''}
            data-testid={`gen-filter-${reason}`}
            onClick={() => setFilter(s.filter === reason ? null : (reason as FailureReason))}
          >
            {reason.replaceAll('_', ' ')} {n}
          </button>
        ))}
      </div>
      <div className="gen-table" data-testid="gen-table" data-rows={order.length}>
        <table>
          <thead>
            <tr>
              <SortableHeader columns={columns} sort={s.sort} onSort={setSort} testIdPrefix="gen-sort" />
            </tr>
          </thead>
          <tbody>
            {shown.map((i) => {
              const r = rows[i];
              const failed = failureReasons(r).length > 0;
              return (
                <tr
                  key={i}
                  className={`${s.selected === i ? 'active' : ''}${failed ? ' failed' : ''}`}
                  onClick={() => void selectSample(i)}
                  data-testid="gen-row"
                  data-index={i}
                  data-id={r.id}
                  title={r.id}
                >
                  {columns.map((c) => (
                    <td key={c.key} data-col={c.key}>
                      {c.key === 'index' ? i + 1 : c.cell(r)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <div className="gen-pager" data-testid="gen-pager">
          <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
            ‹
          </button>
          <span>
            rows {page * PAGE_ROWS + 1}–{Math.min(order.length, (page + 1) * PAGE_ROWS)} of {order.length}
          </span>
          <button type="button" disabled={page >= pages - 1} onClick={() => setPage(page + 1)} data-testid="gen-next-page">
            ›
          </button>
        </div>
      )}
    </>
  );
}

/** The selected sample: both structures, the overlay, the too-close pairs and why it does not match (SampleDetail.tsx). */
function Detail() {
  const view = useGenerations((st) => st.view);
  if (!view) return <div className="gen-detail gen-empty">Choose a sample in the table.</div>;
  return <SampleDetail view={view} />;
}

/** The samples as a paged table, as thumbnails grouped by failure reason, or on the fingerprint map (with coverage). */
function Samples() {
  const chosen = useGenerations((st) => st.tableView);
  const hasMap = useGenerations((st) => st.run?.mode === 'denovo' && !!st.run.map);
  const tableView = chosen === 'map' && !hasMap ? 'table' : chosen;
  return (
    <div className="gen-table-pane">
      <div className="gen-toggle" role="group" aria-label="samples as">
        <button
          type="button"
          className={tableView === 'table' ? 'active' : ''}
          data-testid="gen-view-table"
          onClick={() => setView('table')}
        >
          Table
        </button>
        <button
          type="button"
          className={tableView === 'gallery' ? 'active' : ''}
          data-testid="gen-view-gallery"
          onClick={() => setView('gallery')}
        >
          Gallery
        </button>
        {hasMap && (
          <button
            type="button"
            className={tableView === 'map' ? 'active' : ''}
            data-testid="gen-view-map"
            title="the coverage fingerprints of the test set and the predictions on their principal plane"
            onClick={() => setView('map')}
          >
            Map
          </button>
        )}
      </div>
      {tableView === 'table' ? <SampleTable /> : tableView === 'gallery' ? <SampleGallery /> : <SampleMap />}
    </div>
  );
}

const loadThumbnail = (index: number) => thumbnailDisplay(index);
const openSample = (index: number) => void selectSample(index);

function SampleGallery() {
  const s = useGenerations(useShallow((st) => ({ run: st.run, selected: st.selected, source: st.sets.pred?.source ?? '' })));
  const samples: GallerySample[] = useMemo(
    () =>
      (s.run?.result.per_sample ?? []).map((r: GenRow, index) => {
        const sample = 'sample' in r ? r.sample : 0;
        return {
          index,
          key: `${s.source}:${r.id}:${sample}`,
          id: sample ? `${r.id}__${sample}` : r.id,
          reason: failureReasons(r)[0] ?? null,
        };
      }),
    [s.run, s.source],
  );
  return <Gallery samples={samples} load={loadThumbnail} selected={s.selected} onSelect={openSample} />;
}

function SampleMap() {
  const s = useGenerations(useShallow((st) => ({ run: st.run, selected: st.selected })));
  const rows = s.run?.result.per_sample as DenovoSample[] | undefined;
  const coverage = s.run?.mode === 'denovo' ? s.run.result.coverage : undefined;
  const cutoffs = useMemo(() => (coverage ? { struc: coverage.struc_cutoff, comp: coverage.comp_cutoff } : null), [coverage]);
  if (s.run?.mode !== 'denovo' || !s.run.map || !rows || !cutoffs) return null;
  return <FingerprintMap map={s.run.map} rows={rows} cutoffs={cutoffs} selected={s.selected} onSelect={openSample} />;
}
