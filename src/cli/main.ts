/** The `structlab` command: parse arguments, call the core, print JSON. Nothing else lives here. */
import { overrideLimits, printable, resetLimits, setLimitHint } from '../core/limits.ts';
import { initMoyoNodeLazily } from '../node/moyo.ts';
import { cliLimitHint, inputFailure, streamFailureLine } from './errors.ts';

export { streamFailureLine };
import { errorText } from '../core/errors.ts';

const MAIN_HELP = `usage: structlab <command> [options]

Commands:
  info FILE       structure summary as JSON (formula, sites, lattice, space group)
  convert IN OUT  convert between CIF, POSCAR, XYZ, extended XYZ and pymatgen JSON
  metrics PRED TRUTH  C2NP particle metrics (RMSD, Hausdorff, hull volumes, RDF error, aligned RMSD)
  carve CELL      carve a nanoparticle to an XYZ file: a sphere (C2NP/Atomsk convention), a Wulff polyhedron, ASE shapes
  cluster KIND    build an ASE 3.22.1 nanoparticle: icosahedron, decahedron, octahedron, fcc, bcc, sc, wulff
  series          one shape over many sizes: surface fraction, coordination by site, facets, Debye width
  c2np build CELL build the C2NP dataset layout for one material (raw, rotated copies, manifest)
  c2np eval ...   C2NP metrics of a whole split (JSONL or two folders), streamed, shardable
  merge PARTIAL…  combine the partial reports of --shard I/N runs into the unsharded report
  inverse PARTICLE  recover lattice parameters and space group of the bulk crystal from a particle
  match A B       pymatgen StructureMatcher verdict, rms and max_dist for two structures
  atomworld ...   AtomWorld: apply an action, evaluate one answer, evaluate a batch
  fem ...         FEM-Bench: list tasks, run the reference solvers, check a model's outputs
  onng ...        O-NNG: obfuscate the problem set at noise level λ, analyse results
  gen ...         generated crystals: CSP match rate and RMSE, validity (DiffCSP / CDVAE / MatterGen)
  symmetry FILE   spglib symmetry dataset: space group, operations, Wyckoff sites, standard cells
  xrd FILE        powder X-ray pattern as pymatgen's XRDCalculator (peaks, hkl families, d-spacings)
  xrd-compare PRED TRUTH  similarity of two powder patterns (cosine, Pearson, weighted cross-correlation)
  env FILE        local environments: neighbours, coordination, bond lengths and angles, RDF
  planes FILE --hkl LIST  lattice planes: d-spacing, normal, intercepts and the polygon in the cell
  traj FILE       per-frame numbers of a trajectory: energy, max force, stress, cell, min distance, space group, match

Run 'structlab <command> --help' for a command's options.

Exit status: 0 success, 2 bad input or usage (one sentence on stderr, nothing on stdout), 1 an internal
error (a bug: one line; set STRUCTLAB_DEBUG=1 to print its stack trace as well).
Commands that write files refuse to replace an existing file, a non-empty folder or one of their
inputs; --force allows the first two, never the last.

Resource limits (sizes, counts, work; the README lists them) refuse what would not finish in seconds.
A refusal names its limit; raise it for one run with --limit NAME=VALUE before or after the command,
e.g. 'structlab --limit atoms=400000 info big.cif' (repeatable; the run may then take longer).
`;

interface Command {
  help: string;
  /** Help for a subcommand, when the command has them. */
  helpFor?(argv: string[]): string;
  /** The JSON (or text) printed on stdout; commands that wait on worker threads return a promise. */
  run(argv: string[], warn: (line: string) => void): string | Promise<string>;
}

/**
 * Each command's module is loaded only when it runs (the bundle splits them into chunks), so a command
 * starts without compiling the others.
 */
const COMMAND_TABLE: Record<string, () => Promise<Command>> = {
  info: async () => {
    const m = await import('./commands/info.ts');
    return { help: m.INFO_HELP, run: (argv) => m.runInfo(argv) };
  },
  convert: async () => {
    const m = await import('./commands/convert.ts');
    return { help: m.CONVERT_HELP, run: m.runConvert };
  },
  metrics: async () => {
    const m = await import('./commands/metrics.ts');
    return { help: m.METRICS_HELP, run: m.runMetrics };
  },
  carve: async () => {
    const m = await import('./commands/carve.ts');
    return { help: m.CARVE_HELP, run: m.runCarve };
  },
  cluster: async () => {
    const m = await import('./commands/cluster.ts');
    return { help: m.CLUSTER_HELP, run: (argv) => m.runCluster(argv) };
  },
  series: async () => {
    const m = await import('./commands/series.ts');
    return { help: m.SERIES_HELP, run: m.runSeries };
  },
  c2np: async () => {
    const m = await import('./commands/c2np.ts');
    return { help: m.C2NP_HELP, helpFor: m.c2npHelp, run: m.runC2np };
  },
  inverse: async () => {
    const m = await import('./commands/inverse.ts');
    return { help: m.INVERSE_HELP, run: m.runInverse };
  },
  match: async () => {
    const m = await import('./commands/match.ts');
    return { help: m.MATCH_HELP, run: m.runMatch };
  },
  atomworld: async () => {
    const m = await import('./commands/atomworld.ts');
    return { help: m.ATOMWORLD_HELP, helpFor: m.atomworldHelp, run: m.runAtomworld };
  },
  fem: async () => {
    const m = await import('./commands/fem.ts');
    return { help: m.FEM_HELP, run: m.runFem };
  },
  onng: async () => {
    const m = await import('./commands/onng.ts');
    return { help: m.ONNG_HELP, run: m.runOnng };
  },
  merge: async () => {
    const m = await import('./commands/merge.ts');
    return { help: m.MERGE_HELP, run: (argv) => m.runMerge(argv) };
  },
  gen: async () => {
    const m = await import('./commands/gen.ts');
    return { help: m.GEN_HELP, helpFor: m.genHelp, run: m.runGen };
  },
  symmetry: async () => {
    const m = await import('./commands/symmetry.ts');
    return { help: m.SYMMETRY_HELP, run: (argv) => m.runSymmetry(argv) };
  },
  xrd: async () => {
    const m = await import('./commands/xrd.ts');
    return { help: m.XRD_HELP, run: (argv) => m.runXrd(argv) };
  },
  'xrd-compare': async () => {
    const m = await import('./commands/xrd-compare.ts');
    return { help: m.XRD_COMPARE_HELP, run: (argv) => m.runXrdCompare(argv) };
  },
  env: async () => {
    const m = await import('./commands/env.ts');
    return { help: m.ENV_HELP, run: (argv) => m.runEnv(argv) };
  },
  planes: async () => {
    const m = await import('./commands/planes.ts');
    return { help: m.PLANES_HELP, run: (argv) => m.runPlanes(argv) };
  },
  traj: async () => {
    const m = await import('./commands/traj.ts');
    return { help: m.TRAJ_HELP, run: m.runTraj };
  },
};
/** Looked up with user input, so a Map: "constructor" or "__proto__" must not find Object.prototype's. */
const COMMANDS = new Map(Object.entries(COMMAND_TABLE));

/** Longest message echoed: enough for a sentence with two paths, short enough for a terminal. */
const MESSAGE_CHARS = 2000;

/** One line as the terminal receives it: control characters (newlines included) escaped, length capped. */
const line = (text: string): string => `${printable(text, MESSAGE_CHARS)}\n`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

// Refusals name the option that raises their limit.
setLimitHint(cliLimitHint);

/** Takes every `--limit NAME=VALUE` (or `--limit=NAME=VALUE`) out of argv, wherever it stands; returns the overrides. */
function takeLimitOptions(argv: string[]): { rest: string[]; overrides: Record<string, number> } {
  const rest: string[] = [];
  const overrides: Record<string, number> = Object.create(null);
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    if (arg === '--') {
      rest.push(...argv.slice(k));
      break;
    }
    let spec: string | undefined;
    if (arg === '--limit') spec = argv[++k];
    else if (arg.startsWith('--limit=')) spec = arg.slice('--limit='.length);
    else {
      rest.push(arg);
      continue;
    }
    const eq = spec?.indexOf('=') ?? -1;
    const value = eq > 0 ? Number(spec!.slice(eq + 1)) : NaN;
    if (spec === undefined || eq <= 0 || spec.slice(eq + 1).trim() === '' || !Number.isFinite(value)) {
      throw new UsageError(`--limit needs NAME=VALUE with a number, e.g. --limit atoms=400000; got "${printable(spec ?? '')}"`);
    }
    overrides[spec!.slice(0, eq)] = value;
  }
  return { rest, overrides };
}

class UsageError extends Error {}

/** Runs one command; resolves to the exit status. Never throws or rejects. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  let taken: ReturnType<typeof takeLimitOptions>;
  try {
    taken = takeLimitOptions(argv);
    overrideLimits(taken.overrides);
  } catch (e) {
    resetLimits();
    io.stderr(line(`error: ${errorText(e)}`));
    return 2;
  }
  try {
    return await runCommand(taken.rest, io);
  } finally {
    resetLimits();
  }
}

async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(MAIN_HELP);
    return 0;
  }
  if (!name) {
    io.stderr(line(`error: no command given (commands: ${[...COMMANDS.keys()].join(', ')}; see structlab --help)`));
    return 2;
  }
  const load = COMMANDS.get(name);
  if (!load) {
    io.stderr(line(`error: unknown command "${printable(name)}" (commands: ${[...COMMANDS.keys()].join(', ')})`));
    return 2;
  }
  const early = earlyPoolEntry(name, rest);
  try {
    // The pool module (and node:worker_threads, ~2 ms) is loaded only by a command that starts its thread early.
    if (early) (await import('./pool.ts')).startEarlyPoolThread(early);
    const command = await load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(command.helpFor?.(rest) ?? command.help);
      return 0;
    }
    initMoyoNodeLazily();
    // Warnings are held until the command succeeds: a failure prints its one sentence alone.
    const warnings: string[] = [];
    const output = await command.run(rest, (text) => {
      warnings.push(line(text));
    });
    for (const w of warnings) io.stderr(w);
    io.stdout(`${output}\n`);
    return 0;
  } catch (e) {
    return fail(e, io);
  } finally {
    if (early) (await import('./threads.ts')).endEarlyWorkers();
  }
}

/**
 * The pool thread a batch command will start, started before its module is even loaded (src/cli/threads.ts,
 * `startEarlyWorker`): `atomworld eval` unless it asks for help or for no threads (`--workers 0`).
 */
function earlyPoolEntry(name: string, rest: string[]): string | null {
  if (name !== 'atomworld' || rest[0] !== 'eval' || rest.includes('--help') || rest.includes('-h')) return null;
  const at = rest.findIndex((a) => a === '--workers' || a.startsWith('--workers='));
  const workers = at < 0 ? null : rest[at].startsWith('--workers=') ? rest[at].slice('--workers='.length) : rest[at + 1];
  return workers !== null && Number(workers) === 0 ? null : 'atomworld-eval-worker';
}

function fail(e: unknown, io: CliIo): number {
  const known = inputFailure(e);
  if (known) {
    io.stderr(line(`error: ${known.message}`));
    return known.exitCode;
  }
  // A bug: still one line, no stack trace unless STRUCTLAB_DEBUG=1 (documented in the main --help).
  if (process.env.STRUCTLAB_DEBUG && process.env.STRUCTLAB_DEBUG !== '0') io.stderr(`${(e as Error)?.stack ?? String(e)}\n`);
  let what: string;
  try {
    what = errorText(e);
  } catch {
    what = 'an unprintable value was thrown';
  }
  io.stderr(line(`error: internal error: ${what} (set STRUCTLAB_DEBUG=1 for the stack trace)`));
  return 1;
}
