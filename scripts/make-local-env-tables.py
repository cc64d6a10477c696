#!/usr/bin/python3
"""Element tables CrystalNN reads, as pymatgen 2022.11.7 gives them: src/core/analysis/local-env/tables.json.

Run with Debian's /usr/bin/python3 (python3-pymatgen 2022.11.7). Per element symbol (pymatgen's Element enum):
  X   Pauling electronegativity (Element.X from pymatgen/core/periodic_table.json; null where pymatgen gives NaN)
  cov covalent radius, Å (CovalentRadius.radius in pymatgen/analysis/molecule_structure_comparator.py; null if absent)
  at  atomic radius, Å (Element.atomic_radius from periodic_table.json; null if absent)
  ion ionic radii, Å, by oxidation state (Element.ionic_radii; "Ionic radii" in periodic_table.json)
  cat, an  Element.average_cationic_radius / average_anionic_radius as pymatgen computes them (0 when none)
These are what pymatgen/analysis/local_env.py (_get_radius, _get_default_radius, CrystalNN.get_nn_data) read.
quarterCircle[k]: the area CrystalNN._semicircle_integral computes for the bound x = k / 1000 (its bounds are weights
rounded to 3 decimals), 0.5 * (x * sqrt(1 - x**2) + atan(x / sqrt(1 - x**2))) and pi / 4 for x = 1, with glibc's
atan, which the fdlibm atan of src/core/math/libm.ts misses by an ulp at some bounds.
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
    quarter = []
    for k in range(1001):
        x = k / 1000
        if x == 1:
            quarter.append(0.25 * math.pi * 1**2)
        else:
            quarter.append(0.5 * ((x * math.sqrt(1**2 - x**2)) + (1**2 * math.atan(x / math.sqrt(1**2 - x**2)))))
    doc = {
        "source": "pymatgen 2022.11.7 (MIT): core/periodic_table.json, analysis/molecule_structure_comparator.py",
        "generator": "scripts/make-local-env-tables.py",
        "elements": elements,
        "quarterCircle": quarter,
    }
    with open(OUT, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"{len(elements)} elements -> {OUT}")


if __name__ == "__main__":
    main()
