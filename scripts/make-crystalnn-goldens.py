#!/usr/bin/python3
"""Goldens for the CrystalNN / VoronoiNN port (src/core/analysis/local-env, issue 24): what pymatgen 2022.11.7 gives.

Run with Debian's /usr/bin/python3 (python3-pymatgen 2022.11.7, scipy's qhull). Writes
tests/reference/golden/local-env/crystalnn.json (one structure per line) with, for each structure:
  * source: "corpus/<file>" (tests/reference/corpus/files read as the corpus goldens read them:
    CifParser(path).get_structures(primitive=False)[0], Poscar.from_file(path, check_for_POTCAR=False)) or
    "mp20/<material_id>" (a row of tests/reference/golden/generations/sources/mp20_rows.csv, its CIF read the same way)
    or "synthetic/<name>" (small cells built here) or "random/<k>" (seeded random cells, dense and sparse);
    disordered structures and those over MAX_SITES sites are skipped;
  * sites: species string (Species with its oxidation state) and fractional coordinates, lattice (rows, Å) and
    oxidation (per site, null without), so the test can check that the TypeScript reader gave the same sites in the
    same order, and build the structure itself where the readers differ;
  * per site: CrystalNN().get_cn, get_nn_info's neighbours [index, i, j, k, weight, distance] (distance = the norm of
    the centre's minus the neighbour's Cartesian coordinates, as CrystalNN computes it), and get_nn_data's all_nninfo
    [index, i, j, k, weight] (weights rounded to 3 decimals by CrystalNN) and cn_weights;
  * or error: the exception pymatgen raised for the structure;
  * for VORONOI_FILES, VoronoiNN(cutoff=7).get_voronoi_polyhedra per site: [index, i, j, k, solid_angle, area,
    face_dist, volume, n_verts] per facet, and CrystalNN(weighted_cn=True): get_cn(use_weights=True) and
    get_nn_info's [index, i, j, k, weight] per site.
timing: seconds pymatgen spent in get_nn_info over all sites (informative; varies between runs).
"""
import csv
import json
import os
import sys
import time
import warnings

warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
from pymatgen.analysis.local_env import CrystalNN, VoronoiNN  # noqa: E402
from pymatgen.core import Structure  # noqa: E402
from pymatgen.io.cif import CifParser  # noqa: E402
from pymatgen.io.vasp import Poscar  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "tests/reference/corpus/files")
MP20 = os.path.join(ROOT, "tests/reference/golden/generations/sources/mp20_rows.csv")
OUT = os.path.join(ROOT, "tests/reference/golden/local-env/crystalnn.json")
MAX_SITES = 100
MP20_ROWS = 60
RANDOM_CELLS = 120
# pymatgen's qhull search does not return on this one (a cell 10⁻⁴ Å thin): the port refuses it instead (the test).
SKIP = ("corpus/pmg-bad_superflat_inf_loop.cif",)
VORONOI_FILES = ("corpus/pmg-LiFePO4.cif", "corpus/cod-9011575-diamond.cif", "corpus/pmg-Fe3O4.cif")


def image(e):
    return [int(x) for x in e["image"]]


def record(s, source, timing):
    rec = {
        "source": source,
        "sites": [[str(site.specie), [float(x) for x in site.frac_coords]] for site in s],
    }
    rec["lattice"] = [[float(x) for x in row] for row in s.lattice.matrix]
    rec["oxidation"] = [getattr(site.specie, "oxi_state", None) for site in s]
    cnn = CrystalNN()
    try:
        t0 = time.perf_counter()
        infos = [cnn.get_nn_info(s, i) for i in range(len(s))]
        timing["pymatgen_get_nn_info_s"] += time.perf_counter() - t0
        timing["sites"] += len(s)
        out = []
        for i, info in enumerate(infos):
            data = cnn.get_nn_data(s, i)
            nbrs = [[int(e["site_index"]), *image(e), float(e["weight"]), _dist(s, i, e)] for e in info]
            out.append({
                "cn": int(cnn.get_cn(s, i)),
                "neighbors": nbrs,
                "all_nninfo": [[int(e["site_index"]), *image(e), float(e["weight"])] for e in data.all_nninfo],
                "cn_weights": [[int(k), float(v)] for k, v in data.cn_weights.items()],
            })
        rec["results"] = out
    except Exception as e:  # noqa: BLE001 - the golden records what pymatgen refuses
        rec["error"] = f"{type(e).__name__}: {e}"
    if source in VORONOI_FILES:
        vnn = VoronoiNN(weight="solid_angle", cutoff=7, compute_adj_neighbors=False)
        cells = []
        for i in range(len(s)):
            polys = vnn.get_voronoi_polyhedra(s, i)
            facets = []
            for p in polys.values():
                site = p["site"]
                j = vnn._get_original_site(s, site)
                img = vnn._get_image(s, site)
                facets.append([int(j), *[int(x) for x in img], float(p["solid_angle"]), float(p["area"]),
                               float(p["face_dist"]), float(p["volume"]), int(p["n_verts"])])
            cells.append(facets)
        rec["voronoi"] = cells
        wnn = CrystalNN(weighted_cn=True)
        rec["weighted"] = [
            {
                "cn": float(wnn.get_cn(s, i, use_weights=True)),
                "neighbors": [[int(e["site_index"]), *image(e), float(e["weight"])] for e in wnn.get_nn_info(s, i)],
            }
            for i in range(len(s))
        ]
    return rec


def _dist(s, i, e):
    return float(np.linalg.norm(s[i].coords - e["site"].coords))


def corpus_structures():
    for name in sorted(os.listdir(CORPUS)):
        path = os.path.join(CORPUS, name)
        try:
            if name.endswith(".cif"):
                s = CifParser(path).get_structures(primitive=False)[0]
            elif "POSCAR" in name or "CONTCAR" in name:
                s = Poscar.from_file(path, check_for_POTCAR=False).structure
            else:
                continue
        except Exception:  # noqa: BLE001 - files pymatgen cannot read are not goldens
            continue
        yield f"corpus/{name}", s


def mp20_structures():
    csv.field_size_limit(10**9)
    with open(MP20, newline="") as f:
        rows = list(csv.DictReader(f))
    step = max(1, len(rows) // MP20_ROWS)
    for row in rows[::step][:MP20_ROWS]:
        s = CifParser.from_string(row["cif"]).get_structures(primitive=False)[0]
        yield f"mp20/{row['material_id']}", s


def synthetic_structures():
    """Small cells for the paths real files rarely take: cospherical neighbours (exact cubic positions), open cells
    (the cutoff doubled), oxidation-state radii (integer, fractional, averaged) and elements without electronegativity."""
    from pymatgen.core import Lattice, Species

    cubic, hexagonal = Lattice.cubic, Lattice.hexagonal
    cases = [
        ("Po-simple-cubic", cubic(3.35), ["Po"], [[0, 0, 0]]),
        ("Cu-fcc", cubic(3.61), ["Cu"] * 4, [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]]),
        ("Fe-bcc", cubic(2.87), ["Fe"] * 2, [[0, 0, 0], [0.5, 0.5, 0.5]]),
        ("Ar-fcc", cubic(5.26), ["Ar"] * 4, [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]]),
        ("CsCl", cubic(4.12), ["Cs", "Cl"], [[0, 0, 0], [0.5, 0.5, 0.5]]),
        ("SrTiO3", cubic(3.905), ["Sr", "Ti", "O", "O", "O"],
         [[0, 0, 0], [0.5, 0.5, 0.5], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]]),
        ("NaCl-ions", cubic(5.64), [Species("Na", 1)] * 4 + [Species("Cl", -1)] * 4,
         [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5], [0.5, 0, 0], [0, 0.5, 0], [0, 0, 0.5], [0.5, 0.5, 0.5]]),
        ("FeO-mixed-valence", cubic(4.3), [Species("Fe", 2.5)] * 4 + [Species("O", -2)] * 4,
         [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5], [0.5, 0, 0], [0, 0.5, 0], [0, 0, 0.5], [0.5, 0.5, 0.5]]),
        ("MnS-average-radii", cubic(5.2), [Species("Mn", 5)] * 4 + [Species("S", -1)] * 4,
         [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5], [0.5, 0, 0], [0, 0.5, 0], [0, 0, 0.5], [0.5, 0.5, 0.5]]),
        ("C-zero-oxidation", cubic(3.57), [Species("C", 0)] * 8,
         [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5],
          [0.25, 0.25, 0.25], [0.75, 0.75, 0.25], [0.75, 0.25, 0.75], [0.25, 0.75, 0.75]]),
        ("Cu-lone-30A", cubic(30), ["Cu"], [[0, 0, 0]]),
        ("graphene-20A-vacuum", hexagonal(2.46, 20), ["C", "C"], [[1 / 3, 2 / 3, 0.5], [2 / 3, 1 / 3, 0.5]]),
        ("C-square-sheet-60A", Lattice.from_parameters(3, 3, 60, 90, 90, 90), ["C"], [[0, 0, 0]]),
        ("H2-molecules-12A", cubic(12), ["H", "H"], [[0.5, 0.5, 0.47], [0.5, 0.5, 0.53]]),
    ]
    for name, lattice, species, frac in cases:
        yield f"synthetic/{name}", Structure(lattice, species, frac)


def random_structures():
    """Random cells (seeded): dense ones (a, b, c of 2.5-9 Å, up to 16 sites, a third on a quarter grid, so that
    neighbours are cospherical) and sparse ones (2.5-18 Å, up to 6 sites: open cells, the cutoff doubled, cells
    qhull reports no facet of). Sites closer than 0.3 Å are merged."""
    import random

    from pymatgen.core import Lattice

    rng = random.Random(20241)
    symbols = ["H", "Li", "C", "N", "O", "F", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "K", "Ca", "Ti", "V", "Mn", "Fe",
               "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "Se", "Br", "Sr", "Y", "Zr", "Nb", "Mo", "Ag", "Sn", "Te", "I", "Ba",
               "La", "W", "Pt", "Au", "Pb", "Bi", "Ar", "Xe"]
    made = 0
    while made < RANDOM_CELLS:
        sparse = made % 2 == 1
        abc = [rng.uniform(2.5, 18 if sparse else 9) for _ in range(3)]
        angles = [rng.uniform(60, 120) for _ in range(3)]
        n = rng.randint(1, 6 if sparse else 16)
        grid = rng.random() < 0.3
        species = [rng.choice(symbols[: rng.randint(3, len(symbols))]) for _ in range(n)]
        frac = [[rng.choice([0, 0.25, 0.5, 0.75]) if grid else rng.random() for _ in range(3)] for _ in range(n)]
        try:
            lattice = Lattice.from_parameters(*abc, *angles)
            if lattice.volume < 0.3 * abc[0] * abc[1] * abc[2]:
                continue
            s = Structure(lattice, species, frac, validate_proximity=False)
            s.merge_sites(tol=0.3, mode="delete")
        except Exception:  # noqa: BLE001 - impossible angle triples
            continue
        yield f"random/{made}", s
        made += 1


def main():
    timing = {"pymatgen_get_nn_info_s": 0.0, "sites": 0}
    structures = []
    for source, s in [*corpus_structures(), *mp20_structures(), *synthetic_structures(), *random_structures()]:
        if not isinstance(s, Structure) or not s.is_ordered or len(s) > MAX_SITES or source in SKIP:
            continue
        structures.append(record(s, source, timing))
        print(source, len(s), structures[-1].get("error", "ok"), file=sys.stderr)
    timing["pymatgen_get_nn_info_s"] = round(timing["pymatgen_get_nn_info_s"], 2)
    doc = {
        "generator": "scripts/make-crystalnn-goldens.py",
        "tool": "pymatgen 2022.11.7 CrystalNN() defaults, VoronoiNN(cutoff=7)",
        "timing": timing,
        "structures": structures,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    head = json.dumps({k: v for k, v in doc.items() if k != "structures"}, separators=(",", ":"))[:-1]
    body = ",\n".join(json.dumps(s, separators=(",", ":")) for s in structures)
    data = f'{head},"structures":[\n{body}\n]}}\n'
    with open(OUT, "w") as f:
        f.write(data)
    print(f"{len(structures)} structures, {timing['sites']} sites, {len(data)} bytes of JSON", file=sys.stderr)


if __name__ == "__main__":
    main()
