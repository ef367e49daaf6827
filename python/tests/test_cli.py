"""`python3 -m posenc`, the examples, and agreement with the C++ command line `posenc emit`."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import posenc


def run_module(*args):
    return subprocess.run([sys.executable, "-m", "posenc", *map(str, args)], capture_output=True, text=True,
                          env=os.environ.copy(), timeout=120)


def test_version():
    r = run_module("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"posenc {posenc.__version__}"


def test_table_npz_equals_rope_table(configs, tmp_path):
    out = tmp_path / "t.npz"
    r = run_module("table", configs / "llama-3.2-1b.json", "--positions", 64, "--start", 10, "--dtype", "bfloat16",
                   "-o", out)
    assert r.returncode == 0, r.stderr
    z = np.load(out)
    cos, sin = posenc.rope_table(configs / "llama-3.2-1b.json", 64, "bfloat16", start=10)
    assert z["cos"].dtype == np.uint16 and np.array_equal(z["cos"], cos.view(np.uint16))
    assert np.array_equal(z["sin"], sin.view(np.uint16))
    assert z["positions"].tolist() == list(range(10, 74))


def test_inv_freq_npz(configs, tmp_path):
    out = tmp_path / "f.npz"
    r = run_module("inv-freq", configs / "qwen2.5-7b-instruct-yarn.json", "--dtype", "float64", "-o", out)
    assert r.returncode == 0, r.stderr
    inv, att = posenc.rope_inv_freq(configs / "qwen2.5-7b-instruct-yarn.json", "float64")
    z = np.load(out)
    assert np.array_equal(z["inv_freq"], inv) and float(z["attention_factor"]) == att


@pytest.mark.skipif(not posenc.have_verify, reason="built without the verify layer")
def test_verify_command(configs, tmp_path):
    cfg = configs / "gemma-2-2b.json"
    good, bad = tmp_path / "good.npz", tmp_path / "bad.npz"
    assert run_module("table", cfg, "--positions", 40, "--start", 7, "--dtype", "float32", "-o", good).returncode == 0
    r = run_module("verify", cfg, good)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["passed"] and report["start"] == 7 and report["rows"] == 40
    z = dict(np.load(good))
    z["sin"][3, 5] = np.nextafter(z["sin"][3, 5], np.float32(0))
    np.savez(bad, **z)
    r = run_module("verify", cfg, bad)
    assert r.returncode == 1
    assert json.loads(r.stdout)["dtypes"][0]["first_failure"] == {"position": 10, "element": 5, "array": "sin"}
    r = run_module("verify", cfg, tmp_path / "none.npz")
    assert r.returncode == 2 and "cannot read" in r.stderr


@pytest.mark.parametrize("args,message", [
    (["table", "{cfg}", "--positions", "0"], "positions must be at least 1"),
    (["table", "/no/such.json", "--positions", "4"], "/no/such.json: cannot read"),
    (["table", "{cfg}", "--positions", "4", "--dtype", "int4"], "unsupported dtype"),
    (["table", "{cfg}", "--positions", "3000000"], "positions past 2^21"),
])
def test_bad_input_exits_2_with_one_line(configs, tmp_path, args, message):
    out = tmp_path / "x.npz"
    r = run_module(*[a.format(cfg=configs / "gemma-2-2b.json") for a in args], "-o", out)
    assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1
    assert not out.exists() and os.listdir(tmp_path) == []


def test_unwritable_output_exits_2(configs, tmp_path):
    r = run_module("table", configs / "gemma-2-2b.json", "--positions", "2", "-o", tmp_path / "no" / "x.npz")
    assert r.returncode == 2 and "cannot write" in r.stderr


# ---- the C++ CLI (built at build/<preset>/tools/posenc; skipped when it is not built) ----------------

CLI = os.environ.get("POSENC_CLI", "")


def cli_csv(*args):
    if not CLI or not os.path.exists(CLI):
        pytest.skip("the posenc command-line tool is not built (target posenc_cli)")
    r = subprocess.run([CLI, "emit", *map(str, args)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    return lines[0].split(","), [line.split(",") for line in lines[1:]]


def test_rope_table_equals_cli_csv(configs):
    path = configs / "phi-3.5-mini-instruct.json"
    head, rows = cli_csv("rope", "--hf-config", path, "--positions", 5, "--start", 100, "--dtype", "f32")
    assert head == ["position", "pair", "cos", "sin"]
    cos, sin = posenc.rope_table(path, 5, "float32", start=100)
    pairs = cos.shape[1] // 2
    for pos, pair, c, s in rows:
        i, j = int(pos) - 100, int(pair)
        assert cos[i, j] == np.float32(float.fromhex(c)) and sin[i, j] == np.float32(float.fromhex(s))
        assert cos[i, j + pairs] == cos[i, j]


def test_rope_defaults_equal_the_clis(configs):
    """Without a dtype, rope_table and rope_inv_freq give what `posenc emit rope` and `rope-freq` give
    without --dtype (f64, docs/cli.md): the CLI is the reference for the defaults."""
    path = configs / "llama-3.2-1b.json"
    head, rows = cli_csv("rope-freq", "--hf-config", path)
    assert head == ["pair", "inv_freq"]
    inv, att = posenc.rope_inv_freq(path)
    assert inv.dtype == np.float64
    assert [float.fromhex(v) for _, v in rows[:-1]] == inv.tolist() and float.fromhex(rows[-1][1]) == att
    _, rows = cli_csv("rope", "--hf-config", path, "--positions", 3, "--start", 4000)
    cos, sin = posenc.rope_table(path, 3, start=4000)
    assert cos.dtype == np.float64
    for pos, pair, c, s in rows:
        i, j = int(pos) - 4000, int(pair)
        assert cos[i, j] == float.fromhex(c) and sin[i, j] == float.fromhex(s)


def test_ggml_inv_freq_equals_cli_rope_freq():
    """policy ggml_float32's inv_freq (ggml's angle at position 1) is the CLI's rope-freq column."""
    for flags, over in ((["--head-dim", 64, "--rope-theta", 500000], {"head_dim": 64, "rope_theta": 500000.0}),
                        (["--head-dim", 32, "--rope-type", "linear", "--factor", 4],
                         {"head_dim": 32, "rope_type": "linear", "factor": 4.0})):
        _, rows = cli_csv("rope-freq", *flags, "--policy", "ggml-float32", "--dtype", "f32")
        inv, att = posenc.rope_inv_freq(None, "float32", policy="ggml_float32", **over)
        assert [np.float32(float.fromhex(v)) for _, v in rows[:-1]] == inv.tolist()
        assert rows[-1] == ["attention_factor", "0x1p+0"] and att == 1.0


def test_schemes_equal_cli_csv(configs):
    _, rows = cli_csv("alibi", "--heads", 12)
    assert posenc.alibi_slopes(heads=12).tolist() == [float.fromhex(v) for _, v in rows]
    _, rows = cli_csv("t5-bucket", "--hf-config", configs / "t5-small.json", "--range", 300)
    assert posenc.t5_buckets(configs / "t5-small.json", range=300).tolist() == [int(b) for _, b in rows]
