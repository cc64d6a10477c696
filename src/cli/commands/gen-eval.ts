/** `structlab gen eval`: de novo generation metrics (src/core/tasks/generations/denovo.ts) on the sets read by gen.ts. */
import {
  type CoverageDataset,
  type CoverageOptions,
  type DenovoConvention,
  type DenovoResult,
  type DenovoSample,
  denovoSummary,
  evaluateDenovo,
} from '../../core/tasks/generations/denovo.ts';
import { reducedFormula } from '../../core/structure/composition.ts';
import { type GenItem, energiesFor, parseEnergies, ptEvalsOf } from '../../core/tasks/generations/inputs.ts';
import { type HullRow, hullRows, parseHullReference, parseTotalEnergies } from '../../core/tasks/generations/hull-inputs.ts';
import type { GenMatcherName } from '../../core/tasks/generations/mattergen-matcher.ts';
import { SMACT_TABLES, type SmactTable } from '../../core/tasks/generations/smact.ts';
import { choiceOption, numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { readInputText, toStrictJson } from '../io.ts';
import { readGenSet } from './gen-inputs.ts';
import { progressReporter } from '../progress.ts';
import { errorText } from '../../core/errors.ts';
import { runPool } from '../pool.ts';
import {
  type EvalTask,
  type EvalTaskResult,
  type TaskMatcherError,
  defaultGenWorkers,
  evalWork,
  genWorkers,
  localEvalRunner,
  orderedErrors,
  taskRanges,
} from './gen-tasks.ts';
import { quoted } from '../../core/limits.ts';
import type { CoverageFingerprint } from '../../core/tasks/generations/fingerprints.ts';
import { COVERAGE_CUTOFFS } from '../../core/tasks/generations/coverage.ts';

export const GEN_EVAL_HELP = `usage: structlab gen eval --pred P [--reference R] [--truth T] [--matcher disordered|ordered]
                         [--convention diffcsp|cdvae|mattergen] [--smact legacy|icsd24]
                         [--e-above-hull FILE.json | --energies E --hull-reference R]
                         [--stability-threshold 0.1] [--space-groups]
                         [--coverage mp20|carbon|perovskite] [--cov-cutoffs S,C]
                         [--pt-evals 0|K|all] [--workers N]

De novo generation metrics as CDVAE, DiffCSP and MatterGen compute them: structural and SMACT validity,
uniqueness (greedy, in input order), novelty against a reference set, Wasserstein distances of density
and element count against a test set, stability and S.U.N. from given energies above hull.
  --pred P, --reference R, --truth T
                        a folder of .cif/.vasp/.poscar/.json files, subfolders included (id = the path
                        below the folder without the ending, input order = ids sorted; ids may repeat
                        except for --e-above-hull), one .extxyz/.xyz file (id = the frame's id=, else its
                        index), one .jsonl file of {"id": ..., "structure": <pymatgen Structure dict>},
                        one MP-20-style .csv (id = material_id, structure = the cif column, row order),
                        a .zip, .tar, .tar.gz/.tgz or .gz of any of these, or a CDVAE/DiffCSP .pt result file
                        (eval_gen.pt, eval_opt.pt, eval_recon.pt, eval_diff.pt; id = the crystal's batch index;
                        as --truth, its input_data_batch when that is a dict of tensors)
  --coverage mp20       CDVAE's coverage against --truth (txie-93/cdvae compute_metrics.py compute_cov):
                        each structure's fingerprint is the mean over its sites of matminer 0.7.3's
                        CrystalNNFingerprint("ops"), its composition's the Magpie ElementProperty scaled by
                        CDVAE's CompScaler; cov_recall / cov_precision count truths / predictions with both
                        fingerprints within the cutoffs of the nearest other, amsd_* / amcd_* are the mean
                        nearest distances. Cutoffs (structure, composition): mp20 0.4, 10; carbon and
                        perovskite 0.2, 4. Adds comp_div and struct_div (mean pairwise fingerprint distance
                        of the valid predictions) and each prediction's distances to the nearest truth
  --cov-cutoffs S,C     the coverage cutoffs given by hand (alone, or over --coverage's)
  --pt-evals 0          which evals of a --pred .pt with a leading num_evals dimension are the predictions:
                        0 (default) or K = eval K alone, ids 0, 1, … (the batch index), as compute_metrics.py's
                        gen task reads it: get_crystal_array_list(path, batch_idx=K), txie-93/cdvae's default
                        batch_idx=0; all = every crystal of every eval, ids i__k (no upstream gen call does this).
                        A .pt without that dimension (DiffCSP generation.py's eval_gen.pt) has one eval, read
                        whole as jiaor17/DiffCSP's compute_metrics.py reads it (batch_idx=-2)
  --matcher disordered  MatterGen's matcher for uniqueness and novelty: disordered (default; substitutable
                        elements become mixed sites, so Cu/Au orderings of one alloy are duplicates) or
                        ordered (StructureMatcher() with pymatgen's defaults)
  --convention diffcsp  diffcsp: SMACT refuses more than 10^7 oxidation-state combinations; cdvae and
                        mattergen: no combination cut
  --smact legacy        legacy: SMACT 2.3-2.5 tables; icsd24: SMACT 3.0-3.2 (ICSD 2024 oxidation states)
  --e-above-hull FILE.json
                        {"id": E above hull in eV/atom, or null for a failed job} for every prediction
  --energies E          total energies (eV, corrections included) per prediction: an .extxyz/.xyz file
                        (each frame's energy=, id= or the frame index), a .json {"id": eV or null},
                        or a .csv with columns id,energy; with --hull-reference instead of --e-above-hull
  --hull-reference R    reference entries for the convex hull: .jsonl (one entry a line) or .json array
                        of {"composition": {"Li": 2, "O": 1} or "Li2O", "energy": eV, "correction": eV}
                        (pymatgen ComputedEntry/PDEntry as_dict() included), or a .csv formula,energy.
                        Each prediction gets e_above_hull (eV/atom, negative below the hull) and its
                        decomposition {formula: fraction}, as pymatgen 2022.11's PhaseDiagram of the
                        reference entries in its chemical system gives them (get_e_above_hull with
                        allow_negative=True, as MatterGen); every element needs a pure reference entry
  --stability-threshold 0.1
                        eV/atom; a prediction is stable when its energy above hull is at most this
  --space-groups        each prediction's space group (spglib's, symprec 0.1 Å: number and symbol), and
                        the space-group and crystal-system distribution and the fraction in P1 of the
                        predictions and of the reference
  --workers N           worker threads (default: one per 500 predictions, up to the CPU count, at most
                        8; 0 or 1 = in this thread):
                        validity per prediction, novelty per prediction and uniqueness per reduced
                        formula run in parallel (uniqueness within one formula is greedy, so sequential);
                        the output is the same for any N
Structures must be ordered (one element per site); oxidation states are ignored.
There is no --shard: uniqueness compares every pair of predictions, so the set cannot be split by row.
A progress line is shown on standard error when it is a terminal.
`;

const CONVENTIONS: readonly DenovoConvention[] = ['diffcsp', 'cdvae', 'mattergen'];
const MATCHERS: readonly GenMatcherName[] = ['disordered', 'ordered'];

/**
 * The energies file: a JSON object {id: number | null} with an entry for every prediction. Keys go into
 * a Map (never onto an object's prototype); other keys are ignored. Every failure is a GenInputError, which `gen`
 * turns into exit 2.
 */
function readEnergies(path: string, preds: readonly GenItem[]): Map<string, number | null> {
  return energiesFor(path, parseEnergies(path, readInputText(path)), preds);
}

/** `--pt-evals`: a whole number (the eval) or 'all'; 0 by default (compute_metrics.py's batch_idx=0). */
function ptEvalsOption(v: string | boolean | undefined): number | 'all' {
  if (v === undefined) return 0;
  if (v === 'all') return 'all';
  if (typeof v === 'string' && /^\d{1,9}$/.test(v)) return Number(v);
  throw new CliError(`--pt-evals takes an eval number (0, 1, …) or all, not ${quoted(String(v))}`);
}

export async function runGenEval(argv: string[], warn: (line: string) => void): Promise<string> {
  const { positionals, options } = parseArgs(argv, [
    { name: 'pred', kind: 'string' },
    { name: 'reference', kind: 'string' },
    { name: 'truth', kind: 'string' },
    { name: 'matcher', kind: 'string' },
    { name: 'convention', kind: 'string' },
    { name: 'smact', kind: 'string' },
    { name: 'e-above-hull', kind: 'string' },
    { name: 'energies', kind: 'string' },
    { name: 'hull-reference', kind: 'string' },
    { name: 'stability-threshold', kind: 'string' },
    { name: 'space-groups', kind: 'flag' },
    { name: 'coverage', kind: 'string' },
    { name: 'cov-cutoffs', kind: 'string' },
    { name: 'pt-evals', kind: 'string' },
    { name: 'workers', kind: 'string' },
  ]);
  if (positionals.length > 0) throw new CliError(`gen eval takes no positional arguments (got ${quoted(positionals[0])}; see --help)`);
  if (typeof options.pred !== 'string') throw new CliError('gen eval needs --pred (a folder, .extxyz or .jsonl of generated structures)');
  const matcher = choiceOption<GenMatcherName>(options, 'matcher', MATCHERS, 'disordered');
  const convention = choiceOption<DenovoConvention>(options, 'convention', CONVENTIONS, 'diffcsp');
  const smact = choiceOption<SmactTable>(options, 'smact', SMACT_TABLES, 'legacy');
  const stabilityThreshold = numberOption(options, 'stability-threshold', 0.1, -Number.MAX_VALUE, Number.MAX_VALUE);
  const spaceGroups = options['space-groups'] === true;
  const requestedWorkers = genWorkers(options.workers);
  const str = (name: string): string | undefined => {
    const v = options[name];
    return typeof v === 'string' ? v : undefined;
  };
  const predictions = ptEvalsOf(readGenSet('prediction', options.pred), ptEvalsOption(options['pt-evals']));
  const referencePath = str('reference'),
    truthPath = str('truth'),
    energiesPath = str('e-above-hull');
  const reference = referencePath === undefined ? undefined : readGenSet('reference', referencePath);
  const truth = truthPath === undefined ? undefined : readGenSet('truth', truthPath);
  const coverage = coverageOption(options.coverage, options['cov-cutoffs']);
  if (coverage && truth === undefined) throw new CliError('--coverage compares the predictions with a test set: give it as --truth T');
  const hull = readHull(str('energies'), str('hull-reference'), energiesPath, predictions);
  const energies = hull ? hull.eAboveHull : energiesPath === undefined ? undefined : readEnergies(energiesPath, predictions);
  const workers = requestedWorkers ?? defaultGenWorkers(predictions.length);
  const progress = progressReporter('gen eval');
  const errors: string[] = [];
  const onMatcherError = (e: unknown, id: string, otherId: string) => errors.push(`${id} vs ${otherId}: ${errorText(e)}`);
  let result;
  try {
    const options = { convention, smact, matcher, stabilityThreshold, spaceGroups, onMatcherError, ...(coverage ? { coverage } : {}) };
    const input = { predictions, reference, truth, energies };
    if (workers <= 1) result = evaluateDenovo(input, options, (p) => progress.update(p.done, p.total));
    else {
      const taskErrors: TaskMatcherError[] = [];
      result = await evaluateInThreads(input, options, workers, warn, progress.update, taskErrors);
      for (const e of orderedErrors(taskErrors)) errors.push(`${e.id} vs ${e.other}: ${e.message}`);
    }
  } finally {
    progress.end();
  }
  if (errors.length > 0) {
    const pairs = `${errors.length} comparison${errors.length === 1 ? '' : 's'}`;
    warn(`warning: the matcher failed on ${pairs}, counted as no match (not a duplicate, not in the reference); first: ${errors[0]}`);
  }
  return toStrictJson(hull ? withDecompositions(result, hull.rows) : result);
}

const COVERAGE_DATASETS = Object.keys(COVERAGE_CUTOFFS) as CoverageDataset[];

/** `--coverage D` (a data set's cutoffs) and `--cov-cutoffs S,C` (given cutoffs, which win); undefined without either. */
function coverageOption(dataset: string | boolean | undefined, cutoffs: string | boolean | undefined): CoverageOptions | undefined {
  if (dataset === undefined && cutoffs === undefined) return undefined;
  if (dataset !== undefined && (typeof dataset !== 'string' || !(COVERAGE_DATASETS as string[]).includes(dataset)))
    throw new CliError(`--coverage must be ${COVERAGE_DATASETS.join(' or ')} (CDVAE's data sets), got ${quoted(String(dataset))}`);
  const preset = dataset === undefined ? null : COVERAGE_CUTOFFS[dataset as CoverageDataset];
  if (cutoffs === undefined) return { dataset: dataset as CoverageDataset, struc: preset!.struc, comp: preset!.comp };
  const parts = typeof cutoffs === 'string' ? cutoffs.split(',').map((x) => x.trim()) : [];
  const values = parts.map(Number);
  if (parts.length !== 2 || parts.some((x) => x === '') || !values.every((v) => Number.isFinite(v) && v >= 0))
    throw new CliError(`--cov-cutoffs takes two distances S,C (structure, composition; e.g. 0.4,10), got ${quoted(String(cutoffs))}`);
  return { dataset: null, struc: values[0], comp: values[1] };
}

/**
 * `--energies E --hull-reference R`: each prediction's energy above hull (src/core/tasks/generations/hull-inputs.ts);
 * undefined without them. Both or neither, and not with --e-above-hull.
 */
function readHull(
  energiesPath: string | undefined,
  referencePath: string | undefined,
  eAboveHullPath: string | undefined,
  preds: readonly GenItem[],
): { eAboveHull: Map<string, number | null>; rows: HullRow[] } | undefined {
  if (energiesPath === undefined && referencePath === undefined) return undefined;
  if (energiesPath === undefined || referencePath === undefined)
    throw new CliError('--energies and --hull-reference go together (total energies and the reference entries of the hull)');
  if (eAboveHullPath !== undefined)
    throw new CliError('--e-above-hull gives energies above hull ready-made; use it or --energies, not both');
  const totals = energiesFor(energiesPath, parseTotalEnergies(energiesPath, readInputText(energiesPath)), preds);
  const rows = hullRows(referencePath, parseHullReference(referencePath, readInputText(referencePath)), preds, totals);
  return { eAboveHull: new Map(preds.map((p, i) => [p.id, rows[i].e_above_hull])), rows };
}

/** The document with each row's `decomposition` placed after its `e_above_hull`. */
function withDecompositions(result: DenovoResult, rows: readonly HullRow[]): unknown {
  const perSample = result.per_sample.map((row, i) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(row)) {
      out[k] = v;
      if (k === 'e_above_hull') out.decomposition = rows[i].decomposition;
    }
    return out;
  });
  return { ...result, per_sample: perSample };
}

/**
 * evaluateDenovo in worker threads: rows (validity) and novelty in ranges of predictions, uniqueness one reduced
 * formula per task (largest first), each result put back at its prediction; then the same summary.
 */
async function evaluateInThreads(
  input: {
    predictions: GenItem[];
    reference: GenItem[] | undefined;
    truth: GenItem[] | undefined;
    energies: Map<string, number | null> | undefined;
  },
  options: {
    convention: DenovoConvention;
    smact: SmactTable;
    matcher: GenMatcherName;
    stabilityThreshold: number;
    spaceGroups: boolean;
    coverage?: CoverageOptions;
  },
  workers: number,
  warn: (line: string) => void,
  progress: (done: number, total: number) => void,
  errors: TaskMatcherError[],
): Promise<DenovoResult> {
  const preds = input.predictions;
  const n = preds.length;
  const byFormula = new Map<string, number[]>();
  preds.forEach((p, i) => {
    const f = reducedFormula(p.structure);
    const g = byFormula.get(f);
    if (g) g.push(i);
    else byFormula.set(f, [i]);
  });
  const uniqueTasks: EvalTask[] = [...byFormula.values()].sort((a, b) => b.length - a.length).map((members) => ({ unique: members }));
  const ranges = taskRanges(n, workers);
  const truth = options.coverage ? (input.truth ?? []) : [];
  const tasks: EvalTask[] = [
    ...uniqueTasks,
    ...(input.reference ? ranges.map((r): EvalTask => ({ novel: r })) : []),
    ...ranges.map((r): EvalTask => ({ rows: r })),
    ...(options.coverage
      ? [
          ...ranges.map((r): EvalTask => ({ fingerprints: r, of: 'predictions' })),
          ...taskRanges(truth.length, workers).map((r): EvalTask => ({ fingerprints: r, of: 'truth' })),
        ]
      : []),
  ];
  const fingerprints = { predictions: new Array<CoverageFingerprint>(n), truth: new Array<CoverageFingerprint>(truth.length) };
  const total = n + (options.coverage ? n + truth.length : 0);
  const rows: DenovoSample[] = new Array(n);
  const duplicates: (string | null)[] = new Array(n).fill(null);
  const matches: (string | null)[] = new Array(n).fill(null);
  // A prediction is decided once its uniqueness (and, with a reference, its novelty) is known.
  const pending = new Uint8Array(n).fill(input.reference ? 2 : 1);
  let decided = 0,
    fingerprinted = 0;
  const decide = (i: number) => {
    if (--pending[i] === 0) decided++;
  };
  const work = evalWork(preds, input.reference, options.coverage ? input.truth : undefined, options);
  await runPool({
    entry: 'gen-worker',
    workerData: work,
    tasks,
    threads: workers,
    local: localEvalRunner(preds, input.reference, options.coverage ? input.truth : undefined, work),
    warn,
    // Every result is kept anyway: a slow formula group never holds up the others.
    reorderWindow: Infinity,
    onResult: (k, r: EvalTaskResult) => {
      const task = tasks[k];
      if ('rows' in r && 'rows' in task) r.rows.forEach((row, j) => (rows[task.rows[0] + j] = row));
      else if ('duplicates' in r && 'unique' in task) {
        task.unique.forEach((i, j) => ((duplicates[i] = r.duplicates[j]), decide(i)));
        errors.push(...r.errors);
      } else if ('matches' in r && 'novel' in task) {
        r.matches.forEach((m, j) => ((matches[task.novel[0] + j] = m), decide(task.novel[0] + j)));
        errors.push(...r.errors);
      } else if ('fingerprints' in r && 'fingerprints' in task) {
        r.fingerprints.forEach((f, j) => (fingerprints[task.of][task.fingerprints[0] + j] = f));
        fingerprinted += r.fingerprints.length;
      }
      progress(decided + fingerprinted, total);
    },
  });
  rows.forEach((row, i) => {
    row.duplicate_of = duplicates[i];
    row.unique = duplicates[i] === null;
    if (input.reference) {
      row.reference_match = matches[i];
      row.novel = matches[i] === null;
    }
  });
  return denovoSummary(options.coverage ? { ...input, fingerprints } : input, rows, options);
}
