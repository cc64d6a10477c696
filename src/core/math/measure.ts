/**
 * Distances, angles and dihedrals between points of a flat xyz buffer (the measurements of the Structure page), and the
 * angle between two vectors.
 */
import { acos, atan2 } from './libm.ts';
import { type Vec3, dot, norm } from './mat3.ts';

/** Degrees per radian, for `angleBetween`. */
const RAD = 180 / Math.PI;

const clampedAcos = (c: number): number => acos(Math.max(-1, Math.min(1, c)));

/**
 * The angle in degrees whose cosine is c (clamped to [−1, 1]), converted as (x·180)/π. That rounds differently from
 * `angleBetween`'s x·(180/π); each caller keeps the rounding its results and goldens were made with.
 */
export function angleFromCosine(c: number): number {
  return (clampedAcos(c) * 180) / Math.PI;
}

/** Angle between vectors u and v in degrees: arccos of u·v / (|u||v|) with |u| = √(u·u), clamped, times 180/π. */
export function angleBetween(u: Vec3, v: Vec3): number {
  return clampedAcos(dot(u, v) / (norm(u) * norm(v))) * RAD;
}

/** Distance between points i and j of a flat xyz buffer. */
export function distance(p: ArrayLike<number>, i: number, j: number): number {
  return Math.hypot(p[3 * i] - p[3 * j], p[3 * i + 1] - p[3 * j + 1], p[3 * i + 2] - p[3 * j + 2]);
}

/** Angle i–j–k at j, degrees. */
export function angle(p: ArrayLike<number>, i: number, j: number, k: number): number {
  const u = [p[3 * i] - p[3 * j], p[3 * i + 1] - p[3 * j + 1], p[3 * i + 2] - p[3 * j + 2]];
  const v = [p[3 * k] - p[3 * j], p[3 * k + 1] - p[3 * j + 1], p[3 * k + 2] - p[3 * j + 2]];
  const c = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / (Math.hypot(u[0], u[1], u[2]) * Math.hypot(v[0], v[1], v[2]));
  return angleFromCosine(c);
}

/**
 * Dihedral (torsion) angle i–j–k–l in degrees, in (−180, 180]: the angle from the plane (i, j, k) to the plane (j, k, l)
 * about the axis j→k, positive clockwise looking from j to k (IUPAC, as Avogadro and VESTA report it). Computed as
 * atan2(|b2| b1·(b2×b3), (b1×b2)·(b2×b3)) with b1 = j−i, b2 = k−j, b3 = l−k (Blondel & Karplus, J. Comput. Chem. 17, 1996).
 */
export function dihedral(p: ArrayLike<number>, i: number, j: number, k: number, l: number): number {
  const sub = (a: number, b: number) => [p[3 * a] - p[3 * b], p[3 * a + 1] - p[3 * b + 1], p[3 * a + 2] - p[3 * b + 2]];
  const cross = (u: number[], v: number[]) => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const dot = (u: number[], v: number[]) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const b1 = sub(j, i);
  const b2 = sub(k, j);
  const b3 = sub(l, k);
  const n2 = cross(b2, b3);
  return (atan2(Math.hypot(b2[0], b2[1], b2[2]) * dot(b1, n2), dot(cross(b1, b2), n2)) * 180) / Math.PI;
}
