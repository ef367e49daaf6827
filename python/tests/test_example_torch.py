"""The torch example (examples/python/check_torch_rope_cache.py) run as a user runs it: torch's own
float32 RoPE cache against posenc's HF pipeline and the exact values, on the configs where torch's
power differs. Pure Python over the module's functions, with torch: it runs once, in the GCC build
(python_testing), since what it checks does not depend on the compiler of posenc's module."""

import json
import os
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR


def test_torch_example(tmp_path):
    pytest.importorskip("torch")
    script = SOURCE_DIR / "examples" / "python" / "check_torch_rope_cache.py"
    r = subprocess.run([sys.executable, str(script), "--positions", "4096"], capture_output=True, text=True,
                       env=os.environ.copy(), timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "within 1 ulp" in r.stdout
    # the configs the issue found torch's pow to differ on: Mistral-7B-v0.3's settings (theta 1e6,
    # Llama's shape), Qwen2.5's YaRN, Gemma-2, Phi-3.5's LongRoPE (long factors past 4096), gpt-oss's YaRN
    mistral = {"head_dim": 128, "rope_theta": 1e6, "max_position_embeddings": 32768}
    for config in [None, "qwen2.5-7b-instruct-yarn", "gemma-2-2b", "phi-3.5-mini-instruct", "gpt-oss-20b"]:
        if config is None:
            path = tmp_path / "mistral.json"
            path.write_text(json.dumps(mistral))
        else:
            path = SOURCE_DIR / "examples" / "configs" / f"{config}.json"
        r = subprocess.run([sys.executable, str(script), str(path), "--positions", "6000"], capture_output=True,
                           text=True, env=os.environ.copy(), timeout=600)
        assert r.returncode == 0, (config, r.stdout + r.stderr)
