/** `structlab gen csp|…`: metrics of generated crystals (src/core/tasks/generations); reads the sets, dispatches. */
import {
  CSP_CONVENTIONS,
  type CspConvention,
  type CspGroupRows,
  cspGroupRows,
  cspSummary,
  cspTolerances,
} from '../../core/tasks/generations/csp.ts';
import { CSP_DEFAULT_TOLERANCES, CSP_PRESET_NAMES, type CspPreset, type CspTolerances } from '../../core/tasks/generations/tolerances.ts';
import { GenInputError, pairCsp } from '../../core/tasks/generations/inputs.ts';
import { SMACT_TABLES, type SmactTable } from '../../core/tasks/generations/smact.ts';
import { choiceOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { progressReporter } from '../progress.ts';
import { toStrictJson } from '../io.ts';
import { GEN_EVAL_HELP, runGenEval } from './gen-eval.ts';
import { readCspSets } from './gen-inputs.ts';
import { errorText } from '../../core/errors.ts';
import { runPool } from '../pool.ts';
import { type CspTaskResult, cspWork, defaultGenWorkers, genWorkers, localCspRunner, orderedErrors, taskRanges } from './gen-tasks.ts';
import { inShard, partialHead, shardOption } from '../shard.ts';
import { quoted } from '../../core/limits.ts';

type Warn = (line: string) => void;
type Subcommand = { help: string; run: (argv: string[], warn: Warn) => string | Promise<string> };

export const GEN_CSP_HELP = `usage: structlab gen csp --pred P --truth T [--n-samples 1] [--convention diffcsp|cdvae]
                          [--smact legacy|icsd24] [--tolerances cdvae|strict] [--stol S] [--ltol L]
                          [--angle-tol A] [--space-groups] [--workers N] [--shard I/N]

Crystal structure prediction metrics as DiffCSP and CDVAE compute them: match rate and RMSE of
StructureMatcher(ltol=0.3, stol=0.5, angle_tol=10).get_rms_dist(pred, truth) (rms normalised by
(V/n)^(1/3), unitless), structural and SMACT validity, one row per truth and per prediction.
The output's "tolerances" names the matcher's tolerances used.
  --pred P, --truth T   a folder of .cif/.vasp/.poscar/.json files, subfolders included (id = the path
                        below the folder without the ending, e.g. mattergen/chemical_system/HfZnN2),
                        one .extxyz/.xyz file (id = the frame's id=, else its index), one .jsonl file
                        of {"id": ..., "structure": <pymatgen Structure dict>} lines, one MP-20-style .csv
                        (id = material_id, structure = the cif column), or a .zip, .tar, .tar.gz/.tgz
                        or .gz of any of these (CrystaLLM's .tar.gz of CIFs). Chemeleon's results.csv
                        (ref_structure, gen_structure_n columns; also gzipped) is --pred and --truth at
                        once: --truth may be left out. A CDVAE/DiffCSP .pt result file (eval_recon.pt,
                        eval_diff.pt) as --pred: crystal i of eval k pairs with truth i of --truth (the
                        split's CSV, rows in the .pt's order, as compute_metrics.py --gt_file), or without
                        --truth with the .pt's input_data_batch when that is a dict of tensors
  --n-samples 1         predictions per truth; with K > 1 prediction ids read TRUTHID__k (best of K);
                        Chemeleon's results.csv: its number of gen_structure_n columns; a .pt: evals
                        0…K−1 (1 = compute_metrics.py's batch_idx=0, all evals = its --multi_eval)
  --convention diffcsp  diffcsp: with one sample a pair counts only when prediction and truth are
                        valid, and SMACT refuses more than 10^7 oxidation-state combinations;
                        cdvae: only the prediction's validity counts, no combination cut
  --smact legacy        legacy: SMACT 2.3-2.5 tables (missing electronegativity accepted);
                        icsd24: SMACT 3.0-3.2 (ICSD 2024 oxidation states)
  --tolerances cdvae    the matcher's tolerances: cdvae (stol 0.5, ltol 0.3, angle_tol 10; CDVAE and
                        DiffCSP) or strict (stol 0.3, ltol 0.2, angle_tol 5; as CrystaLLM reports)
  --stol S, --ltol L, --angle-tol A
                        explicit tolerances over the preset (above 0; angle in degrees, below 180)
  --space-groups        the space groups of truth and prediction per pair (spglib's, symprec 0.1 Å),
                        "same_space_group", and the match rate among same-space-group pairs (matches
                        across different space groups inflate match rates, pymatgen #3796)
  --workers N           worker threads sharing the truths (default: one per 500 pairs, up to the CPU
                        count, at most 8; 0 or 1 = in this thread); the output is the same for any N
  --shard I/N           score only the truths k (in id order) with k mod N = I and print a partial
                        report; structlab merge combines the N partial reports into this report
                        (docs/scale-out.md)
Structures must be ordered (one element per site); oxidation states are ignored.
A progress line is shown on standard error when it is a terminal.
`;

/** The subcommands (a Map: the name is user input). A new subcommand is one entry here and one line in GEN_HELP. */
const SUBCOMMANDS = new Map<string, Subcommand>([
  ['csp', { help: GEN_CSP_HELP, run: runGenCsp }],
  ['eval', { help: GEN_EVAL_HELP, run: runGenEval }],
]);

export const GEN_HELP = `usage: structlab gen <csp|eval> ...

  csp --pred P --truth T    crystal structure prediction: match rate, RMSE, validity (DiffCSP / CDVAE)
  eval --pred P             de novo generation: validity, uniqueness, novelty, Wasserstein, S.U.N. (MatterGen)

Run 'structlab gen <subcommand> --help' for its options.
`;

/** The name is user input: quoted short (a 100,000-character argument is not echoed whole). */
const unknownSubcommand = (name: string) =>
  `unknown gen subcommand ${quoted(name)} (available: ${[...SUBCOMMANDS.keys()].join(', ')}; see structlab gen --help)`;

export async function runGen(argv: string[], warn: Warn): Promise<string> {
  const [name, ...rest] = argv;
  const sub = name === undefined ? undefined : SUBCOMMANDS.get(name);
  const names = [...SUBCOMMANDS.keys()].join(', ');
  if (!sub) {
    throw new CliError(name === undefined ? `gen needs a subcommand: ${names} (see structlab gen --help)` : unknownSubcommand(name));
  }
  try {
    return await sub.run(rest, warn);
  } catch (e) {
    if (e instanceof GenInputError) throw new CliError(e.message);
    throw e;
  }
}

export function genHelp(argv: string[]): string {
  const name = argv[0];
  if (name === undefined || name.startsWith('-')) return GEN_HELP;
  const sub = SUBCOMMANDS.get(name);
  if (!sub) throw new CliError(unknownSubcommand(name));
  return sub.help;
}

async function runGenCsp(argv: string[], warn: Warn): Promise<string> {
  const { positionals, options } = parseArgs(argv, [
    { name: 'pred', kind: 'string' },
    { name: 'truth', kind: 'string' },
    { name: 'n-samples', kind: 'string' },
    { name: 'convention', kind: 'string' },
    { name: 'smact', kind: 'string' },
    { name: 'tolerances', kind: 'string' },
    { name: 'stol', kind: 'string' },
    { name: 'ltol', kind: 'string' },
    { name: 'angle-tol', kind: 'string' },
    { name: 'space-groups', kind: 'flag' },
    { name: 'workers', kind: 'string' },
    { name: 'shard', kind: 'string' },
  ]);
  if (positionals.length > 0) throw new CliError(`gen csp takes no positional arguments (got ${quoted(positionals[0])}; see --help)`);
  if (typeof options.pred !== 'string') throw new CliError('gen csp needs --pred (a folder, .extxyz or .jsonl of predictions)');
  const rawK = options['n-samples'];
  let nSamples = rawK === undefined ? 1 : Number(rawK);
  if (typeof rawK === 'string' && (!/^\s*\d+\s*$/.test(rawK) || !Number.isSafeInteger(nSamples) || nSamples < 1))
    throw new CliError(`--n-samples must be a whole number ≥ 1, got ${quoted(String(rawK))}`);
  const convention = choiceOption<CspConvention>(options, 'convention', CSP_CONVENTIONS, 'diffcsp');
  const smact = choiceOption<SmactTable>(options, 'smact', SMACT_TABLES, 'legacy');
  const tolerances = tolerancesOption(options);
  const spaceGroups = options['space-groups'] === true;
  const requestedWorkers = genWorkers(options.workers);
  const shard = shardOption(options.shard);
  // Without --truth the prediction file holds the truths too (Chemeleon's results.csv), and its samples per truth.
  const { preds, truths, samples } = readCspSets(options.pred, typeof options.truth === 'string' ? options.truth : undefined);
  if (rawK === undefined && samples !== null) nSamples = samples;
  const allGroups = pairCsp(preds, truths, nSamples);
  // Truths are independent: a shard scores its share (k mod N, in id order) and merge puts the rows back.
  const index = allGroups.map((_, k) => k).filter((k) => inShard(shard, k));
  const groups = shard ? index.map((k) => allGroups[k]) : allGroups;
  const workers = requestedWorkers ?? defaultGenWorkers(groups.reduce((n, g) => n + g.samples.length, 0));
  const progress = progressReporter('gen csp');
  const errors: string[] = [];
  let rows: CspGroupRows[];
  try {
    if (workers <= 1) {
      const options = {
        convention,
        smact,
        tolerances,
        spaceGroups,
        onMatcherError: (e: unknown, id: string, k: number) => {
          errors.push(`${id}${nSamples > 1 ? `__${k}` : ''}: ${errorText(e)}`);
        },
      };
      rows = groups.map((g, done) => {
        const r = cspGroupRows(g, nSamples, options);
        progress.update(done + 1, groups.length);
        return r;
      });
    } else {
      // Truths are independent: ranges of them run in worker threads; rows are placed back in truth order.
      const work = cspWork(groups, nSamples, { convention, smact, tolerances, spaceGroups });
      const tasks = taskRanges(groups.length, workers);
      const results: CspTaskResult[] = new Array(tasks.length);
      let done = 0;
      await runPool({
        entry: 'gen-worker',
        workerData: work,
        tasks,
        threads: workers,
        local: localCspRunner(groups, work),
        warn,
        // Every result is kept anyway: a slow range never holds up the others.
        reorderWindow: Infinity,
        onResult: (k, r: CspTaskResult) => {
          results[k] = r;
          done += r.rows.length;
          progress.update(done, groups.length);
        },
      });
      rows = results.flatMap((r) => r.rows);
      for (const e of orderedErrors(results.flatMap((r) => r.errors)))
        errors.push(`${e.id}${nSamples > 1 ? `__${e.other}` : ''}: ${e.message}`);
    }
  } finally {
    progress.end();
  }
  if (errors.length > 0) {
    warn(
      `warning: the matcher failed on ${errors.length} pair${errors.length === 1 ? '' : 's'}, counted as unmatched (matcher_error), ` +
        `as upstream's try/except does; first: ${errors[0]}`,
    );
  }
  if (shard) {
    return toStrictJson({
      // The tolerances travel with the partial: merge rebuilds the report with them (and refuses a set that differs).
      partial: partialHead('gen csp', shard, {
        n_samples: nSamples,
        convention,
        smact,
        tolerances: { ...tolerances },
        ...(spaceGroups ? { space_groups: true } : {}),
      }),
      total: allGroups.length,
      index,
      rows,
    });
  }
  return genCspReport(rows, nSamples, convention, smact, tolerances, spaceGroups);
}

/** `--tolerances` with `--stol`, `--ltol` and `--angle-tol` over it; bad values are one sentence (exit 2). */
function tolerancesOption(options: Record<string, string | boolean>): CspTolerances {
  const preset = choiceOption<CspPreset>(options, 'tolerances', CSP_PRESET_NAMES, 'cdvae');
  const explicit = (name: string): number | undefined => {
    const raw = options[name];
    if (raw === undefined) return undefined;
    const v = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    if (!Number.isFinite(v)) throw new CliError(`--${name} must be a number above 0, got ${quoted(String(raw))}`);
    return v;
  };
  return cspTolerances(preset, { stol: explicit('stol'), ltol: explicit('ltol'), angle_tol: explicit('angle-tol') });
}

/** The report of an unsharded run; `structlab merge` builds it from partial reports with this same function (rows
 * with space groups give their summary). */
export function genCspReport(
  rows: readonly CspGroupRows[],
  nSamples: number,
  convention: CspConvention,
  smact: SmactTable,
  tolerances: CspTolerances = CSP_DEFAULT_TOLERANCES,
  spaceGroups = false,
): string {
  return toStrictJson(cspSummary(rows, nSamples, { convention, smact, tolerances, spaceGroups }));
}
