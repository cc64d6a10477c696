/**
 * "Obfuscated variants" on the O-NNG page: the same λ-renaming applied to FEM-Bench task files or an
 * AtomWorld cases JSONL (src/core/tasks/onng/variants.ts), a side-by-side preview of a few renamed items,
 * each output file offered for download, and a box that restores a model's answer to the original names.
 * The work is a single pass over the inputs (well under a second for the 33 FEM-Bench tasks), so it runs
 * here after the files are read, with a busy note while it does.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  type VariantResult,
  atomworldVariant,
  deobfuscate,
  femBenchVariant,
  parseAtomWorldCases,
  parseFemTask,
} from '../../core/tasks/onng/variants.ts';
import { downloadText } from '../../browser/download.ts';
import { pastedTextProblem, readTextFile, readTextFiles } from '../../browser/read-file.ts';
import { FilePick } from '../../ui/FilePick.tsx';

type Benchmark = 'fem' | 'atomworld';
interface LoadedInput {
  benchmark: Benchmark;
  names: string[];
  texts: string[];
}

const PREVIEW_COUNT = 3;
const LEVEL_CHOICES = [1, 2, 3, 4, 5];

/** Reads the chosen files: FEM-Bench task .json files (sorted by name) or one AtomWorld cases JSONL. */
async function readInput(benchmark: Benchmark, files: File[]): Promise<LoadedInput> {
  if (benchmark === 'fem') {
    const jsons = files.filter((f) => f.name.endsWith('.json')).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (jsons.length === 0) throw new Error('choose one or more FEM-Bench task .json files');
    const texts = (await readTextFiles(jsons, 'the FEM-Bench task files')).map((f) => f.text);
    texts.forEach((t, i) => parseFemTask(t, jsons[i].name)); // an error names the file
    return { benchmark, names: jsons.map((f) => f.name), texts };
  }
  if (files.length !== 1) throw new Error('choose one AtomWorld cases .jsonl file');
  const text = await readTextFile(files[0]);
  return { benchmark, names: [files[0].name], texts: parseAtomWorldCases(text, files[0].name).map((c) => c.line) };
}

export function VariantsPanel() {
  const [benchmark, setBenchmark] = useState<Benchmark>('fem');
  const [level, setLevel] = useState(3);
  const [pythonSafe, setPythonSafe] = useState(false);
  const [input, setInput] = useState<LoadedInput | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState('');
  // The pass to show: a new object whenever an input or option changes; its outcome is kept with it, so an
  // outcome of older inputs is never shown, and "busy" is simply "no outcome for this pass yet".
  const pass = useMemo(
    () => (input && input.benchmark === benchmark ? { input, level, pythonSafe } : null),
    [input, benchmark, level, pythonSafe],
  );
  const [outcome, setOutcome] = useState<{ pass: typeof pass; result: VariantResult | null; error: string | null } | null>(null);
  useEffect(() => {
    if (!pass) return;
    // Let the busy note paint before the pass runs.
    const timer = setTimeout(() => {
      try {
        const options = { pythonSafe: pass.pythonSafe };
        const texts = pass.input.texts;
        setOutcome({
          pass,
          result:
            pass.input.benchmark === 'fem' ? femBenchVariant(texts, pass.level, options) : atomworldVariant(texts, pass.level, options),
          error: null,
        });
      } catch (e) {
        setOutcome({ pass, result: null, error: (e as Error).message });
      }
    }, 0);
    return () => clearTimeout(timer);
  }, [pass]);
  const current = outcome && outcome.pass === pass ? outcome : null;
  const busy = pass !== null && current === null;
  const result = current?.result ?? null;

  const open = async (files: File[]) => {
    try {
      setInput(await readInput(benchmark, files));
      setError(null);
    } catch (e) {
      setInput(null);
      setError((e as Error).message);
    }
  };

  // Pasted text is held to the input limit like a file (the renaming runs on this thread).
  const answerTooLarge = pastedTextProblem('the pasted answer', answer);
  const restored = useMemo(
    () => (result && answer && !answerTooLarge ? deobfuscate(answer, result.inverse) : ''),
    [result, answer, answerTooLarge],
  );
  const prefix = `${benchmark === 'fem' ? 'fembench' : 'atomworld'}-lambda${(0.2 * level).toFixed(1)}${pythonSafe ? '-pysafe' : ''}`;

  return (
    <section className="onng-card" data-testid="onng-variants">
      <h2>Obfuscated variants</h2>
      <p className="hint">
        The same λ-renaming applied to another benchmark, one mapping for all tasks: FEM-Bench function and parameter names, or AtomWorld
        action verbs and parameter words (the CIFs are left as they are).
      </p>
      <div className="onng-export">
        <label className="row-inline">
          Benchmark{' '}
          <select
            data-testid="onng-variants-benchmark"
            value={benchmark}
            onChange={(e) => {
              setBenchmark(e.target.value as Benchmark);
              setInput(null);
              setError(null);
            }}
          >
            <option value="fem">FEM-Bench task files (.json)</option>
            <option value="atomworld">AtomWorld cases (.jsonl)</option>
          </select>
        </label>
        <label className="row-inline">
          Input{' '}
          <FilePick
            data-testid="onng-variants-input"
            multiple={benchmark === 'fem'}
            accept={benchmark === 'fem' ? '.json,application/json' : '.jsonl,.json'}
            onFiles={(files) => void open(files)}
          />
        </label>
        <label className="row-inline">
          λ{' '}
          <select data-testid="onng-variants-level" value={level} onChange={(e) => setLevel(Number(e.target.value))}>
            {LEVEL_CHOICES.map((k) => (
              <option key={k} value={k}>
                {(0.2 * k).toFixed(1)}
              </option>
            ))}
          </select>
        </label>
        <label
          className="check"
          title={
            "Only ASCII letters, digits and _ (no Python keyword), unlike O-NNG's Greek letters, ℕ and apostrophes: " +
            'for FEM code that must run'
          }
        >
          <input
            type="checkbox"
            data-testid="onng-variants-python-safe"
            checked={pythonSafe}
            onChange={(e) => setPythonSafe(e.target.checked)}
          />{' '}
          Python-safe names
        </label>
      </div>
      {(error ?? current?.error) && (
        <p className="error" role="alert" data-testid="onng-variants-error">
          {error ?? current?.error}
        </p>
      )}
      {busy && (
        <p role="status" data-testid="onng-variants-busy">
          <span className="spinner" /> Renaming…
        </p>
      )}
      {input && !input.texts.length && <p>No item in the input.</p>}
      {result && (
        <>
          <p data-testid="onng-variants-summary">
            {result.items.length} {benchmark === 'fem' ? 'tasks' : 'cases'}, {Object.keys(result.mapping).length} names renamed at λ ={' '}
            {result.lambda}.
          </p>
          <div data-testid="onng-variants-preview">
            {result.items.slice(0, PREVIEW_COUNT).map((item) => (
              <div key={item.id} className="onng-side">
                <div>
                  <h3>{item.id} — original</h3>
                  <pre data-testid="onng-variants-original">{item.original}</pre>
                </div>
                <div>
                  <h3>obfuscated</h3>
                  <pre data-testid="onng-variants-obfuscated">{item.obfuscated}</pre>
                </div>
              </div>
            ))}
          </div>
          <div className="onng-export">
            {Object.entries(result.files).map(([name, text]) => (
              <button
                key={name}
                type="button"
                data-testid={`onng-variants-download-${name}`}
                onClick={() =>
                  downloadText(`${prefix}-${name}`, text, name.endsWith('.jsonl') ? 'application/x-ndjson' : 'application/json')
                }
              >
                Download {name}
              </button>
            ))}
          </div>
          <h3>Restore an answer</h3>
          <textarea
            rows={4}
            data-testid="onng-variants-answer"
            value={answer}
            onChange={(e) => setAnswer(e.target.value)}
            placeholder="paste a model's answer written with the renamed names"
          />
          {answerTooLarge && (
            <p className="error" role="alert">
              {answerTooLarge}
            </p>
          )}
          {restored && <pre data-testid="onng-variants-restored">{restored}</pre>}
        </>
      )}
    </section>
  );
}
