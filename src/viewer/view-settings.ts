import { DEFAULT_BOND_TOLERANCE } from '../core/structure/bonds.ts';

/**
 * The viewer's vocabulary: one schema for every view setting (what the viewer draws with, the settings panel, links and
 * defaults all read it). The stores check what they persist or are handed against it (src/state/settings.ts).
 */
export type ColorScheme = 'jmol' | 'vesta';
export type DrawStyle = 'ball-and-stick' | 'space-filling';

export interface ViewSettings {
  colorScheme: ColorScheme;
  style: DrawStyle;
  atomScale: number;
  showBonds: boolean;
  bondRadius: number;
  bondTolerance: number;
  bondCutoffs: string;
  showCell: boolean;
  boundaryImages: boolean;
  supercellA: number;
  supercellB: number;
  supercellC: number;
  showPolyhedra: boolean;
  orthographic: boolean;
  symprec: number;
  /** Atom labels: none, index, element, site, wyckoff, or `prop:NAME` (a per-atom property column); see labelMode. */
  labels: string;
}

/** `scene: true` marks settings that change the drawn scene (the worker rebuilds it when they change). */
type SettingSpec = { scene?: true } & (
  | { key: keyof ViewSettings; label: string; description: string; kind: 'boolean'; default: boolean }
  | { key: keyof ViewSettings; label: string; description: string; kind: 'number'; default: number; min: number; max: number; step: number }
  | {
      key: keyof ViewSettings;
      label: string;
      description: string;
      kind: 'choice';
      default: string;
      choices: { value: string; label: string }[];
    }
  | {
      key: keyof ViewSettings;
      label: string;
      description: string;
      kind: 'text';
      default: string;
      placeholder: string;
      maxLength: number;
      /** A value that does not match is refused (the default kept), as a choice outside its list is. */
      pattern?: RegExp;
    }
);

export const SETTINGS_SCHEMA: SettingSpec[] = [
  {
    key: 'style',
    label: 'Style',
    description: 'Ball-and-stick (small spheres, bonds) or space-filling (covalent-radius spheres).',
    kind: 'choice',
    default: 'ball-and-stick',
    choices: [
      { value: 'ball-and-stick', label: 'Ball and stick' },
      { value: 'space-filling', label: 'Space filling' },
    ],
  },
  {
    key: 'colorScheme',
    label: 'Colours',
    description: 'Element colour scheme.',
    kind: 'choice',
    default: 'jmol',
    choices: [
      { value: 'jmol', label: 'Jmol' },
      { value: 'vesta', label: 'VESTA' },
    ],
  },
  {
    key: 'atomScale',
    label: 'Atom size',
    description: 'Multiplier on the drawn atom radius.',
    kind: 'number',
    default: 1,
    min: 0.2,
    max: 2,
    step: 0.05,
  },
  {
    key: 'showBonds',
    scene: true,
    label: 'Bonds',
    description: 'Bonds where the distance is below the sum of covalent radii times the tolerance.',
    kind: 'boolean',
    default: true,
  },
  {
    key: 'bondRadius',
    label: 'Bond radius (Å)',
    description: 'Drawn bond thickness.',
    kind: 'number',
    default: 0.12,
    min: 0.03,
    max: 0.4,
    step: 0.01,
  },
  {
    key: 'bondTolerance',
    scene: true,
    label: 'Bond tolerance (×)',
    description: 'A bond is drawn when the distance is below this multiple of the sum of covalent radii.',
    kind: 'number',
    default: DEFAULT_BOND_TOLERANCE,
    min: 0.5,
    max: 2,
    step: 0.05,
  },
  {
    key: 'bondCutoffs',
    scene: true,
    label: 'Pair cutoffs',
    description: 'Maximum bond length per element pair in Å, e.g. "Mg-H 2.1, Cs-H 0" (0 removes the pair); overrides the tolerance rule.',
    kind: 'text',
    default: '',
    placeholder: 'Mg-H 2.1, Cs-H 0',
    maxLength: 500,
  },
  { key: 'showCell', label: 'Unit cell', description: 'Cell box with a, b, c labels.', kind: 'boolean', default: true },
  {
    key: 'boundaryImages',
    scene: true,
    label: 'Boundary atoms',
    description: 'Repeat atoms on cell faces, edges and corners on the opposite side.',
    kind: 'boolean',
    default: true,
  },
  {
    key: 'supercellA',
    scene: true,
    label: 'Supercell n (a)',
    description: 'Repeats along a.',
    kind: 'number',
    default: 1,
    min: 1,
    max: 20,
    step: 1,
  },
  {
    key: 'supercellB',
    scene: true,
    label: 'Supercell m (b)',
    description: 'Repeats along b.',
    kind: 'number',
    default: 1,
    min: 1,
    max: 20,
    step: 1,
  },
  {
    key: 'supercellC',
    scene: true,
    label: 'Supercell k (c)',
    description: 'Repeats along c.',
    kind: 'number',
    default: 1,
    min: 1,
    max: 20,
    step: 1,
  },
  {
    key: 'showPolyhedra',
    scene: true,
    label: 'Polyhedra',
    description: 'Translucent coordination polyhedra around bonded centres.',
    kind: 'boolean',
    default: false,
  },
  {
    key: 'orthographic',
    label: 'Orthographic',
    description: 'Orthographic instead of perspective projection (key o).',
    kind: 'boolean',
    default: false,
  },
  {
    key: 'symprec',
    label: 'Symmetry tolerance (Å)',
    description: 'symprec for the space-group search.',
    kind: 'number',
    default: 0.01,
    min: 0.0001,
    max: 0.5,
    step: 0.001,
  },
  {
    key: 'labels',
    label: 'Labels',
    description: 'Atom labels: index, element, site label, Wyckoff letter or a per-atom property (picked atoms only in large scenes).',
    kind: 'text',
    default: 'none',
    placeholder: 'none',
    maxLength: 100,
    pattern: /^(?:none|index|element|site|wyckoff|prop:[^\n]{1,80})$/,
  },
];

/** What the labels setting asks for: a fixed kind, or a property column by name. */
export type LabelMode = { kind: 'none' | 'index' | 'element' | 'site' | 'wyckoff' } | { kind: 'property'; name: string };

export function labelMode(value: string): LabelMode {
  if (value.startsWith('prop:')) return { kind: 'property', name: value.slice(5) };
  return value === 'index' || value === 'element' || value === 'site' || value === 'wyckoff' ? { kind: value } : { kind: 'none' };
}

export const DEFAULT_SETTINGS = Object.fromEntries(SETTINGS_SCHEMA.map((s) => [s.key, s.default])) as unknown as ViewSettings;
