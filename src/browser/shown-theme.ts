/**
 * The theme on screen, for code that draws with its own colours (the 3D views): `html[data-theme]`, which
 * src/app/theme.ts sets from the user's choice or the system's.
 */
export type ShownTheme = 'light' | 'dark';

/** The theme on screen (light until src/app/theme.ts has set one). */
export const shownTheme = (): ShownTheme => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');

/** Calls `onChange` with the theme on screen whenever it changes; returns the unsubscribe. */
export function watchShownTheme(onChange: (theme: ShownTheme) => void): () => void {
  const observer = new MutationObserver(() => onChange(shownTheme()));
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}
