import { XRD_WAVELENGTHS, xrdPattern } from '../../core/analysis/xrd.ts';
import { parseArgs } from '../args.ts';
import { CliError } from '../errors.ts';
import { toStrictJson } from '../io.ts';
import { loadPeriodic } from './xtal-input.ts';
import { quoted } from '../../core/limits.ts';

export const XRD_HELP = `usage: structlab xrd FILE [--wavelength CuKa|MoKa|<Å>] [--two-theta 0,90] [--index K]

The powder X-ray pattern of the first (or K-th) structure of FILE exactly as pymatgen's XRDCalculator computes
it: atomic scattering factors, Lorentz-polarisation, peaks within 1e-5° merged, scaled to 100, with hkl families
(Miller-Bravais indices for hexagonal cells), multiplicities and d-spacings.
  --wavelength W   ${[...XRD_WAVELENGTHS.keys()].join(', ')} or a number in Å (default CuKa)
  --two-theta A,B  2θ range in degrees, 0 ≤ A < B ≤ 180 (default 0,90)
`;

/** Wavelength option: a name of pymatgen's table or a positive number of Å. */
export function wavelengthOption(raw: string | boolean | undefined): { name: string | null; lambda: number } {
  if (raw === undefined) return { name: 'CuKa', lambda: XRD_WAVELENGTHS.get('CuKa')! };
  const text = String(raw).trim();
  const named = XRD_WAVELENGTHS.get(text);
  if (named !== undefined) return { name: text, lambda: named };
  const value = Number(text);
  if (text === '' || !Number.isFinite(value) || value <= 0 || value > 100) {
    throw new CliError(
      `--wavelength must be one of ${[...XRD_WAVELENGTHS.keys()].join(', ')} or a wavelength in Å, got ${quoted(String(text))}`,
    );
  }
  return { name: null, lambda: value };
}

/** "A,B" degrees with 0 ≤ A < B ≤ max. */
export function rangeOption(raw: string | boolean | undefined, name: string, fallback: [number, number], max: number): [number, number] {
  if (raw === undefined) return fallback;
  const parts = String(raw).split(',');
  const [a, b] = parts.map((x) => (x.trim() === '' ? NaN : Number(x)));
  if (parts.length !== 2 || !Number.isFinite(a) || !Number.isFinite(b) || a < 0 || b <= a || b > max) {
    throw new CliError(`--${name} must be two numbers A,B with 0 ≤ A < B ≤ ${max}, got ${quoted(String(raw))}`);
  }
  return [a, b];
}

export function runXrd(argv: string[]): string {
  const { positionals, options } = parseArgs(argv, [
    { name: 'wavelength', kind: 'string' },
    { name: 'two-theta', kind: 'string' },
    { name: 'index', kind: 'string' },
  ]);
  if (positionals.length !== 1) throw new CliError('xrd takes exactly one FILE (see structlab xrd --help)');
  const { name, lambda } = wavelengthOption(options.wavelength);
  const range = rangeOption(options['two-theta'], 'two-theta', [0, 90], 180);
  const { path, structure } = loadPeriodic(positionals[0], options, 'xrd');
  let pattern: ReturnType<typeof xrdPattern>;
  try {
    pattern = xrdPattern(structure, lambda, range);
  } catch (e) {
    if (e instanceof Error && /scattering factor/.test(e.message)) throw new CliError(`${path}: ${e.message}`);
    throw e;
  }
  return toStrictJson({
    file: path,
    wavelength: name,
    lambda,
    two_theta_range: range,
    miller_bravais: pattern.millerBravais,
    peaks: pattern.peaks.map((p) => ({ two_theta: p.twoTheta, intensity: p.intensity, d_hkl: p.dHkl, hkls: p.hkls })),
  });
}
