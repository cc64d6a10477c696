"""Times numpy/scipy on the free-DOF matrices written by bench/fem.bench.ts (raw float64, row-major):
np.linalg.solve(K_ff, P_f) and the top eigenpair of scipy.linalg.eigh(-Kg_ff, K_ff) (λ_cr = 1/μ_max).
Usage: python3 fem_reference.py DIR N. Prints JSON {solve_ms, buckling_ms, lambda_cr} (medians of 3)."""
import json, sys, time
import numpy as np
import scipy.linalg as sl

d, n = sys.argv[1], int(sys.argv[2])
K = np.fromfile(f"{d}/K.bin").reshape(n, n)
Kg = np.fromfile(f"{d}/Kg.bin").reshape(n, n)
P = np.fromfile(f"{d}/P.bin")

def med(fn):
    ts = []
    for _ in range(3):
        t0 = time.perf_counter(); r = fn(); ts.append((time.perf_counter() - t0) * 1e3)
    return sorted(ts)[1], r

solve_ms, _ = med(lambda: np.linalg.solve(K, P))
buck_ms, (w, v) = med(lambda: sl.eigh(-Kg, K, subset_by_index=[n - 1, n - 1]))
print(json.dumps({"solve_ms": round(solve_ms, 1), "buckling_ms": round(buck_ms, 1), "lambda_cr": 1.0 / w[0]}))
