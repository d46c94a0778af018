"""Program analyses: Andersen points-to of a constraint file or of LLVM IR."""
import numpy as np

from . import _fluxgraph


class PointsTo:
    """The least solution: the set of variable ``names[v]`` is ``objects(v)``.

    ``row_ptr``/``col`` are its CSR arrays (row v lists object ids, sorted); ``info`` has the
    facts, copy edges, rounds and seconds.
    """

    def __init__(self, names, row_ptr, col, info):
        self.names = names
        self.row_ptr = row_ptr
        self.col = col
        self.info = info
        self._index = None

    def __len__(self):
        return len(self.names)

    def index(self, name):
        """The id of the variable called ``name`` (KeyError when there is none)."""
        if self._index is None:
            self._index = {n: v for v, n in enumerate(self.names)}
        return self._index[name]

    def __getitem__(self, name):
        """The names of the objects ``name`` may point to, as a set."""
        v = self.index(name)
        return {self.names[o] for o in self.col[self.row_ptr[v]:self.row_ptr[v + 1]]}

    def to_dict(self):
        """Every non-empty set, by name."""
        sizes = np.diff(self.row_ptr)
        return {self.names[v]: self[self.names[v]] for v in np.nonzero(sizes)[0]}


def pointsto(path, device="auto", check=False):
    """Andersen's points-to analysis of ``path``: a constraint file (Galois numeric or ``p = &a``
    lines) or LLVM IR (``.ll``/``.bc``, in a build with LLVM; indirect calls resolved while
    solving). ``check=True`` also runs the sequential oracle and raises when the answers differ.
    Errors: fluxgraph.InputError naming the file and line."""
    return PointsTo(*_fluxgraph._pointsto(str(path), device, bool(check)))
