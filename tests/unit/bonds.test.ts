/**
 * Bonds: the radius rule against a brute force over explicit images on corpus structures, known
 * coordination numbers (rock salt 6, diamond 4), overrides and minimum distance, bonds to periodic
 * images; convex hulls checked by closedness, orientation, convexity and analytic volumes.
 */
import { describe, expect, it } from 'vitest';
import { type Mat3, inverse } from '../../src/core/math/mat3.ts';
import {
  computeBonds,
  convexHullFaces,
  isMetal,
  parseBondCutoffs,
  coordination,
  coordinationNumbers,
  coordinationPolyhedra,
} from '../../src/core/structure/bonds.ts';
import { elementBySymbol } from '../../src/core/structure/elements.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { majorSpecies, makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';
import { corpusFileNames, readCorpusGolden } from '../../scripts/support/paths.ts';

const el = (key: string) => /^[A-Z][a-z]?/.exec(key)![0];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function fromGolden(g: any): Structure {
  const { a, b, c, alpha, beta, gamma } = g.lattice;
  const lattice = Lattice.fromParameters(a, b, c, alpha, beta, gamma);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const sites = g.sites.map((s: any) => {
    const species: Record<string, number> = {};
    for (const [k, occ] of Object.entries(s.species)) species[el(k)] = (species[el(k)] ?? 0) + (occ as number);
    return { species, frac: s.frac, xyz: lattice.fracToCart(s.frac) };
  });
  return { name: 'golden', lattice, sites };
}

/** Expected bonds by brute force over every image in a Cauchy–Schwarz box. */
function bruteBonds(s: Structure, tol: number, minD: number): Map<string, number> {
  const L = s.lattice!.matrix as Mat3;
  const inv = inverse(L);
  const radius = s.sites.map((site) => elementBySymbol(majorSpecies(site))?.covalentRadius ?? NaN);
  const maxCut = 2 * Math.max(...radius.filter((r) => !Number.isNaN(r))) * tol;
  const bound = [0, 1, 2].map((k) => Math.ceil(maxCut * Math.hypot(inv[0][k], inv[1][k], inv[2][k])) + 1);
  const out = new Map<string, number>();
  const n = s.sites.length;
  const symbol = s.sites.map((site) => elementBySymbol(majorSpecies(site))?.symbol ?? '');
  const hasNonMetal = symbol.some((x) => x !== '' && !isMetal(x));
  for (let i = 0; i < n; i++)
    for (let j = i; j < n; j++) {
      // Metal–metal contacts are not bonds in compounds that hold a non-metal.
      if (hasNonMetal && isMetal(symbol[i]) && isMetal(symbol[j])) continue;
      const cut = (radius[i] + radius[j]) * tol;
      if (!(cut > 0)) continue;
      for (let a = -bound[0]; a <= bound[0]; a++)
        for (let b = -bound[1]; b <= bound[1]; b++)
          for (let c = -bound[2]; c <= bound[2]; c++) {
            if (i === j && !(a > 0 || (a === 0 && (b > 0 || (b === 0 && c > 0))))) continue;
            const d = Math.hypot(...[0, 1, 2].map((k) => s.sites[j].xyz[k] + a * L[0][k] + b * L[1][k] + c * L[2][k] - s.sites[i].xyz[k]));
            if (d >= minD && d < cut) out.set(`${i},${j},${a},${b},${c}`, d);
          }
    }
  return out;
}

describe('computeBonds matches the rule on corpus structures', () => {
  const cases: [string, Structure][] = [];
  for (const file of corpusFileNames()) {
    const pmg = readCorpusGolden(file).pymatgen;
    if (!pmg?.ok) continue;
    (pmg.structures ?? []).forEach((g: { n_sites: number; lattice: { volume: number } }, k: number) => {
      if (g.n_sites <= 120 && g.lattice.volume / g.n_sites > 2) cases.push([`${file}#${k}`, fromGolden(g)]);
    });
  }
  it('has cases', () => expect(cases.length).toBeGreaterThan(40));
  it.each(cases)('%s', (_name, s) => {
    const expected = bruteBonds(s, 1.15, 0.1);
    const bonds = computeBonds(s);
    const got = new Map<string, number>();
    for (let m = 0; m < bonds.i.length; m++) {
      got.set(`${bonds.i[m]},${bonds.j[m]},${bonds.image[3 * m]},${bonds.image[3 * m + 1]},${bonds.image[3 * m + 2]}`, bonds.length[m]);
    }
    expect(got.size).toBe(expected.size);
    for (const [key, d] of expected) expect(Math.abs((got.get(key) ?? Infinity) - d)).toBeLessThan(1e-9);
  });
});

function rockSalt(a: number): Structure {
  const L = Lattice.cubic(a);
  const fcc: [number, number, number][] = [
    [0, 0, 0],
    [0, 0.5, 0.5],
    [0.5, 0, 0.5],
    [0.5, 0.5, 0],
  ];
  return {
    name: 'NaCl',
    lattice: L,
    sites: [
      ...fcc.map((f) => makeSiteFromFrac(L, f, { Na: 1 })),
      ...fcc.map((f) => makeSiteFromFrac(L, [f[0] + 0.5, f[1], f[2]], { Cl: 1 })),
    ],
  };
}

function diamond(a: number): Structure {
  const L = Lattice.cubic(a);
  const fcc: [number, number, number][] = [
    [0, 0, 0],
    [0, 0.5, 0.5],
    [0.5, 0, 0.5],
    [0.5, 0.5, 0],
  ];
  const pts = [...fcc, ...fcc.map((f) => [f[0] + 0.25, f[1] + 0.25, f[2] + 0.25] as [number, number, number])];
  return { name: 'Si', lattice: L, sites: pts.map((f) => makeSiteFromFrac(L, f, { Si: 1 })) };
}

/** Volume of a closed triangulated surface by the divergence theorem. */
function meshVolume(v: Float64Array, f: Uint32Array): number {
  let vol = 0;
  for (let t = 0; t < f.length; t += 3) {
    const [a, b, c] = [f[t], f[t + 1], f[t + 2]].map((k) => [v[3 * k], v[3 * k + 1], v[3 * k + 2]]);
    vol += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
  }
  return vol;
}

/** Every directed edge appears once and its reverse once: a closed, consistently oriented surface. */
function expectClosedOriented(f: Uint32Array): void {
  const edges = new Map<string, number>();
  for (let t = 0; t < f.length; t += 3)
    for (let e = 0; e < 3; e++) {
      const key = `${f[t + e]},${f[t + ((e + 1) % 3)]}`;
      edges.set(key, (edges.get(key) ?? 0) + 1);
    }
  for (const [key, count] of edges) {
    expect(count).toBe(1);
    const [a, b] = key.split(',');
    expect(edges.get(`${b},${a}`)).toBe(1);
  }
}

describe('coordination', () => {
  it('rock salt NaCl: 6 Cl around each Na, octahedra of volume (4/3) r³', () => {
    const s = rockSalt(5.64);
    const bonds = computeBonds(s);
    expect(Array.from(coordinationNumbers(s.sites.length, bonds))).toEqual(new Array(8).fill(6));
    expect(coordination(s, 0)).toBe(6);
    for (let m = 0; m < bonds.length.length; m++) expect(bonds.length[m]).toBeCloseTo(2.82, 10);
    const polys = coordinationPolyhedra(s, bonds, 4, (k) => s.sites[k].species.Na === 1);
    expect(polys.length).toBe(4);
    for (const p of polys) {
      expect(p.vertices.length).toBe(18);
      expect(p.faces.length).toBe(24);
      expectClosedOriented(p.faces);
      expect(meshVolume(p.vertices, p.faces)).toBeCloseTo((4 / 3) * 2.82 ** 3, 9);
    }
  });

  it('diamond Si: 4 neighbours, regular tetrahedra', () => {
    const s = diamond(5.431);
    const bonds = computeBonds(s);
    expect(Array.from(coordinationNumbers(8, bonds))).toEqual(new Array(8).fill(4));
    const r = (5.431 * Math.sqrt(3)) / 4;
    const edge = r * Math.sqrt(8 / 3);
    const polys = coordinationPolyhedra(s, bonds);
    expect(polys.length).toBe(8);
    for (const p of polys) {
      expect(p.faces.length).toBe(12);
      expect(meshVolume(p.vertices, p.faces)).toBeCloseTo(edge ** 3 / (6 * Math.SQRT2), 9);
    }
  });

  it('bonds to its own periodic images carry the image offset', () => {
    const L = Lattice.cubic(2.5);
    const s: Structure = { name: 'Cu', lattice: L, sites: [makeSiteFromFrac(L, [0.1, 0.2, 0.3], { Cu: 1 })] };
    const bonds = computeBonds(s);
    expect(bonds.i.length).toBe(3);
    const images = Array.from({ length: 3 }, (_, m) => Array.from(bonds.image.slice(3 * m, 3 * m + 3)).join(',')).sort();
    expect(images).toEqual(['0,0,1', '0,1,0', '1,0,0']);
    expect(coordination(s, 0)).toBe(6);
  });

  it('overrides and minimum distance', () => {
    const pair = (d: number): Structure => ({
      name: 'MgH',
      lattice: null,
      sites: [
        { species: { Mg: 1 }, xyz: [0, 0, 0] },
        { species: { H: 1 }, xyz: [d, 0, 0] },
      ],
    });
    // (1.41 + 0.31) · 1.15 = 1.978 Å
    expect(computeBonds(pair(1.97)).i.length).toBe(1);
    expect(computeBonds(pair(2.05)).i.length).toBe(0);
    expect(computeBonds(pair(2.05), { overrides: { 'Mg-H': 2.1 } }).i.length).toBe(1);
    expect(computeBonds(pair(2.05), { overrides: { 'h-mg': 2.1 } }).i.length).toBe(1);
    expect(computeBonds(pair(1.5), { overrides: { 'H-Mg': 0 } }).i.length).toBe(0);
    expect(computeBonds(pair(2.05), { tolerance: 1.2 }).i.length).toBe(1);
    expect(computeBonds(pair(0.05)).i.length).toBe(0);
    expect(computeBonds(pair(0.05), { minDistance: 0 }).i.length).toBe(1);
    expect(() => computeBonds(pair(1), { overrides: { MgH: 2 } })).toThrow(/two elements/);
  });
});

describe('convexHullFaces', () => {
  it('cube: coplanar faces split into 12 triangles, volume a³', () => {
    const v = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1].map((x) => x * 2));
    const f = convexHullFaces(v);
    expect(f.length).toBe(36);
    expectClosedOriented(f);
    expect(meshVolume(v, f)).toBeCloseTo(8, 12);
  });

  it('square planar: a flat polygon seen from both sides', () => {
    const v = new Float64Array([1, 0, 0, 0, 1, 0, -1, 0, 0, 0, -1, 0]);
    const f = convexHullFaces(v);
    expect(f.length).toBe(12);
    // The second half repeats the first with reversed winding (opposite normals); all 4 points used.
    const front = Array.from(f.slice(0, 6)),
      back = Array.from(f.slice(6));
    expect(back).toEqual([front[0], front[2], front[1], front[3], front[5], front[4]]);
    expect(new Set(front).size).toBe(4);
    expect(Math.abs(meshVolume(v, f.slice(0, 6)))).toBeLessThan(1e-12);
  });

  it('random points: closed, outward, convex, all points inside', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let t = 0; t < 20; t++) {
      const n = 5 + (t % 20);
      const v = new Float64Array(3 * n).map(() => rand() * 4 - 2);
      const f = convexHullFaces(v);
      expectClosedOriented(f);
      expect(meshVolume(v, f)).toBeGreaterThan(0);
      for (let q = 0; q < f.length; q += 3) {
        const [a, b, c] = [f[q], f[q + 1], f[q + 2]].map((k) => [v[3 * k], v[3 * k + 1], v[3 * k + 2]]);
        const nrm = [
          (b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]),
          (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]),
          (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]),
        ];
        for (let k = 0; k < n; k++) {
          const h = nrm[0] * (v[3 * k] - a[0]) + nrm[1] * (v[3 * k + 1] - a[1]) + nrm[2] * (v[3 * k + 2] - a[2]);
          expect(h).toBeLessThan(1e-9);
        }
      }
    }
  });

  it('fewer than 3 or collinear points give no faces', () => {
    expect(convexHullFaces(new Float64Array([0, 0, 0, 1, 1, 1])).length).toBe(0);
    expect(convexHullFaces(new Float64Array([0, 0, 0, 1, 1, 1, 2, 2, 2])).length).toBe(0);
  });
});

describe('metal–metal contacts', () => {
  // CsCaH3 (Pm-3m, a = 4.6170 Å): Ca at 1a, H at 3d, Cs at 1b. Ca–H = a/2, Cs–Ca = a√3/2 = 4.00 Å.
  const a = 4.617;
  const lattice = Lattice.cubic(a);
  const site = (el: string, f: [number, number, number]) => ({ species: { [el]: 1 }, frac: f, xyz: lattice.fracToCart(f) });
  const perovskite: Structure = {
    name: 'CsCaH3',
    lattice,
    sites: [site('Ca', [0, 0, 0]), site('Cs', [0.5, 0.5, 0.5]), site('H', [0.5, 0, 0]), site('H', [0, 0.5, 0]), site('H', [0, 0, 0.5])],
  };

  it('are not bonds in a compound with non-metals (CsCaH3: Ca–H octahedron only)', () => {
    const bonds = computeBonds(perovskite);
    const symbols = (m: number) =>
      [perovskite.sites[bonds.i[m]], perovskite.sites[bonds.j[m]]]
        .map((s) => Object.keys(s.species)[0])
        .sort()
        .join('-');
    const kinds = new Set(Array.from(bonds.i, (_, m) => symbols(m)));
    expect([...kinds]).toEqual(['Ca-H']);
    expect(coordinationNumbers(5, bonds)[0]).toBe(6);
    for (const len of bonds.length) expect(len).toBeCloseTo(a / 2, 9);
  });

  it('can be forced back on', () => {
    const bonds = computeBonds(perovskite, { metalMetal: true });
    expect(Array.from(bonds.length).some((d) => Math.abs(d - (a * Math.sqrt(3)) / 2) < 1e-9)).toBe(true);
  });

  it('stay bonds in a pure metal (bcc Fe, a = 2.8665 Å: 8 neighbours at a√3/2 and 6 at a, both < 1.15 × 2 × 1.32 Å)', () => {
    const fe = 2.8665;
    const l = Lattice.cubic(fe);
    const bcc: Structure = {
      name: 'Fe',
      lattice: l,
      sites: [
        { species: { Fe: 1 }, frac: [0, 0, 0], xyz: [0, 0, 0] },
        { species: { Fe: 1 }, frac: [0.5, 0.5, 0.5], xyz: l.fracToCart([0.5, 0.5, 0.5]) },
      ],
    };
    expect(Array.from(coordinationNumbers(2, computeBonds(bcc)))).toEqual([14, 14]);
  });
});

describe('parseBondCutoffs (the lab\'s "Pair cutoffs" field)', () => {
  it('reads pairs with spaces, "=" or ":" and several separators', () => {
    expect(parseBondCutoffs('Mg-H 2.1, Cs-Ca 0')).toEqual({ 'Mg-H': 2.1, 'Cs-Ca': 0 });
    expect(parseBondCutoffs(' Mg-H=2.1 ; O-Si:1.7 Å\n')).toEqual({ 'Mg-H': 2.1, 'O-Si': 1.7 });
    expect(parseBondCutoffs('')).toEqual({});
  });
  it('rejects malformed entries and unknown elements with one sentence', () => {
    expect(() => parseBondCutoffs('Mg-H')).toThrow(/should look like "Mg-H 2.1"/);
    expect(() => parseBondCutoffs('Mg H 2')).toThrow(/should look like/);
    expect(() => parseBondCutoffs('Qq-H 2')).toThrow(/two elements/);
  });
  it('changes the bonds: Ca–H off in CsCaH3 leaves no bonds at all', () => {
    const a = 4.617;
    const lattice = Lattice.cubic(a);
    const site = (el: string, f: [number, number, number]) => ({ species: { [el]: 1 }, frac: f, xyz: lattice.fracToCart(f) });
    const s: Structure = { name: 'CsCaH3', lattice, sites: [site('Ca', [0, 0, 0]), site('Cs', [0.5, 0.5, 0.5]), site('H', [0.5, 0, 0])] };
    expect(computeBonds(s, { overrides: parseBondCutoffs('Ca-H 0') }).i.length).toBe(0);
    // Cs–H is a/√2 = 3.26 Å: a 3.3 Å cutoff bonds it.
    const b = computeBonds(s, { overrides: parseBondCutoffs('Ca-H 0, Cs-H 3.3') });
    expect(Array.from(b.length).every((d) => Math.abs(d - a / Math.SQRT2) < 1e-9)).toBe(true);
    expect(b.i.length).toBeGreaterThan(0);
  });
});
