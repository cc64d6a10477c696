#!/usr/bin/python3
"""Reference for bench/symmetry.bench.ts: pymatgen 2022.11's SpacegroupAnalyzer(s, symprec) (spglib 2.0.2, angle
tolerance 5) on every structure of a JSONL of pymatgen dicts, as `structlab info FILE --symprec S` searches them.
Prints [{"number", "symbol"} | null, ...] as JSON. Usage: symmetry_reference.py FILE.jsonl SYMPREC"""
import json
import sys
import warnings

from pymatgen.core import Structure
from pymatgen.symmetry.analyzer import SpacegroupAnalyzer

warnings.filterwarnings("ignore")
path, symprec = sys.argv[1], float(sys.argv[2])
out = []
for line in open(path):
    if not line.strip():
        continue
    s = Structure.from_dict(json.loads(line)["structure"])
    try:
        a = SpacegroupAnalyzer(s, symprec=symprec)
        out.append({"number": a.get_space_group_number(), "symbol": a.get_space_group_symbol()})
    except TypeError:
        out.append(None)
print(json.dumps(out))
