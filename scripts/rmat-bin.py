#!/usr/bin/env python3
"""R-MAT edges as little-endian int32 pairs (the input of `stream --input-format bin` and of any command
that reads a *.bin file): Graph500's a, b, c = .57, .19, .19, 2^SCALE ids, EDGE_FACTOR edges a
vertex, seed 42. The distribution of bench's rmat:SCALE (not its exact edges: another generator).
usage: scripts/rmat-bin.py SCALE OUT.bin [EDGE_FACTOR]"""
import sys

import numpy as np


def rmat(scale, edge_factor=16, seed=42):
    rng = np.random.default_rng(seed)
    m = edge_factor << scale
    src = np.zeros(m, dtype=np.int32)
    dst = np.zeros(m, dtype=np.int32)
    for bit in range(scale):
        p = rng.random(m, dtype=np.float32)
        src |= ((p >= 0.76).astype(np.int32)) << bit  # quadrants c, d: the lower half
        dst |= (((p >= 0.57) & (p < 0.76)) | (p >= 0.95)).astype(np.int32) << bit  # b, d: the right half
    return src, dst


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    s, d = rmat(int(sys.argv[1]), int(sys.argv[3]) if len(sys.argv) == 4 else 16)
    np.stack([s, d], axis=1).tofile(sys.argv[2])
