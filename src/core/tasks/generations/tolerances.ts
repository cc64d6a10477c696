/**
 * The CSP matcher's tolerances: CDVAE's and DiffCSP's `RecEval` (txie-93/cdvae, jiaor17/DiffCSP
 * `scripts/compute_metrics.py`: StructureMatcher(stol=0.5, angle_tol=10, ltol=0.3)) and the stricter set CrystaLLM
 * reports (0.3, 0.2, 5). No imports: the page's controls use it without the matcher.
 */

/** `RecEval.__init__`: the matcher's tolerances; everything else pymatgen's defaults. */
export interface CspMatcherTolerances {
  readonly stol: number;
  readonly angle_tol: number;
  readonly ltol: number;
}
export const CSP_MATCHER: CspMatcherTolerances = Object.freeze({ stol: 0.5, angle_tol: 10, ltol: 0.3 });

/** Named tolerance sets: `cdvae` is CDVAE's and DiffCSP's `RecEval` (the default), `strict` what CrystaLLM reports. */
export type CspPreset = 'cdvae' | 'strict';
export const CSP_PRESETS: Readonly<Record<CspPreset, CspMatcherTolerances>> = Object.freeze({
  cdvae: CSP_MATCHER,
  strict: Object.freeze({ stol: 0.3, angle_tol: 5, ltol: 0.2 }),
});
export const CSP_PRESET_NAMES = Object.keys(CSP_PRESETS) as CspPreset[];

/** The tolerances a run used; `preset` names the preset they equal (explicit values included), else `custom`. */
export interface CspTolerances {
  preset: CspPreset | 'custom';
  stol: number;
  ltol: number;
  angle_tol: number;
}
export const CSP_DEFAULT_TOLERANCES: Readonly<CspTolerances> = Object.freeze({ preset: 'cdvae', ...CSP_MATCHER });

/** A preset with explicit values over it, named by the preset the values equal (the requested one first), else `custom`. */
export function namedTolerances(preset: CspPreset, explicit: Partial<CspMatcherTolerances> = {}): CspTolerances {
  const base = CSP_PRESETS[preset];
  const t = { stol: explicit.stol ?? base.stol, ltol: explicit.ltol ?? base.ltol, angle_tol: explicit.angle_tol ?? base.angle_tol };
  const equals = (p: CspPreset) =>
    t.stol === CSP_PRESETS[p].stol && t.ltol === CSP_PRESETS[p].ltol && t.angle_tol === CSP_PRESETS[p].angle_tol;
  return { preset: equals(preset) ? preset : (CSP_PRESET_NAMES.find(equals) ?? 'custom'), ...t };
}

/** Why `t` cannot be used (one sentence naming the value by `names`), or null: each must be a finite number above 0,
 * the angle below 180°. */
export function cspTolerancesProblem(
  t: CspMatcherTolerances,
  names: Record<keyof CspMatcherTolerances, string> = { stol: 'stol', ltol: 'ltol', angle_tol: 'angle_tol' },
): string | null {
  for (const key of ['stol', 'ltol', 'angle_tol'] as const) {
    const v = t[key];
    if (!Number.isFinite(v) || v <= 0) return `${names[key]} must be a number above 0, got ${String(v)}`;
  }
  if (t.angle_tol >= 180) return `${names.angle_tol} must be below 180 degrees, got ${t.angle_tol}`;
  return null;
}
