/**
 * The O-NNG lab page: a problem browser (original and obfuscated statements side by side at any λ, hover a
 * renamed name to see the original, the prompt as a model receives it when the user's O-NNG folder is open)
 * and the results analytics (accuracy/time vs λ with SE bars, ANOVA, linear trend, heat map, draft length,
 * static pre-checks, export). The analysis runs in workers/onng.worker.ts.
 */
import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import levelsJson from '../../../datasets/onng/nng4_levels.json';
import { precheckProof } from '../../core/tasks/onng/analytics.ts';
import { ONNG_MODULES, onngModuleOf } from '../../core/tasks/onng/upstream.ts';
import {
  closeDatasetFolder,
  dismissError,
  loadResults,
  loadResultsFolder,
  loadVerdictFile,
  openDatasetFolder,
  selectProblem,
  setExcludeFirst,
  setHeatModel,
  setLevel,
  useOnng,
} from '../../state/onng.ts';
import { ALL_MODELS, summaryCsv, summaryJson, type OnngAnalysis } from '../../core/tasks/onng/lab/analysis.ts';
import { ErrorBarChart, type ErrorBarSeries } from './ErrorBarChart.tsx';
import {
  LEVELS,
  deobfuscatedSegments,
  groupByWorld,
  lambdaOf,
  nng4Mapping,
  renameSegments,
  type Nng4Level,
  type Segment,
} from '../../core/tasks/onng/lab/problems.ts';
import './onng.css';
import { downloadText } from '../../browser/download.ts';
import { pastedTextProblem } from '../../browser/read-file.ts';
import { VariantsPanel } from './VariantsPanel.tsx';
import { fixed, fmt } from '../../ui/format.ts';
import { ErrorAlert } from '../../ui/ErrorAlert.tsx';
import { Progress } from '../../ui/Progress.tsx';
import { FilePick } from '../../ui/FilePick.tsx';

const NNG4_LEVELS = levelsJson as Nng4Level[];
const NNG4_GROUPS = groupByWorld(NNG4_LEVELS, true);

const COLORS = ['#1f5fd6', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];

/** F and p as the tables show them (and the e2e test compares them). */
export const formatF = (f: number) => fmt(f, 5);
export const formatP = (p: number) => fmt(p, 3);
const formatDf = (a: { df_between: number; df_within: number }) =>
  Number.isFinite(a.df_between) ? `(${a.df_between}, ${a.df_within})` : '—';

export function OnngPage() {
  const s = useOnng(useShallow((st) => ({ busy: st.busy, progress: st.progress })));
  return (
    <div className="lab onng-lab" data-testid="onng-page">
      <aside className="panel left">
        <BrowserControls />
      </aside>
      <main className="onng-main">
        <ProblemView />
        <Results />
        <VariantsPanel />
        {s.busy && (
          <Progress testId="onng-progress">
            {s.busy}
            {s.progress ? ` — ${s.progress}` : ''}…
          </Progress>
        )}
      </main>
    </div>
  );
}

function BrowserControls() {
  const s = useOnng(useShallow((st) => ({ error: st.error, exact: st.exact, level: st.level, problemId: st.problemId })));
  const groups = s.exact
    ? ONNG_MODULES.map(([module]) => ({
        title: module,
        items: s.exact!.levels[0].dataset.problems.filter((p) => onngModuleOf(p.id) === module).map((p) => ({ id: p.id, name: p.name })),
      })).filter((g) => g.items.length > 0)
    : NNG4_GROUPS.map((g) => ({ title: g.title, items: g.levels.map((l) => ({ id: l.onng_id!, name: l.statement_name ?? l.title })) }));
  return (
    <section>
      <h2>O-NNG problems</h2>
      <label className="row">
        Noise level λ
        <select data-testid="onng-lambda" value={s.level} onChange={(e) => setLevel(Number(e.target.value))}>
          {LEVELS.map((k) => (
            <option key={k} value={k}>{`λ = ${lambdaOf(k).toFixed(1)}${k === 0 ? ' (original)' : ` (set ${k}, seed ${k})`}`}</option>
          ))}
        </select>
      </label>
      {s.exact ? (
        <p className="hint" data-testid="onng-mode">
          Exact O-NNG sets from your folder “{s.exact.folder}”:{' '}
          {s.exact.levels
            .slice(1)
            .map((l) => `λ ${lambdaOf(l.level)} ${l.source === 'file' ? 'read' : 'computed'}`)
            .join(', ')}
          .{' '}
          <button type="button" onClick={closeDatasetFolder}>
            use NNG4 statements
          </button>
        </p>
      ) : (
        <p className="hint" data-testid="onng-mode">
          Statements: NNG4’s level files (Apache-2.0, shipped). O-NNG’s own problem set has no licence and is not shipped, and its exact
          renaming needs O-NNG’s full name list and texts, which NNG4 lacks. So here the NNG4 names are renamed with the same algorithm
          (seed k, λ = 0.2·k, one consistent pass): <b>not</b> the published O-NNG names. Open your O-NNG dataset folder for the exact sets.
        </p>
      )}
      <label className="file-button">
        Open O-NNG dataset folder…
        <FilePick multiple folder data-testid="onng-folder-input" onFiles={(files) => void openDatasetFolder(files)} />
      </label>
      <nav className="onng-problems" data-testid="onng-problem-list">
        {groups.map((g) => (
          <div key={g.title}>
            <h3>{g.title}</h3>
            {g.items.map((p) => (
              <button
                type="button"
                key={p.id}
                data-testid={`onng-problem-${p.id}`}
                className={p.id === s.problemId ? 'active' : ''}
                onClick={() => selectProblem(p.id)}
              >
                <span className="id">{p.id}</span> {p.name}
              </button>
            ))}
          </div>
        ))}
      </nav>
      {s.error && <ErrorAlert message={s.error} testId="onng-error" onDismiss={dismissError} />}
    </section>
  );
}

function Statement({ segments, testId, onHover }: { segments: Segment[]; testId: string; onHover: (s: Segment | null) => void }) {
  return (
    <code className="onng-statement" data-testid={testId}>
      {segments.map((seg, i) =>
        seg.original === undefined ? (
          <span key={i}>{seg.text}</span>
        ) : (
          <span
            key={i}
            className="onng-name"
            data-testid="onng-obf-name"
            data-original={seg.original}
            title={`original: ${seg.original}`}
            onMouseEnter={() => onHover(seg)}
            onMouseLeave={() => onHover(null)}
          >
            {seg.text}
          </span>
        ),
      )}
    </code>
  );
}

function ProblemView() {
  const s = useOnng(useShallow((st) => ({ exact: st.exact, level: st.level, problemId: st.problemId })));
  const [hover, setHover] = useState<Segment | null>(null);
  const shippedMapping = useMemo(() => nng4Mapping(NNG4_LEVELS, s.level), [s.level]);
  let title: string;
  let original: string;
  let obfuscated: Segment[];
  let prompt: { role: string; content: string }[] | null = null;
  let extra: React.ReactNode;
  if (s.exact) {
    const base = s.exact.levels[0].dataset.problems.find((p) => p.id === s.problemId) ?? s.exact.levels[0].dataset.problems[0];
    const set = s.exact.levels[s.level];
    const index = s.exact.levels[0].dataset.problems.indexOf(base);
    const problem = set.dataset.problems.find((p) => p.id === base.id) ?? set.dataset.problems[index];
    title = `${base.id} ${base.name} (${onngModuleOf(base.id)})`;
    original = base.statement;
    obfuscated = deobfuscatedSegments(problem?.statement ?? '', set.inverse);
    prompt = set.dataset.queries?.[index] ?? null;
    extra = (
      <p className="hint">
        {problem?.known_theorems.length ?? 0} available theorems; {set.mapping.size || 'no'} renamed names at this level ({set.source}).
      </p>
    );
  } else {
    const level = NNG4_LEVELS.find((l) => l.onng_id === s.problemId) ?? NNG4_LEVELS.find((l) => l.onng_id !== null)!;
    title = `${level.onng_id} ${level.statement_name ?? level.title} — NNG4 ${level.world_title}, level ${level.level}: ${level.title}`;
    original = level.statement;
    obfuscated = renameSegments(level.statement, shippedMapping);
    extra = (
      <p className="hint">
        NNG4 notation kept (O-NNG writes add/mul/pow/le and named numerals instead).
        {level.new_tactics.length > 0 && ` New tactics here: ${level.new_tactics.join(', ')}.`}
      </p>
    );
  }
  return (
    <section className="onng-card" data-testid="onng-problem">
      <h2 data-testid="onng-problem-title">{title}</h2>
      <div className="onng-side">
        <div>
          <h3>original</h3>
          <code className="onng-statement" data-testid="onng-original">
            {original}
          </code>
        </div>
        <div>
          <h3>obfuscated, λ = {lambdaOf(s.level).toFixed(1)}</h3>
          <Statement segments={obfuscated} testId="onng-obfuscated" onHover={setHover} />
          <p className="hint" data-testid="onng-hover-original">
            {hover?.original ? (
              <>
                “{hover.text}” is <b>{hover.original}</b>
              </>
            ) : (
              'Hover a renamed name to see the original.'
            )}
          </p>
        </div>
      </div>
      {extra}
      <details data-testid="onng-prompt">
        <summary>Prompt as the model receives it</summary>
        {prompt ? (
          prompt.map((m, i) => (
            <div key={i}>
              <h4>{m.role}</h4>
              <pre>{m.content}</pre>
            </div>
          ))
        ) : (
          <p className="hint">
            The prompt’s fixed text belongs to O-NNG and is not shipped. Open your O-NNG dataset folder to see each problem’s system and
            user messages exactly as stored in queries.jsonl (computed levels rename them with the exact port); model-specific JSON or
            chain-of-thought instructions are added at query time by O-NNG’s query scripts.
          </p>
        )}
      </details>
    </section>
  );
}

function Results() {
  const s = useOnng(
    useShallow((st) => ({
      analysis: st.analysis,
      excludeFirst: st.excludeFirst,
      resultsFile: st.resultsFile,
      resultsKind: st.resultsKind,
      verdictFiles: st.verdictFiles,
    })),
  );
  return (
    <section className="onng-card" data-testid="onng-results">
      <h2>Results analytics</h2>
      <label className="file-button">
        Open outcomes CSV…
        <FilePick accept=".csv,text/csv" data-testid="onng-results-input" onFiles={(files) => void loadResults(files[0])} />
      </label>
      <p className="hint">
        The per-problem table (columns model, lam, run, problem_id, verified, correct, time_s; optional problem, module, contains_sorry,
        uses_simp, draft_chars). Verdicts come from Lean (structlab onng verify); the lab does not fake them.
      </p>
      <div className="onng-export">
        <label className="file-button">
          Open results folder…
          <FilePick multiple folder data-testid="onng-results-folder" onFiles={(files) => void loadResultsFolder(files)} />
        </label>
        <label className="file-button">
          Add verdict file…
          <FilePick accept=".json,application/json" data-testid="onng-verdict-input" onFiles={(files) => void loadVerdictFile(files[0])} />
        </label>
      </div>
      <p className="hint" data-testid="onng-upstream-hint">
        Results folder, upstream layout: <code>&lt;model&gt;/&lt;level&gt;/result_&lt;run&gt;.jsonl</code> (one
        {' {"draft", "code"} '}line per problem, in id order) and <code>time_&lt;run&gt;.json</code> (a list of seconds, one per problem),
        with verdicts in <code>&lt;model&gt;/statistics.json</code> (
        {'{"datasets": {level: {"runs": [{run, error_ids, sorry_ids, banned_tactics_usage}]}}}'}). The folder may be results/, one model’s
        folder or one level folder. Level folders: original (λ 0), obfuscated_K (λ 0.2·K). A problem is correct when it is in neither
        error_ids nor sorry_ids; a run missing from statistics.json counts as unverified (upstream leaves aborted runs out) and is left out
        of the statistics. Other files (plots, generated_proofs_*.jsonl) are ignored. A verdict file (statistics.json-like, with
        {' "model" '}when several models are loaded) fills or overrides the verification of the loaded raw outputs. Raw proofs are also
        pre-checked statically (sorry, admit, simp, tactics outside the prompt’s list): shown apart, never used as verdicts.
      </p>
      <label className="check">
        <input
          type="checkbox"
          data-testid="onng-exclude-first"
          checked={s.excludeFirst}
          onChange={(e) => void setExcludeFirst(e.target.checked)}
        />{' '}
        leave out problem 1 (zero_add: its answer is in every prompt)
      </label>
      {s.resultsKind === 'upstream' && s.verdictFiles.length > 0 && (
        <p className="hint" data-testid="onng-verdict-files">
          Verdict files applied: {s.verdictFiles.join(', ')}.
        </p>
      )}
      {s.analysis ? (
        <Analysis analysis={s.analysis} file={s.resultsFile ?? ''} />
      ) : (
        <p className="hint" data-testid="onng-results-empty">
          No results loaded yet.
        </p>
      )}
    </section>
  );
}

function Analysis({ analysis, file }: { analysis: OnngAnalysis; file: string }) {
  const lambdas = useMemo(
    () => [...new Set(analysis.models.flatMap((m) => m.levels.map((l) => l.lambda)))].sort((a, b) => a - b),
    [analysis],
  );
  const charts = useMemo(() => {
    const pick = (fn: (l: OnngAnalysis['models'][number]['levels'][number]) => [number, number]) =>
      analysis.models.map((m, k): ErrorBarSeries => {
        const at = lambdas.map((x) => m.levels.find((l) => l.lambda === x));
        return {
          label: m.model,
          color: COLORS[k % COLORS.length],
          mean: at.map((l) => (l ? fn(l)[0] : null)),
          se: at.map((l) => (l ? fn(l)[1] : null)),
        };
      });
    return {
      accuracy: pick((l) => [100 * l.accuracy_mean, 100 * l.accuracy_se]),
      time: pick((l) => [l.time_mean, l.time_se]),
    };
  }, [analysis, lambdas]);
  const base = file.replace(/\.[^.]+$/, '') || 'onng';
  const excluded = analysis.excludedProblems.length > 0 ? ` (problem ${analysis.excludedProblems.join(', ')} left out)` : '';
  const unverifiedRuns = analysis.models.flatMap((m) => m.unverified_runs.map((r) => `${m.model} λ ${r.lambda} run ${r.run}`));
  return (
    <div data-testid="onng-analysis">
      <p className="hint" data-testid="onng-results-summary">
        {file}: {analysis.rows} rows{excluded}, {analysis.models.length} models, λ ∈ {'{'}
        {lambdas.join(', ')}
        {'}'}.{unverifiedRuns.length > 0 && ` Runs never verified (left out): ${unverifiedRuns.join('; ')}.`}
      </p>
      <div className="onng-export">
        <button
          type="button"
          data-testid="onng-export-csv"
          onClick={() => downloadText(`${base}-summary.csv`, summaryCsv(analysis), 'text/csv')}
        >
          Export summary CSV
        </button>
        <button
          type="button"
          data-testid="onng-export-json"
          onClick={() => downloadText(`${base}-summary.json`, summaryJson(analysis), 'application/json')}
        >
          Export summary JSON
        </button>
      </div>
      <div className="onng-charts">
        <ErrorBarChart
          title="Accuracy vs λ (mean ± SE over runs)"
          testId="onng-chart-accuracy"
          x={lambdas}
          xLabel="λ"
          yLabel="correct (%)"
          series={charts.accuracy}
        />
        <ErrorBarChart
          title="Mean time per problem vs λ (± SE)"
          testId="onng-chart-time"
          x={lambdas}
          xLabel="λ"
          yLabel="time (s)"
          series={charts.time}
        />
      </div>
      <h3>One-way ANOVA across λ (groups = runs)</h3>
      <table className="onng-table" data-testid="onng-anova">
        <thead>
          <tr>
            <th>model</th>
            <th>accuracy F</th>
            <th>p</th>
            <th>df</th>
            <th>Holm p</th>
            <th>time F</th>
            <th>p</th>
            <th>df</th>
            <th>Holm p</th>
          </tr>
        </thead>
        <tbody>
          {analysis.models.map((m, k) => (
            <tr key={m.model} data-model={m.model}>
              <td>{m.model}</td>
              <td data-testid={`anova-acc-F-${m.model}`}>{formatF(m.anova_accuracy.F)}</td>
              <td data-testid={`anova-acc-p-${m.model}`} className={m.anova_accuracy.p < 0.05 ? 'sig' : ''}>
                {formatP(m.anova_accuracy.p)}
              </td>
              <td>{formatDf(m.anova_accuracy)}</td>
              <td>{formatP(analysis.holm.accuracy[k])}</td>
              <td data-testid={`anova-time-F-${m.model}`}>{formatF(m.anova_time.F)}</td>
              <td data-testid={`anova-time-p-${m.model}`} className={m.anova_time.p < 0.05 ? 'sig' : ''}>
                {formatP(m.anova_time.p)}
              </td>
              <td>{formatDf(m.anova_time)}</td>
              <td>{formatP(analysis.holm.time[k])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        scipy.stats.f_oneway semantics: a run that was never verified is left out, so a level may have 4 runs (upstream’s formula keeps n =
        5). p &lt; 0.05 in bold; Holm p adjusts each column for testing {analysis.models.length} models.
      </p>
      <h3>Linear trend on λ (least squares over runs)</h3>
      <table className="onng-table" data-testid="onng-trend">
        <thead>
          <tr>
            <th>model</th>
            <th>accuracy slope (pp per unit λ)</th>
            <th>p</th>
            <th>time slope (s per unit λ)</th>
            <th>p</th>
          </tr>
        </thead>
        <tbody>
          {analysis.models.map((m) => (
            <tr key={m.model}>
              <td>{m.model}</td>
              <td>{fixed(100 * m.trend_accuracy.slope, 2)}</td>
              <td>{formatP(m.trend_accuracy.p)}</td>
              <td>{fixed(m.trend_time.slope, 2)}</td>
              <td>{formatP(m.trend_time.p)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <HeatMapView analysis={analysis} />
      <h3>Draft (“proof plan”) length, characters</h3>
      <table className="onng-table" data-testid="onng-drafts">
        <thead>
          <tr>
            <th>model</th>
            {lambdas.map((l) => (
              <th key={l}>λ {l}</th>
            ))}
            <th>ANOVA F (over drafts)</th>
            <th>p</th>
          </tr>
        </thead>
        <tbody>
          {analysis.drafts.map((d) => (
            <tr key={d.model}>
              <td>{d.model}</td>
              {lambdas.map((x) => {
                const l = d.levels.find((v) => v.lambda === x);
                return <td key={x}>{l ? `${fixed(l.mean, 0)} ± ${fixed(l.se, 0)}` : '—'}</td>;
              })}
              <td>{d.anova ? formatF(d.anova.F) : '—'}</td>
              <td>{d.anova ? formatP(d.anova.p) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        Here each draft is one observation (df = 5, N − 6); upstream used df = (5, 24), so its p-values are larger. For R1 and Prover-V2 the
        “draft” is the text outside the code block, not comparable with the JSON models’ drafts.
      </p>
      <h3>Static pre-checks (not verification)</h3>
      <table className="onng-table" data-testid="onng-prechecks">
        <thead>
          <tr>
            <th>model</th>
            <th>verified proofs</th>
            <th>contain sorry</th>
            <th>use simp</th>
          </tr>
        </thead>
        <tbody>
          {analysis.models.map((m) => (
            <tr key={m.model}>
              <td>{m.model}</td>
              <td>{m.prechecks.problems}</td>
              <td>{m.prechecks.contains_sorry}</td>
              <td>{m.prechecks.uses_simp}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        Counted from the verdicts’ contains_sorry / uses_simp flags (sorry_ids, banned_tactics_usage). A proof with sorry is incorrect
        upstream; simp is only reported.
      </p>
      {analysis.prechecks && <RawPrechecks analysis={analysis} />}
      {analysis.warnings && analysis.warnings.length > 0 && (
        <details data-testid="onng-results-warnings">
          <summary>{analysis.warnings.length} note(s) from reading the folder</summary>
          <ul>
            {analysis.warnings.slice(0, 200).map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </details>
      )}
      <ProofPrecheck />
    </div>
  );
}

/** Static pre-checks of the raw proofs read from a results folder, per model and λ, apart from Lean's verdicts. */
function RawPrechecks({ analysis }: { analysis: OnngAnalysis }) {
  const rows = analysis.prechecks ?? [];
  return (
    <>
      <h3>Static pre-checks of the raw proofs (result_&lt;run&gt;.jsonl)</h3>
      <table className="onng-table" data-testid="onng-raw-prechecks">
        <thead>
          <tr>
            <th>model</th>
            <th>λ</th>
            <th>proofs</th>
            <th>sorry</th>
            <th>admit</th>
            <th>simp</th>
            <th>outside allowed list</th>
            <th>most used outside</th>
            <th>verified</th>
            <th>verifier’s sorry</th>
            <th>sorry disagreements</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.model} ${r.lambda}`} data-model={r.model} data-lambda={r.lambda}>
              <td>{r.model}</td>
              <td>{r.lambda}</td>
              <td>{r.proofs}</td>
              <td>{r.contains_sorry}</td>
              <td>{r.contains_admit}</td>
              <td>{r.uses_simp}</td>
              <td>{r.outside_allowed}</td>
              <td>
                {Object.entries(r.outside_tactics)
                  .slice(0, 4)
                  .map(([t, n]) => `${t} ×${n}`)
                  .join(', ') || '—'}
              </td>
              <td>{r.verified}</td>
              <td>{r.verified_sorry}</td>
              <td>{r.sorry_disagreements}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        Read from the raw code, not from Lean: upstream marks a proof with sorry incorrect, only reports simp, and neither detects admit nor
        enforces the allowed list. “Verified” counts proofs whose run has verdicts; disagreements compare the sorry flag with sorry_ids.
      </p>
    </>
  );
}

function heatColor(v: number | null): string {
  if (v === null) return '#eee';
  // red (0 % correct) → yellow → green (100 %)
  const hue = 120 * v;
  return `hsl(${hue.toFixed(0)}, 70%, ${(62 - 10 * v).toFixed(0)}%)`;
}

function HeatMapView({ analysis }: { analysis: OnngAnalysis }) {
  const heatModel = useOnng((st) => st.heatModel);
  const model = heatModel ?? analysis.models[0]?.model ?? ALL_MODELS;
  const cells = analysis.heat.cells[model] ?? analysis.heat.cells[ALL_MODELS];
  return (
    <>
      <h3>Per-problem × λ accuracy</h3>
      <label className="row-inline">
        model{' '}
        <select data-testid="onng-heat-model" value={model} onChange={(e) => setHeatModel(e.target.value)}>
          {[...analysis.models.map((m) => m.model), ALL_MODELS].map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
      <div className="onng-heat-wrap">
        <table className="onng-heat" data-testid="onng-heatmap">
          <thead>
            <tr>
              <th>problem</th>
              {analysis.heat.lambdas.map((l) => (
                <th key={l}>λ {l}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {analysis.heat.problems.map((p, i) => (
              <tr key={p.id}>
                <th title={p.module}>
                  {p.id} {p.name}
                </th>
                {cells[i].map((v, j) => (
                  <td
                    key={j}
                    style={{ background: heatColor(v) }}
                    title={
                      `${p.name}, λ ${analysis.heat.lambdas[j]}: ` +
                      `${v === null ? 'no verified run' : `${(100 * v).toFixed(0)} % correct`}`
                    }
                  >
                    {v === null ? '' : (100 * v).toFixed(0)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="hint">% of verified runs correct; grey: no verified run. Problem 1’s answer is in every prompt.</p>
    </>
  );
}

function ProofPrecheck() {
  const [code, setCode] = useState('');
  // Pasted text is held to the input limit like a file (the pre-check runs on this thread).
  const tooLarge = pastedTextProblem('the pasted proof', code);
  const result = !tooLarge && code.trim() ? precheckProof(code) : null;
  return (
    <details data-testid="onng-proof-precheck">
      <summary>Pre-check a raw proof</summary>
      <textarea rows={6} value={code} onChange={(e) => setCode(e.target.value)} placeholder="paste the tactic code after := by" />
      {tooLarge && (
        <p className="error" role="alert">
          {tooLarge}
        </p>
      )}
      {result && (
        <p className="hint" data-testid="onng-precheck-result">
          sorry: {result.containsSorry ? 'yes' : 'no'} · admit: {result.containsAdmit ? 'yes' : 'no'} · simp:{' '}
          {result.usesSimp ? 'yes' : 'no'} · outside the allowed list: {result.disallowedTactics.join(', ') || 'none'}
        </p>
      )}
    </details>
  );
}
