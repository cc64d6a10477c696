/** The `structlab` command: parse arguments, call the core, print JSON. Nothing else lives here. */
import { initMoyoNodeLazily } from '../node/moyo.ts';
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

/**
 * Each command's module is loaded only when it runs (the bundle splits them into chunks), so a command
 * starts without compiling the others.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  info: async () => { const m = await import('./commands/info.ts'); return { help: m.INFO_HELP, run: (argv) => m.runInfo(argv) }; },
  convert: async () => { const m = await import('./commands/convert.ts'); return { help: m.CONVERT_HELP, run: m.runConvert }; },
  metrics: async () => { const m = await import('./commands/metrics.ts'); return { help: m.METRICS_HELP, run: m.runMetrics }; },
  carve: async () => { const m = await import('./commands/carve.ts'); return { help: m.CARVE_HELP, run: m.runCarve }; },
  c2np: async () => { const m = await import('./commands/c2np.ts'); return { help: m.C2NP_HELP, run: m.runC2np }; },
  inverse: async () => { const m = await import('./commands/inverse.ts'); return { help: m.INVERSE_HELP, run: m.runInverse }; },
  match: async () => { const m = await import('./commands/match.ts'); return { help: m.MATCH_HELP, run: m.runMatch }; },
  atomworld: async () => {
    const m = await import('./commands/atomworld.ts');
    return { help: m.ATOMWORLD_HELP, helpFor: m.atomworldHelp, run: m.runAtomworld };
  },
  fem: async () => { const m = await import('./commands/fem.ts'); return { help: m.FEM_HELP, run: m.runFem }; },
  onng: async () => { const m = await import('./commands/onng.ts'); return { help: m.ONNG_HELP, run: m.runOnng }; },
};

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Runs one command; resolves to the exit status. Never throws or rejects. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(MAIN_HELP);
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.stderr(`error: unknown command "${name}" (commands: ${Object.keys(COMMANDS).join(', ')})\n`);
    return 2;
  }
  try {
    const command = await load();
    if (rest.includes('--help') || rest.includes('-h')) {
      io.stdout(command.helpFor?.(rest) ?? command.help);
      return 0;
    }
    initMoyoNodeLazily();
    io.stdout(`${await command.run(rest, (line) => io.stderr(`${line}\n`))}\n`);
    return 0;
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
