/** The input every crystallography command takes (this repository's docs/crystallography.md): one periodic structure of FILE, --index K. */
import type { Lattice } from '../../core/structure/lattice.ts';
import type { Structure } from '../../core/structure/structure.ts';
import { type ParsedArgs, numberOption } from '../args.ts';
import { CliError } from '../errors.ts';
import { loadStructureFile } from '../io.ts';

export interface PeriodicInput {
  path: string;
  structure: Structure & { lattice: Lattice };
}

export function loadPeriodic(path: string, options: ParsedArgs['options'], command: string): PeriodicInput {
  const loaded = loadStructureFile(path);
  const count = loaded.structures.length;
  const index = numberOption(options, 'index', 0, 0, count - 1);
  if (!Number.isInteger(index)) throw new CliError(`--index must be a whole number, got ${index}`);
  const structure = loaded.structures[index];
  if (!structure.lattice) throw new CliError(`${loaded.path}: ${command} needs a periodic structure with a lattice; this one is finite`);
  if (structure.sites.length === 0) throw new CliError(`${loaded.path}: the structure has no sites`);
  return { path: loaded.path, structure: structure as PeriodicInput['structure'] };
}

/** Lattice as the commands print it: parameters, volume and the row matrix. */
export const latticeJson = (l: Lattice) => ({ ...l.parameters, volume: l.volume, matrix: l.matrix });
