import { type Mat3, type Vec3, det, dot, inverse, norm, vec3, vecMat } from '../math/mat3.ts';
import { sin, cos, acos } from '../math/libm.ts';

export interface LatticeParameters {
  a: number;
  b: number;
  c: number;
  alpha: number;
  beta: number;
  gamma: number;
}

const DEG = Math.PI / 180;

/** A 3D lattice; `matrix` rows are the vectors a, b, c in Å (pymatgen's convention). */
export class Lattice {
  readonly matrix: Mat3;
  private inv?: Mat3;

  constructor(matrix: Mat3 | number[][]) {
    if (matrix.length !== 3) throw new Error('lattice matrix must be 3x3 finite numbers');
    const row = (r: readonly number[]) => vec3(Number(r[0]), Number(r[1]), Number(r[2]));
    const m: Mat3 = [row(matrix[0]), row(matrix[1]), row(matrix[2])];
    if (m.some((r) => r.some((x) => !Number.isFinite(x)))) {
      throw new Error('lattice matrix must be 3x3 finite numbers');
    }
    // A singular (or numerically singular) cell has no inverse: refused here, so that no caller loops
    // or divides by a zero volume downstream. Flat but invertible cells are the readers' call (LIMITS.cellFlatness).
    const scale = norm(m[0]) * norm(m[1]) * norm(m[2]);
    if (!(Math.abs(det(m)) > 1e-12 * scale) || !Number.isFinite(scale)) {
      throw new Error('the lattice vectors do not span a 3D cell (zero or numerically zero volume)');
    }
    this.matrix = m;
  }

  /**
   * pymatgen's `Lattice.from_parameters` convention (vesta=False): c along z, b in the yz-plane.
   * Kept identical so Cartesian coordinates agree with pymatgen's output.
   */
  static fromParameters(a: number, b: number, c: number, alpha: number, beta: number, gamma: number): Lattice {
    const [ar, br, gr] = [alpha * DEG, beta * DEG, gamma * DEG];
    const val0 = (cos(ar) * cos(br) - cos(gr)) / (sin(ar) * sin(br));
    // Clamp for numerical safety, as pymatgen does.
    const val = Math.max(-1, Math.min(1, val0));
    const gammaStar = acos(val);
    const va = vec3(a * sin(br), 0, a * cos(br));
    const vb = vec3(-b * sin(ar) * cos(gammaStar), b * sin(ar) * sin(gammaStar), b * cos(ar));
    const vc = vec3(0, 0, c);
    return new Lattice([va, vb, vc]);
  }

  static cubic(a: number): Lattice {
    return new Lattice([
      [a, 0, 0],
      [0, a, 0],
      [0, 0, a],
    ]);
  }

  get volume(): number {
    return Math.abs(det(this.matrix));
  }

  get inverseMatrix(): Mat3 {
    if (!this.inv) this.inv = inverse(this.matrix);
    return this.inv;
  }

  get lengths(): Vec3 {
    return vec3(norm(this.matrix[0]), norm(this.matrix[1]), norm(this.matrix[2]));
  }

  /** Angles alpha (b,c), beta (a,c), gamma (a,b) in degrees. */
  get angles(): Vec3 {
    const [a, b, c] = this.matrix;
    const ang = (u: Vec3, v: Vec3) => acos(Math.max(-1, Math.min(1, dot(u, v) / (norm(u) * norm(v))))) / DEG;
    return vec3(ang(b, c), ang(a, c), ang(a, b));
  }

  get parameters(): LatticeParameters {
    const [a, b, c] = this.lengths;
    const [alpha, beta, gamma] = this.angles;
    return { a, b, c, alpha, beta, gamma };
  }

  fracToCart(f: Vec3): Vec3 {
    return vecMat(f, this.matrix);
  }

  cartToFrac(x: Vec3): Vec3 {
    return vecMat(x, this.inverseMatrix);
  }

  /** Reciprocal lattice without the 2π factor (rows a*, b*, c*). */
  get reciprocalMatrix(): Mat3 {
    const inv = this.inverseMatrix;
    return [
      [inv[0][0], inv[1][0], inv[2][0]],
      [inv[0][1], inv[1][1], inv[2][1]],
      [inv[0][2], inv[1][2], inv[2][2]],
    ];
  }
}
