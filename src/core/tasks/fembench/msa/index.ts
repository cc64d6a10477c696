import type { FemTask } from '../types.ts';

/** The 21 MSA_3D reference tasks. */
export const MSA_TASKS: FemTask[] = [];
