#!/usr/bin/python3
"""Goldens for src/core/structure/clusters: ASE 3.22.1 ase.cluster builds over sizes, elements and lattice constants.

Run with Debian's /usr/bin/python3 (python3-ase 3.22.1). Writes tests/reference/golden/clusters/extra.json in the layout
of visible.json: `cases[]` with `args` (the builder's arguments), `argv` (the `structlab cluster` command without -o),
`n_atoms`, `symbols` and `positions` (ASE's, Å, rounded to 1e-10); and `sweeps[]`, many more builds with `args` and
`n_atoms` only (ASE's atom count: octahedra up to length 21, fcc/bcc/sc facet sets up to 7 layers, Wulff sizes up to
2,000 with every rounding).
ASE is LGPL-2.1+; its outputs are stored as data.
"""
import json
import os

import ase
import numpy as np
from ase.cluster import Decahedron, Icosahedron, Octahedron, wulff_construction
from ase.cluster.cubic import BodyCenteredCubic, FaceCenteredCubic, SimpleCubic

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "reference", "golden", "clusters", "extra.json")
FACTORIES = {"fcc": FaceCenteredCubic, "bcc": BodyCenteredCubic, "sc": SimpleCubic}


def surfaces_text(surfaces):
    return ";".join(",".join(str(x) for x in s) for s in surfaces)


def build(args):
    """The ASE cluster and the CLI argv for one args dict."""
    kind, el, lc = args["kind"], args["element"], args.get("lattice_constant")
    argv = ["cluster", kind, "--element", el]
    if kind == "icosahedron":
        atoms = Icosahedron(el, args["shells"], latticeconstant=lc)
        argv += ["--shells", str(args["shells"])]
    elif kind == "decahedron":
        atoms = Decahedron(el, args["p"], args["q"], args["r"], latticeconstant=lc)
        argv += ["--p", str(args["p"]), "--q", str(args["q"]), "--r", str(args["r"])]
    elif kind == "octahedron":
        atoms = Octahedron(el, args["length"], args["cutoff"], latticeconstant=lc)
        argv += ["--length", str(args["length"]), "--cutoff", str(args["cutoff"])]
    elif kind in FACTORIES:
        surfaces = [tuple(int(x) for x in s.split(",")) for s in args["surfaces"].split(";")]
        layers = [int(x) for x in args["layers"].split(",")]
        atoms = FACTORIES[kind](el, surfaces, layers, latticeconstant=lc)
        argv += ["--surfaces", args["surfaces"], "--layers", args["layers"]]
    elif kind == "wulff":
        surfaces = [tuple(int(x) for x in s.split(",")) for s in args["surfaces"].split(";")]
        energies = [float(x) for x in args["energies"].split(",")]
        rounding = args.get("rounding", "closest")
        atoms = wulff_construction(el, surfaces, energies, args["size"], args["structure"], rounding, latticeconstant=lc)
        argv += ["--structure", args["structure"], "--surfaces", args["surfaces"], "--energies", args["energies"]]
        argv += ["--size", str(args["size"])]
        if "rounding" in args:
            argv += ["--rounding", rounding]
    else:
        raise ValueError(kind)
    if lc is not None:
        argv += ["--lattice-constant", repr(lc)]
    return atoms, argv


def case(args):
    atoms, argv = build(args)
    pos = np.round(atoms.get_positions(), 10) + 0.0
    return {
        "args": args,
        "argv": argv,
        "n_atoms": len(atoms),
        "symbols": atoms.get_chemical_symbols(),
        "positions": pos.tolist(),
    }


def sweep(args):
    atoms, _ = build(args)
    return {"args": args, "n_atoms": len(atoms)}


def cases():
    out = []
    for n in range(1, 7):
        out.append({"kind": "icosahedron", "element": "Cu", "shells": n})
    out += [
        {"kind": "icosahedron", "element": "Au", "shells": 4, "lattice_constant": 4.2},
        {"kind": "icosahedron", "element": "Fe", "shells": 3},
        {"kind": "icosahedron", "element": "Po", "shells": 2},
        {"kind": "icosahedron", "element": "Pt", "shells": 5, "lattice_constant": 3.9},
    ]
    for el, p, q, r, lc in [
        ("Cu", 1, 1, 0, None),
        ("Cu", 2, 1, 0, None),
        ("Cu", 2, 2, 1, None),
        ("Cu", 3, 3, 1, None),
        ("Au", 4, 2, 2, None),
        ("Pd", 2, 3, 0, None),
        ("Ag", 5, 1, 0, None),
        ("Ni", 3, 1, 2, 3.6),
        ("Fe", 2, 2, 1, None),
        ("Pt", 1, 4, 1, None),
    ]:
        args = {"kind": "decahedron", "element": el, "p": p, "q": q, "r": r}
        if lc is not None:
            args["lattice_constant"] = lc
        out.append(args)
    for el, length, cutoff, lc in [
        ("Cu", 1, 0, None),
        ("Cu", 2, 0, None),
        ("Cu", 3, 0, None),
        ("Cu", 3, 1, None),
        ("Cu", 4, 1, None),
        ("Cu", 5, 2, None),
        ("Au", 7, 2, None),
        ("Pd", 8, 2, None),
        ("Ag", 9, 3, None),
        ("Pt", 10, 3, 3.95),
        ("Al", 6, 2, None),
    ]:
        args = {"kind": "octahedron", "element": el, "length": length, "cutoff": cutoff}
        if lc is not None:
            args["lattice_constant"] = lc
        out.append(args)
    for kind, el, surfaces, layers, lc in [
        ("fcc", "Cu", "1,0,0", "3", None),
        ("fcc", "Cu", "1,1,1", "4", None),
        ("fcc", "Cu", "1,1,0", "3", None),
        ("fcc", "Au", "1,0,0;1,1,1", "3,3", None),
        ("fcc", "Pt", "1,0,0;1,1,1", "6,4", 3.9),
        ("fcc", "Ag", "1,0,0;1,1,0;1,1,1", "3,4,3", None),
        ("fcc", "Ni", "2,1,0", "4", None),
        ("fcc", "Cu", "3,1,1;1,1,1", "3,3", None),
        ("fcc", "Pd", "2,0,0;1,1,1", "4,4", None),
        ("fcc", "Cu", "1,0,0;0,1,0", "4,2", None),
        ("fcc", "Rh", "-1,1,1;1,0,0", "3,4", None),
        ("bcc", "Fe", "1,0,0", "3", None),
        ("bcc", "Fe", "1,1,0", "4", None),
        ("bcc", "W", "1,0,0;1,1,0", "3,4", None),
        ("bcc", "Mo", "1,1,1", "3", None),
        ("bcc", "Fe", "2,1,1", "3", 2.9),
        ("bcc", "Cr", "1,0,0;1,1,0;1,1,1", "4,4,3", None),
        ("sc", "Po", "1,0,0", "2", None),
        ("sc", "Po", "1,1,0", "3", None),
        ("sc", "Po", "1,1,1", "4", None),
        ("sc", "Po", "1,0,0;1,1,1", "3,3", None),
        ("sc", "Cu", "1,0,0;1,1,0", "3,3", 2.5),
    ]:
        args = {"kind": kind, "element": el, "surfaces": surfaces, "layers": layers}
        if lc is not None:
            args["lattice_constant"] = lc
        out.append(args)
    for el, structure, surfaces, energies, sizes, lc in [
        ("Au", "fcc", "1,0,0;1,1,1", "1.2,1.0", [50, 150], None),
        ("Cu", "fcc", "1,0,0;1,1,0;1,1,1", "1.1,1.2,1.0", [100, 309], None),
        ("Pt", "fcc", "1,0,0;1,1,1", "1.0,1.0", [200], None),
        ("Ag", "fcc", "1,1,1;1,0,0", "0.8,1.3", [120], 4.1),
        ("Fe", "bcc", "1,0,0;1,1,0", "1.2,1.0", [100, 250], None),
        ("Fe", "bcc", "1,0,0;1,1,0;1,1,1", "1.1,1.0,1.3", [180], None),
        ("Po", "sc", "1,0,0;1,1,0", "1.0,1.2", [100], None),
    ]:
        for size in sizes:
            for rounding in ("closest", "above", "below"):
                args = {"kind": "wulff", "element": el, "structure": structure, "surfaces": surfaces, "energies": energies}
                args["size"] = size
                args["rounding"] = rounding
                if lc is not None:
                    args["lattice_constant"] = lc
                out.append(args)
    return out


def sweeps():
    out = []
    for n in range(1, 13):
        out.append({"kind": "icosahedron", "element": "Ag", "shells": n})
    for p in range(1, 6):
        for q in range(1, 5):
            for r in range(0, 4):
                out.append({"kind": "decahedron", "element": "Cu", "p": p, "q": q, "r": r})
    for length in range(1, 22):
        for cutoff in range(0, (length - 1) // 2 + 1):
            out.append({"kind": "octahedron", "element": "Au", "length": length, "cutoff": cutoff})
    for kind, el in (("fcc", "Cu"), ("bcc", "Fe"), ("sc", "Po")):
        for surfaces in ("1,0,0", "1,1,0", "1,1,1", "2,1,0", "2,1,1", "1,0,0;1,1,1", "1,0,0;1,1,0", "3,2,1"):
            nsurf = surfaces.count(";") + 1
            for l1 in range(1, 8):
                for l2 in ([None] if nsurf == 1 else range(1, 8, 2)):
                    layers = str(l1) if l2 is None else f"{l1},{l2}"
                    out.append({"kind": kind, "element": el, "surfaces": surfaces, "layers": layers})
    for el, structure, surfaces, energies in [
        ("Au", "fcc", "1,0,0;1,1,1", "1.2,1.0"),
        ("Cu", "fcc", "1,0,0;1,1,0;1,1,1", "1.1,1.2,1.0"),
        ("Pt", "fcc", "1,0,0;1,1,1", "1.0,1.0"),
        ("Cu", "fcc", "1,0,0;1,1,1", "1.6,1.0"),
        ("Fe", "bcc", "1,0,0;1,1,0", "1.2,1.0"),
        ("Fe", "bcc", "1,0,0;1,1,0;1,1,1", "1.1,1.0,1.3"),
        ("Po", "sc", "1,0,0;1,1,0", "1.0,1.2"),
    ]:
        for size in list(range(1, 41)) + list(range(41, 2000, 71)):
            for rounding in ("closest", "above", "below"):
                args = {"kind": "wulff", "element": el, "structure": structure, "surfaces": surfaces, "energies": energies}
                args["size"] = size
                args["rounding"] = rounding
                out.append(args)
    return out


def main():
    assert ase.__version__ == "3.22.1", ase.__version__
    doc = {"ase": ase.__version__, "cases": [case(a) for a in cases()], "sweeps": [sweep(a) for a in sweeps()]}
    with open(OUT, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    atoms = sum(c["n_atoms"] for c in doc["cases"])
    print(f"wrote {OUT}: {len(doc['cases'])} cases ({atoms} atoms), {len(doc['sweeps'])} sweeps, {os.path.getsize(OUT)} bytes")


if __name__ == "__main__":
    main()
