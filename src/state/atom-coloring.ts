/** The Structure page's choice of per-atom property to colour the atoms by (null: by element). */
import { create } from 'zustand';

export const useAtomColoring = create<{ property: string | null }>(() => ({ property: null }));

export const setColorProperty = (property: string | null) => useAtomColoring.setState({ property });
