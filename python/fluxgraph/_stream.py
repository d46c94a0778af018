"""fluxgraph.Stream: the Python face of fluxgraph::stream (include/fluxgraph/stream.hpp), the
streaming session that `fluxgraph stream` drives: batches in, the defragmentation policy between
them, PageRank and the transitive closure kept current after each."""
import numpy as np

from . import _fluxgraph
from ._arrays import host_ids
from ._graph import _by_label, _count, _damping, _labels


def _pair(edges, what):
    """(src, dst) as contiguous int64 host arrays, checked before the stream is touched (a dense
    stream's C++ layer refuses ids past 2^31 - 2 itself)."""
    if edges is None:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if len(edges) != 2:
        raise ValueError(f"{what} must be (src, dst)")
    s = np.ascontiguousarray(host_ids(edges[0], f"{what} src"))
    d = np.ascontiguousarray(host_ids(edges[1], f"{what} dst"))
    if s.size != d.size:
        raise ValueError(f"{what}: src and dst differ in length ({s.size} and {d.size})")
    return s, d


class Stream:
    """A graph fed batch by batch, with the analyses kept current after each batch.

    Stream(n=0, pagerank=False, closure=False, compare=False, defrag="measured", layout="auto",
           damping=0.85, tol=1e-10, max_iter=1000, kernel="auto", device="auto")
    pagerank: PageRank kept current after every batch, at the cost of the batch (residual pushes
    from the edges it changed; docs/dynamic-pagerank.md), each batch's scores within apply()'s
    pr_bound (L1) of the exact ones; closure: the transitive closure extended from each batch;
    compare: each also from scratch (pr_error: the L1 distance; a closure that differs, or scores
    past the bounds, raise). pagerank_every=N: the scores brought within their bound after every N
    batches and by finish() (a batch in between only moves the kept residual; its dict has
    pr_updated False). memory="compact": the out-edges alone, no pair index, less slack (about a
    quarter of the bytes per edge; docs/performance.md, "Memory"); "fast" (the default) keeps both
    orientations.
    defrag:
    "none", "limit" (a row at k segments) or "measured" (when the reads before the next batch pay
    for it). Each edge counts once. The GIL is released while it works: call one Stream from one
    thread at a time (as with a Graph).

    Vertex ids as Graph's (docs/api.md, "Vertex ids"): renumber=True (the default) takes any
    non-negative 64-bit ids, each batch's new ids numbered in increasing order after the others
    (ids 0..n-1 keep their numbers: Stream(n) starts with them); top() and edges() give ids,
    scores() is by vertex number (Stream.labels, Stream.by_label). renumber=False: the ids are the
    vertex numbers, up to 2^31 - 2.

    wal="DIR" makes it durable (docs/durability.md): every batch is in DIR's write-ahead log when
    apply() returns (sync="batch" fsyncs it; "interval" every sync_interval seconds; "none"), a
    snapshot is written every snapshot_every batches, and a Stream opened on DIR again resumes
    where the last one ended (recovery() says where).

    bfs=SRC, sssp=SRC (hops: a stream keeps no weights), wcc=True, triangles=True keep those graph
    applications current after every batch (docs/graph-apps.md; the sources are ids); apply()'s dict then carries
    bfs_reached, sssp_reached, components, triangles and apps_recomputed.
    """

    def __init__(self, n=0, pagerank=False, closure=False, compare=False, defrag="measured", layout="auto",
                 damping=0.85, tol=1e-10, max_iter=1000, kernel="auto", device="auto", wal=None, sync="batch",
                 sync_interval=0.1, snapshot_every=1000, bfs=None, sssp=None, wcc=False, triangles=False, alpha=None,
                 renumber=True, pagerank_every=1, memory="fast"):
        damping = _damping(damping, alpha)
        if memory not in ("fast", "compact"):
            raise ValueError(f"memory must be 'fast' or 'compact', got {memory!r}")
        self._s = _fluxgraph._Stream(_count(n, "n"), device, bool(pagerank), bool(closure), bool(compare), defrag,
                                     layout, float(damping), float(tol), int(max_iter), kernel,
                                     "" if wal is None else str(wal), sync, float(sync_interval),
                                     _count(snapshot_every, "snapshot_every"),
                                     -1 if bfs is None else _count(bfs, "bfs"), -1 if sssp is None else _count(sssp, "sssp"),
                                     bool(wcc), bool(triangles), bool(renumber), _count(pagerank_every, "pagerank_every"),
                                     memory == "compact")
        self._renumber = bool(renumber)

    def apply(self, insert=None, delete=None, vertices=0):
        """One batch: delete=(src, dst) first, then insert=(src, dst), atomically. Returns a dict with
        Graph.insert's fields (batch, inserted, deleted: entries written and removed; vertices, edges),
        inserts and deletes (edges given), store_seconds, defrag fields and seconds; then each kept
        analysis's own: pr_iterations, pr_bound, pr_restarted, pr_pulled, pr_edges, pr_seconds
        (pagerank; pr_error, cold_iterations, cold_seconds with compare), closure_pairs,
        closure_rounds... (closure), bfs_reached, sssp_reached, components, triangles (the
        applications asked for)."""
        isrc, idst = _pair(insert, "insert")
        dsrc, ddst = _pair(delete, "delete")
        return self._s.apply(isrc, idst, dsrc, ddst, _count(vertices, "vertices"))

    def finish(self):
        """The read phase after the last batch (PageRank from scratch unless it ran per batch)."""
        return self._s.finish()

    def scores(self):
        """The latest PageRank, by vertex number (empty before the first; Stream.by_label: by id)."""
        return self._s.scores()

    def top(self, k=10):
        """The k best (id, score) pairs, best first (and any tied with the k-th): found on the
        GPU without moving every score, so a per-batch top costs k scores, not n."""
        return self._s.top(_count(k, "k"))

    def edges(self):
        """(src, dst) of the edges in the store in ids, sorted by vertex number."""
        src, dst = self._s.edges()
        if not self._renumber:  # the ids are the vertex numbers
            return src, dst
        ids = self._s.ids()
        return ids[src], ids[dst]

    @property
    def labels(self):
        """Each vertex's id, by vertex number (a list), or None when they are 0..n-1."""
        ids = self._s.ids()
        return _labels(ids) if ids.size == self.num_vertices else None

    def by_label(self, values):
        """A result by vertex number (scores()) as a dict from each vertex's id."""
        return _by_label(self.labels, values, self.num_vertices)

    def totals(self):
        return self._s.totals()

    def memory_use(self):
        """Where the stream's memory goes: Graph.memory_use's dict (its store, the other
        orientation and kept PageRank with pagerank=True, the closure)."""
        return self._s.memory_use()

    def closure_pairs(self):
        return self._s.closure_pairs()

    def recovery(self):
        """A durable stream's start: batches and edges_in recovered, the snapshot's batch, the
        batches replayed from the log, torn bytes dropped, warnings."""
        return self._s.recovery()

    def checkpoint(self):
        """A durable stream: write a snapshot now (and trim the log)."""
        self._s.checkpoint()

    def save(self, path):
        """Write the stream's graph as a snapshot (fluxgraph.load reads it as a Graph)."""
        self._s.save(str(path))

    def load(self, path):
        """Start from a snapshot (Graph.save, Stream.save), before the first batch."""
        self._s.load(str(path))

    @property
    def num_vertices(self):
        return self._s.num_vertices

    def __len__(self):
        return self._s.num_edges

    def __repr__(self):
        return f"fluxgraph.Stream({self.num_vertices} vertices, {len(self)} edges, {self._s.backend})"
