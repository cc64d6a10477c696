#!/usr/bin/python3
"""Extracts ASE 3.22.1's reference states (ase.data.reference_states) into
src/core/structure/clusters/reference-states.json for the cluster builders.

Run with Debian's /usr/bin/python3 (python3-ase 3.22.1). Only the crystal structure name ("symmetry") and the cubic
lattice constant "a" (Å) of each element are kept: the default lattice of ase.cluster's Icosahedron, Decahedron,
Octahedron, FaceCenteredCubic, BodyCenteredCubic, SimpleCubic and wulff_construction. Elements whose reference
state is None in ASE are left out. ASE is LGPL-2.1+; these numbers are data (tabulated lattice constants).
"""
import json
import os

import ase
from ase.data import chemical_symbols, reference_states

OUT = os.path.join(os.path.dirname(__file__), "..", "src", "core", "structure", "clusters", "reference-states.json")


def main():
    assert ase.__version__ == "3.22.1", ase.__version__
    elements = {}
    for z, state in enumerate(reference_states):
        if z == 0 or state is None:
            continue
        entry = {"symmetry": state["symmetry"]}
        if "a" in state:
            entry["a"] = float(state["a"])
        elements[chemical_symbols[z]] = entry
    source = "ASE 3.22.1 ase.data.reference_states (symmetry and a only), scripts/make-ase-reference-states.py"
    # One element per line, as Prettier lays the file out.
    rows = []
    for symbol, entry in elements.items():
        fields = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in entry.items())
        rows.append(f"    {json.dumps(symbol)}: {{ {fields} }}")
    with open(OUT, "w") as f:
        f.write('{\n  "source": %s,\n  "elements": {\n%s\n  }\n}\n' % (json.dumps(source), ",\n".join(rows)))
    print(f"wrote {OUT}: {len(elements)} elements")


if __name__ == "__main__":
    main()
