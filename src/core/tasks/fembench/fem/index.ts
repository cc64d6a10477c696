import type { FemTask } from '../types.ts';

/** The 12 FEM_1D / FEM_2D reference tasks. */
export const FEM_TASKS: FemTask[] = [];
