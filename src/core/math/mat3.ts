/** Small fixed-size linear algebra. Matrices are row-major arrays of rows; lattices keep vectors as rows. */
export type Vec3 = [number, number, number];
export type Mat3 = [Vec3, Vec3, Vec3];

/**
 * A Vec3 whose elements V8 stores unboxed as doubles, even when the values are whole numbers, and in the
 * holey layout that `Array.prototype.map` results have. A literal `[x, y, z]` of whole numbers is a
 * small-integer array instead, and a function that has seen several array layouts is deoptimised and compiled
 * again (with every caller that inlined it): on the CLI's short runs those recompilations cost more than the
 * work itself. Vectors and matrix rows in Lattice, the readers and the matcher come from here.
 */
export function vec3(x: number, y: number, z: number): Vec3 {
  const v = new Array<number>(3);
  v[0] = 0.5; // a fraction first: the array (and, through its allocation site, every later one) holds doubles
  v[0] = x;
  v[1] = y;
  v[2] = z;
  return v as Vec3;
}

/** Rows copied through vec3 (for matrices built from integers: lattice-point coordinates, symmetry rotations). */
export const mat3 = (m: readonly (readonly number[])[]): Mat3 => [
  vec3(m[0][0], m[0][1], m[0][2]),
  vec3(m[1][0], m[1][1], m[1][2]),
  vec3(m[2][0], m[2][1], m[2][2]),
];

export const add = (a: Vec3, b: Vec3): Vec3 => vec3(a[0] + b[0], a[1] + b[1], a[2] + b[2]);
export const sub = (a: Vec3, b: Vec3): Vec3 => vec3(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
export const scale = (a: Vec3, s: number): Vec3 => vec3(a[0] * s, a[1] * s, a[2] * s);
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => vec3(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
export const norm = (a: Vec3): number => Math.sqrt(dot(a, a));
export const unit = (a: Vec3): Vec3 => {
  const l = norm(a);
  return vec3(a[0] / l, a[1] / l, a[2] / l);
};

export function det(m: Mat3): number {
  return dot(m[0], cross(m[1], m[2]));
}

/**
 * Distances between opposite faces of the cell spanned by the rows of `m` (volume / face area),
 * i.e. 1 / |k-th reciprocal vector|. Thinner than the vector lengths for skewed cells.
 */
export function perpendicularWidths(m: Mat3): Vec3 {
  const v = Math.abs(det(m));
  return vec3(v / norm(cross(m[1], m[2])), v / norm(cross(m[2], m[0])), v / norm(cross(m[0], m[1])));
}

export function inverse(m: Mat3): Mat3 {
  const d = det(m);
  if (!Number.isFinite(d) || Math.abs(d) < 1e-300) throw new Error('singular matrix');
  const c0 = cross(m[1], m[2]);
  const c1 = cross(m[2], m[0]);
  const c2 = cross(m[0], m[1]);
  // Columns of the inverse are the cross products divided by the determinant.
  return [vec3(c0[0] / d, c1[0] / d, c2[0] / d), vec3(c0[1] / d, c1[1] / d, c2[1] / d), vec3(c0[2] / d, c1[2] / d, c2[2] / d)];
}

export function matMul(a: Mat3, b: Mat3): Mat3 {
  const r: Mat3 = [vec3(0, 0, 0), vec3(0, 0, 0), vec3(0, 0, 0)];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  return r;
}

/** m · v (v as a column). */
export const matVec = (m: Mat3, v: Vec3): Vec3 => vec3(dot(m[0], v), dot(m[1], v), dot(m[2], v));

/** v · m (v as a row): fractional row vector times the lattice matrix gives Cartesian. */
export const vecMat = (v: Vec3, m: Mat3): Vec3 =>
  vec3(
    v[0] * m[0][0] + v[1] * m[1][0] + v[2] * m[2][0],
    v[0] * m[0][1] + v[1] * m[1][1] + v[2] * m[2][1],
    v[0] * m[0][2] + v[1] * m[1][2] + v[2] * m[2][2],
  );

/** Wraps a fractional coordinate into [0, 1); values within eps of 1 become 0. */
export function wrapFrac(x: number, eps = 1e-12): number {
  let w = x - Math.floor(x);
  if (w >= 1 - eps) w = 0;
  return w;
}
