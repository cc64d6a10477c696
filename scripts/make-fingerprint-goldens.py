#!/usr/bin/python3
"""Goldens for the CrystalNN fingerprint and LocalStructOrderParams port (src/core/analysis/local-env).

Run from the repository root with Debian's python (python3-pymatgen 2022.11.7) and a checkout of matminer v0.7.3
(`git clone --branch v0.7.3 https://github.com/hackingmaterials/matminer`, imported by scripts/support/matminer_v073.py):

    MATMINER_SRC=/path/to/matminer /usr/bin/python3 scripts/make-fingerprint-goldens.py

Writes tests/reference/golden/local-env/fingerprint.json (one structure per line) with:
  * labels: CrystalNNFingerprint.from_preset("ops").feature_labels() (61 strings);
  * structures: for every structure of crystalnn.json (scripts/make-crystalnn-goldens.py) that pymatgen did not
    refuse, rebuilt from its stored lattice, species, oxidation states and fractional coordinates, its source and per
    site the 61 features of CrystalNNFingerprint.from_preset("ops").featurize(structure, i);
  * order_params: ops, the distinct (type, parameters) pairs that preset builds LocalStructOrderParams with
    (parameters null: pymatgen's defaults), and cases: neighbour vectors around a centre at the origin (1 to 12
    neighbours: ideal motifs, the same with seeded noise and uneven distances, collinear, coplanar, coincident and
    threshold angles) with LocalStructOrderParams([type], [parameters]).get_order_parameters(...)[0] of each op
    (null where pymatgen gives None);
  * timing: seconds matminer spent in featurize over all sites (informative; varies between runs).
Floats are stored as Python's repr (full precision).
"""
import json
import math
import os
import random
import re
import sys
import time
import warnings

warnings.filterwarnings("ignore")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "support"))
import matminer_v073  # noqa: E402

site_featurizers, _ = matminer_v073.load()

from pymatgen.analysis.local_env import LocalStructOrderParams  # noqa: E402
from pymatgen.core import Element, Lattice, Site, Species, Structure  # noqa: E402

CRYSTALNN = os.path.join(ROOT, "tests/reference/golden/local-env/crystalnn.json")
OUT = os.path.join(ROOT, "tests/reference/golden/local-env/fingerprint.json")


def rebuild(rec):
    """The structure of a crystalnn.json record, as pymatgen built it there (same floats)."""
    species = []
    for (name, _), ox in zip(rec["sites"], rec["oxidation"]):
        el = re.sub(r"[\d.]*[+-]$", "", name)
        species.append(Element(el) if ox is None else Species(el, ox))
    return Structure(Lattice(rec["lattice"]), species, [frac for _, frac in rec["sites"]])


def preset_ops():
    """The distinct (type, parameters) pairs the ops preset builds LocalStructOrderParams with, in feature order, as
    CrystalNNFingerprint.__init__ picks them (parameters None: LocalStructOrderParams takes its defaults)."""
    ops = []
    for cn in sorted(site_featurizers.cn_target_motif_op):
        for motif in site_featurizers.cn_target_motif_op[cn]:
            entry = site_featurizers.cn_motif_op_params.get(cn, {}).get(motif, [motif])
            op = [entry[0], {k: float(v) for k, v in entry[1].items()} if len(entry) > 1 else None]
            if op not in ops:
                ops.append(op)
    return ops


def unit(v):
    n = math.sqrt(sum(x * x for x in v))
    return [x / n for x in v]


def ring(count, z=0.0, start=0.0):
    return [[math.cos(start + 2 * math.pi * k / count), math.sin(start + 2 * math.pi * k / count), z] for k in range(count)]


def geometries():
    """Neighbour vectors (centre at the origin): ideal motifs, degenerate arrangements, noisy and random sets."""
    s3 = 1 / math.sqrt(3)
    tet = [[s3, s3, s3], [-s3, -s3, s3], [-s3, s3, -s3], [s3, -s3, -s3]]
    octa = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]
    cube = [[x, y, z] for x in (-s3, s3) for y in (-s3, s3) for z in (-s3, s3)]
    cuboct = [[a, b, 0] for a in (-1, 1) for b in (-1, 1)] + [[a, 0, b] for a in (-1, 1) for b in (-1, 1)] + [
        [0, a, b] for a in (-1, 1) for b in (-1, 1)]
    phi = (1 + math.sqrt(5)) / 2
    icosa = [v for a in (-1, 1) for b in (-phi, phi) for v in ([0, a, b], [a, b, 0], [b, 0, a])]
    hcp = ring(6) + ring(3, math.sqrt(8 / 3) / 2, math.pi / 6) + ring(3, -math.sqrt(8 / 3) / 2, math.pi / 6)
    tri_prism = ring(3, 0.8) + ring(3, -0.8)
    bent = lambda deg: [[1, 0, 0], [math.cos(math.radians(deg)), math.sin(math.radians(deg)), 0]]  # noqa: E731
    ideal = {
        "single-x": [[1.7, 0.2, -0.3]],
        "single-z": [[0, 0, 2.0]],
        "single-minus-z": [[0, 0, -1.5]],
        "linear": [[0, 0, 1], [0, 0, -1]],
        "linear-x": [[2.1, 0, 0], [-1.9, 0, 0]],
        "L-shaped": bent(90),
        "water-like": bent(104.45),
        "bent-120": bent(120),
        "bent-150": bent(150),
        "coincident-2": [[1, 1, 0], [2, 2, 0]],
        "trigonal-planar": ring(3),
        "trigonal-non-coplanar": tet[:3],
        "T-shaped": [[1, 0, 0], [-1, 0, 0], [0, 1, 0]],
        "collinear-3": [[0, 0, 1], [0, 0, -1], [0, 0, 2]],
        "square-planar": ring(4),
        "tetrahedral": tet,
        "see-saw-rect": [[1, 0, 0], [-1, 0, 0], [0, 0.7071067811865476, 0.7071067811865476],
                         [0, -0.7071067811865476, 0.7071067811865476]],
        "see-saw": [[0, 0, 1], [0, 0, -1], [1, 0, 0], [-0.5, 0.8660254037844386, 0]],
        "trigonal-pyramidal": ring(3) + [[0, 0, 1]],
        "collinear-4": [[1, 1, 1], [-1, -1, -1], [2, 2, 2], [-0.5, -0.5, -0.5]],
        "coplanar-4-random": [[0.3, 1.1, 0], [-1.2, 0.4, 0], [0.2, -0.9, 0], [1.3, -0.2, 0]],
        "angle-135": [[1, 0, 0], [-1, 1, 0], [0, 0, 1], [0, -1, 0]],
        "pentagonal-planar": ring(5),
        "square-pyramidal": ring(4) + [[0, 0, 1]],
        "trigonal-bipyramidal": ring(3) + [[0, 0, 1], [0, 0, -1]],
        "angle-108": [[1, 0, 0], [math.cos(0.6 * math.pi), math.sin(0.6 * math.pi), 0], [0, 0, 1],
                      [math.cos(1.2 * math.pi), math.sin(1.2 * math.pi), 0], [0.1, -1, 0.2]],
        "hexagonal-planar": ring(6),
        "octahedral": octa,
        "pentagonal-pyramidal": ring(5) + [[0, 0, 1]],
        "trigonal-prism": tri_prism,
        "collinear-6": [[0, 0, z] for z in (1, -1, 2, -2, 3, -3)],
        "hexagonal-pyramidal": ring(6) + [[0, 0, 1]],
        "pentagonal-bipyramidal": ring(5) + [[0, 0, 1], [0, 0, -1]],
        "capped-octahedron": octa + [unit([1, 1, 1])],
        "body-centered-cubic": cube,
        "hexagonal-bipyramidal": ring(6) + [[0, 0, 1], [0, 0, -1]],
        "square-antiprism": ring(4, 0.6) + ring(4, -0.6, math.pi / 4),
        "tricapped-trigonal-prism": tri_prism + ring(3, 0, math.pi / 3),
        "bcc-plus-axis": cube + [[0, 0, 1]],
        "bcc-plus-two": cube + [[0, 0, 1], [1, 0, 0]],
        "bicapped-square-antiprism": ring(4, 0.6) + ring(4, -0.6, math.pi / 4) + [[0, 0, 1], [0, 0, -1]],
        "octahedron-plus-ring": octa + ring(5, 0.3, 0.1),
        "cuboctahedral": cuboct,
        "icosahedral": icosa,
        "hcp": hcp,
        "coplanar-12": ring(12),
    }
    rng = random.Random(20240613)
    cases = list(ideal.items())
    # The ideal motifs with noise and uneven distances (intermediate values).
    for name, vecs in list(ideal.items()):
        if name.startswith(("collinear", "coincident", "coplanar", "angle")):
            continue
        noisy = [[rng.uniform(0.8, 1.3) * (x + rng.gauss(0, 0.08)) for x in v] for v in vecs]
        cases.append((f"{name}-noisy", noisy))
    # Random sets of 1..12 neighbours, and coplanar ones.
    for n in range(1, 13):
        cases.append((f"random-{n}", [[rng.uniform(-2, 2) for _ in range(3)] for _ in range(n)]))
        if n > 2:
            cases.append((f"random-coplanar-{n}", [[rng.uniform(-2, 2), rng.uniform(-2, 2), 0.0] for _ in range(n)]))
    return [(name, [[float(x) for x in v] for v in vecs]) for name, vecs in cases]


def order_param_cases(ops):
    calculators = [LocalStructOrderParams([t], parameters=[p]) for t, p in ops]
    cases = []
    for name, vecs in geometries():
        sites = [Site("H", [0.0, 0.0, 0.0])] + [Site("H", v) for v in vecs]
        neighbours = list(range(1, len(sites)))
        values = [calc.get_order_parameters(sites, 0, indices_neighs=neighbours)[0] for calc in calculators]
        cases.append({"name": name, "neighbors": vecs, "values": [None if v is None else float(v) for v in values]})
    return cases


def main():
    fp = site_featurizers.CrystalNNFingerprint.from_preset("ops")
    with open(CRYSTALNN) as f:
        crystalnn = json.load(f)
    timing = {"matminer_featurize_s": 0.0, "sites": 0}
    structures = []
    for rec in crystalnn["structures"]:
        if "error" in rec:
            continue
        s = rebuild(rec)
        t0 = time.perf_counter()
        features = [fp.featurize(s, i) for i in range(len(s))]
        timing["matminer_featurize_s"] += time.perf_counter() - t0
        timing["sites"] += len(s)
        structures.append({"source": rec["source"], "features": [[0 if x == 0 else float(x) for x in row] for row in features]})
        print(rec["source"], len(s), file=sys.stderr)
    timing["matminer_featurize_s"] = round(timing["matminer_featurize_s"], 2)
    ops = preset_ops()
    head = {
        "generator": "scripts/make-fingerprint-goldens.py",
        "tool": "matminer v0.7.3 CrystalNNFingerprint.from_preset('ops'), pymatgen 2022.11.7 LocalStructOrderParams",
        "timing": timing,
        "labels": fp.feature_labels(),
        "order_params": {"ops": ops, "cases": order_param_cases(ops)},
    }
    text = json.dumps(head, separators=(",", ":"))[:-1]
    body = ",\n".join(json.dumps(s, separators=(",", ":")) for s in structures)
    data = f'{text},"structures":[\n{body}\n]}}\n'
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(data)
    print(f"{len(structures)} structures, {timing['sites']} sites, {len(data)} bytes of JSON", file=sys.stderr)


if __name__ == "__main__":
    main()
