/**
 * Local structure order parameters (Zimmermann, Horton, Jain, Haranczyk, Front. Mater. 4, 34 (2017); Peters,
 * J. Chem. Phys. 131, 244103 (2009); Steinhardt, Nelson, Ronchetti, Phys. Rev. B 28, 784 (1983)) as pymatgen
 * 2022.11.7 computes them (pymatgen/analysis/local_env.py LocalStructOrderParams.get_order_parameters, get_q2,
 * get_q4, get_q6, gramschmidt; defaults from pymatgen/analysis/op_params.yaml), for the types matminer's
 * CrystalNNFingerprint "ops" preset asks for.
 *
 * The centre → neighbour vectors are loaded once; what pymatgen recomputes for every type and every neighbour
 * subset (bond angles θ between neighbours j and k, the azimuth φ of neighbour m about j measured from k, the
 * polar angles and their sines and cosines for the spherical harmonics) depends on the neighbours involved only,
 * so it is computed once per load and every type reads it for the first `count` neighbours. Each value is then
 * summed in pymatgen's loop order with its operations, so results agree to the last bits up to the libm in use
 * (libm.ts's fdlibm against glibc).
 */
import { acos, cos, exp, pow, sin } from '../../math/libm.ts';

/** The LocalStructOrderParams types ported (pymatgen's names). */
export type OrderParamType =
  | 'sgl_bd'
  | 'bent'
  | 'T'
  | 'tri_plan_max'
  | 'tet_max'
  | 'sq_plan_max'
  | 'see_saw_rect'
  | 'tri_pyr'
  | 'sq_pyr'
  | 'pent_pyr'
  | 'hex_pyr'
  | 'tri_bipyr'
  | 'pent_bipyr'
  | 'hex_bipyr'
  | 'oct_max'
  | 'pent_plan_max'
  | 'hex_plan_max'
  | 'bcc'
  | 'cuboct_max'
  | 'q2'
  | 'q4'
  | 'q6';

/**
 * Parameters under pymatgen's names: target angle TA (fraction of 180°), inverse Gaussian widths IGW_TA / IGW_EP
 * (equatorial plane) / IGW_SPP (south pole), smallest south-pole angle min_SPP (radians), south-pole weight w_SPP,
 * azimuth factor fac_AA and exponent exp_cos_AA.
 */
export interface OrderParamSettings {
  TA?: number;
  IGW_TA?: number;
  IGW_EP?: number;
  IGW_SPP?: number;
  min_SPP?: number;
  w_SPP?: number;
  fac_AA?: number;
  exp_cos_AA?: number;
}

interface Params extends Required<OrderParamSettings> {
  /** cuboct's numbered parameters in op_params.yaml: polar band (radians) 4 < θ < 2, widths 5 (equator) and 6 (rings). */
  cuboctLow: number;
  cuboctHigh: number;
  cuboctEquatorIGW: number;
  cuboctRingIGW: number;
}

/** A type with its parameters resolved (orderParam). */
export interface OrderParam {
  readonly type: OrderParamType;
  readonly params: Readonly<Params>;
}

const SPP_135 = 2.356194490192345;
/** pymatgen/analysis/op_params.yaml for the ported types (NaN: a parameter the type does not read). */
const DEFAULTS: Record<OrderParamType, OrderParamSettings & Partial<Params>> = {
  sgl_bd: {},
  bent: { TA: 1, IGW_TA: 8.667 },
  T: { IGW_EP: 15.5, fac_AA: 1, exp_cos_AA: 2 },
  see_saw_rect: { min_SPP: SPP_135, IGW_SPP: 11.5, IGW_EP: 27, fac_AA: 2, exp_cos_AA: 2 },
  tet_max: { IGW_TA: 18.5, TA: 0.6081734479693927, fac_AA: 1.5, exp_cos_AA: 2 },
  oct_max: { min_SPP: SPP_135, IGW_SPP: 15, IGW_EP: 18, w_SPP: 1, fac_AA: 2, exp_cos_AA: 2 },
  bcc: { min_SPP: 2.5261129449194057, IGW_SPP: 15, w_SPP: 6 },
  tri_plan_max: { IGW_TA: 17.5, TA: 0.66666666667, fac_AA: 1, exp_cos_AA: 2 },
  sq_plan_max: { min_SPP: SPP_135, IGW_SPP: 13.5, IGW_EP: 17.7, w_SPP: 1, fac_AA: 1, exp_cos_AA: 2 },
  pent_plan_max: { TA: 0.6, IGW_TA: 19.333 },
  tri_pyr: { IGW_EP: 15.5, fac_AA: 1.5, exp_cos_AA: 2 },
  sq_pyr: { IGW_EP: 14.9, fac_AA: 2, exp_cos_AA: 2 },
  pent_pyr: { IGW_EP: 13.8, fac_AA: 2.5, exp_cos_AA: 2 },
  hex_pyr: { IGW_EP: 12.5, fac_AA: 3, exp_cos_AA: 2 },
  tri_bipyr: { min_SPP: SPP_135, IGW_SPP: 12, IGW_EP: 16.6, fac_AA: 1.5, exp_cos_AA: 2, w_SPP: 1 },
  pent_bipyr: { min_SPP: SPP_135, IGW_SPP: 12.5, IGW_EP: 14.75, fac_AA: 2.5, exp_cos_AA: 2, w_SPP: 1 },
  hex_bipyr: { min_SPP: SPP_135, IGW_SPP: 14.1, IGW_EP: 13.6, fac_AA: 3, exp_cos_AA: 2, w_SPP: 1 },
  cuboct_max: {
    min_SPP: 2.792526803190927,
    IGW_SPP: 28.75,
    w_SPP: 1.8,
    cuboctHigh: 1.8325957145940461,
    cuboctLow: 1.3089969389957472,
    cuboctEquatorIGW: 25.5,
    cuboctRingIGW: 31.25,
  },
  hex_plan_max: { min_SPP: 2.6179938779914944, IGW_SPP: 7.5, w_SPP: 1, fac_AA: 1, exp_cos_AA: 2, IGW_TA: 25, TA: 0.16666667 },
  q2: {},
  q4: {},
  q6: {},
};

const UNSET: Params = {
  TA: NaN,
  IGW_TA: NaN,
  IGW_EP: NaN,
  IGW_SPP: NaN,
  min_SPP: NaN,
  w_SPP: NaN,
  fac_AA: NaN,
  exp_cos_AA: NaN,
  cuboctLow: NaN,
  cuboctHigh: NaN,
  cuboctEquatorIGW: NaN,
  cuboctRingIGW: NaN,
};

/**
 * LocalStructOrderParams([type], [settings]): op_params.yaml's defaults, overridden by `settings` where given
 * (pymatgen replaces the whole set; every set matminer passes is complete, so the two agree).
 */
export function orderParam(type: OrderParamType, settings?: OrderParamSettings | null): OrderParam {
  return { type, params: { ...UNSET, ...DEFAULTS[type], ...(settings ?? {}) } };
}

// get_order_parameters' constants.
const LEFT_OF_UNITY = 1 - 1e-12;
const VERY_SMALL = 1e-12;
const IPI = 1 / Math.PI;
const PI_OVER_2 = Math.PI / 2;
const ONE_THIRD = 1 / 3;
const TWO_THIRDS = 2 / 3;
const FAC_BCC = 1 / exp(-0.5);
/** asin(1/3) as glibc (pymatgen's math.asin) returns it; libm.ts has no asin. */
const ASIN_ONE_THIRD = 0.3398369094541219;

/**
 * a·b + c rounded once, as an FMA instruction gives it: Dekker's exact product, an exact sum, the low parts added
 * with rounding to odd, then one rounding to nearest (Boldo & Melquiond, IEEE Trans. Comput. 57, 462 (2008),
 * emulated FMA). Exact for operands away from overflow and underflow, as coordinates in Å are.
 */
function fma(a: number, b: number, c: number): number {
  const p = a * b;
  const as = SPLIT * a,
    bs = SPLIT * b;
  const ah = as - (as - a),
    bh = bs - (bs - b);
  const al = a - ah,
    bl = b - bh;
  const pl = ah * bh - p + ah * bl + al * bh + al * bl;
  // c + p = th + tl exactly (TwoSum).
  const th = c + p;
  const cv = th - p;
  const tl = c - cv + (p - (th - cv));
  // tl + pl rounded to odd: rounded to nearest, then moved off an even last bit toward the exact sum.
  const s = tl + pl;
  const sv = s - tl;
  const err = tl - (s - sv) + (pl - sv);
  let odd = s;
  if (err !== 0) {
    BITS_F64[0] = s;
    if ((BITS_U32[0] & 1) === 0) {
      const up = err > 0 === s > 0; // away from zero
      if (up) BITS_U32[0] += 1;
      else if (BITS_U32[0] === 0) {
        BITS_U32[0] = 0xffffffff;
        BITS_U32[1] -= 1;
      } else BITS_U32[0] -= 1;
      odd = BITS_F64[0];
    }
  }
  return th + odd;
}
const SPLIT = 134217729; // 2^27 + 1
const BITS_F64 = new Float64Array(1);
const BITS_U32 = new Uint32Array(BITS_F64.buffer);

/**
 * numpy's dot product of two 3-vectors (np.inner, np.dot, np.linalg.norm²) as the BLAS that made the goldens
 * computes it: a chain of fused multiply-adds, fma(a2, b2, fma(a1, b1, a0·b0)) (OpenBLAS's kernels on x86-64).
 * Where two neighbours are almost opposite, one ulp of the cosine moves acos by 1e-8, so the rounding must be numpy's.
 */
export const dot3 = (a0: number, a1: number, a2: number, b0: number, b1: number, b2: number): number => fma(a2, b2, fma(a1, b1, a0 * b0));

/** exp(-x²/2) in pymatgen's order of operations. */
const gauss = (x: number): number => exp(-0.5 * x * x);
/** cos(…) ** exp_cos_AA: Python's float power, x·x for the squares every parameter set uses. */
const powCos = (c: number, e: number): number => (e === 2 ? c * c : pow(c, e));

/** How a type's j–i–k angle (k part) and j–i–m angles (m part) contribute, and how the values are reduced. */
const Kind = {
  Bent: 0,
  TargetAngle: 1, // tri_plan_max, tet_max
  Pyramid: 2, // T, tri_pyr, sq_pyr, pent_pyr, hex_pyr
  Bipyramid: 3, // tri_bipyr, pent_bipyr, hex_bipyr, oct_max, sq_plan_max, hex_plan_max
  SeeSaw: 4, // see_saw_rect
  PentPlan: 5,
  Bcc: 6,
  Cuboct: 7,
} as const;
type Kind = (typeof Kind)[keyof typeof Kind];
const KIND: Partial<Record<OrderParamType, Kind>> = {
  bent: Kind.Bent,
  tri_plan_max: Kind.TargetAngle,
  tet_max: Kind.TargetAngle,
  T: Kind.Pyramid,
  tri_pyr: Kind.Pyramid,
  sq_pyr: Kind.Pyramid,
  pent_pyr: Kind.Pyramid,
  hex_pyr: Kind.Pyramid,
  tri_bipyr: Kind.Bipyramid,
  pent_bipyr: Kind.Bipyramid,
  hex_bipyr: Kind.Bipyramid,
  oct_max: Kind.Bipyramid,
  sq_plan_max: Kind.Bipyramid,
  hex_plan_max: Kind.Bipyramid,
  see_saw_rect: Kind.SeeSaw,
  pent_plan_max: Kind.PentPlan,
  bcc: Kind.Bcc,
  cuboct_max: Kind.Cuboct,
};

// Spherical-harmonic prefactors of get_q2 / get_q4 / get_q6 (Python evaluates each product left to right).
const TWO_PI = 2 * Math.PI;
const FOUR_PI = 4 * Math.PI;
const Q2 = { y22: 0.25 * Math.sqrt(15 / TWO_PI), y21: 0.5 * Math.sqrt(15 / TWO_PI), y20: 0.25 * Math.sqrt(5 / Math.PI) };
const Q4 = {
  y44: (3 / 16) * Math.sqrt(35 / TWO_PI),
  y43: (3 / 8) * Math.sqrt(35 / Math.PI),
  y42: (3 / 8) * Math.sqrt(5 / TWO_PI),
  y41: (3 / 8) * Math.sqrt(5 / Math.PI),
  y40: (3 / 16) * Math.sqrt(1 / Math.PI),
};
const Q6 = {
  y66: (1 / 64) * Math.sqrt(3003 / Math.PI),
  y65: (3 / 32) * Math.sqrt(1001 / Math.PI),
  y64: (3 / 32) * Math.sqrt(91 / TWO_PI),
  y63: (1 / 32) * Math.sqrt(1365 / Math.PI),
  y62: (1 / 64) * Math.sqrt(1365 / Math.PI),
  y61: (1 / 16) * Math.sqrt(273 / TWO_PI),
  y60: (1 / 32) * Math.sqrt(13 / Math.PI),
};
const MAX_NEIGHBORS = 64;
/** Orders of the trigonometric tables (get_q6 needs sin^6 θ, cos 6φ). */
const TRIG = 6;

/**
 * The neighbours of one centre and what get_order_parameters derives from them; `value` gives any ported order
 * parameter on the first `count` neighbours. Reused across sites: buffers grow, nothing is allocated per call.
 */
export class NeighborGeometry {
  private n = 0;
  private cap = 0;
  /** rijnorm: unit centre → neighbour vectors; dist: their lengths. */
  private unit = new Float64Array(0);
  private dist = new Float64Array(0);
  /** θ(j, k) = acos(unit_j · unit_k), at j·n + k. */
  private theta = new Float64Array(0);
  /** gramschmidt(unit_k, unit_j) normalised (pymatgen's xaxis / xtwoaxis), at 3(j·n + k); ok: its norm ≥ 1e-12. */
  private perp = new Float64Array(0);
  private perpOk = new Uint8Array(0);
  /** φ(j, k, m) = acos(perp(j, m) · perp(j, k)), at (j·n + k)·n + m. */
  private phi = new Float64Array(0);
  private anglesReady = false;
  /** Per neighbour and order l = 1..6 (at i·TRIG + l − 1): sin^l θ, cos^l θ, sin lφ, cos lφ (compute_trigonometric_terms). */
  private sinPow = new Float64Array(0);
  private cosPow = new Float64Array(0);
  private sinMul = new Float64Array(0);
  private cosMul = new Float64Array(0);
  private trigReady = false;
  /** Scratch of the spherical harmonics: per-neighbour prefactors of one m, the ±m blocks, the terms m = −l … l. */
  private pre = new Float64Array(0);
  private minus = 0;
  private plus = 0;
  private terms = new Float64Array(2 * TRIG + 1);

  /** Loads `n` centre → neighbour vectors (x, y, z each), in the order pymatgen receives the neighbours. */
  load(vectors: ArrayLike<number>, n: number): void {
    // The azimuth table holds n³ angles; CrystalNN's fingerprint needs 12 neighbours at most.
    if (!(n <= MAX_NEIGHBORS)) throw new Error(`order parameters of ${n} neighbours: at most ${MAX_NEIGHBORS} are supported`);
    if (n > this.cap) this.grow(n);
    this.n = n;
    for (let j = 0; j < n; j++) {
      const x = vectors[3 * j],
        y = vectors[3 * j + 1],
        z = vectors[3 * j + 2];
      const d = Math.sqrt(dot3(x, y, z, x, y, z));
      this.dist[j] = d;
      this.unit[3 * j] = x / d;
      this.unit[3 * j + 1] = y / d;
      this.unit[3 * j + 2] = z / d;
    }
    this.anglesReady = false;
    this.trigReady = false;
  }

  private grow(n: number): void {
    this.cap = n;
    this.unit = new Float64Array(3 * n);
    this.dist = new Float64Array(n);
    this.theta = new Float64Array(n * n);
    this.perp = new Float64Array(3 * n * n);
    this.perpOk = new Uint8Array(n * n);
    this.phi = new Float64Array(n * n * n);
    this.sinPow = new Float64Array(TRIG * n);
    this.cosPow = new Float64Array(TRIG * n);
    this.sinMul = new Float64Array(TRIG * n);
    this.cosMul = new Float64Array(TRIG * n);
    this.pre = new Float64Array(n);
  }

  /**
   * get_order_parameters(...)[0] of `op` with the first `count` loaded neighbours; null where pymatgen returns
   * None (too few neighbours for the type).
   */
  value(op: OrderParam, count = this.n): number | null {
    if (count > this.n) throw new Error(`order parameter of ${count} neighbours; ${this.n} loaded`);
    switch (op.type) {
      case 'sgl_bd':
        return this.singleBond(count);
      case 'q2':
      case 'q4':
      case 'q6':
        if (count === 0) return null;
        this.ensureTrig();
        return this.boop(op.type === 'q2' ? 2 : op.type === 'q4' ? 4 : 6, count);
      default:
        this.ensureAngles();
        return this.peters(op, KIND[op.type]!, count);
    }
  }

  /** sgl_bd: 1 − shortest / second shortest distance (1 for one neighbour, 0 for none). */
  private singleBond(count: number): number {
    if (count === 0) return 0;
    if (count === 1) return 1;
    let d0 = Infinity,
      d1 = Infinity;
    for (let j = 0; j < count; j++) {
      const d = this.dist[j];
      if (d < d0) {
        d1 = d0;
        d0 = d;
      } else if (d < d1) d1 = d;
    }
    return 1 - d0 / d1;
  }

  private ensureAngles(): void {
    if (this.anglesReady) return;
    this.anglesReady = true;
    const n = this.n,
      u = this.unit;
    for (let j = 0; j < n; j++) {
      const zx = u[3 * j],
        zy = u[3 * j + 1],
        zz = u[3 * j + 2];
      const zz2 = dot3(zx, zy, zz, zx, zy, zz);
      for (let k = 0; k < n; k++) {
        if (k === j) continue;
        const kx = u[3 * k],
          ky = u[3 * k + 1],
          kz = u[3 * k + 2];
        const dot = dot3(zx, zy, zz, kx, ky, kz);
        const jk = j * n + k;
        this.theta[jk] = acos(Math.max(-1, Math.min(dot, 1)));
        // gramschmidt(unit_k, unit_j): the part of k orthogonal to j.
        const f = dot / zz2;
        const px = kx - f * zx,
          py = ky - f * zy,
          pz = kz - f * zz;
        const len = Math.sqrt(dot3(px, py, pz, px, py, pz));
        this.perpOk[jk] = len < VERY_SMALL ? 0 : 1;
        this.perp[3 * jk] = px / len;
        this.perp[3 * jk + 1] = py / len;
        this.perp[3 * jk + 2] = pz / len;
      }
      // φ(j, k, m) = φ(j, m, k): the dot product is the same both ways.
      for (let k = 0; k < n; k++) {
        const jk = j * n + k;
        if (k === j || !this.perpOk[jk]) continue;
        const ax = this.perp[3 * jk],
          ay = this.perp[3 * jk + 1],
          az = this.perp[3 * jk + 2];
        for (let m = k + 1; m < n; m++) {
          const jm = j * n + m;
          if (m === j || !this.perpOk[jm]) continue;
          const dot = dot3(this.perp[3 * jm], this.perp[3 * jm + 1], this.perp[3 * jm + 2], ax, ay, az);
          const phi = acos(Math.max(-1, Math.min(dot, 1)));
          this.phi[jk * n + m] = phi;
          this.phi[jm * n + k] = phi;
        }
      }
    }
  }

  /**
   * The Peters-style types of get_order_parameters: neighbour j at the north pole, k on the prime meridian, m
   * anywhere; each (j, k) gathers a weighted score and a norm. bent sums them over all pairs; bcc sums the scores;
   * the others take the largest score / norm.
   */
  private peters(op: OrderParam, kind: Kind, count: number): number | null {
    const p = op.params;
    const n = this.n,
      theta = this.theta,
      phiOf = this.phi,
      perpOk = this.perpOk;
    const southPole = kind === Kind.Bipyramid || kind === Kind.SeeSaw;
    const hexPlan = op.type === 'hex_plan_max';
    const mPart = kind !== Kind.Bent;
    let total = 0,
      totalNorm = 0,
      best = -Infinity;
    for (let j = 0; j < count; j++) {
      let rowScore = 0,
        rowNorm = 0;
      for (let k = 0; k < count; k++) {
        if (k === j) continue;
        const jk = j * n + k;
        const tk = theta[jk];
        let score = 0,
          norm = 0;
        // The j–i–k angle.
        switch (kind) {
          case Kind.Bent:
          case Kind.TargetAngle:
            score += gauss(p.IGW_TA * (tk * IPI - p.TA));
            norm += 1;
            break;
          case Kind.Pyramid:
            score += gauss(p.IGW_EP * (tk * IPI - 0.5));
            norm += 1;
            break;
          case Kind.Cuboct:
            if (tk >= p.min_SPP) {
              score += p.w_SPP * gauss(p.IGW_SPP * (tk * IPI - 1));
              norm += p.w_SPP;
            }
            break;
          case Kind.Bipyramid:
          case Kind.SeeSaw:
            if (tk < p.min_SPP) {
              score += gauss(hexPlan ? p.IGW_TA * (Math.abs(tk * IPI - 0.5) - p.TA) : p.IGW_EP * (tk * IPI - 0.5));
              norm += 1;
            }
            break;
          case Kind.PentPlan:
            score += gauss(p.IGW_TA * (tk * IPI - (tk <= p.TA * Math.PI ? 0.4 : 0.8)));
            norm += 1;
            break;
          case Kind.Bcc:
            if (j < k && tk >= p.min_SPP) {
              score += p.w_SPP * gauss(p.IGW_SPP * (tk * IPI - 1));
              norm += p.w_SPP;
            }
            break;
        }
        // The j–i–m angles and m's azimuth from the j–i–k plane (none when k is parallel to j).
        if (mPart && perpOk[jk] && (kind !== Kind.Bcc || j < k)) {
          for (let m = 0; m < count; m++) {
            if (m === j || m === k) continue;
            const tm = theta[j * n + m];
            if (southPole && tm >= p.min_SPP) {
              score += gauss(p.IGW_SPP * (tm * IPI - 1));
              norm += 1;
            }
            if (!perpOk[j * n + m]) continue;
            const phi = phiOf[jk * n + m];
            switch (kind) {
              case Kind.TargetAngle:
                score += gauss(p.IGW_TA * (tm * IPI - p.TA)) * powCos(cos(p.fac_AA * phi), p.exp_cos_AA);
                norm += 1;
                break;
              case Kind.PentPlan: {
                const c = cos(phi);
                score += gauss(p.IGW_TA * (tm * IPI - (tm <= p.TA * Math.PI ? 0.4 : 0.8))) * c * c;
                norm += 1;
                break;
              }
              case Kind.Pyramid:
                score += powCos(cos(p.fac_AA * phi), p.exp_cos_AA) * gauss(p.IGW_EP * (tm * IPI - 0.5));
                norm += 1;
                break;
              case Kind.Bipyramid:
                if (tm < p.min_SPP && tk < p.min_SPP) {
                  const t = hexPlan ? p.IGW_TA * (Math.abs(tm * IPI - 0.5) - p.TA) : p.IGW_EP * (tm * IPI - 0.5);
                  score += powCos(cos(p.fac_AA * phi), p.exp_cos_AA) * gauss(t);
                  norm += 1;
                }
                break;
              case Kind.SeeSaw:
                if (tm < p.min_SPP && tk < p.min_SPP && phi < 0.75 * Math.PI) {
                  score += powCos(cos(p.fac_AA * phi), p.exp_cos_AA) * gauss(p.IGW_EP * (tm * IPI - 0.5));
                  norm += 1;
                }
                break;
              case Kind.Bcc:
                if (tk < p.min_SPP) {
                  const t = (tm - PI_OVER_2) / ASIN_ONE_THIRD;
                  score += (tk > PI_OVER_2 ? 1 : -1) * cos(3 * phi) * FAC_BCC * t * gauss(t);
                  norm += 1;
                }
                break;
              case Kind.Cuboct:
                if (tm < p.min_SPP && p.cuboctLow < tk && tk < p.cuboctHigh) {
                  if (p.cuboctLow < tm && tm < p.cuboctHigh) {
                    const c = cos(phi);
                    score += c * c * gauss(p.cuboctEquatorIGW * (tm * IPI - 0.5));
                    norm += 1;
                  } else if (tm < p.cuboctLow || tm > p.cuboctHigh) {
                    const ring = tm < p.cuboctLow ? ONE_THIRD : TWO_THIRDS;
                    score += gauss(0.0556 * (cos(phi - 0.5 * Math.PI) - 0.81649658)) * gauss(p.cuboctRingIGW * (tm * IPI - ring));
                    norm += 1;
                  }
                }
                break;
            }
          }
        }
        if (kind === Kind.Bent || kind === Kind.Bcc) {
          rowScore += score;
          rowNorm += norm;
        } else {
          const v = norm > 1e-12 ? score / norm : 0;
          if (v > best) best = v;
        }
      }
      total += rowScore;
      totalNorm += rowNorm;
    }
    if (kind === Kind.Bent) return totalNorm > 1e-12 ? total / totalNorm : null;
    if (kind === Kind.Bcc) return count > 3 ? total / (0.5 * (count * (6 + (count - 2) * (count - 3)))) : null;
    return count > 1 ? best : null;
  }

  /** compute_trigonometric_terms for every loaded neighbour: polar angle from z, azimuth from x (0 on the z axis). */
  private ensureTrig(): void {
    if (this.trigReady) return;
    this.trigReady = true;
    const u = this.unit;
    for (let i = 0; i < this.n; i++) {
      const x = u[3 * i],
        y = u[3 * i + 1],
        z = u[3 * i + 2];
      const theta = acos(Math.max(-1, Math.min(z, 1)));
      let phi = 0;
      if (-LEFT_OF_UNITY < z && z < LEFT_OF_UNITY) {
        phi = acos(Math.max(-1, Math.min(x / Math.sqrt(x * x + y * y), 1)));
        if (y < 0) phi = -phi;
      }
      const o = i * TRIG;
      const s = sin(theta),
        c = cos(theta);
      this.sinPow[o] = s;
      this.cosPow[o] = c;
      this.sinMul[o] = sin(phi);
      this.cosMul[o] = cos(phi);
      for (let l = 2; l <= TRIG; l++) {
        this.sinPow[o + l - 1] = this.sinPow[o + l - 2] * s;
        this.cosPow[o + l - 1] = this.cosPow[o + l - 2] * c;
        this.sinMul[o + l - 1] = sin(l * phi);
        this.cosMul[o + l - 1] = cos(l * phi);
      }
    }
  }

  /**
   * get_q2 / get_q4 / get_q6: √(4π/(2l+1) · Σ_m |Σ_i Y_lm(θ_i, φ_i)|²) / count, the sum over m = −l … l in that
   * order, each Y_lm with pymatgen's hard-coded prefactors.
   */
  private boop(l: number, count: number): number {
    const terms = this.terms;
    for (let m = l; m >= 1; m--) {
      for (let i = 0; i < count; i++) this.pre[i] = this.prefactor(l, m, i);
      this.harmonic(count, m);
      terms[l - m] = this.minus;
      terms[l + m] = this.plus;
    }
    let re = 0;
    for (let i = 0; i < count; i++) re += this.prefactor(l, 0, i);
    terms[l] = re * re;
    let acc = 0;
    for (let t = 0; t <= 2 * l; t++) acc += terms[t];
    return Math.sqrt((FOUR_PI * acc) / ((2 * l + 1) * (count * count)));
  }

  /** Sets minus / plus to pymatgen's Y_l_−m and Y_l_m blocks: |Σ pre_i e^{∓imφ_i}|², sign (−1)^m for +m. */
  private harmonic(count: number, m: number): void {
    const pre = this.pre,
      cosMul = this.cosMul,
      sinMul = this.sinMul;
    const o = m - 1;
    let re = 0,
      im = 0;
    for (let i = 0; i < count; i++) {
      re += pre[i] * cosMul[i * TRIG + o];
      im -= pre[i] * sinMul[i * TRIG + o];
    }
    this.minus = re * re + im * im;
    re = 0;
    im = 0;
    if (m % 2 === 1) {
      for (let i = 0; i < count; i++) {
        re -= pre[i] * cosMul[i * TRIG + o];
        im -= pre[i] * sinMul[i * TRIG + o];
      }
    } else {
      for (let i = 0; i < count; i++) {
        re += pre[i] * cosMul[i * TRIG + o];
        im += pre[i] * sinMul[i * TRIG + o];
      }
    }
    this.plus = re * re + im * im;
  }

  /** pymatgen's pre_y_l_m of neighbour i (the θ part of Y_lm), or for m = 0 the whole real Y_l0 term. */
  private prefactor(l: number, m: number, i: number): number {
    const o = i * TRIG - 1;
    const s = this.sinPow,
      c = this.cosPow;
    switch (l * 10 + m) {
      case 22:
        return Q2.y22 * s[o + 2];
      case 21:
        return Q2.y21 * s[o + 1] * c[o + 1];
      case 20:
        return Q2.y20 * (3 * c[o + 2] - 1);
      case 44:
        return Q4.y44 * s[o + 4];
      case 43:
        return Q4.y43 * s[o + 3] * c[o + 1];
      case 42:
        return Q4.y42 * s[o + 2] * (7 * c[o + 2] - 1);
      case 41:
        return Q4.y41 * s[o + 1] * (7 * c[o + 3] - 3 * c[o + 1]);
      case 40:
        return Q4.y40 * (35 * c[o + 4] - 30 * c[o + 2] + 3);
      case 66:
        return Q6.y66 * s[o + 6];
      case 65:
        return Q6.y65 * s[o + 5] * c[o + 1];
      case 64:
        return Q6.y64 * s[o + 4] * (11 * c[o + 2] - 1);
      case 63:
        return Q6.y63 * s[o + 3] * (11 * c[o + 3] - 3 * c[o + 1]);
      case 62:
        return Q6.y62 * s[o + 2] * (33 * c[o + 4] - 18 * c[o + 2] + 1);
      case 61:
        return Q6.y61 * s[o + 1] * (33 * c[o + 5] - 30 * c[o + 3] + 5 * c[o + 1]);
      default:
        return Q6.y60 * (231 * c[o + 6] - 315 * c[o + 4] + 105 * c[o + 2] - 5);
    }
  }
}
