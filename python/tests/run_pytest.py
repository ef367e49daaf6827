"""Runs pytest (arguments as for `python3 -m pytest`) with CPython's frame stack in one large chunk.

Why: CPython 3.11 (Debian 12's) keeps the frames of Python calls in 16 KB chunks that it maps with
mmap when a call does not fit in the current chunk and unmaps as soon as the call that needed it
returns. Hypothesis draws its examples through deep, varying call chains, so a loop that keeps
crossing a chunk boundary maps and unmaps a fresh chunk on each call, and each fresh page faults:
the posenc.testing tests made 68,000 mmap/munmap pairs and 79,000 page faults for one test case,
and spent more time in the kernel than in Python (the module's suite: 21 s user and 27 s system
time under `python3 -m pytest`; 21 s user and 2.7 s system under this runner, the same tests
passing).

How: a call's frame that does not fit gets a chunk of at least its own size, rounded up to a power
of two, and the frames of the calls it makes go in the rest of that chunk. So pytest is called from
a function with 2^15 local variables (a 256 KB frame, hence a 512 KB chunk): every frame of the run
lives in the remaining 256 KB (thousands of frames deep), and no boundary is crossed. Nothing else
changes; the tests are collected and run exactly as by `python3 -m pytest`.
"""

import sys

import pytest


def _call_from_large_frame(n_locals):
    body = "def call(fn, *args):\n" + "".join(f"    _slot{i} = None\n" for i in range(n_locals))
    body += "    return fn(*args)\n"
    namespace = {}
    exec(compile(body, "<run_pytest>", "exec"), namespace)
    return namespace["call"]


if __name__ == "__main__":
    sys.exit(_call_from_large_frame(1 << 15)(pytest.main, sys.argv[1:]))
