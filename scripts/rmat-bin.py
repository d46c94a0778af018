#!/usr/bin/env python3
"""R-MAT edges as little-endian int32 pairs (the input of `stream --input-format bin` and of any command
that reads a *.bin file): Graph500's a, b, c = .57, .19, .19, 2^SCALE ids, EDGE_FACTOR edges a
vertex, seed 42. The distribution of bench's rmat:SCALE (not its exact edges: another generator).
Made in chunks of 2^26 edges (chunk 0 from seed 42, chunk i from (42, i)), written as they are made,
by up to 8 processes (the same edges in the same order), so OUT may be - (standard output) and the
memory stays bounded (~1.5 GB a process, 8 chunks of 0.5 GB ahead) at any scale: a stream of rmat-27's
2.1 G edges needs no 17 GB file,
    scripts/rmat-bin.py 27 - | fluxgraph stream - --input-format bin --batch 10000000
usage: scripts/rmat-bin.py SCALE OUT.bin|- [EDGE_FACTOR]"""
import os
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


def chunk_at(args):
    """Chunk i of rmat_chunks, alone: its own seed, so chunks can be made in any order."""
    scale, m, i, seed = args
    rng = np.random.default_rng(seed if i == 0 else [seed, i])
    return rmat_chunk(scale, min(CHUNK, m - i * CHUNK), rng)


def rmat_chunks(scale, edge_factor=16, seed=42, jobs=1):
    """(src, dst) arrays of at most CHUNK edges each, edge_factor << scale in all, in order; made by
    `jobs` processes (the same chunks: each has its own seed)."""
    m = edge_factor << scale
    work = [(scale, m, i, seed) for i in range((m + CHUNK - 1) // CHUNK)]
    if jobs <= 1 or len(work) <= 1:
        yield from map(chunk_at, work)
        return
    import collections
    import multiprocessing
    with multiprocessing.Pool(min(jobs, len(work))) as pool:
        ahead = collections.deque()  # at most `jobs` chunks made ahead of the reader: bounded memory
        for w in work:
            if len(ahead) >= jobs:
                yield ahead.popleft().get()
            ahead.append(pool.apply_async(chunk_at, (w,)))
        while ahead:
            yield ahead.popleft().get()


def rmat(scale, edge_factor=16, seed=42):
    parts = list(rmat_chunks(scale, edge_factor, seed))
    return np.concatenate([s for s, _ in parts]), np.concatenate([d for _, d in parts])


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    scale, factor = int(sys.argv[1]), int(sys.argv[3]) if len(sys.argv) == 4 else 16
    out = sys.stdout.buffer if sys.argv[2] == "-" else open(sys.argv[2], "wb")
    try:
        jobs = int(os.environ.get("FG_RMAT_JOBS", min(8, os.cpu_count() or 1)))  # a chunk of rmat-27: ~5 s a core
        for s, d in rmat_chunks(scale, factor, jobs=jobs):
            out.write(np.stack([s, d], axis=1).tobytes())
        out.flush()
    except BrokenPipeError:  # the reader stopped (an error it reported, or head): not ours to report
        sys.exit(1)
    finally:
        if out is not sys.stdout.buffer:
            out.close()
