import { quoted } from '../../core/limits.ts';
import { type FemTypeDescriptor, decodeFemInputs } from '../../core/tasks/fembench/codec.ts';
import { compareResults } from '../../core/tasks/fembench/compare.ts';
import { alternativeSolutionCheck } from '../../core/tasks/fembench/equivalence.ts';
import { FEM_BENCH_TASKS, femTask } from '../../core/tasks/fembench/registry.ts';
import { RESOURCE_LIMIT, runFemCases } from '../../core/tasks/fembench/runner.ts';
import type { FemTask, FemValue } from '../../core/tasks/fembench/types.ts';
import { parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { readInputText, toStrictJson } from '../io.ts';
import { shardOption } from '../shard.ts';
import { checkFemOutputsDir } from './fem-check-batch.ts';

export const FEM_HELP = `usage: structlab fem tasks
       structlab fem run TASK_ID --cases FILE.json
       structlab fem check TASK_ID --cases FILE.json --outputs OUT.json
       structlab fem check TASK_ID --cases FILE.json --outputs-dir DIR [--shard I/N]

FEM-Bench reference tasks.
  tasks   the task ids with their signatures: {"tasks": [{"id", "signature", "description"}]}
  run     runs the reference on every case of FILE (golden layout: {"cases": [{"inputs", "input_types"}]})
          → {"results": [{"output": …} | {"error": {"type", "message"}}]} in case order, outputs encoded
          like the golden files (arrays as nested lists, tuples as lists, non-finite floats as strings)
  check   compares OUT's "results" (the layout run prints) with the reference using the benchmark's
          matching (numpy isclose, atol 1e-8, rtol 1e-5 relative to the candidate; exact shapes and
          dict keys; tuples may be lists) → {"passed": bool, "cases": [{"match", "detail"}]}
          --outputs-dir DIR instead of --outputs: every .json file of DIR (models, samples) against one
          reference run → {"task", "files": [{"file", "passed", "cases"} | {"file", "error"}], "passed": k,
          "total": n}; --shard I/N checks files k with k mod N = I (sorted by name) and prints a partial
          report for structlab merge (docs/scale-out.md)
FILE or OUT may be "-" for standard input.

Inputs are keyword arguments, as f(**inputs): an unknown or missing parameter is the reference's
TypeError, and a negative or non-integer size fails as the NumPy reference fails. A case whose sizes go
beyond the resource policy (README, Limits: FEM-Bench DOFs of dense problems, elements/nodes/points of
linear ones, nesting depth, the work of all cases together) is not run: its result is {"error": {"type": "${RESOURCE_LIMIT}", "message": …}}
and the other cases still run. A file that is not in the layout above exits 2.
`;

interface CaseRecord {
  inputs: Record<string, unknown>;
  input_types?: Record<string, FemTypeDescriptor>;
  output_types?: FemTypeDescriptor;
}

function parseJsonFile(path: string): unknown {
  const text = readInputText(path);
  try {
    return JSON.parse(text);
  } catch (e) {
    const name = path === '-' ? 'stdin' : path;
    throw new CliError(`${name} is not valid JSON (${e instanceof Error ? e.message.replace(/\.$/, '') : String(e)})`);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function readCases(path: string): CaseRecord[] {
  const name = path === '-' ? 'stdin' : path;
  const doc = parseJsonFile(path);
  if (!isRecord(doc) || !Object.hasOwn(doc, 'cases') || !Array.isArray(doc.cases))
    throw new CliError(`${name} has no "cases" list (expected the golden layout {"cases": [{"inputs": {...}}]})`);
  return doc.cases.map((c: unknown, k: number) => {
    if (!isRecord(c) || !Object.hasOwn(c, 'inputs') || !isRecord(c.inputs)) {
      throw new CliError(`${name}: case ${k + 1} has no "inputs" object keyed by parameter name`);
    }
    for (const field of ['input_types', 'output_types'] as const) {
      if (
        Object.hasOwn(c, field) &&
        c[field] !== null &&
        (field === 'input_types' ? !isRecord(c[field]) : typeof c[field] !== 'string' && !isRecord(c[field]))
      ) {
        throw new CliError(`${name}: case ${k + 1} has an "${field}" that is not a type descriptor`);
      }
    }
    return {
      inputs: c.inputs,
      input_types:
        Object.hasOwn(c, 'input_types') && c.input_types !== null ? (c.input_types as Record<string, FemTypeDescriptor>) : undefined,
      output_types: Object.hasOwn(c, 'output_types') && c.output_types !== null ? (c.output_types as FemTypeDescriptor) : undefined,
    };
  });
}

function readCandidateResults(path: string): unknown[] {
  const name = path === '-' ? 'stdin' : path;
  const doc = parseJsonFile(path);
  if (!isRecord(doc) || !Object.hasOwn(doc, 'results') || !Array.isArray(doc.results))
    throw new CliError(`${name} has no "results" list (expected the layout fem run prints)`);
  return doc.results;
}

function taskOrFail(id: string | undefined): FemTask {
  if (!id) throw new CliError('a TASK_ID is needed (see structlab fem tasks)');
  const task = femTask(id);
  if (!task)
    throw new CliError(`unknown FEM-Bench task ${quoted(id)} (see structlab fem tasks for the ${FEM_BENCH_TASKS.length} task ids)`);
  return task;
}

/** A model's results (by position) against the reference's, with the benchmark's matching and accepted alternatives. */
function checkOutputs(task: FemTask, cases: CaseRecord[], references: ReturnType<typeof runFemCases>, candidates: unknown[]) {
  const same = alternativeSolutionCheck(task);
  const alternatives = cases.map((c, k) =>
    same && 'output' in references[k]
      ? (ref: FemValue, cand: unknown) => same(decodeFemInputs(c.inputs, c.input_types), ref, cand)
      : undefined,
  );
  return compareResults(
    task.id,
    references,
    candidates,
    cases.map((c) => c.output_types),
    alternatives,
  );
}

export function runFem(argv: string[], _warn: (line: string) => void): string {
  const [sub, ...rest] = argv;
  if (sub === 'tasks') {
    const { positionals } = parseArgs(rest, []);
    if (positionals.length > 0) throw new CliError('fem tasks takes no arguments');
    return toStrictJson({ tasks: FEM_BENCH_TASKS.map((t) => ({ id: t.id, signature: t.signature, description: t.description })) });
  }
  if (sub === 'run') {
    const { positionals, options } = parseArgs(rest, [{ name: 'cases', kind: 'string' }]);
    if (positionals.length !== 1) throw new CliError('fem run takes exactly one TASK_ID (see structlab fem --help)');
    const task = taskOrFail(positionals[0]);
    if (typeof options.cases !== 'string') throw new CliError('fem run needs --cases FILE.json');
    const cases = readCases(options.cases);
    return toStrictJson({ results: runFemCases(task, cases) });
  }
  if (sub === 'check') {
    const { positionals, options } = parseArgs(rest, [
      { name: 'cases', kind: 'string' },
      { name: 'outputs', kind: 'string' },
      { name: 'outputs-dir', kind: 'string' },
      { name: 'shard', kind: 'string' },
    ]);
    if (positionals.length !== 1) throw new CliError('fem check takes exactly one TASK_ID (see structlab fem --help)');
    const task = taskOrFail(positionals[0]);
    if (typeof options.cases !== 'string') throw new CliError('fem check needs --cases FILE.json');
    // Many answer files (models, samples) against one reference run: src/cli/commands/fem-check-batch.ts.
    if (options['outputs-dir'] !== undefined || options.shard !== undefined) {
      if (options.outputs !== undefined) throw new CliError('fem check takes --outputs OUT.json or --outputs-dir DIR, not both');
      if (typeof options['outputs-dir'] !== 'string')
        throw new CliError('--shard needs --outputs-dir DIR (a shard is a share of the files)');
      return checkFemOutputsDir(task, readCases(options.cases), options.cases, options['outputs-dir'], shardOption(options.shard), {
        readCandidateResults,
        checkOutputs,
      });
    }
    if (typeof options.outputs !== 'string') throw new CliError('fem check needs --outputs OUT.json');
    if (options.cases === '-' && options.outputs === '-') throw new CliError('only one of --cases and --outputs can be standard input');
    const cases = readCases(options.cases);
    const candidates = readCandidateResults(options.outputs);
    // Results pair with cases by position: a different count means the two files do not belong together.
    if (candidates.length !== cases.length) {
      const outName = options.outputs === '-' ? 'stdin' : options.outputs;
      throw new CliError(
        `${outName} has ${candidates.length} result${candidates.length === 1 ? '' : 's'} for the ${cases.length} ` +
          `case${cases.length === 1 ? '' : 's'} of ${options.cases === '-' ? 'stdin' : options.cases}`,
      );
    }
    return toStrictJson(checkOutputs(task, cases, runFemCases(task, cases), candidates));
  }
  throw new CliError(`unknown fem subcommand ${quoted(sub ?? '')} (available: tasks, run, check; see structlab fem --help)`);
}
