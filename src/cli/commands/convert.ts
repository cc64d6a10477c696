import { type Stats, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
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
import {
  type OutputOptions,
  checkOutputDir,
  checkOutputFile,
  loadStructureFile,
  toStrictJson,
  writeOutputDir,
  writeOutputSafely,
} from '../io.ts';

export const CONVERT_HELP = `usage: structlab convert IN OUT [--index K] [--force] [--symmetrize [--symprec 0.01]]
       structlab convert IN OUTDIR --to cif [--force]

Converts a structure file; the output format comes from OUT's name: .cif, .xyz, .extxyz,
POSCAR / CONTCAR / .vasp / .poscar, .json (pymatgen Structure.as_dict layout).
A CDVAE/DiffCSP .pt result file (eval_gen.pt, eval_diff.pt, …) gives its crystals as compute_metrics.py
builds them, id = batch index (i__k for eval k); to .extxyz/.xyz all of them are written, one frame each.
  --index K   which structure of a multi-structure input to write (0-based, default 0)
  --force     replace OUT if it exists (OUT may never be IN; the file is written whole or not at all)
  --symmetrize  (OUT.cif only) write spglib's conventional cell with its space group, every operation and
              one _atom_site row per orbit and species; --symprec S is the tolerance in Å (default 0.01)
  --to cif    OUTDIR is a folder: every structure of IN (a .pt, a multi-block CIF, an extended XYZ with several
              frames, an archive) becomes OUTDIR/<id>.cif; id = its id= (a .pt's i or i__k), else the CIF data
              block name, else its 0-based index; ids are made safe file names (path separators, control
              characters, '..' and a leading '.' become _) and two ids naming one file (case-insensitively) are
              refused. OUTDIR must not exist or be empty unless --force; every structure is converted before
              anything is written, so a failure writes nothing. An OUT ending in / needs --to cif.
Prints {"written": OUT, "nsites": N} (with --symmetrize also "spacegroup": {"number", "symbol"});
with --to cif {"written": OUTDIR, "nstructures": N, "files": [...], "nsites": total}.
`;

export function runConvert(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'index', kind: 'string' },
    { name: 'force', kind: 'flag' },
    { name: 'symmetrize', kind: 'flag' },
    { name: 'symprec', kind: 'string' },
    { name: 'to', kind: 'string' },
  ]);
  if (positionals.length !== 2) throw new CliError('convert takes IN and OUT (see structlab convert --help)');
  const [input, output] = positionals;
  const outputOptions = { force: options.force === true, inputs: [input] };
  if (options.to !== undefined) return convertToFolder(input, output, outputOptions, options);
  if (/[/\\]$/.test(output)) throw new CliError(`${output} ends in /: to write a folder of CIFs pass --to cif`);
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

/** `--to cif`: one CIF per structure in the folder OUTDIR, all converted before any is written. */
function convertToFolder(input: string, dir: string, outputOptions: OutputOptions, options: ParsedArgs['options']): string {
  if (options.to !== 'cif') throw new CliError(`--to takes cif (a folder of CIFs), got ${JSON.stringify(options.to)}`);
  for (const name of ['index', 'symmetrize', 'symprec'] as const)
    if (options[name] !== undefined) throw new CliError(`--${name} does not apply with --to cif (every structure is written)`);
  checkOutputFolder(dir, outputOptions);
  const pt = /\.pt$/i.test(input);
  const loaded = pt ? { path: input, structures: loadPt(input) } : loadStructureFile(input);
  const blockNames = /\.cif(\.gz)?$/i.test(input);
  const seen = new Map<string, { k: number; id: string }>();
  const files = loaded.structures.map((s, k) => {
    const id = structureId(s, k, blockNames);
    const file = `${safeFileName(id)}.cif`;
    const other = seen.get(file.toLowerCase());
    if (other)
      throw new CliError(
        `${loaded.path}: structures ${other.k} and ${k} would both be written as ${file} ` +
          `(ids ${JSON.stringify(other.id)} and ${JSON.stringify(id)}); nothing was written`,
      );
    seen.set(file.toLowerCase(), { k, id });
    return { file, text: writeOrRefuse(s, join(dir, file)) };
  });
  const written = writeOutputDir(dir, outputOptions, (out) =>
    files.map(({ file, text }) => {
      out.write(file, text);
      return out.pathOf(file);
    }),
  );
  return toStrictJson({
    written: dir,
    nstructures: files.length,
    files: written,
    nsites: loaded.structures.reduce((n, s) => n + s.sites.length, 0),
  });
}

/** OUTDIR: a folder or a name not yet taken, never a file; empty unless --force (checkOutputDir's rules, convert's words). */
function checkOutputFolder(dir: string, outputOptions: OutputOptions): void {
  let st: Stats | null = null;
  let entries = 0;
  try {
    st = statSync(dir);
    if (st.isDirectory()) entries = readdirSync(dir).length;
  } catch {
    /* a new folder, or one checkOutputDir reports */
  }
  if (st && !st.isDirectory()) throw new CliError(`${dir} exists and is not a folder; --to cif writes a folder of CIFs`);
  if (entries > 0 && !outputOptions.force) throw new CliError(`${dir} is not empty; pass --force to write into it`);
  checkOutputDir(dir, outputOptions);
}

/** The id a structure is written under: its `id` property, else (a CIF input) its data block name, else its index. */
function structureId(s: Structure, k: number, blockNames: boolean): string {
  const id = s.properties?.id;
  if (typeof id === 'string' && id.trim() !== '') return id.trim();
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  if (blockNames && s.name.trim() !== '') return s.name.trim();
  return String(k);
}

/** A file name from an id: no path separators, control or reserved characters, no `..`, no leading `.`; at most 200 characters. */
function safeFileName(id: string): string {
  const name = id
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f/\\:*?"<>|]/g, '_')
    .replace(/\.{2,}/g, '_')
    .replace(/^\./, '_')
    .replace(/\s+$/, '')
    .slice(0, 200);
  return name === '' ? '_' : name;
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
