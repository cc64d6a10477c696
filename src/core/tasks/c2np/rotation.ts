/**
 * Rotations exactly as the C2NP generator applies them (scipy `Rotation`): scalar-last unit quaternions,
 * the standard quaternion → matrix formula, x' = M·x, and `as_euler('xyz', degrees=True)` for the file comment.
 * The operation order follows scipy's so that the `%15.8f` text of rotated files matches byte for byte.
 */
import type { Mat3, Vec3 } from '../../math/mat3.ts';
import { atan2 } from '../../math/libm.ts';
import { quoted } from '../../limits.ts';

/** Scalar-last quaternion [x, y, z, w]. */
export type QuaternionXyzw = [number, number, number, number];

/** Smallest positive normal double: below it a number keeps fewer than 53 significant bits. */
const MIN_NORMAL = 2 ** -1022;

/**
 * scipy `Rotation.from_quat` normalises its input: q / sqrt(x² + y² + z² + w²) (scipy/spatial/transform/_rotation.pyx,
 * `_norm4`), kept exactly for every quaternion whose squares sum to a normal finite double, so rotated files match
 * C2NP's byte for byte. Where that sum overflows (1e300·(1,0,0,0): scipy divides by inf and gets the zero
 * quaternion) or underflows, q is first divided by its largest |component| (exact in direction), then normalised:
 * any q with a finite, non-zero largest component is the rotation it names. Throws for four zeros or a non-finite one.
 */
export function normalizeQuaternion(q: readonly number[]): QuaternionXyzw {
  if (q.length !== 4 || q.some((v) => !Number.isFinite(v))) throw new Error('a quaternion needs four finite numbers (x, y, z, w)');
  const sum = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (sum >= MIN_NORMAL && Number.isFinite(sum)) {
    const norm = Math.sqrt(sum);
    return [q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm];
  }
  const big = Math.max(Math.abs(q[0]), Math.abs(q[1]), Math.abs(q[2]), Math.abs(q[3]));
  if (!(big > 0)) throw new Error('the zero quaternion is not a rotation');
  const s = [q[0] / big, q[1] / big, q[2] / big, q[3] / big];
  const norm = Math.sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + s[3] * s[3]);
  return [s[0] / norm, s[1] / norm, s[2] / norm, s[3] / norm];
}

/**
 * Why a user's quaternion names no rotation, or null: all four components zero, or its largest |component| below
 * the smallest normal double (2.2e-308), where a subnormal keeps so few significant bits that the direction typed
 * is not the one stored (1e-323 and 1.4e-323 are stored as 2 and 3 times 4.9e-324).
 */
export function quaternionProblem(q: readonly number[]): string | null {
  const big = Math.max(...q.map((v) => Math.abs(v)));
  if (big === 0) return 'all four components are zero';
  if (big < MIN_NORMAL)
    return 'its largest component is below 2.2e-308 (a subnormal double keeps too few digits to say which rotation is meant)';
  return null;
}

/** Rotation matrix (rows) of a unit quaternion, term order as scipy's `as_matrix`. */
export function quaternionToMatrix(quaternion: readonly number[]): Mat3 {
  const [x, y, z, w] = normalizeQuaternion(quaternion);
  const x2 = x * x,
    y2 = y * y,
    z2 = z * z,
    w2 = w * w;
  const xy = x * y,
    zw = z * w,
    xz = x * z,
    yw = y * w,
    yz = y * z,
    xw = x * w;
  return [
    [x2 - y2 - z2 + w2, 2 * (xy - zw), 2 * (xz + yw)],
    [2 * (xy + zw), -x2 + y2 - z2 + w2, 2 * (yz - xw)],
    [2 * (xz - yw), 2 * (yz + xw), -x2 - y2 + z2 + w2],
  ];
}

/** x' = M·x for every point (rotation about the origin of the coordinate frame). */
export function applyRotation(matrix: Mat3, points: readonly Vec3[]): Vec3[] {
  const [r0, r1, r2] = matrix;
  return points.map(([x, y, z]) => [
    r0[0] * x + r0[1] * y + r0[2] * z,
    r1[0] * x + r1[1] * y + r1[2] * z,
    r2[0] * x + r2[1] * y + r2[2] * z,
  ]);
}

/**
 * scipy `as_euler('xyz', degrees=True)`: extrinsic x, then y, then z, by the quaternion method of
 * Bernardes & Viollet (2022) that scipy uses, including its gimbal-lock branches and [-180, 180] range.
 */
export function eulerXyzDegrees(quaternion: readonly number[]): Vec3 {
  const q = normalizeQuaternion(quaternion);
  // Extrinsic 'xyz': axes i, j, k = 0, 1, 2; an even permutation, so sign = +1.
  const [i, j, k] = [0, 1, 2];
  const sign = ((i - j) * (j - k) * (k - i)) / 2;
  const a = q[3] - q[j];
  const b = q[i] + q[k] * sign;
  const c = q[j] + q[3];
  const d = q[k] * sign - q[i];
  const angles = [0, 2 * atan2(Math.sqrt(c * c + d * d), Math.sqrt(a * a + b * b)), 0];
  const eps = 1e-7;
  let singular = 0;
  if (Math.abs(angles[1]) <= eps) singular = 1;
  else if (Math.abs(angles[1] - Math.PI) <= eps) singular = 2;
  const halfSum = atan2(b, a);
  const halfDiff = atan2(d, c);
  if (singular === 0) {
    angles[0] = halfSum - halfDiff;
    angles[2] = halfSum + halfDiff;
  } else {
    // Gimbal lock: scipy sets the third angle to zero and puts the whole rotation in the first.
    angles[2] = 0;
    angles[0] = singular === 1 ? 2 * halfSum : -2 * halfDiff;
  }
  angles[2] *= sign;
  angles[1] -= Math.PI / 2;
  for (let n = 0; n < 3; n++) {
    if (angles[n] < -Math.PI) angles[n] += 2 * Math.PI;
    else if (angles[n] > Math.PI) angles[n] -= 2 * Math.PI;
  }
  const toDegrees = 180 / Math.PI;
  return [angles[0] * toDegrees, angles[1] * toDegrees, angles[2] * toDegrees];
}

/** One C2NP rotation set (per radius): the split it belongs to and its accepted quaternions in order. */
export interface RotationSet {
  radius: number;
  split: 'train' | 'ID' | 'OOD';
  seed: number;
  quaternions: QuaternionXyzw[];
}

/**
 * Parses the shipped `datasets/c2np/rotation_sets.json` (the exact upstream sets; re-sampling them would
 * need numpy's PCG64 stream). Returns the sets keyed by radius.
 */
export function parseRotationSets(jsonText: string): Map<number, RotationSet> {
  const data = JSON.parse(jsonText) as { radii?: Record<string, { split: string; seed: number; quats: number[][] }> };
  if (!data || typeof data.radii !== 'object') throw new Error('rotation sets file has no "radii" table');
  const sets = new Map<number, RotationSet>();
  for (const [key, entry] of Object.entries(data.radii)) {
    const radius = Number(key);
    if (!Number.isInteger(radius)) throw new Error(`rotation sets file: radius key ${quoted(key)} is not an integer`);
    if (entry.split !== 'train' && entry.split !== 'ID' && entry.split !== 'OOD') {
      throw new Error(`rotation sets file: radius ${radius} has unknown split ${quoted(String(entry.split))}`);
    }
    const quaternions = entry.quats.map((q, n) => {
      if (!Array.isArray(q) || q.length !== 4 || q.some((v) => typeof v !== 'number' || !Number.isFinite(v))) {
        throw new Error(`rotation sets file: radius ${radius} quaternion ${n + 1} is not four finite numbers`);
      }
      return [q[0], q[1], q[2], q[3]] as QuaternionXyzw;
    });
    sets.set(radius, { radius, split: entry.split, seed: entry.seed, quaternions });
  }
  return sets;
}
