#!/usr/bin/env python3
"""Builds datasets/generations/mp20-demo.csv (the Generations page's demo truths) from the MP-20 rows.

Usage: python3 scripts/make-generations-demo.py PATH/TO/mp20_rows.csv
The input is the project's reference copy of MP-20 rows (CDVAE's split, columns split,material_id,commit,cif);
datasets/generations/README.md names the source and licence. Deterministic: training-split rows in file order,
2-12 sites, at least two elements, one row per reduced formula, the first 16; the `cif` field is copied verbatim.
"""
import csv
import os
import re
import sys

COUNT = 16
MAX_SITES = 12
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "datasets", "generations", "mp20-demo.csv")


def sites_and_elements(cif):
    """Site count and element set of a pymatgen-written P1 CIF (the atom_site loop's rows)."""
    lines = cif.splitlines()
    start = next(i for i, l in enumerate(lines) if l.strip() == "_atom_site_occupancy") + 1
    rows = [l.split() for l in lines[start:] if l.strip()]
    return len(rows), {r[0] for r in rows}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    csv.field_size_limit(10**7)
    with open(sys.argv[1], newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    chosen, formulas = [], set()
    for row in rows:
        if row["split"] != "train":
            continue
        n, elements = sites_and_elements(row["cif"])
        formula = re.search(r"^data_(\S+)", row["cif"], re.M).group(1)
        if not 2 <= n <= MAX_SITES or len(elements) < 2 or formula in formulas:
            continue
        formulas.add(formula)
        chosen.append((row["material_id"], row["cif"]))
        if len(chosen) == COUNT:
            break
    with open(OUT, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["material_id", "cif"])
        w.writerows(chosen)
    print(f"{OUT}: {len(chosen)} rows, {os.path.getsize(OUT)} bytes")


if __name__ == "__main__":
    main()
