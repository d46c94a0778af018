#!/usr/bin/env python3
"""Crash and corruption checks of durable streams (`fluxgraph stream - --wal DIR`, docs/durability.md);
ctest runs it as fg_test_cli_durability.

    usage: durability_checks.py FLUXGRAPH_BINARY [KILLS]      (KILLS: at least this many SIGKILLs, default 24)

Prints one line per check ("ok N - ..." or "FAIL N - ...: why"), then a summary; exit 0 or 1.

The producer here holds a fixed sequence of edge lines (inserts, and deletes of present edges). Each
run of the stream starts on the same DIR, reads the first line ({"recovered":...,"edges_in":T}),
feeds the lines after the T-th, and is killed with SIGKILL at a random moment (in a batch, a log
sync or a snapshot write), with --sync batch, interval and none in turn. After every kill:
 - the restarted stream's T covers every batch acknowledged before the kill (nothing acknowledged
   lost) and no more than was written; its batch numbers go on from the recovered count (no batch
   applied twice, none skipped);
at the end the store (--edges-out) equals the edges of the first T lines applied one by one.
Then, on purpose: a torn last record (dropped, T unchanged), a corrupted newest snapshot (recovered
from the one before and the log), a corrupted record inside a log, missing snapshots and every
snapshot damaged (refused with a message naming the files, the folder unchanged), a log cut inside
its acknowledged records (refused naming the batches lost; --accept-loss goes on), a second stream on the folder (refused), a full disk (RLIMIT_FSIZE:
a clear error, every acknowledged batch recovered), memory that runs out mid-stream (FG_MEMORY_LIMIT:
the error names the batch, the store is as it was, every acknowledged batch recovered) and snapshot
files (--snapshot-out / -in).
"""
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import struct
import sys
import tempfile
import threading
import time

if len(sys.argv) not in (2, 3):
    sys.exit(f"usage: {sys.argv[0]} FLUXGRAPH_BINARY [KILLS]")
BIN = sys.argv[1]
KILLS = int(sys.argv[2]) if len(sys.argv) == 3 else 24
TMP = tempfile.mkdtemp(prefix="fg_wal_")
DIR = os.path.join(TMP, "wal")
checks, failures = 0, []
rng = random.Random(20261126)


def check(ok, what, why=""):
    global checks
    checks += 1
    print(f"{'ok' if ok else 'FAIL'} {checks} - {what}{'' if ok else ': ' + str(why)}", flush=True)
    if not ok:
        failures.append(f"{checks} - {what}: {why}")
    return ok


# --- the producer's lines and the model -------------------------------------------------------
def make_ops(n, ids=1500):
    """Edge lines: mostly inserts over scattered ids, a quarter deletes of present edges."""
    ops, present, where = [], [], {}
    for _ in range(n):
        if present and rng.random() < 0.25:
            e = present[rng.randrange(len(present))]
            i = where.pop(e)
            last = present.pop()
            if i < len(present):
                present[i], where[last] = last, i
            ops.append(("-", *e))
        else:
            e = (rng.randrange(ids) * 7919 % 100003, rng.randrange(ids) * 7919 % 100003)
            if e not in where:
                where[e] = len(present)
                present.append(e)
            ops.append(("+", *e))
    return ops


OPS = make_ops(max(60000, 30000 + 2000 * KILLS))
LINES = [f"{k} {u} {v}\n".encode() for k, u, v in OPS]


def model(t):
    """The edges after lines [0, t) one by one, as --edges-out writes them: in the input's ids, sorted."""
    edges = set()
    for k, u, v in OPS[:t]:
        if k == "+":
            edges.add((u, v))
        else:
            edges.discard((u, v))
    return sorted(edges)


def read_edges(path):
    """An --edges-out edge list: 'src dst' lines in the input's ids."""
    with open(path) as f:
        rows = [ln.split() for ln in f if ln.strip() and not ln.startswith("#")]
    return sorted((int(a), int(b)) for a, b in rows)


# --- one run of the stream ----------------------------------------------------------------------
class run:
    """A stream on DIR: its first line, then its acknowledgements as they come."""

    def __init__(self, sync="batch", extra=(), limit_bytes=None):
        def lower_limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

        args = [BIN, "stream", "-", "--batch", "50", "--max-delay", "1", "--wal", DIR, "--snapshot-every", "4",
                "--sync", sync, *extra]
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  preexec_fn=lower_limit if limit_bytes else None)
        self.first = self.p.stdout.readline()
        self.start = json.loads(self.first) if self.first.startswith(b"{") else None
        self.acks, self.sent = [], 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.p.stdout:
            self.acks.append(json.loads(line))

    def feed(self, lines):
        try:
            for i in range(0, len(lines), 200):
                self.p.stdin.write(b"".join(lines[i:i + 200]))
                self.p.stdin.flush()
                self.sent += len(lines[i:i + 200])
        except (BrokenPipeError, OSError):
            pass

    def finish(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        err = self.p.stderr.read().decode()
        self.p.wait(timeout=120)
        self.reader.join(timeout=10)
        return self.p.returncode, err

    def kill(self):
        self.p.send_signal(signal.SIGKILL)
        self.p.wait(timeout=60)
        self.reader.join(timeout=10)
        for f in (self.p.stdin, self.p.stdout, self.p.stderr):
            try:
                f.close()
            except OSError:
                pass

    def acked_lines(self):
        """Edge lines this run acknowledged: its batches' last line numbers (the input holds edge
        lines only)."""
        batches = [a for a in self.acks if "batch" in a]
        return batches[-1]["lines"][1] if batches else 0


def snapshots():
    return sorted(f for f in os.listdir(DIR) if f.startswith("snap-") and f.endswith(".fgsnap"))


def whole_records(path):
    """The whole records of a log: 24-byte frames (magic, CRC, uint64 payload length, CRC, pad)
    after the 32-byte header, each followed by its payload."""
    raw = open(path, "rb").read()
    at, count = 32, 0
    while at + 24 <= len(raw):
        at += 24 + struct.unpack_from("<Q", raw, at + 8)[0]
        if at > len(raw):
            break
        count += 1
    return count


def logs():
    return sorted(f for f in os.listdir(DIR) if f.startswith("log-") and f.endswith(".wal"))


# --- 1. SIGKILL at random moments ----------------------------------------------------------------
def kill_loop():
    durable, kills, mid_snapshot, lost, twice = 0, 0, 0, [], []
    modes = ["batch", "interval:5", "none"]
    while kills < KILLS or (mid_snapshot < 2 and kills < 8 * KILLS):
        r = run(modes[kills % 3])
        if r.start is None:
            check(False, "restart after a kill", r.first + r.p.stderr.read())
            return
        t = r.start["edges_in"]
        if t < durable:
            lost.append(f"kill {kills}: {durable} lines acknowledged, {t} recovered")
        if t >= len(OPS) - 30000:  # the rest is for the checks below
            r.kill()
            break
        feeder = threading.Thread(target=r.feed, args=(LINES[t:t + rng.randrange(300, 4000)],), daemon=True)
        feeder.start()
        if kills % 3 == 2:  # aim at a snapshot write: kill as soon as its temporary file shows
            deadline = time.time() + 2
            while time.time() < deadline and not any(".tmp" in f for f in os.listdir(DIR)):
                pass
        else:
            time.sleep(rng.uniform(0.0, 0.25))
        r.p.send_signal(signal.SIGKILL)
        tmp_left = any(".tmp" in f for f in os.listdir(DIR))  # a snapshot being written
        r.kill()
        feeder.join(timeout=30)
        kills += 1
        mid_snapshot += tmp_left
        numbers = [a["batch"] for a in r.acks if "batch" in a]
        if numbers and numbers != list(range(r.start["batches"] + 1, r.start["batches"] + 1 + len(numbers))):
            twice.append(f"kill {kills}: batches {numbers[:3]}... after {r.start['batches']} recovered")
        durable = max(durable, t + r.acked_lines()) if numbers else max(durable, t)
        if t + r.sent < durable:
            lost.append(f"kill {kills}: acknowledged past what was written")
    check(kills >= KILLS, f"{kills} streams killed with SIGKILL ({mid_snapshot} while a snapshot was being written)")
    check(mid_snapshot >= 1, "at least one kill landed inside a snapshot write", mid_snapshot)
    check(not lost, "no acknowledged batch lost over the kills", lost[:3])
    check(not twice, "batch numbers go on from the recovered count after every restart", twice[:3])
    return durable


def grow_newest_log(t, records):
    """Lines from t on, in short runs, until the newest log holds `records` whole records: batches
    are cut by size or by --max-delay, so a run may end right on a snapshot and leave the newest log
    with one record or none (and a damaged only record is a torn last one). Returns (t, its path)."""
    step = 400
    for _ in range(40):
        r = run("batch")
        r.feed(LINES[t:t + step])
        r.finish()
        t += step
        step = 10
        log = os.path.join(DIR, logs()[-1])
        if whole_records(log) >= records:
            break
    return t, log


def final_state(expect_t=None, sync="batch"):
    """A run that feeds nothing: its recovered position and --edges-out against the model."""
    out = os.path.join(TMP, "edges.txt")
    r = run(sync, ["--edges-out", out])
    code, err = r.finish()
    if r.start is None or code != 0:
        return None, f"exit {code}: {r.first!r} {err}"
    t = r.start["edges_in"]
    got = read_edges(out)
    want = model(t)
    ok = got == want and (expect_t is None or t == expect_t)
    return t, "" if ok else f"T {t} (expected {expect_t}); {len(got)} edges vs {len(want)} in the model; stderr: {err}"


def out_of_memory():
    """Memory that runs out mid-stream (core/memory's FG_MEMORY_LIMIT: allocations fail past it), on a
    folder of its own: a path 0 -> 1 -> 2 ... grows the row table every batch until one cannot get
    its memory. The error names that batch and says the store is as it was; a start without the
    limit recovers every batch acknowledged before it."""
    d, out = os.path.join(TMP, "oom"), os.path.join(TMP, "oom-edges.txt")
    lines = "".join(f"{i} {i + 1}\n" for i in range(300000)).encode()
    p = subprocess.run([BIN, "stream", "-", "--batch", "1000", "--wal", d, "--top", "0"], input=lines, capture_output=True,
                       timeout=120, env=dict(os.environ, FG_MEMORY_LIMIT=str(8 << 20)))
    acks = [json.loads(x) for x in p.stdout.splitlines() if x.startswith(b'{"batch"')]
    err = p.stderr.decode()
    failed = len(acks) + 1
    check(p.returncode == 1 and acks and f"batch {failed}: out of memory" in err and "as it was before the batch" in err,
          f"out of memory at batch {failed}: one error naming it, the store as it was", (p.returncode, len(acks), err))
    q = subprocess.run([BIN, "stream", "-", "--batch", "1000", "--wal", d, "--edges-out", out], input=b"", capture_output=True, timeout=120)
    start = json.loads(q.stdout.splitlines()[0]) if q.stdout.startswith(b"{") else {}
    acked = acks[-1]["lines"][1] if acks else -1
    check(q.returncode == 0 and start.get("edges_in") == acked and read_edges(out) == [(i, i + 1) for i in range(acked)],
          f"after it, a start recovers the {acked} acknowledged lines and nothing else", (q.returncode, start, q.stderr.decode()))


def main():
    out_of_memory()
    durable = kill_loop()
    t, why = final_state()
    check(t is not None and t >= durable and not why,
          f"after the kills the store equals the model of the first {t} lines ({durable} acknowledged)", why)

    # 2. a torn last record: the first bytes of a whole record (its frame, part of its payload)
    # appended to the newest log, as a write cut short leaves them
    r = run("batch")
    r.feed(LINES[t:t + 120])
    code, _ = r.finish()
    t += 120
    record = max((open(os.path.join(DIR, f), "rb").read()[32:32 + 80] for f in logs()), key=len)
    with open(os.path.join(DIR, logs()[-1]), "ab") as f:
        f.write(record)
    r = run("batch")
    code, err = r.finish()
    check(code == 0 and r.start and r.start["edges_in"] == t and r.start["torn_bytes"] > 0 and "torn" in err,
          "a torn last record is dropped with a warning; every acknowledged line stays", (code, r.first, err))
    t2, why = final_state(t)
    check(t2 == t and not why, "after the torn record the store equals the model", why)

    # 3. the newest snapshot corrupted: the one before and the log rebuild the same store
    snaps = snapshots()
    if check(len(snaps) >= 2, "two snapshots kept", snaps):
        path = os.path.join(DIR, snaps[-1])
        raw = bytearray(open(path, "rb").read())
        raw[len(raw) // 2] ^= 0x40
        open(path, "wb").write(raw)
        r = run("batch")
        code, err = r.finish()
        check(code == 0 and r.start and r.start["edges_in"] == t and r.start["snapshot_batch"] < int(snaps[-1][5:25])
              and "passed over" in err, "a corrupted newest snapshot is passed over for the one before", (r.first, err))
        t2, why = final_state(t)
        check(t2 == t and not why, "rebuilt from the older snapshot and the log, the store equals the model", why)
        check(not os.path.exists(path) and os.path.exists(path + ".corrupt"),
              "the corrupted snapshot is renamed aside (never counted among the snapshots kept)", os.listdir(DIR))

    # 3b. the older snapshot damaged (the fallback): the start goes on from the newest, naming it
    r = run("batch")  # batches enough for two snapshots again
    r.feed(LINES[t:t + 600])
    r.finish()
    t += 600
    snaps = snapshots()
    if check(len(snaps) >= 2, "two snapshots kept again", snaps):
        path = os.path.join(DIR, snaps[0])
        good = open(path, "rb").read()
        raw = bytearray(good)
        raw[len(raw) // 2] ^= 0x40
        open(path, "wb").write(raw)
        r = run("batch")
        code, err = r.finish()
        check(code == 0 and r.start and r.start["edges_in"] == t and "a fallback is damaged" in err and snaps[0] in err,
              "a damaged fallback snapshot is named at the start, which goes on from the newest", (code, r.first, err))
        open(path, "wb").write(good)

    # 4. a corrupted record inside a log: refused, naming the log
    t, log = grow_newest_log(t, 2)
    raw = bytearray(open(log, "rb").read())
    keep = bytes(raw)
    raw[32 + 30] ^= 0x01  # inside the first record's payload; records follow it
    open(log, "wb").write(raw)
    r = run("batch")
    code, err = r.finish()
    check(code == 1 and r.start is None and "cannot recover" in err and os.path.basename(log) in err,
          "a corrupted record before the end of a log is refused, naming the log", (code, err))
    open(log, "wb").write(keep)
    t2, why = final_state(t)
    check(t2 == t and not why, "the log repaired, the stream recovers", why)

    # 5. no snapshot and logs that do not start at batch 0: refused
    hidden = os.path.join(TMP, "hidden")
    os.makedirs(hidden)
    has_log0 = os.path.exists(os.path.join(DIR, "log-" + "0" * 20 + ".wal"))
    for s in snapshots():
        shutil.move(os.path.join(DIR, s), hidden)
    r = run("batch")
    code, err = r.finish()
    check(has_log0 or (code == 1 and "cannot recover" in err), "snapshots gone and no log from batch 0: refused", (code, err))
    for s in os.listdir(hidden):
        shutil.move(os.path.join(hidden, s), DIR)

    # 5b. every snapshot damaged (and no log from batch 0): refused, naming each, the folder unchanged
    def folder():
        return {f: open(os.path.join(DIR, f), "rb").read() for f in sorted(os.listdir(DIR)) if f != "LOCK"}
    good, snaps = folder(), snapshots()
    for name in snaps:
        raw = bytearray(good[name])
        raw[len(raw) // 2] ^= 0x40
        open(os.path.join(DIR, name), "wb").write(raw)
    damaged = folder()
    r = run("batch")
    code, err = r.finish()
    check(has_log0 or (code == 1 and all(name in err for name in snaps) and folder() == damaged),
          "every snapshot damaged: refused, naming each, the folder left as it was", (code, err, sorted(folder())))
    for name in snaps:
        open(os.path.join(DIR, name), "wb").write(good[name])

    # 6. one stream per folder
    a = run("batch")
    b = run("batch")
    code_b, err_b = b.finish()
    code_a, _ = a.finish()
    check(code_b == 1 and "in use" in err_b and code_a == 0, "a second stream on the folder is refused", err_b)
    # ... and still when the LOCK file was deleted under the first (the folder itself is locked)
    a = run("batch")
    os.remove(os.path.join(DIR, "LOCK"))
    b = run("batch")
    code_b, err_b = b.finish()
    code_a, _ = a.finish()
    check(code_b == 1 and "in use" in err_b and code_a == 0, "a second stream is refused with LOCK deleted", err_b)

    # 6b. the newest log cut inside its acknowledged records (a truncated file, not a crash): refused,
    # naming the batches lost, the folder unchanged; --accept-loss goes on from what is left, and
    # what is left equals the model of its lines. The folder is put back afterwards.
    t, log = grow_newest_log(t, 3)  # a few acknowledged records to lose
    keep = os.path.join(TMP, "kept")
    shutil.rmtree(keep, ignore_errors=True)
    shutil.copytree(DIR, keep)
    size = os.path.getsize(log)
    with open(log, "r+b") as f:
        f.truncate(random.Random(7).randrange(32, size - 1))
    cut = folder()
    w = subprocess.run([BIN, "wal", "check", DIR], capture_output=True, text=True)
    check(w.returncode == 1 and "are lost" in w.stdout and "NOT ok" in w.stdout and folder() == cut,
          "wal check names the lost batches, changing nothing", (w.returncode, w.stdout[-600:], w.stderr))
    r = run("batch")
    code, err = r.finish()
    check(code == 1 and "were acknowledged" in err and "are lost" in err and os.path.basename(log) in err
          and folder() == cut, "a log cut inside its acknowledged records: refused, naming the batches lost", (code, err))
    r = run("batch", ["--accept-loss"])
    code, err = r.finish()
    left = r.start["edges_in"] if r.start else -1
    check(code == 0 and r.start and r.start["lost_batches"] > 0 and left < t and "going on from what is left" in err,
          "with --accept-loss the stream goes on from what is left, saying what was lost", (code, r.first, err))
    t2, why = final_state(left)
    check(t2 == left and not why, "what is left equals the model of its lines", why)
    shutil.rmtree(DIR)
    shutil.copytree(keep, DIR)
    w = subprocess.run([BIN, "wal", "check", DIR], capture_output=True, text=True)
    check(w.returncode == 0 and w.stdout.endswith("\nok\n") and "a start recovers batch" in w.stdout,
          "wal check on a whole folder: every file whole, what a start recovers", (w.returncode, w.stdout[-600:], w.stderr))

    # 7. a full disk (the file size limit): a clear error, and every acknowledged batch recovered
    size = sum(os.path.getsize(os.path.join(DIR, f)) for f in os.listdir(DIR))
    limit = max(os.path.getsize(os.path.join(DIR, f)) for f in os.listdir(DIR)) + 20000
    r = run("batch", limit_bytes=limit)
    t0 = r.start["edges_in"] if r.start else -1
    r.feed(LINES[t:t + 20000])
    code, err = r.finish()
    acked = t0 + r.acked_lines()
    check(code == 1 and ("File too large" in err or "No space" in err) and "cannot write" in err,
          f"a full disk stops the stream with a clear message ({size} bytes in the folder)", (code, err[-300:]))
    t2, why = final_state()
    check(t2 is not None and t2 >= acked and not why, f"every batch acknowledged before the full disk is recovered ({acked} lines)",
          why)
    t = t2

    # 8. the rest of the lines, then a snapshot file round trip
    snap = os.path.join(TMP, "end.fgsnap")
    r = run("interval", ["--snapshot-out", snap])
    r.feed(LINES[t:])
    code, err = r.finish()
    summary = r.acks[-1] if r.acks else {}
    check(code == 0 and summary.get("stream_edges_in") == len(OPS), "the stream ends at the last line", (code, err, summary))
    t2, why = final_state(len(OPS))
    check(t2 == len(OPS) and not why, f"the final store equals the model of all {len(OPS)} lines", why)
    out = os.path.join(TMP, "from_snapshot.txt")
    p = subprocess.run([BIN, "stream", "-", "--batch", "10", "--snapshot-in", snap, "--edges-out", out],
                       input=b"", capture_output=True, timeout=120)
    check(p.returncode == 0 and os.path.exists(out) and read_edges(out) == model(len(OPS)),
          "stream - --snapshot-in starts from the --snapshot-out store", p.stderr.decode())


main()
shutil.rmtree(TMP, ignore_errors=True)
print(f"{checks - len(failures)} of {checks} checks passed")
for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
