"""CuPy arrays in and out (CUDA build): batches read where they are, with no copy to the host
(fluxgraph.transfers() counts every byte fluxgraph moves between host and device)."""
import numpy as np
import pytest

import fluxgraph


def edge_set(g):
    e = g.edges()
    return set(zip(e[0].tolist(), e[1].tolist()))


def test_device_batches_move_nothing_to_the_host(cupy):
    n = 1_000_000
    src = cupy.random.randint(0, 200_000, n, dtype=cupy.int64)
    dst = cupy.random.randint(0, 200_000, n, dtype=cupy.int64)
    g = fluxgraph.Graph(device="cuda")
    g.insert(src[:10], dst[:10])  # first batch: the store's workspaces
    before = fluxgraph.transfers()
    g.insert(src, dst)                                          # 64-bit ids: narrowed on the device
    g.insert(src.astype(cupy.int32), dst.astype(cupy.int32))    # 32-bit ids: read as they are
    g.delete(src[:1000].astype(cupy.uint32), dst[:1000].astype(cupy.uint32))  # converted on the device
    after = fluxgraph.transfers()
    moved = {k: after[k] - before[k] for k in after}
    assert moved["to_host"] < 4096 and moved["to_device"] < 4096, moved  # the ids are 8 MB a side
    h = fluxgraph.Graph()
    h.insert(cupy.asnumpy(src), cupy.asnumpy(dst))
    h.delete(cupy.asnumpy(src[:1000]), cupy.asnumpy(dst[:1000]))
    assert edge_set(g) == edge_set(h)


def test_device_spmv_and_results(cupy):
    g = fluxgraph.Graph(device="cuda", weighted=True)
    g.insert(cupy.array([0, 0, 1, 2]), cupy.array([1, 2, 2, 0]), cupy.array([1.0, 2.0, 3.0, 4.0]))
    x = cupy.array([1.0, 2.0, 3.0])
    before = fluxgraph.transfers()
    y = g.spmv(x)
    assert fluxgraph.transfers() == before  # computed where x is
    assert isinstance(y, cupy.ndarray) and cupy.asnumpy(y).tolist() == [8.0, 9.0, 4.0]
    p = g.pagerank(array="cupy")
    assert isinstance(p, cupy.ndarray) and abs(float(p.sum()) - 1) < 1e-12
    # A host-twin graph takes device arrays too (copied to the host it lives on).
    c = fluxgraph.Graph(device="cpu")
    c.insert(cupy.array([0, 1], dtype=cupy.int32), cupy.array([1, 0], dtype=cupy.int32))
    assert edge_set(c) == {(0, 1), (1, 0)}


def test_device_errors_leave_the_graph_unchanged(cupy):
    g = fluxgraph.Graph(device="cuda")
    g.insert(cupy.array([0, 1]), cupy.array([1, 2]))
    v = g.version
    with pytest.raises(fluxgraph.BatchError, match="edge 2: negative vertex id -7"):
        g.insert(cupy.array([3, 4, -7]), cupy.array([0, 0, 0]))
    with pytest.raises(ValueError, match="past the largest id"):
        g.insert(cupy.array([2**40]), cupy.array([0]))
    with pytest.raises(TypeError, match="integers"):
        g.insert(cupy.array([1.0]), cupy.array([0.0]))
    with pytest.raises(TypeError, match="both be host arrays or both device arrays"):
        g.insert(cupy.array([1]), np.array([0]))
    with pytest.raises(ValueError, match="one-dimensional"):
        g.insert(cupy.zeros((2, 2), dtype=cupy.int32), cupy.zeros((2, 2), dtype=cupy.int32))
    assert g.version == v and edge_set(g) == {(0, 1), (1, 2)}
