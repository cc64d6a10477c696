// node use-the-core.mjs A.cif B.cif CELL.cif RADIUS
// Matches two crystals (pymatgen's StructureMatcher, AtomWorld's settings), carves a C2NP nanoparticle of
// RADIUS Å from CELL and scores a prediction (that particle moved 0.5 Å along x) with the C2NP metrics.
import { readFileSync } from 'node:fs';
import { carveParticle, forwardMetrics, initSymmetry, matcherFitAndRmsDist, parseStructureFile } from 'structlab/core';

await initSymmetry(); // once per process: the CIF reader expands symmetry operations with it

function read(path) {
  const parsed = parseStructureFile(readFileSync(path, 'utf8'), path);
  if (!parsed.ok) throw new Error(`${path}: ${parsed.error}`);
  return parsed.structures[0];
}

const [a, b, cell] = process.argv.slice(2, 5).map(read);
const radius = Number(process.argv[5]);

const { fit, rms } = matcherFitAndRmsDist(a, b, { primitiveCell: false, stol: 0.5 });

const carved = carveParticle(cell, { radius });
const truth = { symbols: carved.symbols, coords: Float64Array.from(carved.positions.flat()) };
const pred = { symbols: truth.symbols, coords: truth.coords.map((x, i) => (i % 3 === 0 ? x + 0.5 : x)) };
const metrics = forwardMetrics(pred, truth, { radius });

console.log(
  JSON.stringify({ match: fit, rms: rms?.rms ?? null, max_dist: rms?.maxDist ?? null, atoms: carved.symbols.length, metrics }, null, 2),
);
