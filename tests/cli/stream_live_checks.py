#!/usr/bin/env python3
"""End-to-end checks of `fluxgraph stream -` (live input on standard input); ctest runs it as
fg_test_cli_live.

    usage: stream_live_checks.py FLUXGRAPH_BINARY DATA_DIR      (DATA_DIR = tests/data)

Prints one line per check ("ok N - ..." or "FAIL N - ...: why"), then a summary; exit 0 or 1.

What is checked:
 - piped inserts give the --out scores (L1 <= 1e-9) and the --edges-out edges of `stream FILE` on
   the same edges, with and without per-batch PageRank, and a --closure run ends at the published
   pair count;
 - a stream of inserts and deletes (some undone within a batch, some re-inserted) ends, for every
   --batch, with the edges and the scores of a reference computed here: the edges that survive the
   lines applied one by one, written as Matrix Market and given to `fluxgraph pagerank`;
 - --max-delay cuts a batch while the input is idle: its JSON line arrives before more is written;
 - every stdout line parses as JSON with the documented fields; the summary comes last;
 - bad lines: --on-error skip goes on and names each line on stderr; fail exits 1 naming the line,
   after exactly the batches before the bad line's, with no summary and no --out file;
 - --input-format bin and bin64 give what the text run gives (--format bin, the old spelling, too, with a note); a trailing partial pair is named by offset;
 - usage errors for options that do not go with standard input;
 - host memory: 2e7 lines over the same 1e5 pairs reach no more RSS than 2e6 (the input is not kept).
"""
import gzip
import json
import os
import random
import select
import struct
import subprocess
import sys
import tempfile
import time

if len(sys.argv) != 3:
    sys.exit(f"usage: {sys.argv[0]} FLUXGRAPH_BINARY DATA_DIR")
BIN, DATA = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp(prefix="fg_live_")
TIMEOUT = 60
checks, failures = 0, []


def check(ok, what, why=""):
    global checks
    checks += 1
    if ok:
        print(f"ok {checks} - {what}")
    else:
        print(f"FAIL {checks} - {what}: {why}")
        failures.append(f"{checks} - {what}: {why}")
    return ok


def run(args, stdin=b""):
    """(status, stdout text, stderr text) of the binary on `stdin` bytes."""
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True, timeout=TIMEOUT)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def tmp(name):
    return os.path.join(TMP, name)


def read_scores(path):
    with open(path) as f:
        return {int(a): float(b) for a, b in (line.split() for line in f)}


def l1(a, b):
    if set(a) != set(b):
        return float("inf")
    return sum(abs(a[k] - b[k]) for k in a)


def mtx_entries(path):
    """The entry lines of a Matrix Market file (comments dropped), size line included."""
    with open(path) as f:
        return [line for line in f if not line.startswith("%")]


BATCH_FIELDS = ["batch", "inserted", "deleted", "edges", "vertices", "wait_us", "apply_us"]
SUMMARY_FIELDS = ["batches", "edges_in", "edges_per_s", "latency_us_p50", "latency_us_p99", "apply_s", "parse_s", "input_wait_s", "map_s", "top"]


def json_lines(out, what, pagerank=False, closure=False):
    """The stdout lines as objects; one check that every line parses and has its fields."""
    try:
        objs = [json.loads(line) for line in out.splitlines()]
    except ValueError as e:
        check(False, f"{what}: every stdout line is JSON", str(e))
        return None
    need = BATCH_FIELDS + (["pr_iterations", "top"] if pagerank else []) + (["closure_pairs"] if closure else [])
    batches, summary = objs[:-1], objs[-1:] or [{}]
    problems = [f"line {i + 1} lacks {k}" for i, o in enumerate(batches) for k in need if k not in o]
    problems += [f"summary lacks {k}" for k in SUMMARY_FIELDS if k not in summary[0]]
    if summary[0].get("summary") is not True:
        problems.append("the last line is not the summary")
    if [o["batch"] for o in batches if "batch" in o] != list(range(1, len(batches) + 1)):
        problems.append("batches not numbered 1, 2, ...")
    check(not problems, f"{what}: {len(objs)} stdout lines, all JSON with their fields", "; ".join(problems[:3]))
    return objs


def edge_lines(path):
    """'u v' lines of an edge list file (.gz too), comments dropped."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return [line.split()[:2] for line in f if line.strip() and line[0] not in "#%"]


# ---- inserts only: the same edges from a file and from standard input ---------------------------
email = os.path.join(DATA, "pagerank/graphs/email-Eu-core.txt")
text = "".join(f"{u} {v}\n" for u, v in edge_lines(email)).encode()
for extra, tol in (([], "1e-12"), (["--pagerank"], "1e-14")):
    what = f"stream - {' '.join(extra)} vs stream FILE (email-Eu-core, --batch 1000)".replace("  ", " ")
    st, out, err = run(["stream", "-", "--batch", "1000", "--tol", tol, "--out", tmp("live.pr"),
                        "--edges-out", tmp("live.txt")] + extra, text)
    objs = json_lines(out, what, pagerank=bool(extra))
    st2, _, err2 = run(["stream", email, "--batch", "1000", "--tol", tol, "--out", tmp("file.pr"),
                        "--edges-out", tmp("file.txt")])
    if not check(st == 0 and st2 == 0 and objs, what, f"status {st}/{st2}: {err[:200]} {err2[:200]}"):
        continue
    d = l1(read_scores(tmp("live.pr")), read_scores(tmp("file.pr")))
    check(d <= 1e-9, f"{what}: --out scores agree", f"L1 {d:.3e} > 1e-9")
    check(edge_lines(tmp("live.txt")) == edge_lines(tmp("file.txt")), f"{what}: --edges-out the same edges, in the input ids",
          "the files differ")
    check(sum(o.get("inserted", 0) for o in objs[:-1]) == len(text.splitlines()) == objs[-1]["edges_in"],
          f"{what}: the batches' inserted counts add up to the input's lines")

ol = os.path.join(DATA, "closure/OL.cedge.data_7035.txt.gz")
ol_text = "".join(f"{u} {v}\n" for u, v in edge_lines(ol)).encode()
st, out, err = run(["stream", "-", "--batch", "700", "--closure"], ol_text)
objs = json_lines(out, "stream - --closure (OL.cedge)", closure=True)
if check(st == 0 and objs, "stream - --closure", f"status {st}: {err[:200]}"):
    check(objs[-1].get("closure_pairs") == 146120 and objs[-2]["closure_pairs"] == 146120,
          "stream - --closure: OL.cedge ends at the published 146120 pairs", str(objs[-1].get("closure_pairs")))

# ---- inserts and deletes: against a reference built here ----------------------------------------
rng = random.Random(17)
base = [(int(u), int(v)) for u, v in edge_lines(os.path.join(DATA, "pagerank/graphs/hartford_drug.edgelist"))]
lines, live = [], []
for k, (u, v) in enumerate(base):
    lines.append(f"{u} {v}" if k % 3 else f"+ {u} {v}")
    live.append((u, v))
    r = rng.random()
    if r < 0.15:  # delete an earlier edge (maybe one inserted twice: every copy goes)
        a, b = rng.choice(live)
        lines.append(f"- {a} {b}")
    elif r < 0.20:  # insert and delete at once: gone, whichever batch each line lands in
        lines += [f"{u} {u + 1}", f"- {u} {u + 1}"]
    elif r < 0.25:  # delete and insert again: present
        lines += [f"- {u} {v}", f"+ {u} {v}"]
    elif r < 0.27:
        lines.append(f"- 999999 {u}")  # an id never inserted: nothing to delete, no vertex
    elif r < 0.30:
        lines.append("# a comment")
edges, ids = set(), set()
for line in lines:
    t = line.split()
    if t[0] == "#":
        continue
    if t[0] == "-":
        edges.discard((int(t[1]), int(t[2])))
    else:
        e = (int(t[-2]), int(t[-1]))
        edges.add(e)
        ids.update(e)
rank = {x: i + 1 for i, x in enumerate(sorted(ids))}
with open(tmp("ref.mtx"), "w") as f:
    f.write("%%MatrixMarket matrix coordinate pattern general\n%% reference\n")
    f.write(f"{len(ids)} {len(ids)} {len(edges)}\n")
    f.writelines(f"{a} {b}\n" for a, b in sorted((rank[u], rank[v]) for u, v in edges))
st, _, err = run(["pagerank", tmp("ref.mtx"), "--tol", "1e-12", "--out", tmp("ref.pr")])
check(st == 0, "pagerank of the reference", err[:200])
back = {i: x for x, i in rank.items()}
ref = {back[k]: s for k, s in read_scores(tmp("ref.pr")).items()} if st == 0 else {}
stream_in = ("\n".join(lines) + "\n").encode()
for batch in ("1", "7", "100000"):
    what = f"stream - --batch {batch} with {sum(l[0] == '-' for l in lines)} deletes"
    st, out, err = run(["stream", "-", "--batch", batch, "--tol", "1e-12", "--out", tmp("del.pr"),
                        "--edges-out", tmp("del.txt")], stream_in)
    objs = json_lines(out, what)
    if check(st == 0 and objs, what, f"status {st}: {err[:200]}"):
        check(edge_lines(tmp("del.txt")) == [[str(a), str(b)] for a, b in sorted(edges)],
              f"{what}: --edges-out = the lines applied one by one, in the input ids", "edges differ")
        d = l1(read_scores(tmp("del.pr")), ref)
        check(d <= 1e-9, f"{what}: --out = pagerank of the reference (L1 {d:.2e})", f"L1 {d:.3e}")
        check(objs[-1]["edges"] == len(edges) and objs[-1]["vertices"] == len(ids),
              f"{what}: summary edges and vertices", f"{objs[-1]['edges']} {objs[-1]['vertices']}")

# ---- --max-delay: a batch is cut while the input is idle ----------------------------------------
p = subprocess.Popen([BIN, "stream", "-", "--batch", "1000", "--max-delay", "50"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
p.stdin.write(b"1 2\n2 3\n3 1\n")
p.stdin.flush()
t0 = time.monotonic()
ready, _, _ = select.select([p.stdout], [], [], 10)
first = p.stdout.readline().decode() if ready else ""
waited = time.monotonic() - t0
time.sleep(1 if first else 0)  # input idle, pipe open
p.stdin.write(b"4 5\n")
p.stdin.close()
rest = p.stdout.read().decode()
p.wait(TIMEOUT)
objs = json_lines(first + rest, "stream - --max-delay 50")
check(bool(first) and objs and objs[0]["inserted"] == 3 and waited < 5,
      f"--max-delay 50: the first 3 lines' batch arrived after {waited:.3f} s, before more was written", first)
check(p.returncode == 0 and objs and len(objs) == 3 and objs[1]["inserted"] == 1 and objs[-1]["batches"] == 2,
      "--max-delay 50: the next write is a second batch", rest[:300])

# ---- bad lines ----------------------------------------------------------------------------------
bad_in = b"1 2\n2 3\n3 x\n4 5\n- 4\n5 6\n6 7 nan\n7 8\n"
st, out, err = run(["stream", "-", "--batch", "2", "--on-error", "skip", "--out", tmp("skip.pr")], bad_in)
objs = json_lines(out, "--on-error skip")
errs = err.splitlines()
check(st == 0 and objs and objs[-1]["edges_in"] == 5 and objs[-1]["lines_skipped"] == 3 and os.path.exists(tmp("skip.pr")),
      "--on-error skip: the run goes on past 3 bad lines, 5 edges in", f"status {st}: {out[-200:]} {err[:200]}")
check(len(errs) == 3 and [e.split(":")[2] for e in errs] == ["3", "5", "7"] and all(e.startswith("fluxgraph: <stdin>:") for e in errs),
      "--on-error skip: stderr names lines 3, 5 and 7", err[:300])

fail_in = b"1 2\n2 3\n3 4\n4 5\n5 6\n6 -7\n7 8\n"
st, out, err = run(["stream", "-", "--batch", "2", "--max-delay", "100000", "--out", tmp("fail.pr")], fail_in)
try:
    objs = [json.loads(line) for line in out.splitlines()]
except ValueError:
    objs = None
check(st == 1 and err == "fluxgraph: <stdin>:6: negative vertex id '-7'\n", "--on-error fail: exit 1, one stderr line naming line 6",
      f"status {st}, stderr {err!r}")
check(objs is not None and [o.get("inserted") for o in objs] == [2, 2] and objs[-1]["edges"] == 4
      and not os.path.exists(tmp("fail.pr")),
      "--on-error fail: the 2 batches before the bad line's applied (line 5 shares its batch: not), no summary, no --out",
      out[:300])

# ---- binary formats -----------------------------------------------------------------------------
pairs = [(int(u), int(v)) for u, v in edge_lines(email)]
st, out, err = run(["stream", "-", "--batch", "5000", "--out", tmp("text.pr"), "--edges-out", tmp("text.txt")], text)
for fmt_name, code in (("bin", "<ii"), ("bin64", "<qq")):
    data = b"".join(struct.pack(code, u, v) for u, v in pairs)
    st, out, err = run(["stream", "-", "--input-format", fmt_name, "--batch", "5000", "--out", tmp("b.pr"),
                        "--edges-out", tmp("b.txt")], data)
    objs = json_lines(out, f"--input-format {fmt_name}")
    if check(st == 0 and objs, f"--input-format {fmt_name}", f"status {st}: {err[:200]}"):
        d = l1(read_scores(tmp("b.pr")), read_scores(tmp("text.pr")))
        check(d <= 1e-12 and edge_lines(tmp("b.txt")) == edge_lines(tmp("text.txt")) and objs[-1]["edges_in"] == len(pairs),
              f"--input-format {fmt_name}: the text run's scores (L1 {d:.1e}) and edges", "differ")
    size = struct.calcsize(code)
    st, out, err = run(["stream", "-", "--input-format", fmt_name, "--batch", "3"], data[: 3 * size + 5])
    want = f"fluxgraph: <stdin>: byte offset {3 * size}: trailing partial pair: 5 of {size} bytes\n"
    check(st == 1 and err == want, f"--input-format {fmt_name}: a trailing partial pair is an error naming its byte offset",
          f"status {st}: {err!r}")

st, out, err = run(["stream", "-", "--format", "bin", "--batch", "5000"], b"".join(struct.pack("<ii", u, v) for u, v in pairs))
objs = json_lines(out, "--format bin")
check(st == 0 and objs and objs[-1]["edges_in"] == len(pairs) and "is now --input-format bin" in err,
      "--format bin (the old spelling) still reads int32 pairs, with a note on stderr", f"status {st}: {err[:200]}")

# ---- commas between fields; a bad line's raw bytes escaped in its error --------------------------
st, out, err = run(["stream", "-", "--batch", "10"], b"1,2\n2,\t3\n")
objs = json_lines(out, "commas")
check(st == 0 and objs and objs[-1]["edges"] == 2, "stream -: fields split by commas, as in an edge-list file", err)
st, out, err = run(["stream", "-", "--batch", "10"], b"1 2\n3 \xff\x1b[2J4\n")
check(st == 1 and err == "fluxgraph: <stdin>:2: vertex id '\\xff\\x1b[2J4' is not a non-negative integer\n",
      "a bad line's bytes outside printable ASCII are shown as \\xHH, not sent to the terminal", repr(err))

# ---- usage errors -------------------------------------------------------------------------------
for args in (["--delete-fraction", "0.5"], ["--seed", "3"], ["--compare", "--pagerank"], ["--format", "csv"], ["--input-format", "csv"],
             ["--on-error", "ignore"], ["--max-delay", "-1"]):
    st, out, err = run(["stream", "-", "--batch", "10"] + args, b"1 2\n")
    check(st == 1 and out == "" and len(err.splitlines()) == 1 and "see fluxgraph stream --help" in err,
          f"usage error: stream - {' '.join(args)}: {err.strip()}", f"status {st}, stdout {out!r}, stderr {err!r}")
for args in (["--format", "bin"], ["--input-format", "bin"]):
    st, out, err = run(["stream", email, "--batch", "10"] + args)
    check(st == 1 and "goes with stream -" in err, f"usage error: {' '.join(args)} with stream FILE: {err.strip()}", err)

# ---- a line past --max-line: an error at its number, the stream holds none of it ----------------
long_input = b"1 2\n" + b"7" * 300000 + b" 3\n2 3\n"
st, out, err = run(["stream", "-", "--batch", "10", "--max-line", "1000"], long_input)
check(st == 1 and "<stdin>:2: line longer than 1000 bytes" in err, f"--max-line: stream - stops at the long line: {err.strip()}",
      f"status {st}, stderr {err!r}")
st, out, err = run(["stream", "-", "--batch", "10", "--max-line", "1000", "--on-error", "skip"], long_input)
summary = json.loads(out.strip().splitlines()[-1]) if st == 0 else {}
check(st == 0 and summary.get("edges") == 2 and summary.get("lines_skipped") == 1,
      "--max-line with --on-error skip: the long line is skipped, the edges on both sides stay", f"status {st}, {out!r} {err!r}")

# ---- host memory is bounded by the graph, not by the input ---------------------------------------
# The same 1e5 pairs over and over (the store keeps them once): 2e6 lines, then 2e7 written through a
# pipe as the reader takes them; each run's own peak RSS (wait4). A reader that kept its input would
# show the second run's growth (~10x the first's bytes).
def stream_rss(lines):
    with open(tmp("rss.err"), "w+b") as err:
        # Under AddressSanitizer freed blocks wait in a quarantine (256 MB) that fills with the input's
        # batches: off here, so the figure is the program's own (the variable means nothing elsewhere).
        asan = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS"), "quarantine_size_mb=0"]))
        p = subprocess.Popen([BIN, "stream", "-", "--batch", "100000", "--top", "0"], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=err, env=dict(os.environ, ASAN_OPTIONS=asan))
        rng = random.Random(7)
        chunk = "".join(f"{rng.randrange(1000)} {rng.randrange(1000)}\n" for _ in range(100000)).encode()
        for _ in range(lines // 100000):
            p.stdin.write(chunk)
        p.stdin.close()
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return p.returncode, err.read().decode(), usage.ru_maxrss


st1, err1, rss_small = stream_rss(2000000)
st2, err2, rss_large = stream_rss(20000000)
check(st1 == 0 and st2 == 0 and rss_large < rss_small + 64 * 1024,
      f"stream -: host memory bounded by the graph: {rss_small // 1024} MB at 2e6 lines, at most {rss_large // 1024} MB at 2e7",
      f"status {st1}/{st2}, {err1[:200]} {err2[:200]}")

if failures:
    print(f"\n{len(failures)} of {checks} checks FAILED:")
    print("\n".join("  " + f for f in failures))
    sys.exit(1)
print(f"{checks} checks passed")
