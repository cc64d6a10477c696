/** Settings as the stores persist and restore them: whatever was stored or handed in, checked against the schema. */
import { DEFAULT_SETTINGS, SETTINGS_SCHEMA, type ViewSettings } from '../viewer/view-settings.ts';

/** Keeps only known keys with values of the right kind and inside their range (old sessions, hand edits). */
export function sanitizeSettings(raw: unknown): ViewSettings {
  const out: ViewSettings = { ...DEFAULT_SETTINGS };
  if (!raw || typeof raw !== 'object') return out;
  const r = raw as Record<string, unknown>;
  for (const spec of SETTINGS_SCHEMA) {
    const v = r[spec.key];
    if (spec.kind === 'boolean' && typeof v === 'boolean') (out as unknown as Record<string, unknown>)[spec.key] = v;
    if (spec.kind === 'number' && typeof v === 'number' && Number.isFinite(v)) {
      (out as unknown as Record<string, unknown>)[spec.key] = Math.min(spec.max, Math.max(spec.min, v));
    }
    if (spec.kind === 'text' && typeof v === 'string' && (!spec.pattern || spec.pattern.test(v)))
      (out as unknown as Record<string, unknown>)[spec.key] = v.slice(0, spec.maxLength);
    if (spec.kind === 'choice' && spec.choices.some((c) => c.value === v)) (out as unknown as Record<string, unknown>)[spec.key] = v;
  }
  return out;
}
