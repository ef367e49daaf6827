"""posenc.rope_table(config, positions, layer=N) on per-layer models and rope_ratio_meaning on
ChatGLM configs (docs/rope-layers.md): each layer's table equals the plain table of the config HF
builds for that layer (pe-formulas-more.md sections 2, 3 and 5)."""
import os

import numpy as np
import pytest

import posenc

CONFIGS = os.path.join(os.environ.get("POSENC_SOURCE_DIR", "."), "examples", "configs")


def test_gemma3_layers_are_their_plain_tables():
    path = os.path.join(CONFIGS, "gemma-3-4b-it.json")
    glob_cos, glob_sin = posenc.rope_table(path, 8, layer=5, start=1000)
    loc_cos, loc_sin = posenc.rope_table(path, 8, layer=0, start=1000)
    want_glob = posenc.rope_table(None, 8, start=1000, head_dim=256, rope_theta=1e6, rope_type="linear", factor=8.0)
    want_loc = posenc.rope_table(None, 8, start=1000, head_dim=256, rope_theta=1e4)
    assert np.array_equal(glob_cos, want_glob[0]) and np.array_equal(glob_sin, want_glob[1])
    assert np.array_equal(loc_cos, want_loc[0]) and np.array_equal(loc_sin, want_loc[1])
    assert not np.array_equal(glob_cos, loc_cos)


def test_nope_layer_and_missing_layer_are_errors():
    llama4 = os.path.join(CONFIGS, "llama-4-scout-17b-16e.json")
    with pytest.raises(ValueError, match="layer 3 has no RoPE"):
        posenc.rope_table(llama4, 4, layer=3)
    with pytest.raises(ValueError, match="choose one with layer=N"):
        posenc.rope_table(os.path.join(CONFIGS, "gemma-3-4b-it.json"), 4)


def test_glm4_rope_ratio_meanings():
    glm = os.path.join(CONFIGS, "glm-4-9b-chat.json")
    with pytest.raises(ValueError, match="rope_ratio"):
        posenc.rope_table(glm, 4)
    got = posenc.rope_table(glm, 4, rope_ratio_meaning="base")
    # The config's layout (ChatGLM: interleaved pairs) is the default, as in `posenc emit rope`.
    want = posenc.rope_table(None, 4, head_dim=128, partial_rotary_factor=0.5, rope_theta=5e6, layout="interleaved")
    assert got[0].shape == (4, 64)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def test_layout_defaults_to_the_models():
    """As `posenc emit rope`, the layout follows the config: interleaved for GLM-4 (ChatGLM format),
    half-split for Gemma-3; an explicit layout overrides it."""
    glm = os.path.join(CONFIGS, "glm-4-9b-chat.json")
    c_default, _ = posenc.rope_table(glm, 3, "float32", rope_ratio_meaning="base")
    c_inter, _ = posenc.rope_table(glm, 3, "float32", rope_ratio_meaning="base", layout="interleaved")
    c_half, _ = posenc.rope_table(glm, 3, "float32", rope_ratio_meaning="base", layout="half_split")
    assert (c_default == c_inter).all()
    assert not (c_default == c_half).all()
    gemma = os.path.join(CONFIGS, "gemma-3-4b-it.json")
    g_default, _ = posenc.rope_table(gemma, 3, "float32", layer=5)
    g_half, _ = posenc.rope_table(gemma, 3, "float32", layer=5, layout="half_split")
    assert (g_default == g_half).all()
