"""fluxgraph.pointsto: constraint files and LLVM IR, against the sets the test files state."""
import glob
import os
import re

import pytest

import fluxgraph
from conftest import data


def stated_sets(path, marker):
    """The 'marker node: objects' lines of a test file: lines that start so (constraint files), or
    comments that end a line (C snippets)."""
    sets = {}
    pattern = (r"^" if marker == "#=" else "") + re.escape(marker) + r" (\S+):(.*)$"
    with open(path) as f:
        for line in f:
            m = re.search(pattern, line)
            if m:
                sets[m.group(1)] = set(m.group(2).split())
    return sets


def test_constraint_files(device):
    files = glob.glob(data("pointsto", "*.txt"))
    assert len(files) >= 5
    for path in files:
        pts = fluxgraph.pointsto(path, device=device, check=True)
        want = stated_sets(path, "#=")
        assert pts.to_dict() == want, path  # these files state every non-empty set


def test_llvm_ir(device):
    files = glob.glob(data("pointsto", "ir", "*.ll"))
    assert len(files) >= 4
    for path in files:
        try:
            pts = fluxgraph.pointsto(path, device=device, check=True)
        except ValueError as e:  # a build without LLVM says so
            assert "no LLVM" in str(e)
            pytest.skip("this build reads no LLVM IR")
        want = stated_sets(os.path.splitext(path)[0] + ".c", "//=")
        assert len(want) >= 3
        for node, objects in want.items():
            assert pts[node] == objects, (path, node)
        assert pts.info["facts"] == len(pts.col)


def test_bad_ir_names_the_file(tmp_path):
    bad = tmp_path / "bad.ll"
    bad.write_text("define i32 @main() {\n  ret i32 %nope\n}\n")
    with pytest.raises((fluxgraph.InputError, ValueError)) as e:
        fluxgraph.pointsto(bad)
    assert "bad.ll" in str(e.value)
