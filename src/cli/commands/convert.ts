import { readFileSync, statSync } from 'node:fs';
import { writeStructureFile } from '../../core/io/registry.ts';
import { readTorchPt } from '../../core/io/torch-pt.ts';
import { ParseError } from '../../core/io/types.ts';
import { inputBytesProblem } from '../../core/limits.ts';
import { PtCrystalError, ptItems } from '../../core/tasks/generations/pt-crystals.ts';
import { symmetrizedCif } from '../../core/io/cif-symmetrized.ts';
import { symmetryUnavailable } from '../../core/symmetry/analyze.ts';
import type { Structure } from '../../core/structure/structure.ts';
import { type ParsedArgs, numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { type OutputOptions, checkOutputFile, loadStructureFile, toStrictJson, writeOutputSafely } from '../io.ts';

export const CONVERT_HELP = `usage: structlab convert IN OUT [--index K] [--force] [--symmetrize [--symprec 0.01]]

Converts a structure file; the output format comes from OUT's name: .cif, .xyz, .extxyz,
POSCAR / CONTCAR / .vasp / .poscar, .json (pymatgen Structure.as_dict layout).
A CDVAE/DiffCSP .pt result file (eval_gen.pt, eval_diff.pt, …) gives its crystals as compute_metrics.py
builds them, id = batch index (i__k for eval k); to .extxyz/.xyz all of them are written, one frame each.
  --index K   which structure of a multi-structure input to write (0-based, default 0)
  --force     replace OUT if it exists (OUT may never be IN; the file is written whole or not at all)
  --symmetrize  (OUT.cif only) write spglib's conventional cell with its space group, every operation and
              one _atom_site row per orbit and species; --symprec S is the tolerance in Å (default 0.01)
Prints {"written": OUT, "nsites": N} (with --symmetrize also "spacegroup": {"number", "symbol"}).
`;

export function runConvert(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'index', kind: 'string' },
    { name: 'force', kind: 'flag' },
    { name: 'symmetrize', kind: 'flag' },
    { name: 'symprec', kind: 'string' },
  ]);
  if (positionals.length !== 2) throw new CliError('convert takes IN and OUT (see structlab convert --help)');
  const [input, output] = positionals;
  const outputOptions = { force: options.force === true, inputs: [input] };
  checkOutputFile(output, outputOptions);
  const pt = /\.pt$/i.test(input);
  const loaded = pt ? { path: input, structures: loadPt(input) } : loadStructureFile(input);
  const count = loaded.structures.length;
  const index = numberOption(options, 'index', 0, 0, count - 1);
  if (!Number.isInteger(index)) throw new CliError(`--index must be a whole number, got ${index}`);
  if (pt && options.index === undefined && /\.(ext)?xyz$/i.test(output) && options.symmetrize !== true) {
    const frames = loaded.structures.map((s) => writeOrRefuse(s, output));
    writeOutputSafely(output, frames.join(''), outputOptions);
    return toStrictJson({ written: output, nstructures: count, nsites: loaded.structures.reduce((n, s) => n + s.sites.length, 0) });
  }
  if (count > 1 && options.index === undefined) {
    warn(`warning: ${loaded.path} holds ${count} structures; writing the first (choose another with --index)`);
  }
  const structure = loaded.structures[index];
  if (options.symmetrize === true) return writeSymmetrized(structure, loaded.path, output, outputOptions, options);
  if (options.symprec !== undefined) throw new CliError('--symprec applies only with --symmetrize');
  writeOutputSafely(output, writeOrRefuse(structure, output), outputOptions);
  return toStrictJson({ written: output, nsites: structure.sites.length });
}

function writeOrRefuse(structure: Structure, output: string): string {
  try {
    return writeStructureFile(structure, output);
  } catch (e) {
    throw new CliError(`${output}: ${e instanceof Error ? e.message.replace(/\.\s*$/, '') : String(e)}`);
  }
}

/** The crystals of a .pt result file (pt-crystals.ts), each named and tagged `id=` by its batch index and eval. */
function loadPt(path: string): Structure[] {
  let bytes: Uint8Array;
  try {
    const tooBig = inputBytesProblem(path, statSync(path).size);
    if (tooBig) throw new CliError(tooBig);
    bytes = readFileSync(path);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    return ptItems(readTorchPt(bytes, path), path, 'predictions').map((it) => ({
      ...it.structure,
      name: it.id,
      properties: { id: it.id },
    }));
  } catch (e) {
    if (e instanceof ParseError || e instanceof PtCrystalError) throw new CliError(e.message.replace(/\.\s*$/, ''));
    throw e;
  }
}

/** `--symmetrize`: pymatgen's symmetrized CIF (pymatgen/io/cif.py CifWriter; this repository's docs/crystallography.md). */
function writeSymmetrized(
  s: Structure,
  path: string,
  output: string,
  outputOptions: OutputOptions,
  options: ParsedArgs['options'],
): string {
  if (!/\.cif$/i.test(output)) throw new CliError(`--symmetrize writes CIF only; ${output} does not end in .cif`);
  const symprec = numberOption(options, 'symprec', 0.01, 1e-8, 10);
  if (!s.lattice) throw new CliError(`${path}: --symmetrize needs a periodic structure with a lattice; this one is finite`);
  const cif = symmetrizedCif(s, symprec);
  if (!cif) {
    const why = symmetryUnavailable(s, symprec);
    throw new CliError(`${path}: symmetry search failed${why ? ` (${why})` : ''}`);
  }
  writeOutputSafely(output, cif.text, outputOptions);
  return toStrictJson({ written: output, nsites: cif.nsites, spacegroup: { number: cif.number, symbol: cif.symbol } });
}
