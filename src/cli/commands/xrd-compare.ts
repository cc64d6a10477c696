import { XRD_COMPARE_DEFAULTS as D, comparePatterns } from '../../core/analysis/xrd-compare.ts';
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
  const fwhm = numberOption(options, 'fwhm', D.fwhm, 1e-3, 10);
  const step = numberOption(options, 'step', D.step, 1e-3, 1);
  const range = rangeOption(options.range, 'range', D.range, 180);
  const wccWidth = numberOption(options, 'wcc-width', D.wccWidth, step, 20);
  const [a, b] = positionals.map((file) => loadPeriodic(file, options, 'xrd-compare').structure);
  const sim = comparePatterns(a, b, { lambda, fwhm, step, range, wccWidth }).similarity;
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
