import { localEnvironment } from '../../core/analysis/env.ts';
import { isOrdered } from '../../core/structure/structure.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { toStrictJson } from '../io.ts';
import { loadPeriodic } from './xtal-input.ts';

export const ENV_HELP = `usage: structlab env FILE [--method crystalnn|cutoff] [--cutoff 3.5] [--rdf-max 10] [--rdf-bin 0.05] [--index K]

Local environments of an ordered periodic structure: neighbours, coordination numbers, bond lengths per
element pair, bond-angle histograms (1° bins centred on whole degrees, also per centre element) and the
periodic RDF g(r).
  --method M    crystalnn (default): CrystalNN's neighbours as pymatgen 2022.11's CrystalNN() gives them
                (get_nn_info: index, image, distance, weight; coordination = get_cn; cn_weights = the
                probability of each candidate CN); cutoff: every neighbour within the cutoff, periodic
                images included, as pymatgen's get_neighbor_list
  --cutoff R    neighbour cutoff in Å for --method cutoff (default 3.5); given alone, it selects that method
  --rdf-max R   RDF range in Å (default 10); --rdf-bin Δ its bin width in Å (default 0.05)
  --index K     the K-th structure of a multi-structure file
`;

const mapToObject = <T>(m: Map<string, T>): Record<string, T> => {
  // Keys are element pairs or symbols from the file: a null prototype keeps "__proto__" an ordinary key.
  const out: Record<string, T> = Object.create(null);
  for (const [k, v] of [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) out[k] = v;
  return out;
};

export function runEnv(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'method', kind: 'string' },
    { name: 'cutoff', kind: 'string' },
    { name: 'rdf-max', kind: 'string' },
    { name: 'rdf-bin', kind: 'string' },
    { name: 'index', kind: 'string' },
  ]);
  if (positionals.length !== 1) throw new CliError('env takes exactly one FILE (see structlab env --help)');
  const method = options.method ?? (options.cutoff !== undefined ? 'cutoff' : 'crystalnn');
  if (method !== 'crystalnn' && method !== 'cutoff') {
    throw new CliError(`--method must be crystalnn or cutoff, not ${JSON.stringify(method)}`);
  }
  if (method === 'crystalnn' && options.cutoff !== undefined) {
    throw new CliError('--cutoff applies to --method cutoff; CrystalNN chooses its neighbours itself');
  }
  const cutoff = numberOption(options, 'cutoff', 3.5, 0.1, 20);
  const rdfMax = numberOption(options, 'rdf-max', 10, 0.1, 50);
  const rdfBin = numberOption(options, 'rdf-bin', 0.05, 1e-3, rdfMax);
  const { path, structure } = loadPeriodic(positionals[0], options, 'env');
  if (!isOrdered(structure)) {
    throw new CliError(`${path}: env needs an ordered structure (one element per site, occupancy 1); this one is disordered`);
  }
  const e = localEnvironment(structure, { method, cutoff, rdfMax, rdfBin });
  return toStrictJson({
    file: path,
    ...(method === 'crystalnn' ? { method, cutoff: null } : { cutoff }),
    n_sites: e.sites.length,
    sites: e.sites,
    coordination: e.coordination,
    ...(e.cnWeights ? { cn_weights: e.cnWeights } : {}),
    neighbors: e.neighbors,
    bond_lengths: mapToObject(e.bondLengths),
    angles: { bin_width: 1, n_angles: e.angles.nAngles, histogram: e.angles.histogram, by_center: mapToObject(e.angles.byCenter) },
    rdf: {
      r_max: e.rdf.rMax,
      bin_width: e.rdf.binWidth,
      n_bins: e.rdf.nBins,
      number_density: e.rdf.numberDensity,
      r: e.rdf.r,
      counts: e.rdf.counts,
      g: e.rdf.g,
    },
  });
}
