/** The keyboard shortcuts, shown over the lab on `?` and closed by Escape, `?` or a click outside. */
import { useEffect, useRef, useState } from 'react';

const SHORTCUTS: readonly [string, string][] = [
  ['?', 'show or hide this list'],
  ['r', 'reset the view'],
  ['a / b / c', 'view along the a, b or c axis'],
  ['o', 'orthographic ⇄ perspective'],
  ['Esc', 'clear the selection (or close this list)'],
  ['drag', 'rotate'],
  ['right-drag', 'pan'],
  ['wheel', 'zoom'],
  ['one-finger drag', 'rotate (touch)'],
  ['pinch / two-finger drag', 'zoom and pan (touch)'],
  ['tap', 'pick an atom (a long press does not)'],
  ['double-tap', 'refit the view'],
  ['Labels (Display)', 'index, element, site, Wyckoff or a property at each atom'],
];

/** True when keys typed at `t` are text (fields), not shortcuts. */
export function typingInto(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  if (t instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'file'].includes(t.type);
  return t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable;
}

export function ShortcutsOverlay() {
  const [open, setOpen] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typingInto(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === '?') setOpen((o) => !o);
      else if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="overlay" onClick={() => setOpen(false)}>
      <div
        className="overlay-box"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        data-testid="shortcuts-overlay"
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <dl>
          {SHORTCUTS.map(([key, what]) => (
            <div key={key}>
              <dt>
                <kbd>{key}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <button type="button" ref={closeRef} onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </div>
  );
}
