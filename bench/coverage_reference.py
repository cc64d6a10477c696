#!/usr/bin/python3
"""The Python reference of bench/coverage.bench.ts: CDVAE's coverage as txie-93/cdvae scripts/compute_metrics.py
computes it, with pymatgen 2022.11 and matminer v0.7.3 (MATMINER_SRC, see scripts/support/matminer_v073.py).

usage: coverage_reference.py PRED.jsonl TRUTH.jsonl STRUC_CUTOFF COMP_CUTOFF
Each line of the JSONL files is {"id": ..., "structure": <pymatgen Structure dict>}. Per crystal:
Crystal.get_fingerprints (the Magpie ElementProperty of Counter(atom_types), the mean over sites of
CrystalNNFingerprint.from_preset("ops"), None for both when a site's fingerprint raises), then compute_cov with
CDVAE's CompScaler (cdvae/common/constants.py, read from src/core/tasks/generations/cdvae-comp-scaler.json).
Prints the metrics and the number of crystals without fingerprints as JSON.
"""
import json
import os
import sys
import warnings
from collections import Counter

warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
from pymatgen.core import Composition, Structure  # noqa: E402
from scipy.spatial.distance import cdist  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts", "support"))
import matminer_v073  # noqa: E402

site_featurizers, composition_featurizers = matminer_v073.load()
STRUCTURE_FP = site_featurizers.CrystalNNFingerprint.from_preset("ops")
COMPOSITION_FP = composition_featurizers.ElementProperty.from_preset("magpie")
with open(os.path.join(HERE, "..", "src", "core", "tasks", "generations", "cdvae-comp-scaler.json")) as f:
    SCALER = json.load(f)
MEANS = np.array(SCALER["means"])
STDS = np.array(SCALER["stds"])


def fingerprints(structure):
    """compute_metrics.py Crystal.get_fingerprints."""
    comp_fp = COMPOSITION_FP.featurize(Composition(Counter(site.specie.Z for site in structure)))
    try:
        site_fps = [STRUCTURE_FP.featurize(structure, i) for i in range(len(structure))]
    except Exception:
        return None, None
    return np.array(site_fps).mean(axis=0), comp_fp


def scale(x):
    """eval_utils.py CompScaler: StandardScaler(means, stds, replace_nan_token=0.).transform."""
    t = (np.array(x).astype(float) - MEANS) / STDS
    return np.where(np.isnan(t), 0.0, t)


def read(path):
    with open(path) as f:
        return [Structure.from_dict(json.loads(line)["structure"]) for line in f if line.strip()]


def main():
    pred_path, truth_path, struc_cutoff, comp_cutoff = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
    preds = [fingerprints(s) for s in read(pred_path)]
    truths = [fingerprints(s) for s in read(truth_path)]
    n_pred = len(preds)
    kept = [(s, c) for s, c in preds if s is not None and c is not None]
    # eval_utils.py compute_cov, the number of crystals before filtering dividing cov_precision.
    struc = cdist(np.array([s for s, _ in kept]), np.array([s for s, _ in truths]))
    comp = cdist(scale([c for _, c in kept]), scale([c for _, c in truths]))
    struc_recall, struc_precision = struc.min(axis=0), struc.min(axis=1)
    comp_recall, comp_precision = comp.min(axis=0), comp.min(axis=1)
    out = {
        "cov_recall": float(np.mean(np.logical_and(struc_recall <= struc_cutoff, comp_recall <= comp_cutoff))),
        "cov_precision": float(np.sum(np.logical_and(struc_precision <= struc_cutoff, comp_precision <= comp_cutoff)) / n_pred),
        "amsd_recall": float(np.mean(struc_recall)),
        "amsd_precision": float(np.mean(struc_precision)),
        "amcd_recall": float(np.mean(comp_recall)),
        "amcd_precision": float(np.mean(comp_precision)),
        "without_fingerprints": n_pred - len(kept),
    }
    print(json.dumps(out))


main()
