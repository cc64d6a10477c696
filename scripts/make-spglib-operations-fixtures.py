#!/usr/bin/python3
"""Fixtures for the TypeScript port of spglib v2.0.2 src/symmetry.c and src/primitive.c.

Usage: /usr/bin/python3 scripts/make-spglib-operations-fixtures.py
Writes tests/reference/golden/spglib/operations.json.

Every case is an input cell (lattice rows = basis vectors as Python's spglib takes them, fractional positions,
types) with a symprec and an angle_tolerance (5 as pymatgen's SpacegroupAnalyzer passes it, -1 for spglib's
length-only default). Expected values come from Debian's spglib 2.0.2 in two ways:

- `c`: the C functions themselves, called through ctypes in the Python extension (_spglib*.so exports
  sym_get_operation, prm_get_primitive, ... from the same build): on the cell as `spg_get_dataset` sets it up
  (cel_set_cell), prm_get_primitive(cell, symprec, angle_tolerance) (its lattice with the basis vectors as
  columns, positions, types, mapping table, tolerance), sym_get_operation(primitive cell, symprec,
  angle_tolerance) in its order, sym_get_pure_translation(cell, symprec), sym_get_operation on the input cell
  and prm_get_primitive_symmetry(t_mat, those operations, symprec), sym_reduce_operation(primitive cell,
  operations, symprec / 2, angle_tolerance) and prm_get_primitive_lattice_vectors(cell, pure translations, ...).
- `dataset` / `find_primitive`: the public API, spglib.get_symmetry_dataset(cell, symprec, angle_tolerance)
  (number, rotations and translations in the input basis, primitive_lattice as rows) and the atom count of
  spglib.find_primitive(cell, symprec, angle_tolerance); null where spglib finds none.

Cells: CIFs and POSCARs of tests/reference/corpus/files read with pymatgen (Structure.from_file), the extended XYZ
quartz read by hand, and synthetic cells built here (rocksalt, a 2x2x1 supercell, distorted cubic cells whose
angles are off by 2 to 7 degrees, seeded random perturbations, hematite and alpha quartz from their Wyckoff
positions).
"""
import ctypes
import glob
import json
import os
import warnings

import numpy as np
import spglib
from pymatgen.core import Lattice, Structure

warnings.filterwarnings("ignore")

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "tests", "reference", "corpus", "files")
OUT = os.path.join(HERE, "..", "tests", "reference", "golden", "spglib", "operations.json")

SO = glob.glob(os.path.join(os.path.dirname(spglib.__file__), "_spglib*.so"))[0]
lib = ctypes.CDLL(SO)

D3 = ctypes.c_double * 3
I33 = (ctypes.c_int * 3) * 3
D33 = D3 * 3


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


class Symmetry(ctypes.Structure):
    _fields_ = [("size", ctypes.c_int), ("rot", ctypes.POINTER(I33)), ("trans", ctypes.POINTER(D3))]


class VecDBL(ctypes.Structure):
    _fields_ = [("size", ctypes.c_int), ("vec", ctypes.POINTER(D3))]


def fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


PCell, PPrim, PSym, PVec = (ctypes.POINTER(t) for t in (Cell, Primitive, Symmetry, VecDBL))
cel_alloc_cell = fn("cel_alloc_cell", PCell, ctypes.c_int, ctypes.c_int)
cel_set_cell = fn("cel_set_cell", None, PCell, D33, ctypes.POINTER(D3), ctypes.POINTER(ctypes.c_int))
cel_free_cell = fn("cel_free_cell", None, PCell)
cel_any_overlap_with_same_type = fn("cel_any_overlap_with_same_type", ctypes.c_int, PCell, ctypes.c_double)
prm_get_primitive = fn("prm_get_primitive", PPrim, PCell, ctypes.c_double, ctypes.c_double)
prm_free_primitive = fn("prm_free_primitive", None, PPrim)
prm_get_primitive_symmetry = fn("prm_get_primitive_symmetry", PSym, D33, PSym, ctypes.c_double)
prm_get_primitive_lattice_vectors = fn(
    "prm_get_primitive_lattice_vectors", ctypes.c_int, D33, PCell, PVec, ctypes.c_double, ctypes.c_double
)
sym_get_operation = fn("sym_get_operation", PSym, PCell, ctypes.c_double, ctypes.c_double)
sym_reduce_operation = fn("sym_reduce_operation", PSym, PCell, PSym, ctypes.c_double, ctypes.c_double)
sym_get_pure_translation = fn("sym_get_pure_translation", PVec, PCell, ctypes.c_double)
sym_free_symmetry = fn("sym_free_symmetry", None, PSym)
mat_free_VecDBL = fn("mat_free_VecDBL", None, PVec)

NOSPIN = -1


def mat(m):
    return [[m[i][j] for j in range(3)] for i in range(3)]


def c_cell(lattice_rows, positions, types):
    """The C Cell as spg_get_dataset builds it: lattice transposed (columns = basis vectors), cel_set_cell."""
    n = len(types)
    cell = cel_alloc_cell(n, NOSPIN)
    lat = D33(*[D3(*[float(lattice_rows[j][i]) for j in range(3)]) for i in range(3)])
    pos = (D3 * n)(*[D3(*[float(x) for x in p]) for p in positions])
    typ = (ctypes.c_int * n)(*[int(t) for t in types])
    cel_set_cell(cell, lat, pos, typ)
    return cell


def read_cell(pcell):
    c = pcell.contents
    return {
        "lattice": mat(c.lattice),
        "positions": [[c.position[i][j] for j in range(3)] for i in range(c.size)],
        "types": [c.types[i] for i in range(c.size)],
    }


def read_sym(psym):
    if not psym:
        return None
    s = psym.contents
    return {
        "rotations": [[[s.rot[k][i][j] for j in range(3)] for i in range(3)] for k in range(s.size)],
        "translations": [[s.trans[k][j] for j in range(3)] for k in range(s.size)],
    }


def read_vec(pvec):
    if not pvec:
        return None
    v = pvec.contents
    return [[v.vec[k][j] for j in range(3)] for k in range(v.size)]


def operation_indices(subset, operations):
    """sym_reduce_operation keeps some of its input operations (rotation and translation copied): their indices."""
    if subset is None:
        return None
    pairs = list(zip(operations["rotations"], operations["translations"]))
    out = []
    for op in zip(subset["rotations"], subset["translations"]):
        out.append(next(i for i, q in enumerate(pairs) if q == op and i not in out))
    return out


def c_results(lattice, positions, types, symprec, angle):
    cell = c_cell(lattice, positions, types)
    out = {"too_close": bool(cel_any_overlap_with_same_type(cell, symprec))}

    pure = sym_get_pure_translation(cell, symprec)
    out["pure_translations"] = read_vec(pure)
    if pure:
        prim_lat = D33()
        multi = prm_get_primitive_lattice_vectors(prim_lat, cell, pure, symprec, angle)
        out["primitive_lattice_vectors"] = {"multi": multi, "lattice": mat(prim_lat) if multi else None}
        mat_free_VecDBL(pure)

    prim = prm_get_primitive(cell, symprec, angle)
    if prim:
        p = prim.contents
        out["primitive"] = dict(read_cell(p.cell), mapping_table=[p.mapping_table[i] for i in range(p.size)])
        out["primitive_tolerance"] = [p.tolerance, p.angle_tolerance]
        ops = sym_get_operation(p.cell, symprec, angle)
        out["operations"] = read_sym(ops)
        if ops:
            reduced = sym_reduce_operation(p.cell, ops, symprec / 2, angle)
            out["reduced_operations"] = operation_indices(read_sym(reduced), out["operations"])
            if reduced:
                sym_free_symmetry(reduced)
            sym_free_symmetry(ops)
        prm_free_primitive(prim)
    else:
        out["primitive"] = None
        out["operations"] = None

    # Operations of the input cell itself (with its pure translations), then carried to its primitive cell.
    cell_ops = sym_get_operation(cell, symprec, angle)
    out["cell_operations_count"] = cell_ops.contents.size if cell_ops else None
    if cell_ops:
        t_mat = D33()
        psym = prm_get_primitive_symmetry(t_mat, cell_ops, symprec)
        if out["pure_translations"] is not None and len(out["pure_translations"]) > 1:  # non-primitive input only
            out["primitive_symmetry"] = {"t_mat": mat(t_mat), **read_sym(psym)} if psym else None
        if psym:
            sym_free_symmetry(psym)
        sym_free_symmetry(cell_ops)
    cel_free_cell(cell)
    return out


def py_results(lattice, positions, types, symprec, angle, prim):
    cell = (np.array(lattice, dtype=float), np.array(positions, dtype=float), np.array(types, dtype=int))
    ds = spglib.get_symmetry_dataset(cell, symprec=symprec, angle_tolerance=angle)
    dataset = None
    if ds is not None:
        # Each distinct rotation once, with the translation of its first occurrence (the others differ by the
        # pure translations of a non-primitive input cell).
        rotations, translations = [], []
        for r, t in zip(ds["rotations"].tolist(), ds["translations"].tolist()):
            if r not in rotations:
                rotations.append(r)
                translations.append(t)
        dataset = {
            "number": int(ds["number"]),
            "international": ds["international"],
            "n_operations": len(ds["rotations"]),
            "rotations": rotations,
            "translations": translations,
        }
        # The test carries the rotations into the basis of prm_get_primitive's cell, which is the dataset's here.
        same = prim is not None and ds["primitive_lattice"].T.tolist() == prim["lattice"]
        if not same or ds["mapping_to_primitive"].tolist() != prim["mapping_table"]:
            raise SystemExit("the dataset's primitive cell is not prm_get_primitive's: store it")
        if len(rotations) != len(ds["rotations"]):
            del dataset["translations"]  # kept for primitive input cells only
    fp = spglib.find_primitive(cell, symprec=symprec, angle_tolerance=angle)
    return dataset, (None if fp is None else len(fp[1]))


# ---------------------------------------------------------------- cells


def from_structure(s):
    z = {}
    types = [z.setdefault(sp.symbol, len(z) + 1) for sp in s.species]
    return s.lattice.matrix.tolist(), s.frac_coords.tolist(), types


def corpus(name):
    return from_structure(Structure.from_file(os.path.join(CORPUS, name)))


def corpus_poscar(name):
    from pymatgen.io.vasp import Poscar

    return from_structure(Poscar.from_file(os.path.join(CORPUS, name)).structure)


def extxyz(name):
    with open(os.path.join(CORPUS, name), encoding="utf-8") as f:
        lines = f.read().splitlines()
    n = int(lines[0])
    header = lines[1]
    vals = [float(x) for x in header.split('Lattice="')[1].split('"')[0].split()]
    lattice = np.array(vals).reshape(3, 3)
    species, cart = [], []
    for line in lines[2 : 2 + n]:
        parts = line.split()
        species.append(parts[0])
        cart.append([float(x) for x in parts[1:4]])
    frac = np.array(cart) @ np.linalg.inv(lattice)
    z = {}
    types = [z.setdefault(sp, len(z) + 1) for sp in species]
    return lattice.tolist(), frac.tolist(), types


def rocksalt(a=5.64):
    return Structure.from_spacegroup("Fm-3m", Lattice.cubic(a), ["Na", "Cl"], [[0, 0, 0], [0.5, 0.5, 0.5]])


def supercell(s, scale):
    s = s.copy()
    s.make_supercell(scale)
    return from_structure(s)


def lattice_from_parameters(a, b, c, alpha, beta, gamma):
    return Lattice.from_parameters(a, b, c, alpha, beta, gamma).matrix.tolist()


def distorted_cubic(kind, a, angles):
    """Cubic cells with the angles of `angles` (degrees): sc with one atom, CsCl, or the conventional fcc cell."""
    lattice = lattice_from_parameters(a, a, a, *angles)
    if kind == "sc":
        return lattice, [[0, 0, 0]], [1]
    if kind == "cscl":
        return lattice, [[0, 0, 0], [0.5, 0.5, 0.5]], [1, 2]
    if kind == "fcc":
        return lattice, [[0, 0, 0], [0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]], [1, 1, 1, 1]
    raise ValueError(kind)


def perturbed(cell, amplitude, seed):
    lattice, positions, types = cell
    rng = np.random.default_rng(seed)
    lat = np.array(lattice)
    cart = np.array(positions) @ lat + rng.uniform(-amplitude, amplitude, size=(len(types), 3))
    return lattice, (cart @ np.linalg.inv(lat)).tolist(), types


def hematite():
    s = Structure.from_spacegroup(
        "R-3c", Lattice.hexagonal(5.0356, 13.7489), ["Fe", "O"], [[0, 0, 0.35530], [0.3059, 0, 0.25]]
    )
    return from_structure(s)


def alpha_quartz():
    s = Structure.from_spacegroup(
        "P3_221", Lattice.hexagonal(4.9134, 5.4052), ["Si", "O"], [[0.4697, 0, 0], [0.4135, 0.2669, 0.1191]]
    )
    return from_structure(s)


def wurtzite():
    s = Structure.from_spacegroup(
        "P6_3mc", Lattice.hexagonal(3.25, 5.207), ["Zn", "O"], [[1 / 3, 2 / 3, 0], [1 / 3, 2 / 3, 0.3819]]
    )
    return from_structure(s)


def perovskite():
    s = Structure.from_spacegroup(
        "Pm-3m", Lattice.cubic(3.905), ["Sr", "Ti", "O"], [[0, 0, 0], [0.5, 0.5, 0.5], [0.5, 0.5, 0]]
    )
    return from_structure(s)


def triclinic():
    lattice = lattice_from_parameters(4.1, 5.3, 6.2, 81.0, 97.0, 104.0)
    rng = np.random.default_rng(7)
    return lattice, rng.uniform(0, 1, size=(5, 3)).tolist(), [1, 1, 2, 2, 3]


def cells():
    salt = rocksalt()
    yield "LiFePO4 (pmg-LiFePO4.cif)", corpus("pmg-LiFePO4.cif")
    yield "FePO4 (pmg-FePO4a.cif)", corpus("pmg-FePO4a.cif")
    yield "Fe3O4 (pmg-Fe3O4.cif)", corpus("pmg-Fe3O4.cif")
    yield "SnS2 hexagonal (pmg-hex_1170.cif)", corpus("pmg-hex_1170.cif")
    yield "AlCuO2 rhombohedral (pmg-rhomb_3478.cif)", corpus("pmg-rhomb_3478.cif")
    yield "TbGe2 C-centred (pmg-orcc_1003.cif)", corpus("pmg-orcc_1003.cif")
    yield "MnB4 body-centred (pmg-orci_1010.cif)", corpus("pmg-orci_1010.cif")
    yield "AgO monoclinic (pmg-AgO_kpath_test.cif)", corpus("pmg-AgO_kpath_test.cif")
    yield "Li8Fe2NiCoO8 monoclinic (pmg-Li8Fe2NiCoO8.cif)", corpus("pmg-Li8Fe2NiCoO8.cif")
    yield "LaFeO3 (pmg-La4Fe4O12.cif)", corpus("pmg-La4Fe4O12.cif")
    yield "graphite (cod-1011060-graphite.cif)", corpus("cod-1011060-graphite.cif")
    yield "diamond (cod-9011575-diamond.cif)", corpus("cod-9011575-diamond.cif")
    yield "SiC (gemmi-1011031.cif)", corpus("gemmi-1011031.cif")
    yield "hcp (pmg-vasp-inputs-POSCAR_hcp)", corpus("pmg-vasp-inputs-POSCAR_hcp")
    yield "tricky symmetry (pmg-vasp-inputs-POSCAR_tricky_symmetry)", corpus("pmg-vasp-inputs-POSCAR_tricky_symmetry")
    yield "BaTiO3 tetragonal (matterviz-BaTiO3-tetragonal.poscar)", corpus_poscar("matterviz-BaTiO3-tetragonal.poscar")
    yield "quartz (matterviz-quartz.extxyz)", extxyz("matterviz-quartz.extxyz")
    yield "alpha quartz SiO2 P3_221", alpha_quartz()
    yield "hematite Fe2O3 R-3c hexagonal setting", hematite()
    yield "wurtzite ZnO", wurtzite()
    yield "SrTiO3 perovskite", perovskite()
    yield "rocksalt NaCl conventional", from_structure(salt)
    yield "rocksalt NaCl 2x2x1 supercell", supercell(salt, [2, 2, 1])
    yield "rocksalt perturbed 0.02 A", perturbed(from_structure(salt), 0.02, 1)
    yield "rocksalt perturbed 0.06 A", perturbed(from_structure(salt), 0.06, 2)
    yield "sc angles 92/90/90", distorted_cubic("sc", 4.0, (92, 90, 90))
    yield "CsCl angles 93/87/94", distorted_cubic("cscl", 4.1, (93, 87, 94))
    yield "fcc conventional angles 94/90/90", distorted_cubic("fcc", 3.6, (94, 90, 90))
    yield "sc angles 97/90/90", distorted_cubic("sc", 4.0, (97, 90, 90))
    yield "CsCl angles 92/92/92 (rhombohedral)", distorted_cubic("cscl", 4.1, (92, 92, 92))
    yield "triclinic P1", triclinic()


def main():
    all_cells, cases = [], []
    for name, (lattice, positions, types) in cells():
        all_cells.append({"name": name, "lattice": lattice, "positions": positions, "types": types})
        first = len(cases)
        for symprec in (0.01, 0.1):
            for angle in (5.0, -1.0):
                c = c_results(lattice, positions, types, symprec, angle)
                dataset, fp = py_results(lattice, positions, types, symprec, angle, c["primitive"])
                tolerances = c.pop("primitive_tolerance", None)
                # The same C results as another case of this cell: the index of that case.
                same = [k for k in range(first, len(cases)) if cases[k]["c"] == c]
                cases.append(
                    {
                        "cell": len(all_cells) - 1,
                        "symprec": symprec,
                        "angle_tolerance": angle,
                        "primitive_tolerance": tolerances,
                        "c": c if not same else same[0],
                        "dataset": dataset,
                        "find_primitive_size": fp,
                    }
                )
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(
            {
                "generator": "scripts/make-spglib-operations-fixtures.py",
                "spglib": spglib.__version__,
                "cells": all_cells,
                "cases": cases,
            },
            f,
            separators=(",", ":"),
        )
        f.write("\n")
    print(f"{len(cases)} cases -> {OUT} ({os.path.getsize(OUT)} bytes)")


if __name__ == "__main__":
    main()
