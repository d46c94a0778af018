"""CuPy arrays in and out (CUDA build): a renumber=False graph reads batches where they are, with no
copy to the host (fluxgraph.transfers() counts every byte fluxgraph moves between host and device);
a renumbering graph (the default) reads a device batch's ids on the host to map them."""
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
    g = fluxgraph.Graph(device="cuda", renumber=False)  # dense ids: the device path
    g.insert(src[:10], dst[:10])  # first batch: the store's workspaces
    before = fluxgraph.transfers()
    g.insert(src, dst)                                          # 64-bit ids: narrowed on the device
    g.insert(src.astype(cupy.int32), dst.astype(cupy.int32))    # 32-bit ids: read as they are
    g.delete(src[:1000].astype(cupy.uint32), dst[:1000].astype(cupy.uint32))  # converted on the device
    after = fluxgraph.transfers()
    moved = {k: after[k] - before[k] for k in after}
    assert moved["to_host"] < 4096 and moved["to_device"] < 4096, moved  # the ids are 8 MB a side
    h = fluxgraph.Graph(renumber=False)
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
    g = fluxgraph.Graph(device="cuda", renumber=False)  # dense ids: 2**40 is past the largest
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


def test_renumbering_reads_device_batches_on_the_host(cupy):
    # The same batches as CuPy arrays into a renumbering graph and as NumPy arrays into a dense one
    # agree in ids: edges, wcc labels (least id of the component) and PageRank by id.
    rng = np.random.default_rng(7)
    n = 5000
    src = np.concatenate([np.arange(n), rng.integers(0, n, 40000)])  # every id appears
    dst = np.concatenate([rng.integers(0, n, n), rng.integers(0, n, 40000)])
    g = fluxgraph.Graph(device="cuda")
    h = fluxgraph.Graph(device="cuda", renumber=False)
    g.insert(cupy.asarray(src), cupy.asarray(dst))
    h.insert(src, dst)
    g.delete(cupy.asarray(src[:500], dtype=cupy.uint32), cupy.asarray(dst[:500], dtype=cupy.uint32))
    h.delete(src[:500], dst[:500])
    assert g.renumbered and not h.renumbered and g.num_vertices == h.num_vertices == n
    assert edge_set(g) == edge_set(h)
    assert g.by_label(g.wcc()) == h.by_label(h.wcc())
    pg, ph = g.by_label(g.pagerank()), h.by_label(h.pagerank())
    assert max(abs(pg[v] - ph[v]) for v in ph) < 1e-9
    # Sparse ids from the device: mapped, and back in results; a refused batch changes nothing.
    s = fluxgraph.Graph(device="cuda")
    s.insert(cupy.array([10**12, 7, 10**12]), cupy.array([7, 3, 3]))
    assert edge_set(s) == {(10**12, 7), (7, 3), (10**12, 3)}
    with pytest.raises(fluxgraph.BatchError, match="edge 1: negative vertex id -1"):
        s.insert(cupy.array([5, -1]), cupy.array([6, 6]))
    assert edge_set(s) == {(10**12, 7), (7, 3), (10**12, 3)} and s.num_vertices == 3
