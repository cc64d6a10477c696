/**
 * Generated 3D grid frames for MSA_3D_elastic_critical_load, as inputs of the golden layout (what `structlab fem run
 * --cases` reads): nx × ny × nz nodes, bays of 4 m × 5 m, storeys of 3.5 m, every member along a grid line (6 × 6 × 6
 * nodes: 540 elements; 7 × 7 × 8: 1,015). The base is clamped; every other node carries gravity and a lateral load, so
 * every column is compressed and K_g is well conditioned. Steel sections with I_y ≠ I_z and unequal bays keep λ simple.
 */
export interface FrameCaseInputs {
  node_coords: number[][];
  elements: Record<string, number | number[] | null>[];
  boundary_conditions: Record<string, boolean[]>;
  nodal_loads: Record<string, number[]>;
}

export function gridFrameInputs(nx: number, ny: number, nz: number): FrameCaseInputs {
  const id = (i: number, j: number, k: number) => (k * ny + j) * nx + i;
  const node_coords: number[][] = [];
  for (let k = 0; k < nz; k++) for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) node_coords.push([4 * i, 5 * j, 3.5 * k]);
  const column = { E: 210e9, nu: 0.3, A: 0.012, I_y: 1.6e-4, I_z: 6e-5, J: 1.5e-6, I_rho: 2.2e-4 };
  const beam = { E: 210e9, nu: 0.3, A: 0.008, I_y: 2.3e-4, I_z: 1.4e-5, J: 6e-7, I_rho: 2.5e-4 };
  const elements: FrameCaseInputs['elements'] = [];
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        if (k > 0) elements.push({ node_i: id(i, j, k - 1), node_j: id(i, j, k), ...column });
        if (k > 0 && i > 0) elements.push({ node_i: id(i - 1, j, k), node_j: id(i, j, k), ...beam });
        if (k > 0 && j > 0) elements.push({ node_i: id(i, j - 1, k), node_j: id(i, j, k), ...beam, local_z: [0, 0, 1] });
      }
    }
  }
  // Base beams too: a grid frame has members along every grid line (they lie on clamped nodes and add no free DOFs).
  for (let j = 0; j < ny; j++) for (let i = 1; i < nx; i++) elements.push({ node_i: id(i - 1, j, 0), node_j: id(i, j, 0), ...beam });
  for (let j = 1; j < ny; j++) for (let i = 0; i < nx; i++) elements.push({ node_i: id(i, j - 1, 0), node_j: id(i, j, 0), ...beam });
  const boundary_conditions: FrameCaseInputs['boundary_conditions'] = {};
  const nodal_loads: FrameCaseInputs['nodal_loads'] = {};
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      boundary_conditions[String(id(i, j, 0))] = [true, true, true, true, true, true];
      for (let k = 1; k < nz; k++) nodal_loads[String(id(i, j, k))] = [2e3 + 100 * j, 1e3, -5e4 - 2e3 * i, 0, 0, 0];
    }
  }
  return { node_coords, elements, boundary_conditions, nodal_loads };
}

/** Columns with I_y = I_z and the grid's beams: a square grid of them has two equal sway modes. */
const SYMMETRIC_COLUMN = { E: 210e9, nu: 0.3, A: 0.012, I_y: 1.1e-4, I_z: 1.1e-4, J: 1.8e-4, I_rho: 2.2e-4 };
const SYMMETRIC_BEAM = { E: 210e9, nu: 0.3, A: 0.008, I_y: 2.3e-4, I_z: 1.4e-5, J: 6e-7, I_rho: 2.5e-4 };

/**
 * gridFrameInputs' members on square 4 m bays (n × n nodes a storey), doubly symmetric columns, every storey node loaded
 * by gravity alone: a repeated critical λ (the sway modes in x and y), the case issue 27 names.
 */
export function symmetricGrid(n: number, storeys: number): FrameCaseInputs {
  const f = gridFrameInputs(n, n, storeys);
  const node_coords = f.node_coords.map(([x, , z], k) => [x, 4 * (Math.floor(k / n) % n), z]);
  const elements = f.elements.map((e) => {
    const vertical = node_coords[e.node_i as number][2] !== node_coords[e.node_j as number][2];
    return {
      node_i: e.node_i,
      node_j: e.node_j,
      ...(vertical ? SYMMETRIC_COLUMN : SYMMETRIC_BEAM),
      ...(e.local_z ? { local_z: e.local_z } : {}),
    };
  });
  const nodal_loads: FrameCaseInputs['nodal_loads'] = {};
  for (const k of Object.keys(f.nodal_loads)) nodal_loads[k] = [0, 0, -5e4, 0, 0, 0];
  return { node_coords, elements, boundary_conditions: f.boundary_conditions, nodal_loads };
}

/**
 * symmetricGrid with its y coordinates stretched by 1 + split: the two sway modes' λ part by about `split` relative, a
 * nearly repeated critical λ (issue 27).
 */
export function nearlySymmetricGrid(n: number, storeys: number, split: number): FrameCaseInputs {
  const frame = symmetricGrid(n, storeys);
  return { ...frame, node_coords: frame.node_coords.map(([x, y, z]) => [x, y * (1 + split), z]) };
}
