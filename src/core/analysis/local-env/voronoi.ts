/**
 * Voronoi cells of the sites of a periodic structure, facet by facet, as pymatgen's VoronoiNN gives them to CrystalNN
 * (pymatgen/analysis/local_env.py, VoronoiNN.get_voronoi_polyhedra and _extract_cell_info, pymatgen v2022.11.7):
 * the cell of a site among its neighbours within the cutoff (all periodic images), and per facet the neighbour,
 * its image, the solid angle the facet subtends (local_env.solid_angle), the volume of the pyramid it spans with
 * the centre (vol_tetra over a fan) and the area 3·volume / face distance.
 *
 * pymatgen runs qhull (scipy.spatial.Voronoi) on the centre and its neighbours; here the cell is the box cut by each
 * neighbour's bisector plane in turn, nearest first, until no plane can reach the cell. A vertex is recomputed from
 * the three planes that made it, so coordinates stay exact to rounding. Degenerate meetings (four planes through one
 * point, a plane touching the cell at a vertex or an edge) make no facet, as qhull reports no ridge with fewer than
 * three Voronoi vertices. A cell that still reaches the box is open, read as qhull reports it (cellOf): pymatgen then
 * retries with twice the cutoff up to the cell's longest diagonal and then refuses the structure; so does this.
 */
import { atan } from '../../math/libm.ts';
import { type Mat3, inverse, norm } from '../../math/mat3.ts';
import { LIMITS, LimitError, limitSentence } from '../../limits.ts';
import { findNeighborsRaw, sitePositions } from '../../structure/neighbors.ts';
import type { Structure } from '../../structure/structure.ts';

/** Voronoi facets of every site: those of site i are `start[i]` to `start[i + 1] - 1`. */
export interface VoronoiCells {
  start: Uint32Array;
  /** Neighbour site of each facet. */
  index: Uint32Array;
  /** Its lattice image, 3 integers per facet: the neighbour sits at frac[index] + image. */
  image: Int32Array;
  /** Centre → neighbour vector (Å, 3 per facet); the face distance is half its length. */
  vector: Float64Array;
  solidAngle: Float64Array;
  area: Float64Array;
  volume: Float64Array;
  /** Distinct vertices of the facet. */
  nVerts: Uint16Array;
}

/** Half the edge of the starting box, Å: a cell that still reaches it is unbounded (qhull's infinite vertex). */
const BOX = 1e6;
/** Relative tolerance of the side test: a vertex this close to a plane lies on it (no sliver facet). */
const ON_PLANE = 1e-12;
/** Facet vertices closer than this (Å) are one vertex, as qhull merges the centres of cospherical Delaunay cells. */
const SAME_VERTEX = 1e-9;

/** Growable Float64Array / Int32Array helpers. */
function growF(a: Float64Array<ArrayBuffer>, n: number): Float64Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const b = new Float64Array(Math.max(n, 2 * a.length));
  b.set(a);
  return b;
}
function growI(a: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (n <= a.length) return a;
  const b = new Int32Array(Math.max(n, 2 * a.length));
  b.set(a);
  return b;
}

/** A face list: plane id per face, its vertices at verts[start .. start + len). */
class Faces {
  plane = new Int32Array(64);
  start = new Int32Array(64);
  len = new Int32Array(64);
  verts = new Int32Array(1024);
  n = 0;
  nv = 0;

  reset(): void {
    this.n = 0;
    this.nv = 0;
  }

  pushVert(v: number): void {
    if (this.nv === this.verts.length) this.verts = growI(this.verts, this.nv + 1);
    this.verts[this.nv++] = v;
  }

  /** Closes the face begun at `from` (its vertices pushed since), or drops it when it has under 3 vertices. */
  close(plane: number, from: number): void {
    const len = this.nv - from;
    if (len < 3) {
      this.nv = from;
      return;
    }
    if (this.n === this.plane.length) {
      this.plane = growI(this.plane, this.n + 1);
      this.start = growI(this.start, this.n + 1);
      this.len = growI(this.len, this.n + 1);
    }
    this.plane[this.n] = plane;
    this.start[this.n] = from;
    this.len[this.n] = len;
    this.n++;
  }
}

/**
 * The Voronoi cell of a centre at the origin, cut from a box by half-spaces n·x ≤ h (planes 0-5: the box,
 * 6 + k: neighbour k at p_k, n = p_k, h = |p_k|² / 2). Buffers are reused from cell to cell.
 */
class CellClipper {
  // Planes.
  nx = new Float64Array(256);
  ny = new Float64Array(256);
  nz = new Float64Array(256);
  h = new Float64Array(256);
  // Vertices: position, squared norm, the three planes that made it, side of the current plane.
  vx = new Float64Array(256);
  vy = new Float64Array(256);
  vz = new Float64Array(256);
  vr2 = new Float64Array(256);
  vp = new Int32Array(768);
  sd = new Float64Array(256);
  side = new Int8Array(256);
  stamp = new Int32Array(256);
  nv = 0;
  clock = 0;
  alive = new Int32Array(256);
  nAlive = 0;
  rMax2 = 0;
  faces = new Faces();
  spare = new Faces();
  // Edges cut by the current plane (lo, hi vertex → new vertex) and the links of the new face.
  cutLo = new Int32Array(64);
  cutHi = new Int32Array(64);
  cutV = new Int32Array(64);
  nCut = 0;
  linkFrom = new Int32Array(64);
  linkTo = new Int32Array(64);
  nLink = 0;
  events = new Int32Array(64);

  setPlanes(count: number): void {
    const n = 6 + count;
    if (n > this.nx.length) {
      this.nx = growF(this.nx, n);
      this.ny = growF(this.ny, n);
      this.nz = growF(this.nz, n);
      this.h = growF(this.h, n);
    }
    for (let k = 0; k < 6; k++) {
      this.nx[k] = k === 0 ? 1 : k === 1 ? -1 : 0;
      this.ny[k] = k === 2 ? 1 : k === 3 ? -1 : 0;
      this.nz[k] = k === 4 ? 1 : k === 5 ? -1 : 0;
      this.h[k] = BOX;
    }
  }

  private addVertex(x: number, y: number, z: number, a: number, b: number, c: number): number {
    const v = this.nv++;
    if (v === this.vx.length) {
      const n = v + 1;
      this.vx = growF(this.vx, n);
      this.vy = growF(this.vy, n);
      this.vz = growF(this.vz, n);
      this.vr2 = growF(this.vr2, n);
      this.sd = growF(this.sd, n);
      this.vp = growI(this.vp, 3 * this.vx.length);
      this.stamp = growI(this.stamp, this.vx.length);
      const side = new Int8Array(this.vx.length);
      side.set(this.side);
      this.side = side;
    }
    this.vx[v] = x;
    this.vy[v] = y;
    this.vz[v] = z;
    this.vr2[v] = x * x + y * y + z * z;
    this.vp[3 * v] = a;
    this.vp[3 * v + 1] = b;
    this.vp[3 * v + 2] = c;
    this.stamp[v] = 0;
    return v;
  }

  /** The box, with faces counter-clockwise seen from outside. */
  reset(): void {
    this.nv = 0;
    this.clock = 0;
    this.stamp.fill(0);
    for (let c = 0; c < 8; c++) {
      const sx = c & 1 ? 1 : -1,
        sy = c & 2 ? 1 : -1,
        sz = c & 4 ? 1 : -1;
      this.addVertex(sx * BOX, sy * BOX, sz * BOX, sx > 0 ? 0 : 1, sy > 0 ? 2 : 3, sz > 0 ? 4 : 5);
    }
    const f = this.faces;
    f.reset();
    const quads = [1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1];
    for (let k = 0; k < 6; k++) {
      const from = f.nv;
      for (let m = 0; m < 4; m++) f.pushVert(quads[4 * k + m]);
      f.close(k, from);
    }
    this.refreshAlive();
  }

  private refreshAlive(): void {
    const f = this.faces;
    const stamp = ++this.clock;
    if (this.alive.length < this.nv) this.alive = new Int32Array(Math.max(this.nv, 2 * this.alive.length));
    let n = 0;
    let r2 = 0;
    for (let k = 0; k < f.nv; k++) {
      const v = f.verts[k];
      if (this.stamp[v] === stamp) continue;
      this.stamp[v] = stamp;
      this.alive[n++] = v;
      if (this.vr2[v] > r2) r2 = this.vr2[v];
    }
    this.nAlive = n;
    this.rMax2 = r2;
  }

  /** The vertex where edge u–w crosses plane q, made once for the two faces that share the edge. */
  private cut(u: number, w: number, facePlane: number, q: number): number {
    const lo = u < w ? u : w,
      hi = u < w ? w : u;
    for (let k = 0; k < this.nCut; k++) {
      if (this.cutLo[k] === lo && this.cutHi[k] === hi) {
        const v = this.cutV[k];
        if (this.vp[3 * v + 1] < 0) this.vp[3 * v + 1] = facePlane;
        return v;
      }
    }
    const i = this.side[u] < 0 ? u : w;
    const o = i === u ? w : u;
    const t = this.sd[i] / (this.sd[i] - this.sd[o]);
    const v = this.addVertex(
      this.vx[i] + t * (this.vx[o] - this.vx[i]),
      this.vy[i] + t * (this.vy[o] - this.vy[i]),
      this.vz[i] + t * (this.vz[o] - this.vz[i]),
      facePlane,
      -1,
      q,
    );
    if (this.nCut === this.cutLo.length) {
      this.cutLo = growI(this.cutLo, this.nCut + 1);
      this.cutHi = growI(this.cutHi, this.nCut + 1);
      this.cutV = growI(this.cutV, this.nCut + 1);
    }
    this.cutLo[this.nCut] = lo;
    this.cutHi[this.nCut] = hi;
    this.cutV[this.nCut++] = v;
    return v;
  }

  /** Puts vertex v exactly where its three planes meet (when they meet at a clear angle). */
  private settle(v: number): void {
    const a = this.vp[3 * v],
      b = this.vp[3 * v + 1],
      c = this.vp[3 * v + 2];
    if (a < 0 || b < 0 || c < 0) return;
    const ax = this.nx[a],
      ay = this.ny[a],
      az = this.nz[a];
    const bx = this.nx[b],
      by = this.ny[b],
      bz = this.nz[b];
    const cx = this.nx[c],
      cy = this.ny[c],
      cz = this.nz[c];
    // (b × c), (c × a), (a × b)
    const bcx = by * cz - bz * cy,
      bcy = bz * cx - bx * cz,
      bcz = bx * cy - by * cx;
    const cax = cy * az - cz * ay,
      cay = cz * ax - cx * az,
      caz = cx * ay - cy * ax;
    const abx = ay * bz - az * by,
      aby = az * bx - ax * bz,
      abz = ax * by - ay * bx;
    const d = ax * bcx + ay * bcy + az * bcz;
    const scale = Math.sqrt((ax * ax + ay * ay + az * az) * (bx * bx + by * by + bz * bz) * (cx * cx + cy * cy + cz * cz));
    if (!(Math.abs(d) > 1e-6 * scale)) return;
    const ha = this.h[a],
      hb = this.h[b],
      hc = this.h[c];
    const x = (ha * bcx + hb * cax + hc * abx) / d;
    const y = (ha * bcy + hb * cay + hc * aby) / d;
    const z = (ha * bcz + hb * caz + hc * abz) / d;
    this.vx[v] = x;
    this.vy[v] = y;
    this.vz[v] = z;
    this.vr2[v] = x * x + y * y + z * z;
  }

  /** Whether vertex v lies on the box (one of its planes is a box face). */
  onBox(v: number): boolean {
    return this.vp[3 * v] < 6 || this.vp[3 * v + 1] < 6 || this.vp[3 * v + 2] < 6;
  }

  /** Vertices of face k off the box (qhull's finite Voronoi vertices of the ridge). */
  finiteVertices(k: number): number {
    const f = this.faces;
    let n = 0;
    for (let t = 0; t < f.len[k]; t++) if (!this.onBox(f.verts[f.start[k] + t])) n++;
    return n;
  }

  /** Cuts the cell with plane q; returns whether it changed. */
  clip(q: number): boolean {
    const nx = this.nx[q],
      ny = this.ny[q],
      nz = this.nz[q],
      h = this.h[q];
    const nn = Math.sqrt(nx * nx + ny * ny + nz * nz);
    let nOut = 0;
    for (let k = 0; k < this.nAlive; k++) {
      const v = this.alive[k];
      const s = nx * this.vx[v] + ny * this.vy[v] + nz * this.vz[v] - h;
      const tol = ON_PLANE * nn * (Math.sqrt(this.vr2[v]) + nn);
      this.sd[v] = s;
      if (s > tol) {
        this.side[v] = 1;
        nOut++;
      } else this.side[v] = s < -tol ? -1 : 0;
    }
    if (nOut === 0) return false;

    const src = this.faces,
      dst = this.spare;
    dst.reset();
    this.nCut = 0;
    this.nLink = 0;
    const firstNew = this.nv;
    for (let f = 0; f < src.n; f++) {
      const base = src.start[f],
        len = src.len[f],
        plane = src.plane[f];
      let out = false;
      for (let k = 0; k < len; k++) if (this.side[src.verts[base + k]] > 0) out = true;
      const from = dst.nv;
      if (!out) {
        for (let k = 0; k < len; k++) dst.pushVert(src.verts[base + k]);
        dst.close(plane, from);
        continue;
      }
      // Exits (last vertex before an outside run) and entries (first after it) alternate around the face.
      let nEvents = 0;
      for (let k = 0; k < len; k++) {
        const u = src.verts[base + k],
          w = src.verts[base + (k + 1 === len ? 0 : k + 1)];
        const su = this.side[u],
          sw = this.side[w];
        if (su <= 0) dst.pushVert(u);
        if (su <= 0 && sw > 0) {
          const a = su === 0 ? u : this.cut(u, w, plane, q);
          if (su < 0) dst.pushVert(a);
          this.pushEvent(nEvents++, a);
        } else if (su > 0 && sw <= 0) {
          const b = sw === 0 ? w : this.cut(u, w, plane, q);
          if (sw < 0) dst.pushVert(b);
          this.pushEvent(nEvents++, -1 - b);
        }
      }
      dst.close(plane, from);
      // The new face runs along this face's cut edge backwards: entry → exit.
      for (let e = 0; e < nEvents; e++) {
        const ev = this.events[e];
        if (ev >= 0) continue;
        const exit = this.events[(e - 1 + nEvents) % nEvents];
        if (exit < 0) continue;
        const entry = -1 - ev;
        if (entry !== exit) this.pushLink(entry, exit);
      }
    }
    this.faces = dst;
    this.spare = src;
    for (let v = firstNew; v < this.nv; v++) this.settle(v);
    this.closeNewFace(q);
    this.refreshAlive();
    return true;
  }

  private pushEvent(e: number, value: number): void {
    if (e === this.events.length) this.events = growI(this.events, e + 1);
    this.events[e] = value;
  }

  private pushLink(from: number, to: number): void {
    if (this.nLink === this.linkFrom.length) {
      this.linkFrom = growI(this.linkFrom, this.nLink + 1);
      this.linkTo = growI(this.linkTo, this.nLink + 1);
    }
    this.linkFrom[this.nLink] = from;
    this.linkTo[this.nLink++] = to;
  }

  /** The face on plane q from the links of the cut faces (a cycle; sorted by angle if rounding broke it). */
  private closeNewFace(q: number): void {
    const f = this.faces;
    const n = this.nLink;
    if (n < 3) return;
    const from = f.nv;
    const start = this.linkFrom[0];
    let cur = start;
    let ok = false;
    for (let step = 0; step < n; step++) {
      f.pushVert(cur);
      let next = -1;
      for (let k = 0; k < n; k++) {
        if (this.linkFrom[k] === cur) {
          next = this.linkTo[k];
          break;
        }
      }
      if (next < 0) break;
      cur = next;
      if (cur === start) {
        ok = true;
        break;
      }
    }
    if (!ok) {
      f.nv = from;
      this.sortedFace(q);
    }
    f.close(q, from);
  }

  /** Fallback: the distinct link vertices in angular order about the plane normal. */
  private sortedFace(q: number): void {
    const f = this.faces;
    const from = f.nv;
    for (let k = 0; k < this.nLink; k++) {
      for (const v of [this.linkFrom[k], this.linkTo[k]]) {
        let seen = false;
        for (let m = from; m < f.nv; m++) if (f.verts[m] === v) seen = true;
        if (!seen) f.pushVert(v);
      }
    }
    const m = f.nv - from;
    let cx = 0,
      cy = 0,
      cz = 0;
    for (let k = from; k < f.nv; k++) {
      const v = f.verts[k];
      cx += this.vx[v] / m;
      cy += this.vy[v] / m;
      cz += this.vz[v] / m;
    }
    const nx = this.nx[q],
      ny = this.ny[q],
      nz = this.nz[q];
    // An in-plane basis (u, n × u).
    const ux0 = Math.abs(nx) < 0.9 ? 0 : -nz,
      uy0 = Math.abs(nx) < 0.9 ? nz : 0,
      uz0 = Math.abs(nx) < 0.9 ? -ny : nx;
    const ux = ny * uz0 - nz * uy0,
      uy = nz * ux0 - nx * uz0,
      uz = nx * uy0 - ny * ux0;
    const verts = Array.from(f.verts.subarray(from, f.nv));
    const angle = new Map<number, number>();
    for (const v of verts) {
      const dx = this.vx[v] - cx,
        dy = this.vy[v] - cy,
        dz = this.vz[v] - cz;
      angle.set(v, pseudoAngle(dx * ux0 + dy * uy0 + dz * uz0, dx * ux + dy * uy + dz * uz));
    }
    verts.sort((a, b) => angle.get(a)! - angle.get(b)!);
    for (let k = 0; k < verts.length; k++) f.verts[from + k] = verts[k];
  }
}

/** Angle of (y, x) for sorting only (any monotone angle will do): pseudo-angle in (-2, 2]. */
function pseudoAngle(y: number, x: number): number {
  const r = Math.abs(x) + Math.abs(y);
  if (r === 0) return 0;
  const p = x / r;
  return y >= 0 ? 1 - p : p - 1;
}

/** pymatgen's local_env.solid_angle of the facet with vertices (x, y, z)[0..n) seen from the origin. */
function solidAngle(x: Float64Array, y: Float64Array, z: Float64Array, n: number): number {
  const n0 = Math.sqrt(x[0] * x[0] + y[0] * y[0] + z[0] * z[0]);
  let angle = 0;
  for (let i = 1; i < n - 1; i++) {
    const j = i + 1;
    const ni = Math.sqrt(x[i] * x[i] + y[i] * y[i] + z[i] * z[i]);
    const nj = Math.sqrt(x[j] * x[j] + y[j] * y[j] + z[j] * z[j]);
    // r0 · (ri × rj)
    const cx = y[i] * z[j] - z[i] * y[j],
      cy = z[i] * x[j] - x[i] * z[j],
      cz = x[i] * y[j] - y[i] * x[j];
    const tp = Math.abs(x[0] * cx + y[0] * cy + z[0] * cz);
    const d0i = x[0] * x[i] + y[0] * y[i] + z[0] * z[i];
    const d0j = x[0] * x[j] + y[0] * y[j] + z[0] * z[j];
    const dij = x[i] * x[j] + y[i] * y[j] + z[i] * z[j];
    const de = n0 * ni * nj + nj * d0i + ni * d0j + n0 * dij;
    const my = de === 0 ? (tp > 0 ? 0.5 * Math.PI : -0.5 * Math.PI) : atan(tp / de);
    angle += (my > 0 ? my : my + Math.PI) * 2;
  }
  return angle;
}

/** Volume of the fan of tetrahedra (origin, v0, vj, vk) over the facet: pymatgen's vol_tetra summed. */
function fanVolume(x: Float64Array, y: Float64Array, z: Float64Array, n: number): number {
  let volume = 0;
  for (let j = 1; j < n - 1; j++) {
    const k = j + 1;
    // vol_tetra(centre, v0, vj, vk) = |(c − vk) · ((v0 − vk) × (vj − vk))| / 6 with c = 0
    const ax = -x[k],
      ay = -y[k],
      az = -z[k];
    const bx = x[0] - x[k],
      by = y[0] - y[k],
      bz = z[0] - z[k];
    const cx = x[j] - x[k],
      cy = y[j] - y[k],
      cz = z[j] - z[k];
    volume += Math.abs(ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)) / 6;
  }
  return volume;
}

/** Growable output columns. */
class FacetBuffer {
  n = 0;
  index = new Uint32Array(256);
  image = new Int32Array(768);
  vector = new Float64Array(768);
  solidAngle = new Float64Array(256);
  area = new Float64Array(256);
  volume = new Float64Array(256);
  nVerts = new Uint16Array(256);

  push(j: number, i0: number, i1: number, i2: number, px: number, py: number, pz: number, sa: number, vol: number, nv: number): void {
    if (this.n === this.index.length) this.grow();
    const n = this.n++;
    this.index[n] = j;
    this.image[3 * n] = i0;
    this.image[3 * n + 1] = i1;
    this.image[3 * n + 2] = i2;
    this.vector[3 * n] = px;
    this.vector[3 * n + 1] = py;
    this.vector[3 * n + 2] = pz;
    this.solidAngle[n] = sa;
    this.volume[n] = vol;
    // face_area = 3 · volume / face_dist, face_dist = |p| / 2
    this.area[n] = (3 * vol) / (Math.sqrt(px * px + py * py + pz * pz) / 2);
    this.nVerts[n] = Math.min(nv, 65535);
  }

  private grow(): void {
    const cap = 2 * this.index.length;
    const u = new Uint32Array(cap);
    u.set(this.index);
    this.index = u;
    this.image = growI(this.image, 3 * cap);
    this.vector = growF(this.vector, 3 * cap);
    this.solidAngle = growF(this.solidAngle, cap);
    this.area = growF(this.area, cap);
    this.volume = growF(this.volume, cap);
    const v = new Uint16Array(cap);
    v.set(this.nVerts);
    this.nVerts = v;
  }
}

/** A site's neighbours within the cutoff: site, image and centre → neighbour vector, sorted by distance. */
class NeighborSet {
  n = 0;
  site = new Int32Array(256);
  image = new Int32Array(768);
  px = new Float64Array(256);
  py = new Float64Array(256);
  pz = new Float64Array(256);
  d2 = new Float64Array(256);
  order = new Uint32Array(256);

  reset(): void {
    this.n = 0;
  }

  push(j: number, i0: number, i1: number, i2: number, px: number, py: number, pz: number): void {
    if (this.n === this.site.length) {
      const cap = 2 * this.n;
      this.site = growI(this.site, cap);
      this.image = growI(this.image, 3 * cap);
      this.px = growF(this.px, cap);
      this.py = growF(this.py, cap);
      this.pz = growF(this.pz, cap);
      this.d2 = growF(this.d2, cap);
      this.order = new Uint32Array(cap);
    }
    const n = this.n++;
    this.site[n] = j;
    this.image[3 * n] = i0;
    this.image[3 * n + 1] = i1;
    this.image[3 * n + 2] = i2;
    this.px[n] = px;
    this.py[n] = py;
    this.pz[n] = pz;
    this.d2[n] = px * px + py * py + pz * pz;
  }

  sort(): Uint32Array {
    const order = this.order.subarray(0, this.n);
    for (let k = 0; k < this.n; k++) order[k] = k;
    const d2 = this.d2;
    order.sort((a, b) => d2[a] - d2[b] || a - b);
    return order;
  }
}

/** pymatgen's search radius: a C float in find_points_in_spheres, kept while d² < r² + 1e-8. */
const searchRadius2 = (cutoff: number): number => Math.fround(Math.fround(cutoff) * Math.fround(cutoff)) + 1e-8;

function workLimitError(what: string, pairs: number): LimitError {
  return new LimitError(
    'localEnvPairs',
    limitSentence(what, Number.isFinite(pairs) ? Math.ceil(pairs) : null, LIMITS.localEnvPairs, 'neighbour pairs', 'localEnvPairs'),
  );
}

/**
 * The Voronoi cell of every site of a periodic structure among its neighbours within `cutoff` Å (pymatgen's
 * VoronoiNN(cutoff=cutoff).get_voronoi_polyhedra for each site, qhull's facets). Throws a sentence for a structure
 * without a lattice, coincident sites, or a cell that stays open up to the longest cell diagonal (pymatgen:
 * "Error in Voronoi neighbor finding; max cutoff exceeded"), and a LimitError past LIMITS.localEnvPairs.
 */
export function voronoiCells(structure: Structure, cutoff = 7): VoronoiCells {
  const lattice = structure.lattice;
  if (!lattice) throw new Error('Voronoi cells need a periodic structure (one with a lattice)');
  const n = structure.sites.length;
  const m = lattice.matrix;
  const volume = Math.abs(lattice.volume);
  // Work: every site looks at its neighbours within the cutoff (≈ n² · 4/3 π r³ / V pairs).
  const expected = (n * n * 4 * Math.PI * cutoff ** 2 * cutoff) / 3 / volume;
  if (!(expected <= LIMITS.localEnvPairs)) throw workLimitError(`the Voronoi cells of ${n} sites within ${cutoff} Å`, expected);
  const pos = sitePositions(structure);
  const list = findNeighborsRaw(pos, m, Math.sqrt(searchRadius2(cutoff)));
  const pairs = 2 * list.i.length;
  if (pairs > LIMITS.localEnvPairs) throw workLimitError(`the Voronoi cells of ${n} sites within ${cutoff} Å`, pairs);

  // Directed neighbour lists (CSR): each unordered pair seen from both ends.
  const first = new Uint32Array(n + 1);
  for (let p = 0; p < list.i.length; p++) {
    first[list.i[p] + 1]++;
    first[list.j[p] + 1]++;
  }
  for (let a = 0; a < n; a++) first[a + 1] += first[a];
  const fill = first.slice(0, n);
  const nbr = new Uint32Array(pairs);
  const img = new Int32Array(3 * pairs);
  for (let p = 0; p < list.i.length; p++) {
    const a = list.i[p],
      c = list.j[p];
    let e = fill[a]++;
    nbr[e] = c;
    img[3 * e] = list.image[3 * p];
    img[3 * e + 1] = list.image[3 * p + 1];
    img[3 * e + 2] = list.image[3 * p + 2];
    e = fill[c]++;
    nbr[e] = a;
    img[3 * e] = -list.image[3 * p];
    img[3 * e + 1] = -list.image[3 * p + 1];
    img[3 * e + 2] = -list.image[3 * p + 2];
  }

  // pymatgen's largest cutoff: the longest cell diagonal + 0.01 Å.
  let maxCutoff = 0;
  for (const [s0, s1, s2] of [
    [1, 1, 1],
    [-1, 1, 1],
    [1, -1, 1],
    [1, 1, -1],
  ]) {
    const x = s0 * m[0][0] + s1 * m[1][0] + s2 * m[2][0],
      y = s0 * m[0][1] + s1 * m[1][1] + s2 * m[2][1],
      z = s0 * m[0][2] + s1 * m[1][2] + s2 * m[2][2];
    maxCutoff = Math.max(maxCutoff, Math.sqrt(x * x + y * y + z * z));
  }
  maxCutoff += 0.01;

  const set = new NeighborSet();
  const clipper = new CellClipper();
  const out = new FacetBuffer();
  const start = new Uint32Array(n + 1);
  let facetX = new Float64Array(64),
    facetY = new Float64Array(64),
    facetZ = new Float64Array(64);
  let work = pairs;
  for (let a = 0; a < n; a++) {
    start[a] = out.n;
    let r = cutoff;
    let status: number;
    for (;;) {
      set.reset();
      if (r === cutoff) {
        for (let e = first[a]; e < first[a + 1]; e++) {
          const c = nbr[e];
          const i0 = img[3 * e],
            i1 = img[3 * e + 1],
            i2 = img[3 * e + 2];
          set.push(
            c,
            i0,
            i1,
            i2,
            pos[3 * c] + i0 * m[0][0] + i1 * m[1][0] + i2 * m[2][0] - pos[3 * a],
            pos[3 * c + 1] + i0 * m[0][1] + i1 * m[1][1] + i2 * m[2][1] - pos[3 * a + 1],
            pos[3 * c + 2] + i0 * m[0][2] + i1 * m[1][2] + i2 * m[2][2] - pos[3 * a + 2],
          );
        }
      } else {
        work += sphereNeighbors(set, pos, m, a, r, LIMITS.localEnvPairs - work);
      }
      const order = set.sort();
      if (set.n > 0 && set.d2[order[0]] < 1e-16) {
        throw new Error(`sites ${a + 1} and ${set.site[order[0]] + 1} coincide: a Voronoi cell needs distinct sites`);
      }
      status = cellOf(clipper, set, order);
      if (status === NO_RIDGES)
        throw new Error(`the Voronoi cell of site ${a + 1} has no closed facet (pymatgen: "No Voronoi neighbors found")`);
      if (status !== OPEN) break;
      if (r >= maxCutoff) {
        throw new Error(
          `the Voronoi cell of site ${a + 1} stays open up to ${maxCutoff.toFixed(2)} Å (the longest cell diagonal): ` +
            'its neighbours do not surround it',
        );
      }
      r = Math.min(r * 2, maxCutoff + 0.001);
    }
    // Facets: the neighbour planes of the final cell, vertices settled and near-duplicates merged.
    const f = clipper.faces;
    for (let k = 0; k < f.n; k++) {
      const plane = f.plane[k];
      const len = f.len[k];
      if (plane < 6 || (status === CLOSED_FAR && clipper.finiteVertices(k) < len)) continue;
      if (len > facetX.length) {
        facetX = new Float64Array(2 * len);
        facetY = new Float64Array(2 * len);
        facetZ = new Float64Array(2 * len);
      }
      let cnt = 0;
      for (let t = 0; t < len; t++) {
        const v = f.verts[f.start[k] + t];
        const x = clipper.vx[v],
          y = clipper.vy[v],
          z = clipper.vz[v];
        if (cnt > 0 && (x - facetX[cnt - 1]) ** 2 + (y - facetY[cnt - 1]) ** 2 + (z - facetZ[cnt - 1]) ** 2 < SAME_VERTEX ** 2) continue;
        facetX[cnt] = x;
        facetY[cnt] = y;
        facetZ[cnt] = z;
        cnt++;
      }
      while (
        cnt > 1 &&
        (facetX[cnt - 1] - facetX[0]) ** 2 + (facetY[cnt - 1] - facetY[0]) ** 2 + (facetZ[cnt - 1] - facetZ[0]) ** 2 < SAME_VERTEX ** 2
      )
        cnt--;
      if (cnt < 3) continue;
      const q = plane - 6;
      const sa = solidAngle(facetX, facetY, facetZ, cnt);
      const vol = fanVolume(facetX, facetY, facetZ, cnt);
      // A facet of no area (collinear vertices) is no facet: qhull has no such ridge.
      if (!(vol > 0)) continue;
      out.push(set.site[q], set.image[3 * q], set.image[3 * q + 1], set.image[3 * q + 2], set.px[q], set.py[q], set.pz[q], sa, vol, cnt);
    }
  }
  start[n] = out.n;
  return {
    start,
    index: out.index.slice(0, out.n),
    image: out.image.slice(0, 3 * out.n),
    vector: out.vector.slice(0, 3 * out.n),
    solidAngle: out.solidAngle.slice(0, out.n),
    area: out.area.slice(0, out.n),
    volume: out.volume.slice(0, out.n),
    nVerts: out.nVerts.slice(0, out.n),
  };
}

/**
 * How qhull (as pymatgen runs it) sees a cell: closed, closed with its open facets unreported, open (pymatgen retries
 * with a larger cutoff), without ridges.
 */
const CLOSED = 0,
  CLOSED_FAR = 1,
  OPEN = 2,
  NO_RIDGES = 3;

/**
 * Cuts the cell of the origin by the neighbours nearest first and says how qhull would report it. qhull reports a
 * ridge when it has 3 Voronoi vertices, counting infinity once: an open facet with 2 finite vertices makes the cell
 * "pathological" (pymatgen retries), one with a single finite vertex is not reported at all (CLOSED_FAR: only the
 * closed facets count; NO_RIDGES when there are none, where pymatgen gives up). Input qhull refuses (under 4 points
 * with its point at infinity, or all in one plane) is OPEN, as pymatgen retries on the error. Where the centre lies
 * on its neighbours' hull without being a corner of it (between two of its own images beside ≥ 7 Å of vacuum), the
 * cell is open in exact arithmetic and here; qhull's rounding sometimes closes it ≈ 10¹⁵ Å away instead.
 */
function cellOf(clipper: CellClipper, set: NeighborSet, order: Uint32Array): number {
  if (set.n < 3 || coplanar(set, order)) return OPEN;
  setPlanes(clipper, set);
  clipper.reset();
  for (let k = 0; k < order.length; k++) {
    const q = order[k];
    // A plane at distance d/2 cannot reach a cell whose farthest vertex is nearer; nor can any farther one.
    if (set.d2[q] / 4 > clipper.rMax2 * (1 + 1e-9)) break;
    clipper.clip(6 + q);
  }
  const f = clipper.faces;
  let open = false;
  for (let k = 0; k < f.n; k++) if (f.plane[k] < 6) open = true;
  if (!open) return CLOSED;
  let closedFacets = 0;
  for (let k = 0; k < f.n; k++) {
    if (f.plane[k] < 6) continue;
    const finite = clipper.finiteVertices(k);
    if (finite === f.len[k]) closedFacets++;
    else if (finite >= 2) return OPEN;
  }
  return closedFacets > 0 ? CLOSED_FAR : NO_RIDGES;
}

/** The neighbours' bisector planes n·x ≤ h: n = p, h = |p|²/2. */
function setPlanes(clipper: CellClipper, set: NeighborSet): void {
  clipper.setPlanes(set.n);
  for (let k = 0; k < set.n; k++) {
    clipper.nx[6 + k] = set.px[k];
    clipper.ny[6 + k] = set.py[k];
    clipper.nz[6 + k] = set.pz[k];
    clipper.h[6 + k] = set.d2[k] / 2;
  }
}

/** Whether the centre and its neighbours lie in one plane (qhull: "initial simplex is flat"). */
function coplanar(set: NeighborSet, order: Uint32Array): boolean {
  const a = order[0];
  const ax = set.px[a],
    ay = set.py[a],
    az = set.pz[a];
  // b: the neighbour least parallel to a; then the largest volume (a × b) · c.
  let best = 0,
    nx = 0,
    ny = 0,
    nz = 0;
  for (let k = 0; k < set.n; k++) {
    const cx = ay * set.pz[k] - az * set.py[k],
      cy = az * set.px[k] - ax * set.pz[k],
      cz = ax * set.py[k] - ay * set.px[k];
    const s = (cx * cx + cy * cy + cz * cz) / set.d2[k];
    if (s > best) {
      best = s;
      nx = cx;
      ny = cy;
      nz = cz;
    }
  }
  const nn = Math.sqrt(nx * nx + ny * ny + nz * nz);
  if (!(nn > 1e-10 * set.d2[a])) return true;
  for (let k = 0; k < set.n; k++) {
    if (Math.abs(nx * set.px[k] + ny * set.py[k] + nz * set.pz[k]) > 1e-10 * nn * Math.sqrt(set.d2[k])) return false;
  }
  return true;
}

/**
 * All sites (any image) within `cutoff` of site a, by looping over the images that can reach it: the retry path
 * for cells the first cutoff leaves open. Returns the candidate pairs looked at (charged to the work limit).
 */
function sphereNeighbors(set: NeighborSet, pos: Float64Array, m: Mat3, a: number, cutoff: number, budget: number): number {
  const inv = inverse(m);
  const n = pos.length / 3;
  const r2 = searchRadius2(cutoff);
  const r = Math.sqrt(r2);
  // Fractional reach of the sphere along each axis: r · |column k of the inverse|.
  const reach = [0, 1, 2].map((k) => r * norm([inv[0][k], inv[1][k], inv[2][k]]));
  const frac = (p: number, k: number) => pos[3 * p] * inv[0][k] + pos[3 * p + 1] * inv[1][k] + pos[3 * p + 2] * inv[2][k];
  let looked = 0;
  for (let c = 0; c < n; c++) {
    const lo = [0, 1, 2].map((k) => Math.floor(frac(a, k) - frac(c, k) - reach[k]) - 1);
    const hi = [0, 1, 2].map((k) => Math.ceil(frac(a, k) - frac(c, k) + reach[k]) + 1);
    looked += (hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
    if (looked > budget) throw workLimitError(`the open Voronoi cell of site ${a + 1} (a search within ${cutoff.toFixed(2)} Å)`, looked);
    for (let i0 = lo[0]; i0 <= hi[0]; i0++)
      for (let i1 = lo[1]; i1 <= hi[1]; i1++)
        for (let i2 = lo[2]; i2 <= hi[2]; i2++) {
          if (c === a && i0 === 0 && i1 === 0 && i2 === 0) continue;
          const x = pos[3 * c] + i0 * m[0][0] + i1 * m[1][0] + i2 * m[2][0] - pos[3 * a];
          const y = pos[3 * c + 1] + i0 * m[0][1] + i1 * m[1][1] + i2 * m[2][1] - pos[3 * a + 1];
          const z = pos[3 * c + 2] + i0 * m[0][2] + i1 * m[1][2] + i2 * m[2][2] - pos[3 * a + 2];
          if (x * x + y * y + z * z < r2) set.push(c, i0, i1, i2, x, y, z);
        }
  }
  return looked;
}
