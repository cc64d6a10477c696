/** The embedded example structures (datasets/), bundled as raw text and loaded on demand, and the lab's default one. */
import { loadText } from './session.ts';

export interface DatasetEntry {
  file: string;
  title: string;
}

const indexModules = import.meta.glob('../../datasets/index.json', { eager: true, import: 'default' }) as Record<string, DatasetEntry[]>;
const fileModules = import.meta.glob('../../datasets/*.{cif,vasp}', { query: '?raw', import: 'default' }) as Record<
  string,
  () => Promise<string>
>;

const keyOf = (file: string) => `../../datasets/${file}`;

/** Rock salt, used only if the datasets folder is missing (so the lab still opens on something). */
const FALLBACK_NAME = 'NaCl.cif';
const FALLBACK_CIF = `data_NaCl
_cell_length_a 5.64
_cell_length_b 5.64
_cell_length_c 5.64
_cell_angle_alpha 90
_cell_angle_beta 90
_cell_angle_gamma 90
_symmetry_space_group_name_H-M 'F m -3 m'
loop_
_symmetry_equiv_pos_as_xyz
x,y,z
x,y+1/2,z+1/2
x+1/2,y,z+1/2
x+1/2,y+1/2,z
loop_
_atom_site_label
_atom_site_type_symbol
_atom_site_fract_x
_atom_site_fract_y
_atom_site_fract_z
Na1 Na 0 0 0
Cl1 Cl 0.5 0.5 0.5
`;

export const DATASETS: DatasetEntry[] = (Object.values(indexModules)[0] ?? []).filter((d) => fileModules[keyOf(d.file)]);

/** Whether `file` names an embedded dataset (what a link may name). */
export const isDataset = (file: string): boolean => DATASETS.some((d) => d.file === file);

export async function datasetText(file: string): Promise<string> {
  if (file === FALLBACK_NAME && !fileModules[keyOf(file)]) return FALLBACK_CIF;
  const load = fileModules[keyOf(file)];
  if (!load) throw new Error(`No embedded dataset named ${file}.`);
  return load();
}

export const DEFAULT_DATASET: string = DATASETS[0]?.file ?? FALLBACK_NAME;

/** Opens the default dataset in the structure session (first visit, `?fresh`, "Reset session"). */
export async function loadDefaultDataset(): Promise<boolean> {
  return loadText(DEFAULT_DATASET, await datasetText(DEFAULT_DATASET));
}
