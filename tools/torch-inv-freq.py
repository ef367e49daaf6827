#!/usr/bin/env python3
"""Does `posenc emit rope-freq --policy hf-float32` give torch's float32 inv_freq, bit for bit?

For each model config, computes inv_freq in torch the way HF transformers' modeling_rope_utils.py
(v5 text) does for its rope type (default / partial rotary, dynamic NTK at __init__, yarn,
longrope, llama3: transcribed below, each line a torch op on a float32 tensor or a Python float)
and compares it with the CLI's. Prints one line per config and, for a difference, the pairs and
both values. docs/rope-precision.md ("torch's pow") records a run.

Usage: python3 tools/torch-inv-freq.py POSENC_BINARY
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


def rope_dim(c):
    if "rotary_dim" in c:  # GPT-J
        return c["rotary_dim"]
    head_dim = c.get("head_dim") or c["hidden_size"] // c["num_attention_heads"]
    prf = c.get("partial_rotary_factor", c.get("rotary_pct", 1.0))
    return int(head_dim * prf)


def default_inv(base, dim):
    # _compute_default_rope_parameters: a Python float base meets a float32 tensor
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=torch.float) / dim))


def hf_inv_freq(c, seq_len=None):
    rs = c.get("rope_scaling") or {}
    kind = rs.get("rope_type", rs.get("type", "default"))
    base, dim = float(c.get("rope_theta", 10000.0)), rope_dim(c)
    if kind == "default":
        return default_inv(base, dim)
    if kind == "dynamic":
        factor, mp = rs["factor"], c["max_position_embeddings"]
        if seq_len is None:  # __init__: seq_len = max_position_embeddings, Python floats
            base = base * ((factor * mp / mp) - (factor - 1)) ** (dim / (dim - 2))
        else:  # forward (dynamic_rope_update): seq_len = max(position_ids) + 1, an int64 tensor
            seq = torch.tensor(seq_len, dtype=torch.int64)
            base = base * ((factor * seq / mp) - (factor - 1)) ** (dim / (dim - 2))  # a float32 0-dim tensor
        return default_inv(base, dim)
    if kind == "yarn":
        factor = rs["factor"]
        l0 = rs.get("original_max_position_embeddings") or c["max_position_embeddings"]
        beta_fast, beta_slow = rs.get("beta_fast") or 32, rs.get("beta_slow") or 1

        def corr_dim(n_rot):
            return (dim * math.log(l0 / (n_rot * 2 * math.pi))) / (2 * math.log(base))

        low, high = corr_dim(beta_fast), corr_dim(beta_slow)
        if rs.get("truncate", True):
            low, high = math.floor(low), math.ceil(high)
        low, high = max(low, 0), min(high, dim - 1)
        if low == high:
            high += 0.001
        ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float32) - low) / (high - low), 0, 1)
        pos_freqs = base ** (torch.arange(0, dim, 2).to(dtype=torch.float) / dim)
        extrap, interp = 1.0 / pos_freqs, 1.0 / (factor * pos_freqs)
        ef = 1 - ramp.to(dtype=torch.float)
        return interp * (1 - ef) + extrap * ef
    if kind == "longrope":
        l0 = c.get("original_max_position_embeddings") or c["max_position_embeddings"]
        long = seq_len is not None and seq_len > l0
        ext = torch.tensor(rs["long_factor"] if long else rs["short_factor"], dtype=torch.float32)
        shape = torch.arange(0, dim, 2, dtype=torch.int64).float() / dim
        return 1.0 / (ext * base**shape)
    if kind == "llama3":
        inv = default_inv(base, dim)
        factor, lff, hff = rs["factor"], rs["low_freq_factor"], rs["high_freq_factor"]
        old = rs["original_max_position_embeddings"]
        low_wl, high_wl = old / lff, old / hff
        wavelen = 2 * math.pi / inv
        llama = torch.where(wavelen > low_wl, inv / factor, inv)
        sf = (old / wavelen - lff) / (hff - lff)
        smoothed = (1 - sf) * llama / factor + sf * llama
        medium = ~(wavelen < high_wl) * ~(wavelen > low_wl)
        return torch.where(medium, smoothed, llama)
    raise SystemExit(f"rope type {kind} is not transcribed here")


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
