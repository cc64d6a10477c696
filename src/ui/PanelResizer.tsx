/**
 * The drag handle on the right side panel's edge: the panel (and the plots in it, src/ui/Plot.tsx) can be
 * widened with the pointer or the keyboard (a WAI-ARIA window splitter: ←/→ by 16 px, with Shift by 64 px, Home and
 * End to the narrowest and widest, Enter back to the page's default), and the width is remembered per page in
 * localStorage, as the theme is (src/app/theme.ts). It sets `--panel-right` on the page's `.lab` grid, whose last
 * column reads it (styles.css); the 3D view gives up the width and the viewer follows its container's size.
 * https://www.w3.org/WAI/ARIA/apg/patterns/windowsplitter/
 */
import { useLayoutEffect, useRef, useState } from 'react';
import './panel-resizer.css';

const MIN_WIDTH = 220;
/** The 3D view keeps at least this much of the window's width. */
const MIN_VIEW = 360;
const STEP = 16;

const storageKey = (id: string) => `structlab/panel-width/${id}`;

function storedWidth(id: string): number | null {
  try {
    const v = Number(localStorage.getItem(storageKey(id)));
    return Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    return null; // storage blocked: the default width
  }
}

function storeWidth(id: string, width: number | null): void {
  try {
    if (width === null) localStorage.removeItem(storageKey(id));
    else localStorage.setItem(storageKey(id), String(Math.round(width)));
  } catch {
    /* not remembered; still shown */
  }
}

/**
 * `defaultWidth`: the page's panel width in px where its stylesheet's own default (which may follow the window) has
 * not been measured yet.
 */
export function PanelResizer({ id, defaultWidth }: { id: string; defaultWidth: number }) {
  const handle = useRef<HTMLDivElement>(null);
  // null: the stylesheet's default width (no --panel-right), until the user picks one.
  const [width, setWidth] = useState<number | null>(() => storedWidth(id));
  // The widest allowed follows the window (measured after layout and on every resize); the remembered width stays.
  const [widest, setWidest] = useState(defaultWidth);
  const [natural, setNatural] = useState(defaultWidth);
  useLayoutEffect(() => {
    const measure = () => {
      const lab = handle.current?.parentElement;
      if (!lab) return;
      const columns = getComputedStyle(lab).gridTemplateColumns.split(' ');
      const left = parseFloat(columns[0]) || 0;
      setWidest(Math.max(MIN_WIDTH, Math.floor(lab.clientWidth - left - MIN_VIEW)));
      if (!lab.style.getPropertyValue('--panel-right')) setNatural(parseFloat(columns[columns.length - 1]) || defaultWidth);
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [defaultWidth, width]);
  const clamp = (w: number) => Math.round(Math.min(widest, Math.max(MIN_WIDTH, w)));
  const chosen = width === null ? null : clamp(width);
  const shown = chosen ?? natural;
  useLayoutEffect(() => {
    const style = handle.current?.parentElement?.style;
    if (chosen === null) style?.removeProperty('--panel-right');
    else style?.setProperty('--panel-right', `${chosen}px`);
  }, [chosen]);

  const choose = (w: number | null) => {
    const next = w === null ? null : clamp(w);
    setWidth(next);
    storeWidth(id, next);
  };
  const drag = useRef<{ x: number; width: number } | null>(null);

  return (
    <div
      ref={handle}
      className="panel-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Side panel width (drag, or ← → keys)"
      aria-valuenow={shown}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={widest}
      tabIndex={0}
      data-testid="panel-resizer"
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        drag.current = { x: e.clientX, width: shown };
      }}
      onPointerMove={(e) => {
        // The panel is on the right: moving its left edge left widens it.
        if (drag.current) setWidth(clamp(drag.current.width + drag.current.x - e.clientX));
      }}
      onPointerUp={(e) => {
        if (!drag.current) return;
        choose(drag.current.width + drag.current.x - e.clientX);
        drag.current = null;
      }}
      onPointerCancel={() => {
        drag.current = null;
      }}
      onDoubleClick={() => choose(null)}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 4 * STEP : STEP;
        const next =
          e.key === 'ArrowLeft'
            ? shown + step
            : e.key === 'ArrowRight'
              ? shown - step
              : e.key === 'Home'
                ? MIN_WIDTH
                : e.key === 'End'
                  ? widest
                  : e.key === 'Enter'
                    ? 'default'
                    : null;
        if (next === null) return;
        e.preventDefault();
        choose(next === 'default' ? null : next);
      }}
    />
  );
}
