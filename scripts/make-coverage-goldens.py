#!/usr/bin/python3
"""Goldens for Magpie composition features and CDVAE's coverage / diversity metrics.

Usage: MATMINER_SRC=/path/to/matminer-v0.7.3 [CDVAE_SRC=/path/to/cdvae] /usr/bin/python3 scripts/make-coverage-goldens.py

Run with Debian's /usr/bin/python3 (python3-pymatgen 2022.11.7, numpy 1.24, scipy 1.10). MATMINER_SRC is a checkout
of hackingmaterials/matminer at tag v0.7.3 (commit f89a530b; the version txie-93/cdvae env.yml pins), imported through
scripts/support/matminer_v073.py. CDVAE_SRC is a checkout of txie-93/cdvae at f857f59, or its bare git directory
(default /work/.mirror/txie-93+cdvae/repo, read with `git show f857f59:<path>`). Takes a few minutes (CrystalNN).

From CDVAE's source text, without importing its package (eval_utils imports torch, hydra and smact), this script execs:
cdvae/common/constants.py (CompScalerMeans, CompScalerStds), the class StandardScaler of cdvae/common/data_utils.py,
filter_fps, compute_cov and get_fp_pdist of scripts/eval_utils.py, and COV_Cutoffs of scripts/compute_metrics.py; it
builds CompScaler as eval_utils does (replace_nan_token=0.). Every metric below is those functions' output.

Writes
  * src/core/tasks/generations/cdvae-comp-scaler.json: CompScalerMeans and CompScalerStds (132 each), as Python reads
    the literals.
  * tests/reference/golden/generations/coverage.json:
    - labels: ElementProperty.from_preset('magpie').feature_labels();
    - magpie: [{name, composition: [[symbol, amount], ...], features}]: featurize(Composition) for the reduced
      formula of each of the first MP20_ROWS rows of sources/mp20_rows.csv (distinct formulas, CIF read with
      CifParser) and edge cases (single elements, noble gases, elements missing from the tables, heavy actinides,
      Z > 103, many elements, large and nearly tied counts, one composition in several orders). `composition` is
      comp.element_composition.items(): the elements and amounts matminer weighs, in its order;
    - synthetic: compute_cov on small fingerprint arrays (None rows, NaN, distances exactly at the cutoffs and one ulp
      above) and get_fp_pdist: inputs (raw composition fingerprints), metrics, combined_dist_dict;
    - real: predictions = denovo_visible/pred (329 files, read as scripts/make-sg-goldens.py reads them: sorted by
      id), truths = denovo_visible/truth.extxyz (150). Each structure is rebuilt from its atomic numbers, lattice and
      fractional coordinates (CDVAE builds Structure(lattice, atom_types, frac_coords)); per structure:
      composition (Counter(atom_types) in site order, as CDVAE's Crystal.get_fingerprints builds it), comp_fp =
      CompFP.featurize(Composition(Counter(atom_types))) and struct_fp = the mean over sites of
      CrystalNNFingerprint.from_preset("ops").featurize(structure, i), or null with the exception text when that
      raises (CDVAE then sets both fingerprints to None; comp_fp is kept here for the Magpie check). Cells under
      MIN_VOLUME = 0.1 Å³ (the three `collapsed-*` predictions, 0.01-0.07 Å³) are not fingerprinted: struct_fp null,
      skipped true and the reason in error. Upstream would try (its Crystal computes fingerprints also for cells it
      flags unrealistically_small_lattice) and pymatgen does not finish in half an hour on them; they enter
      compute_cov as crystals without fingerprints, as one whose fingerprint raised would. valid = the
      per_sample valid of denovo_visible/expected.json's first run (gen eval, diffcsp convention) and a structure
      fingerprint (CDVAE marks a crystal whose fingerprint raises invalid). Metrics: compute_cov(preds, truths) for
      every COV_Cutoffs entry (with combined_dist_dict for mp20), comp_div = get_fp_pdist(CompScaler.transform(valid
      comp fps)), struct_div = get_fp_pdist(valid struct fps); all valid predictions, where CDVAE samples 1000.
Floats are written with Python's repr (exact); NaN as null.
"""
import ast
import csv
import importlib.util
import json
import math
import os
import subprocess
import sys
import time
import warnings
from collections import Counter

warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
from scipy.spatial.distance import cdist, pdist  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "tests/reference/golden/generations")
OUT = os.path.join(GEN, "coverage.json")
SCALER_OUT = os.path.join(ROOT, "src/core/tasks/generations/cdvae-comp-scaler.json")
CDVAE_COMMIT = "f857f59"
MP20_ROWS = 300
# Cells below CDVAE's own "unrealistically_small_lattice" volume (Å³) are not fingerprinted: pymatgen's CrystalNN
# would search the 7 Å sphere of a 0.01 Å³ cell (~1e6 neighbours per site) for hours.
MIN_VOLUME = 0.1


def cdvae_text(path):
    src = os.environ.get("CDVAE_SRC", "/work/.mirror/txie-93+cdvae/repo")
    if os.path.isfile(os.path.join(src, path)):
        with open(os.path.join(src, path), encoding="utf-8") as f:
            return f.read()
    return subprocess.run(["git", "--git-dir", src, "show", f"{CDVAE_COMMIT}:{path}"], check=True,
                          capture_output=True, text=True).stdout


def top_level(text, names):
    """The source of the named top-level functions, classes and assignments of a module's text."""
    tree = ast.parse(text)
    found = {}
    for node in tree.body:
        name = getattr(node, "name", None)
        if name is None and isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
        if name in names:
            found[name] = ast.get_source_segment(text, node)
    missing = set(names) - set(found)
    if missing:
        sys.exit(f"not found in CDVAE's source: {sorted(missing)}")
    return "\n\n".join(found[n] for n in names)


def load_cdvae():
    ns = {"np": np, "cdist": cdist, "pdist": pdist}
    exec(cdvae_text("cdvae/common/constants.py"), ns)
    exec(top_level(cdvae_text("cdvae/common/data_utils.py"), ["StandardScaler"]), ns)
    ns["CompScaler"] = ns["StandardScaler"](means=np.array(ns["CompScalerMeans"]), stds=np.array(ns["CompScalerStds"]),
                                            replace_nan_token=0.)
    exec(top_level(cdvae_text("scripts/eval_utils.py"), ["get_fp_pdist", "filter_fps", "compute_cov"]), ns)
    exec(top_level(cdvae_text("scripts/compute_metrics.py"), ["COV_Cutoffs"]), ns)
    return ns


class Crys:
    """What compute_cov reads of CDVAE's Crystal."""

    def __init__(self, struct_fp, comp_fp):
        self.struct_fp = struct_fp
        self.comp_fp = comp_fp


def clean(x):
    """JSON-ready: floats exact (repr), NaN → null, numpy → Python."""
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [clean(v) for v in x]
    if x is None or isinstance(x, (str, bool)):
        return x
    if isinstance(x, (np.bool_,)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    x = float(x)
    return None if math.isnan(x) else x


def magpie_case(ep, name, comp):
    items = list(comp.element_composition.items())
    return {"name": name, "composition": [[e.symbol, float(a)] for e, a in items], "features": clean(ep.featurize(comp))}


def magpie_cases(ep):
    from pymatgen.core import Composition
    from pymatgen.io.cif import CifParser

    cases, seen = [], set()
    with open(os.path.join(GEN, "sources/mp20_rows.csv"), newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))[:MP20_ROWS]
    for row in rows:
        s = CifParser.from_string(row["cif"]).get_structures(primitive=False)[0]
        formula = s.composition.reduced_formula
        if formula not in seen:
            seen.add(formula)
            cases.append(magpie_case(ep, f"mp20 {row['material_id']} {formula}", Composition(formula)))
    n_mp20 = len(cases)
    edge = [
        # single elements, noble gases, elements missing from some tables (NaN features), heavy actinides, Z > 103
        *[(f"element {e}", {e: 1}) for e in ["H", "He", "Li", "C", "O", "Fe", "Ne", "Ar", "Kr", "Xe", "Rn", "Tc", "Pm",
                                              "At", "Fr", "Ra", "Ac", "Th", "U", "Pu", "Am", "Bk", "Cf", "Es", "Fm",
                                              "Md", "No", "Lr", "Rf", "Db", "Cn", "Og"]],
        ("element Fe 4 atoms", {"Fe": 4}),
        ("noble XeF2", {"Xe": 1, "F": 2}), ("noble KrF2", {"Kr": 1, "F": 2}), ("noble HeNa2", {"Na": 2, "He": 1}),
        ("noble ArClH", {"Ar": 1, "Cl": 1, "H": 1}), ("missing LiHe", {"Li": 1, "He": 1}),
        ("missing RnF2", {"Rn": 1, "F": 2}), ("missing FrAt", {"Fr": 1, "At": 1}),
        ("actinide Es2O3", {"Es": 2, "O": 3}), ("actinide CfO2", {"Cf": 1, "O": 2}), ("actinide BkN", {"Bk": 1, "N": 1}),
        ("actinide NoLr", {"No": 1, "Lr": 1}), ("actinide UO2", {"U": 1, "O": 2}), ("actinide PuGa3", {"Pu": 1, "Ga": 3}),
        ("superheavy RfO2", {"Rf": 1, "O": 2}), ("superheavy Og Li", {"Og": 1, "Li": 3}),
        ("hydride LiH", {"Li": 1, "H": 1}), ("hydrogen H2O", {"H": 2, "O": 1}), ("hydrogen CH4", {"C": 1, "H": 4}),
        # mode: ties (equal counts take the smallest value), np.isclose ties of large counts, near misses
        ("tie NaCl", {"Na": 1, "Cl": 1}), ("tie Cl Na order", {"Cl": 1, "Na": 1}),
        ("tie three equal", {"O": 4, "Fe": 4, "Li": 4}),
        ("large counts 100000 99999 (isclose tie)", {"Li": 100000, "O": 99999}),
        ("large counts 99999 100000", {"O": 99999, "Li": 100000}),
        ("large counts 10000 9999 (no tie)", {"Li": 10000, "O": 9999}),
        ("large counts 1e9", {"Si": 1000000000, "O": 2000000000}),
        ("large counts 1e9 tie", {"Si": 1000000007, "O": 1000000000}),
        ("counts 7 11 13", {"Ba": 7, "Ti": 11, "O": 13}),
        ("counts 1 2 3 5 8", {"K": 1, "Mg": 2, "Al": 3, "Si": 5, "O": 8}),
        # one composition in several orders (float sums follow the order)
        ("order Li4Fe4P4O16", {"Li": 4, "Fe": 4, "P": 4, "O": 16}),
        ("order O16P4Fe4Li4", {"O": 16, "P": 4, "Fe": 4, "Li": 4}),
        ("order Fe4O16Li4P4", {"Fe": 4, "O": 16, "Li": 4, "P": 4}),
        ("order Ca3Al2Si3O12", {"Ca": 3, "Al": 2, "Si": 3, "O": 12}),
        ("order O12Si3Al2Ca3", {"O": 12, "Si": 3, "Al": 2, "Ca": 3}),
        # many elements: numpy's 8-way pairwise sum starts at 8 values
        ("seven elements", {"Li": 1, "Na": 2, "K": 3, "Rb": 4, "Cs": 5, "F": 6, "Cl": 7}),
        ("eight elements", {"Li": 3, "Na": 1, "K": 4, "Rb": 1, "Cs": 5, "F": 9, "Cl": 2, "Br": 6}),
        ("nine elements", {"Ti": 5, "V": 3, "Cr": 5, "Mn": 8, "Fe": 9, "Co": 7, "Ni": 9, "Cu": 3, "O": 2}),
        ("high entropy 17", {e: k + 1 for k, e in enumerate(["Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn",
                                                              "Y", "Zr", "Nb", "Mo", "Hf", "Ta", "W"])}),
        ("twenty elements with He and Rn", {e: 1 + (k * 7) % 5 for k, e in enumerate(
            ["He", "Li", "Be", "B", "C", "N", "O", "F", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "K", "Ca", "Rn", "Ga",
             "Ge"])}),
    ]
    for name, amounts in edge:
        comp = Composition(Counter(amounts))
        cases.append(magpie_case(ep, name, comp))
    return cases, n_mp20


def exactly_at(value, mean, std):
    """A raw x with (x − mean) / std == value exactly in float64, searching ulps around mean + value·std."""
    x = mean + value * std
    for _ in range(64):
        t = (x - mean) / std
        if t == value:
            return x
        x = np.nextafter(x, np.inf if t < value else -np.inf)
    sys.exit(f"no raw value scales to exactly {value}")


def synthetic_cases(cdvae, comp_pool):
    """Small fingerprint sets: random ones with None rows and NaN, and distances exactly at the cutoffs."""
    rng = np.random.RandomState(20240601)
    means, stds = cdvae["CompScalerMeans"], cdvae["CompScalerStds"]
    cases = []

    def comp_fp():
        fp = list(comp_pool[rng.randint(len(comp_pool))])
        return [None if v is None else round(v + rng.normal() * abs(v) * 0.05, 3) for v in fp]

    def struc_fp(d=61):
        return [round(float(v), 3) for v in rng.random_sample(d) * (rng.random_sample(d) < 0.4)]

    def run(name, preds, truths, cutoffs, note):
        p_crys = [Crys(None if s is None else np.array(s, dtype=float), None if c is None else [np.nan if v is None else v for v in c])
                  for s, c in preds]
        t_crys = [Crys(np.array(s, dtype=float), [np.nan if v is None else v for v in c]) for s, c in truths]
        out = {"name": name, "note": note, "pred_struct": [s for s, _ in preds], "pred_comp": [c for _, c in preds],
               "truth_struct": [s for s, _ in truths], "truth_comp": [c for _, c in truths], "results": []}
        for key, cut in cutoffs.items():
            metrics, dists = cdvae["compute_cov"](p_crys, t_crys, struc_cutoff=cut["struc"], comp_cutoff=cut["comp"])
            out["results"].append({"cutoffs": key, "struc_cutoff": cut["struc"], "comp_cutoff": cut["comp"],
                                   "metrics": clean(metrics), "distances": clean(dists)})
        kept = [c for c in p_crys if c.struct_fp is not None and c.comp_fp is not None]
        out["struct_div"] = clean(cdvae["get_fp_pdist"]([c.struct_fp for c in kept]))
        out["comp_div"] = clean(cdvae["get_fp_pdist"](cdvae["CompScaler"].transform([c.comp_fp for c in kept])))
        cases.append(clean(out))

    def near(truth):
        """A prediction close to a truth: some land within the cutoffs, some just outside."""
        s, c = truth
        sn, cn = rng.uniform(0.005, 0.08), rng.uniform(0.0, 0.15)
        s2 = [round(min(1.0, max(0.0, v + rng.normal() * sn)), 3) for v in s]
        c2 = [None if v is None else round(v + rng.normal() * abs(v) * cn, 3) for v in c]
        return s2, c2

    cov = cdvae["COV_Cutoffs"]
    # (1) random, half the predictions near a truth, with prediction rows lacking one or both fingerprints
    truths = [(struc_fp(), comp_fp()) for _ in range(30)]
    preds = []
    for k in range(40):
        s, c = near(truths[k % 30]) if k % 2 == 0 else (struc_fp(), comp_fp())
        preds.append((None if k % 9 == 4 else s, None if k % 13 == 7 else c))
    run("random 40 x 30", preds, truths, cov, "predictions 4, 13, 22, 31 lack struct_fp, 7, 20, 33 comp_fp")

    # (2) NaN in structure fingerprints: rows and columns whose distances are NaN
    preds = [(struc_fp(8), comp_fp()) for _ in range(6)]
    truths = [(struc_fp(8), comp_fp()) for _ in range(5)]
    preds[2][0][3] = float("nan")
    truths[4][0][0] = float("nan")
    run("NaN in structure fingerprints", [(list(s), c) for s, c in preds], [(list(s), c) for s, c in truths], cov,
        "prediction 2 and truth 4 carry a NaN: their distances, minima and the means are NaN")

    # (3) exactly at the cutoffs: one coordinate differs by the cutoff (structure) or scales to it (composition)
    base_c = comp_fp()
    base_s = struc_fp(10)
    at_comp = {}
    for value in (10.0, 4.0):
        k = 5
        c = list(base_c)
        c[k] = float(exactly_at(value, means[k], stds[k]))
        at_comp[value] = (k, c)
    truths = []
    preds = []
    for idx, (struc_cut, comp_cut) in enumerate(((0.4, 10.0), (0.2, 4.0))):
        k, comp_at = at_comp[comp_cut]
        t_comp = list(base_c)
        t_comp[k] = None  # NaN: scaled to 0, so the scaled distance is exactly comp_cut
        s_t = list(base_s)
        s_t[2] = 0.0
        s_t[9] = 5.0 * idx  # the two truths far apart in structure
        s_at = list(s_t)
        s_at[2] = struc_cut
        s_over = list(s_t)
        s_over[2] = float(np.nextafter(struc_cut, 1.0))
        truths.append((s_t, t_comp))
        preds.append((s_at, comp_at))
        preds.append((s_over, comp_at))
    far = ([1.0] * 10, comp_fp())
    truths.append(far)
    preds.append((list(base_s), comp_fp()))
    run("ties at the cutoffs", preds, truths, cov,
        "prediction 0 is exactly at the mp20 cutoffs from truth 0 (struc 0.4, scaled comp 10), 1 one ulp above in "
        "struc; 2 and 3 the same for carbon/perovskite (0.2, 4) from truth 1")

    # (4) one prediction with fingerprints among many without: cov_precision counts all predictions
    preds = [(None, None)] * 5 + [(struc_fp(), comp_fp())] + [(None, comp_fp())] * 3
    truths = [(struc_fp(), comp_fp()) for _ in range(3)]
    run("mostly missing", preds, truths, {"mp20": cov["mp20"]}, "8 of 9 predictions lack a fingerprint")

    # (5) more than 8192 pairs for get_fp_pdist and more than 128 minima: numpy's blocked pairwise sums
    truths = [(struc_fp(), comp_fp()) for _ in range(135)]
    preds = [near(truths[k]) if k < 100 else (struc_fp(), comp_fp()) for k in range(140)]
    run("140 x 135", preds, truths, {"mp20": cov["mp20"]}, "9,730 pairs for the diversity means")
    return cases


def real_set(cdvae, ep, site):
    from pymatgen.core import Composition, Structure

    spec = importlib.util.spec_from_file_location("sg_goldens", os.path.join(ROOT, "scripts", "make-sg-goldens.py"))
    sg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sg)
    crystal_nn_fp = site.CrystalNNFingerprint.from_preset("ops")
    expected = json.load(open(os.path.join(GEN, "denovo_visible/expected.json"), encoding="utf-8"))
    first = expected["runs"][0]
    assert first["output"]["convention"] == "diffcsp", first["name"]
    valid = {r["id"]: r["valid"] for r in first["output"]["per_sample"]}

    def rows(path):
        out = []
        for ident, s0 in sg.structures(os.path.join(GEN, path)):
            atom_types = [site.specie.Z for site in s0]
            s = Structure(s0.lattice, atom_types, s0.frac_coords)
            counter = Counter(atom_types)
            comp = Composition(counter)
            row = {"id": ident,
                   "composition": [[e.symbol, float(a)] for e, a in comp.element_composition.items()],
                   "comp_fp": ep.featurize(comp)}
            if s.volume < MIN_VOLUME:
                row["struct_fp"] = None
                row["error"] = (f"not computed: the cell's volume is {s.volume:.3g} Å³ (< {MIN_VOLUME}, CDVAE's "
                                "unrealistically_small_lattice); CrystalNN would search ~1e5-1e6 neighbours per site")
                row["skipped"] = True
                out.append(row)
                continue
            try:
                site_fps = [crystal_nn_fp.featurize(s, i) for i in range(len(s))]
                row["struct_fp"] = np.array(site_fps).mean(axis=0)
            except Exception as e:  # noqa: BLE001 - as CDVAE's Crystal.get_fingerprints
                row["struct_fp"] = None
                row["error"] = f"{type(e).__name__}: {e}"[:300]
            out.append(row)
            if len(out) % 50 == 0:
                print(f"{path}: {len(out)} structures", file=sys.stderr, flush=True)
        return out

    t = time.time()
    preds = rows("denovo_visible/pred")
    truths = rows("denovo_visible/truth.extxyz")
    print(f"fingerprints: {time.time() - t:.0f} s", file=sys.stderr)
    assert [p["id"] for p in preds] == [r["id"] for r in first["output"]["per_sample"]]
    if any(r["struct_fp"] is None for r in truths):
        sys.exit("a truth structure has no fingerprint: compute_cov cannot run on this set")
    for p in preds:
        p["valid"] = bool(valid[p["id"]] and p["struct_fp"] is not None)

    p_crys = [Crys(p["struct_fp"], p["comp_fp"] if p["struct_fp"] is not None else None) for p in preds]
    t_crys = [Crys(r["struct_fp"], r["comp_fp"]) for r in truths]
    results = {}
    for key, cut in cdvae["COV_Cutoffs"].items():
        metrics, dists = cdvae["compute_cov"](p_crys, t_crys, struc_cutoff=cut["struc"], comp_cutoff=cut["comp"])
        results[key] = {"struc_cutoff": cut["struc"], "comp_cutoff": cut["comp"], "metrics": clean(metrics)}
        if key == "mp20":
            results[key]["distances"] = clean(dists)
    valid_crys = [c for c, p in zip(p_crys, preds) if p["valid"]]
    comp_div = cdvae["get_fp_pdist"](cdvae["CompScaler"].transform([c.comp_fp for c in valid_crys]))
    struct_div = cdvae["get_fp_pdist"]([c.struct_fp for c in valid_crys])
    return {
        "note": "predictions: denovo_visible/pred sorted by id; truths: denovo_visible/truth.extxyz; valid = expected.json "
                "run 0 per_sample valid (diffcsp) and a structure fingerprint; a prediction with struct_fp null enters "
                "compute_cov with both fingerprints None",
        "n_pred": len(preds), "n_truth": len(truths), "n_valid": len(valid_crys),
        "n_without_fingerprint": sum(p["struct_fp"] is None for p in preds),
        "n_skipped": sum(bool(p.get("skipped")) for p in preds),
        "coverage": results,
        "comp_div": clean(comp_div), "struct_div": clean(struct_div),
        "pred": [clean(p) for p in preds], "truth": [clean(r) for r in truths],
    }


def write_scaler(cdvae):
    out = {
        "source": f"txie-93/cdvae {CDVAE_COMMIT} cdvae/common/constants.py CompScalerMeans, CompScalerStds (MIT); "
                  "scripts/make-coverage-goldens.py",
        "means": [float(v) for v in cdvae["CompScalerMeans"]],
        "stds": [float(v) for v in cdvae["CompScalerStds"]],
    }
    assert len(out["means"]) == len(out["stds"]) == 132
    with open(SCALER_OUT, "w", encoding="utf-8") as f:
        f.write(json.dumps(out) + "\n")


def dump(obj):
    """Compact lines: one array of numbers per line, so the file stays diffable and small."""
    return json.dumps(obj, separators=(",", ":"))


def main():
    if not os.environ.get("MATMINER_SRC"):
        sys.exit(__doc__)
    sys.path.insert(0, os.path.join(ROOT, "scripts", "support"))
    import matminer_v073  # noqa: E402

    site, composition = matminer_v073.load()
    import pymatgen.core  # noqa: E402

    cdvae = load_cdvae()
    write_scaler(cdvae)
    ep = composition.ElementProperty.from_preset("magpie")
    magpie, n_mp20 = magpie_cases(ep)
    print(f"magpie: {len(magpie)} compositions ({n_mp20} MP-20 formulas)", file=sys.stderr)
    pool = [c["features"] for c in magpie[:n_mp20]]
    synthetic = synthetic_cases(cdvae, pool)
    real = real_set(cdvae, ep, site)

    head = {
        "source": "scripts/make-coverage-goldens.py: matminer v0.7.3 ElementProperty.from_preset('magpie') and "
                  "CrystalNNFingerprint.from_preset('ops'); txie-93/cdvae f857f59 compute_cov, get_fp_pdist, CompScaler",
        "pymatgen": pymatgen.core.__version__, "numpy": np.__version__,
        "scipy": __import__("scipy").__version__,
        "labels": ep.feature_labels(),
    }
    parts = [dump(head)[:-1]]
    parts.append('"magpie":[\n' + ",\n".join(dump(c) for c in magpie) + "\n]")
    parts.append('"synthetic":[\n' + ",\n".join(dump(c) for c in synthetic) + "\n]")
    real_rows = {k: real.pop(k) for k in ("pred", "truth")}
    real_head = dump(real)[:-1]
    real_text = real_head + "," + ",".join(
        f'"{k}":[\n' + ",\n".join(dump(r) for r in rows) + "\n]" for k, rows in real_rows.items()) + "}"
    parts.append('"real":' + real_text)
    text = ",\n".join(parts) + "}\n"
    json.loads(text)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"{OUT}: {os.path.getsize(OUT)} bytes", file=sys.stderr)
    summary = {"mp20": real["coverage"]["mp20"]["metrics"], "comp_div": real["comp_div"], "struct_div": real["struct_div"]}
    print(json.dumps(summary, indent=1), file=sys.stderr)


if __name__ == "__main__":
    main()
