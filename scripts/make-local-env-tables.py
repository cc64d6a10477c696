#!/usr/bin/python3
"""Element tables CrystalNN reads, as pymatgen 2022.11.7 gives them: src/core/analysis/local-env/tables.json.

Run with Debian's /usr/bin/python3 (python3-pymatgen 2022.11.7). Per element symbol (pymatgen's Element enum):
  X   Pauling electronegativity (Element.X from pymatgen/core/periodic_table.json; null where pymatgen gives NaN)
  cov covalent radius, Å (CovalentRadius.radius in pymatgen/analysis/molecule_structure_comparator.py; null if absent)
  at  atomic radius, Å (Element.atomic_radius from periodic_table.json; null if absent)
  ion ionic radii, Å, by oxidation state (Element.ionic_radii; "Ionic radii" in periodic_table.json)
  cat, an  Element.average_cationic_radius / average_anionic_radius as pymatgen computes them (0 when none)
These are what pymatgen/analysis/local_env.py (_get_radius, _get_default_radius, CrystalNN.get_nn_data) read.
pymatgen is MIT licensed (src/core/analysis/PYMATGEN-LICENSE); see src/core/analysis/local-env/README.md.
"""
import json
import math
import os
import warnings

warnings.filterwarnings("ignore")

from pymatgen.analysis.molecule_structure_comparator import CovalentRadius  # noqa: E402
from pymatgen.core.periodic_table import Element  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src/core/analysis/local-env/tables.json")


def num(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def main():
    elements = {}
    for el in Element:
        sym = el.symbol
        elements[sym] = {
            "X": num(el.X),
            "cov": num(CovalentRadius.radius.get(sym)),
            "at": num(el.atomic_radius),
            "ion": {str(k): float(v) for k, v in sorted(el.ionic_radii.items())},
            "cat": float(el.average_cationic_radius),
            "an": float(el.average_anionic_radius),
        }
    doc = {
        "source": "pymatgen 2022.11.7 (MIT): core/periodic_table.json, analysis/molecule_structure_comparator.py",
        "generator": "scripts/make-local-env-tables.py",
        "elements": elements,
    }
    with open(OUT, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(elements)} elements -> {OUT}")


if __name__ == "__main__":
    main()
