"""Caller arrays to what the C++ layer takes: an address, the id width and where the memory is.

Host arrays (NumPy, or anything np.asarray takes) stay where they are when they are already
contiguous int32/int64 (float64 for weights); other integer dtypes are converted once. Device arrays
(``__cuda_array_interface__``: CuPy, PyTorch, Numba) are passed as device pointers; other integer
dtypes are converted on the device. A renumber=False graph reads them in device memory, copying
nothing to the host; a renumbering graph (the default) copies their ids (and weights) to the host
to map them (docs/api.md, "Vertex ids"). Every check raises before the graph is
touched, so a rejected batch leaves it unchanged.
"""
import numpy as np

from . import _fluxgraph


def device_interface(a):
    """The array's __cuda_array_interface__, or None for a host array."""
    return getattr(a, "__cuda_array_interface__", None)


def _device_contiguous(cai):
    strides = cai.get("strides")
    if strides is None:
        return True
    return len(cai["shape"]) == 1 and strides[0] == int(cai["typestr"][2:])


class Ids:
    """One id array ready for C++ (``array`` keeps the memory alive)."""

    def __init__(self, array, address, bits, on_device):
        self.array, self.address, self.bits, self.on_device = array, address, bits, on_device

    @property
    def size(self):
        return int(self.array.shape[0])

    def widened(self):
        """The same ids as int64 (a mixed batch with one 64-bit side)."""
        if self.bits == 64:
            return self
        a = self.array.astype("int64")
        return ids(a, "ids")


def host_ids(a, name):
    """Vertex ids as a one-dimensional non-negative int64 NumPy array (a CuPy array copied to the
    host), checked before anything is touched: Stream's batches."""
    if hasattr(a, "__cuda_array_interface__"):
        import cupy

        a = cupy.asnumpy(a)
    a = np.asarray(a)
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {a.shape}")
    if a.size == 0:
        return np.zeros(0, dtype=np.int64)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {a.dtype}")
    lo, hi = int(a.min()), int(a.max())
    if lo < 0:
        raise ValueError(f"{name}: negative vertex id {lo}")
    if hi >= 2**63:
        raise ValueError(f"{name}: vertex id {hi} does not fit in a signed 64-bit integer")
    return a.astype(np.int64, copy=False)


def _check_range_unsigned(a, name):
    # An unsigned 64-bit id past 2^63 would wrap to a negative int64: refuse it by name here (a
    # dense graph's C++ layer refuses ids past 2^31 - 2 itself).
    if a.shape[0] and int(a.max()) >= 2**63:
        raise ValueError(f"{name}: vertex id {int(a.max())} does not fit in a signed 64-bit integer")


def ids(a, name):
    cai = device_interface(a)
    if cai is not None:
        return _device_ids(a, cai, name)
    a = np.asarray(a)
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {a.shape}")
    if a.dtype.kind not in "iu":
        if a.size == 0:
            a = a.astype(np.int64)
        else:
            raise TypeError(f"{name} must hold integers, got dtype {a.dtype}")
    if a.dtype.kind == "u" and a.dtype.itemsize == 8:
        _check_range_unsigned(a, name)
    native = a.dtype.byteorder in "=|"
    if a.dtype.itemsize == 4 and a.dtype.kind == "i" and native:
        a = np.ascontiguousarray(a)
        bits = 32
    elif a.dtype.itemsize == 8 and a.dtype.kind == "i" and native:
        a = np.ascontiguousarray(a)
        bits = 64
    else:
        a = a.astype(np.int64)
        bits = 64
    return Ids(a, a.ctypes.data, bits, False)


def _device_ids(a, cai, name):
    if _fluxgraph.build != "cuda":
        raise TypeError(f"{name} is a device array; this is the CPU build of fluxgraph (host arrays only)")
    shape, typestr = tuple(cai["shape"]), cai["typestr"]
    if len(shape) != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {shape}")
    if typestr[1] not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {typestr}")
    if typestr[1] == "u" and typestr[2:] == "8":
        _check_range_unsigned(a, name)
    if typestr not in ("<i4", "<i8") or not _device_contiguous(cai):
        a = a.astype("int64")  # on the device
        cai, typestr = a.__cuda_array_interface__, "<i8"
    return Ids(a, cai["data"][0], 32 if typestr == "<i4" else 64, True)


def weights(w, n, on_device):
    """Weights as contiguous float64 where the ids are: (array, address)."""
    cai = device_interface(w)
    if cai is not None:
        if not on_device:
            raise TypeError("weights are a device array but the ids are host arrays")
        if len(cai["shape"]) != 1 or cai["shape"][0] != n:
            raise ValueError(f"weights have shape {tuple(cai['shape'])}, the batch {n} edges")
        if cai["typestr"][1] not in "iuf":
            raise TypeError(f"weights must be real numbers, got dtype {cai['typestr']}")
        if cai["typestr"] != "<f8" or not _device_contiguous(cai):
            w = w.astype("float64")
            cai = w.__cuda_array_interface__
        return w, cai["data"][0]
    if on_device:
        raise TypeError("the ids are device arrays but the weights are a host array")
    w = np.asarray(w)
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(f"weights have shape {w.shape}, the batch {n} edges")
    if w.dtype.kind not in "iuf":
        raise TypeError(f"weights must be real numbers, got dtype {w.dtype}")
    w = np.ascontiguousarray(w, dtype=np.float64)
    return w, w.ctypes.data


def batch_side(src, dst, weight=None, wide=False):
    """(side for C++, arrays to keep alive, id bits) for the edges src[i] -> dst[i]; `wide`: 64-bit ids."""
    s, d = ids(src, "src"), ids(dst, "dst")
    if s.size != d.size:
        raise ValueError(f"src and dst differ in length ({s.size} and {d.size})")
    if s.on_device != d.on_device:
        raise TypeError("src and dst must both be host arrays or both device arrays")
    if s.bits != d.bits or wide:
        s, d = s.widened(), d.widened()
    keep = [s, d]
    waddr = 0
    if weight is not None:
        w, waddr = weights(weight, s.size, s.on_device)
        keep.append(w)
    side = _fluxgraph._Side(s.address, d.address, waddr, s.size, s.bits, s.on_device)
    return side, keep, s.bits


def to_device_like(values, like):
    """A host result as an array of the same kind as ``like`` (CuPy for CuPy input), else NumPy."""
    if device_interface(like) is None:
        return values
    import cupy

    return cupy.asarray(values)
