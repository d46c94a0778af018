"""fluxgraph.Graph: the Python face of fluxgraph::graph (include/fluxgraph/graph.hpp)."""
import operator
import os

import numpy as np

from . import _arrays, _fluxgraph

_SEMIRINGS = ("plus_times", "min_plus", "or_and")


def _semiring(s):
    """fluxgraph's one spelling (plus_times, ...); the CLI's old hyphenated one is taken too."""
    t = s.replace("-", "_") if isinstance(s, str) else s
    if t not in _SEMIRINGS:
        raise ValueError(f"semiring must be one of {_SEMIRINGS}, got {s!r}")
    return t


def _damping(damping, alpha):
    """PageRank's damping factor; alpha (networkx's name, this package's before) as a deprecated alias."""
    if alpha is not None:
        import warnings

        warnings.warn("alpha= is now damping= (the CLI's --damping, the C++ pagerank_options::damping)",
                      DeprecationWarning, stacklevel=3)
        damping = alpha
    if not 0 <= damping < 1:
        raise ValueError(f"damping must be in [0, 1), got {damping}")
    return damping


def _count(n, what):
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"{what} must be an integer, got {type(n).__name__}") from None
    if n < 0:
        raise ValueError(f"{what} must be >= 0, got {n}")
    return n


def _by_label(labels, values, n):
    """A result by vertex number as a dict from each vertex's id (Graph.by_label, Stream.by_label)."""
    values = values.tolist() if hasattr(values, "tolist") else list(values)
    if len(values) != n:
        raise ValueError(f"{len(values)} values for {n} vertices")
    return dict(zip(labels if labels is not None else range(n), values))


def _labels(ids):
    """A list of the ids, or None when they are the vertex numbers 0..n-1 themselves."""
    return None if np.array_equal(ids, np.arange(len(ids))) else ids.tolist()


class Graph:
    """A directed graph in a DCSR store that takes batches of inserts and deletes.

    Graph(n=None, weighted=False, device="auto", renumber=True): n vertices, ids 0..n-1 (more
    arrive with the edges). weighted: keep a weight per inserted edge (a multigraph: parallel edges
    add up in PageRank and SciPy, min_plus takes the lightest); else an edge is stored once.
    device: "auto" (the GPU in the CUDA build, OpenMP threads in the CPU build), "cpu" (the CUDA
    build's sequential host twin) or "cuda".

    Vertex ids (docs/api.md, "Vertex ids"): with renumber=True (the default, as cuGraph) batches take
    any non-negative 64-bit ids, sparse or dense; each batch's new ids become the next vertices in
    increasing order of id, so ids 0..n-1 inserted in one batch (or in increasing runs) keep their
    numbers. Methods take ids (bfs/sssp sources, neighbors, reach) and give ids (neighbors, edges,
    wcc and cdlp labels, reach); results by vertex (pagerank, bfs levels, ...) are arrays indexed by
    vertex number: Graph.labels lists each vertex's id (None when they are 0..n-1) and
    Graph.by_label(result) gives a result by id. A delete naming an id never inserted removes
    nothing. Device arrays are read on the host. renumber=False: ids are the vertex numbers (device
    arrays stay on the device; an id past the end grows the graph).
    """

    def __init__(self, n=None, weighted=False, device="auto", renumber=True):
        if device not in ("auto", "cpu", "cuda"):
            raise ValueError(f"device must be 'auto', 'cpu' or 'cuda', got {device!r}")
        self._g = _fluxgraph._Graph(0 if n is None else _count(n, "n"), bool(weighted), device, bool(renumber))
        self._device = device
        self._nodes = None  # from_networkx: node objects that are not ids
        self.pagerank_info = None
        self.closure_info = None
        self.apps_info = None

    @classmethod
    def _wrap(cls, g, device):
        self = cls.__new__(cls)
        self._g, self._device, self._nodes, self.pagerank_info, self.closure_info = g, device, None, None, None
        self.apps_info = None
        return self

    @property
    def labels(self):
        """Each vertex's id, by vertex number (a list), or None when they are 0..n-1."""
        if self._nodes is not None:
            return self._nodes
        return _labels(self._g.ids()) if self._g.renumbered else None

    @property
    def renumbered(self):
        """Whether batches and methods take the caller's ids (Graph(renumber=True))."""
        return self._g.renumbered

    def _names(self, *arrays):
        """Vertex numbers as the caller's ids (an array for each array given; the ids copied once)."""
        if self._g.renumbered:
            ids = self._g.ids()
            arrays = tuple(ids[v] for v in arrays)
        return arrays if len(arrays) > 1 else arrays[0]

    # --- batches: each is all-or-nothing ------------------------------------------------------
    def insert(self, src, dst, weight=None):
        """Insert the edges src[i] -> dst[i] (weights only for a weighted graph). Returns a dict:
        batch, inserted (entries written), deleted, vertices, edges."""
        if weight is not None and not self.weighted:
            raise ValueError("weights given to an unweighted graph (make it with Graph(weighted=True))")
        side, keep, _ = _arrays.batch_side(src, dst, weight)
        return self._apply(side, None, keep)

    def delete(self, src, dst):
        """Delete the edges src[i] -> dst[i]: every copy goes; an absent edge is a no-op."""
        side, keep, _ = _arrays.batch_side(src, dst)
        return self._apply(None, side, keep)

    def apply(self, insert=None, delete=None):
        """One mixed batch: insert=(src, dst[, weight]), delete=(src, dst); the deletes go first."""
        if insert is None and delete is None:
            raise ValueError("apply needs insert=(src, dst) or delete=(src, dst)")
        if insert is not None and len(insert) == 3 and not self.weighted:
            raise ValueError("weights given to an unweighted graph (make it with Graph(weighted=True))")
        ins = _arrays.batch_side(*insert) if insert is not None else None
        dele = _arrays.batch_side(*delete) if delete is not None else None
        if ins and dele and ins[2] != dele[2]:  # one id width for the whole batch
            ins = _arrays.batch_side(*insert, wide=True)
            dele = _arrays.batch_side(*delete, wide=True)
        keep = (ins[1] if ins else []) + (dele[1] if dele else [])
        return self._apply(ins[0] if ins else None, dele[0] if dele else None, keep)

    def _apply(self, ins, dele, keep):
        # `keep` holds the arrays whose addresses the sides carry until the call returns.
        return self._g.apply(ins if ins is not None else _NO_SIDE, dele if dele is not None else _NO_SIDE)

    def resize(self, n):
        """At least n vertices; renumbering: ids 0..n-1 are vertices afterwards."""
        self._g.resize(_count(n, "n"))

    def add_vertices(self, ids):
        """The vertices of these ids, without edges until some come (renumbering: those new to the
        graph numbered after the others, in increasing order of id; renumber=False: at least
        max id + 1 vertices)."""
        ids = np.atleast_1d(np.asarray(ids))
        if ids.ndim != 1 or (ids.size and ids.dtype.kind not in "iu"):
            raise TypeError(f"ids must be integers, got {ids.dtype}")
        self._g.add_vertices(ids.astype(np.int64).tolist())

    def defragment(self):
        """Compact every row into one segment (the store becomes CSR)."""
        self._g.defragment()

    def maybe_defragment(self, expected_reads):
        """Compact if the policy finds it pays off for the SpMVs expected before the next batch.
        Returns (defragmented, reason)."""
        return self._g.maybe_defragment(float(expected_reads))

    # --- reads ----------------------------------------------------------------------------------
    num_vertices = property(lambda self: self._g.num_vertices)
    num_edges = property(lambda self: self._g.num_edges, doc="stored entries")
    weighted = property(lambda self: self._g.weighted)
    device = property(lambda self: self._device)
    backend = property(lambda self: self._g.backend, doc="what runs this graph's operations")
    version = property(lambda self: self._g.version, doc="changes with every batch that changes the edges")

    def __len__(self):
        return self.num_vertices

    def __repr__(self):
        w = "weighted, " if self.weighted else ""
        return f"<fluxgraph.Graph: {self.num_vertices} vertices, {self.num_edges} edges, {w}{self.backend}>"

    def out_degree(self):
        """Out-degrees by vertex number."""
        return self._g.out_degree()

    def memory_use(self):
        """Where the graph's memory goes (device memory; host in the CPU build): a dict with
        "parts" {name: bytes} (the stores' rows, entries, pair index and batch workspace, the
        in-edge copy and kept PageRank once PageRank ran, read views), "total", "bytes_per_edge",
        the allocator's "in_use" and "peak", "csr_bytes" (one orientation as a CSR) and "host_ids"
        (the id map's host bytes)."""
        return self._g.memory_use()

    def neighbors(self, v):
        """The successors of id v, sorted ids."""
        return self._g.neighbors(operator.index(v))

    def to_csr(self):
        """(indptr, indices, data) by vertex number (Graph.labels names them): data is None for an
        unweighted graph; columns sorted per row."""
        indptr, indices, data, _, _ = self._g.to_csr()
        return indptr, indices, data

    def edges(self):
        """(src, dst) or (src, dst, weight) arrays in ids, sorted by vertex number (by id when the
        ids are 0..n-1 or arrived in one batch)."""
        indptr, indices, data = self.to_csr()
        src = np.repeat(np.arange(self.num_vertices, dtype=np.int32), np.diff(indptr))
        src, indices = self._names(src, indices)
        return (src, indices) if data is None else (src, indices, data)

    def to_scipy(self):
        """An n x n scipy.sparse.csr_matrix by vertex number (ones for an unweighted graph; parallel
        edges summed)."""
        import scipy.sparse as sp

        indptr, indices, data = self.to_csr()
        if data is None:
            data = np.ones(indices.shape[0])
        n = self.num_vertices
        a = sp.csr_matrix((data, indices, indptr), shape=(n, n))
        a.sum_duplicates()
        return a

    def by_label(self, values):
        """A result by vertex (scores, levels...) as a dict from each vertex's id (the networkx
        node it came from; the vertex number when the ids are 0..n-1)."""
        return _by_label(self.labels, values, self.num_vertices)

    def to_networkx(self):
        """A networkx.DiGraph on the ids (edge attribute 'weight' for a weighted graph)."""
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(self._names(np.arange(self.num_vertices)).tolist())
        e = self.edges()
        if len(e) == 2:
            g.add_edges_from(zip(e[0].tolist(), e[1].tolist()))
        else:
            for u, v, w in zip(e[0].tolist(), e[1].tolist(), e[2].tolist()):
                old = g.get_edge_data(u, v)
                g.add_edge(u, v, weight=w + (old["weight"] if old else 0.0))
        return g

    @classmethod
    def from_scipy(cls, a, weighted=None, device="auto"):
        """A graph of a square SciPy sparse matrix: entry (i, j) is the edge i -> j. weighted:
        keep the values (default: unless the matrix is boolean)."""
        import scipy.sparse as sp

        if not sp.issparse(a):
            raise TypeError(f"from_scipy needs a scipy.sparse matrix, got {type(a).__name__}")
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ValueError(f"from_scipy needs a square matrix, got shape {a.shape}")
        c = sp.coo_matrix(a)
        c.sum_duplicates()
        weighted = c.dtype != np.bool_ if weighted is None else bool(weighted)
        g = cls(a.shape[0], weighted=weighted, device=device)
        if c.nnz:
            g.insert(c.row, c.col, c.data.astype(np.float64) if weighted else None)
        return g

    @classmethod
    def from_networkx(cls, G, weight=None, device="auto"):
        """A graph of a networkx graph (undirected edges go both ways). Non-negative integer nodes
        are the graph's ids (vertices numbered in increasing order of id; Graph.labels lists them,
        None for 0..n-1). Other nodes are numbered in G's order (a renumber=False graph: methods
        take those numbers) and Graph.labels lists them. weight: the edge attribute to keep (a
        weighted graph; edges without it weigh 1)."""
        nodes = list(G)
        ids = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 0 for v in nodes)
        index = None if ids else {v: i for i, v in enumerate(nodes)}
        src, dst, w = [], [], []
        directed = G.is_directed()
        for u, v, d in G.edges(data=True):
            iu, iv = (u, v) if ids else (index[u], index[v])
            wt = float(d.get(weight, 1.0)) if weight is not None else None
            src.append(iu), dst.append(iv), w.append(wt)
            if not directed and iu != iv:
                src.append(iv), dst.append(iu), w.append(wt)
        g = cls(0 if ids else len(nodes), weighted=weight is not None, device=device, renumber=ids)
        if ids:
            g.add_vertices(np.array(nodes, dtype=np.int64))  # the isolated ones too, by id
        if src:
            g.insert(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64),
                     np.array(w, dtype=np.float64) if weight is not None else None)
        g._nodes = None if ids else nodes
        return g

    def spmv(self, x, semiring="plus_times"):
        """y[u] = add over edges (u, v) of A(u, v) * x[v] in the semiring ('plus_times', 'min_plus',
        'or_and'), x and y by vertex number. A CuPy x gives a CuPy y computed where it is."""
        semiring = _semiring(semiring)
        n = self.num_vertices
        cai = _arrays.device_interface(x)
        if cai is not None:
            import cupy

            x = cupy.ascontiguousarray(cupy.asarray(x), dtype=cupy.float64)
            if x.shape != (n,):
                raise ValueError(f"x has shape {x.shape}, the graph {n} vertices")
            y = cupy.empty(n, dtype=cupy.float64)
            self._g.spmv(x.data.ptr, y.data.ptr, semiring, True)
            return y
        x = np.asarray(x)
        if x.dtype.kind not in "biuf":
            raise TypeError(f"x must hold real numbers, got dtype {x.dtype}")
        x = np.ascontiguousarray(x, dtype=np.float64)
        if x.shape != (n,):
            raise ValueError(f"x has shape {x.shape}, the graph {n} vertices")
        y = np.empty(n)
        self._g.spmv(x.ctypes.data, y.ctypes.data, semiring, False)
        return y

    # --- algorithms -----------------------------------------------------------------------------
    def pagerank(self, damping=0.85, tol=1e-10, max_iter=1000, warm=True, weighted=False, kernel="auto",
                 array="numpy", mixed_precision=True, alpha=None):
        """PageRank scores by vertex number (networkx.pagerank semantics: stop when the L1 change < n tol).
        damping: networkx's alpha (alpha= is still taken, with a DeprecationWarning).
        warm: keep the scores current: after a batch, push what it changed (unweighted PageRank).
        weighted: a weighted graph's edges count by weight (default False, as the CLI and the C++
        API: pass weighted=True for networkx's weight='weight'). array='cupy' returns a CuPy array.
        mixed_precision: read the scores as float (double sums) where tol n >= 2^-16, each read
        within 2^-24 of a double one; False: double reads only.
        Graph.pagerank_info holds iterations, convergence, time and the SpMV kernel."""
        damping = _damping(damping, alpha)
        if not tol > 0:
            raise ValueError(f"tol must be > 0, got {tol}")
        if array not in ("numpy", "cupy"):
            raise ValueError(f"array must be 'numpy' or 'cupy', got {array!r}")
        scores, self.pagerank_info = self._g.pagerank(float(damping), float(tol), _count(max_iter, "max_iter"),
                                                      bool(weighted), bool(warm), kernel, bool(mixed_precision))
        if array == "cupy":
            import cupy

            return cupy.asarray(scores)
        return scores

    def personalized_pagerank(self, seeds, damping=0.85, tol=1e-10, max_iter=1000, weighted=False, kernel="auto"):
        """Personalized PageRank (networkx.pagerank(G, personalization=p) with p uniform over the
        seeds, dangling mass back to them). seeds: ids, one set (a score array by vertex number), or a
        list of sets (a 2-D array, a row per set), read together: one read of the graph serves up to
        32 sets. Graph.pagerank_info: a dict (one set) or a list of them."""
        damping = _damping(damping, None)
        if not tol > 0:
            raise ValueError(f"tol must be > 0, got {tol}")
        many = len(seeds) > 0 and all(isinstance(s, (list, tuple, np.ndarray)) for s in seeds)
        sets = [[_count(v, "seed") for v in s] for s in seeds] if many else [[_count(v, "seed") for v in seeds]]
        scores, info = self._g.personalized_pagerank(sets, float(damping), float(tol), _count(max_iter, "max_iter"),
                                                     bool(weighted), kernel)
        self.pagerank_info = info if many else info[0]
        return np.vstack(scores) if many else scores[0]

    def closure(self):
        """The transitive closure (pairs joined by a path of length >= 1) as a new unweighted Graph
        on the same vertices and ids. Graph.closure_info holds pairs, iterations, time and peak memory."""
        g, self.closure_info = self._g.closure()
        out = Graph._wrap(g, self._device)
        out._nodes = self._nodes
        return out

    def save(self, path, ids=None):
        """Saves the graph as a snapshot (versioned, a checksum per section, written atomically),
        with one id per vertex: `ids`, else a renumbering graph's. fluxgraph.load reads it back."""
        ids = [] if ids is None else [int(i) for i in np.asarray(ids).ravel()]
        self._g.save(os.fspath(path), ids)

    def reach(self, sources):
        """For each source id, the ids reachable from it by a path of length >= 1 (sorted by
        vertex number)."""
        src = np.atleast_1d(np.asarray(sources))
        if src.ndim != 1 or (src.size and src.dtype.kind not in "iu"):
            raise TypeError(f"sources must be integer vertex ids, got {src.dtype}")
        (indptr, indices, _, _, _), self.closure_info = self._g.reach(src.astype(np.int64).tolist())
        indices = self._names(indices)
        return [indices[indptr[i]:indptr[i + 1]] for i in range(src.shape[0])]


    # --- graph applications (docs/graph-apps.md): LDBC Graphalytics' kernels and triangles ------
    # Each returns a NumPy array by vertex number (Graph.by_label: by id); sources and labels are
    # ids. Graph.apps_info holds the run's counts and time.
    def bfs(self, source):
        """BFS levels from `source` along out-edges (int32; -1 unreached), direction-optimizing."""
        levels, self.apps_info = self._g.bfs(_count(source, "source"))
        return levels

    def sssp(self, source, delta=0.0):
        """Shortest path lengths from `source` (float64; inf unreached): the weights (1 per edge
        when unweighted), delta-stepping with bucket width delta (0: automatic). Weights must be >= 0."""
        if not delta >= 0:
            raise ValueError(f"delta must be >= 0, got {delta}")
        dist, self.apps_info = self._g.sssp(_count(source, "source"), float(delta))
        return dist

    def wcc(self):
        """Weakly connected components: each vertex's label is the least id of its component."""
        labels, self.apps_info = self._g.wcc()
        return labels

    def cdlp(self, iterations=10):
        """Community labels (ids) by LDBC Graphalytics' label propagation, synchronous. A tie goes to
        the smaller vertex number, which is the smaller id only when the ids arrived in increasing
        order (in one batch, in increasing runs, or renumber=False)."""
        labels, self.apps_info = self._g.cdlp(_count(iterations, "iterations"))
        return labels

    def lcc(self):
        """Local clustering coefficient as LDBC Graphalytics defines it (in- and out-neighbours);
        on a graph stored both ways networkx.clustering's."""
        values, self.apps_info = self._g.lcc()
        return values

    def triangles(self, per_vertex=False):
        """Triangles of the undirected simple graph underneath (directions, loops and repeats
        dropped): the total, or with per_vertex=True the array of networkx.triangles."""
        counts, self.apps_info = self._g.triangles(bool(per_vertex))
        return counts if per_vertex else self.apps_info["total"]


_NO_SIDE = _fluxgraph._Side()  # the absent half of an insert or a delete


def load(path, device="auto", renumber=True):
    """A Graph from a snapshot that Graph.save wrote (docs/snapshot.md). Returns (graph, ids): ids
    is the array saved with it (empty when none was), the graph's ids when renumbering (else they
    are 0..n-1). A wrong, truncated or corrupted file raises fluxgraph.InputError (a ValueError) and
    builds nothing."""
    path = os.fspath(path)
    g, ids = _fluxgraph._load(path, device, bool(renumber))
    return Graph._wrap(g, device), ids


def read(path, weighted=False, device="auto", keep_ids=False):
    """A graph file as a Graph, as the CLI reads it: Matrix Market (.mtx) or an edge list ('src dst
    [weight]' lines), either .gz, *.bin, or a snapshot. Its vertices are the file's (an edge list:
    the ids that appear; Matrix Market: 1..n of its header), numbered 0..n-1 in increasing order of
    their ids, and the graph renumbers: methods take and give the ids as written; Graph.labels lists
    each vertex's id (None when they are 0..n-1), and Graph.by_label(values) maps a result by vertex
    back to them. keep_ids=True: a renumber=False graph whose vertex v is id v (an edge list's ids
    as written, Matrix Market's minus 1), for files whose ids are already dense.
    weighted: keep the file's weights."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    g, _ = _fluxgraph._read(path, bool(weighted), device, bool(keep_ids))
    return Graph._wrap(g, device)
