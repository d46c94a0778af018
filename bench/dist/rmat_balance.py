# R-MAT expected in-degrees per rank (docs/distributed.md): the balance and the bytes a
# distributed PageRank sends, cyclic and blocks, computed for rmat-22 (checked against
# `mpirun fluxgraph bench dist`) and rmat-24. Run: /usr/bin/python3 bench/dist/rmat_balance.py
# Expected in-degree of R-MAT vertices (a = .57, b = .19, c = .19, d = .05): a column bit is 1 with
# probability 0.24, so vertex v's expected in-degree is m * 0.76^(S - k) * 0.24^k, k = popcount(v).
import numpy as np, sys
for S in (22, 24):
    n = 1 << S
    m = 16 * n
    v = np.arange(n, dtype=np.uint32)
    k = np.zeros(n, dtype=np.int8)
    for b in range(S):
        k += ((v >> b) & 1).astype(np.int8)
    deg = m * (0.76 ** (S - k.astype(np.float64))) * (0.24 ** k.astype(np.float64))
    for P in (2, 4, 8):
        cyc = np.array([deg[p::P].sum() for p in range(P)])
        c = np.cumsum(deg)
        cuts = [0] + [int(np.searchsorted(c, m * q / P)) for q in range(1, P)] + [n]
        blk = np.array([deg[cuts[p]:cuts[p + 1]].sum() for p in range(P)])
        nblk = np.diff(cuts)
        print(f"rmat-{S} P {P}: cyclic max/mean {cyc.max() / cyc.mean():.3f}, blocks max/mean {blk.max() / blk.mean():.3f}; "
              f"PageRank bytes a rank sends per iteration (8 * n_p * (P-1)): cyclic {8 * (n / P) * (P - 1) / 1e6:.1f} MB, "
              f"blocks {8 * nblk.max() * (P - 1) / 1e6:.1f} MB (largest block {nblk.max() / n:.2f} of n); "
              f"a rank receives at most {8 * n * (P - 1) / P / 1e6:.1f} MB (cyclic)")
