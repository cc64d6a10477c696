/**
 * write → read is the identity for every format that can hold a structure: species maps equal,
 * lattice matrix and Cartesian positions within 1e-8 Å. CIF stores cell parameters, not the
 * orientation, so for CIF the lattice parameters (1e-8 Å / 1e-8°) and fractional coordinates
 * (1e-8, modulo whole cell translations) are compared instead.
 * Inputs: every corpus file that parses (each structure converted to each format that can hold it)
 * plus hand-made edge cases.
 */
import { describe, expect, it } from 'vitest';
import { corpusFileNames, readCorpusText } from '../../scripts/support/paths.ts';
import { asPymatgenReadsIt } from '../cif.ts';
import { parseStructureFile, writeStructureFile } from '../../src/core/io/registry.ts';
import { Lattice } from '../../src/core/structure/lattice.ts';
import { isOrdered, makeSiteFromCart, makeSiteFromFrac, type Structure } from '../../src/core/structure/structure.ts';

const TOL = 1e-8;

interface Target {
  file: string;
  canHold: (s: Structure) => boolean;
}
const TARGETS: Target[] = [
  { file: 'POSCAR', canHold: (s) => s.lattice !== null && isOrdered(s) && s.sites.length > 0 },
  { file: 'out.xyz', canHold: (s) => isOrdered(s) },
  { file: 'out.extxyz', canHold: (s) => isOrdered(s) },
  { file: 'out.json', canHold: () => true },
  { file: 'out.cif', canHold: (s) => s.lattice !== null && s.sites.length > 0 },
];

function speciesKey(sp: Record<string, number>): string {
  return Object.entries(sp)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([el, occ]) => `${el}:${occ}`)
    .join(',');
}

/** Differences beyond tolerance, as readable strings (empty when identical). */
function compare(original: Structure, back: Structure, viaCif: boolean): string[] {
  const problems: string[] = [];
  if (back.sites.length !== original.sites.length) return [`${back.sites.length} sites instead of ${original.sites.length}`];
  if ((back.lattice === null) !== (original.lattice === null)) return ['periodicity changed'];
  if (original.lattice && back.lattice) {
    if (viaCif) {
      const p = original.lattice.parameters;
      const q = back.lattice.parameters;
      for (const k of ['a', 'b', 'c', 'alpha', 'beta', 'gamma'] as const) {
        if (Math.abs(p[k] - q[k]) > TOL) problems.push(`lattice ${k} ${q[k]} vs ${p[k]}`);
      }
    } else {
      for (let i = 0; i < 3; i++)
        for (let j = 0; j < 3; j++) {
          const d = Math.abs(back.lattice.matrix[i][j] - original.lattice.matrix[i][j]);
          if (d > TOL) problems.push(`lattice[${i}][${j}] off by ${d}`);
        }
    }
  }
  original.sites.forEach((site, i) => {
    const b = back.sites[i];
    const a = speciesKey(site.species);
    const c = speciesKey(b.species);
    if (a !== c) {
      // Occupancies may come back through decimal text: compare numerically.
      const keysA = Object.keys(site.species).sort().join();
      const keysB = Object.keys(b.species).sort().join();
      if (keysA !== keysB || Object.entries(site.species).some(([el, occ]) => Math.abs(b.species[el] - occ) > TOL)) {
        problems.push(`site ${i}: species ${c} vs ${a}`);
      }
    }
    if (viaCif) {
      const fa = site.frac!;
      const fb = b.frac!;
      for (let k = 0; k < 3; k++) {
        const d = fb[k] - fa[k];
        if (Math.abs(d - Math.round(d)) > TOL) problems.push(`site ${i}: frac[${k}] ${fb[k]} vs ${fa[k]}`);
      }
    } else {
      for (let k = 0; k < 3; k++) {
        const d = Math.abs(b.xyz[k] - site.xyz[k]);
        if (d > TOL) problems.push(`site ${i}: xyz[${k}] off by ${d}`);
      }
    }
  });
  return problems.slice(0, 5);
}

function roundTrip(s: Structure, target: Target): string[] {
  let text: string;
  try {
    text = writeStructureFile(s, target.file);
  } catch (e) {
    return [`writing failed: ${e instanceof Error ? e.message : String(e)}`];
  }
  const r = parseStructureFile(text, target.file);
  if (!r.ok) return [`reading back failed: ${r.error} (line ${r.line})`];
  if (r.structures.length !== 1) return [`${r.structures.length} structures read back`];
  const cif = target.file.endsWith('.cif');
  // A CIF is read back as pymatgen reads it: coordinates near 1/3 and 2/3 become the exact values.
  return compare(cif ? asPymatgenReadsIt(s) : s, r.structures[0], cif);
}

const counts = { files: 0, conversions: 0, failed: [] as string[] };

describe('round trip of every corpus file that parses', () => {
  for (const name of corpusFileNames()) {
    const parsed = parseStructureFile(readCorpusText(name), name);
    if (!parsed.ok) continue;
    counts.files++;
    for (const target of TARGETS) {
      const holdable = parsed.structures.filter((s) => target.canHold(s));
      if (holdable.length === 0) continue;
      it(`${name} → ${target.file}`, () => {
        const problems = holdable.flatMap((s, k) => roundTrip(s, target).map((p) => `structure ${k + 1}: ${p}`));
        counts.conversions += holdable.length;
        if (problems.length > 0) counts.failed.push(`${name} → ${target.file}`);
        expect(problems).toEqual([]);
      });
    }
  }
  it('reports counts', () => {
    console.log(
      `round trip: ${counts.files} corpus files parsed, ${counts.conversions} structure conversions, ` +
        `failed: ${counts.failed.length ? counts.failed.join('; ') : 'none'}`,
    );
    expect(counts.files).toBeGreaterThan(0);
  });
});

describe('round trip of hand-made edge cases', () => {
  const triclinic = new Lattice([
    [4.1, 0.3, -0.7],
    [1.9, 5.2, 0.4],
    [-1.3, 2.2, 6.6],
  ]);
  const oblique = Lattice.fromParameters(5.1, 6.3, 7.7, 73.5, 101.2, 118.9);

  const cases: { label: string; s: Structure; targets: string[] }[] = [
    {
      label: 'negative and > 1 fractional coordinates in a triclinic cell',
      s: {
        name: 'neg',
        lattice: triclinic,
        sites: [
          makeSiteFromFrac(triclinic, [-0.125, 1.375, -2.5e-9], { Na: 1 }),
          makeSiteFromFrac(triclinic, [0.1 + 0.2, -0.999999999, 1 / 3], { Cl: 1 }),
          makeSiteFromFrac(triclinic, [-1e-15, 0.5, 2 / 3], { Na: 1 }),
        ],
      },
      targets: ['POSCAR', 'out.xyz', 'out.extxyz', 'out.json', 'out.cif'],
    },
    {
      label: 'mixed occupancy with oxidation states',
      s: {
        name: 'mixed',
        lattice: oblique,
        sites: [
          makeSiteFromFrac(oblique, [0, 0, 0], { Fe: 0.6, Ni: 0.4 }, { oxidation: { Fe: 3, Ni: 2 } }),
          makeSiteFromFrac(oblique, [0.25, 0.5, 0.75], { O: 1 }, { oxidation: { O: -2 } }),
          makeSiteFromFrac(oblique, [0.5, 0.5, 0.5], { Li: 0.5 }),
        ],
      },
      targets: ['out.json', 'out.cif'],
    },
    {
      label: 'selective dynamics and velocities',
      s: {
        name: 'sd',
        lattice: triclinic,
        sites: [
          makeSiteFromFrac(
            triclinic,
            [0.1, 0.2, 0.3],
            { Si: 1 },
            { properties: { selective_dynamics: [true, false, true], velocities: [1e-3, -2e-3, 0] } },
          ),
          makeSiteFromFrac(
            triclinic,
            [0.6, 0.7, 0.8],
            { O: 1 },
            { properties: { selective_dynamics: [false, false, false], velocities: [0, 0, 5e-4] } },
          ),
        ],
      },
      targets: ['POSCAR', 'out.extxyz', 'out.json'],
    },
    {
      label: 'finite structure',
      s: {
        name: 'mol',
        lattice: null,
        sites: [makeSiteFromCart(null, [0, 0, 0], { C: 1 }), makeSiteFromCart(null, [1.2091, -0.0000001, 3e-12], { O: 1 })],
      },
      targets: ['out.xyz', 'out.extxyz', 'out.json'],
    },
  ];

  for (const { label, s, targets } of cases) {
    for (const file of targets) {
      it(`${label} → ${file}`, () => {
        const target = TARGETS.find((t) => t.file === file)!;
        expect(target.canHold(s)).toBe(true);
        expect(roundTrip(s, target)).toEqual([]);
      });
    }
  }

  it('selective dynamics and velocities survive POSCAR, extxyz and JSON exactly', () => {
    const s = cases[2].s;
    for (const file of ['POSCAR', 'out.extxyz', 'out.json']) {
      const r = parseStructureFile(writeStructureFile(s, file), file);
      expect(r.ok).toBe(true);
      if (!r.ok) continue;
      r.structures[0].sites.forEach((b, i) => {
        expect(b.properties?.selective_dynamics, file).toEqual(s.sites[i].properties!.selective_dynamics);
        expect(b.properties?.velocities, file).toEqual(s.sites[i].properties!.velocities);
      });
    }
  });

  it('oxidation states survive JSON', () => {
    const s = cases[1].s;
    const r = parseStructureFile(writeStructureFile(s, 'x.json'), 'x.json');
    expect(r.ok && r.structures[0].sites.map((x) => x.oxidation)).toEqual([{ Fe: 3, Ni: 2 }, { O: -2 }, undefined]);
  });

  it('formats that cannot hold a structure say so', () => {
    expect(() => writeStructureFile(cases[1].s, 'POSCAR')).toThrow(/partial occupancy/);
    expect(() => writeStructureFile(cases[1].s, 'x.xyz')).toThrow(/partial occupancy/);
    expect(() => writeStructureFile(cases[3].s, 'POSCAR')).toThrow(/no lattice/);
  });
});
