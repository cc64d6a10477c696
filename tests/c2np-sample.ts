/** The C2NP sample in the reference data: cells, raw and rotated particles, and the manifest that lists them all. */
import { join } from 'node:path';
import { REFERENCE } from '../scripts/support/paths.ts';

export const C2NP_SAMPLE = join(REFERENCE, 'golden', 'c2np', 'sample');

/** Materials the manifest lists but whose particle files the sample holds back: only their CIFs ship. */
export const HELD_BACK_MATERIALS = ['synthetic_cubic_a2.9071_boxTruncated', 'synthetic_triclinic_P1'];
