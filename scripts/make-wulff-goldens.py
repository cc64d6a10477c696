#!/usr/bin/python3
"""Goldens for src/core/tasks/c2np/wulff-crystal.ts: pymatgen 2022.11.7 `WulffShape` on real crystals.

Run with Debian's /usr/bin/python3 (python3-pymatgen 2022.11.7). Writes tests/reference/golden/clusters/wulff-shapes.json:
`crystals` (name → space group, lattice rows in Å, species and fractional positions of the cell the shape is built on,
made here with `Structure.from_spacegroup` from textbook lattice constants) and `cases[]`, each with the crystal, the
symmetry StructLab expands the families with (`laue`: the crystal's point group with inversion, its default;
`lattice`: the lattice's own point group, which is what pymatgen uses), the Miller indices and energies as given, and
pymatgen's answer: per given family `area_fraction` (area_fraction_dict) and `on_wulff`, and `volume`, `surface_area`,
`shape_factor`, `weighted_surface_energy`, `anisotropy`, `effective_radius`, `tot_corner_sites`, `tot_edges`.

pymatgen expands each (hkl) with the symmetry of the bare lattice (`Lattice.get_recp_symmetry_operation`); for every
`laue` case here the crystal's Laue class is that lattice's holohedry (cubic Cu, hexagonal Mg, Zn and ZnO, tetragonal
rutile, orthorhombic alpha-U), so both expansions agree. Pyrite (Pa-3, Laue class m-3, lattice m-3m) is the case where
they differ: its `lattice` cases compare StructLab's lattice mode with pymatgen. The numbers are rounded to 1e-12.
pymatgen is MIT-licensed; its outputs are stored as data.
"""
import json
import os

import numpy as np
from pymatgen.analysis.wulff import WulffShape
from pymatgen.core import Lattice, Structure

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "reference", "golden", "clusters", "wulff-shapes.json")

CRYSTALS = {
    "Cu": ("Fm-3m", Lattice.cubic(3.6149), ["Cu"], [[0, 0, 0]]),
    "Mg": ("P6_3/mmc", Lattice.hexagonal(3.2094, 5.2108), ["Mg"], [[1 / 3, 2 / 3, 1 / 4]]),
    "Zn": ("P6_3/mmc", Lattice.hexagonal(2.6649, 4.9468), ["Zn"], [[1 / 3, 2 / 3, 1 / 4]]),
    "ZnO": ("P6_3mc", Lattice.hexagonal(3.2496, 5.2042), ["Zn", "O"], [[1 / 3, 2 / 3, 0], [1 / 3, 2 / 3, 0.3819]]),
    "TiO2-rutile": ("P4_2/mnm", Lattice.tetragonal(4.5937, 2.9587), ["Ti", "O"], [[0, 0, 0], [0.3048, 0.3048, 0]]),
    "U-alpha": ("Cmcm", Lattice.orthorhombic(2.854, 5.869, 4.955), ["U"], [[0, 0.1025, 0.25]]),
    "FeS2-pyrite": ("Pa-3", Lattice.cubic(5.417), ["Fe", "S"], [[0, 0, 0], [0.385, 0.385, 0.385]]),
}

# (crystal, symmetry, [(miller, energy), ...]); energies in J/m² (the Cu, Mg, Zn, ZnO and rutile sets after the
# Materials Project's, rounded; the rest chosen so that some families miss the shape and high indices appear).
CASES = [
    ("Cu", "laue", [((1, 0, 0), 1.47), ((1, 1, 1), 1.30), ((1, 1, 0), 1.56)]),
    ("Cu", "laue", [((1, 0, 0), 1.0), ((1, 1, 1), 1.0)]),
    ("Cu", "laue", [((1, 0, 0), 1.47), ((1, 1, 1), 1.30), ((1, 1, 0), 1.56), ((2, 1, 0), 1.53), ((2, 1, 1), 1.55), ((3, 2, 1), 1.60)]),
    ("Cu", "laue", [((1, 0, 0), 1.0), ((1, 1, 1), 1.2), ((1, 1, 0), 2.0)]),
    ("Cu", "laue", [((1, 1, 1), 1.0)]),
    ("Cu", "laue", [((1, 0, 0), 1.0), ((3, 1, 0), 1.01)]),
    ("Mg", "laue", [((0, 0, 1), 0.54), ((1, 0, 0), 0.62), ((1, 0, 1), 0.64), ((1, 1, 0), 0.66)]),
    ("Mg", "laue", [((0, 0, 1), 0.5), ((1, 0, 0), 0.7)]),
    ("Mg", "laue", [((0, 0, 1), 0.54), ((1, 0, 0), 0.62), ((1, 0, 2), 0.63), ((2, 1, 1), 0.70), ((1, 1, 2), 0.66)]),
    ("Zn", "laue", [((0, 0, 1), 0.33), ((1, 0, 0), 0.53), ((1, 0, 1), 0.49), ((1, 1, 0), 0.61)]),
    ("Zn", "laue", [((0, 0, 1), 1.0), ((1, 0, 1), 0.9), ((1, 0, 3), 0.95)]),
    ("ZnO", "laue", [((0, 0, 1), 2.0), ((1, 0, 0), 1.15), ((1, 1, 0), 1.2), ((1, 0, 1), 1.6)]),
    ("ZnO", "laue", [((0, 0, 1), 1.0), ((1, 0, 0), 1.0), ((1, 1, 0), 1.0)]),
    ("TiO2-rutile", "laue", [((1, 1, 0), 0.47), ((1, 0, 0), 0.66), ((1, 0, 1), 0.86), ((0, 0, 1), 1.15)]),
    ("TiO2-rutile", "laue", [((1, 1, 0), 0.5), ((1, 1, 1), 0.7), ((2, 1, 0), 0.75), ((0, 0, 1), 1.5)]),
    ("U-alpha", "laue", [((1, 0, 0), 1.6), ((0, 1, 0), 1.8), ((0, 0, 1), 1.7), ((1, 1, 0), 1.75), ((0, 1, 1), 1.85)]),
    ("U-alpha", "laue", [((1, 1, 1), 1.0), ((1, 0, 0), 1.3), ((0, 2, 1), 1.2)]),
    ("FeS2-pyrite", "lattice", [((1, 0, 0), 1.0), ((2, 1, 0), 1.02)]),
    ("FeS2-pyrite", "lattice", [((1, 0, 0), 1.1), ((1, 1, 1), 1.2), ((2, 1, 0), 1.05)]),
]


def r12(x):
    return float(round(float(x), 12))


def main():
    crystals = {}
    for name, (sg, lattice, species, coords) in CRYSTALS.items():
        s = Structure.from_spacegroup(sg, lattice, species, coords)
        assert s.get_space_group_info()[0] == sg, (name, s.get_space_group_info())
        crystals[name] = {
            "spacegroup": sg,
            "lattice": [[r12(x) for x in row] for row in s.lattice.matrix],
            "species": [site.specie.symbol for site in s],
            "frac": [[r12(x) for x in site.frac_coords] for site in s],
        }
    cases = []
    for name, symmetry, pairs in CASES:
        lattice = Lattice(crystals[name]["lattice"])
        millers = [list(m) for m, _ in pairs]
        energies = [e for _, e in pairs]
        w = WulffShape(lattice, millers, energies)
        fractions = w.area_fraction_dict
        cases.append(
            {
                "crystal": name,
                "symmetry": symmetry,
                "millers": millers,
                "energies": energies,
                "area_fraction": [r12(fractions[tuple(m)]) for m in millers],
                "on_wulff": [bool(x) for x in w.on_wulff],
                "volume": r12(w.volume),
                "surface_area": r12(w.surface_area),
                "shape_factor": r12(w.shape_factor),
                "weighted_surface_energy": r12(w.weighted_surface_energy),
                "anisotropy": r12(w.anisotropy),
                "effective_radius": r12(w.effective_radius),
                "tot_corner_sites": int(w.tot_corner_sites),
                "tot_edges": int(w.tot_edges),
            }
        )
    doc = {
        "pymatgen": "2022.11.7",
        "numpy": np.__version__,
        "script": "scripts/make-wulff-goldens.py",
        "crystals": crystals,
        "cases": cases,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {len(cases)} cases to {OUT}")


if __name__ == "__main__":
    main()
