#!/usr/bin/env python3
"""How close correct RoPE kernels come to posenc.testing's derived bound (docs/testing-kernels.md).

Runs the gallery's correct kernels (python/tests/test_testing_kernels.py) through check_rope_apply on
Llama-3.1-8B and prints the largest error over bound each reaches.
Usage: PYTHONPATH=build/gcc/python python3 tools/testing-tightness.py [examples ...]   (default 200 1000)
"""
import sys
from pathlib import Path

import numpy as np

root = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(root / "python" / "tests"))
import posenc.testing as pt  # noqa: E402
import test_testing_kernels as gallery  # noqa: E402

cfg = root / "examples" / "configs" / "llama-3.1-8b.json"
kernels = [
    ("posenc's float32 table (correctly rounded), float64 products and sums",
     gallery.rope_kernel(cfg, posenc_table=True, compute=np.float64),
     {"compute_dtype": "float64", "table_rounding": "correct"}),
    ("posenc's float32 table (correctly rounded), float32 products and sums",
     gallery.rope_kernel(cfg, posenc_table=True), {"table_rounding": "correct"}),
    ("bfloat16 result, float32 table .to(bfloat16) (faithful), bfloat16 operations",
     gallery.rope_kernel(cfg, dtype="bf16", table="bf16", compute="bf16", posenc_table=True), {"dtype": "bfloat16"}),
]
counts = [int(a) for a in sys.argv[1:]] or [200, 1000]
for name, kernel, kw in kernels:
    ratios = [pt.check_rope_apply(kernel, cfg, examples=n, seed=gallery.SEED, **kw).worst_ratio for n in counts]
    print(f"| {name} | {' / '.join(map(str, counts))} | {' / '.join(f'{r:.3f}' for r in ratios)} |")
