/**
 * The upstream C2NP dataset: split table, file layout and the two XYZ text formats (Atomsk's raw
 * particles and the rotation generator's `rot_k.xyz`), written byte for byte as upstream does.
 */
import type { Vec3 } from '../../math/mat3.ts';
import { type QuaternionXyzw, type RotationSet, applyRotation, eulerXyzDegrees, quaternionToMatrix } from './rotation.ts';
import { pow } from '../../math/libm.ts';
import { quoted } from '../../limits.ts';
import { labelProblem } from '../../io/common.ts';

/** C2NP `config.py`: radii 6–30; ID and OOD radii fixed, the rest train. */
export const C2NP_RADII = Array.from({ length: 25 }, (_, n) => n + 6);
export const ID_RADII: readonly number[] = [10, 11, 17, 21, 24, 26];
export const OOD_RADII: readonly number[] = [6, 7, 29, 30];
export type C2npSplit = 'train' | 'ID' | 'OOD';

export function splitOfRadius(radius: number): C2npSplit {
  if (ID_RADII.includes(radius)) return 'ID';
  if (OOD_RADII.includes(radius)) return 'OOD';
  return 'train';
}

/** A particle as text files carry it: element symbols and Cartesian coordinates in Å, in file order. */
export interface ParticleCoordinates {
  symbols: string[];
  positions: Vec3[];
}

/**
 * Python's `'%W.Df' % x`: the exact binary value rounded to D decimals, exact ties to even, a '-' for
 * negative values even when they round to zero (and for -0.0), right-aligned in W characters.
 * JS `toFixed` rounds exact ties up, so ties are settled with exact integer arithmetic.
 */
export function formatFixedPython(x: number, decimals: number, width = 0): string {
  if (!Number.isFinite(x)) throw new Error(`cannot format ${x} as a fixed-point number`);
  const negative = x < 0 || Object.is(x, -0);
  const magnitude = Math.abs(x);
  let digits = magnitude.toFixed(decimals);
  const scaled = magnitude * pow(10, decimals);
  if (Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6 * Math.max(1, scaled)) digits = exactHalfEven(magnitude, decimals) ?? digits;
  const text = (negative ? '-' : '') + digits;
  return text.length >= width ? text : ' '.repeat(width - text.length) + text;
}

/** The correctly rounded (ties to even) D-decimal text of a non-negative double, or null if it is no exact tie. */
function exactHalfEven(magnitude: number, decimals: number): string | null {
  // magnitude = mantissa · 2^exponent exactly.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, magnitude);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & ((1n << 52n) - 1n);
  let exponent: number;
  if (biased === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  if (exponent >= 0) return null; // an integer: never a tie
  const scaled = mantissa * 10n ** BigInt(decimals);
  const shift = BigInt(-exponent);
  const whole = scaled >> shift;
  const remainder = scaled - (whole << shift);
  const half = 1n << (shift - 1n);
  if (remainder !== half) return null;
  const rounded = whole % 2n === 0n ? whole : whole + 1n;
  const text = rounded.toString().padStart(decimals + 1, '0');
  return decimals === 0 ? text : `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/**
 * Atomsk's raw XYZ as the lab's `c2np_raw/materials/*.xyz` files: count, comment, then per atom the symbol
 * and the three coordinates (Fortran f16.8, written trimmed) separated by two spaces.
 */
export function formatRawXyz(particle: ParticleCoordinates, comment: string): string {
  const lines = [String(particle.symbols.length), comment];
  particle.symbols.forEach((symbol, n) => {
    const [x, y, z] = particle.positions[n];
    lines.push(`${symbol}  ${formatFixedPython(x, 8)}  ${formatFixedPython(y, 8)}  ${formatFixedPython(z, 8)}`);
  });
  return `${lines.join('\n')}\n`;
}

/**
 * Reads an XYZ particle as the generator does: line 1 the count, line 2 a comment, then lines of
 * `symbol x y z` (blank lines skipped). Errors name the 1-based line.
 */
export function parseParticleXyz(text: string): ParticleCoordinates {
  const lines = text.split(/\r?\n/);
  const count = Number(lines[0]?.trim());
  if (!Number.isInteger(count) || count < 0) throw new ParticleFormatError('the first line must be the atom count', 1);
  const symbols: string[] = [];
  const positions: Vec3[] = [];
  for (let n = 2; n < lines.length; n++) {
    const tokens = lines[n].trim().split(/\s+/);
    if (tokens.length === 1 && tokens[0] === '') continue;
    if (tokens.length < 4) throw new ParticleFormatError(`expected "symbol x y z", got ${quoted(lines[n].trim())}`, n + 1);
    const xyz = tokens.slice(1, 4).map(Number);
    if (xyz.some((v) => !Number.isFinite(v)))
      throw new ParticleFormatError(`coordinates must be finite numbers, got ${quoted(lines[n].trim())}`, n + 1);
    // Symbols are compared and echoed, never looked up: still no 1 MB "symbol" or hidden control character.
    const badSymbol = labelProblem(tokens[0], 'symbol');
    if (badSymbol) throw new ParticleFormatError(badSymbol, n + 1);
    symbols.push(tokens[0]);
    positions.push([xyz[0], xyz[1], xyz[2]]);
  }
  if (symbols.length !== count) throw new ParticleFormatError(`the header says ${count} atoms but ${symbols.length} follow`, 1);
  return { symbols, positions };
}

export class ParticleFormatError extends Error {
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** The coordinates C2NP actually rotates: the 8-decimal values parsed back from the raw text. */
export function roundLikeRawText(positions: readonly Vec3[]): Vec3[] {
  return positions.map((p) => p.map((v) => Number(formatFixedPython(v, 8))) as Vec3);
}

/** The generator's XYZ: count, comment, then `{symbol:<2} {x:15.8f} {y:15.8f} {z:15.8f}` per atom. */
export function formatGeneratorXyz(particle: ParticleCoordinates, comment: string): string {
  const parts: string[] = [`${particle.symbols.length}\n${comment}\n`];
  particle.symbols.forEach((symbol, n) => {
    const [x, y, z] = particle.positions[n];
    parts.push(`${symbol.padEnd(2)} ${formatFixedPython(x, 8, 15)} ${formatFixedPython(y, 8, 15)} ${formatFixedPython(z, 8, 15)}\n`);
  });
  return parts.join('');
}

/** Comment of `rot_0.xyz`. */
export const originalComment = (radius: number) => `Original structure at R${radius}`;

/** Comment of `rot_k.xyz` (k ≥ 1): the rotation's scipy 'xyz' Euler angles to one decimal. */
export function rotatedComment(quaternion: readonly number[], radius: number): string {
  const [x, y, z] = eulerXyzDegrees(quaternion);
  return `Rotated structure: x=${formatFixedPython(x, 1)}°, y=${formatFixedPython(y, 1)}°, z=${formatFixedPython(z, 1)}° at R${radius}`;
}

/** `rot_k.xyz` text for a raw particle (already the 8-decimal parsed coordinates); k = 0 is unrotated. */
export function rotatedFileText(raw: ParticleCoordinates, radius: number, rotation: number, set: RotationSet): string {
  if (rotation === 0) return formatGeneratorXyz(raw, originalComment(radius));
  const quaternion: QuaternionXyzw | undefined = set.quaternions[rotation - 1];
  if (!quaternion) throw new Error(`R${radius} has ${set.quaternions.length} rotations; rot_${rotation} does not exist`);
  const positions = applyRotation(quaternionToMatrix(quaternion), raw.positions);
  return formatGeneratorXyz({ symbols: raw.symbols, positions }, rotatedComment(quaternion, radius));
}

/** Upstream paths, relative to the dataset root. */
export const rawParticlePath = (material: string, radius: number) => `raw/materials/${material}_R${radius}.xyz`;
export const rawCifPath = (material: string) => `raw/cifs/${material}.cif`;
export const cifPath = (material: string) => `cifs/${material}.cif`;
export const rotatedPath = (material: string, radius: number, rotation: number) =>
  `quaternions/${material}/R${radius}/xyz/rot_${rotation}.xyz`;

/** One file of a built dataset (path relative to the root) with the facts its manifest entry records. */
export interface DatasetFile {
  path: string;
  text: string;
  material: string;
  radius: number;
  split: C2npSplit;
  /** null for the raw particle. */
  rotation: number | null;
  quaternion: QuaternionXyzw | null;
  atoms: number;
  /** The sphere centre in this file's frame. */
  center: Vec3;
}

export const RAW_COMMENT = '# carved by StructLab (Atomsk convention, see structlab carve --help; xyz f16.8)';

/**
 * Every particle file of one material in the upstream layout, produced one at a time (a full material is
 * ~2,100 files and a few hundred MB): per radius the raw particle, then rot_0 … rot_N rotated from the
 * 8-decimal coordinates of the raw text, as C2NP's generator does.
 */
export function* datasetFiles(
  material: string,
  radii: readonly number[],
  carve: (radius: number) => ParticleCoordinates & { center: Vec3 },
  sets: Map<number, RotationSet>,
): Generator<DatasetFile> {
  for (const radius of radii) {
    const set = sets.get(radius);
    if (!set) throw new Error(`no shipped rotation set for R = ${radius} (C2NP radii are 6–30)`);
    const particle = carve(radius);
    const rawText = formatRawXyz(particle, RAW_COMMENT);
    const split = splitOfRadius(radius);
    const common = { material, radius, split, atoms: particle.symbols.length };
    yield { ...common, path: rawParticlePath(material, radius), text: rawText, rotation: null, quaternion: null, center: particle.center };
    const raw = parseParticleXyz(rawText);
    for (let k = 0; k <= set.quaternions.length; k++) {
      const quaternion = k === 0 ? null : set.quaternions[k - 1];
      const center = quaternion ? applyRotation(quaternionToMatrix(quaternion), [particle.center])[0] : particle.center;
      yield {
        ...common,
        path: rotatedPath(material, radius, k),
        text: rotatedFileText(raw, radius, k, set),
        rotation: k,
        quaternion,
        center,
      };
    }
  }
}
