import type { Vec3 } from '../../core/math/mat3.ts';
import { latticePlane } from '../../core/analysis/planes.ts';
import { parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { toStrictJson } from '../io.ts';
import { latticeJson, loadPeriodic } from './xtal-input.ts';

export const PLANES_HELP = `usage: structlab planes FILE --hkl "1,0,0;1,1,1;2,1,-1" [--index K]

Lattice planes (h k l) of the input cell: d-spacing (pymatgen Lattice.d_hkl), unit normal, and the plane to
draw (origin moved to the far end of an axis with a negative index): its origin, axis intercepts and its polygon
inside the unit cell (Cartesian, counter-clockwise seen from the normal).
  --hkl LIST   ';'-separated triples of integers, not all zero (at most 100 planes)
`;

const MAX_PLANES = 100;
const MAX_INDEX = 1000;

function parseHkl(raw: string | boolean | undefined): Vec3[] {
  if (typeof raw !== 'string' || raw.trim() === '') throw new CliError('planes needs --hkl "h,k,l;h,k,l" (see structlab planes --help)');
  const items = raw.split(';').filter((x) => x.trim() !== '');
  if (items.length === 0 || items.length > MAX_PLANES) throw new CliError(`--hkl must list 1 to ${MAX_PLANES} planes, got ${items.length}`);
  return items.map((item) => {
    const parts = item.split(',').map((x) => x.trim());
    const v = parts.map((x) => (/^[+-]?\d+$/.test(x) ? Number(x) : NaN));
    if (v.length !== 3 || v.some((x) => !Number.isSafeInteger(x) || Math.abs(x) > MAX_INDEX) || v.every((x) => x === 0)) {
      throw new CliError(`--hkl: "${item.trim().slice(0, 40)}" is not three integers h,k,l (|index| ≤ ${MAX_INDEX}, not all zero)`);
    }
    return v as Vec3;
  });
}

export function runPlanes(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'hkl', kind: 'string' },
    { name: 'index', kind: 'string' },
  ]);
  if (positionals.length !== 1) throw new CliError('planes takes exactly one FILE (see structlab planes --help)');
  const hkls = parseHkl(options.hkl);
  const { path, structure } = loadPeriodic(positionals[0], options, 'planes');
  const lattice = structure.lattice;
  return toStrictJson({
    file: path,
    lattice: latticeJson(lattice),
    planes: hkls.map((hkl) => latticePlane(lattice, hkl)),
  });
}
