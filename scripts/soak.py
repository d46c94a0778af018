#!/usr/bin/env python3
"""The durable stream's soak (docs/durability.md, "Pauses"): `stream - --wal DIR` fed at a fixed
rate for a fixed time, 10% of the lines deleting an edge inserted earlier, optionally beside a busy
process; at the end the stream's edges (--edges-out) must equal the model of the lines sent.

  scripts/soak.py FLUXGRAPH [--minutes 10] [--rate 200000] [--batch 10000] [--busy] [--vertices 2^24]

Edges are distinct by construction (a bijection of 48-bit keys: u = key >> 24, v = key & (2^24-1)),
so the model needs no set: the d-th delete line removes the (9d)-th insert, sent before it. Prints
one JSON line: lines/s achieved, batch latency (wait + apply) p50 / p99 / max and the apply's, the
edges at the end, whether they equal the model, and the ten slowest batches (batch, edges, ms)."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

MASK48 = (1 << 48) - 1


def block(index, size, vbits):
    """Lines index*size .. (index+1)*size - 1 of the stream as bytes: 9 inserts, then 1 delete."""
    first = index * size
    n = np.arange(first, first + size, dtype=np.int64)
    is_del = (n % 10) == 9
    ins_index = (n // 10) * 9 + (n % 10)  # an insert line: its insert number
    d = n // 10  # a delete line: its delete number; it removes insert 9d
    ks = keys_of(np.where(is_del, 9 * d, ins_index))
    u = ks >> np.uint64(vbits)
    v = ks & np.uint64((1 << vbits) - 1)
    out = []
    for dl, a, b in zip(is_del.tolist(), u.tolist(), v.tolist()):
        out.append(f"- {a} {b}" if dl else f"{a} {b}")
    return ("\n".join(out) + "\n").encode()


def keys_of(idx):
    """Insert numbers to distinct 48-bit keys: a bijection of [0, 2^48) (odd multiply, xor-shift)."""
    k = idx.astype(np.uint64)
    for mult in (0x9E3779B97F4B, 0xBF58476D1CE5):
        k = (k * np.uint64(mult)) & np.uint64(MASK48)
        k ^= k >> np.uint64(21)
    return k


def model_edges(lines, vbits):
    """The (u, v) keys left after `lines` lines, sorted."""
    tens, rest = divmod(lines, 10)
    inserts = tens * 9 + min(rest, 9)
    deletes = tens
    alive = np.ones(inserts, dtype=bool)
    alive[np.arange(deletes, dtype=np.int64) * 9] = False
    ks = keys_of(np.flatnonzero(alive))
    return np.sort(ks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fluxgraph")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--rate", type=int, default=200000, help="lines per second")
    ap.add_argument("--batch", type=int, default=10000)
    ap.add_argument("--busy", action="store_true", help="a CPU-bound shell loop beside the stream")
    ap.add_argument("--vbits", type=int, default=24, help="ids below 2^vbits")
    ap.add_argument("--dir", default=None, help="the WAL folder (default: a temporary one)")
    ap.add_argument("--extra", default="", help="more stream options")
    ap.add_argument("--log", default=None, help="keep the stream's JSON lines in this file")
    a = ap.parse_args()
    assert 2 * a.vbits == 48, "keys are 48-bit: --vbits 24"
    blk = 1000
    total_blocks = int(a.minutes * 60 * a.rate / blk)
    wal = a.dir or tempfile.mkdtemp(prefix="fg-soak-")
    shutil.rmtree(wal, ignore_errors=True)
    edges_out = os.path.join(tempfile.mkdtemp(prefix="fg-soak-out-"), "edges.txt")
    cmd = [a.fluxgraph, "stream", "-", "--batch", str(a.batch), "--wal", wal, "--edges-out", edges_out] + a.extra.split()
    busy = subprocess.Popen(["sh", "-c", "while :; do :; done"]) if a.busy else None
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=sys.stderr.buffer)
    batches = []

    log = open(a.log, "w") if a.log else None

    def collect():
        for line in proc.stdout:
            batches.append(json.loads(line))
            if log:
                log.write(line.decode())

    reader = threading.Thread(target=collect)
    reader.start()
    t0 = time.monotonic()
    sent = 0
    behind = 0.0
    for i in range(total_blocks):
        data = block(i, blk, a.vbits)
        due = t0 + (i + 1) * blk / a.rate
        now = time.monotonic()
        if now < due:
            time.sleep(due - now)
        else:
            behind = max(behind, now - due)
        proc.stdin.write(data)
        proc.stdin.flush()
        sent += blk
    feed_s = time.monotonic() - t0
    proc.stdin.close()
    rc = proc.wait()
    reader.join()
    if busy:
        busy.kill()
    summary = next((b for b in batches if b.get("summary")), {})
    rows = [b for b in batches if "batch" in b and "apply_us" in b]
    lat = np.array([b["wait_us"] + b["apply_us"] for b in rows], dtype=float) / 1e3
    app = np.array([b["apply_us"] for b in rows], dtype=float) / 1e3
    got_keys = read_keys(edges_out, a.vbits) if rc == 0 else np.zeros(0, np.uint64)
    want = model_edges(sent, a.vbits)
    slow = sorted(rows, key=lambda b: -(b["wait_us"] + b["apply_us"]))[:10]
    print(json.dumps({
        "rc": rc, "lines": sent, "busy": a.busy, "rate_asked": a.rate, "feed_s": round(feed_s, 1),
        "feeder_behind_s": round(behind, 3), "lines_per_s": summary.get("edges_per_s"),
        "batches": len(rows), "edges": summary.get("edges"), "model_edges": int(len(want)),
        "equal_model": bool(len(got_keys) == len(want) and np.array_equal(got_keys, want)),
        "latency_ms": pct(lat), "apply_ms": pct(app),
        "slowest": [[b["batch"], b["edges"], round((b["wait_us"] + b["apply_us"]) / 1e3, 1),
                     b.get("snapshot", False), b.get("defragmented", False)] for b in slow],
    }))
    shutil.rmtree(os.path.dirname(edges_out), ignore_errors=True)
    if a.dir is None:
        shutil.rmtree(wal, ignore_errors=True)
    return 0 if rc == 0 else 1


def read_keys(path, vbits):
    """`u v` lines to sorted keys, read in chunks (a list of 10^8 tokens would not fit)."""
    parts, tail = [], b""
    with open(path, "rb") as f:
        while f.peek(1)[:1] == b"#":  # the file's comment lines
            f.readline()
        while chunk := f.read(1 << 26):
            chunk = tail + chunk
            cut = chunk.rfind(b"\n") + 1
            tail = chunk[cut:]
            x = np.array(chunk[:cut].split(), dtype=np.uint64)
            parts.append((x[0::2] << np.uint64(vbits)) | x[1::2])
    return np.sort(np.concatenate(parts)) if parts else np.zeros(0, np.uint64)


def pct(x):
    if len(x) == 0:
        return {}
    return {"p50": round(float(np.percentile(x, 50)), 1), "p99": round(float(np.percentile(x, 99)), 1),
            "max": round(float(x.max()), 1)}


if __name__ == "__main__":
    sys.exit(main())
