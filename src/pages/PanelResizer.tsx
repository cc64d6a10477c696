/**
 * The drag handle on the right side panel's edge: the panel (and the plots in it, src/pages/Plot.tsx) can be
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

function storeWidth(id: string, width: number): void {
  try {
    localStorage.setItem(storageKey(id), String(Math.round(width)));
  } catch {
    /* not remembered; still shown */
  }
}

export function PanelResizer({ id, defaultWidth }: { id: string; defaultWidth: number }) {
  const handle = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(() => storedWidth(id) ?? defaultWidth);
  // The widest allowed follows the window (measured after layout and on every resize); the remembered width stays.
  const [widest, setWidest] = useState(defaultWidth);
  useLayoutEffect(() => {
    const measure = () => {
      const lab = handle.current?.parentElement;
      if (!lab) return;
      const left = parseFloat(getComputedStyle(lab).gridTemplateColumns.split(' ')[0]) || 0;
      setWidest(Math.max(MIN_WIDTH, Math.floor(lab.clientWidth - left - MIN_VIEW)));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);
  const clamp = (w: number) => Math.round(Math.min(widest, Math.max(MIN_WIDTH, w)));
  const shown = clamp(width);
  useLayoutEffect(() => {
    handle.current?.parentElement?.style.setProperty('--panel-right', `${shown}px`);
  }, [shown]);

  const choose = (w: number) => {
    const next = clamp(w);
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
      onDoubleClick={() => choose(defaultWidth)}
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
                    ? defaultWidth
                    : null;
        if (next === null) return;
        e.preventDefault();
        choose(next);
      }}
    />
  );
}
