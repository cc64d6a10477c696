import type { Vec3 } from '../../core/math/mat3.ts';
import { type CarveCenter, type CarvedParticle, carveParticle } from '../../core/tasks/c2np/carve.ts';
import { RAW_COMMENT, formatGeneratorXyz, formatRawXyz, rotatedComment, roundLikeRawText } from '../../core/tasks/c2np/dataset.ts';
import { applyRotation, normalizeQuaternion, quaternionProblem, quaternionToMatrix } from '../../core/tasks/c2np/rotation.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { checkOutputFile, loadStructureFile, toStrictJson, writeOutputSafely } from '../io.ts';
import { errorText } from '../../core/errors.ts';
import { quoted } from '../../core/limits.ts';

export const CARVE_HELP = `usage: structlab carve CELL --radius R [--repeats 20] [--center box|origin|X,Y,Z] [--inclusive]
                      [--quaternion X,Y,Z,W] -o OUT.xyz [--force]

Carves a spherical nanoparticle from a crystal with the C2NP/Atomsk convention: a repeats³ supercell of the
cell as read (CIF cells rebuilt with a along x, b in the xy-plane), atoms in Atomsk order (c shift outermost,
then b, then a, cell atoms innermost), centre ½(A1+A2+A3), keep |r − c| < R, no re-centring.
  --radius R        sphere radius in Å (required)
  --repeats N       replicas per axis (default 20, as C2NP; RADII used 60)
  --center C        box (default), origin (sphere on the CIF origin, supercell shifts −n/2 … n/2−1),
                    or a Cartesian point X,Y,Z in Å in the supercell frame
  --inclusive       keep |r − c| ≤ R instead of < R
  --quaternion Q    rotate the particle (scalar-last X,Y,Z,W) about the file origin, as C2NP's generator does
                    (from the 8-decimal coordinates of the raw text); written in the generator's XYZ format.
                    Any finite non-zero scale names the same rotation (1e300,0,0,0 = 1,0,0,0); all zeros or
                    only subnormal components (below 2.2e-308) are refused
  -o, --output OUT  the XYZ file to write (Atomsk raw format without --quaternion)
  --force           replace OUT if it exists (OUT may never be CELL; written whole or not at all)
Prints {"written": OUT, "natoms": N, "center": [x, y, z]}.
`;

function parseTriple(raw: string, name: string, count: number): number[] {
  const values = raw.split(',').map((v) => (v.trim() === '' ? NaN : Number(v)));
  if (values.length !== count || values.some((v) => !Number.isFinite(v))) {
    throw new CliError(`--${name} must be ${count} comma-separated numbers, got ${quoted(raw)}`);
  }
  return values;
}

function parseCenter(raw: string | boolean | undefined): CarveCenter {
  if (raw === undefined || raw === 'box') return { kind: 'box' };
  if (raw === 'origin') return { kind: 'origin' };
  return { kind: 'point', point: parseTriple(String(raw), 'center', 3) as Vec3 };
}

export function runCarve(argv: string[], warn: (line: string) => void): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'radius', kind: 'string' },
    { name: 'repeats', kind: 'string' },
    { name: 'center', kind: 'string' },
    { name: 'inclusive', kind: 'flag' },
    { name: 'quaternion', kind: 'string' },
    { name: 'output', kind: 'string', short: 'o' },
    { name: 'force', kind: 'flag' },
  ]);
  if (positionals.length !== 1) throw new CliError('carve takes exactly one CELL file (see structlab carve --help)');
  if (options.radius === undefined) throw new CliError('carve needs --radius R (in Å)');
  if (typeof options.output !== 'string') throw new CliError('carve needs -o OUT.xyz');
  const radius = numberOption(options, 'radius', 0, 1e-6, 1000);
  const repeats = numberOption(options, 'repeats', 20, 1, 1000);
  if (!Number.isInteger(repeats)) throw new CliError(`--repeats must be a whole number, got ${repeats}`);
  const center = parseCenter(options.center);
  const quaternion = typeof options.quaternion === 'string' ? parseTriple(options.quaternion, 'quaternion', 4) : null;
  // Any scale of a quaternion names the same rotation (1e300,0,0,0 is the identity; see normalizeQuaternion).
  const quaternionWrong = quaternion && quaternionProblem(quaternion);
  if (quaternionWrong) throw new CliError(`--quaternion ${quoted(String(options.quaternion))} is not a rotation: ${quaternionWrong}`);
  const outputOptions = { force: options.force === true, inputs: [positionals[0]] };
  checkOutputFile(options.output, outputOptions);

  const loaded = loadStructureFile(positionals[0]);
  for (const w of loaded.warnings) warn(`warning: ${w}`);
  if (loaded.structures.length > 1) warn(`warning: ${loaded.path} holds ${loaded.structures.length} structures; carving the first`);
  const particle = carveStructure(loaded.path, loaded.format, loaded.structures[0], {
    radius,
    repeats,
    center,
    inclusive: options.inclusive === true,
  });
  for (const w of particle.warnings) warn(`warning: ${w}`);

  let text: string;
  let reportedCenter = particle.center;
  if (quaternion) {
    const matrix = quaternionToMatrix(normalizeQuaternion(quaternion));
    const positions = applyRotation(matrix, roundLikeRawText(particle.positions));
    reportedCenter = applyRotation(matrix, [particle.center])[0];
    text = formatGeneratorXyz({ symbols: particle.symbols, positions }, rotatedComment(quaternion, radius));
  } else {
    text = formatRawXyz(particle, RAW_COMMENT);
  }
  writeOutputSafely(options.output, text, outputOptions);
  return toStrictJson({ written: options.output, natoms: particle.symbols.length, center: reportedCenter });
}

/** Carves with the frame rule the CLI documents: CIF cells rebuilt a-along-x, other formats' matrices as stored. */
export function carveStructure(
  path: string,
  format: string,
  structure: Parameters<typeof carveParticle>[0],
  options: { radius: number; repeats: number; center?: CarveCenter; inclusive?: boolean },
): CarvedParticle {
  try {
    return carveParticle(structure, { ...options, keepLatticeFrame: format !== 'cif' });
  } catch (e) {
    throw new CliError(`${path}: ${errorText(e)}`);
  }
}
