import { xrdPattern } from '../../core/analysis/xrd.ts';
import { broadenedProfile, profileSimilarity } from '../../core/analysis/xrd-compare.ts';
import { numberOption, parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { toStrictJson } from '../io.ts';
import { rangeOption, wavelengthOption } from './xrd.ts';
import { loadPeriodic } from './xtal-input.ts';

export const XRD_COMPARE_HELP = `usage: structlab xrd-compare PRED TRUTH [--wavelength CuKa] [--fwhm 0.1] [--step 0.02] [--range 5,90]
                                          [--wcc-width 1]

Similarity of two powder patterns (e.g. a generated structure against its truth): each pattern as
'structlab xrd' over 0–90°, broadened by Gaussians of FWHM degrees on the grid lo, lo+step, …, hi; prints
cosine, Pearson and the weighted cross-correlation (WCC, triangle of half-width --wcc-width degrees, which
tolerates the peak shifts of a strained cell).
`;

export function runXrdCompare(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'wavelength', kind: 'string' },
    { name: 'fwhm', kind: 'string' },
    { name: 'step', kind: 'string' },
    { name: 'range', kind: 'string' },
    { name: 'wcc-width', kind: 'string' },
    { name: 'index', kind: 'string' },
  ]);
  if (positionals.length !== 2) throw new CliError('xrd-compare takes PRED and TRUTH (see structlab xrd-compare --help)');
  const { name, lambda } = wavelengthOption(options.wavelength);
  const fwhm = numberOption(options, 'fwhm', 0.1, 1e-3, 10);
  const step = numberOption(options, 'step', 0.02, 1e-3, 1);
  const range = rangeOption(options.range, 'range', [5, 90], 180);
  const wccWidth = numberOption(options, 'wcc-width', 1, step, 20);
  const profiles = positionals.map((file) => {
    const { structure } = loadPeriodic(file, options, 'xrd-compare');
    return broadenedProfile(xrdPattern(structure, lambda, [0, 90]).peaks, { fwhm, step, range });
  });
  const sim = profileSimilarity(profiles[0], profiles[1], step, wccWidth);
  return toStrictJson({
    wavelength: name ?? lambda,
    fwhm,
    step,
    range,
    wcc_width: wccWidth,
    n_points: sim.nPoints,
    cosine: sim.cosine,
    pearson: sim.pearson,
    wcc: sim.wcc,
  });
}
