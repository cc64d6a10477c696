#!/usr/bin/python3
"""Goldens for src/core/analysis/phase-diagram.ts: pymatgen 2022.11 PhaseDiagram on synthetic entries.

Run with Debian's /usr/bin/python3 (python3-pymatgen 2022.11.7). Writes
tests/reference/golden/generations/hull/hull_goldens.json: reference entry sets (binary with degenerate cases, a
one-element system, ternary, quaternary), pymatgen's formation energies per atom and elemental references, and for
query entries pymatgen's get_decomp_and_e_above_hull(entry, allow_negative=True) against the reference entries of the
query's chemical system and its subsystems, as microsoft/mattergen mattergen/evaluation/metrics/energy.py
(_get_phase_diagram) builds it. Energies are synthetic (seeded), so no data licence applies.
"""
import itertools
import json
import os

import numpy as np
import pymatgen
from pymatgen.analysis.phase_diagram import PDEntry, PhaseDiagram
from pymatgen.core import Composition

OUT = os.path.join(os.path.dirname(__file__), "..", "tests", "reference", "golden", "generations", "hull", "hull_goldens.json")


def comp_dict(c):
    return {str(el): float(v) for el, v in Composition(c).items()}


def evaluate(name, refs, queries):
    """refs: list of (composition dict or formula, total energy); queries: same."""
    ref_entries = [PDEntry(Composition(c), e) for c, e in refs]
    index = {id(e): i for i, e in enumerate(ref_entries)}
    full = PhaseDiagram(ref_entries)
    out_refs = []
    for e in ref_entries:
        out_refs.append(
            {
                "composition": comp_dict(e.composition),
                "energy": e.energy,
                "formation_energy_per_atom": full.get_form_energy_per_atom(e),
            }
        )
    el_refs = {str(el): index[id(e)] for el, e in full.el_refs.items()}
    out_q = []
    for c, energy in queries:
        q = PDEntry(Composition(c), energy)
        chemsys = {str(el) for el in q.composition.elements}
        subset = [e for e in ref_entries if {str(el) for el in e.composition.elements} <= chemsys]
        pd = PhaseDiagram(subset)
        decomp, ehull = pd.get_decomp_and_e_above_hull(q, allow_negative=True)
        out_q.append(
            {
                "composition": comp_dict(q.composition),
                "energy": energy,
                "e_above_hull": ehull,
                "hull_energy_per_atom": q.energy_per_atom - ehull,
                "formation_energy_per_atom": pd.get_form_energy_per_atom(q),
                "decomposition": sorted(
                    (
                        {"reference": index.get(id(e)), "formula": e.composition.reduced_formula, "amount": a}
                        for e, a in decomp.items()
                    ),
                    key=lambda d: d["formula"],
                ),
            }
        )
    return {"name": name, "reference": out_refs, "elemental_references": el_refs, "queries": out_q}


def binary():
    # Li-O with an element with two polymorphs, duplicate compositions, a tie, a zero-formation-energy compound,
    # a compound exactly on the hull and an unstable one.
    li, o = -1.9, -4.9
    refs = [
        ({"Li": 1}, li),
        ({"Li": 2}, 2 * -1.85),  # second Li polymorph, higher
        ({"O": 2}, 2 * o),
        ({"Li": 2, "O": 1}, 3 * (2 / 3 * li + 1 / 3 * o - 0.6)),
        ({"Li": 4, "O": 2}, 6 * (2 / 3 * li + 1 / 3 * o - 0.6)),  # same reduced composition, same energy per atom
        ({"Li": 2, "O": 1}, 3 * (2 / 3 * li + 1 / 3 * o - 0.55)),  # duplicate, higher
        ({"Li": 1, "O": 1}, 2 * (0.5 * li + 0.5 * o - 0.5)),
        ({"Li": 1, "O": 2}, 3 * (1 / 3 * li + 2 / 3 * o - 0.1)),  # above the Li2O2-O2 tie line
        ({"Li": 1, "O": 3}, 4 * (0.25 * li + 0.75 * o)),  # zero formation energy
        # exactly between Li2O (x=1/3, -0.6) and LiO (x=1/2, -0.5): x=5/12 -> -0.55
        ({"Li": 7, "O": 5}, 12 * (7 / 12 * li + 5 / 12 * o - 0.55)),
    ]
    queries = [
        ({"Li": 2, "O": 1}, 3 * (2 / 3 * li + 1 / 3 * o - 0.58)),
        ({"Li": 5, "O": 2}, 7 * (5 / 7 * li + 2 / 7 * o - 0.7)),  # below the hull
        ({"Li": 3, "O": 1}, 4 * (0.75 * li + 0.25 * o - 0.3)),
        ({"Li": 1, "O": 4}, 5 * (0.2 * li + 0.8 * o + 0.05)),
        ({"Li": 1}, -1.7),
        ({"O": 3}, 3 * o - 0.3),  # below the O reference
        ({"Li": 7, "O": 5}, 12 * (7 / 12 * li + 5 / 12 * o - 0.55)),  # the on-hull entry itself
        ({"Li": 1, "O": 1}, 2 * (0.5 * li + 0.5 * o - 0.5)),  # a hull vertex's own energy
        ({"Li": 0.5, "O": 0.25}, 0.75 * (2 / 3 * li + 1 / 3 * o - 0.4)),
    ]
    return evaluate("binary Li-O (degenerate cases)", refs, queries)


def unary():
    refs = [({"Si": 2}, -10.8), ({"Si": 8}, 8 * -5.3), ({"Si": 1}, -5.2)]
    queries = [({"Si": 4}, 4 * -5.35), ({"Si": 16}, 16 * -5.2), ({"Si": 1}, -5.4)]
    return evaluate("one element Si", refs, queries)


def random_system(name, elements, n_refs, n_queries, seed, max_count=6):
    rng = np.random.default_rng(seed)
    epa = {el: float(rng.uniform(-9, -1)) for el in elements}
    refs = []
    for el in elements:
        refs.append(({el: 1}, epa[el]))
        refs.append(({el: 2}, 2 * (epa[el] + float(rng.uniform(0.01, 0.3)))))
    def random_entry(form_lo, form_hi):
        k = int(rng.integers(2, len(elements) + 1))
        els = list(rng.choice(elements, size=k, replace=False))
        counts = {str(el): int(rng.integers(1, max_count + 1)) for el in els}
        n = sum(counts.values())
        e_ref = sum(v * epa[el] for el, v in counts.items()) / n
        return counts, n * (e_ref + float(rng.uniform(form_lo, form_hi)))
    for _ in range(n_refs):
        refs.append(random_entry(-1.5, 0.2))
    queries = [random_entry(-1.2, 0.4) for _ in range(n_queries)]
    # compositions of every reference compound with their own energy (on or above the hull)
    queries += [(c, e) for c, e in refs[2 * len(elements):][:10]]
    # a point exactly on a two-phase tie line between two stable compounds (found after the fact below)
    return refs, queries


def with_tie_line(name, elements, n_refs, n_queries, seed):
    refs, queries = random_system(name, elements, n_refs, n_queries, seed)
    pd = PhaseDiagram([PDEntry(Composition(c), e) for c, e in refs])
    stable = [e for e in pd.stable_entries if not e.composition.is_element]
    stable.sort(key=lambda e: (e.composition.reduced_formula, e.energy))
    if len(stable) >= 2:
        a, b = stable[0], stable[1]
        # a + b as one entry: a composition on the a-b tie line at its hull energy (if the tie line lies on the hull)
        c = a.composition + b.composition
        queries.append((comp_dict(c), a.energy + b.energy))
        refs.append((comp_dict(c), a.energy + b.energy))
    return evaluate(name, refs, queries)


def main():
    sets = [
        binary(),
        unary(),
        with_tie_line("ternary Li-Fe-O (random)", ["Li", "Fe", "O"], 40, 40, 1),
        with_tie_line("ternary Na-Cl-S (random)", ["Na", "Cl", "S"], 25, 25, 7),
        with_tie_line("quaternary Li-Fe-P-O (random)", ["Li", "Fe", "P", "O"], 60, 40, 2),
        with_tie_line("quinary Mg-Al-Si-O-N (random)", ["Mg", "Al", "Si", "O", "N"], 60, 25, 3),
    ]
    doc = {
        "source": "pymatgen " + pymatgen.core.__version__ + " PhaseDiagram, scripts/make-hull-goldens.py",
        "sets": sets,
    }
    with open(OUT, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
