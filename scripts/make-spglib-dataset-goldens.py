#!/usr/bin/python3
"""spglib 2.0.2 symmetry datasets for the TypeScript port's exact-parity test.

Writes tests/reference/golden/spglib/datasets.json.gz (gzip; 5 MB of JSON): for each input cell (lattice rows, fractional positions,
integer types, symprec, angle_tolerance) the fields of spglib.get_symmetry_dataset and of
spglib.standardize_cell(to_primitive=True). Inputs:
  * corpus: the crystallography corpus (and 2x2x2, 3x1x2 supercells of three files) read as pymatgen reads it (CifParser(path).get_structures(
    primitive=False)[0], Poscar.from_file) and typed as SpacegroupAnalyzer types it (its `_cell`), at
    symprec 0.01 and 0.1, angle tolerance 5 (pymatgen's default) and -1 (spglib's default);
  * synthetic: for every Hall number 1-530, one or two orbits at Wyckoff positions of spglib's Wyckoff.csv
    (special positions favoured, so origin and axis choices matter), a lattice with the setting's metric,
    then a random unimodular change of basis, origin shift and rigid rotation; a second copy with noise
    (0.01 Å) and a strained metric (up to 3 degrees) searched at symprec 0.1 with angle tolerance 5 and -1.

Run: /usr/bin/python3 scripts/make-spglib-dataset-goldens.py  (Debian python3-spglib 2.0.2, python3-pymatgen).
"""
import gzip
import json
import os
import re
import sys
import warnings

import numpy as np
import spglib

warnings.filterwarnings("ignore")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests/reference/golden/spglib/datasets.json.gz")
CORPUS = os.path.join(ROOT, "tests/reference/corpus/files")
WYCKOFF = os.path.join(ROOT, "tests/reference/golden/crystallography/spglib/Wyckoff.csv")
MAX_ATOMS = 48
# Supercells change the origin spglib picks (LiFePO4: abe, its 2x2x2 supercell: cde).
SUPERCELLS = ("pmg-LiFePO4.cif", "p2-POSCAR_LaH10", "pmg-La4Fe4O12.cif")


def r(x, d=12):
    return [r(v, d) for v in x] if isinstance(x, (list, tuple, np.ndarray)) else float(round(float(x), d))


def dataset_record(lattice, positions, types, symprec, angle):
    # The inputs are stored rounded, and spglib sees exactly what is stored.
    lattice, positions = r(lattice, 12), r(positions, 12)
    cell = (np.array(lattice), np.array(positions), np.array(types))
    d = spglib.get_symmetry_dataset(cell, symprec=symprec, angle_tolerance=angle)
    rec = {"lattice": lattice, "positions": positions, "types": [int(t) for t in types],
           "symprec": symprec, "angle_tolerance": angle}
    if d is None:
        rec["dataset"] = None
        return rec
    prim = spglib.standardize_cell(cell, to_primitive=True, no_idealize=False, symprec=symprec, angle_tolerance=angle)
    rec["dataset"] = {
        "number": int(d["number"]),
        "hall_number": int(d["hall_number"]),
        "international": d["international"],
        "hall": d["hall"],
        "choice": d["choice"],
        "pointgroup": d["pointgroup"],
        "n_operations": len(d["rotations"]),
        "wyckoffs": "".join(d["wyckoffs"]),
        "site_symmetry_symbols": list(d["site_symmetry_symbols"]),
        "equivalent_atoms": [int(x) for x in d["equivalent_atoms"]],
        "crystallographic_orbits": [int(x) for x in d["crystallographic_orbits"]],
        "transformation_matrix": r(d["transformation_matrix"]),
        "origin_shift": r(d["origin_shift"]),
        "std_lattice": r(d["std_lattice"]),
        "std_types": [int(x) for x in d["std_types"]],
        "std_positions": r(d["std_positions"], 10),
        "std_rotation_matrix": r(d["std_rotation_matrix"]),
        "std_mapping_to_primitive": [int(x) for x in d["std_mapping_to_primitive"]],
        "primitive_lattice": r(d["primitive_lattice"]),
        "mapping_to_primitive": [int(x) for x in d["mapping_to_primitive"]],
        "prim_std_lattice": r(prim[0]) if prim else None,
        "prim_std_positions": r(prim[1], 10) if prim else None,
        "prim_std_types": [int(x) for x in prim[2]] if prim else None,
    }
    return rec


def corpus_cases():
    from pymatgen.core import Structure
    from pymatgen.io.cif import CifParser
    from pymatgen.io.vasp import Poscar
    from pymatgen.symmetry.analyzer import SpacegroupAnalyzer

    out = []
    for name in sorted(os.listdir(CORPUS)):
        path = os.path.join(CORPUS, name)
        try:
            if name.endswith(".cif"):
                s = CifParser(path).get_structures(primitive=False)[0]
            elif "POSCAR" in name or "CONTCAR" in name or name.endswith(".vasp"):
                s = Poscar.from_file(path, check_for_POTCAR=False).structure
            else:
                s = Structure.from_file(path)
        except Exception:
            continue
        if not isinstance(s, Structure) or len(s) > 400:
            continue
        if name in SUPERCELLS:
            for size in ([2, 2, 2], [3, 1, 2]):
                sup = s.copy()
                sup.make_supercell(size)
                lat, pos, zs = SpacegroupAnalyzer(sup, symprec=0.01, angle_tolerance=5)._cell
                rec = dataset_record(lat, pos, zs, 0.01, 5)
                rec["source"] = f"corpus/{name} x{'x'.join(map(str, size))}"
                out.append(rec)
        for symprec in (0.01, 0.1):
            for angle in (5, -1):
                if symprec == 0.01 and angle == -1:
                    continue
                lat, pos, zs = SpacegroupAnalyzer(s, symprec=symprec, angle_tolerance=angle)._cell
                rec = dataset_record(lat, pos, zs, symprec, angle)
                rec["source"] = f"corpus/{name}"
                out.append(rec)
    return out


def parse_wyckoff_csv():
    """Hall number -> [(letter, multiplicity, first coordinate triple)] from spglib's database/Wyckoff.csv."""
    table, hall = {}, 0
    for line in open(WYCKOFF):
        f = line.rstrip("\n").split(":")
        if f[0] == 'end of data':
            break
        if f[0]:
            hall = int(f[0])
            table[hall] = []
        elif len(f) > 5 and f[3]:
            table[hall].append((f[3], int(f[2]), f[5].strip("()")))
    return table


def eval_coord(expr, xyz):
    x, y, z = xyz
    e = expr.replace("x", f"({x})").replace("y", f"({y})").replace("z", f"({z})")
    e = re.sub(r"(\d)\(", r"\1*(", e)
    return eval(e, {"__builtins__": {}}, {})


def metric_lattice(rotations, rng):
    """A lattice (rows) whose metric is invariant under the rotations (fractional, acting on columns)."""
    for _ in range(100):
        a = rng.normal(size=(3, 3)) + np.eye(3) * 3
        g = a @ a.T
        gs = sum(R.T @ g @ R for R in rotations) / len(rotations)
        w = np.linalg.eigvalsh(gs)
        if w.min() > 0.3 * w.max():
            break
    scale = rng.uniform(4.0, 9.0) / np.sqrt(np.mean(np.diag(gs)))
    return np.linalg.cholesky(gs * scale**2)  # rows of L: L L^T = G


def orbit(rotations, translations, p):
    pts = []
    for R, t in zip(rotations, translations):
        q = (R @ p + t) % 1.0
        if not any(np.allclose(((q - o + 0.5) % 1.0) - 0.5, 0, atol=1e-6) for o in pts):
            pts.append(q)
    return pts


UNIMODULAR = [np.eye(3, dtype=int)] + [np.array(m) for m in (
    [[1, 1, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 0], [0, 0, 1], [1, 0, 0]], [[1, 0, 1], [0, -1, 0], [0, 0, -1]],
    [[0, 0, 1], [1, 0, 0], [0, 1, 0]], [[1, 0, 0], [1, 1, 0], [0, 1, 1]], [[-1, 0, 0], [0, 0, 1], [0, 1, 0]],
    [[1, 2, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 0], [1, 0, 0], [0, 0, -1]])]


def synthetic_cases(rng):
    table = parse_wyckoff_csv()
    out = []
    for hall in range(1, 531):
        sym = spglib.get_symmetry_from_database(hall)
        rots, trans = sym["rotations"], sym["translations"]
        lat = metric_lattice(rots, rng)
        positions, types = [], []
        wy = table[hall]
        n_orbits = 1 + int(rng.integers(0, 3))
        for k in range(n_orbits):
            # Special positions (a, b, ... are listed last) more often than the general one; several orbits of
            # distinct types keep the symmetry from rising to a supergroup.
            choice = wy[-1 - int(rng.integers(0, len(wy)))] if rng.random() < 0.6 else wy[0]
            xyz = rng.uniform(0.05, 0.95, size=3)
            p = np.array([eval_coord(c, xyz) for c in choice[2].split(",")]) % 1.0
            pts = orbit(rots, trans, p)
            if len(positions) + len(pts) > MAX_ATOMS:
                continue
            positions += pts
            types += [k + 1] * len(pts)
        if not positions:
            continue
        # Non-standard input: unimodular change of basis, origin shift, rigid rotation.
        m = UNIMODULAR[int(rng.integers(0, len(UNIMODULAR)))]
        shift = rng.uniform(0, 1, size=3)
        q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        new_lat = (m @ lat) @ q.T
        new_pos = [((np.linalg.inv(m).T @ (p + shift)) % 1.0) for p in positions]
        rec = dataset_record(new_lat, new_pos, types, 1e-5, -1)
        rec["source"] = f"hall {hall}"
        out.append(rec)
        # Noisy, strained copy at symprec 0.1: the angle tolerance decides what is found.
        strain = np.eye(3) + rng.normal(scale=0.02, size=(3, 3))
        noisy_lat = new_lat @ strain
        cart = np.array(new_pos) @ noisy_lat + rng.normal(scale=0.01, size=(len(new_pos), 3))
        noisy_pos = (cart @ np.linalg.inv(noisy_lat)) % 1.0
        for angle in (5, -1) if hall % 3 == 0 else (5,):
            rec = dataset_record(noisy_lat, noisy_pos, types, 0.1, angle)
            rec["source"] = f"hall {hall} noisy"
            out.append(rec)
    return out


def main():
    rng = np.random.default_rng(20261203)
    cases = corpus_cases() + synthetic_cases(rng)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    doc = {
        "source": "spglib 2.0.2 (Debian python3-spglib) get_symmetry_dataset and standardize_cell(to_primitive=True); "
        "made by scripts/make-spglib-dataset-goldens.py",
        "licence": "inputs from tests/reference/corpus (licences in its MANIFEST.tsv) and synthetic; outputs are spglib's",
        "spglib_version": spglib.__version__,
        "cases": cases,
    }
    with gzip.open(OUT, "wt", compresslevel=9) as fh:
        json.dump(doc, fh, separators=(",", ":"))
    found = sum(1 for c in cases if c["dataset"])
    print(f"{len(cases)} cases ({found} with a dataset) -> {OUT} ({os.path.getsize(OUT) / 1e6:.1f} MB)", file=sys.stderr)


if __name__ == "__main__":
    main()
