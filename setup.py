"""`pip install --no-build-isolation .`: the Python module built by CMake (FG_BACKEND=auto|cpu|cuda,
as `make`; the interpreter is this one), packaged from build/pip/python/fluxgraph. No network: the
build needs what scripts/install-deps.sh installs. `make python` does the same without pip."""
import glob
import os
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        return re.search(r"project\(fluxgraph VERSION ([0-9.]+)", f.read()).group(1)


class cmake_build_py(build_py):
    def run(self):
        build = os.path.join(ROOT, "build", "pip")
        subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                               "-DFG_BACKEND=" + os.environ.get("FG_BACKEND", "auto"), "-DFG_PYTHON=" + sys.executable,
                               "-DFG_BUILD_TESTS=OFF"])
        subprocess.check_call(["cmake", "--build", build, "--target", "fluxgraph_python", "-j", str(os.cpu_count() or 2)])
        super().run()  # the package's Python files
        dest = os.path.join(self.build_lib, "fluxgraph")
        for f in glob.glob(os.path.join(build, "python", "fluxgraph", "_fluxgraph*.so")):
            shutil.copy(f, dest)  # the extension CMake built


class binary_distribution(Distribution):
    def has_ext_modules(self):  # the package holds a compiled extension: a platform wheel
        return True


setup(version=version(), packages=["fluxgraph"], package_dir={"fluxgraph": "python/fluxgraph"}, cmdclass={"build_py": cmake_build_py}, distclass=binary_distribution)
