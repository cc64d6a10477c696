#!/usr/bin/python3
"""Space groups of the visible generation goldens' structures, as pymatgen finds them.

Usage: /usr/bin/python3 scripts/make-sg-goldens.py
Writes tests/reference/golden/generations/spacegroups.json: for every structure of the visible CSP and de novo
sets (read with pymatgen's own readers: Structure.from_file for CIF, POSCAR and JSON files, Structure.from_dict for
JSONL lines; the extended XYZ files here have only Lattice=, Properties=species:S:1:pos:R:3 and id=, read below as
ASE reads them, since Debian's python3 has no ASE), SpacegroupAnalyzer(structure, symprec=0.1) with its
default angle_tolerance 5 (pymatgen/symmetry/analyzer.py, Debian's python3-pymatgen 2022.11.7 over spglib):
space-group number, symbol and crystal system; null where spglib finds none. Sets keep their input order.

Also writes tests/reference/golden/generations/csp_strict.json: StructureMatcher(stol=0.3, ltol=0.2, angle_tol=5)
.get_rms_dist(pred, truth) (the `strict` tolerances of `gen csp`, as CrystaLLM reports them; pymatgen
analysis/structure_matcher.py) for every pair of csp_visible/pred and csp_visible/truth, as [rms, max_dist] or null.
"""
import json
import os
import sys

import pymatgen
import spglib
import re
import shlex

from pymatgen.core import Lattice, Structure
from pymatgen.analysis.structure_matcher import StructureMatcher
from pymatgen.symmetry.analyzer import SpacegroupAnalyzer

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference", "golden", "generations")
OUT = os.path.join(ROOT, "spacegroups.json")
STRICT_OUT = os.path.join(ROOT, "csp_strict.json")
SYMPREC = 0.1
ENDINGS = (".cif", ".vasp", ".poscar", ".json")

# (set name, path below ROOT): folders, JSONL and extended XYZ files of the visible goldens.
SETS = [
    ("csp_visible/truth", "csp_visible/truth"),
    ("csp_visible/pred", "csp_visible/pred"),
    ("csp_visible/multi_truth", "csp_visible/multi_truth.jsonl"),
    ("csp_visible/multi_pred", "csp_visible/multi_pred.extxyz"),
    ("denovo_visible/pred", "denovo_visible/pred"),
    ("denovo_visible/reference", "denovo_visible/reference.jsonl"),
    ("denovo_visible/truth", "denovo_visible/truth.extxyz"),
]


def structures(path):
    """(id, Structure) in the order StructLab reads the set: folder entries by id, file lines and frames in order."""
    if os.path.isdir(path):
        names = sorted(n for n in os.listdir(path) if n.lower().endswith(ENDINGS))
        for name in sorted(names, key=lambda n: os.path.splitext(n)[0]):
            yield os.path.splitext(name)[0], Structure.from_file(os.path.join(path, name))
    elif path.endswith(".jsonl"):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    yield str(row["id"]), Structure.from_dict(row["structure"])
    else:
        yield from extxyz_frames(path)


def extxyz_frames(path):
    """Frames of an extended XYZ file with Lattice= (rows a, b, c), species and Cartesian positions only."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    k = i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        n = int(lines[i])
        info = dict(re.match(r"([^=]+)=(.*)", kv).groups() for kv in shlex.split(lines[i + 1]))
        if info.get("Properties") != "species:S:1:pos:R:3":
            raise ValueError(f"{path}: frame {k}: unexpected Properties {info.get('Properties')}")
        lattice = Lattice([float(x) for x in info["Lattice"].split()])
        rows = [lines[i + 2 + j].split() for j in range(n)]
        s = Structure(lattice, [r[0] for r in rows], [[float(x) for x in r[1:4]] for r in rows], coords_are_cartesian=True)
        yield info.get("id", str(k)), s
        i += 2 + n
        k += 1


def space_group(s):
    try:
        a = SpacegroupAnalyzer(s, symprec=SYMPREC)
        return {"number": a.get_space_group_number(), "symbol": a.get_space_group_symbol(), "crystal_system": a.get_crystal_system()}
    except Exception:  # spglib found no group (e.g. overlapping atoms): StructLab reports null too
        return None


def main():
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    out = {
        "source": "scripts/make-sg-goldens.py: pymatgen SpacegroupAnalyzer(structure, symprec=0.1), angle_tolerance 5",
        "pymatgen": pymatgen.core.__version__,
        "spglib": spglib.__version__,
        "symprec": SYMPREC,
        "angle_tolerance": 5,
        "sets": {},
    }
    for name, rel in SETS:
        none = {"number": None, "symbol": None, "crystal_system": None}
        rows = [{"id": i, **(space_group(s) or none)} for i, s in structures(os.path.join(ROOT, rel))]
        out["sets"][name] = rows
        print(f"{name}: {len(rows)} structures, {sum(r['number'] is None for r in rows)} without a group", file=sys.stderr)
    sets = out.pop("sets")
    head = json.dumps(out, indent=1)[:-2]
    body = ",\n".join(f' "{name}": [\n' + ",\n".join("  " + json.dumps(r) for r in rows) + "\n ]" for name, rows in sets.items())
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(head + ',\n "sets": {\n' + body + "\n }\n}\n")
    print(f"{OUT}: {os.path.getsize(OUT)} bytes", file=sys.stderr)
    strict()


def strict():
    truths = dict(structures(os.path.join(ROOT, "csp_visible/truth")))
    matcher = StructureMatcher(stol=0.3, ltol=0.2, angle_tol=5)
    pairs = {}
    for i, pred in structures(os.path.join(ROOT, "csp_visible/pred")):
        try:
            r = matcher.get_rms_dist(pred, truths[i])
            pairs[i] = None if r is None else [float(r[0]), float(r[1])]
        except Exception as e:  # as DiffCSP's try/except: the pair is unmatched
            pairs[i] = {"error": str(e)[:200]}
    out = {
        "source": "scripts/make-sg-goldens.py: StructureMatcher(stol=0.3, ltol=0.2, angle_tol=5).get_rms_dist(pred, truth)",
        "pymatgen": pymatgen.core.__version__,
        "tolerances": {"stol": 0.3, "ltol": 0.2, "angle_tol": 5},
        "pairs": pairs,
    }
    with open(STRICT_OUT, "w", encoding="utf-8") as f:
        f.write(json.dumps(out, indent=1) + "\n")
    matched = sum(v is not None and not isinstance(v, dict) for v in pairs.values())
    print(f"{STRICT_OUT}: {matched} of {len(pairs)} matched", file=sys.stderr)


if __name__ == "__main__":
    main()
