"""Builds posenc's extension posenc._core with the project's own CMake (python/CMakeLists.txt), so
that `pip install .` and `cmake --build` make the same module from the same rules.

Environment:
  POSENC_CMAKE_BUILD_DIR  an existing CMake build tree of posenc (e.g. build/gcc) to build the
                          target in instead of configuring a new one (the tests use it, to install
                          the module they already built).
  POSENC_CMAKE_ARGS       extra arguments for the configure step (e.g. -DCMAKE_CXX_COMPILER=clang++-16).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def version():
    text = (ROOT / "include" / "posenc" / "version.hpp").read_text()
    return re.search(r'#define POSENC_VERSION_STRING "([^"]+)"', text).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("POSENC_CMAKE_BUILD_DIR")
        if build_dir:
            build_dir = Path(build_dir).resolve()
        else:
            build_dir = Path(self.build_temp).resolve() / "cmake"
            build_dir.mkdir(parents=True, exist_ok=True)
            configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                         "-DPOSENC_BUILD_TESTS=OFF", "-DPOSENC_BUILD_TOOLS=OFF", "-DPOSENC_BUILD_BENCH=OFF",
                         "-DPOSENC_BUILD_PYTHON=ON", f"-DPython3_EXECUTABLE={sys.executable}"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
            configure += shlex.split(os.environ.get("POSENC_CMAKE_ARGS", ""))
            subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "posenc_python", "-j", jobs], check=True)
        built = sorted((build_dir / "python" / "posenc").glob("_core*.so"))
        if not built:
            sys.exit(f"posenc: the CMake build in {build_dir} made no posenc/_core*.so (is pybind11-dev installed? "
                     "the configure step says why it skipped the module)")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(version=version(), ext_modules=[Extension("posenc._core", sources=[])], cmdclass={"build_ext": CMakeBuild})
