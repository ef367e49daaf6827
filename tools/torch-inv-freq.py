#!/usr/bin/env python3
"""Does `posenc emit rope-freq --policy hf-float32` give torch's float32 inv_freq, bit for bit?

For each model config, computes inv_freq in torch the way HF transformers' modeling_rope_utils.py
(v5 text) does for its rope type (default / partial rotary, dynamic NTK at __init__, yarn,
longrope, llama3: transcribed in examples/python/check_torch_rope_cache.py, each line a torch op
on a float32 tensor or a Python float)
and compares it with the CLI's. Prints one line per config and, for a difference, the pairs and
both values. docs/rope-precision.md ("torch's pow") records a run.

Usage: PYTHONPATH=build/gcc/python python3 tools/torch-inv-freq.py POSENC_BINARY
       ATEN_CPU_CAPABILITY=avx512|default python3 tools/torch-inv-freq.py POSENC_BINARY
Needs Debian python3-torch (local only: CI does not run this).
"""
import json
import math
import os
import subprocess
import sys
import tempfile

import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


# HF's inv_freq transcribed in torch lives in the example that checks a model's cache with it.
sys.path.insert(0, os.path.join(ROOT, "examples", "python"))
from check_torch_rope_cache import hf_inv_freq  # noqa: E402


def posenc_inv_freq(binary, path, seq_len=None):
    cmd = [binary, "emit", "rope-freq", "--hf-config", path, "--policy", "hf-float32", "--dtype", "f32"]
    if seq_len is not None:
        cmd += ["--seq-len", str(seq_len)]
    lines = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
    return [float.fromhex(l.split(",")[1]) for l in lines[1:] if l[0].isdigit()]


def configs():
    cfg = os.path.join(ROOT, "examples", "configs")
    load = lambda name: json.load(open(os.path.join(cfg, name + ".json")))  # noqa: E731
    yield "Mistral-7B-v0.3 / Qwen3-8B (d 128, theta 1e6)", {"head_dim": 128, "rope_theta": 1e6,
                                                            "max_position_embeddings": 32768}, None
    yield "Llama-2 (d 128, theta 1e4)", {"head_dim": 128, "rope_theta": 1e4, "max_position_embeddings": 4096}, None
    for name in ["qwen2.5-7b-instruct-yarn", "gemma-2-2b", "gpt-oss-20b", "llama-3.1-8b", "llama-3.2-1b",
                 "deepseek-v3", "gpt-j-6b", "pythia-160m"]:
        c = load(name)
        if name == "deepseek-v3":  # posenc's reader takes qk_rope_head_dim as the rotary dim
            c = dict(c, head_dim=c["qk_rope_head_dim"])
        yield name, c, None
    phi = load("phi-3.5-mini-instruct")
    yield "phi-3.5-mini-instruct, short factors (seq_len 4096)", phi, 4096
    yield "phi-3.5-mini-instruct, long factors (seq_len 131072)", phi, 131072
    yield "dynamic NTK (d 128, theta 1e4, factor 2, __init__)", {
        "head_dim": 128, "rope_theta": 1e4, "max_position_embeddings": 4096,
        "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}, None
    yield "dynamic NTK (d 128, theta 1e4, factor 2, seq_len 8192 > 4096: forward)", {
        "head_dim": 128, "rope_theta": 1e4, "max_position_embeddings": 4096,
        "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}, 8192
    yield "dynamic NTK (d 128, theta 1e6, factor 4, seq_len 50000 > 32768: forward)", {
        "head_dim": 128, "rope_theta": 1e6, "max_position_embeddings": 32768,
        "rope_scaling": {"rope_type": "dynamic", "factor": 4.0}}, 50000
    yield "d 80 (40 pairs: 8 after the last block of 16)", {"head_dim": 80, "rope_theta": 1e6,
                                                            "max_position_embeddings": 4096}, None


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    print(f"torch {torch.__version__}, {torch.backends.cpu.get_cpu_capability() if hasattr(torch.backends, 'cpu') else ''}"
          f" ATEN_CPU_CAPABILITY={os.environ.get('ATEN_CPU_CAPABILITY', '(unset)')}")
    bad = 0
    for name, c, seq_len in configs():
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(c, f)
        try:
            mine = posenc_inv_freq(sys.argv[1], f.name, seq_len)
        finally:
            os.unlink(f.name)
        ref = hf_inv_freq(c, seq_len).tolist()
        diff = [j for j in range(len(ref)) if ref[j] != mine[j]]
        print(f"{name}: {len(ref) - len(diff)} of {len(ref)} inv_freq equal" +
              "".join(f"; pair {j}: torch {ref[j].hex()}, posenc {mine[j].hex()}" for j in diff[:4]))
        bad += bool(diff) or len(ref) != len(mine)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
