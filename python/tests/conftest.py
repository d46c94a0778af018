"""Shared fixtures: the test data folder, the CLI, and the devices this build has."""
import os

import pytest

import fluxgraph

DATA = os.environ.get("FG_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data"))
CLI = os.environ.get("FG_CLI")
# Every test that takes `device` runs on the build's device and on the host twin ("cpu": the
# sequential reference in the CUDA build, the same OpenMP system in the CPU build).
DEVICES = ["auto", "cpu"]


def data(*parts):
    return os.path.join(DATA, *parts)


@pytest.fixture(params=DEVICES)
def device(request):
    return request.param


@pytest.fixture
def cupy():
    if fluxgraph.build != "cuda":
        pytest.skip("CuPy arrays need the CUDA build")
    return pytest.importorskip("cupy")
