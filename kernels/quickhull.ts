// The convex hull of a point set by quickhull (Barber, Dobkin & Huhdanpaa 1996), as triangles, for
// src/core/analysis/hull.ts. Whether a point lies outside a face is Shewchuk's orientation test with its error
// bound (orient3d and o3derrboundA, "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", 1997), its exact form (kernels/orient.ts) where the rounded one is within its error bound of zero: a
// point counts as outside a face exactly when it is, so a point coplanar with a face counts as on it, and the
// decisions stay right for thin faces, whose rounded normals are noise (coordinates rounded to 8 decimals leave the
// atoms of a row 1e-9 Å off their line, and such a triangle is made when the row's end is added). The faces a new point sees are
// found depth-first from the face it was assigned to, which lists the horizon's edges in order around it (as
// quickhull3d does, github.com/mauriciopoppe/quickhull3d src/QuickHull.ts computeHorizon).
//
// Faces are triangles (v0, v1, v2), counter-clockwise seen from outside; edge k runs from v_k to v_(k+1) and
// neighbour k is the face across it. All arrays live in memory the caller lays out (src/core/analysis/hull.ts).

import { getI32, setI32 } from './memory';
import { orient3dExact } from './orient';

let pts: usize = 0; // f64 × 3 per point
let faceV: usize = 0; // i32 × 3 per face
let faceNb: usize = 0; // i32 × 3 per face
let twiceArea: usize = 0; // f64 per face: |(v1 − v0) × (v2 − v0)|, which turns orient3d into a height
let state: usize = 0; // i32 per face: 1 on the hull, 0 deleted
let outside: usize = 0; // i32 per face: first point of its outside set, −1 none
let nextPoint: usize = 0; // i32 per point: next point of the same outside set, −1 last
let freeFaces: usize = 0; // i32 stack of deleted face slots
let freeCount = 0;
let faceCount = 0;
let work: usize = 0; // i32 stack of faces that may have outside points
let workCount = 0;
let workCapacity = 0;
let horizonA: usize = 0; // i32 per horizon edge: start vertex, end vertex, the face beyond it, that face's edge
let horizonB: usize = 0;
let horizonFace: usize = 0;
let horizonEdge: usize = 0;
let horizonCount = 0;
let orphans: usize = 0; // i32: points of deleted faces, to assign again
let orphanCount = 0;
let dfsFace: usize = 0; // i32 × 3 per face: the depth-first walk's stack
let dfsFrom: usize = 0;
let dfsStep: usize = 0;

function px(i: i32): f64 {
  return load<f64>(pts + <usize>i * 24);
}

function py(i: i32): f64 {
  return load<f64>(pts + <usize>i * 24, 8);
}

function pz(i: i32): f64 {
  return load<f64>(pts + <usize>i * 24, 16);
}

/** Shewchuk's o3derrboundA: (7 + 56ε)ε, ε = 2⁻⁵³. */
const ORIENT_ERROR: f64 = (7.0 + 56.0 * 1.1102230246251565e-16) * 1.1102230246251565e-16;

/**
 * How far point p lies outside face f (a distance, through the face's normal) when it certainly does, else 0:
 * orient3d(v0, v1, v2, p), negative for a point on the outer side, and beyond its error bound.
 */
function outsideBy(f: i32, p: i32): f64 {
  const a = getI32(faceV, 3 * f),
    b = getI32(faceV, 3 * f + 1),
    c = getI32(faceV, 3 * f + 2);
  const adx = px(a) - px(p),
    ady = py(a) - py(p),
    adz = pz(a) - pz(p),
    bdx = px(b) - px(p),
    bdy = py(b) - py(p),
    bdz = pz(b) - pz(p),
    cdx = px(c) - px(p),
    cdy = py(c) - py(p),
    cdz = pz(c) - pz(p);
  const bdxcdy = bdx * cdy,
    cdxbdy = cdx * bdy,
    cdxady = cdx * ady,
    adxcdy = adx * cdy,
    adxbdy = adx * bdy,
    bdxady = bdx * ady;
  const det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
  const permanent =
    (Math.abs(bdxcdy) + Math.abs(cdxbdy)) * Math.abs(adz) +
    (Math.abs(cdxady) + Math.abs(adxcdy)) * Math.abs(bdz) +
    (Math.abs(adxbdy) + Math.abs(bdxady)) * Math.abs(cdz);
  // orient3d is six times the tetrahedron's volume: over twice the face's area, the height.
  const height = -det / load<f64>(twiceArea + ((<usize>f) << 3));
  if (-det > ORIENT_ERROR * permanent) return height;
  if (det > ORIENT_ERROR * permanent) return 0;
  // Within the bound the exact sign decides. The height then only ranks points; it may be negative, or NaN for a
  // face whose rounded cross product is 0 (three atoms of a row), and a point outside must still count as outside.
  const exact = orient3dExact(px(a), py(a), pz(a), px(b), py(b), pz(b), px(c), py(c), pz(c), px(p), py(p), pz(p));
  if (!(exact < 0)) return 0;
  return height > 0 ? height : f64.MIN_VALUE;
}

/** A new face (a, b, c) with its doubled area; its neighbours are set by the caller. Returns its index. */
function newFace(a: i32, b: i32, c: i32): i32 {
  let f: i32;
  if (freeCount > 0) f = getI32(freeFaces, --freeCount);
  else f = faceCount++;
  setI32(faceV, 3 * f, a);
  setI32(faceV, 3 * f + 1, b);
  setI32(faceV, 3 * f + 2, c);
  setI32(state, f, 1);
  setI32(outside, f, -1);
  const ux = px(b) - px(a),
    uy = py(b) - py(a),
    uz = pz(b) - pz(a),
    wx = px(c) - px(a),
    wy = py(c) - py(a),
    wz = pz(c) - pz(a);
  const nx = uy * wz - uz * wy,
    ny = uz * wx - ux * wz,
    nz = ux * wy - uy * wx;
  store<f64>(twiceArea + ((<usize>f) << 3), Math.sqrt(nx * nx + ny * ny + nz * nz));
  return f;
}

function link(f: i32, k: i32, g: i32, j: i32): void {
  setI32(faceNb, 3 * f + k, g);
  setI32(faceNb, 3 * g + j, f);
}

/** The edge of face o that borders face f. */
function edgeTowards(o: i32, f: i32): i32 {
  return getI32(faceNb, 3 * o) == f ? 0 : getI32(faceNb, 3 * o + 1) == f ? 1 : 2;
}

/** Drops from the work stack the faces deleted since they were put there or left without outside points. */
function compactWork(): void {
  let kept = 0;
  for (let k = 0; k < workCount; k++) {
    const g = getI32(work, k);
    if (getI32(state, g) == 1 && getI32(outside, g) >= 0) setI32(work, kept++, g);
  }
  workCount = kept;
}

/** Puts point p in the outside set of the face among faces[from, to) of the work stack it lies farthest above; false when none. */
function assign(p: i32, from: i32, to: i32): bool {
  let best: f64 = 0,
    bestFace = -1;
  for (let k = from; k < to; k++) {
    const f = getI32(work, k);
    const d = outsideBy(f, p);
    if (d > best) {
      best = d;
      bestFace = f;
    }
  }
  if (bestFace < 0) return false;
  setI32(nextPoint, p, getI32(outside, bestFace));
  setI32(outside, bestFace, p);
  return true;
}

/** Deletes face f (seen from eye), moving its outside points to the orphans. */
function deleteFace(f: i32): void {
  setI32(state, f, 0);
  for (let p = getI32(outside, f); p >= 0; p = getI32(nextPoint, p)) setI32(orphans, orphanCount++, p);
  setI32(outside, f, -1);
  setI32(freeFaces, freeCount++, f);
}

/**
 * Deletes face f and, depth first, every face beyond its edges that the eye sees; an edge beyond which the face is
 * not seen joins the horizon. The first face goes round all three edges; a face entered across its edge `from`
 * goes round the other two, starting after it, so the horizon comes out in order. An explicit stack: a far eye
 * sees thousands of faces.
 */
function horizon(eye: i32, f: i32): void {
  deleteFace(f);
  let depth = 1;
  setI32(dfsFace, 0, f);
  setI32(dfsFrom, 0, -1);
  setI32(dfsStep, 0, 1);
  while (depth > 0) {
    const top = depth - 1;
    const g = getI32(dfsFace, top),
      from = getI32(dfsFrom, top),
      s = getI32(dfsStep, top);
    if (s > (from < 0 ? 3 : 2)) {
      depth--;
      continue;
    }
    setI32(dfsStep, top, s + 1);
    const k = from < 0 ? s - 1 : (from + s) % 3;
    const o = getI32(faceNb, 3 * g + k);
    if (getI32(state, o) == 0) continue;
    if (outsideBy(o, eye) > 0) {
      deleteFace(o);
      setI32(dfsFace, depth, o);
      setI32(dfsFrom, depth, edgeTowards(o, g));
      setI32(dfsStep, depth, 1);
      depth++;
    } else {
      setI32(horizonA, horizonCount, getI32(faceV, 3 * g + k));
      setI32(horizonB, horizonCount, getI32(faceV, 3 * g + ((k + 1) % 3)));
      setI32(horizonFace, horizonCount, o);
      setI32(horizonEdge, horizonCount, edgeTowards(o, g));
      horizonCount++;
    }
  }
}

function farthestFromLine(n: i32, a: i32, b: i32): i32 {
  const dx = px(b) - px(a),
    dy = py(b) - py(a),
    dz = pz(b) - pz(a);
  let best: f64 = 0,
    at = -1;
  for (let i = 0; i < n; i++) {
    const ex = px(i) - px(a),
      ey = py(i) - py(a),
      ez = pz(i) - pz(a);
    const cx = dy * ez - dz * ey,
      cy = dz * ex - dx * ez,
      cz = dx * ey - dy * ex;
    const d = cx * cx + cy * cy + cz * cz;
    if (d > best) {
      best = d;
      at = i;
    }
  }
  return at;
}

/**
 * The hull of the n points at `points` (f64 triples). Scratch the caller lays out: 2n + 8 faces (i32 × 3 vertices,
 * i32 × 3 neighbours, f64 doubled area, i32 state, i32 outside), i32 × n next points, i32 × (2n + 8) free faces, work
 * stack (capacity workSize ≥ 4n + 16), horizon (4 × i32 × (2n + 8)), orphans (i32 × n) and the walk's stack (3 × i32 ×
 * (2n + 8)). Returns the number of face slots used (those with state 1 are the hull), or 0 when the points are
 * flat (none off a plane beyond doubt) or fewer than 4.
 */
export function quickhull(
  points: usize,
  n: i32,
  vertices: usize,
  neighbours: usize,
  areas: usize,
  states: usize,
  outsides: usize,
  next: usize,
  free: usize,
  workStack: usize,
  workSize: i32,
  hA: usize,
  hB: usize,
  hFace: usize,
  hEdge: usize,
  orphanList: usize,
  dfs: usize,
): i32 {
  pts = points;
  faceV = vertices;
  faceNb = neighbours;
  twiceArea = areas;
  state = states;
  outside = outsides;
  nextPoint = next;
  freeFaces = free;
  work = workStack;
  workCapacity = workSize;
  horizonA = hA;
  horizonB = hB;
  horizonFace = hFace;
  horizonEdge = hEdge;
  orphans = orphanList;
  dfsFace = dfs;
  dfsFrom = dfs + ((<usize>(2 * n + 8)) << 2);
  dfsStep = dfs + ((<usize>(4 * n + 16)) << 2);
  freeCount = 0;
  faceCount = 0;
  workCount = 0;
  if (n < 4) return 0;
  // The initial simplex: the two extreme points farthest apart along an axis, the point farthest from their line,
  // the point farthest from their plane.
  let v0 = 0,
    v1 = 0,
    spread: f64 = -1;
  for (let axis = 0; axis < 3; axis++) {
    let lo = 0,
      hi = 0;
    for (let i = 1; i < n; i++) {
      const x = load<f64>(pts + <usize>i * 24 + ((<usize>axis) << 3));
      if (x < load<f64>(pts + <usize>lo * 24 + ((<usize>axis) << 3))) lo = i;
      if (x > load<f64>(pts + <usize>hi * 24 + ((<usize>axis) << 3))) hi = i;
    }
    const s = load<f64>(pts + <usize>hi * 24 + ((<usize>axis) << 3)) - load<f64>(pts + <usize>lo * 24 + ((<usize>axis) << 3));
    if (s > spread) {
      spread = s;
      v0 = lo;
      v1 = hi;
    }
  }
  if (!(spread > 0)) return 0;
  const v2 = farthestFromLine(n, v0, v1);
  if (v2 < 0) return 0;
  // The point farthest off the plane of (v0, v1, v2), beyond doubt, on either side (none: the points are flat); the
  // base then faces away from it.
  const up = newFace(v0, v1, v2),
    down = newFace(v0, v2, v1);
  let v3 = -1,
    far: f64 = 0,
    above = false;
  for (let i = 0; i < n; i++) {
    const u = outsideBy(up, i),
      d = outsideBy(down, i);
    if (u > far || d > far) {
      far = u > d ? u : d;
      above = u > d;
      v3 = i;
    }
  }
  if (v3 < 0) return 0;
  faceCount = 0;
  const b0 = v0,
    b1 = above ? v2 : v1,
    b2 = above ? v1 : v2;
  const base = newFace(b0, b1, b2);
  const s0 = newFace(b1, b0, v3),
    s1 = newFace(b2, b1, v3),
    s2 = newFace(b0, b2, v3);
  link(base, 0, s0, 0);
  link(base, 1, s1, 0);
  link(base, 2, s2, 0);
  link(s0, 1, s2, 2);
  link(s0, 2, s1, 1);
  link(s1, 2, s2, 1);
  for (let f = 0; f < 4; f++) setI32(work, workCount++, f);
  for (let i = 0; i < n; i++) if (i != v0 && i != v1 && i != v2 && i != v3) assign(i, 0, 4);
  while (workCount > 0) {
    const f = getI32(work, --workCount);
    if (getI32(state, f) == 0 || getI32(outside, f) < 0) continue;
    // The eye: the face's outside point farthest above it.
    let eye = -1,
      best: f64 = -1;
    for (let p = getI32(outside, f); p >= 0; p = getI32(nextPoint, p)) {
      const d = outsideBy(f, p);
      if (d > best) {
        best = d;
        eye = p;
      }
    }
    horizonCount = 0;
    orphanCount = 0;
    horizon(eye, f);
    if (workCount + horizonCount > workCapacity) compactWork();
    // A fan of new faces from the eye over the horizon, each joined to the face beyond its edge and to its neighbours.
    const first = workCount;
    for (let h = 0; h < horizonCount; h++) {
      const g = newFace(getI32(horizonA, h), getI32(horizonB, h), eye);
      link(g, 0, getI32(horizonFace, h), getI32(horizonEdge, h));
      setI32(work, workCount++, g);
    }
    for (let h = 0; h < horizonCount; h++) {
      const g = getI32(work, first + h),
        next = getI32(work, first + ((h + 1) % horizonCount));
      link(g, 1, next, 2);
    }
    for (let k = 0; k < orphanCount; k++) {
      const p = getI32(orphans, k);
      if (p != eye) assign(p, first, workCount);
    }
    // Keep on the stack only the new faces that got points.
    let kept = first;
    for (let k = first; k < workCount; k++) {
      const g = getI32(work, k);
      if (getI32(outside, g) >= 0) setI32(work, kept++, g);
    }
    workCount = kept;
  }
  return faceCount;
}
