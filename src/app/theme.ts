/**
 * Light or dark: follows the system (prefers-color-scheme) until the user picks one, which is remembered in
 * localStorage. The resolved theme is `html[data-theme]`; styles.css keys its dark colours on it.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'structlab/theme';
const CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

export function storedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return CHOICES.find((c) => c === v) ?? 'system';
  } catch {
    return 'system'; // storage blocked (private mode, sandboxed frame): the system decides
  }
}

const systemDark = (): boolean => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

/** Sets `html[data-theme]` for `choice` and remembers it; returns the theme now shown. */
export function applyTheme(choice: ThemeChoice, remember = true): 'light' | 'dark' {
  const shown = choice === 'system' ? (systemDark() ? 'dark' : 'light') : choice;
  document.documentElement.dataset.theme = shown;
  if (remember) {
    try {
      if (choice === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, choice);
    } catch {
      /* not remembered; still shown */
    }
  }
  return shown;
}

/** Applies the remembered choice and follows system changes while the choice is "system"; returns the unsubscribe. */
export function followTheme(current: () => ThemeChoice): () => void {
  applyTheme(current(), false);
  if (typeof matchMedia !== 'function') return () => undefined;
  const query = matchMedia('(prefers-color-scheme: dark)');
  const onChange = () => {
    if (current() === 'system') applyTheme('system', false);
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

export const nextTheme = (c: ThemeChoice): ThemeChoice => CHOICES[(CHOICES.indexOf(c) + 1) % CHOICES.length];
