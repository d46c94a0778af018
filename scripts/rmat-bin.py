#!/usr/bin/env python3
"""R-MAT edges as little-endian int32 pairs (the input of `stream --input-format bin` and of any command
that reads a *.bin file): Graph500's a, b, c = .57, .19, .19, 2^SCALE ids, EDGE_FACTOR edges a
vertex, seed 42. The distribution of bench's rmat:SCALE (not its exact edges: another generator).
Made in chunks of 2^26 edges (chunk 0 from seed 42, chunk i from (42, i)), written as they are made,
so OUT may be - (standard output) and the memory stays ~1.5 GB at any scale: a stream of rmat-27's
2.1 G edges needs no 17 GB file,
    scripts/rmat-bin.py 27 - | fluxgraph stream - --input-format bin --batch 10000000
usage: scripts/rmat-bin.py SCALE OUT.bin|- [EDGE_FACTOR]"""
import sys

import numpy as np

CHUNK = 1 << 26


def rmat_chunk(scale, m, rng):
    src = np.zeros(m, dtype=np.int32)
    dst = np.zeros(m, dtype=np.int32)
    for bit in range(scale):
        p = rng.random(m, dtype=np.float32)
        src |= ((p >= 0.76).astype(np.int32)) << bit  # quadrants c, d: the lower half
        dst |= (((p >= 0.57) & (p < 0.76)) | (p >= 0.95)).astype(np.int32) << bit  # b, d: the right half
    return src, dst


def rmat_chunks(scale, edge_factor=16, seed=42):
    """(src, dst) arrays of at most CHUNK edges each, edge_factor << scale in all."""
    m = edge_factor << scale
    for i, start in enumerate(range(0, m, CHUNK)):
        rng = np.random.default_rng(seed if i == 0 else [seed, i])
        yield rmat_chunk(scale, min(CHUNK, m - start), rng)


def rmat(scale, edge_factor=16, seed=42):
    parts = list(rmat_chunks(scale, edge_factor, seed))
    return np.concatenate([s for s, _ in parts]), np.concatenate([d for _, d in parts])


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    scale, factor = int(sys.argv[1]), int(sys.argv[3]) if len(sys.argv) == 4 else 16
    out = sys.stdout.buffer if sys.argv[2] == "-" else open(sys.argv[2], "wb")
    try:
        for s, d in rmat_chunks(scale, factor):
            out.write(np.stack([s, d], axis=1).tobytes())
        out.flush()
    except BrokenPipeError:  # the reader stopped (an error it reported, or head): not ours to report
        sys.exit(1)
    finally:
        if out is not sys.stdout.buffer:
            out.close()
