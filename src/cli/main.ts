/** The `structlab` command: parse arguments, call the core, print JSON. Nothing else lives here. */
import { initMoyoNodeLazily } from '../node/moyo.ts';
import { ATOMWORLD_HELP, atomworldHelp, runAtomworld } from './commands/atomworld.ts';
import { C2NP_HELP, runC2np } from './commands/c2np.ts';
import { CARVE_HELP, runCarve } from './commands/carve.ts';
import { CONVERT_HELP, runConvert } from './commands/convert.ts';
import { FEM_HELP, runFem } from './commands/fem.ts';
import { INFO_HELP, runInfo } from './commands/info.ts';
import { INVERSE_HELP, runInverse } from './commands/inverse.ts';
import { MATCH_HELP, runMatch } from './commands/match.ts';
import { METRICS_HELP, runMetrics } from './commands/metrics.ts';
import { ONNG_HELP, runOnng } from './commands/onng.ts';
import { CliError } from './errors.ts';

const MAIN_HELP = `usage: structlab <command> [options]

Commands:
  info FILE       structure summary as JSON (formula, sites, lattice, space group)
  convert IN OUT  convert between CIF, POSCAR, XYZ, extended XYZ and pymatgen JSON
  metrics PRED TRUTH  C2NP particle metrics (RMSD, Hausdorff, hull volumes, RDF error, aligned RMSD)
  carve CELL      carve a spherical nanoparticle (C2NP/Atomsk convention) to an XYZ file
  c2np build CELL build the C2NP dataset layout for one material (raw, rotated copies, manifest)
  inverse PARTICLE  recover lattice parameters and space group of the bulk crystal from a particle
  match A B       pymatgen StructureMatcher verdict, rms and max_dist for two structures
  atomworld ...   AtomWorld: apply an action, evaluate one answer, evaluate a batch
  fem ...         FEM-Bench: list tasks, run the reference solvers, check a model's outputs
  onng ...        O-NNG: obfuscate the problem set at noise level λ, analyse results

Run 'structlab <command> --help' for a command's options.
`;

interface Command {
  help: string;
  /** Help for a subcommand, when the command has them. */
  helpFor?(argv: string[]): string;
  /** The JSON (or text) printed on stdout; commands that wait on worker threads return a promise. */
  run(argv: string[], warn: (line: string) => void): string | Promise<string>;
}

const COMMANDS: Record<string, Command> = {
  info: { help: INFO_HELP, run: (argv) => runInfo(argv) },
  convert: { help: CONVERT_HELP, run: runConvert },
  metrics: { help: METRICS_HELP, run: runMetrics },
  carve: { help: CARVE_HELP, run: runCarve },
  c2np: { help: C2NP_HELP, run: runC2np },
  inverse: { help: INVERSE_HELP, run: runInverse },
  match: { help: MATCH_HELP, run: runMatch },
  atomworld: { help: ATOMWORLD_HELP, helpFor: atomworldHelp, run: runAtomworld },
  fem: { help: FEM_HELP, run: runFem },
  onng: { help: ONNG_HELP, run: runOnng },
};

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Runs one command; returns the exit status (a promise for asynchronous commands). Never throws or rejects. */
export function main(argv: string[], io: CliIo): number | Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(MAIN_HELP);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`error: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.helpFor?.(rest) ?? command.help);
    return 0;
  }
  const succeed = (out: string) => { io.stdout(`${out}\n`); return 0; };
  try {
    initMoyoNodeLazily();
    const out = command.run(rest, (line) => io.stderr(`${line}\n`));
    return typeof out === 'string' ? succeed(out) : out.then(succeed, (e: unknown) => fail(e, io));
  } catch (e) {
    return fail(e, io);
  }
}

function fail(e: unknown, io: CliIo): number {
  if (e instanceof CliError) {
    io.stderr(`error: ${e.message}\n`);
    return e.exitCode;
  }
  // An internal fault: still one sentence, no stack trace (set STRUCTLAB_DEBUG=1 to see it).
  if (process.env.STRUCTLAB_DEBUG) io.stderr(`${(e as Error)?.stack ?? e}\n`);
  io.stderr(`error: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  return 1;
}
