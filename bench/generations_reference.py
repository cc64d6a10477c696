"""pymatgen 2022.11 reference for bench/generations.bench.ts (run with Debian's /usr/bin/python3).

  generations_reference.py gen csp|eval [the options of structlab gen csp|eval]

Computes the CSP and de novo metrics the way the upstream scripts do (src/core/tasks/generations/README.md:
txie-93/cdvae and jiaor17/DiffCSP scripts/compute_metrics.py + eval_utils.py, microsoft/mattergen
evaluation/metrics and utils/structure_matcher.py) with pymatgen's own StructureMatcher, CifParser, density
and element data, scipy's wasserstein_distance, and SMACT's smact_validity rules re-implemented over the SMACT
data tables (SMACT is not installed here): the same JSON document as structlab, on stdout. Inputs: a folder of
.cif/.vasp/.poscar/.json files, one .extxyz/.xyz file, one .jsonl file of pymatgen dicts.
Set STRUCTLAB_SMACT_DATA to the folder holding the SMACT tables.
"""
import itertools
import json
import math
import os
import sys
import warnings
from functools import reduce

warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
from scipy.stats import wasserstein_distance  # noqa: E402
from pymatgen.core import Element, Lattice, Structure  # noqa: E402
from pymatgen.io.cif import CifParser  # noqa: E402
from pymatgen.io.vasp import Poscar  # noqa: E402
from pymatgen.analysis.structure_matcher import OrderDisorderElementComparator, StructureMatcher  # noqa: E402

SMACT_DIR = os.environ.get("STRUCTLAB_SMACT_DATA", "")

# ---------------------------------------------------------------- inputs


def normalised(s):
    """Oxidation states dropped (species by atomic number, as the upstream scripts rebuild structures)."""
    return Structure(s.lattice, [Element.from_Z(site.specie.Z) for site in s], s.frac_coords)


def read_file(path):
    low = path.lower()
    if low.endswith(".cif"):
        parser = CifParser(path)
        return in_file_order(parser.get_structures(primitive=False)[0], list(parser._cif.data.values())[0].data)
    if low.endswith(".json"):
        return Structure.from_dict(json.load(open(path)))
    return Poscar.from_file(path, check_for_POTCAR=False).structure


def in_file_order(s, block):
    """CifParser groups sites by species; the sets keep the file's row order (structlab's reader, the goldens' reference),
    which decides StructureMatcher's ties. Each row is mapped to the nearest site (mod 1) of its element."""
    rows = np.array([[float(str(v).split("(")[0]) for v in block[f"_atom_site_fract_{a}"]] for a in "xyz"]).T
    order, used = [], set()
    for r in rows:
        d = s.frac_coords - r
        d = np.linalg.norm(d - np.round(d), axis=1)
        for i in np.argsort(d, kind="stable"):
            if int(i) not in used:
                used.add(int(i))
                order.append(int(i))
                break
    order += [i for i in range(len(s)) if i not in used]
    return Structure(s.lattice, [s[i].species for i in order], [s[i].frac_coords for i in order])


def read_extxyz(path):
    lines = open(path).read().split("\n")
    items, k, frame = [], 0, 0
    while k < len(lines) and lines[k].strip():
        n = int(lines[k])
        head = lines[k + 1]
        lat = [float(x) for x in head.split('Lattice="')[1].split('"')[0].split()]
        ident = str(frame)
        for tok in head.split():
            if tok.startswith("id="):
                ident = tok[3:].strip('"')
        species, coords = [], []
        for row in lines[k + 2 : k + 2 + n]:
            t = row.split()
            species.append(t[0])
            coords.append([float(x) for x in t[1:4]])
        items.append((ident, Structure(Lattice(np.array(lat).reshape(3, 3)), species, coords, coords_are_cartesian=True)))
        k += 2 + n
        frame += 1
    return items


def read_set(path):
    if os.path.isdir(path):
        names = sorted(
            (n for n in os.listdir(path) if not n.startswith(".") and n.lower().endswith((".cif", ".vasp", ".poscar", ".json"))),
            key=lambda n: n[: n.rindex(".")],
        )
        items = [(n[: n.rindex(".")], read_file(os.path.join(path, n))) for n in names]
    elif path.lower().endswith((".extxyz", ".xyz")):
        items = read_extxyz(path)
    else:
        items = []
        for line in open(path):
            if line.strip():
                d = json.loads(line)
                items.append((d["id"], Structure.from_dict(d["structure"])))
    return [(i, normalised(s)) for i, s in items]


# ---------------------------------------------------------------- SMACT (smact_validity with pauling_test)


def smact_tables(table):
    eneg_file = "element_data_v2.5.3.txt" if table == "legacy" else "element_data_v3.2.0.txt"
    ox_file = "oxidation_states.txt" if table == "legacy" else "oxidation_states_icsd24_filtered.txt"
    eneg, ox = {}, {}
    for row in open(os.path.join(SMACT_DIR, eneg_file)):
        if row.startswith("#") or not row.strip():
            continue
        t = row.split()
        eneg[t[0]] = None if t[9] == "None" else float(t[9])
    for row in open(os.path.join(SMACT_DIR, ox_file)):
        if row.startswith("#") or not row.strip():
            continue
        t = row.split()
        ox[t[0]] = [int(x) for x in t[1:]]
    return eneg, ox


METALS = {r.strip() for r in open(os.path.join(SMACT_DIR, "metals.txt")) if r.strip() and not r.startswith("#")} if SMACT_DIR else set()


def pauling_ok(choice, enegs, table):
    for (o1, e1), (o2, e2) in itertools.combinations(zip(choice, enegs), 2):
        missing = e1 is None or e2 is None
        if table == "icsd24" and missing:
            return False
        if (o1 > 0 and o2 < 0) or (o1 < 0 and o2 > 0):
            if missing:
                return True  # legacy: upstream's TypeError, caught as "assume it is okay"
            if (o1 > 0 and e1 >= e2) or (o1 < 0 and e1 <= e2):
                return False
        elif missing:
            return False
    return True


def smact_validity(structure, tables, table, diffcsp_cut):
    eneg, ox = tables
    comp = structure.composition
    els = sorted(comp.elements, key=lambda e: e.Z)
    counts = [int(round(comp[e])) for e in els]
    if len(els) == 1 or all(e.symbol in METALS for e in els):
        return None
    g = reduce(math.gcd, counts)
    n = [c // g for c in counts]
    oxs = [ox.get(e.symbol, []) for e in els]
    enegs = [eneg.get(e.symbol) for e in els]
    if diffcsp_cut and np.prod([len(o) for o in oxs], dtype=float) > 1e7:
        return "oxidation_combinations_over_limit"
    if any(len(o) == 0 for o in oxs):
        return "charge_imbalance"
    # Depth first with charge bounds (an existence test: the same answer as itertools.product).
    m = len(els)
    lo, hi = [0] * (m + 1), [0] * (m + 1)
    for i in range(m - 1, -1, -1):
        lo[i] = lo[i + 1] + n[i] * min(oxs[i])
        hi[i] = hi[i + 1] + n[i] * max(oxs[i])
    neutral = [False]
    choice = [0] * m

    def search(i, charge):
        if i == m:
            if charge != 0:
                return False
            neutral[0] = True
            return pauling_ok(choice, enegs, table)
        for o in oxs[i]:
            c = charge + n[i] * o
            if c + lo[i + 1] > 0 or c + hi[i + 1] < 0:
                continue
            choice[i] = o
            if search(i + 1, c):
                return True
        return False

    if search(0, 0):
        return None
    return "electronegativity" if neutral[0] else "charge_imbalance"


def assess(s, tables, table, diffcsp_cut):
    """CDVAE eval_utils.structure_validity + smact_validity: (nsites, min_distance, struct_valid, comp reason, reasons)."""
    d_min = None
    if len(s) > 1:
        dm = s.distance_matrix.copy()
        np.fill_diagonal(dm, np.inf)
        d_min = float(dm.min())
    reasons = []
    if d_min is not None and d_min < 0.5:
        reasons.append("atoms_too_close")
    if s.volume < 0.1:
        reasons.append("volume_too_small")
    comp = smact_validity(s, tables, table, diffcsp_cut)
    struct_valid = not reasons
    if comp:
        reasons.append(comp)
    return {"nsites": len(s), "min_distance": d_min, "struct_valid": struct_valid, "comp_valid": comp is None, "reasons": reasons}


# ---------------------------------------------------------------- gen csp


def gen_csp(o):
    k_samples = int(o.get("n-samples", 1))
    convention, table = o.get("convention", "diffcsp"), o.get("smact", "legacy")
    tables = smact_tables(table)
    cut = convention == "diffcsp"
    preds, truths = read_set(o["pred"]), read_set(o["truth"])
    groups = {t: [] for t, _ in truths}
    for pid, p in preds:
        tid, k = (pid, 0) if k_samples == 1 else (pid[: pid.rindex("__")], int(pid[pid.rindex("__") + 2 :]))
        groups[tid].append((k, p))
    matcher = StructureMatcher(ltol=0.3, stol=0.5, angle_tol=10)
    gate = convention == "diffcsp" and k_samples == 1
    per_truth, per_sample = [], []
    for tid, t in sorted(truths, key=lambda x: x[0]):
        ta = assess(t, tables, table, cut)
        t_valid = ta["struct_valid"] and ta["comp_valid"]
        best = None
        for k, p in sorted(groups[tid], key=lambda x: x[0]):
            pa = assess(p, tables, table, cut)
            valid = pa["struct_valid"] and pa["comp_valid"]
            reason, rms = None, None
            if not valid:
                reason = pa["reasons"][0]
            elif gate and not t_valid:
                reason = "truth_invalid"
            else:
                try:
                    rms = matcher.get_rms_dist(p, t)
                    if rms is None:
                        reason = "no_match"
                except Exception:
                    reason = "matcher_error"
            row = {
                "id": tid, "sample": k, "nsites": pa["nsites"], "min_distance": pa["min_distance"],
                "struct_valid": pa["struct_valid"], "comp_valid": pa["comp_valid"], "valid": valid, "reason": reason,
                "matched": rms is not None, "rms": None if rms is None else float(rms[0]),
                "max_dist": None if rms is None else float(rms[1]),
            }
            per_sample.append(row)
            if row["rms"] is not None and (best is None or row["rms"] < best["rms"]):
                best = row
        per_truth.append({
            "id": tid, "nsites": len(t), "truth_valid": t_valid, "matched": best is not None,
            "rms": best["rms"] if best else None, "max_dist": best["max_dist"] if best else None,
            "best_sample": best["sample"] if best else None,
        })
    n, npred = len(per_truth), len(per_sample)
    matched = [r["rms"] for r in per_truth if r["rms"] is not None]
    rms_sum = 0.0
    for r in matched:
        rms_sum += r
    return {
        "command": "csp", "convention": convention, "smact": table, "matcher": {"stol": 0.5, "angle_tol": 10, "ltol": 0.3},
        "n": n, "n_samples": k_samples, "n_predictions": npred,
        "match_rate": len(matched) / n if n else 0, "rmse": rms_sum / len(matched) if matched else None,
        "valid_fraction": sum(r["valid"] for r in per_sample) / npred if npred else 0,
        "truth_valid_fraction": sum(r["truth_valid"] for r in per_truth) / n if n else 0,
        "per_truth": per_truth, "per_sample": per_sample,
    }


# ---------------------------------------------------------------- gen eval (MatterGen matchers)

ORDERED = StructureMatcher()
DISORDERED = StructureMatcher(
    ltol=0.2, stol=0.3, angle_tol=5, primitive_cell=True, scale=True, attempt_supercell=True, allow_subset=True,
    comparator=OrderDisorderElementComparator(),
)


def disordered_fit(a, b):
    """MatterGen utils/structure_matcher.py DefaultDisorderedStructureMatcher.fit(a, b) for ordered a, b."""
    if a.composition.reduced_formula != b.composition.reduced_formula:
        return False
    if ORDERED.fit(a, b):
        return True
    els = list(a.composition.elements)
    pairs = []
    for e1, e2 in itertools.combinations(els, 2):
        r1, r2 = e1.atomic_radius, e2.atomic_radius
        if r1 is None or r2 is None:
            continue
        r1, r2 = float(r1), float(r2)
        if abs(r1 - r2) / ((r1 + r2) / 2) <= 0.3 and abs(e1.X - e2.X) <= 1.0:
            pairs.append((e1, e2))
    if not pairs:
        return False
    group = {e: {e} for e in els}
    for e1, e2 in pairs:
        merged = group[e1] | group[e2]
        for e in merged:
            group[e] = merged
    frac = {e: a.composition.get_atomic_fraction(e) for e in els}
    a2 = a.copy()
    for i, site in enumerate(a):
        g = group[site.specie]
        if len(g) > 1:
            total = sum(frac[x] for x in g)
            a2.replace(i, {x: frac[x] / total for x in sorted(g, key=els.index)})
    return DISORDERED.fit(a2, b)


def gen_eval(o):
    convention, table, matcher = o.get("convention", "diffcsp"), o.get("smact", "legacy"), o.get("matcher", "disordered")
    threshold = float(o.get("stability-threshold", 0.1))
    tables = smact_tables(table)
    fit = disordered_fit if matcher == "disordered" else (lambda a, b: ORDERED.fit(a, b))

    def fits(a, b):
        try:
            return fit(a, b)
        except Exception:
            return False

    preds = read_set(o["pred"])
    reference = read_set(o["reference"]) if "reference" in o else None
    truth = read_set(o["truth"]) if "truth" in o else None
    energies = json.load(open(o["e-above-hull"])) if "e-above-hull" in o else None
    rows = []
    for pid, p in preds:
        a = assess(p, tables, table, convention == "diffcsp")
        rows.append({
            "id": pid, "formula": p.composition.reduced_formula, "nsites": len(p), "volume": p.volume,
            "density": float(p.density), "n_elements": len(p.composition.elements), "min_distance": a["min_distance"],
            "struct_valid": a["struct_valid"], "comp_valid": a["comp_valid"], "valid": not a["reasons"], "reasons": a["reasons"],
            "unique": True, "duplicate_of": None, "novel": None, "reference_match": None,
            "e_above_hull": None, "stable": None, "sun": None,
        })
    ref_by_formula = {}
    for rid, r in reference or []:
        ref_by_formula.setdefault(r.composition.reduced_formula, []).append((rid, r))
    kept = {}
    for (pid, p), row in zip(preds, rows):
        for kid, k in kept.get(row["formula"], []):
            if fits(p, k):
                row["unique"], row["duplicate_of"] = False, kid
                break
        if row["unique"]:
            kept.setdefault(row["formula"], []).append((pid, p))
        if reference is not None:
            row["novel"] = True
            for rid, r in ref_by_formula.get(row["formula"], []):
                if fits(p, r):
                    row["novel"], row["reference_match"] = False, rid
                    break
    if energies is not None:
        for row in rows:
            e = energies[row["id"]]
            row["e_above_hull"] = e
            row["stable"] = e is not None and e <= threshold
            row["sun"] = None if row["novel"] is None else bool(row["stable"] and row["unique"] and row["novel"])
    n = len(rows)
    valid = [r for r in rows if r["valid"]]

    def w1(u, v):
        return float(wasserstein_distance(u, v)) if u and v else None

    return {
        "command": "eval", "convention": convention, "smact": table, "matcher": matcher, "stability_threshold": threshold,
        "n": n, "n_valid": len(valid), "n_reference": len(reference) if reference is not None else None,
        "n_truth": len(truth) if truth is not None else None,
        "validity": {
            "structural": sum(r["struct_valid"] for r in rows) / n, "compositional": sum(r["comp_valid"] for r in rows) / n,
            "overall": len(valid) / n,
        },
        "uniqueness": sum(r["unique"] for r in rows) / n,
        "novelty": sum(r["novel"] is True for r in rows) / n if reference is not None else None,
        "unique_novel": sum(r["unique"] and r["novel"] is True for r in rows) / n if reference is not None else None,
        "stable": sum(r["stable"] is True for r in rows) / n if energies is not None else None,
        "sun": sum(r["sun"] is True for r in rows) / n if energies is not None and reference is not None else None,
        "wasserstein": {
            "density": w1([r["density"] for r in valid], [float(t.density) for _, t in truth]) if truth is not None else None,
            "n_elements": (
                w1([r["n_elements"] for r in valid], [len(t.composition.elements) for _, t in truth]) if truth is not None else None
            ),
        },
        "per_sample": rows,
    }


def main(argv):
    if argv[:1] != ["gen"] or argv[1:2] not in (["csp"], ["eval"]):
        sys.exit("usage: generations_reference.py gen csp|eval --pred P ...")
    o = {argv[i][2:]: argv[i + 1] for i in range(2, len(argv) - 1, 2)}
    doc = gen_csp(o) if argv[1] == "csp" else gen_eval(o)
    print(json.dumps(doc))


if __name__ == "__main__":
    main(sys.argv[1:])
