#!/usr/bin/python3
"""The Magpie element tables matminer's ElementProperty.from_preset('magpie') reads: src/core/analysis/magpie/magpie.json.

Usage: MATMINER_SRC=/path/to/matminer-v0.7.3 /usr/bin/python3 scripts/make-magpie-tables.py

MATMINER_SRC is a checkout of hackingmaterials/matminer at tag v0.7.3 (commit f89a530b, the version CDVAE's env.yml
pins; its setup.py still says 0.6.5). The tables are matminer/utils/data_files/magpie_elementdata/<property>.table,
one line per element from Z = 1. They are read here as matminer/utils/data.py MagpieData.__init__ reads them: for
Z = 1 … len(pymatgen's periodic table) (118 with Debian's python3-pymatgen 2022.11.7), float(line Z) (Python's float
accepts surrounding whitespace and CR), NaN where the line is missing or not a number ("Missing"); the element is
pymatgen's Element.from_Z(Z).symbol. Only the 22 properties of the magpie preset are written
(matminer/featurizers/composition.py ElementProperty.from_preset), in the preset's order; NaN is written as null.

The values are then checked against matminer's own MagpieData (scripts/support/matminer_v073.py imports it with
Debian's python3), so the JSON holds exactly what matminer reads. Output (one element per line):
  {"source": ..., "properties": [22 names], "elements": {"H": [22 values or null], ...}}
matminer is BSD licensed (src/core/analysis/magpie/LICENSE-matminer.txt); the Magpie data are from Ward et al.,
npj Comput. Mater. 2, 16028 (2016).
"""
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src/core/analysis/magpie/magpie.json")

# matminer v0.7.3 matminer/featurizers/composition.py ElementProperty.from_preset("magpie"): the features, in order.
PRESET = ["Number", "MendeleevNumber", "AtomicWeight", "MeltingT", "Column", "Row", "CovalentRadius",
          "Electronegativity", "NsValence", "NpValence", "NdValence", "NfValence", "NValence",
          "NsUnfilled", "NpUnfilled", "NdUnfilled", "NfUnfilled", "NUnfilled", "GSvolume_pa",
          "GSbandgap", "GSmagmom", "SpaceGroupNumber"]


def read_table(path, n_elements):
    """MagpieData.__init__'s reading of one table: float(lines[Z - 1]), NaN on ValueError or IndexError."""
    with open(path, "r") as f:
        lines = f.readlines()
    values = []
    for z in range(1, n_elements + 1):
        try:
            values.append(float(lines[z - 1]))
        except (ValueError, IndexError):
            values.append(float("nan"))
    return values


def main():
    src = os.environ.get("MATMINER_SRC")
    if not src:
        sys.exit("set MATMINER_SRC to a checkout of matminer v0.7.3 (see the docstring)")
    sys.path.insert(0, os.path.join(ROOT, "scripts", "support"))
    import matminer_v073  # noqa: E402

    _, composition = matminer_v073.load()
    from matminer.utils.data import MagpieData, _pt_data  # noqa: E402
    from pymatgen.core.periodic_table import Element  # noqa: E402

    ep = composition.ElementProperty.from_preset("magpie")
    if list(ep.features) != PRESET or ep.stats != ["minimum", "maximum", "range", "mean", "avg_dev", "mode"]:
        sys.exit("the magpie preset differs from the one this script writes")
    n = len(_pt_data)
    data_dir = os.path.join(src, "matminer", "utils", "data_files", "magpie_elementdata")
    tables = {p: read_table(os.path.join(data_dir, p + ".table"), n) for p in PRESET}
    symbols = [Element.from_Z(z).symbol for z in range(1, n + 1)]

    # What matminer itself read must be the same numbers (NaN where NaN).
    magpie = MagpieData()
    for p in PRESET:
        for z, sym in enumerate(symbols, 1):
            a, b = tables[p][z - 1], magpie.all_elemental_props[p][sym]
            if not (a == b or (math.isnan(a) and math.isnan(b))):
                sys.exit(f"{p} {sym}: table {a!r}, MagpieData {b!r}")
            if math.isinf(a):
                sys.exit(f"{p} {sym}: infinite value")

    lines = []
    for z, sym in enumerate(symbols, 1):
        row = [None if math.isnan(tables[p][z - 1]) else tables[p][z - 1] for p in PRESET]
        lines.append(f"{json.dumps(sym)}:{json.dumps(row, separators=(',', ':'))}")
    header = {
        "source": "hackingmaterials/matminer v0.7.3 (f89a530b) matminer/utils/data_files/magpie_elementdata/*.table "
                  "as MagpieData reads them; null = NaN (missing); scripts/make-magpie-tables.py",
        "properties": PRESET,
    }
    text = json.dumps(header, separators=(",", ":"))[:-1] + ',"elements":{\n' + ",\n".join(lines) + "\n}}\n"
    json.loads(text)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {OUT}: {len(symbols)} elements × {len(PRESET)} properties")


if __name__ == "__main__":
    main()
