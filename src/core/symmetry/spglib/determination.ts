/**
 * Port of spglib v2.0.2 src/determination.c (github.com/spglib/spglib, BSD-3-Clause).
 * Left out: det_free_container (garbage collected) and warning/debug prints.
 */

import { prmGetPrimitive } from './primitive.ts';
import { refGetExactStructureAndSymmetry } from './refinement.ts';
import { spaSearchSpacegroup } from './spacegroup.ts';
import type { Cell, DataContainer } from './types.ts';

const REDUCE_RATE_OUTER = 0.9;
const NUM_ATTEMPT_OUTER = 10;
const REDUCE_RATE = 0.95;
const ANGLE_REDUCE_RATE = 0.95;
const NUM_ATTEMPT = 20;

/**
 * det_determine_all: primitive cell, space group and exact (symmetrized) structure of `cell`. The tolerance is
 * reduced by REDUCE_RATE_OUTER while the refinement fails, at most NUM_ATTEMPT_OUTER times. Null if failed.
 */
export function detDetermineAll(cell: Cell, hallNumber: number, symprec: number, angleSymprec: number): DataContainer | null {
  if (hallNumber > 530) {
    return null;
  }

  let tolerance = symprec;
  for (let attempt = 0; attempt < NUM_ATTEMPT_OUTER; attempt++) {
    const container = getSpacegroupAndPrimitive(cell, hallNumber, tolerance, angleSymprec);
    if (container !== null) {
      const primitive = container.primitive;
      if (primitive !== null && primitive.cell !== null && container.spacegroup !== null) {
        container.exact_structure = refGetExactStructureAndSymmetry(
          container.spacegroup,
          primitive.cell,
          cell,
          primitive.mapping_table,
          primitive.tolerance,
        );
        if (container.exact_structure !== null) {
          return container;
        }
      }
    }
    tolerance *= REDUCE_RATE_OUTER;
  }

  return null;
}

/* get_spacegroup_and_primitive: null if failed. */
function getSpacegroupAndPrimitive(cell: Cell, hallNumber: number, symprec: number, angleSymprec: number): DataContainer | null {
  const container: DataContainer = { primitive: null, spacegroup: null, exact_structure: null };

  let tolerance = symprec;
  let angleTolerance = angleSymprec;

  for (let attempt = 0; attempt < NUM_ATTEMPT; attempt++) {
    if ((container.primitive = prmGetPrimitive(cell, tolerance, angleTolerance)) !== null) {
      if (
        (container.spacegroup = spaSearchSpacegroup(
          container.primitive,
          hallNumber,
          container.primitive.tolerance,
          container.primitive.angle_tolerance,
        )) !== null
      ) {
        return container;
      }

      container.primitive = null;
    }

    tolerance *= REDUCE_RATE;
    if (angleTolerance > 0) {
      angleTolerance *= ANGLE_REDUCE_RATE;
    }
  }

  return null;
}
