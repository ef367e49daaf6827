"""Invalid input: ValueError (TypeError for a wrong type) with posenc's one-line message, no table."""

import json
import math

import numpy as np
import pytest

import posenc

CFG = {"head_dim": 64}


@pytest.mark.parametrize("call,message", [
    (lambda: posenc.rope_table({"head_dim": 7}, 4), "rope_table: invalid RoPE config: rotary dim must be even"),
    (lambda: posenc.rope_table({"model_type": "gemma3_text", "num_hidden_layers": 6}, 4),
     "rope_table: model_type: per-layer RoPE (2 distinct tables over 6 layers): choose one with layer=N"),
    (lambda: posenc.rope_table({"head_dim": 64, "rope_scaling": {"rope_type": "fancy"}}, 4),
     'rope_scaling.rope_type: unknown rope type "fancy"'),
    (lambda: posenc.rope_table({"head_dim": 64, "rope_theta": "big"}, 4), "rope_theta"),
    (lambda: posenc.rope_table({"hidden_size": 10}, 4), "head_dim"),
    (lambda: posenc.rope_table(CFG, 1 << 22), "positions past 2^21"),
    (lambda: posenc.rope_table(CFG, 10, start=(1 << 21) - 5), "positions past 2^21"),
    (lambda: posenc.rope_table(CFG, [0, (1 << 21) + 1]), "past 2^21"),
    (lambda: posenc.rope_table(CFG, [3, -1]), "non-negative"),
    (lambda: posenc.rope_table(CFG, []), "at least one position"),
    (lambda: posenc.rope_table(CFG, 0), "at least 1"),
    (lambda: posenc.rope_table(CFG, [[1, 2]]), "one-dimensional"),
    (lambda: posenc.rope_table(CFG, [1, 2], start=3), "start applies"),
    (lambda: posenc.rope_table(CFG, 4, layout="diagonal"), "unknown layout"),
    (lambda: posenc.rope_table(CFG, 4, policy="ggml"), "unknown policy"),
    (lambda: posenc.rope_table(CFG, 4, rope_type="quantum"), 'unknown rope type "quantum"'),
    (lambda: posenc.rope_table({"head_dim": 64, "rope_theta": math.nan}, 4), "not a JSON object"),
    (lambda: posenc.rope_table("/no/such/config.json", 4), "/no/such/config.json: cannot read"),
    (lambda: posenc.rope_table({"head_dim": 64}, 4, "float16", fold_attention=True, rope_type="yarn",
                               factor=4.0, original_max_position_embeddings=4096, attention_factor=1e6),
     "overflows float16 at position 0"),
    (lambda: posenc.rope_table({"head_dim": 64}, 4, policy="hf_float32", rope_theta=1.0), "invalid RoPE config"),
    (lambda: posenc.rope_inv_freq({"head_dim": 64, "rope_scaling": {"type": "linear", "factor": -2}}),
     "invalid RoPE config"),
    (lambda: posenc.alibi_slopes(heads=0), "alibi_slopes: invalid ALiBi config: heads must be at least 1"),
    (lambda: posenc.alibi_slopes(heads=8, max_bias=0.1), "max_bias must be a multiple of 2^-16"),
    (lambda: posenc.alibi_slopes({"head_dim": 64}), "alibi_slopes: alibi: no ALiBi settings"),
    (lambda: posenc.alibi_slopes(), "heads is required"),
    (lambda: posenc.alibi_bias(heads=4, positions=0), "at least 1"),
    (lambda: posenc.alibi_bias_by_distance(heads=8, distances=200000, dtype="float16"),
     "the bias overflows float16 at head 0, distance 131040"),
    (lambda: posenc.t5_buckets(num_buckets=32, range=5), "num_buckets and max_distance are required"),
    (lambda: posenc.t5_buckets(num_buckets=1, max_distance=128, range=5), "invalid T5 config"),
    (lambda: posenc.t5_buckets({"head_dim": 64}, range=5), "relative_attention_num_buckets: missing"),
    (lambda: posenc.deberta_buckets(5, position_buckets=1), "deberta_buckets: invalid DeBERTa config"),
    (lambda: posenc.logn_factors(4, start=0), "n outside [1, 2^52]"),
    (lambda: posenc.logn_factors(4, base=1), "logn_factors: invalid log-n config"),
    (lambda: posenc.sinusoidal_table(4, 0), "at least 1"),
    (lambda: posenc.sinusoidal_table(4, 16, base=math.inf), "base must be finite"),
    (lambda: posenc.sinusoidal_table(4, 16, exponent="odd"), "unknown exponent"),
    (lambda: posenc.xpos_scales(2, 8, "float16", start=1 << 30, inverse=True), "the scale overflows float16 at position"),
    (lambda: posenc.xpos_scales(2, 7), "invalid XPOS config"),
    # ggml_float32: default and linear scaling only, refused by name for the others (rope::applies'
    # words, the CLI's too: tests/test_cli_emit.cpp)
    (lambda: posenc.rope_table({"head_dim": 64, "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
                                                                 "original_max_position_embeddings": 4096}},
                               4, policy="ggml_float32"),
     "rope_table: policy 'ggml_float32': ggml's float32 recurrence covers rope_type default and linear only "
     "(this config: rope_type yarn)"),
    (lambda: posenc.rope_table(CFG, 4, policy="ggml_float32", rope_type="llama3", factor=8.0, low_freq_factor=1.0,
                               high_freq_factor=4.0, original_max_position_embeddings=8192),
     "(this config: rope_type llama3)"),
    (lambda: posenc.rope_table(CFG, 4, policy="ggml_float32", rope_type="dynamic", factor=2.0,
                               max_position_embeddings=2048), "(this config: rope_type dynamic)"),
    (lambda: posenc.rope_table(CFG, 4, policy="ggml_float32", rope_type="ntk", factor=2.0),
     "(this config: rope_type ntk)"),
    (lambda: posenc.rope_table(CFG, 4, policy="ggml_float32", proportional=True, partial_rotary_factor=0.5),
     "rope_table: policy 'ggml_float32': ggml's float32 recurrence does not cover proportional RoPE "
     "(this config: rope_type default, proportional)"),
    (lambda: posenc.rope_inv_freq(CFG, policy="ggml_float32", rope_type="ntk", factor=2.0),
     "rope_inv_freq: policy 'ggml_float32': ggml's float32 recurrence covers rope_type default and linear only "
     "(this config: rope_type ntk)"),
    # KERPLE, Sandwich, Shaw, Transformer-XL
    (lambda: posenc.kerple_log_bias(4, p=[1.0, 2.0], a=[0.5]), "kerple_log_bias: p has 2 values and a 1"),
    (lambda: posenc.kerple_log_bias(4, p=[], a=[]), "at least one head"),
    (lambda: posenc.kerple_log_bias(0, p=1.0, a=1.0), "distances must be at least 1"),
    (lambda: posenc.kerple_log_bias(4, p=1.0, a=0.0),
     "kerple_log_bias: invalid KERPLE-log head 0: KERPLE-log a must be finite and at least 2^-60"),
    (lambda: posenc.kerple_log_bias(4, p=[1.0, -1.0], a=[1.0, 1.0]),
     "invalid KERPLE-log head 1: KERPLE-log p must be finite and positive"),
    (lambda: posenc.kerple_log_bias(4, p=math.inf, a=1.0), "KERPLE-log p must be finite and positive"),
    (lambda: posenc.kerple_power_bias(4, p=2.5, a=1.0),
     "kerple_power_bias: invalid KERPLE-power head 0: KERPLE-power p must be in (0, 2]"),
    (lambda: posenc.kerple_power_bias(4, p=1.0, a=math.nan), "KERPLE-power a must be finite and positive"),
    (lambda: posenc.kerple_log_bias(10, "float16", p=1e5, a=1.0),
     "kerple_log_bias: the bias overflows float16 at head 0, distance 1"),
    (lambda: posenc.kerple_power_bias(70000, "float16", p=[1.0, 1.0], a=[0.5, 1.0]),
     "kerple_power_bias: the bias overflows float16 at head 1, distance 65520"),
    (lambda: posenc.kerple_log_bias(3, p=1.0, a=2.0 ** 83),
     "kerple_log_bias: head 0, distance 2 is outside KERPLE-log's range (a k < 2^84)"),
    (lambda: posenc.kerple_power_bias((1 << 26) + 1, p=1.0, a=1.0), "distances must be at most 2^26"),
    (lambda: posenc.sandwich_bias(4, 63, 2),
     "sandwich_bias: invalid Sandwich config: dim must be even and in [2, 4096]"),
    (lambda: posenc.sandwich_bias(4, 64, 0), "invalid Sandwich config: heads must be in [1, 4096]"),
    (lambda: posenc.sandwich_bias(0, 64, 2), "distances must be at least 1"),
    (lambda: posenc.sandwich_bias(1 << 20, 4096, 4096), "sandwich_bias: table too costly"),
    (lambda: posenc.shaw_relative_indices(4, max_relative_position=0),
     "shaw_relative_indices: invalid Shaw config: max_relative_position must be in [1, 2^30]"),
    (lambda: posenc.shaw_relative_indices(1 << 17), "shaw_relative_indices: table too large"),
    (lambda: posenc.shaw_relative_indices(0), "at least 1"),
    (lambda: posenc.transformer_xl_table(63, 8),
     "transformer_xl_table: invalid Transformer-XL config: d_model must be even and in [2, 65536]"),
    (lambda: posenc.transformer_xl_table(64, 0), "klen must be in [1, 2^40]"),
    (lambda: posenc.transformer_xl_table(64, 8, model="xlnet", qlen=9), "qlen must be in [0, klen]"),
    (lambda: posenc.transformer_xl_table(64, 8, qlen=4), "qlen applies to model='xlnet' only"),
    (lambda: posenc.transformer_xl_table(64, 8, bi_data=True), "bi_data applies to model='xlnet' only"),
    (lambda: posenc.transformer_xl_table(64, 8, model="gpt"), "unknown model 'gpt'"),
    (lambda: posenc.transformer_xl_positions(8, model="xlnet", attn_type="tri"), "unknown attn_type 'tri'"),
    (lambda: posenc.transformer_xl_positions(1 << 40), "transformer_xl_positions: table too large"),
])
def test_bad_input_is_a_value_error_naming_it(call, message):
    with pytest.raises(ValueError) as e:
        call()
    text = str(e.value)
    assert message in text and "\n" not in text


@pytest.mark.parametrize("call,message", [
    (lambda: posenc.rope_table(42, 4), "config must be a dict"),
    (lambda: posenc.rope_table(CFG, 4.0), "positions must be an int or a one-dimensional sequence of ints"),
    (lambda: posenc.rope_table(CFG, [0.5, 1.0]), "positions must be integers"),
    (lambda: posenc.rope_table(CFG, True), "bool"),
    (lambda: posenc.rope_table(CFG, 4, "int8"), "unsupported dtype"),
    (lambda: posenc.rope_table(CFG, 4, no_such_field=1), "unknown RoPE config field 'no_such_field'"),
    (lambda: posenc.rope_table(CFG, 4, rope_theta="x"), "rope_theta: expected a number"),
    (lambda: posenc.rope_table(CFG, 4, head_dim=64.5), "head_dim: expected an integer"),
    (lambda: posenc.rope_table(CFG, 4, truncate=1), "truncate: expected a bool"),
    (lambda: posenc.rope_table(CFG, 4, fold_attention="yes"), "fold_attention must be a bool"),
    (lambda: posenc.alibi_slopes(heads=2.5), "heads must be an integer"),
    (lambda: posenc.kerple_log_bias(4, p="1.0", a=1.0), "p must be a number or a one-dimensional sequence"),
    (lambda: posenc.kerple_power_bias(4, p=[1.0, True], a=[1.0, 1.0]), "p[1] must be a number"),
    (lambda: posenc.kerple_log_bias(4, p=[[1.0]], a=[[1.0]]), "p must be a number or a one-dimensional sequence"),
    (lambda: posenc.kerple_log_bias(4.0, p=1.0, a=1.0), "distances must be an integer"),
    (lambda: posenc.sandwich_bias(4, 64.0, 2), "dim must be an integer"),
    (lambda: posenc.shaw_relative_indices(4, max_relative_position=2.0), "max_relative_position must be an integer"),
    (lambda: posenc.transformer_xl_table(64, 8, model="xlnet", bi_data=1), "bi_data must be a bool"),
    (lambda: posenc.transformer_xl_table(64, 8.5), "klen must be an integer"),
])
def test_wrong_types_are_type_errors(call, message):
    with pytest.raises(TypeError, match=None) as e:
        call()
    assert message in str(e.value)


def test_no_nan_anywhere_in_large_tables():
    for dtype in ("float64", "float32", "float16", "bfloat16"):
        cos, sin = posenc.rope_table({"head_dim": 64, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0},
                                      "max_position_embeddings": 2048}, 4096, dtype, seq_len=8192)
        for t in (cos, sin):
            f = posenc.bfloat16_to_float32(t) if dtype == "bfloat16" else np.asarray(t, dtype=np.float64)
            assert np.all(np.isfinite(f)) and np.all(np.abs(f) <= 1)


def test_config_text_is_read_exactly(tmp_path):
    """A path's JSON goes to posenc::io untouched: 0.1 is the double nearest 0.1, once."""
    p = tmp_path / "config.json"
    p.write_text(json.dumps({"head_dim": 64, "rope_theta": 12345.1}))
    assert posenc.rope_config(p)["rope_theta"] == 12345.1
    assert posenc.rope_config({"head_dim": 64, "rope_theta": 12345.1})["rope_theta"] == 12345.1
