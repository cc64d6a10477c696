import type { FemTask } from '../types.ts';
import { quad8MeshRectangle, tri6MeshRectangle } from './mesh2d.ts';
import { linearElastic1D, localElasticStiffness, uniformMesh } from './one-d.ts';
import { quad8ElementDistributedLoad, quad8IntegralOfDerivative, quad8PhysicalGradient } from './quad8.ts';
import { quadQuadrature, triQuadrature } from './quadrature.ts';
import { batchedShapes, quad8At, tri6At } from './shape.ts';
import type { FemValue } from '../types.ts';

/** `num_pts not in {…}` → ValueError for any value that is not one of the listed ints (2.5, "4", None). */
const ruleSize = (v: FemValue | undefined): number => (typeof v === 'boolean' ? Number(v) : typeof v === 'number' ? v : Number.NaN);

/** The 12 FEM_1D / FEM_2D reference tasks. */
export const FEM_TASKS: FemTask[] = [
  {
    id: 'FEM_1D_linear_elastic_CC0_H0_T0',
    signature: '(x_min, x_max, num_elements, material_regions, body_force_fn, dirichlet_bc_list, neumann_bc_list=None, n_gauss=2) -> dict',
    description: '1D bar with 2-node elements: displacements, reactions (Dirichlet order), node coordinates, reaction nodes.',
    run: linearElastic1D,
  },
  {
    id: 'FEM_1D_local_elastic_stiffness_CC0_H3_T1',
    signature: '(x_elem, E, A, n_gauss=2) -> ndarray (2, 2)',
    description: '2-node bar element stiffness by Gauss quadrature (signed Jacobian).',
    run: localElasticStiffness,
  },
  {
    id: 'FEM_1D_uniform_mesh_CC0_H0_T0',
    signature: '(x_min, x_max, num_elements) -> (node_coords (n+1,), element_connectivity (n, 2))',
    description: 'Uniform 1D mesh of linear elements.',
    run: uniformMesh,
  },
  {
    id: 'FEM_2D_quad8_element_distributed_load_CC0_H0_T0',
    signature: '(face, node_coords (8, 2), traction (2,), num_gauss_pts) -> ndarray (16,)',
    description: 'Consistent nodal loads of a constant traction on one Q8 edge.',
    run: quad8ElementDistributedLoad,
  },
  {
    id: 'FEM_2D_quad8_integral_of_derivative_CC0_H3_T3',
    signature: '(node_coords (8, 2), node_values (8,), num_gauss_pts in {1, 4, 9}) -> ndarray (2,)',
    description: 'Integral of the gradient of a Q8 field over the element (signed det J).',
    run: quad8IntegralOfDerivative,
  },
  {
    id: 'FEM_2D_quad8_mesh_rectangle_CC0_H0_T0',
    signature: '(xl, yl, xh, yh, nx, ny) -> (coords (Nn, 2), connect (nx*ny, 8))',
    description: 'Structured Q8 mesh of a rectangle.',
    run: quad8MeshRectangle,
  },
  {
    id: 'FEM_2D_quad8_physical_gradient_CC0_H1_T3',
    signature: '(node_coords (8, 2), node_values (8,), xi, eta) -> ndarray (2, n_pts)',
    description: 'Physical gradient of a Q8 field at natural points.',
    run: quad8PhysicalGradient,
  },
  {
    id: 'FEM_2D_quad8_shape_fcns_and_derivatives_CC0_H0_T0',
    signature: '(xi: ndarray (2,) or (n, 2)) -> (N (n, 8, 1), dN (n, 8, 2))',
    description: 'Q8 serendipity shape functions and natural derivatives.',
    run: (inputs) => batchedShapes(inputs.xi, quad8At),
  },
  {
    id: 'FEM_2D_quad_quadrature_CC0_H0_T0',
    signature: '(num_pts in {1, 4, 9}) -> (points (n, 2), weights (n,))',
    description: 'Tensor-product Gauss rule on [-1, 1]^2.',
    run: (inputs) => {
      const { points, weights } = quadQuadrature(ruleSize(inputs.num_pts));
      return [points, weights];
    },
  },
  {
    id: 'FEM_2D_tri6_mesh_rectangle_CC0_H0_T0',
    signature: '(xl, yl, xh, yh, nx, ny) -> (coords (Nn, 2), connect (2*nx*ny, 6))',
    description: 'Structured 6-node triangle mesh of a rectangle.',
    run: tri6MeshRectangle,
  },
  {
    id: 'FEM_2D_tri6_shape_fcns_and_derivatives_CC0_H0_T0',
    signature: '(xi: ndarray (2,) or (n, 2)) -> (N (n, 6, 1), dN (n, 6, 2))',
    description: 'Quadratic triangle shape functions and natural derivatives.',
    run: (inputs) => batchedShapes(inputs.xi, tri6At),
  },
  {
    id: 'FEM_2D_tri_quadrature_CC0_H0_T0',
    signature: '(num_pts in {1, 3, 4}) -> (points (n, 2), weights (n,))',
    description: 'Gauss rules on the reference triangle.',
    run: (inputs) => {
      const { points, weights } = triQuadrature(ruleSize(inputs.num_pts));
      return [points, weights];
    },
  },
];
