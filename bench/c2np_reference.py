#!/usr/bin/env python3
"""C2NP task-1 metrics with the upstream definitions (github.com/KurbanIntelligenceLab/C2NP), written from the spec for benchmarking:
index-paired RMSD over 3N coordinates, symmetric Hausdorff (scipy directed_hausdorff), Qhull 'QJ' hull
volumes and their absolute difference, the 128-bin [0, 10] Å density histogram error of pdist, and the
volume ratio. Usage: c2np_reference.py PRED.xyz TRUTH.xyz RADIUS -> one JSON line (with compute_ms)."""
import json
import sys
import time

import numpy as np
from scipy.spatial import ConvexHull
from scipy.spatial.distance import directed_hausdorff, pdist


def read_xyz(path):
    rows = [line.split() for line in open(path, encoding="utf-8").read().splitlines()[2:]]
    rows = [r for r in rows if len(r) >= 4]
    return [r[0] for r in rows], np.array([[float(v) for v in r[1:4]] for r in rows])


def hull_volume(x):
    try:
        return ConvexHull(x, qhull_options="QJ").volume
    except Exception:  # the reported scripts score a Qhull failure as 0
        return 0.0


def rdf_hist(x):
    hist, _ = np.histogram(pdist(x), bins=128, range=(0.0, 10.0), density=True)
    return hist


def metrics(pred, truth, radius):
    rmsd = float(np.sqrt(np.sum((pred - truth) ** 2) / pred.size)) if pred.shape == truth.shape else None
    hausdorff = max(directed_hausdorff(pred, truth)[0], directed_hausdorff(truth, pred)[0])
    vp, vt = hull_volume(pred), hull_volume(truth)
    rdf_error = float(np.sum((rdf_hist(pred) - rdf_hist(truth)) ** 2))
    return {"n_pred": len(pred), "n_truth": len(truth), "rmsd": rmsd, "hausdorff": hausdorff,
            "hull_volume_pred": vp, "hull_volume_truth": vt, "delta_hull_volume": abs(vp - vt),
            "rdf_error": rdf_error, "volume_ratio": vp / (4.0 / 3.0 * np.pi * radius ** 3)}


if __name__ == "__main__":
    _, pred_xyz = read_xyz(sys.argv[1])
    _, truth_xyz = read_xyz(sys.argv[2])
    t0 = time.perf_counter()
    out = metrics(pred_xyz, truth_xyz, float(sys.argv[3]))
    out["compute_ms"] = (time.perf_counter() - t0) * 1000
    print(json.dumps(out))
