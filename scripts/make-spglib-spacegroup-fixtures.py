#!/usr/bin/python3
"""Fixtures for the TypeScript port of spglib v2.0.2 src/spacegroup.c and src/hall_symbol.c.

Usage: /usr/bin/python3 scripts/make-spglib-spacegroup-fixtures.py
Writes tests/reference/golden/spglib/spacegroup.json.

Expected values come from Debian's spglib 2.0.2 (/usr/bin/python3), two ways:

- the public API: spglib.get_spacegroup_type_from_symmetry(rotations, translations, lattice, symprec) (number
  and hall_number; it runs prm_get_primitive_symmetry and spa_search_spacegroup_with_symmetry) and, for the
  cells, spglib.get_symmetry_dataset (number, hall_number);
- the C functions themselves through ctypes in the Python extension (_spglib*.so exports them):
  `ops` cases replay spglib.c get_hall_number_from_symmetry: prm_get_primitive_symmetry(t_mat, ops, symprec),
  prim_lat = lattice * t_mat^-1, spa_search_spacegroup_with_symmetry(prim_sym, prim_lat, symprec) and record
  number, hall_number, origin_shift and bravais_lattice. `cell` cases build a cell from the orbit of generic
  points under the operations, prm_get_primitive(cell, symprec, angle_tolerance) (recorded: the primitive
  cell, its tolerances and orig_lattice) and spa_search_spacegroup(primitive, hall_number, tolerance,
  angle_tolerance) for hall_number 0 and for other Hall settings of the same type;
  spa_transform_from_primitive(primitive cell, centring, symprec) and spa_transform_to_primitive(cell,
  identity, centring, symprec) of the conventional orbit cell.

Operation sets: spglib.get_symmetry_from_database(h) for ~110 Hall numbers (every setting family: monoclinic
cell choices and unique axes, orthorhombic permutations, origin choices, R obverse and rhombohedral axes),
plus transformed sets: x_old = P x_new + p, R' = P^-1 R P, t' = P^-1 (R p + t - p) with integer P of
det +-1 (permuted orthorhombic axes, monoclinic a<->c, hexagonal 60 degree turns, obverse->reverse, sheared
triclinic/monoclinic cells) and origin shifts on a 1/8 grid or to another normaliser origin; centred groups
written in their primitive basis; translations with noise of 2e-5 at symprec 1e-3. Lattices (basis vectors as
columns, as C takes them; the same array is handed to the Python call, which passes it through untouched)
have the metric of a seeded random cell averaged over the point group, so that it is invariant under the
rotations in whatever setting.
"""
import ctypes
import glob
import json
import os
from fractions import Fraction

import numpy as np
import spglib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "tests", "reference", "golden", "spglib", "spacegroup.json")

SO = glob.glob(os.path.join(os.path.dirname(spglib.__file__), "_spglib*.so"))[0]
lib = ctypes.CDLL(SO)

D3 = ctypes.c_double * 3
I33 = (ctypes.c_int * 3) * 3
D33 = D3 * 3


class Symmetry(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_int),
        ("rot", ctypes.POINTER(I33)),
        ("trans", ctypes.POINTER(D3)),
    ]


class Cell(ctypes.Structure):
    _fields_ = [
        ("size", ctypes.c_int),
        ("aperiodic_axis", ctypes.c_int),
        ("lattice", ctypes.POINTER(D3)),
        ("types", ctypes.POINTER(ctypes.c_int)),
        ("position", ctypes.POINTER(D3)),
        ("tensor_rank", ctypes.c_int),
        ("tensors", ctypes.POINTER(ctypes.c_double)),
    ]


class Primitive(ctypes.Structure):
    _fields_ = [
        ("cell", ctypes.POINTER(Cell)),
        ("mapping_table", ctypes.POINTER(ctypes.c_int)),
        ("size", ctypes.c_int),
        ("tolerance", ctypes.c_double),
        ("angle_tolerance", ctypes.c_double),
        ("orig_lattice", ctypes.POINTER(D3)),
    ]


class Spacegroup(ctypes.Structure):
    _fields_ = [
        ("number", ctypes.c_int),
        ("hall_number", ctypes.c_int),
        ("pointgroup_number", ctypes.c_int),
        ("schoenflies", ctypes.c_char * 7),
        ("hall_symbol", ctypes.c_char * 17),
        ("international", ctypes.c_char * 32),
        ("international_long", ctypes.c_char * 20),
        ("international_short", ctypes.c_char * 11),
        ("choice", ctypes.c_char * 6),
        ("bravais_lattice", D33),
        ("origin_shift", D3),
    ]


lib.sym_alloc_symmetry.restype = ctypes.POINTER(Symmetry)
lib.sym_alloc_symmetry.argtypes = [ctypes.c_int]
lib.prm_get_primitive_symmetry.restype = ctypes.POINTER(Symmetry)
lib.prm_get_primitive_symmetry.argtypes = [ctypes.POINTER(D3), ctypes.POINTER(Symmetry), ctypes.c_double]
lib.spa_search_spacegroup_with_symmetry.restype = ctypes.POINTER(Spacegroup)
lib.spa_search_spacegroup_with_symmetry.argtypes = [ctypes.POINTER(Symmetry), ctypes.POINTER(D3), ctypes.c_double]
lib.spa_search_spacegroup.restype = ctypes.POINTER(Spacegroup)
lib.spa_search_spacegroup.argtypes = [ctypes.POINTER(Primitive), ctypes.c_int, ctypes.c_double, ctypes.c_double]
lib.mat_inverse_matrix_d3.restype = ctypes.c_int
lib.mat_inverse_matrix_d3.argtypes = [ctypes.POINTER(D3), ctypes.POINTER(D3), ctypes.c_double]
lib.mat_multiply_matrix_d3.restype = None
lib.mat_multiply_matrix_d3.argtypes = [ctypes.POINTER(D3), ctypes.POINTER(D3), ctypes.POINTER(D3)]
lib.cel_alloc_cell.restype = ctypes.POINTER(Cell)
lib.cel_alloc_cell.argtypes = [ctypes.c_int, ctypes.c_int]
lib.cel_set_cell.restype = None
lib.cel_set_cell.argtypes = [ctypes.POINTER(Cell), ctypes.POINTER(D3), ctypes.POINTER(D3), ctypes.POINTER(ctypes.c_int)]
lib.prm_get_primitive.restype = ctypes.POINTER(Primitive)
lib.prm_get_primitive.argtypes = [ctypes.POINTER(Cell), ctypes.c_double, ctypes.c_double]
lib.spa_transform_from_primitive.restype = ctypes.POINTER(Cell)
lib.spa_transform_from_primitive.argtypes = [ctypes.POINTER(Cell), ctypes.c_int, ctypes.c_double]
lib.spa_transform_to_primitive.restype = ctypes.POINTER(Cell)
lib.spa_transform_to_primitive.argtypes = [
    ctypes.POINTER(ctypes.c_int),
    ctypes.POINTER(Cell),
    ctypes.POINTER(D3),
    ctypes.c_int,
    ctypes.c_double,
]

CENTERING = {"P": 1, "I": 2, "F": 3, "A": 4, "B": 5, "C": 6, "R": 8}


def d33(m):
    a = D33()
    for i in range(3):
        for j in range(3):
            a[i][j] = float(m[i][j])
    return a


def mat(m):
    return [[float(m[i][j]) for j in range(3)] for i in range(3)]


def make_symmetry(rots, trans):
    sym = lib.sym_alloc_symmetry(len(rots))
    for k, (r, t) in enumerate(zip(rots, trans)):
        for i in range(3):
            for j in range(3):
                sym.contents.rot[k][i][j] = int(r[i][j])
            sym.contents.trans[k][i] = float(t[i])
    return sym


def spacegroup_dict(sg):
    if not sg:
        return None
    s = sg.contents
    return {
        "number": s.number,
        "hall_number": s.hall_number,
        "pointgroup_number": s.pointgroup_number,
        "hall_symbol": s.hall_symbol.decode(),
        "international": s.international.decode(),
        "choice": s.choice.decode(),
        "bravais_lattice": mat(s.bravais_lattice),
        "origin_shift": [float(s.origin_shift[i]) for i in range(3)],
    }


def cell_dict(c, size=None):
    if not c:
        return None
    c = c.contents
    return {
        "lattice": mat(c.lattice),
        "types": [int(c.types[i]) for i in range(c.size)],
        "position": [[float(c.position[i][j]) for j in range(3)] for i in range(c.size)],
    }


def search_with_symmetry(rots, trans, lattice, symprec):
    """spglib.c get_hall_number_from_symmetry, keeping the whole Spacegroup."""
    sym = make_symmetry(rots, trans)
    t_mat = D33()
    prim = lib.prm_get_primitive_symmetry(t_mat, sym, symprec)
    if not prim:
        return None, None
    t_mat_inv, prim_lat = D33(), D33()
    if not lib.mat_inverse_matrix_d3(t_mat_inv, t_mat, ctypes.c_double(symprec)):
        return None, None
    lib.mat_multiply_matrix_d3(prim_lat, d33(lattice), t_mat_inv)
    sg = lib.spa_search_spacegroup_with_symmetry(prim, prim_lat, symprec)
    return spacegroup_dict(sg), prim.contents.size


def sym_metric(rots, rng, lengths=None):
    """A lattice (columns) whose metric is a random one averaged over the rotations."""
    if lengths is None:
        lengths = rng.uniform(4.0, 11.0, 3)
    angles = np.radians(rng.uniform(70.0, 110.0, 3))
    a, b, c = lengths
    al, be, ga = angles
    g = np.array(
        [
            [a * a, a * b * np.cos(ga), a * c * np.cos(be)],
            [a * b * np.cos(ga), b * b, b * c * np.cos(al)],
            [a * c * np.cos(be), b * c * np.cos(al), c * c],
        ]
    )
    gs = sum(np.array(r).T @ g @ np.array(r) for r in rots) / len(rots)
    ch = np.linalg.cholesky(gs)  # gs = ch ch^T
    lat = ch.T  # lat^T lat = gs; basis vectors are the columns
    return np.round(lat, 6) + 0.0  # short in JSON; +0.0 drops -0


def transform_ops(rots, trans, P, p):
    """x_old = P x_new + p: R' = P^-1 R P, t' = P^-1 (R p + t - p), exact in fractions, mod 1, deduplicated."""
    Pf = [[Fraction(P[i][j]) for j in range(3)] for i in range(3)]
    Pinv = frac_inv(Pf)
    pf = [Fraction(x) for x in p]
    out_r, out_t, seen = [], [], set()
    for r, t in zip(rots, trans):
        rf = [[Fraction(int(r[i][j])) for j in range(3)] for i in range(3)]
        tf = [Fraction(float(t[i])).limit_denominator(1000) for i in range(3)]
        r2 = mm(Pinv, mm(rf, Pf))
        v = [sum(rf[i][k] * pf[k] for k in range(3)) + tf[i] - pf[i] for i in range(3)]
        t2 = [sum(Pinv[i][k] * v[k] for k in range(3)) % 1 for i in range(3)]
        assert all(x.denominator == 1 for row in r2 for x in row), "non-integral rotation"
        key = (tuple(int(x) for row in r2 for x in row), tuple(t2))
        if key in seen:
            continue
        seen.add(key)
        out_r.append([[int(x) for x in row] for row in r2])
        out_t.append(t2)
    return out_r, out_t


def mm(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def frac_inv(m):
    a, b, c = m[0]
    d, e, f = m[1]
    g, h, i = m[2]
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    adj = [
        [e * i - f * h, c * h - b * i, b * f - c * e],
        [f * g - d * i, a * i - c * g, c * d - a * f],
        [d * h - e * g, b * g - a * h, a * e - b * d],
    ]
    return [[adj[r][s] / det for s in range(3)] for r in range(3)]


def hall_type(h):
    return spglib.get_spacegroup_type(h)


# Hall numbers: every 5th from 1 plus hand-picked settings (monoclinic cell choices and axes, orthorhombic
# permutations, origin choices 1/2, hexagonal/rhombohedral R axes, cubic origin choices).
HALLS = sorted(
    set(range(1, 531, 9))
    | {
        2, 3, 5, 7, 8, 13, 17, 22, 33, 42, 51, 58, 64, 74, 85, 88, 97, 105, 107, 111, 113, 120, 128, 133,
        166, 200, 230, 262, 300, 317, 323, 333, 339, 345, 348, 401, 405, 433, 434, 445, 452, 453, 459,
        461, 488, 501, 518, 525, 526, 529, 530,
    }
)

# Integer changes of basis of det +1 and -1 and origin shifts (x_old = P x_new + p).
TRANSFORMS = [
    # (hall, P, p, note)
    (1, [[1, 1, 0], [0, 1, 0], [0, 0, 1]], [0, 0, 0], "P1 sheared"),
    (2, [[1, 0, 1], [1, 1, 0], [0, 0, 1]], [Fraction(1, 8), Fraction(3, 8), 0], "P-1 sheared, shifted"),
    (2, [[0, 1, 0], [1, 0, 0], [0, 0, 1]], [Fraction(1, 4), 0, Fraction(1, 2)], "P-1 det -1"),
    (3, [[0, 0, 1], [0, -1, 0], [1, 0, 0]], [Fraction(1, 8), 0, Fraction(1, 4)], "P2 a<->c"),
    (6, [[1, 0, 1], [0, 1, 0], [0, 0, 1]], [0, Fraction(1, 8), 0], "P2_1 sheared"),
    (9, [[0, 0, 1], [0, -1, 0], [1, 0, 0]], [0, 0, 0], "C2 a<->c (A2)"),
    (18, [[1, 0, 2], [0, 1, 0], [0, 0, 1]], [Fraction(1, 4), 0, 0], "Pm sheared"),
    (57, [[0, 0, 1], [0, -1, 0], [1, 0, 0]], [Fraction(1, 8), Fraction(1, 8), Fraction(1, 8)], "P2/m a<->c"),
    (81, [[0, 0, 1], [0, -1, 0], [1, 0, 0]], [Fraction(1, 4), Fraction(1, 4), 0], "P2_1/c a<->c"),
    (81, [[1, 0, 1], [0, 1, 0], [0, 0, 1]], [0, 0, 0], "P2_1/c sheared (P2_1/n)"),
    (90, [[0, 0, 1], [0, -1, 0], [1, 0, 0]], [0, Fraction(1, 8), 0], "C2/c a<->c"),
    (90, [[1, 0, 1], [0, 1, 0], [0, 0, 1]], [0, 0, 0], "C2/c sheared"),
    (108, [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [Fraction(1, 8), 0, Fraction(3, 8)], "P222 cyclic"),
    (112, [[0, 0, 1], [1, 0, 0], [0, 1, 0]], [0, 0, 0], "P222_1 cyclic"),
    (115, [[0, 1, 0], [1, 0, 0], [0, 0, -1]], [Fraction(1, 4), 0, 0], "P2_12_12_1 a<->b"),
    (125, [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [0, 0, 0], "C222_1 cyclic"),
    (173, [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [Fraction(1, 8), Fraction(1, 8), 0], "Pca2_1 cyclic"),
    (185, [[1, 0, 0], [0, 0, 1], [0, -1, 0]], [0, 0, 0], "Pna2_1 b<->c"),
    (252, [[0, 0, 1], [1, 0, 0], [0, 1, 0]], [Fraction(1, 4), Fraction(1, 4), Fraction(1, 4)], "Pbca cyclic"),
    (292, [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [0, 0, 0], "Pnma cyclic"),
    (292, [[0, 1, 0], [1, 0, 0], [0, 0, -1]], [Fraction(1, 8), 0, 0], "Pnma a<->b"),
    (298, [[0, 0, 1], [1, 0, 0], [0, 1, 0]], [0, 0, 0], "Cmcm cyclic"),
    (304, [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [0, Fraction(1, 4), 0], "Cmce cyclic"),
    (336, [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [Fraction(1, 8), Fraction(1, 8), Fraction(1, 8)], "Fddd cyclic"),
    (343, [[0, 1, 0], [1, 0, 0], [0, 0, -1]], [0, 0, 0], "Imma a<->b"),
    (341, [[0, 0, 1], [1, 0, 0], [0, 1, 0]], [Fraction(1, 4), 0, 0], "Ibca cyclic"),
    (361, [[0, -1, 0], [1, 0, 0], [0, 0, 1]], [Fraction(1, 4), Fraction(1, 4), 0], "P4_2 turned"),
    (400, [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [Fraction(1, 2), Fraction(1, 2), 0], "P4/nmm shifted"),
    (429, [[0, 1, 0], [1, 0, 0], [0, 0, -1]], [0, Fraction(1, 4), Fraction(1, 8)], "I4_1/acd flipped"),
    (433, [[-1, 0, 0], [0, -1, 0], [0, 0, 1]], [0, 0, 0], "R3 obverse->reverse"),
    (458, [[-1, 0, 0], [0, -1, 0], [0, 0, 1]], [0, 0, Fraction(1, 2)], "R-3c reverse"),
    (459, [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [Fraction(1, 4), Fraction(1, 4), Fraction(1, 4)], "R-3c rhomb cyc"),
    (448, [[1, -1, 0], [1, 0, 0], [0, 0, 1]], [0, 0, 0], "P3_121 turned 60"),
    (472, [[0, -1, 0], [1, -1, 0], [0, 0, 1]], [0, 0, Fraction(1, 4)], "P6_3 turned, shifted"),
    (488, [[1, -1, 0], [1, 0, 0], [0, 0, 1]], [0, 0, Fraction(1, 2)], "P6_3/mmc shifted"),
    (517, [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [Fraction(1, 2), Fraction(1, 2), Fraction(1, 2)], "Pm-3m body origin"),
    (523, [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [Fraction(1, 2), Fraction(1, 2), Fraction(1, 2)], "Fm-3m other origin"),
    (525, [[0, 1, 0], [1, 0, 0], [0, 0, -1]], [Fraction(1, 4), Fraction(1, 4), Fraction(1, 4)], "Fd-3m o1 moved"),
    (526, [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [Fraction(1, 2), Fraction(1, 2), Fraction(1, 2)], "Fd-3m o2 moved"),
    (530, [[0, 0, 1], [1, 0, 0], [0, 1, 0]], [Fraction(1, 4), Fraction(1, 4), Fraction(1, 4)], "Ia-3d moved"),
    (501, [[0, 0, 1], [0, -1, 0], [1, 0, 0]], [0, 0, 0], "Pa-3 old 501 basis"),
]

# Centred groups written in a primitive basis (x_old = P x_new with fractional P).
H = Fraction(1, 2)
T3 = Fraction(1, 3)
PRIMITIVE_BASIS = [
    (9, [[H, H, 0], [-H, H, 0], [0, 0, 1]], [0, 0, 0], "C2 primitive"),
    (72, [[H, -H, 0], [H, H, 0], [0, 0, 1]], [Fraction(1, 8), 0, 0], "C2/m primitive"),
    (90, [[H, H, 0], [-H, H, 0], [0, 0, 1]], [0, 0, 0], "C2/c primitive"),
    (298, [[H, H, 0], [-H, H, 0], [0, 0, 1]], [0, 0, 0], "Cmcm primitive"),
    (336, [[0, H, H], [H, 0, H], [H, H, 0]], [0, 0, 0], "Fddd primitive"),
    (343, [[-H, H, H], [H, -H, H], [H, H, -H]], [0, 0, 0], "Imma primitive"),
    (406, [[-H, H, H], [H, -H, H], [H, H, -H]], [0, 0, 0], "I4/m primitive"),
    (452, [[2 * T3, -T3, -T3], [T3, T3, -2 * T3], [T3, T3, T3]], [0, 0, 0], "R-3m primitive"),
    (523, [[0, H, H], [H, 0, H], [H, H, 0]], [0, 0, 0], "Fm-3m primitive"),
    (529, [[-H, H, H], [H, -H, H], [H, H, -H]], [0, 0, 0], "Im-3m primitive"),
]

# Operation sets with noisy translations (symprec 1e-3).
NOISY = [2, 14, 81, 90, 115, 292, 406, 452, 458, 484]


def compact_rot(r):
    return [int(x) for row in r for x in row]


def crashes(fn):
    """True when fn() kills the process (spglib 2.0.2 dereferences a NULL sym_reduce_operation result when the
    first search fails and the reduced operations are empty); run in a forked child."""
    pid = os.fork()
    if pid == 0:
        fn()
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0)


def number_or_fraction(x):
    """Exact fractions of the transformed operations as "n/d" (JS n/d is the same correctly rounded double)."""
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else int(x)
    return float(x)


def add_ops_case(cases, name, hall, rots, trans, lattice, symprec, from_database=False):
    if crashes(lambda: search_with_symmetry(rots, trans, lattice, symprec)):
        print(f"skipped (spglib crashes): {name}")
        return
    expect, prim_size = search_with_symmetry(rots, trans, lattice, symprec)
    api = spglib.get_spacegroup_type_from_symmetry(
        np.array(rots, dtype="intc"),
        np.array([[float(x) for x in t] for t in trans], dtype="double"),
        np.array(lattice, dtype="double"),
        symprec,
    )
    api_pair = None if api is None else [api["number"], api["hall_number"]]
    ours_pair = None if expect is None else [expect["number"], expect["hall_number"]]
    assert api_pair == ours_pair, (name, api_pair, ours_pair)
    cases.append(
        {
            "name": name,
            "source_hall": hall,
            "symprec": symprec,
            "lattice": mat(lattice),
            # null: spglib.get_symmetry_from_database(source_hall) (spg_get_symmetry_from_database).
            "rotations": None if from_database else [compact_rot(r) for r in rots],
            "translations": None if from_database else [[number_or_fraction(x) for x in t] for t in trans],
            "primitive_size": prim_size,
            "api": api_pair,
            "expect": expect,
        }
    )


def orbit_cell(rots, trans, rng, npoints):
    pos, types = [], []
    for k in range(npoints):
        x0 = rng.uniform(0, 1, 3)
        orbit = []
        for r, t in zip(rots, trans):
            y = np.round((np.array(r) @ x0 + np.array([float(v) for v in t])) % 1.0, 8) % 1.0
            if not any(np.allclose(((y - z + 0.5) % 1.0) - 0.5, 0, atol=1e-8) for z in orbit):
                orbit.append(y)
        pos.extend(orbit)
        types.extend([k + 1] * len(orbit))
    return np.array(pos), types


def c_cell(lattice, pos, types):
    n = len(types)
    cell = lib.cel_alloc_cell(n, -1)
    P = (D3 * n)()
    for i in range(n):
        for j in range(3):
            P[i][j] = float(pos[i][j])
    T = (ctypes.c_int * n)(*types)
    lib.cel_set_cell(cell, d33(lattice), P, T)
    return cell


def add_cell_case(cells, name, hall, rots, trans, lattice, symprec, angle_tolerance, rng, extra_halls=(), conv=True):
    pos, types = orbit_cell(rots, trans, rng, 1)
    cell = c_cell(lattice, pos, types)
    prim = lib.prm_get_primitive(cell, symprec, angle_tolerance)
    assert prim, name
    pc = prim.contents
    primitive = {
        "cell": cell_dict(pc.cell),
        "size": pc.size,
        "tolerance": pc.tolerance,
        "angle_tolerance": pc.angle_tolerance,
        "orig_lattice": mat(pc.orig_lattice),
    }
    searches = []
    for h in (0,) + tuple(extra_halls):
        sg = lib.spa_search_spacegroup(prim, h, pc.tolerance, pc.angle_tolerance)
        searches.append({"hall_number": h, "expect": spacegroup_dict(sg)})
    ds = spglib.get_symmetry_dataset((np.array(lattice).T, pos, types), symprec=symprec, angle_tolerance=angle_tolerance)
    dataset = None if ds is None else [int(ds["number"]), int(ds["hall_number"])]
    # Centred conventional <-> primitive cells.
    # (Only for cells in the database setting, whose centring letter is that of the Hall symbol.)
    conv = conv and len(types) <= 48  # keeps the fixture small
    centering = CENTERING[hall_type(hall)["international_short"][0]] if conv else None
    n = len(types)
    mapping = (ctypes.c_int * n)()
    to_prim = lib.spa_transform_to_primitive(mapping, cell, d33(np.eye(3)), centering, symprec) if conv else None
    from_prim = lib.spa_transform_from_primitive(pc.cell, centering, symprec) if conv and centering != 1 else None
    cells.append(
        {
            "name": name,
            "source_hall": hall,
            "symprec": symprec,
            "angle_tolerance": angle_tolerance,
            "lattice": mat(lattice),
            "types": types if conv else None,
            "position": [[float(x) for x in p] for p in pos] if conv else None,
            "primitive": primitive,
            "searches": searches,
            "dataset": dataset,
            "centering": centering,
            "to_primitive": None
            if not to_prim
            else {"cell": cell_dict(to_prim), "mapping_table": [int(mapping[i]) for i in range(n)]},
            "from_primitive": cell_dict(from_prim) if from_prim else None,
        }
    )


def main():
    rng = np.random.default_rng(20260312)
    ops_cases, cell_cases = [], []

    for h in HALLS:
        s = spglib.get_symmetry_from_database(h)
        rots, trans = s["rotations"], s["translations"]
        lat = sym_metric(rots, rng)
        add_ops_case(ops_cases, f"hall {h}", h, rots, trans, lat, 1e-5, from_database=True)

    for h, P, p, note in TRANSFORMS + PRIMITIVE_BASIS:
        s = spglib.get_symmetry_from_database(h)
        rots, trans = transform_ops(s["rotations"], s["translations"], P, p)
        lat = sym_metric(rots, rng)
        add_ops_case(ops_cases, f"hall {h}: {note}", h, rots, trans, lat, 1e-5)

    for h in NOISY:
        s = spglib.get_symmetry_from_database(h)
        rots = s["rotations"]
        trans = (s["translations"] + rng.uniform(-2e-5, 2e-5, s["translations"].shape)).tolist()
        lat = sym_metric(rots, rng)
        add_ops_case(ops_cases, f"hall {h}: noisy translations", h, rots, trans, lat, 1e-3)

    # Cells: generic orbits, a subset of settings, with and without angle tolerance; extra Hall settings.
    cell_halls = [
        (1, ()), (2, ()), (3, (4, 5)), (8, ()), (13, (9, 10)), (18, ()), (30, ()), (57, ()), (63, ()), (72, (73,)),
        (81, (82, 84, 86)), (90, (91, 93, 96)), (108, ()), (115, ()), (119, ()), (128, (129,)), (166, ()),
        (227, (228,)), (292, (293, 294)), (298, ()), (304, ()), (336, (337,)), (343, ()), (349, ()), (366, ()),
        (400, (401,)), (406, ()), (429, (428,)), (433, (434,)), (437, ()), (449, ()), (458, (459,)), (462, ()),
        (484, ()), (488, ()), (489, ()), (501, ()), (517, ()), (523, ()), (525, (526,)), (530, ()),
    ]
    for k, (h, extra) in enumerate(cell_halls):
        s = spglib.get_symmetry_from_database(h)
        rots, trans = s["rotations"], s["translations"]
        lat = sym_metric(rots, rng)
        angle = 5.0 if k % 2 else -1.0
        add_cell_case(cell_cases, f"cell hall {h}", h, rots, trans, lat, 1e-5, angle, rng, extra)
    for h, P, p, note in TRANSFORMS[::4]:
        s = spglib.get_symmetry_from_database(h)
        rots, trans = transform_ops(s["rotations"], s["translations"], P, p)
        lat = sym_metric(rots, rng)
        add_cell_case(cell_cases, f"cell hall {h}: {note}", h, rots, trans, lat, 1e-5, -1.0, rng, conv=False)

    data = {
        "generator": "scripts/make-spglib-spacegroup-fixtures.py",
        "spglib": spglib.__version__,
        "ops": ops_cases,
        "cells": cell_cases,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"{OUT}: {len(ops_cases)} operation sets, {len(cell_cases)} cells, {os.path.getsize(OUT)} bytes")
    fails = [c["name"] for c in ops_cases if c["expect"] is None]
    print("operation sets without a space group:", fails)


if __name__ == "__main__":
    main()
