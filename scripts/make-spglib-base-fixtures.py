"""Fixtures for tests/unit/spglib-base.test.ts: the foundation of the spglib v2.0.2 port
(src/core/symmetry/spglib/{mathfunc,cell,overlap,delaunay}.ts) against spglib 2.0.2 itself.

Run with Debian's /usr/bin/python3 (python3-spglib 2.0.2) from the repository root:
    /usr/bin/python3 scripts/make-spglib-base-fixtures.py
Writes tests/reference/golden/spglib/base.json. Deterministic (seeded numpy).

Two sources of truth:
  * spglib.delaunay_reduce(lattice, eps), the public API (lattice rows = basis vectors; it transposes into C's
    column convention, calls spg_delaunay_reduce = del_delaunay_reduce, and returns None when that fails).
  * The C functions themselves through ctypes: Debian's extension module links spglib's C sources statically
    and exports their symbols (mat_Nint, mat_Dmod1, mat_inverse_matrix_d3, del_delaunay_reduce_2D,
    cel_any_overlap_with_same_type, cel_trim_cell, ovl_overlap_checker_init, ovl_check_total_overlap).
    Matrices there are C's: lattices hold basis vectors as columns.
"""
import ctypes
import json
from pathlib import Path

import numpy as np
import spglib
from spglib import _spglib

assert spglib.__version__ == '2.0.2', spglib.__version__

OUT = Path('tests/reference/golden/spglib/base.json')
lib = ctypes.CDLL(_spglib.__file__)
D = ctypes.c_double
I = ctypes.c_int
D9 = D * 9
D3 = D * 3
I9 = I * 9


class Cell(ctypes.Structure):
    # cell.h of v2.0.2
    _fields_ = [
        ('size', I),
        ('aperiodic_axis', I),
        ('lattice', ctypes.POINTER(D)),
        ('types', ctypes.POINTER(I)),
        ('position', ctypes.POINTER(D)),
        ('tensor_rank', I),
        ('tensors', ctypes.POINTER(D)),
    ]


lib.mat_Nint.restype = I
lib.mat_Nint.argtypes = [D]
lib.mat_Dmod1.restype = D
lib.mat_Dmod1.argtypes = [D]
lib.mat_inverse_matrix_d3.restype = I
lib.mat_inverse_matrix_d3.argtypes = [D9, D9, D]
lib.del_delaunay_reduce.restype = I
lib.del_delaunay_reduce.argtypes = [D9, D9, D]
lib.del_delaunay_reduce_2D.restype = I
lib.del_delaunay_reduce_2D.argtypes = [D9, D9, I, D]
lib.cel_alloc_cell.restype = ctypes.POINTER(Cell)
lib.cel_alloc_cell.argtypes = [I, I]
lib.cel_free_cell.argtypes = [ctypes.POINTER(Cell)]
lib.cel_set_cell.argtypes = [ctypes.POINTER(Cell), D9, ctypes.POINTER(D), ctypes.POINTER(I)]
lib.cel_any_overlap_with_same_type.restype = I
lib.cel_any_overlap_with_same_type.argtypes = [ctypes.POINTER(Cell), D]
lib.cel_any_overlap.restype = I
lib.cel_any_overlap.argtypes = [ctypes.POINTER(Cell), D]
lib.cel_trim_cell.restype = ctypes.POINTER(Cell)
lib.cel_trim_cell.argtypes = [ctypes.POINTER(I), D9, ctypes.POINTER(Cell), D]
lib.ovl_overlap_checker_init.restype = ctypes.c_void_p
lib.ovl_overlap_checker_init.argtypes = [ctypes.POINTER(Cell)]
lib.ovl_overlap_checker_free.argtypes = [ctypes.c_void_p]
lib.ovl_check_total_overlap.restype = I
lib.ovl_check_total_overlap.argtypes = [ctypes.c_void_p, D3, I9, D, I]

NOSPIN = -1
rng = np.random.default_rng(20250202)


def d9(m):
    return D9(*[float(x) for x in np.asarray(m, dtype=float).ravel()])


def from_d9(a):
    return [[a[3 * i + j] for j in range(3)] for i in range(3)]


def fl(m):
    return [[float(x) for x in row] for row in np.asarray(m, dtype=float)]


def c_cell(lattice_cols, positions, types):
    n = len(types)
    cell = lib.cel_alloc_cell(n, NOSPIN)
    pos = (D * (3 * n))(*[float(x) for p in positions for x in p])
    typ = (I * n)(*[int(t) for t in types])
    lib.cel_set_cell(cell, d9(lattice_cols), pos, typ)
    return cell


def read_cell(cell):
    c = cell.contents
    n = c.size
    return {
        'lattice': [[c.lattice[3 * i + j] for j in range(3)] for i in range(3)],
        'types': [c.types[i] for i in range(n)],
        'positions': [[c.position[3 * i + j] for j in range(3)] for i in range(n)],
    }


# ---------------------------------------------------------------------------------------------- mathfunc
NINT_X = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 0.3, -0.3,
          0.7, -0.7, 1e-12, -1e-12, 123456.5, -123456.5, 3.999999999, -3.999999999]
DMOD1_X = [0.0, 0.5, -0.5, 1.5, -1.5, 0.25, -0.25, 1e-11, -1e-11, -1e-9, -1e-10, 0.9999999, -0.9999999, 2.75,
           -2.75, 0.49999999999999994, -0.49999999999999994]
nint = [[x, lib.mat_Nint(x)] for x in NINT_X]
dmod1 = [[x, lib.mat_Dmod1(x)] for x in DMOD1_X]

INVERSE_A = [
    ([[1, 2, 3], [0, 1, 4], [5, 6, 0]], 1e-5),
    ([[2, 0, 0], [0, 0.5, 0], [0, 0, -4]], 1e-5),
    ([[0.5, -0.5, 0.5], [0.5, 0.5, -0.5], [-0.5, 0.5, 0.5]], 1e-5),
    ([[1, 2, 3], [4, 5, 6], [7, 8, 9]], 1e-5),  # singular
    ([[1e-3, 0, 0], [0, 1e-3, 0], [0, 0, 1e-3]], 1e-5),  # det 1e-9 < precision: fails
    ([[1e-3, 0, 0], [0, 1e-3, 0], [0, 0, 1e-3]], 1e-10),
    (rng.uniform(-3, 3, (3, 3)).tolist(), 1e-5),
    (rng.uniform(-3, 3, (3, 3)).tolist(), 0.0),
]
inverse = []
for a, prec in INVERSE_A:
    m = D9(*([-7.0] * 9))
    ok = lib.mat_inverse_matrix_d3(m, d9(a), prec)
    inverse.append({'a': fl(a), 'precision': prec, 'ok': ok, 'm': from_d9(m) if ok else None})

# ---------------------------------------------------------------------------------------------- delaunay
SQ3 = 3 ** 0.5


def int_det(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) + m[0][1] * (m[1][2] * m[2][0] - m[1][0] * m[2][2])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def rand_unimodular(steps, maxc, bound=20000):
    """Product of random shears (row i += c row j) and row swaps, entries kept below `bound`."""
    m = [[int(i == j) for j in range(3)] for i in range(3)]
    for _ in range(steps):
        i, j = (int(x) for x in rng.choice(3, 2, replace=False))
        c = int(rng.integers(-maxc, maxc + 1))
        row = [m[i][k] + c * m[j][k] for k in range(3)]
        if max(abs(x) for x in row) < bound:
            m[i] = row
        if rng.random() < 0.3:
            m[i], m[j] = m[j], m[i]
    assert abs(int_det(m)) == 1
    return np.array(m, dtype=float)


delaunay_inputs = []  # (name, rows, eps)
for k in range(12):
    delaunay_inputs.append((f'random-{k}', rng.uniform(-4, 4, (3, 3)), 1e-5))
for k in range(4):
    a, b, c = rng.uniform(2, 9, 3)
    al, be, ga = np.radians(rng.uniform(60, 120, 3))
    cx = c * np.cos(be)
    cy = c * (np.cos(al) - np.cos(be) * np.cos(ga)) / np.sin(ga)
    rows = [[a, 0, 0], [b * np.cos(ga), b * np.sin(ga), 0], [cx, cy, np.sqrt(c * c - cx * cx - cy * cy)]]
    delaunay_inputs.append((f'random-params-{k}', rows, 1e-5))
hexa = np.array([[3.0, 0, 0], [-1.5, 1.5 * SQ3, 0], [0, 0, 5.0]])
delaunay_inputs += [
    ('cubic', np.eye(3) * 4.1, 1e-5),
    ('hexagonal-120', hexa, 1e-5),
    ('hexagonal-60', [[3.0, 0, 0], [1.5, 1.5 * SQ3, 0], [0, 0, 5.0]], 1e-5),
    ('rhombohedral-obverse', np.array([[2, 1, 1], [-1, 1, 1], [-1, -2, 1]]) / 3.0 @ hexa, 1e-5),
    ('rhombohedral-acute', np.array([[1, 0, 0], [0.5, SQ3 / 2, 0], [0.5, SQ3 / 6, np.sqrt(2 / 3)]]) * 2.7, 1e-5),
    ('fcc-primitive', np.array([[0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]]) * 4.05, 1e-5),
    ('bcc-primitive', np.array([[-0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.5, 0.5, -0.5]]) * 3.3, 1e-5),
    ('c-centred-primitive', [[2.5, -3.5, 0], [2.5, 3.5, 0], [0, 0, 6.0]], 1e-5),
    ('i-tetragonal-primitive', np.array([[-0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.5, 0.5, -0.5]]) * [3.0, 3.0, 9.0],
     1e-5),
    ('skewed', [[1, 0, 0], [10.3, 1, 0], [5.7, 7.2, 1]], 1e-5),
    ('skewed-needle', [[1, 0, 0], [0.999, 0.0447, 0], [0.5, 0.3, 2]], 1e-5),
    ('near-coplanar-fails', [[1, 0, 0], [0, 1, 0], [1, 1, 1e-7]], 1e-5),
    ('near-coplanar-small-eps', [[1, 0, 0], [0, 1, 0], [1, 1, 1e-7]], 1e-9),
    ('singular', [[1, 0, 0], [0, 1, 0], [1, 1, 0]], 1e-5),
    ('zero-vector', [[1, 0, 0], [0, 0, 0], [0, 0, 1]], 1e-5),
    ('left-handed', [[0, 1, 0], [1, 0, 0], [0.3, 0.2, 2]], 1e-5),
    ('long-c', [[1, 0, 0], [0.2, 1, 0], [0.1, 0.3, 100]], 1e-5),
    ('obtuse-eps-1e-3', [[2, 0, 0], [0.0005, 2, 0], [0, 0.0004, 2]], 1e-3),
    ('obtuse-eps-1e-6', [[2, 0, 0], [0.0005, 2, 0], [0, 0.0004, 2]], 1e-6),
    ('coarse-eps', [[3, 0, 0], [0.01, 3, 0], [0.02, 0.03, 3]], 0.1),
]
bases = {'cubic': np.eye(3) * 4.1, 'fcc': np.array([[0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]]) * 4.05,
         'hex': hexa, 'random': rng.uniform(-4, 4, (3, 3))}
for (steps, maxc) in [(6, 3), (10, 5), (14, 9), (20, 20), (30, 60)]:
    for name in ['cubic', 'fcc', 'hex', 'random']:
        if (steps, maxc) in [(6, 3), (10, 5)] and name == 'random':
            continue
        p = rand_unimodular(steps, maxc)
        delaunay_inputs.append((f'unimodular-{name}-{steps}x{maxc}', p @ bases[name], 1e-5))
for name, p in [('supercell-2', [[2, 0, 0], [0, 1, 0], [0, 0, 1]]), ('supercell-3-sheared', [[1, 7, -3], [0, 3, 5], [0, 0, 1]]),
                ('supercell-4-sheared', [[2, -9, 11], [1, 1, 0], [0, 13, 2]])]:
    delaunay_inputs.append((name, np.array(p) @ bases['fcc'], 1e-5))

delaunay = []
for name, rows, eps in delaunay_inputs:
    rows = np.array(rows, dtype=float)
    red = spglib.delaunay_reduce(rows, eps=eps)
    # Same call straight into C (columns); must agree bit for bit with the public API.
    out = D9()
    ok = lib.del_delaunay_reduce(out, d9(rows.T), eps)
    assert ok == (red is not None), name
    if red is not None:
        assert np.array_equal(np.array(from_d9(out)).T, red), name
    delaunay.append({'name': name, 'lattice': fl(rows), 'eps': eps, 'reduced': None if red is None else fl(red)})
n_fail = sum(d['reduced'] is None for d in delaunay)
print(f'delaunay: {len(delaunay)} lattices, {n_fail} failures')

delaunay2d = []
for k, (name, rows, eps) in enumerate(delaunay_inputs[:: 3]):
    cols = np.array(rows, dtype=float).T
    for axis in range(3):
        out = D9(*([0.0] * 9))
        ok = lib.del_delaunay_reduce_2D(out, d9(cols), axis, eps)
        delaunay2d.append({'name': name, 'lattice': fl(cols), 'uniqueAxis': axis, 'eps': eps, 'ok': ok,
                           'reduced': from_d9(out) if ok else None})

# ---------------------------------------------------------------------------------------------- overlap
# Rutile TiO2 (P4_2/mnm, 16 operations) in a 2x1x1 supercell with the x coordinate kept free, so the pure
# translation (1/2, 0, 0) is an operation too (32 in all), plus a few random perturbations.
u = 0.3049
rutile_pos = [[0, 0, 0], [0.5, 0.5, 0.5], [u, u, 0], [-u, -u, 0], [0.5 + u, 0.5 - u, 0.5], [0.5 - u, 0.5 + u, 0.5]]
rutile_types = [22, 22, 8, 8, 8, 8]
rutile_lat = np.diag([4.594, 4.594, 2.959])
sup_pos = [[(p[0] + s) / 2, p[1], p[2]] for s in (0, 1) for p in rutile_pos]
sup_types = rutile_types * 2
sup_lat = rutile_lat @ np.diag([2.0, 1, 1])  # columns
symprec = 1e-5
rots, trans = (spglib.get_symmetry((sup_lat.T, sup_pos, sup_types), symprec=symprec)[k]
               for k in ('rotations', 'translations'))
print(f'overlap: {len(rots)} operations')
ovl_cell = c_cell(sup_lat, sup_pos, sup_types)
checker = lib.ovl_overlap_checker_init(ovl_cell)
ovl_cases = []


def ovl_case(kind, rot, tr, is_identity, prec=symprec):
    res = lib.ovl_check_total_overlap(checker, D3(*map(float, tr)), I9(*[int(x) for x in np.ravel(rot)]), prec,
                                      is_identity)
    ovl_cases.append({'kind': kind, 'rot': [[int(x) for x in r] for r in rot], 'trans': [float(x) for x in tr],
                      'isIdentity': is_identity, 'symprec': prec, 'result': res})


for r, t in zip(rots, trans):
    ovl_case('real', r, t, int(np.array_equal(r, np.eye(3))))
for r, t in zip(rots, trans):
    ovl_case('perturbed', r, t + rng.normal(0, 1e-3, 3), 0)
for r, t in zip(rots, trans):
    # Off by 1e-6 in fractions (4.6e-6 Å along a): within 1e-5 Å, not within 1e-6 Å.
    ovl_case('nudged', r, t + [1e-6, 0, 0], 0)
    ovl_case('nudged-tight', r, t + [1e-6, 0, 0], 0, 1e-6)
for k in range(24):
    r = rots[rng.integers(len(rots))]
    ovl_case('wrong-translation', r, rng.choice([0, 0.25, 0.5, 0.75], 3), 0)
for k in range(16):
    r = rng.integers(-1, 2, (3, 3))
    ovl_case('random-rotation', r, rng.choice([0, 0.5], 3), 0)
for t in [[0.5, 0, 0], [0, 0.5, 0], [0.5, 0.5, 0.5], [0.25, 0.5, 0.5], [1.5, -1, 2]]:
    ovl_case('pure-translation', np.eye(3, dtype=int), t, 1)
lib.ovl_overlap_checker_free(checker)
lib.cel_free_cell(ovl_cell)
overlap = {'lattice': fl(sup_lat), 'positions': fl(sup_pos), 'types': sup_types, 'cases': ovl_cases}
print(f'overlap: {len(ovl_cases)} cases, {sum(c["result"] for c in ovl_cases)} true')

# ---------------------------------------------------------------------------------------------- trim
trim = []


def trim_case(name, lattice_cols, positions, types, trimmed_cols, prec):
    cell = c_cell(lattice_cols, positions, types)
    any_same = lib.cel_any_overlap_with_same_type(cell, prec)
    any_overlap = lib.cel_any_overlap(cell, prec)
    mapping = (I * len(types))(*([-1] * len(types)))
    trimmed = lib.cel_trim_cell(mapping, d9(trimmed_cols), cell, prec)
    res = None
    if trimmed:
        res = read_cell(trimmed)
        res['mapping'] = list(mapping)
        lib.cel_free_cell(trimmed)
    lib.cel_free_cell(cell)
    trim.append({'name': name, 'lattice': fl(lattice_cols), 'positions': fl(positions), 'types': list(types),
                 'trimmedLattice': fl(trimmed_cols), 'symprec': prec, 'anyOverlapWithSameType': any_same,
                 'anyOverlap': any_overlap, 'trimmed': res})


# NaCl primitive (fcc) doubled along a; the trimmed lattice is the primitive one.
prim = np.array([[0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]]).T * 5.64  # columns
nacl = [[0, 0, 0], [0.5, 0.5, 0.5]]
sup = prim @ np.diag([2.0, 1, 1])
sup_nacl = [[(p[0] + s) / 2, p[1], p[2]] for s in (0, 1) for p in nacl]
trim_case('nacl-2x1x1', sup, sup_nacl, [11, 17, 11, 17], prim, 1e-5)
noisy = (np.array(sup_nacl) + rng.normal(0, 2e-4, (4, 3))).tolist()
trim_case('nacl-2x1x1-noisy', sup, noisy, [11, 17, 11, 17], prim, 1e-2)
trim_case('nacl-2x1x1-noisy-tight', sup, noisy, [11, 17, 11, 17], prim, 1e-5)
# Rutile supercell above, wrapped positions straddling the boundary, back to the conventional cell.
sup_wrapped = [[x - np.floor(x) for x in p] for p in sup_pos]
trim_case('rutile-2x1x1', sup_lat, sup_wrapped, sup_types, rutile_lat, 1e-5)
trim_case('rutile-2x1x1-noisy', sup_lat, (np.array(sup_wrapped) + rng.normal(0, 1e-4, (12, 3))).tolist(), sup_types,
          rutile_lat, 1e-2)
# 2x2x1 with an atom at the cell boundary; the trimmed lattice given as an equivalent sheared basis.
sheared = rutile_lat @ np.array([[1, 1, 0], [0, 1, 0], [0, 0, 1]]).T
sup4_pos = [[(p[0] + s) / 2, (p[1] + t) / 2, p[2]] for s in (0, 1) for t in (0, 1) for p in rutile_pos]
trim_case('rutile-2x2x1-sheared', rutile_lat @ np.diag([2.0, 2, 1]), sup4_pos, rutile_types * 4, sheared, 1e-5)
# Failures: atom count not divisible; a lattice that is not a sublattice (determinant mismatch).
trim_case('not-divisible', sup, sup_nacl[:3], [11, 17, 11], prim, 1e-5)
trim_case('not-a-sublattice', sup, sup_nacl, [11, 17, 11, 17], prim @ np.diag([1.0, 1.0, 0.7]), 1e-5)
# Overlapping atoms of different / same type in one cell.
trim_case('overlap-different-types', np.eye(3) * 3, [[0, 0, 0], [1e-7, 0, 0], [0.5, 0.5, 0.5]], [1, 2, 1],
          np.eye(3) * 3, 1e-5)
trim_case('overlap-same-type', np.eye(3) * 3, [[0, 0, 0], [0.9999999, 0, 0], [0.5, 0.5, 0.5]], [1, 1, 2],
          np.eye(3) * 3, 1e-5)
print(f'trim: {len(trim)} cases, {sum(t["trimmed"] is None for t in trim)} failures')

OUT.parent.mkdir(parents=True, exist_ok=True)
doc = {
    'source': 'scripts/make-spglib-base-fixtures.py with spglib ' + spglib.__version__,
    'nint': nint,
    'dmod1': dmod1,
    'inverse': inverse,
    'delaunay': delaunay,
    'delaunay2d': delaunay2d,
    'overlap': overlap,
    'trim': trim,
}
OUT.write_text(json.dumps(doc, indent=1) + '\n')
print(f'wrote {OUT} ({OUT.stat().st_size} bytes)')
