#!/usr/bin/env python3
"""The CuPy/cuSPARSE baseline for bench/numerics/cg_fem (issue 21): the same Q1 finite-element matrix
(built here as the Kronecker form of the assembled 1D matrices, which tests/backend/test_cg.cpp
checks algorithms/fem_poisson.cpp against) and CG by cupyx.scipy.sparse.linalg.cg, timed per
iteration with the device synchronised. Without CuPy it runs on SciPy (a correctness check of the
script, not a baseline). Prints one JSON line. The Kronecker sum drops the face neighbours' entries
(0 for Q1), so this matrix has 21 entries a row inside where cg_fem's has 27: the comparison
favours the baseline by those reads.

usage: cupy_cg.py [--size N] [--iterations K] [--runs R] [--precision float|double]
"""
import argparse
import inspect
import json
import time

try:
    import cupy as xp
    import cupyx.scipy.sparse as sp
    import cupyx.scipy.sparse.linalg as sla
    backend = "cupy"
except ImportError:  # pragma: no cover - the CPU fallback
    import numpy as xp
    import scipy.sparse as sp
    import scipy.sparse.linalg as sla
    backend = "scipy"


def sync():
    if backend == "cupy":
        xp.cuda.Device().synchronize()


def q1_matrix(n, dtype):
    """Stiffness of the Q1 elements on n^3 cubes, interior nodes numbered x fastest (CSR)."""
    h = 1.0 / n
    m = n - 1
    e = xp.ones(m, dtype=dtype)
    k1 = sp.diags([-e[:-1], 2 * e, -e[:-1]], [-1, 0, 1], format="csr") / h
    m1 = sp.diags([e[:-1], 4 * e, e[:-1]], [-1, 0, 1], format="csr") * (h / 6)
    a = sp.kron(sp.kron(k1, m1), m1) + sp.kron(sp.kron(m1, k1), m1) + sp.kron(sp.kron(m1, m1), k1)
    return a.tocsr().astype(dtype)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=32)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--precision", choices=["float", "double"], default="double")
    a = ap.parse_args()
    dtype = xp.float32 if a.precision == "float" else xp.float64
    A = q1_matrix(a.size, dtype)
    b = A @ xp.ones(A.shape[0], dtype=dtype)
    # tolerance 0: exactly `iterations` steps (the keyword became rtol in CuPy 14 and SciPy 1.12)
    tol = {"rtol" if "rtol" in inspect.signature(sla.cg).parameters else "tol": 0}
    times = []
    for _ in range(a.runs + 1):  # the first is a warm-up
        sync()
        t0 = time.perf_counter()
        sla.cg(A, b, maxiter=a.iterations, **tol)
        sync()
        times.append(time.perf_counter() - t0)
    t = sorted(times[1:])[len(times[1:]) // 2]
    print(json.dumps({"baseline": "cg_" + backend, "precision": a.precision, "intervals": a.size, "unknowns": int(A.shape[0]),
                      "nnz": int(A.nnz), "iterations": a.iterations, "seconds": t, "ms_per_iteration": 1e3 * t / a.iterations}))


if __name__ == "__main__":
    main()
