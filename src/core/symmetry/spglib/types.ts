/**
 * The data structures of spglib v2.0.2 (github.com/spglib/spglib, BSD-3-Clause; src/cell.h, mathfunc.h,
 * symmetry.h, primitive.h, spacegroup.h, pointgroup.h, spg_database.h, refinement.h, determination.h),
 * field for field, so that the port in this folder reads line by line against the C source.
 * Matrices are 3×3 arrays indexed [row][column] as in C; spglib's lattices hold the basis vectors as
 * columns. Only the 3D space-group search is ported: no layer groups, magnetic groups or site tensors.
 */

export type Mat3 = number[][];
export type Vec3 = number[];

/** cell.h `Cell`; `aperiodic_axis` is always -1 (space groups only). */
export interface Cell {
  size: number;
  aperiodic_axis: number;
  /** Basis vectors as columns. */
  lattice: Mat3;
  types: number[];
  /** Fractional positions, `size` × 3. */
  position: Vec3[];
}

/** mathfunc.h `MatINT`. */
export interface MatINT {
  size: number;
  mat: Mat3[];
}

/** mathfunc.h `VecDBL`. */
export interface VecDBL {
  size: number;
  vec: Vec3[];
}

/** symmetry.h `Symmetry`: x' = rot · x + trans on fractional column vectors. */
export interface Symmetry {
  size: number;
  rot: Mat3[];
  trans: Vec3[];
}

/** symmetry.h `PointSymmetry` (at most 48 rotations). */
export interface PointSymmetry {
  rot: Mat3[];
  size: number;
}

/** primitive.h `Primitive`. */
export interface Primitive {
  cell: Cell | null;
  mapping_table: number[];
  size: number;
  tolerance: number;
  angle_tolerance: number;
  orig_lattice: Mat3;
}

/** spacegroup.h `Centering`. */
export const Centering = {
  CENTERING_ERROR: 0,
  PRIMITIVE: 1,
  BODY: 2,
  FACE: 3,
  A_FACE: 4,
  B_FACE: 5,
  C_FACE: 6,
  BASE: 7,
  R_CENTER: 8,
} as const;
export type Centering = (typeof Centering)[keyof typeof Centering];

/** spacegroup.h `Spacegroup`. */
export interface Spacegroup {
  number: number;
  hall_number: number;
  pointgroup_number: number;
  schoenflies: string;
  hall_symbol: string;
  international: string;
  international_long: string;
  international_short: string;
  choice: string;
  bravais_lattice: Mat3;
  origin_shift: Vec3;
}

/** pointgroup.h `Holohedry`. */
export const Holohedry = {
  HOLOHEDRY_NONE: 0,
  TRICLI: 1,
  MONOCLI: 2,
  ORTHO: 3,
  TETRA: 4,
  TRIGO: 5,
  HEXA: 6,
  CUBIC: 7,
} as const;
export type Holohedry = (typeof Holohedry)[keyof typeof Holohedry];

/** pointgroup.h `Laue`. */
export const Laue = {
  LAUE_NONE: 0,
  LAUE1: 1,
  LAUE2M: 2,
  LAUEMMM: 3,
  LAUE4M: 4,
  LAUE4MMM: 5,
  LAUE3: 6,
  LAUE3M: 7,
  LAUE6M: 8,
  LAUE6MMM: 9,
  LAUEM3: 10,
  LAUEM3M: 11,
} as const;
export type Laue = (typeof Laue)[keyof typeof Laue];

/** pointgroup.h `Pointgroup`. */
export interface Pointgroup {
  number: number;
  symbol: string;
  schoenflies: string;
  holohedry: Holohedry;
  laue: Laue;
}

/** spg_database.h `SpacegroupType`. */
export interface SpacegroupType {
  number: number;
  schoenflies: string;
  hall_symbol: string;
  international: string;
  international_full: string;
  international_short: string;
  choice: string;
  centering: Centering;
  pointgroup_number: number;
}

/** refinement.h `ExactStructure`. */
export interface ExactStructure {
  bravais: Cell;
  symmetry: Symmetry;
  wyckoffs: number[];
  site_symmetry_symbols: string[];
  equivalent_atoms: number[];
  crystallographic_orbits: number[];
  std_mapping_to_primitive: number[];
  rotation: Mat3;
}

/** determination.h `DataContainer`. */
export interface DataContainer {
  primitive: Primitive | null;
  spacegroup: Spacegroup | null;
  exact_structure: ExactStructure | null;
}

/** spglib.h `SpglibDataset` (the dict Python's `spglib.get_symmetry_dataset` returns). */
export interface SpglibDataset {
  spacegroup_number: number;
  hall_number: number;
  international_symbol: string;
  hall_symbol: string;
  choice: string;
  transformation_matrix: Mat3;
  origin_shift: Vec3;
  n_operations: number;
  rotations: Mat3[];
  translations: Vec3[];
  n_atoms: number;
  /** 0-based Wyckoff index: 0 → 'a'. */
  wyckoffs: number[];
  site_symmetry_symbols: string[];
  equivalent_atoms: number[];
  crystallographic_orbits: number[];
  primitive_lattice: Mat3;
  mapping_to_primitive: number[];
  n_std_atoms: number;
  std_lattice: Mat3;
  std_types: number[];
  std_positions: Vec3[];
  std_rotation_matrix: Mat3;
  std_mapping_to_primitive: number[];
  pointgroup_symbol: string;
}
