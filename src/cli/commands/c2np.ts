import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { packageFile } from '../../node/package-file.ts';
import { C2NP_RADII, type DatasetFile, cifPath, datasetFiles, rawCifPath } from '../../core/tasks/c2np/dataset.ts';
import { type RotationSet, parseRotationSets } from '../../core/tasks/c2np/rotation.ts';
import { LIMITS, LimitError, limitSentence, quoted } from '../../core/limits.ts';
import { parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { checkOutputDir, loadStructureFile, readInputText, toStrictJson, writeOutputDir } from '../io.ts';
import { carveStructure } from './carve.ts';
import { C2NP_EVAL_HELP, runC2npEval } from './c2np-eval.ts';
import { errorText } from '../../core/errors.ts';

export const C2NP_HELP = `usage: structlab c2np build CELL --out DIR [--radii 6-30] [--repeats 20] [--force]
       structlab c2np eval (BATCH.jsonl | --pred DIR --truth DIR) …   (structlab c2np eval --help)

Builds the C2NP dataset layout for one material (the material name is CELL's file name without extension):
  DIR/raw/cifs/M.cif, DIR/raw/materials/M_R{r}.xyz      raw particles (Atomsk convention, see structlab carve)
  DIR/cifs/M.cif                                        the unit cell
  DIR/quaternions/M/R{r}/xyz/rot_{k}.xyz                 rot_0 and the rotated copies, byte-compatible with the
                                                        upstream generator (shipped rotation sets: 59 train,
                                                        92 ID, 163 OOD rotations per radius)
  DIR/manifest.json                                     every file with split, rotation, quaternion, atom count,
                                                        centre and sha256
  --radii LIST    radii in Å within 6–30: "6-30" (default), "6,7,29", "10-12,30"
  --repeats N     replicas per axis (default 20)
  --force         write into DIR even if it is not empty (files of the same name are replaced)
DIR must not exist or be empty unless --force; it is built under a temporary name and renamed into place,
so a failure (a full disk) leaves nothing behind.
A full material is ~2,100 files and a few hundred MB. Prints {"out": DIR, "material": M, "files": N, "radii": [...]}.
`;

export function loadShippedRotationSets(): Map<number, RotationSet> {
  try {
    return parseRotationSets(readFileSync(packageFile('datasets/c2np/rotation_sets.json'), 'utf8'));
  } catch (e) {
    throw new CliError(`the shipped rotation sets (datasets/c2np/rotation_sets.json) cannot be read: ${errorText(e)}`, 1);
  }
}

export function parseRadii(raw: string): number[] {
  const radii = new Set<number>();
  for (const part of raw.split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!match) throw new CliError(`--radii must be integers or ranges like 6-30, got ${quoted(raw)}`);
    const low = Number(match[1]);
    const high = match[2] === undefined ? low : Number(match[2]);
    if (low > high) throw new CliError(`--radii range ${quoted(part.trim())} runs backwards`);
    for (let r = low; r <= high; r++) {
      if (!C2NP_RADII.includes(r)) throw new CliError(`--radii: C2NP radii are 6–30 Å (rotation sets exist only for those), got ${r}`);
      radii.add(r);
    }
  }
  return [...radii].sort((a, b) => a - b);
}

/** `structlab c2np eval --help` shows the eval help; anything else the build help. */
export const c2npHelp = (argv: string[]): string => (argv[0] === 'eval' ? C2NP_EVAL_HELP : C2NP_HELP);

export function runC2np(argv: string[], warn: (line: string) => void): string | Promise<string> {
  const [sub, ...rest] = argv;
  if (sub === 'eval') return runC2npEval(rest, warn);
  if (sub !== 'build')
    throw new CliError(`unknown c2np subcommand ${quoted(sub ?? '')} (available: build, eval; see structlab c2np --help)`);
  const { positionals, options } = parseArgs(rest, [
    { name: 'out', kind: 'string' },
    { name: 'radii', kind: 'string' },
    { name: 'repeats', kind: 'string' },
    { name: 'force', kind: 'flag' },
  ]);
  if (positionals.length !== 1) throw new CliError('c2np build takes exactly one CELL file (see structlab c2np --help)');
  if (typeof options.out !== 'string') throw new CliError('c2np build needs --out DIR');
  const radii = parseRadii(typeof options.radii === 'string' ? options.radii : '6-30');
  const repeats = options.repeats === undefined ? 20 : Number(options.repeats);
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > 1000)
    throw new CliError(`--repeats must be a whole number from 1 to 1000, got ${quoted(String(options.repeats))}`);

  const cellPath = positionals[0];
  if (cellPath === '-') throw new CliError('c2np build needs a CELL file (its name is the material name), not standard input');
  const outputOptions = { force: options.force === true, inputs: [cellPath] };
  checkOutputDir(options.out, outputOptions);
  const cellText = readInputText(cellPath);
  const loaded = loadStructureFile(cellPath);
  for (const w of loaded.warnings) warn(`warning: ${w}`);
  const material = basename(cellPath).replace(/\.[^.]*$/, '');
  if (material === '' || material === '.' || material === '..')
    throw new CliError(`${cellPath}: the file name gives no material name (name the file after the material, e.g. NaCl.cif)`);
  const structure = loaded.structures[0];
  const sets = loadShippedRotationSets();
  const out = options.out;
  // Every radius is carved before anything is written (carving is fast; writing ~85 rotated copies per radius
  // is not): the atoms of all files together are held to LIMITS.buildAtoms, so a dense cell is refused at once.
  const carved = new Map<number, ReturnType<typeof carveStructure>>();
  let atomsToWrite = 0;
  for (const radius of radii) {
    const particle = carveStructure(loaded.path, loaded.format, structure, { radius, repeats });
    carved.set(radius, particle);
    atomsToWrite += particle.symbols.length * ((sets.get(radius)?.quaternions.length ?? 0) + 2);
    if (atomsToWrite > LIMITS.buildAtoms) {
      const what = `the dataset up to R = ${radius} Å (the raw particle and its rotated copies)`;
      throw new LimitError(
        'buildAtoms',
        `${cellPath}: ${limitSentence(what, atomsToWrite, LIMITS.buildAtoms, 'atoms to write', 'buildAtoms')}`,
      );
    }
  }

  return writeOutputDir(out, outputOptions, (dir) => {
    const write = (relative: string, text: string) => dir.write(relative, text);
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    write(rawCifPath(material), cellText);
    write(cifPath(material), cellText);
    const entries: object[] = [];
    const carve = (radius: number) => {
      const particle = carved.get(radius)!;
      carved.delete(radius);
      for (const w of particle.warnings) warn(`warning: R${radius}: ${w}`);
      return particle;
    };
    const progress = process.stderr.isTTY;
    let lastRadius = -1;
    for (const file of datasetFiles(material, radii, carve, sets)) {
      if (progress && file.radius !== lastRadius) {
        process.stderr.write(`\rR${file.radius} (${radii.indexOf(file.radius) + 1}/${radii.length})   `);
        lastRadius = file.radius;
      }
      write(file.path, file.text);
      entries.push(manifestEntry(file, sha256(file.text)));
    }
    if (progress) process.stderr.write('\n');
    const manifest = {
      generator: 'structlab c2np build',
      material,
      supercell_repeats: repeats,
      centre_rule: '0.5*(A1+A2+A3) of the n^3 supercell',
      inside_test: '|r - centre| < R (strict, Atomsk)',
      rotation_about: 'origin of the file frame, applied to the 8-decimal coordinates of the raw file',
      radii,
      files: entries,
    };
    write('manifest.json', `${JSON.stringify(manifest, null, 1)}\n`);
    return toStrictJson({ out, material, files: entries.length + 2, radii });
  });
}

function manifestEntry(file: DatasetFile, sha: string) {
  return {
    path: file.path,
    material: file.material,
    R: file.radius,
    split: file.split,
    rot: file.rotation,
    quat_xyzw: file.quaternion,
    n_atoms: file.atoms,
    centre: file.center,
    sha256: sha,
  };
}
