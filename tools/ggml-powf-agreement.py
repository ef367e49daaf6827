#!/usr/bin/env python3
"""Does posenc's ggml_float32 policy compute ggml's theta_scale = powf(base, -2/d) as this machine's C
library does? posenc uses a correctly rounded powf; ggml's CPU backend calls libm's powf, which is
not correctly rounded (glibc's has errors below 1 ulp). Sweeps bases x even head dims and prints the
pairs where they differ (docs/rope-precision.md, "ggml's powf").
Usage: PYTHONPATH=build/gcc/python python3 tools/ggml-powf-agreement.py
"""
import ctypes
import ctypes.util

import numpy as np

import posenc

libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
libm.powf.restype = ctypes.c_float
libm.powf.argtypes = [ctypes.c_float, ctypes.c_float]

bases = [10000.0, 15000.0, 20000.0, 75000.0, 100000.0, 150000.0, 200000.0, 300000.0, 500000.0, 640000.0,
         1000000.0, 5000000.0, 8000000.0, 25000000.0, 100000000.0]
total, differ = 0, []
for base in bases:
    for d in range(4, 1025, 2):
        exponent = np.float32(-2.0) / np.float32(d)
        libm_value = np.float32(libm.powf(np.float32(base), exponent))
        inv, _ = posenc.rope_inv_freq(None, "float32", policy="ggml_float32", head_dim=d, rope_theta=base)
        total += 1
        if np.float32(inv[1]) != libm_value:
            differ.append((base, d, float(inv[1]).hex(), float(libm_value).hex()))
print(f"{len(differ)} of {total} (base, head_dim) pairs differ from libm's powf")
for base, d, mine, theirs in differ:
    print(f"  base {base:g}, head_dim {d}: posenc {mine}, libm {theirs}")
