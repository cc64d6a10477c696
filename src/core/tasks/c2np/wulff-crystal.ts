/**
 * The Wulff shape of any crystal: each given (hkl) is expanded to its family with the crystal's point group (spglib's
 * rotations on the cell as read; plane indices transform as h' = Rᵀh), every plane of a family stands at its surface
 * energy γ along its unit normal G/|G| (G = h a* + k b* + l c*, Cartesian, as in docs/crystallography.md §6), and the
 * shape is the intersection of the half-spaces n·x ≤ γ. Planes that only touch the shape (at an edge or a corner) are
 * no face. Miller indices refer to the cell as read; the Materials Project's refer to the conventional standard cell.
 *
 * The numbers follow pymatgen's WulffShape (materialsproject/pymatgen pymatgen/analysis/wulff.py: area_fraction_dict,
 * shape_factor = area / volume^(2/3), weighted_surface_energy, anisotropy, effective_radius), which expands with the
 * symmetry of the bare lattice (Lattice.get_recp_symmetry_operation); `symmetry: 'lattice'` does that here. The default,
 * 'laue', is the crystal's point group with inversion: a slab's energy belongs to both of its faces, so (hkl) and (h̄k̄l̄)
 * share it; 'point-group' leaves a polar crystal's opposite faces apart (give both). pymatgen intersects by a dual
 * convex hull (qhull); here a large box is clipped by each plane in turn (as src/core/analysis/local-env/voronoi.ts
 * clips Voronoi cells) and every corner is then recomputed from the planes through it, so corners are exact to rounding.
 */
import { atan2, cbrt } from '../../math/libm.ts';
import { type Mat3, type Vec3, cross, dot, inverse, norm, vec3 } from '../../math/mat3.ts';
import { gcd } from '../../math/gcd.ts';
import { symmetryUnavailable } from '../../symmetry/analyze.ts';
import { symmetryDataset } from '../../symmetry/dataset.ts';
import type { Lattice } from '../../structure/lattice.ts';
import type { Structure } from '../../structure/structure.ts';
import { ClusterError } from '../../structure/clusters/common.ts';
import { type SurfaceEnergy, millerText } from '../../structure/clusters/surface-energies.ts';

/** Which rotations make a family: the crystal's point group with inversion (default), without it, or the lattice's. */
export type WulffSymmetry = 'laue' | 'point-group' | 'lattice';

export interface WulffOptions {
  symmetry?: WulffSymmetry;
  /** Tolerance of the space-group search, Å (default 0.01, as `structlab symmetry`). */
  symprec?: number;
}

/** A family of planes: one given (hkl), its energy and its symmetry-equivalent members. */
export interface WulffFamily {
  /** The indices as given (three, or four for h k i l). */
  miller: number[];
  /** "{1 0 0}": the given indices in braces. */
  label: string;
  energy: number;
  /** Every equivalent (h k l) (three indices in the cell as read), the given one first. */
  members: Vec3[];
  /** Area of its faces on the shape (in the unit of γ, squared). */
  area: number;
  /** Its share of the shape's area, 0–1 (pymatgen's area_fraction_dict). */
  areaFraction: number;
  /** Whether any of its planes is a face of the shape (pymatgen's on_wulff). */
  onShape: boolean;
}

/** One face of the polyhedron: a plane of a family, its corners counter-clockwise seen from outside. */
export interface WulffFace {
  family: number;
  hkl: Vec3;
  /** Outward unit normal (Cartesian). */
  normal: Vec3;
  /** Distance of the plane from the centre: the family's energy. */
  distance: number;
  /** Indices into `vertices`. */
  vertices: number[];
  area: number;
}

export interface WulffShape {
  /** Corners (Cartesian, the frame of the cell the shape was built in; the centre at the origin; lengths in units of γ). */
  vertices: Vec3[];
  faces: WulffFace[];
  families: WulffFamily[];
  volume: number;
  surfaceArea: number;
  /** surfaceArea / volume^(2/3). */
  shapeFactor: number;
  /** Σ γ·area / Σ area. */
  weightedSurfaceEnergy: number;
  /** √(Σ (γ − weighted)²·fraction) / weighted, over the given families. */
  anisotropy: number;
  /** Radius of the sphere of the same volume. */
  effectiveRadius: number;
  edges: number;
  symmetry: WulffSymmetry;
  /** The point group the families were expanded with, e.g. "m-3m", and the space group it came from. */
  pointGroup: string;
  spaceGroup: string;
  /** Notes for the user (a cell that is not the conventional one, …). */
  warnings: string[];
}

/** A plane n·x = d, outward unit normal n, of family `family`. */
interface Plane {
  normal: Vec3;
  distance: number;
  family: number;
  hkl: Vec3;
}

const ROTATION_KEY = (r: Mat3): string => r.flat().join(',');

/** The integer rotations of `symmetry` in the fractional basis of the structure's cell, with the group names. */
function rotationsOf(
  structure: Structure,
  symmetry: WulffSymmetry,
  symprec: number,
): { rotations: Mat3[]; pointGroup: string; spaceGroup: string; conventionalSites: number | null } {
  const lattice = structure.lattice!;
  // The bare lattice (one atom at the origin), at pymatgen's relative tolerance, for 'lattice'.
  const searched: Structure =
    symmetry === 'lattice'
      ? { name: structure.name, lattice, sites: [{ species: { H: 1 }, xyz: vec3(0, 0, 0), frac: vec3(0, 0, 0) }] }
      : structure;
  const prec = symmetry === 'lattice' ? 1e-5 * cbrt(lattice.volume) : symprec;
  const dataset = symmetryDataset(searched, prec);
  if (!dataset) {
    const why = symmetryUnavailable(searched, prec);
    throw new ClusterError(`the point group of ${structure.name || 'the crystal'} cannot be found${why ? ` (${why})` : ''}`);
  }
  const seen = new Map<string, Mat3>();
  for (const op of dataset.operations) {
    const r = op.rot.map((row) => row.map((x) => Math.round(x))) as Mat3;
    seen.set(ROTATION_KEY(r), r);
    if (symmetry === 'laue') {
      const inv = r.map((row) => row.map((x) => -x + 0)) as Mat3;
      seen.set(ROTATION_KEY(inv), inv);
    }
  }
  const spaceGroup = dataset.international;
  const pointGroup = symmetry === 'laue' ? laueClassOf(dataset.pointGroup) : dataset.pointGroup;
  return {
    rotations: [...seen.values()],
    pointGroup,
    spaceGroup: symmetry === 'lattice' ? `the lattice's ${spaceGroup}` : spaceGroup,
    conventionalSites: symmetry === 'lattice' ? null : dataset.stdCell.sites.length,
  };
}

/** The Laue class of a point group (its group with inversion), by spglib's point-group symbols. */
function laueClassOf(pointGroup: string): string {
  const LAUE: Record<string, string> = {
    '1': '-1',
    '-1': '-1',
    '2': '2/m',
    m: '2/m',
    '2/m': '2/m',
    '222': 'mmm',
    mm2: 'mmm',
    mmm: 'mmm',
    '4': '4/m',
    '-4': '4/m',
    '4/m': '4/m',
    '422': '4/mmm',
    '4mm': '4/mmm',
    '-42m': '4/mmm',
    '4/mmm': '4/mmm',
    '3': '-3',
    '-3': '-3',
    '32': '-3m',
    '3m': '-3m',
    '-3m': '-3m',
    '6': '6/m',
    '-6': '6/m',
    '6/m': '6/m',
    '622': '6/mmm',
    '6mm': '6/mmm',
    '-6m2': '6/mmm',
    '6/mmm': '6/mmm',
    '23': 'm-3',
    'm-3': 'm-3',
    '432': 'm-3m',
    '-43m': 'm-3m',
    'm-3m': 'm-3m',
  };
  return Object.hasOwn(LAUE, pointGroup) ? LAUE[pointGroup] : `${pointGroup} with inversion`;
}

/** The three-index (h k l) of given indices (h k i l → h k l, as pymatgen's hkl_list). */
const threeIndex = (miller: readonly number[]): Vec3 => vec3(miller[0], miller[1], miller[miller.length - 1]);

/** A direction's key: the indices divided by their greatest common divisor ((2,0,0) and (1,0,0) are one plane normal). */
function directionKey(h: Vec3): string {
  const d = gcd(gcd(Math.abs(h[0]), Math.abs(h[1])), Math.abs(h[2]));
  return h.map((x) => x / d + 0).join(',');
}

/** The families of the given energies under `rotations`; refuses a family given twice. */
function familiesOf(energies: readonly SurfaceEnergy[], rotations: readonly Mat3[]): WulffFamily[] {
  const owner = new Map<string, number>();
  return energies.map((e, f) => {
    const h = threeIndex(e.miller);
    const members: Vec3[] = [];
    const keys = new Set<string>();
    for (const r of rotationsIdentityFirst(rotations)) {
      // h' = Rᵀh: the plane h·x = c goes to h·R⁻¹x' = c, and the group holds R⁻¹ with R.
      const m = vec3(
        r[0][0] * h[0] + r[1][0] * h[1] + r[2][0] * h[2] + 0,
        r[0][1] * h[0] + r[1][1] * h[1] + r[2][1] * h[2] + 0,
        r[0][2] * h[0] + r[1][2] * h[1] + r[2][2] * h[2] + 0,
      );
      const key = directionKey(m);
      if (keys.has(key)) continue;
      keys.add(key);
      members.push(m);
      const other = owner.get(key);
      if (other !== undefined)
        throw new ClusterError(
          `${millerText(energies[other].miller)} and ${millerText(e.miller)} are the same family of planes in this crystal; ` +
            'give each family once',
        );
    }
    for (const key of keys) owner.set(key, f);
    return { miller: [...e.miller], label: `{${e.miller.join(' ')}}`, energy: e.energy, members, area: 0, areaFraction: 0, onShape: false };
  });
}

/** The identity first, so that a family's first member is the (hkl) as given. */
function rotationsIdentityFirst(rotations: readonly Mat3[]): Mat3[] {
  const id = '1,0,0,0,1,0,0,0,1';
  return [...rotations].sort((a, b) => (ROTATION_KEY(a) === id ? -1 : ROTATION_KEY(b) === id ? 1 : 0));
}

/** A polygon of a plane during the clipping: its plane's index (negative: a face of the starting box) and corners. */
interface Polygon {
  plane: number;
  points: Vec3[];
}

const lerp = (p: Vec3, q: Vec3, t: number): Vec3 => vec3(p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), p[2] + t * (q[2] - p[2]));

/** Points with any two closer than `tol` made one. */
function distinct(points: readonly Vec3[], tol: number): Vec3[] {
  const out: Vec3[] = [];
  for (const p of points)
    if (!out.some((q) => Math.abs(p[0] - q[0]) <= tol && Math.abs(p[1] - q[1]) <= tol && Math.abs(p[2] - q[2]) <= tol)) out.push(p);
  return out;
}

/** Polygon corners ordered counter-clockwise about `normal` (seen from its tip); returns index order into `points`. */
function aroundNormal(points: readonly Vec3[], normal: Vec3): number[] {
  const c = vec3(0, 0, 0);
  for (const p of points) for (let k = 0; k < 3; k++) c[k] += p[k] / points.length;
  const axis = Math.abs(normal[0]) < 0.9 ? vec3(1, 0, 0) : vec3(0, 1, 0);
  const u = cross(normal, axis);
  const lu = norm(u);
  const uu = vec3(u[0] / lu, u[1] / lu, u[2] / lu);
  const w = cross(normal, uu);
  const angle = points.map((p) => {
    const d = vec3(p[0] - c[0], p[1] - c[1], p[2] - c[2]);
    return atan2(dot(d, w), dot(d, uu));
  });
  return points.map((_, i) => i).sort((i, j) => angle[i] - angle[j]);
}

/** Area of a planar polygon whose corners are in order. */
function polygonArea(points: readonly Vec3[], normal: Vec3): number {
  const s = vec3(0, 0, 0);
  for (let i = 0; i < points.length; i++) {
    const c = cross(points[i], points[(i + 1) % points.length]);
    for (let k = 0; k < 3; k++) s[k] += c[k];
  }
  return Math.abs(dot(s, normal)) / 2;
}

/** Cuts the convex polyhedron `faces` by n·x ≤ d (plane index `id`): Sutherland–Hodgman on each face, then the cap. */
function clip(faces: readonly Polygon[], n: Vec3, d: number, id: number, eps: number): Polygon[] {
  const out: Polygon[] = [];
  const cut: Vec3[] = [];
  for (const f of faces) {
    const pts = f.points;
    const side = pts.map((p) => dot(n, p) - d);
    if (side.every((s) => s <= eps)) {
      out.push(f);
      for (let i = 0; i < pts.length; i++) if (side[i] >= -eps) cut.push(pts[i]);
      continue;
    }
    const kept: Vec3[] = [];
    for (let i = 0; i < pts.length; i++) {
      const j = (i + 1) % pts.length;
      if (side[i] <= eps) {
        kept.push(pts[i]);
        if (side[i] >= -eps) cut.push(pts[i]);
      }
      if ((side[i] < -eps && side[j] > eps) || (side[i] > eps && side[j] < -eps)) {
        const x = lerp(pts[i], pts[j], side[i] / (side[i] - side[j]));
        kept.push(x);
        cut.push(x);
      }
    }
    const points = distinct(kept, eps);
    if (points.length >= 3) out.push({ plane: f.plane, points });
  }
  const cap = distinct(cut, eps);
  if (cap.length >= 3) {
    const ordered = aroundNormal(cap, n).map((i) => cap[i]);
    if (polygonArea(ordered, n) > eps * eps) out.push({ plane: id, points: ordered });
  }
  return out;
}

/** The point closest (least squares) to all `planes`: the exact corner where three or more of them meet. */
function cornerOf(planes: readonly Plane[]): Vec3 | null {
  const a = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const b = [0, 0, 0];
  for (const p of planes)
    for (let i = 0; i < 3; i++) {
      b[i] += p.normal[i] * p.distance;
      for (let j = 0; j < 3; j++) a[i][j] += p.normal[i] * p.normal[j];
    }
  const m = a as Mat3;
  const detM =
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
    m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
    m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  if (!(Math.abs(detM) > 1e-12)) return null;
  const inv = inverse(m);
  return vec3(dot(inv[0], b as Vec3), dot(inv[1], b as Vec3), dot(inv[2], b as Vec3));
}

/** Axis names of the starting box's faces, for the sentence about an open shape. */
const BOX_FACES = ['+x', '−x', '+y', '−y', '+z', '−z'];

/** The intersection of the half-spaces n·x ≤ d of `planes` (all d > 0): corners and faces, or the sentence why it is open. */
function intersect(planes: readonly Plane[], families: readonly WulffFamily[]): { vertices: Vec3[]; faces: WulffFace[] } {
  const scale = Math.max(...planes.map((p) => p.distance));
  // A shape reaching 10⁴ times its largest γ from the centre is open for any purpose (a real one is a few γ across).
  const box = 1e4 * scale;
  const eps = 1e-9 * scale;
  const corner = (sx: number, sy: number, sz: number) => vec3(sx * box, sy * box, sz * box);
  const square = (axis: number, sign: number): Vec3[] => {
    const pts: Vec3[] = [];
    for (const [a, b] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ]) {
      const v = [0, 0, 0];
      v[axis] = sign;
      v[(axis + 1) % 3] = a;
      v[(axis + 2) % 3] = b;
      pts.push(corner(v[0], v[1], v[2]));
    }
    return pts;
  };
  let faces: Polygon[] = [];
  for (let axis = 0; axis < 3; axis++)
    for (const sign of [1, -1]) faces.push({ plane: -1 - (2 * axis + (sign > 0 ? 0 : 1)), points: square(axis, sign) });
  planes.forEach((p, i) => {
    faces = clip(faces, p.normal, p.distance, i, eps);
  });
  const open = faces.find((f) => f.plane < 0);
  if (open) {
    throw new ClusterError(
      `the planes of ${families.map((f) => f.label).join(', ')} do not enclose a volume: the Wulff shape is open towards ` +
        `${BOX_FACES[-1 - open.plane]} (Cartesian); add families whose planes close it`,
    );
  }

  // Corners: merged, then recomputed from every plane through them.
  const rough = distinct(
    faces.flatMap((f) => f.points),
    1e-7 * scale,
  );
  const vertices: Vec3[] = [];
  const incident: number[][] = [];
  for (const v of rough) {
    const through = planes.map((p, i) => (Math.abs(dot(p.normal, v) - p.distance) <= 1e-6 * scale ? i : -1)).filter((i) => i >= 0);
    const exact = through.length >= 3 ? cornerOf(through.map((i) => planes[i])) : null;
    vertices.push(exact ?? v);
    incident.push(through);
  }
  const out: WulffFace[] = [];
  planes.forEach((p, i) => {
    const ids = vertices.map((_, k) => k).filter((k) => incident[k].includes(i));
    if (ids.length < 3) return;
    const order = aroundNormal(
      ids.map((k) => vertices[k]),
      p.normal,
    ).map((j) => ids[j]);
    const area = polygonArea(
      order.map((k) => vertices[k]),
      p.normal,
    );
    if (area > 1e-12 * scale * scale)
      out.push({ family: p.family, hkl: p.hkl, normal: p.normal, distance: p.distance, vertices: order, area });
  });
  return { vertices, faces: out };
}

/** The planes of `families` in the Cartesian frame of `cell` (rows a, b, c). */
function planesOf(cell: Mat3, families: readonly WulffFamily[]): Plane[] {
  const inv = inverse(cell);
  const planes: Plane[] = [];
  families.forEach((f, family) => {
    for (const h of f.members) {
      // G = h a* + k b* + l c*: the reciprocal rows are the columns of the inverse of the row matrix.
      const g = vec3(dot(inv[0], h), dot(inv[1], h), dot(inv[2], h));
      const len = norm(g);
      planes.push({ normal: vec3(g[0] / len, g[1] / len, g[2] / len), distance: f.energy, family, hkl: h });
    }
  });
  return planes;
}

/** The shape of families (already expanded) in the frame of `cell`; the families' areas filled in. */
export function wulffShapeInCell(
  cell: Mat3,
  families: readonly WulffFamily[],
  group: { symmetry: WulffSymmetry; pointGroup: string; spaceGroup: string; warnings: string[] },
): WulffShape {
  const planes = planesOf(cell, families);
  const { vertices, faces } = intersect(planes, families);
  const fams = families.map((f) => ({
    ...f,
    members: f.members.map((m) => vec3(m[0], m[1], m[2])),
    area: 0,
    areaFraction: 0,
    onShape: false,
  }));
  let surfaceArea = 0;
  let volume = 0;
  let edges = 0;
  for (const face of faces) {
    fams[face.family].area += face.area;
    fams[face.family].onShape = true;
    surfaceArea += face.area;
    volume += (face.distance * face.area) / 3;
    edges += face.vertices.length;
  }
  let weighted = 0;
  for (const f of fams) {
    f.areaFraction = f.area / surfaceArea;
    weighted += f.energy * f.area;
  }
  weighted /= surfaceArea;
  let spread = 0;
  for (const f of fams) spread += (f.energy - weighted) ** 2 * f.areaFraction;
  const side = cbrt(volume);
  return {
    vertices,
    faces,
    families: fams,
    volume,
    surfaceArea,
    shapeFactor: surfaceArea / (side * side),
    weightedSurfaceEnergy: weighted,
    anisotropy: Math.sqrt(spread) / weighted,
    effectiveRadius: cbrt((3 * volume) / (4 * Math.PI)),
    edges: edges / 2,
    ...group,
  };
}

/** The families of `energies` in `structure` (see the header) and the group they were expanded with. */
export function wulffFamilies(
  structure: Structure,
  energies: readonly SurfaceEnergy[],
  options: WulffOptions = {},
): { families: WulffFamily[]; symmetry: WulffSymmetry; pointGroup: string; spaceGroup: string; warnings: string[] } {
  if (!structure.lattice) throw new ClusterError(`${structure.name || 'the structure'} has no lattice; a Wulff shape needs a crystal`);
  if (energies.length === 0) throw new ClusterError('no surface energies given (e.g. 1,0,0:1.0;1,1,1:0.8)');
  const symmetry = options.symmetry ?? 'laue';
  if (!['laue', 'point-group', 'lattice'].includes(symmetry))
    throw new ClusterError(`the symmetry must be laue, point-group or lattice, got ${JSON.stringify(symmetry)}`);
  for (const e of energies) {
    if (e.miller.every((x) => x === 0)) throw new ClusterError('(0,0,0) is not a plane; give h,k,l not all zero');
    if (!(Number.isFinite(e.energy) && e.energy > 0))
      throw new ClusterError(`the surface energy of ${millerText(e.miller)} must be a positive number, got ${e.energy}`);
  }
  const { rotations, pointGroup, spaceGroup, conventionalSites } = rotationsOf(structure, symmetry, options.symprec ?? 0.01);
  const families = familiesOf(energies, rotations);
  const warnings: string[] = [];
  if (conventionalSites !== null && conventionalSites !== structure.sites.length)
    warnings.push(
      `the cell as read holds ${structure.sites.length} sites, the conventional standard cell ${conventionalSites}; ` +
        'Miller indices refer to the cell as read',
    );
  return { families, symmetry, pointGroup, spaceGroup, warnings };
}

/**
 * The Wulff shape of `structure` for `energies` (γ > 0 per given family, any consistent unit): corners and faces in the
 * structure's own Cartesian frame (its lattice matrix as stored), lengths in units of γ, with pymatgen's numbers.
 */
export function wulffShapeOf(structure: Structure, energies: readonly SurfaceEnergy[], options: WulffOptions = {}): WulffShape {
  const { families, ...group } = wulffFamilies(structure, energies, options);
  return wulffShapeInCell((structure.lattice as Lattice).matrix, families, group);
}

/**
 * A namer of plane families for `structure`: the (hkl) of a facet → the label of the given family it belongs to
 * (`energies`, as wulffShapeOf expands them), else "{h k l}" with the member of its family with the fewest negative
 * indices, the largest of those (indices reduced), under the same symmetry (the crystal's Laue class by default).
 */
export function planeFamilyLabeler(
  structure: Structure,
  energies: readonly SurfaceEnergy[],
  options: WulffOptions = {},
): (hkl: readonly number[]) => string {
  if (!structure.lattice) throw new ClusterError(`${structure.name || 'the structure'} has no lattice; its planes have no Miller indices`);
  const { rotations } = rotationsOf(structure, options.symmetry ?? 'laue', options.symprec ?? 0.01);
  const given = new Map<string, string>();
  if (energies.length > 0) for (const f of familiesOf(energies, rotations)) for (const m of f.members) given.set(directionKey(m), f.label);
  const cache = new Map<string, string>();
  return (hkl) => {
    const key = directionKey(vec3(hkl[0], hkl[1], hkl[2]));
    let label = given.get(key) ?? cache.get(key);
    if (label === undefined) {
      const h = key.split(',').map(Number);
      // The member with the fewest negative indices, then the largest: {1 1 0}, not {2 -1 0}, for a hexagonal (110).
      const negatives = (m: number[]) => m.filter((x) => x < 0).length;
      let best: number[] | null = null;
      for (const r of rotations) {
        const m = [0, 1, 2].map((j) => r[0][j] * h[0] + r[1][j] * h[1] + r[2][j] * h[2] + 0);
        const order = best ? negatives(best) - negatives(m) || m[0] - best[0] || m[1] - best[1] || m[2] - best[2] : 1;
        if (order > 0) best = m;
      }
      label = `{${best!.join(' ')}}`;
      cache.set(key, label);
    }
    return label;
  };
}
