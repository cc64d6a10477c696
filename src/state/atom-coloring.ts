/** The Structure page's choice of per-atom property to colour the atoms by (null: by element) and to draw as arrows. */
import { create } from 'zustand';

export interface AtomColoring {
  property: string | null;
  /** Draw the chosen vector property as arrows, `arrowScale` Å per unit. */
  arrows: boolean;
  arrowScale: number;
}

export const useAtomColoring = create<AtomColoring>(() => ({ property: null, arrows: false, arrowScale: 1 }));

export const setColorProperty = (property: string | null) => useAtomColoring.setState({ property });
export const setArrows = (arrows: boolean) => useAtomColoring.setState({ arrows });
export const setArrowScale = (arrowScale: number) => {
  if (arrowScale > 0 && arrowScale <= 100) useAtomColoring.setState({ arrowScale });
};
