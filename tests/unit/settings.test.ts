import { describe, expect, it } from 'vitest';
import { sanitizeSettings } from '../../src/state/settings.ts';
import { DEFAULT_SETTINGS, SETTINGS_SCHEMA } from '../../src/viewer/view-settings.ts';

describe('view settings schema', () => {
  it('has one entry per setting with a default inside its range', () => {
    const keys = SETTINGS_SCHEMA.map((s) => s.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(Object.keys(DEFAULT_SETTINGS).sort()).toEqual([...keys].sort());
    for (const s of SETTINGS_SCHEMA) {
      if (s.kind === 'number') expect(s.default >= s.min && s.default <= s.max, s.key).toBe(true);
      if (s.kind === 'choice') expect(s.choices.map((c) => c.value)).toContain(s.default);
    }
  });

  it('repairs saved sessions: unknown keys dropped, wrong types ignored, numbers clamped', () => {
    const out = sanitizeSettings({ supercellA: 99, atomScale: 'big', colorScheme: 'rainbow', showBonds: false, extra: 1 });
    expect(out.supercellA).toBe(20);
    expect(out.atomScale).toBe(DEFAULT_SETTINGS.atomScale);
    expect(out.colorScheme).toBe(DEFAULT_SETTINGS.colorScheme);
    expect(out.showBonds).toBe(false);
    expect('extra' in out).toBe(false);
    expect(sanitizeSettings(null)).toEqual(DEFAULT_SETTINGS);
  });
});
