import { writeStructureFile } from '../../core/io/registry.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { loadStructureFile, toStrictJson, writeOutputFile } from '../io.ts';

export const CONVERT_HELP = `usage: structlab convert IN OUT [--index K]

Converts a structure file; the output format comes from OUT's name: .cif, .xyz, .extxyz,
POSCAR / CONTCAR / .vasp / .poscar, .json (pymatgen Structure.as_dict layout).
  --index K   which structure of a multi-structure input to write (0-based, default 0)
Prints {"written": OUT, "nsites": N}.
`;

export function runConvert(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [{ name: 'index', kind: 'string' }]);
  if (positionals.length !== 2) throw new CliError('convert takes IN and OUT (see structlab convert --help)');
  const [input, output] = positionals;
  const loaded = loadStructureFile(input);
  const count = loaded.structures.length;
  const index = numberOption(options, 'index', 0, 0, count - 1);
  if (!Number.isInteger(index)) throw new CliError(`--index must be a whole number, got ${index}`);
  if (count > 1 && options.index === undefined) {
    warn(`warning: ${loaded.path} holds ${count} structures; writing the first (choose another with --index)`);
  }
  const structure = loaded.structures[index];
  let text: string;
  try {
    text = writeStructureFile(structure, output);
  } catch (e) {
    throw new CliError(`${output}: ${e instanceof Error ? e.message.replace(/\.\s*$/, '') : String(e)}`);
  }
  writeOutputFile(output, text);
  return toStrictJson({ written: output, nsites: structure.sites.length });
}
