/**
 * The Structure page's choice of per-atom property to colour the atoms by (null: by element), its colour range, the
 * property to size the atoms by, and whether to draw the coloured vector property as arrows; and the atom under the
 * pointer (the hover tip).
 */
import { create } from 'zustand';

export interface AtomColoring {
  property: string | null;
  /** The colour bar's range for a scalar property (values outside take the ramp's ends); null: the data's range. */
  range: readonly [number, number] | null;
  /** Size the atoms by this property (0.4×–1.6× over its range, or the colour range when it is the coloured one). */
  sizeBy: string | null;
  /** Draw the chosen vector property as arrows, `arrowScale` Å per unit. */
  arrows: boolean;
  arrowScale: number;
}

export const useAtomColoring = create<AtomColoring>(() => ({ property: null, range: null, sizeBy: null, arrows: false, arrowScale: 1 }));

/** A new column starts over its own data's range. */
export const setColorProperty = (property: string | null) => useAtomColoring.setState({ property, range: null });
/** A finite range with lo < hi, or null for the data's range; anything else is ignored. */
export const setColorRange = (range: readonly [number, number] | null) => {
  if (range === null || (Number.isFinite(range[0]) && Number.isFinite(range[1]) && range[0] < range[1]))
    useAtomColoring.setState({ range });
};
export const setSizeBy = (sizeBy: string | null) => useAtomColoring.setState({ sizeBy });
export const setArrows = (arrows: boolean) => useAtomColoring.setState({ arrows });
export const setArrowScale = (arrowScale: number) => {
  if (arrowScale > 0 && arrowScale <= 100) useAtomColoring.setState({ arrowScale });
};

/** The drawn atom under the pointer and where the pointer is (client pixels); null when none. */
export interface AtomHover {
  atom: number;
  x: number;
  y: number;
}

export const useAtomHover = create<{ hover: AtomHover | null }>(() => ({ hover: null }));

export const setAtomHover = (atom: number | null, x = 0, y = 0) => {
  const h = useAtomHover.getState().hover;
  if (atom === null) {
    if (h) useAtomHover.setState({ hover: null });
  } else if (!h || h.atom !== atom || h.x !== x || h.y !== y) useAtomHover.setState({ hover: { atom, x, y } });
};
