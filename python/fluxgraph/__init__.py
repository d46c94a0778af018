"""fluxgraph: a dynamic graph store (DCSR) on the GPU or OpenMP threads, fed by edge batches.

    g = fluxgraph.Graph(weighted=False, device="auto")
    g.insert(src, dst)              # NumPy arrays of any integer dtype, or CuPy arrays (CUDA build)
    g.delete(src, dst)
    scores = g.pagerank()           # kept current: the next call starts from these scores
    plus = g.closure()              # a new Graph: the transitive closure

    s = fluxgraph.Stream(pagerank=True, closure=True)   # the streaming session of `fluxgraph stream`
    s.apply(insert=(src, dst), delete=(src2, dst2))     # a report per batch; s.scores(), s.edges()

    pts = fluxgraph.pointsto("prog.ll")             # Andersen points-to of LLVM IR or a constraint file
    pts["main:%p(obj)"]                             # {'main:%x(obj)'}

Vertex ids are any non-negative 64-bit integers (renumber=True, the default: methods take and give
ids, each batch's new ids numbered after the others in increasing order) or the vertex numbers
0..n-1 (renumber=False). Results by vertex are arrays indexed by vertex number (Graph.labels names
each vertex, Graph.by_label gives a result by id); vertex i is row i of to_scipy().
Bad input raises ValueError or TypeError and leaves the graph unchanged.
"""
from ._fluxgraph import BatchError, Error, InputError, __version__, build, transfers
from ._analyses import PointsTo, pointsto
from ._graph import Graph, load, read
from ._stream import Stream

__all__ = ["Graph", "Stream", "PointsTo", "pointsto", "load", "read", "Error", "BatchError", "InputError", "__version__", "build", "transfers"]
