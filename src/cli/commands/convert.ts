import { writeStructureFile } from '../../core/io/registry.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { checkOutputFile, loadStructureFile, toStrictJson, writeOutputSafely } from '../io.ts';

export const CONVERT_HELP = `usage: structlab convert IN OUT [--index K] [--force]

Converts a structure file; the output format comes from OUT's name: .cif, .xyz, .extxyz,
POSCAR / CONTCAR / .vasp / .poscar, .json (pymatgen Structure.as_dict layout).
  --index K   which structure of a multi-structure input to write (0-based, default 0)
  --force     replace OUT if it exists (OUT may never be IN; the file is written whole or not at all)
Prints {"written": OUT, "nsites": N}.
`;

export function runConvert(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'index', kind: 'string' },
    { name: 'force', kind: 'flag' },
  ]);
  if (positionals.length !== 2) throw new CliError('convert takes IN and OUT (see structlab convert --help)');
  const [input, output] = positionals;
  const outputOptions = { force: options.force === true, inputs: [input] };
  checkOutputFile(output, outputOptions);
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
  writeOutputSafely(output, text, outputOptions);
  return toStrictJson({ written: output, nsites: structure.sites.length });
}
