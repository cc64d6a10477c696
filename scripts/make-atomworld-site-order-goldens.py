#!/usr/bin/python3
"""Goldens for the site order of AtomWorld answers (src/core/tasks/atomworld/strict-cif.ts,
tests/unit/atomworld-site-order.test.ts).

Run with Debian's /usr/bin/python3 (python3-pymatgen 2022.11.7, MIT). pymatgen's CifParser returns every structure in
`get_sorted_structure` order (by mean electronegativity, then species string, stable otherwise), P1 files included,
and StructureMatcher tries translations and breaks ties between equally good assignments in site order. So an answer
whose species are interleaved (a model that writes sites in another order) is matched as pymatgen matches it only when
it is read in that order.

Builds P1 cells and supercells of rocksalt, perovskite, wurtzite, fluorite, rutile and a three-element spinel-like
cell (some with oxidation states), writes each with CifWriter as the target and, as answers, copies with their sites
shuffled (some also jittered by 0.02 Å or with one site moved by 1.2 Å). Records per case pymatgen's reading of the
answer (species string and fractional coordinates of each site, in order) and AtomWorld's verdict against its
target (`targets`, CifWriter's text of each cell, by name), as
bench/atomworld_reference.py computes it (AtomWorldBench src/evaluation/evaluator.py: the last <cif> block,
CifParser(...).get_structures(primitive=False), the composition gate, StructureMatcher(primitive_cell=False, stol=0.5)
fit then get_rms_dist). Writes tests/reference/golden/atomworld/site_order.json. Inputs are synthetic (no data
licence); the numbers are pymatgen's.

Runs on numpy's and OpenBLAS's baseline x86-64 path (no AVX-512 loops, no FMA kernels), as scripts/make-tie-goldens.py
explains: which of several equally good assignments pymatgen keeps depends on those last bits.
"""
import os
import sys

BASELINE = {"NPY_DISABLE_CPU_FEATURES": "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL", "OPENBLAS_CORETYPE": "Nehalem"}
if any(os.environ.get(k) != v for k, v in BASELINE.items()):
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, **BASELINE})

import json  # noqa: E402
import random  # noqa: E402
import warnings  # noqa: E402

warnings.filterwarnings("ignore")

import pymatgen.core  # noqa: E402
from pymatgen.core import Lattice, Structure  # noqa: E402
from pymatgen.io.cif import CifWriter  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from atomworld_reference import judge, parse_first  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference", "golden", "atomworld", "site_order.json")


def prototypes():
    rocksalt = Structure.from_spacegroup("Fm-3m", Lattice.cubic(5.64), ["Na", "Cl"], [[0, 0, 0], [0.5, 0.5, 0.5]])
    ionic = rocksalt.copy()
    ionic.add_oxidation_state_by_element({"Na": 1, "Cl": -1})
    return [
        ("rocksalt", rocksalt),
        ("rocksalt-oxidation", ionic),
        ("perovskite", Structure.from_spacegroup("Pm-3m", Lattice.cubic(3.9), ["Sr", "Ti", "O"], [[0, 0, 0], [0.5, 0.5, 0.5], [0.5, 0.5, 0]])),
        ("wurtzite", Structure.from_spacegroup("P6_3mc", Lattice.hexagonal(3.25, 5.2), ["Zn", "O"], [[1 / 3, 2 / 3, 0], [1 / 3, 2 / 3, 0.382]])),
        ("fluorite", Structure.from_spacegroup("Fm-3m", Lattice.cubic(5.46), ["Ca", "F"], [[0, 0, 0], [0.25, 0.25, 0.25]])),
        ("rutile", Structure.from_spacegroup("P4_2/mnm", Lattice.tetragonal(4.59, 2.96), ["Ti", "O"], [[0, 0, 0], [0.305, 0.305, 0]])),
        ("spinel-like", Structure(Lattice.cubic(4.1), ["Mg", "Al", "Al", "O", "O", "O", "O"],
                                  [[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0.25, 0.25, 0.25], [0.75, 0.75, 0.25], [0.75, 0.25, 0.75], [0.25, 0.75, 0.75]])),
    ]


def main():
    rng = random.Random(2026_12_04)
    cases, targets = [], {}
    for name, proto in prototypes():
        for mult in ([1, 1, 1], [2, 1, 1], [2, 2, 1]):
            cell = proto.copy()
            cell.make_supercell(mult)
            if len(cell) > 40:
                continue
            target = str(CifWriter(cell))
            target_key = f"{name}-{'x'.join(map(str, mult))}"
            targets[target_key] = target
            for kind in ("shuffled",) * 6 + ("shuffled-jitter", "shuffled-moved"):
                sites = rng.sample(list(cell.sites), len(cell))
                answer = Structure.from_sites(sites)
                if kind == "shuffled-jitter":
                    answer.perturb(0.02)
                elif kind == "shuffled-moved":
                    answer.translate_sites([rng.randrange(len(answer))], [1.2, 0, 0], frac_coords=False)
                answer_cif = str(CifWriter(answer))
                read = parse_first(answer_cif)
                correct, wrong, rms, max_dist = judge(target, f"<cif>\n{answer_cif}\n</cif>")
                cases.append({
                    "id": f"{target_key}-{len(cases)}",
                    "kind": kind,
                    "target": target_key,
                    "answer_cif": answer_cif,
                    "answer_read": {"species": [site.species_string for site in read], "frac": read.frac_coords.tolist()},
                    "expected": {"correct": correct, "wrong_type": wrong, "rmsd": rms, "max_dist": max_dist},
                })
    doc = {
        "source": "scripts/make-atomworld-site-order-goldens.py",
        "pymatgen": pymatgen.core.__version__,
        "environment": BASELINE,
        "targets": targets,
        "cases": cases,
    }
    with open(OUT, "w") as f:
        json.dump(doc, f)
        f.write("\n")
    print(f"{len(cases)} cases -> {OUT}")


if __name__ == "__main__":
    main()
