#!/usr/bin/python3
"""Golden for the CIF reader on pymatgen's own srycoo.cif (issue 25): what pymatgen 2022.11 reads from it.

Run with Debian's /usr/bin/python3 (python3-pymatgen 2022.11.7). Reads tests/reference/corpus/pymatgen/srycoo.cif
(materialsproject/pymatgen-core test-files/cif/srycoo.cif, MIT, kept byte for byte: CRLF line ends) and writes
srycoo.cif.json beside it: CifParser(path).get_structures(primitive=False) (the cell as the file gives it, as
tests/reference/corpus/golden does) and get_structures() (pymatgen's default, primitive=True), each with formula,
lattice (matrix rows in Å, a/b/c, angles), species and fractional coordinates at full float precision (repr), plus
CifParser.warnings, the Python warnings emitted, and the values pymatgen's CifBlock tokenizer
(pymatgen/io/cif.py, CifBlock._process_string) gave the tags around the value quoted over several lines.
"""
import hashlib
import json
import os
import warnings

import numpy as np
import pymatgen.core
from pymatgen.io.cif import CifParser

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference", "corpus", "pymatgen")
CIF = os.path.join(HERE, "srycoo.cif")
OUT = os.path.join(HERE, "srycoo.cif.json")


def structure_dict(s):
    lat = s.lattice
    return {
        "formula": s.composition.formula,
        "reduced_formula": s.composition.reduced_formula,
        "n_sites": len(s),
        "lattice": {
            "matrix": [[float(x) for x in row] for row in lat.matrix],
            "abc": [float(x) for x in lat.abc],
            "angles": [float(x) for x in lat.angles],
            "volume": float(lat.volume),
        },
        "sites": [
            {
                "species": {str(sp): float(occ) for sp, occ in site.species.items()},
                "frac": [float(x) for x in site.frac_coords],
            }
            for site in s
        ],
    }


def main():
    with open(CIF, "rb") as f:
        raw = f.read()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parser = CifParser(CIF)
        conventional = parser.get_structures(primitive=False)
        primitive = CifParser(CIF).get_structures()
    python_warnings = []
    for w in caught:
        text = str(w.message)
        if text not in python_warnings:
            python_warnings.append(text)
    (block,) = parser._cif.data.values()  # noqa: SLF001 (informative: what the tokenizer made of the file)
    tags = ["_cgraph_comments", "_cgraph_title", "_chemical_formula_sum", "_symmetry_space_group_name_H-M"]
    out = {
        "file": "srycoo.cif",
        "source": {
            "repo": "materialsproject/pymatgen-core",
            "path": "test-files/cif/srycoo.cif",
            "commit": "85392df7b2f7d243d370a4d27e0f3f6674ccd22a",
            "licence": "MIT (pymatgen-core repository)",
        },
        "sha256": hashlib.sha256(raw).hexdigest(),
        "size_bytes": len(raw),
        "crlf_line_ends": raw.count(b"\r\n"),
        "tool_versions": {"pymatgen": pymatgen.core.__version__, "numpy": np.__version__},
        "call": "CifParser(path).get_structures(primitive=False); primitive: CifParser(path).get_structures()",
        "block_names": list(parser._cif.data.keys()),  # noqa: SLF001
        "tag_values": {t: block.data.get(t) for t in tags},
        "parser_warnings": list(parser.warnings),
        "python_warnings": python_warnings,
        "structures": [structure_dict(s) for s in conventional],
        "primitive": [structure_dict(s) for s in primitive],
    }
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    s = conventional[0]
    print(s.composition.formula, len(s), [float(x) for x in s.lattice.abc], [float(x) for x in s.lattice.angles])
    print("warnings:", python_warnings, list(parser.warnings))


if __name__ == "__main__":
    main()
