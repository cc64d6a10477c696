"""The FEM-Bench numpy/scipy reference of MSA_3D_elastic_critical_load (elejeune11/FEM-bench,
tasks/MSA_3D_elastic_critical_load_CC1_H10_T1.py; the pipeline of src/core/tasks/fembench/README.md's tasks,
written here from its description): dense K and K_g assembled element by element, np.linalg.cond on K_ff
before np.linalg.solve, both free-DOF matrices symmetrised and checked with np.linalg.cond, scipy.linalg.eig
(QZ) of the pencil, the realness test, each vector de-phased so its largest entry is real and positive, the
smallest positive λ above max(1e-12, 1000·eps·max|λ|).
Usage: python3 fem_cli_reference.py CASES.json — prints {"results": [{"output": [λ, mode]}]} as `structlab fem run`
does. bench/fem-cli.bench.ts times this whole process against the CLI's."""
import json
import sys

import numpy as np
import scipy.linalg


def gamma(p, q, ref):
    d = q - p
    ex = d / np.sqrt(d @ d)
    if ref is None:
        ref = np.array([0.0, 1.0, 0.0]) if np.isclose(ex[0], 0) and np.isclose(ex[1], 0) else np.array([0.0, 0.0, 1.0])
    ey = np.cross(ref, ex)
    ey /= np.linalg.norm(ey)
    ez = np.cross(ex, ey)
    return np.kron(np.eye(4), np.vstack((ex, ey, ez)))


def k_local(e, L):
    E, A, Iy, Iz, J = e["E"], e["A"], e["I_y"], e["I_z"], e["J"]
    G = E / (2 * (1 + e["nu"]))
    k = np.zeros((12, 12))
    def put(i, j, v):
        k[i, j] = k[j, i] = v
    for a, b, s in ((0, 6, E * A / L), (3, 9, G * J / L)):
        put(a, a, s); put(b, b, s); put(a, b, -s)
    for (v1, r1, v2, r2, I, sg) in ((1, 5, 7, 11, Iz, 1), (2, 4, 8, 10, Iy, -1)):
        put(v1, v1, 12 * E * I / L**3); put(v2, v2, 12 * E * I / L**3); put(v1, v2, -12 * E * I / L**3)
        put(v1, r1, sg * 6 * E * I / L**2); put(v1, r2, sg * 6 * E * I / L**2)
        put(r1, v2, -sg * 6 * E * I / L**2); put(v2, r2, -sg * 6 * E * I / L**2)
        put(r1, r1, 4 * E * I / L); put(r2, r2, 4 * E * I / L); put(r1, r2, 2 * E * I / L)
    return k


def k_geometric(L, A, Irho, Fx2, Mx2, My1, Mz1, My2, Mz2):
    k = np.zeros((12, 12))
    def put(i, j, v):
        k[i, j] = k[j, i] = v
    put(0, 0, Fx2 / L); put(6, 6, Fx2 / L); put(0, 6, -Fx2 / L)
    for d in (1, 2, 7, 8):
        put(d, d, 6 * Fx2 / (5 * L))
    put(3, 3, Fx2 * Irho / (A * L)); put(9, 9, Fx2 * Irho / (A * L)); put(3, 9, -Fx2 * Irho / (A * L))
    for d in (4, 5, 10, 11):
        put(d, d, 2 * Fx2 * L / 15)
    for i, j, v in (
        (1, 3, My1 / L), (1, 4, Mx2 / L), (1, 5, Fx2 / 10), (1, 7, -6 * Fx2 / (5 * L)), (1, 9, My2 / L),
        (1, 10, -Mx2 / L), (1, 11, Fx2 / 10), (2, 3, Mz1 / L), (2, 4, -Fx2 / 10), (2, 5, Mx2 / L),
        (2, 8, -6 * Fx2 / (5 * L)), (2, 9, Mz2 / L), (2, 10, -Fx2 / 10), (2, 11, -Mx2 / L),
        (3, 4, -(2 * Mz1 - Mz2) / 6), (3, 5, (2 * My1 - My2) / 6), (3, 7, -My1 / L), (3, 8, -Mz1 / L),
        (3, 10, -(Mz1 + Mz2) / 6), (3, 11, (My1 + My2) / 6), (4, 7, -Mx2 / L), (4, 8, Fx2 / 10),
        (4, 9, -(Mz1 + Mz2) / 6), (4, 10, -Fx2 * L / 30), (4, 11, Mx2 / 2), (5, 7, -Fx2 / 10), (5, 8, -Mx2 / L),
        (5, 9, (My1 + My2) / 6), (5, 10, -Mx2 / 2), (5, 11, -Fx2 * L / 30), (7, 9, -My2 / L), (7, 10, Mx2 / L),
        (7, 11, -Fx2 / 10), (8, 9, -Mz2 / L), (8, 10, Fx2 / 10), (8, 11, Mx2 / L), (9, 10, (Mz1 - 2 * Mz2) / 6),
        (9, 11, -(My1 - 2 * My2) / 6),
    ):
        put(i, j, v)
    return k


def critical_load(xyz, elements, bcs, loads):
    n = 6 * len(xyz)
    K = np.zeros((n, n))
    parts = []
    for e in elements:
        p, q = xyz[e["node_i"]], xyz[e["node_j"]]
        L = np.linalg.norm(q - p)
        G = gamma(p, q, None if e.get("local_z") is None else np.asarray(e["local_z"], dtype=float))
        kl = k_local(e, L)
        dofs = list(range(6 * e["node_i"], 6 * e["node_i"] + 6)) + list(range(6 * e["node_j"], 6 * e["node_j"] + 6))
        K[np.ix_(dofs, dofs)] += G.T @ kl @ G
        parts.append((e, L, G, kl, dofs))
    P = np.zeros(n)
    for node, f in loads.items():
        P[6 * node:6 * node + 6] += np.asarray(f, dtype=float)
    fixed = [6 * node + d for node in range(len(xyz)) for d, f in enumerate(bcs.get(node, [])) if f]
    free = np.setdiff1d(np.arange(n), fixed)
    Kff = K[np.ix_(free, free)]
    c = np.linalg.cond(Kff)
    if not c < 1e16:
        raise ValueError(f"Cannot solve system: stiffness matrix is ill-conditioned (cond={c:.2e})")
    u = np.zeros(n)
    u[free] = np.linalg.solve(Kff, P[free])
    Kg = np.zeros((n, n))
    for e, L, G, kl, dofs in parts:
        f = kl @ (G @ u[dofs])
        Kg[np.ix_(dofs, dofs)] += G.T @ k_geometric(L, e["A"], e["I_rho"], f[6], f[9], f[4], f[5], f[10], f[11]) @ G
    Ke = K[np.ix_(free, free)]
    Kgf = Kg[np.ix_(free, free)]
    Ke = 0.5 * (Ke + Ke.T)
    Kgf = 0.5 * (Kgf + Kgf.T)
    for name, m in (("Elastic", Ke), ("Geometric", Kgf)):
        c = np.linalg.cond(m)
        if not np.isfinite(c) or c > 1e16:
            raise ValueError(f"{name} stiffness (free-free) is ill-conditioned (cond={c:.2e}).")
    w, V = scipy.linalg.eig(Ke, -Kgf)
    finite = np.isfinite(w)
    scale = max(np.max(np.abs(w[finite])) if finite.any() else 0.0, 1.0)
    if np.max(np.abs(w.imag)) / scale > 1000 * np.finfo(float).eps:
        raise ValueError("Eigen-solution returned significantly complex eigenpairs.")
    for j in range(V.shape[1]):
        k = np.argmax(np.abs(V[:, j]))
        V[:, j] *= np.conj(V[k, j]) / abs(V[k, j])
    w, V = w.real, V.real
    cut = max(1e-12, 1000 * np.finfo(float).eps * (np.max(np.abs(w[finite])) if finite.any() else 0.0))
    ok = np.where(finite & (w > cut))[0]
    if ok.size == 0:
        raise ValueError("No positive buckling factors found.")
    j = ok[np.argmin(w[ok])]
    mode = np.zeros(n)
    mode[free] = V[:, j]
    return float(w[j]), mode.tolist()


results = []
for case in json.load(open(sys.argv[1]))["cases"]:
    i = case["inputs"]
    try:
        lam, mode = critical_load(
            np.asarray(i["node_coords"], dtype=float),
            i["elements"],
            {int(k): v for k, v in i["boundary_conditions"].items()},
            {int(k): v for k, v in i["nodal_loads"].items()},
        )
        results.append({"output": [lam, mode]})
    except ValueError as err:
        results.append({"error": {"type": "ValueError", "message": str(err)}})
print(json.dumps({"results": results}))
