/**
 * Crystallographic symmetry operations in fractional coordinates: x' = rot · x + trans.
 * `rot` is an integer matrix (rows give the new x, y, z); `trans` is a translation in cell units.
 */
import { type Mat3, type Vec3, det, mat3, matMul, matVec, vec3 } from '../math/mat3.ts';
import { LIMITS, printable } from '../limits.ts';

export interface SymOp {
  rot: Mat3;
  trans: Vec3;
}

/** Tolerance for comparing translations (fractional units). */
export const TRANS_EPS = 1e-6;

export const identityOp = (): SymOp => ({
  rot: mat3([
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ]),
  trans: vec3(0, 0, 0),
});

/** Applies the operation to fractional coordinates (no wrapping). */
export function applyOp(op: SymOp, frac: Vec3): Vec3 {
  const r = matVec(op.rot, frac);
  return vec3(r[0] + op.trans[0], r[1] + op.trans[1], r[2] + op.trans[2]);
}

/** a ∘ b: apply b first, then a. */
export function composeOps(a: SymOp, b: SymOp): SymOp {
  const t = matVec(a.rot, b.trans);
  return { rot: matMul(a.rot, b.rot), trans: vec3(t[0] + a.trans[0], t[1] + a.trans[1], t[2] + a.trans[2]) };
}

/** Inverse operation: x = R⁻¹ x' − R⁻¹ t (R is unimodular, so R⁻¹ stays integer). */
export function invertOp(op: SymOp): SymOp {
  const r = op.rot;
  const d = det(r);
  // Adjugate / det keeps integers exact for unimodular matrices.
  const inv: Mat3 = [
    [(r[1][1] * r[2][2] - r[1][2] * r[2][1]) / d, (r[0][2] * r[2][1] - r[0][1] * r[2][2]) / d, (r[0][1] * r[1][2] - r[0][2] * r[1][1]) / d],
    [(r[1][2] * r[2][0] - r[1][0] * r[2][2]) / d, (r[0][0] * r[2][2] - r[0][2] * r[2][0]) / d, (r[0][2] * r[1][0] - r[0][0] * r[1][2]) / d],
    [(r[1][0] * r[2][1] - r[1][1] * r[2][0]) / d, (r[0][1] * r[2][0] - r[0][0] * r[2][1]) / d, (r[0][0] * r[1][1] - r[0][1] * r[1][0]) / d],
  ];
  const t = matVec(inv, op.trans);
  return { rot: mat3(inv.map((row) => row.map((x) => x + 0))), trans: vec3(-t[0] + 0, -t[1] + 0, -t[2] + 0) };
}

/** Wraps a translation component into [0, 1), snapping values within eps of 1 (or 0) to 0. */
export function wrapTrans(x: number, eps = TRANS_EPS): number {
  let w = x - Math.floor(x);
  if (w > 1 - eps || w < eps) w = 0;
  return w;
}

/** The same operation with its translation reduced modulo lattice translations to [0, 1). */
export function normalizeOp(op: SymOp): SymOp {
  return {
    rot: mat3(op.rot.map((r) => [r[0] + 0, r[1] + 0, r[2] + 0])),
    trans: vec3(wrapTrans(op.trans[0]), wrapTrans(op.trans[1]), wrapTrans(op.trans[2])),
  };
}

/** Equality modulo lattice translations. */
export function opsEqual(a: SymOp, b: SymOp, eps = TRANS_EPS): boolean {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) if (a.rot[i][j] !== b.rot[i][j]) return false;
    const d = a.trans[i] - b.trans[i];
    if (Math.abs(d - Math.round(d)) > eps) return false;
  }
  return true;
}

/** A string key for an operation (translation mod 1, rounded) used for hashing sets of operations. */
export function opKey(op: SymOp): string {
  const r = op.rot;
  const t = (x: number) => Math.round(wrapTrans(x) * 1e5) % 100000;
  return (
    `${r[0][0]},${r[0][1]},${r[0][2]},${r[1][0]},${r[1][1]},${r[1][2]},${r[2][0]},${r[2][1]},${r[2][2]}|` +
    `${t(op.trans[0])},${t(op.trans[1])},${t(op.trans[2])}`
  );
}

/**
 * Closes a set of generators into a group (translations modulo 1).
 * Throws when the closure grows beyond `maxOrder` (not a crystallographic group, e.g. irrational translations).
 * At most maxOrder × (distinct generators ≤ maxOrder) compositions: bounded whatever the input.
 */
export function closeGroup(generators: SymOp[], maxOrder: number = LIMITS.symmetryOperations): SymOp[] {
  const ops: SymOp[] = [identityOp()];
  const seen = new Set<string>([opKey(ops[0])]);
  const genKeys = new Set<string>();
  const gens: SymOp[] = [];
  for (const g of generators) {
    const n = normalizeOp(g);
    const k = opKey(n);
    if (genKeys.has(k)) continue;
    genKeys.add(k);
    gens.push(n);
    if (gens.length > maxOrder) throw new Error(`symmetry operations do not close into a space group (more than ${maxOrder} operations)`);
  }
  for (let i = 0; i < ops.length; i++) {
    for (const g of gens) {
      const p = normalizeOp(composeOps(g, ops[i]));
      const k = opKey(p);
      if (!seen.has(k)) {
        seen.add(k);
        ops.push(p);
        if (ops.length > maxOrder)
          throw new Error(`symmetry operations do not close into a space group (more than ${maxOrder} operations)`);
      }
    }
  }
  return ops;
}

/** A translation component as opKey quantises it (mod 1, 1e-5 steps). */
const quantisedTrans = (x: number): number => Math.round(wrapTrans(x) * 1e5) % 100000;

/**
 * True when the set (taken modulo lattice translations) is closed under composition and has no duplicates.
 * The |ops|² compositions are made on flat numbers with numeric keys (rotation in base 5, translation in
 * opKey's 1e-5 steps): string keys made a 192-operation check cost ~60 ms, a file of many blocks minutes.
 */
export function isGroup(ops: SymOp[]): boolean {
  // No space group has more operations (modulo lattice translations): quadratic work stays bounded.
  if (ops.length > LIMITS.symmetryOperations) return false;
  const norm = ops.map(normalizeOp);
  if (!norm.some((o) => opsEqual(o, identityOp()))) return false;
  // Rotations of crystallographic operations have entries in −2…2 in any reasonable basis; others take the slow path.
  if (norm.some((o) => o.rot.some((row) => row.some((x) => x < -2 || x > 2)))) {
    const keys = new Set(norm.map(opKey));
    if (keys.size !== norm.length) return false;
    for (const a of norm) for (const b of norm) if (!keys.has(opKey(composeOps(a, b)))) return false;
    return true;
  }
  const n = norm.length;
  const R = new Int32Array(9 * n),
    T = new Float64Array(3 * n);
  norm.forEach((o, k) => {
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) R[9 * k + 3 * i + j] = o.rot[i][j];
      T[3 * k + i] = o.trans[i];
    }
  });
  const rotCode = (r: ArrayLike<number>, at: number): number => {
    let c = 0;
    for (let m = 0; m < 9; m++) c = c * 5 + (r[at + m] + 2);
    return c;
  };
  const transCode = (x: number, y: number, z: number): number => (quantisedTrans(x) * 1e5 + quantisedTrans(y)) * 1e5 + quantisedTrans(z);
  const members = new Map<number, Set<number>>();
  for (let k = 0; k < n; k++) {
    const rc = rotCode(R, 9 * k);
    let set = members.get(rc);
    if (!set) members.set(rc, (set = new Set()));
    const tc = transCode(T[3 * k], T[3 * k + 1], T[3 * k + 2]);
    if (set.has(tc)) return false;
    set.add(tc);
  }
  const prod = new Int32Array(9);
  for (let a = 0; a < n; a++) {
    const ra = 9 * a;
    for (let b = 0; b < n; b++) {
      const rb = 9 * b;
      let inRange = true;
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) {
          const v = R[ra + 3 * i] * R[rb + j] + R[ra + 3 * i + 1] * R[rb + 3 + j] + R[ra + 3 * i + 2] * R[rb + 6 + j];
          prod[3 * i + j] = v;
          if (v < -2 || v > 2) inRange = false;
        }
      if (!inRange) return false;
      const set = members.get(rotCode(prod, 0));
      if (!set) return false;
      // a ∘ b: translation Ra·tb + ta.
      const tb = 3 * b,
        ta = 3 * a;
      const x = R[ra] * T[tb] + R[ra + 1] * T[tb + 1] + R[ra + 2] * T[tb + 2] + T[ta];
      const y = R[ra + 3] * T[tb] + R[ra + 4] * T[tb + 1] + R[ra + 5] * T[tb + 2] + T[ta + 1];
      const z = R[ra + 6] * T[tb] + R[ra + 7] * T[tb + 1] + R[ra + 8] * T[tb + 2] + T[ta + 2];
      if (!set.has(transCode(x, y, z))) return false;
    }
  }
  return true;
}

/** Snaps a decimal translation to the nearest multiple of 1/24 (covers 1/2, 1/3, 1/4, 1/6, 1/8, 1/12) when close. */
function snapTranslation(x: number): number {
  const k = Math.round(x * 24);
  return Math.abs(x * 24 - k) < 24 * 5e-4 ? k / 24 : x;
}

const FRACTION = /^(\d+(?:\.\d*)?|\.\d+)(?:\/(\d+(?:\.\d*)?|\.\d+))?$/;

/**
 * Parses an operation written as an xyz triplet: `x,y,z`, `-x+1/2, y, -z`, `1/2+x`, `x-y`, `0.5+x`,
 * `+x`, upper case, spaces, surrounding quotes, `2x`/`2*x` coefficients. Throws Error with a clear message.
 */
export function parseSymop(text: string): SymOp {
  const shown = printable(text.trim(), 60);
  let s = text.trim();
  if ((s.startsWith("'") && s.endsWith("'")) || (s.startsWith('"') && s.endsWith('"'))) s = s.slice(1, -1);
  s = s.replace(/\s+/g, '').toLowerCase();
  const parts = s.split(',');
  if (parts.length !== 3) throw new Error(`symmetry operation '${shown}' must have three comma-separated parts`);
  const rot: Mat3 = [vec3(0, 0, 0), vec3(0, 0, 0), vec3(0, 0, 0)];
  const trans = vec3(0, 0, 0);
  parts.forEach((part, row) => {
    if (part === '') throw new Error(`symmetry operation '${shown}' has an empty part`);
    // Split into signed terms: "-x+1/2" -> ["-x", "+1/2"].
    const terms = part.match(/[+-]?[^+-]+/g);
    if (!terms || terms.join('') !== part) throw new Error(`symmetry operation '${shown}': cannot read '${printable(part)}'`);
    let sawVariable = false;
    for (const term of terms) {
      let sign = 1;
      let body = term;
      if (body[0] === '+' || body[0] === '-') {
        sign = body[0] === '-' ? -1 : 1;
        body = body.slice(1);
      }
      const m = /^(.*?)\*?([xyz])$/.exec(body);
      if (m) {
        const col = 'xyz'.indexOf(m[2]);
        let coef = 1;
        if (m[1] !== '') {
          const f = FRACTION.exec(m[1]);
          if (!f) throw new Error(`symmetry operation '${shown}': cannot read '${printable(term)}'`);
          coef = f[2] !== undefined ? Number(f[1]) / Number(f[2]) : Number(f[1]);
        }
        if (!Number.isInteger(coef)) throw new Error(`symmetry operation '${shown}': coefficient of ${m[2]} is not an integer`);
        rot[row][col] += sign * coef;
        sawVariable = true;
      } else {
        const f = FRACTION.exec(body);
        if (!f) throw new Error(`symmetry operation '${shown}': cannot read '${printable(term)}'`);
        const value = f[2] !== undefined ? Number(f[1]) / Number(f[2]) : Number(f[1]);
        if (!Number.isFinite(value)) throw new Error(`symmetry operation '${shown}': bad number '${printable(term)}'`);
        trans[row] += sign * value;
      }
    }
    if (!sawVariable) throw new Error(`symmetry operation '${shown}': part '${printable(part)}' has no x, y or z`);
    trans[row] = snapTranslation(trans[row]);
  });
  const d = det(rot);
  if (Math.abs(Math.abs(d) - 1) > 1e-9)
    throw new Error(`symmetry operation '${shown}' is not a crystallographic operation (determinant ${d})`);
  return { rot, trans };
}

function formatFraction(x: number): string {
  for (const den of [1, 2, 3, 4, 6, 8, 12, 24]) {
    const num = Math.round(x * den);
    if (Math.abs(x * den - num) < 1e-9) return den === 1 ? String(num) : `${num}/${den}`;
  }
  return String(x);
}

/** Formats as a triplet like `-x+1/2,y,-z` (translations as given, not wrapped). */
export function symopToString(op: SymOp): string {
  const parts: string[] = [];
  for (let i = 0; i < 3; i++) {
    let s = '';
    for (let j = 0; j < 3; j++) {
      const c = op.rot[i][j];
      if (c === 0) continue;
      const v = 'xyz'[j];
      const mag = Math.abs(c) === 1 ? v : `${Math.abs(c)}*${v}`;
      s += c < 0 ? `-${mag}` : s === '' ? mag : `+${mag}`;
    }
    const t = op.trans[i];
    if (Math.abs(t) > 1e-12) s += t < 0 ? `-${formatFraction(-t)}` : `+${formatFraction(t)}`;
    parts.push(s === '' ? '0' : s);
  }
  return parts.join(',');
}
