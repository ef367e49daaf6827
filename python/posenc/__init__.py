"""posenc: positional-encoding tables, correctly rounded, from Python.

Every real entry is the exact value of its formula rounded once (to nearest, ties to even) into the
requested dtype: the bits of posenc's C++ tables, at compile time and at run time alike. numpy arrays
in and out; the work runs in C++ without the GIL.

RoPE::

    cos, sin = posenc.rope_table("config.json", 4096)              # float64, rows 0 .. 4095
    cos, sin = posenc.rope_table(cfg_dict, [0, 7, 4095], "bfloat16")
    inv_freq, attention_factor = posenc.rope_inv_freq(cfg_dict)

A table someone else built, checked entry by entry against MPFR and every RoPE law::

    report = posenc.verify(model_cos, model_sin, "config.json")     # a dict; report["passed"]

Other schemes: :func:`alibi_slopes`, :func:`alibi_bias`, :func:`alibi_bias_by_distance`,
:func:`t5_buckets`, :func:`t5_bucket_matrix`, :func:`deberta_buckets`, :func:`logn_factors`,
:func:`attn_temperature_scales`,
:func:`sinusoidal_table`, :func:`xpos_scales`, :func:`kerple_log_bias`, :func:`kerple_power_bias`,
:func:`sandwich_bias`, :func:`shaw_relative_indices`, :func:`transformer_xl_table`,
:func:`transformer_xl_positions`.

Configs (``config``) are a dict holding a HuggingFace config.json's contents, a path to one, or None;
keyword arguments override fields (see :func:`rope_table`). dtypes: ``"float64"`` (every
function's default, as the CLI's ``--dtype``), ``"float32"``, ``"float16"`` (numpy's own) and ``"bfloat16"`` (uint16 bit patterns, or ``ml_dtypes.bfloat16`` when
that package is importable). Invalid input raises ValueError (TypeError for a wrong type) with the
one-line message posenc's C++ gives; no function returns NaN or a partial table.

Documentation: docs/python.md in the posenc repository.
"""

import math
import numbers

import numpy as np

from . import _core
from ._config import check_finite, config_text
from ._dtypes import bfloat16_to_float32, dtype_code, float32_to_bfloat16_bits, present

__version__ = _core.__version__

#: Whether :func:`verify` is available (the module was built with the verify layer: Boost, MPFR).
have_verify = bool(getattr(_core, "have_verify", False))

__all__ = [
    "rope_table", "rope_inv_freq", "rope_config", "mrope_table", "mrope_position_ids", "rope_nd_table",
    "dinov3_positions", "leaky_rerope_table",
    "alibi_slopes", "alibi_bias", "alibi_bias_by_distance",
    "t5_buckets", "t5_bucket_matrix", "deberta_buckets", "logn_factors", "attn_temperature_scales",
    "sinusoidal_table", "xpos_scales",
    "kerple_log_bias", "kerple_power_bias", "sandwich_bias", "shaw_relative_indices",
    "transformer_xl_table", "transformer_xl_positions",
    "verify", "have_verify",
    "bfloat16_to_float32", "float32_to_bfloat16_bits",
    "MAX_ROPE_POSITION", "__version__",
]

#: The largest position of a RoPE table (2^21, rope::max_table_position).
MAX_ROPE_POSITION = 1 << 21

_LAYOUTS = {"half_split": "half_split", "half-split": "half_split", "neox": "half_split",
            "interleaved": "interleaved", "gptj": "interleaved"}
_POLICIES = {"exact": "exact", "hf_float32": "hf_float32", "hf-float32": "hf_float32",
             "ggml_float32": "ggml_float32", "ggml-float32": "ggml_float32"}


def _field_default(scheme, name):
    """The default of a scheme's config field, the C++ config's own: posenc._core.config_fields
    publishes each scheme's list (posenc/<scheme>/config_fields.hpp), the one the CLI's flags and
    their help come from, so a default written here cannot drift from the library's."""
    for field in _core.config_fields[scheme]:
        if field["name"] == name:
            return field["default"]
    raise KeyError(f"{scheme} has no config field {name!r}")


def _choice(name, value, table):
    if not isinstance(value, str) or value not in table:
        raise ValueError(f"unknown {name} {value!r} (expected one of: {', '.join(sorted(set(table.values())))})")
    return table[value]


def _count(name, value, least=1):
    """A count argument: an int (not a bool), at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if value < least:
        raise ValueError(f"{name} must be at least {least}, got {value}")
    return int(value)


def _integer(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    return int(value)


def _positions_array(positions):
    """A 1-D list of positions as contiguous uint64 (TypeError for non-integers, ValueError for < 0)."""
    a = np.asarray(positions)
    if a.ndim != 1:
        raise ValueError(f"positions must be an int or a one-dimensional sequence, got {a.ndim} dimensions")
    if a.size == 0:
        raise ValueError("positions is empty: a table needs at least one position")
    if a.dtype.kind not in "iu":
        if a.dtype == object and all(isinstance(p, numbers.Integral) and not isinstance(p, bool) for p in a):
            a = np.array([int(p) for p in a], dtype=object)
            if any(p < 0 for p in a):
                raise ValueError("positions must be non-negative")
            if any(p > MAX_ROPE_POSITION for p in a):
                raise ValueError("positions past 2^21 = 2097152")
            return a.astype(np.uint64)
        raise TypeError(f"positions must be integers, got dtype {a.dtype}")
    if a.dtype.kind == "i" and (a < 0).any():
        raise ValueError(f"positions must be non-negative, got {int(a.min())}")
    return np.ascontiguousarray(a, dtype=np.uint64)


# ---- RoPE ---------------------------------------------------------------------------------------


def rope_table(config, positions, dtype="float64", *, start=0, layout=None, fold_attention=False,
               policy="exact", inv_freq=None, **overrides):
    """RoPE cos and sin tables, shape ``[rows, rotary_dim]``.

    Parameters
    ----------
    config : dict, str, os.PathLike or None
        A HuggingFace config.json: its contents as a dict, or its path. posenc::io reads the RoPE part
        (``rope_theta``, ``rope_scaling`` / v5 ``rope_parameters`` with every ``rope_type`` posenc has,
        ``head_dim`` or ``hidden_size / num_attention_heads``, ``partial_rotary_factor``, GPT-NeoX's
        ``rotary_pct``, GPT-J's ``rotary_dim``, ...). None: the keyword overrides give the config.
    positions : int or 1-D sequence of int
        An int N: rows are positions ``start .. start + N - 1``. A sequence or integer array: row i is
        position ``positions[i]`` (any order, repeats allowed: KV-cache slots). Positions <= 2^21.
    dtype : str or dtype
        ``"float64"`` (default, as ``posenc emit rope``'s ``--dtype``), ``"float32"``, ``"float16"`` or
        ``"bfloat16"`` (see the module doc; ``"f64"``, ``"f32"``, ``"f16"``, ``"bf16"`` too).
    start : int
        First position when ``positions`` is a count.
    layout : ``None``, ``"half_split"`` (also ``"half-split"``) or ``"interleaved"``
        Where pair j's two elements go: ``(j, j + D/2)`` (HF's ``cat(freqs, freqs)``, GPT-NeoX) or
        ``(2j, 2j + 1)`` (GPT-J, Meta). None (default): the model's own, as ``posenc emit rope``
        defaults to it: interleaved for Llama-4, Cohere, Cohere2 and GLM configs, else half-split.
    fold_attention : bool
        Entries ``attention_factor * cos`` and ``* sin`` (HF's ``attention_scaling``, YaRN/LongRoPE),
        rounded once (exact policy) or multiplied in float32 (hf_float32). ggml_float32's factor is 1.
    policy : ``"exact"``, ``"hf_float32"`` or ``"ggml_float32"`` (also ``"hf-float32"``, ``"ggml-float32"``)
        ``exact``: the exact values of the exact scaled frequencies, rounded once into ``dtype``.
        ``hf_float32``: HuggingFace's float32 pipeline (inv_freq as HF computes it in float32, the
        float32 angle ``inv_freq[j] * float(m)``, correctly rounded cosf/sinf; the float32 powers are
        torch's CPU ones on AVX2, SLEEF's powf, not correctly rounded ones), then converted to
        ``dtype`` as ``.to(dtype)`` does: what a model's float32 rotary cache holds (within the rare
        ulp by which torch's own cos/sin differ from correctly rounded ones).
        ``ggml_float32``: ggml's CPU float32 recurrence (``theta_scale = powf(base, -2/d)``,
        ``theta = float(m)`` multiplied by ``theta_scale`` once per pair, times ``1/factor`` for linear
        scaling, correctly rounded cosf/sinf), then converted to ``dtype``; rope_type ``default`` and
        ``linear`` only (ValueError for any other scaling or proportional RoPE).
    inv_freq : 1-D float32 array of ``rotary_dim / 2`` entries, or None
        ``hf_float32`` only: your framework's own inv_freq (e.g. ``rotary_emb.inv_freq.numpy()``) in
        place of posenc's. posenc's is torch's CPU float32 pipeline on an AVX2 machine (SLEEF's
        pow, docs/rope-precision.md "torch's pow"); another torch build, CPU or GPU may round a few
        powers differently. The angles, cos/sin and attention factor then follow as usual. Must be
        float32 (TypeError otherwise: a float64 array would be rounded silently).
    **overrides
        Fields of posenc's rope::config, by HF's key names, over the config's values:
        ``head_dim``, ``rope_theta``, ``partial_rotary_factor``, ``rotary_dim``, ``rope_type``
        (``"default"``, ``"linear"``, ``"ntk"``, ``"dynamic"``, ``"yarn"``, ``"longrope"``,
        ``"llama3"``), ``factor``, ``original_max_position_embeddings``, ``max_position_embeddings``,
        ``seq_len`` (dynamic NTK's and LongRoPE's sequence length), ``beta_fast``, ``beta_slow``,
        ``mscale``, ``mscale_all_dim``, ``attention_factor``, ``truncate``, ``low_freq_factor``,
        ``high_freq_factor``, ``short_factor``, ``long_factor``, ``proportional``.

    Returns
    -------
    (cos, sin) : two numpy arrays of shape ``[rows, rotary_dim]``.

    Raises
    ------
    ValueError
        An invalid config (posenc's validate message), a position past 2^21, a folded entry that
        overflows float16, a policy that cannot reproduce this config, ...
    TypeError
        A config, position or override of the wrong type.
    """
    code = dtype_code(dtype)
    text = config_text(config)
    lay = "model" if layout is None else _choice("layout", layout, _LAYOUTS)
    pol = _choice("policy", policy, _POLICIES)
    if not isinstance(fold_attention, bool):
        raise TypeError("fold_attention must be a bool")
    if inv_freq is not None:
        if pol != "hf_float32":
            raise ValueError(f"rope_table: inv_freq applies to policy 'hf_float32' only, not '{policy}'")
        inv_freq = np.asarray(inv_freq)
        if inv_freq.dtype != np.float32:
            raise TypeError(f"inv_freq must be a float32 array (HF's tensor is float32), got {inv_freq.dtype}")
    start = _integer("start", start)
    if start < 0:
        raise ValueError(f"start must be non-negative, got {start}")
    if isinstance(positions, numbers.Integral) and not isinstance(positions, bool):
        rows = _count("positions", positions)
        if start + rows - 1 > MAX_ROPE_POSITION:
            raise ValueError(f"rope_table: positions past 2^21: start {start} + {rows} positions ends at "
                             f"{start + rows - 1} (the last position must be <= {MAX_ROPE_POSITION})")
        cos, sin = _core.rope_table(text, overrides, None, start, rows, code, lay, fold_attention, pol, inv_freq)
    else:
        if isinstance(positions, bool) or np.ndim(positions) == 0:
            raise TypeError("positions must be an int or a one-dimensional sequence of ints, got "
                            f"{type(positions).__name__}")
        if start != 0:
            raise ValueError("start applies to a count of positions, not to a list of positions")
        plist = _positions_array(positions)
        cos, sin = _core.rope_table(text, overrides, plist, 0, 0, code, lay, fold_attention, pol, inv_freq)
    return present(cos, code, dtype), present(sin, code, dtype)


def rope_inv_freq(config=None, dtype="float64", *, policy="exact", **overrides):
    """RoPE's inverse frequencies and attention factor: ``(inv_freq, attention_factor)``.

    ``inv_freq`` is a numpy array of the ``rotary_dim / 2`` frequencies theta_j of the scaled config
    (every ``rope_type``; 0 for proportional's non-rotating pairs), each the exact value rounded once
    into ``dtype`` (policy ``"exact"``), or HF's float32 tensor converted to ``dtype``
    (``"hf_float32"``), or, for ``"ggml_float32"`` (rope_type default and linear), ggml's angle of
    each pair at position 1, ``freq_scale * theta_scale^j`` by its float32 recurrence, converted to
    ``dtype``: ggml keeps no inv_freq tensor, and its angle at position m is the recurrence from
    ``float(m)``, not ``inv_freq * m``. ``attention_factor`` is a Python float: the exact value of
    the factor as rounded into ``dtype`` (HF's ``attention_scaling``; 1.0 but for YaRN and LongRoPE;
    1.0 for ggml_float32). ``dtype`` defaults to ``"float64"``, as ``posenc emit rope-freq``'s.
    ``config`` and ``overrides`` as in :func:`rope_table`; the CLI's ``posenc emit rope-freq``.
    """
    code = dtype_code(dtype)
    inv, att = _core.rope_inv_freq(config_text(config), overrides, code, _choice("policy", policy, _POLICIES))
    return present(inv, code, dtype), att


def rope_config(config=None, **overrides):
    """The RoPE config posenc reads from ``config`` and ``overrides``, validated, as a dict.

    Keys are rope::config's fields (HF's names; ``rope_type`` by name, ``attention_factor`` None when
    unset) plus ``effective_rotary_dim``, the rotary dimension the tables have.
    """
    return _core.rope_config(config_text(config), overrides)


# ---- ALiBi --------------------------------------------------------------------------------------


def _alibi_args(config, heads, max_bias):
    if heads is not None:
        heads = _integer("heads", heads)
    if max_bias is not None:
        if isinstance(max_bias, bool) or not isinstance(max_bias, numbers.Real):
            raise TypeError(f"max_bias must be a number, got {type(max_bias).__name__}")
        max_bias = check_finite("max_bias", float(max_bias))
    return config_text(config), heads, max_bias


def alibi_slopes(config=None, *, heads=None, max_bias=None, dtype="float64"):
    """ALiBi's per-head slopes m_h, shape ``[heads]``, exact then rounded once into ``dtype``.

    The rule of the paper, BLOOM, MPT and ggml: ``m_h = 2^(-max_bias (h + 1) / n)`` over the largest
    power of two n <= heads, interleaved for the rest. ``config`` is a BLOOM / MPT / Falcon config.json
    (dict or path) or None; ``heads`` and ``max_bias`` (default 8) override it. ``posenc emit alibi``.
    """
    text, heads, max_bias = _alibi_args(config, heads, max_bias)
    code = dtype_code(dtype)
    return present(_core.alibi_slopes(text, heads, max_bias, code), code, dtype)


def alibi_bias_by_distance(config=None, distances=None, *, heads=None, max_bias=None, dtype="float64"):
    """ALiBi's biases by distance, shape ``[heads, distances]``: element ``[h, k]`` is ``-m_h k``
    rounded once: the table a kernel indexes by ``|query - key|``. Arguments as :func:`alibi_slopes`."""
    text, heads, max_bias = _alibi_args(config, heads, max_bias)
    n = _count("distances", distances)
    code = dtype_code(dtype)
    return present(_core.alibi_bias_by_distance(text, heads, max_bias, n, code), code, dtype)


def alibi_bias(config=None, positions=None, *, heads=None, max_bias=None, mask="causal", masked=-math.inf,
               dtype="float64"):
    """ALiBi's dense attention biases, shape ``[heads, positions, positions]`` (query i, key j).

    ``mask="causal"``: ``-m_h (i - j)`` for keys ``j <= i`` and ``masked`` (default ``-inf``, the value
    a causal attention mask adds; rounded into ``dtype``) above the diagonal, where no bias exists.
    ``mask="symmetric"``: ``-m_h |i - j|`` everywhere (encoders; MPT's ``full=True``). Other arguments
    as :func:`alibi_slopes`. ``posenc emit alibi --bias``.
    """
    text, heads, max_bias = _alibi_args(config, heads, max_bias)
    n = _count("positions", positions)
    kind = _choice("mask", mask, {"causal": "causal", "symmetric": "symmetric"})
    if isinstance(masked, bool) or not isinstance(masked, numbers.Real) or math.isnan(masked):
        raise ValueError(f"masked must be a number (not NaN), got {masked!r}")
    code = dtype_code(dtype)
    return present(_core.alibi_bias(text, heads, max_bias, n, kind == "symmetric", float(masked), code), code, dtype)


# ---- T5 -----------------------------------------------------------------------------------------


def _t5_args(config, num_buckets, max_distance, bidirectional):
    if num_buckets is not None:
        num_buckets = _integer("num_buckets", num_buckets)
    if max_distance is not None:
        max_distance = _integer("max_distance", max_distance)
    if bidirectional is not None and not isinstance(bidirectional, bool):
        raise TypeError("bidirectional must be a bool")
    return config_text(config), num_buckets, max_distance, bidirectional


def t5_buckets(config=None, range=None, *, num_buckets=None, max_distance=None, bidirectional=None):
    """T5's relative-position buckets of ``r = key - query`` for ``-range <= r <= range``: an int32
    array of ``2 range + 1`` elements, element ``range + r`` holding r's bucket, decided exactly (HF's
    ``T5Attention._relative_position_bucket`` with the true log term). ``config``: a T5 config.json
    (``relative_attention_num_buckets``, ``relative_attention_max_distance``, ``is_decoder``) or None;
    ``num_buckets``, ``max_distance`` and ``bidirectional`` (False: decoder self-attention) override
    it. ``posenc emit t5-bucket``."""
    args = _t5_args(config, num_buckets, max_distance, bidirectional)
    r = _count("range", range, least=0)
    return _core.t5_buckets(*args, r)


def t5_bucket_matrix(config=None, query_length=None, key_length=None, *, num_buckets=None, max_distance=None,
                     bidirectional=None):
    """The ``[query_length, key_length]`` int32 matrix of buckets HF's ``T5Attention.compute_bias``
    builds: element ``[i, j]`` is the bucket of ``j - i``. Arguments as :func:`t5_buckets`."""
    q = _count("query_length", query_length)
    k = _count("key_length", key_length)
    r = max(q, k) - 1
    table = t5_buckets(config, r, num_buckets=num_buckets, max_distance=max_distance, bidirectional=bidirectional)
    rel = np.arange(k)[None, :] - np.arange(q)[:, None]
    return table[rel + r]


# ---- DeBERTa and log-n ------------------------------------------------------------------------------


def deberta_buckets(range, *, position_buckets=_field_default("deberta", "position_buckets"),
                    max_relative_positions=_field_default("deberta", "max_relative_positions")):
    """DeBERTa-v2/v3's log buckets of ``r = query - key`` (HF ``make_log_bucket_position``; note the
    sign, opposite to T5's) for ``-range <= r <= range``: an int64 array of ``2 range + 1`` elements,
    element ``range + r`` holding r's bucket, the ceiling of the true log term. HF's config names:
    ``position_buckets``, ``max_relative_positions``. ``posenc emit deberta-bucket``."""
    r = _count("range", range, least=0)
    return _core.deberta_buckets(_integer("position_buckets", position_buckets),
                                 _integer("max_relative_positions", max_relative_positions), r)


def logn_factors(positions, dtype="float64", *, base=_field_default("logn", "base"), start=1,
                 at_least_one=_field_default("logn", "at_least_one")):
    """Log-n attention scaling factors ``log_base(n)`` for ``n = start .. start + positions - 1``
    (Su's entropy-invariant attention, base 512), or with ``at_least_one=True`` Qwen's ``logn``:
    1 for ``n <= base`` (base = the training length). Exact, rounded once. ``posenc emit logn``."""
    n = _count("positions", positions)
    if not isinstance(at_least_one, bool):
        raise TypeError("at_least_one must be a bool")
    code = dtype_code(dtype)
    return present(_core.logn_factors(_integer("base", base), at_least_one, n, _integer("start", start), code), code, dtype)


# ---- multi-stream rotary: M-RoPE and ND axial RoPE -----------------------------------------------


def _stream_positions(name, positions, streams, kind):
    """Positions as a flat stream-major list: an array-like of shape (streams, tokens)."""
    import numpy as np
    a = np.asarray(positions)
    if a.ndim != 2 or (streams is not None and a.shape[0] != streams) or a.shape[1] == 0:
        want = f"({streams}, tokens)" if streams is not None else "(axes, tokens)"
        raise ValueError(f"{name}: positions must have shape {want}, got {a.shape}")
    if kind == "int":
        if a.dtype.kind not in "iu":
            raise TypeError(f"{name}: positions must be integers")
        if (a < 0).any():
            raise ValueError(f"{name}: positions must be non-negative")
        return [int(x) for x in a.ravel()]
    return [float(x) for x in a.astype(np.float64).ravel()]


def mrope_table(positions, head_dim, mrope_section, dtype="float64", *, rope_theta=10000.0,
                partial_rotary_factor=1.0, layout="sections"):
    """M-RoPE cos/sin ``(cos, sin)``, each ``[tokens, rotary_dim // 2]`` (one value per pair): pair
    ``j`` of token ``i`` is the 1D RoPE entry of frequency ``j`` at the token's position in the
    stream the layout gives it. ``positions``: shape ``(3, tokens)``, rows t, h, w (HF's
    ``position_ids``). ``layout``: ``"sections"`` (Qwen2-VL, Qwen2.5-VL), ``"interleaved-hf"``
    (Qwen3-VL in HF and vLLM) or ``"interleaved-ggml"`` (llama.cpp's IMROPE, whose leftover pairs sit
    at position 0). Each entry correctly rounded. ``posenc emit mrope``."""
    pos = _stream_positions("mrope_table", positions, 3, "int")
    section = [int(x) for x in mrope_section]
    if len(section) != 3:
        raise ValueError("mrope_table: mrope_section needs three values (t, h, w)")
    code = dtype_code(dtype)
    cos, sin = _core.mrope_table(_count("head_dim", head_dim), float(rope_theta), float(partial_rotary_factor),
                                 section, layout, pos, code)
    return present(cos, code, dtype), present(sin, code, dtype)


def mrope_position_ids(segments, *, temporal="index", tokens_per_second=None):
    """The (t, h, w) position ids of a multimodal sequence as HF's ``get_rope_index`` builds them,
    and the next start (``rope_deltas = next - len``): ``(positions, next)``, positions of shape
    ``(3, tokens)`` for :func:`mrope_table`. ``segments``: a list of ``("text", n)``,
    ``("image", grid_h, grid_w)`` and ``("video", grid_t, grid_h, grid_w, second_per_grid_t)``, grids
    in LLM tokens (after the spatial merge). ``temporal``: ``"index"`` (Qwen2-VL: t = s + k) or
    ``"seconds"`` (Qwen2.5-VL: t = s + floor(k * second_per_grid_t * tokens_per_second), the exact
    product truncated). ``tokens_per_second`` has no default: released Qwen2.5-VL configs say 2, HF's
    class default is 4. docs/rope-streams.md section 3."""
    rows = []
    for seg in segments:
        kind = seg[0]
        if kind == "text":
            (n,) = seg[1:]
            rows.append((0, _count("text tokens", n), 1, 0, 0, 0.0))
        elif kind == "image":
            h, w = seg[1:]
            rows.append((1, 0, 1, _count("grid_h", h), _count("grid_w", w), 0.0))
        elif kind == "video":
            t, h, w, spg = seg[1:]
            rows.append((2, 0, _count("grid_t", t), _count("grid_h", h), _count("grid_w", w), float(spg)))
        else:
            raise ValueError(f"mrope_position_ids: unknown segment kind {kind!r} (text, image or video)")
    tps = 0.0 if tokens_per_second is None else float(tokens_per_second)
    return _core.mrope_position_ids(rows, temporal, tps)


def leaky_rerope_table(rows, head_dim, dtype="float64", *, window=512, leak=16, rope_theta=10000.0,
                       partial_rotary_factor=1.0):
    """Leaky ReRoPE's decode table ``(cos, sin)``, each ``[rows, rotary_dim // 2]``: row ``rel`` holds
    cos/sin of ``rel' * theta_j``, ``rel' = rel`` below the window and ``window + (rel - window) /
    leak`` from it (bojone/rerope), each correctly rounded (the k-scaled table's integer rows, exact).
    ``posenc emit leaky-rerope``; docs/rope-remap.md."""
    code = dtype_code(dtype)
    cos, sin = _core.leaky_rerope_table(_count("head_dim", head_dim), float(rope_theta), float(partial_rotary_factor),
                                        _count("window", window), _count("leak", leak), _count("rows", rows), code)
    return present(cos, code, dtype), present(sin, code, dtype)


def rope_nd_table(positions, axes_dim, dtype="float64", *, rope_theta=10000.0, two_pi=False):
    """ND axial RoPE cos/sin ``(cos, sin)``, each ``[tokens, sum(axes_dim) // 2]``: axis ``a`` has
    ``axes_dim[a] // 2`` pairs in order, pair ``k`` of it rotating by ``p_a * rope_theta **
    (-2k / axes_dim[a])`` (FLUX ``EmbedND``: ``axes_dim=[16, 56, 56]``, FLUX.2 ``[32, 32, 32, 32]``
    with ``rope_theta=2000``; ViTs: two axes). ``positions``: shape ``(axes, tokens)``, reals
    allowed (taken as the doubles they are). ``two_pi=True``: the angle is ``2 pi`` times that, the
    exact ``2 pi`` (DINOv3's ``2 pi coord / period``: ``axes_dim=[D/2, D/2]``, ``rope_theta=100``,
    positions ``dinov3_positions(H, W)``; its rows are half-split). Each entry correctly rounded.
    ``posenc emit rope-nd [--two-pi]``."""
    axes = [int(x) for x in axes_dim]
    pos = _stream_positions("rope_nd_table", positions, len(axes), "real")
    code = dtype_code(dtype)
    cos, sin = _core.rope_nd_table(axes, float(rope_theta), pos, code, bool(two_pi))
    return present(cos, code, dtype), present(sin, code, dtype)


def dinov3_positions(h, w):
    """DINOv3's RoPE positions of an ``h x w`` patch grid, shape ``(2, h * w)`` float64: row ``0``
    the y coordinates ``(2i + 1) / h - 1``, row ``1`` the x coordinates ``(2j + 1) / w - 1`` of the
    patches in row-major order, each the exact value rounded once (DINOv3 computes them in float32
    with two roundings). For ``rope_nd_table(..., two_pi=True)``. ``posenc emit rope-nd --grid H,W``."""
    return _core.dinov3_positions(_integer("h", h), _integer("w", w))


def attn_temperature_scales(positions, dtype="float64", *,
                            floor_scale=_field_default("attn_temperature", "floor_scale"),
                            attn_scale=_field_default("attn_temperature", "attn_scale"), start=0):
    """Llama-4's attention temperature, the factor q is multiplied by on the NoPE layers at 0-based
    positions ``p = start .. start + positions - 1`` (HF ``Llama4TextAttention``,
    ``attn_temperature_tuning``): ``1 + attn_scale * log(1 + floor((p + 1) / floor_scale))``, 1
    before the first step at ``p = floor_scale - 1``. Exact (attn_scale its exact double value),
    rounded once. ``posenc emit attn-temperature``."""
    n = _count("positions", positions)
    code = dtype_code(dtype)
    a = check_finite("attn_scale", float(attn_scale))
    return present(_core.attn_temperature_scales(_integer("floor_scale", floor_scale), a, n,
                                                 _integer("start", start), code), code, dtype)


# ---- sinusoidal and XPOS --------------------------------------------------------------------------


def sinusoidal_table(positions, dim, dtype="float64", *, start=0, base=_field_default("sinusoidal", "base"),
                     exponent=_field_default("sinusoidal", "exponent"),
                     layout=_field_default("sinusoidal", "layout")):
    """Absolute sinusoidal encodings, shape ``[positions, dim]``: row i is position ``start + i``
    (negative positions allowed, ``|p| <= 2^40``), each entry the exact sin or cos of the exact angle
    ``p base^(-e_i)`` rounded once. ``exponent``: ``"paper"`` (e_i = 2i/d, Vaswani et al.; XLM,
    DistilBERT, Marian) or ``"fairseq"`` (i / (d/2 - 1), tensor2tensor, fairseq). ``layout``:
    ``"interleaved"`` (sin, cos, sin, cos, ...) or ``"concat"`` (all sines, then all cosines).
    ``posenc emit sinusoidal``."""
    n = _count("positions", positions)
    d = _count("dim", dim)
    if isinstance(base, bool) or not isinstance(base, numbers.Real):
        raise TypeError("base must be a number")
    base = check_finite("base", float(base))
    return present(_core.sinusoidal_table(d, n, _integer("start", start), base, exponent, layout,
                                          dtype_code(dtype)), dtype_code(dtype), dtype)


def xpos_scales(positions, head_dim, dtype="float64", *, start=0, scale_base=_field_default("xpos", "scale_base"),
                inverse=False):
    """XPOS's scales ``zeta_j^(n / scale_base)``, ``zeta_j = (2j + 0.4 d) / (1.4 d)``, shape
    ``[positions, head_dim / 2]`` (row i: position ``n = start + i``); ``inverse=True`` gives the keys'
    ``zeta_j^(-n / scale_base)``. ValueError names the first entry that overflows ``dtype``.
    ``posenc emit xpos``."""
    n = _count("positions", positions)
    d = _count("head_dim", head_dim)
    if not isinstance(inverse, bool):
        raise TypeError("inverse must be a bool")
    code = dtype_code(dtype)
    return present(_core.xpos_scales(d, n, _integer("start", start), _integer("scale_base", scale_base), inverse,
                                     code), code, dtype)


# ---- KERPLE, Sandwich, Shaw -------------------------------------------------------------------------


def _reals(name, value):
    """One number or a 1-D sequence of numbers (not bools, not strings) as a list of floats."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return [float(value)]
    if isinstance(value, (str, bytes)) or np.ndim(value) != 1:
        raise TypeError(f"{name} must be a number or a one-dimensional sequence of numbers, got "
                        f"{type(value).__name__}")
    out = []
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"{name}[{i}] must be a number, got {type(v).__name__}")
        out.append(float(v))
    return out


def kerple_log_bias(distances, dtype="float64", *, p, a):
    """KERPLE-log's biases ``-p_h log(1 + a_h k)`` (Chi et al., NeurIPS 2022), shape
    ``[heads, distances]``: element ``[h, k]`` for distance ``k = |query - key|``, exact then rounded
    once into ``dtype``. ``p`` and ``a`` are the heads' learned parameters (a number for one head, or
    a sequence, one per head; the exact doubles given): finite, positive, ``a >= 2^-60``. ValueError
    names a broken head, and the first entry that overflows ``dtype``. ``posenc emit kerple-log``."""
    n = _count("distances", distances)
    code = dtype_code(dtype)
    return present(_core.kerple_log_bias(_reals("p", p), _reals("a", a), n, code), code, dtype)


def kerple_power_bias(distances, dtype="float64", *, p, a):
    """KERPLE-power's biases ``-a_h k^p_h``, shape ``[heads, distances]`` (``p`` in ``(0, 2]``,
    ``a > 0``, distances below 2^26), otherwise as :func:`kerple_log_bias`. An exactly representable
    ``a t^P`` (``k = t^(2^q)`` for ``p = P 2^-q``) is rounded once, ties to even.
    ``posenc emit kerple-power``."""
    n = _count("distances", distances)
    code = dtype_code(dtype)
    return present(_core.kerple_power_bias(_reals("p", p), _reals("a", a), n, code), code, dtype)


def sandwich_bias(distances, dim, heads, dtype="float64"):
    """Sandwich's biases (Chi et al., ACL 2023; NeMo's SandwichRelativePositionEmbedding), shape
    ``[heads, distances]``: element ``[h, k]`` is
    ``(sum_{i=1..d/2} cos(k 10000^(-2i/d)) - d/2) / (8 (h + 1) / H)`` for distance k, exact then
    rounded once. ``dim``: NeMo's hidden size per head (even, <= 4096); ``heads`` <= 4096; at most
    2^28 cosine terms (heads x distances x dim/2) per call, as ``posenc emit sandwich``."""
    n = _count("distances", distances)
    code = dtype_code(dtype)
    return present(_core.sandwich_bias(_integer("dim", dim), _integer("heads", heads), n, code), code, dtype)


def shaw_relative_indices(positions, *, max_relative_position=_field_default("shaw", "max_relative_position")):
    """Shaw et al.'s relative indices (NAACL 2018; tensor2tensor
    ``_generate_relative_positions_matrix``), an int32 ``[positions, positions]`` array: element
    ``[i, j]`` is ``clip(j - i, -k, k) + k`` for query i and key j, an index into the learned
    ``(2k + 1)``-row tables; ``k = max_relative_position`` (tensor2tensor's default 20).
    ``posenc emit shaw``."""
    n = _count("positions", positions)
    return _core.shaw_relative_indices(_integer("max_relative_position", max_relative_position), n)


# ---- Transformer-XL / XLNet --------------------------------------------------------------------------

_TXL_MODELS = {"transformer-xl": "transformer_xl", "transformer_xl": "transformer_xl", "xlnet": "xlnet"}


def _txl_args(klen, qlen, clamp_len, model, attn_type, bi_data):
    """The core's arguments; XLNet's own settings given for Transformer-XL are a ValueError (the CLI's
    'applies to --model xlnet only')."""
    m = _choice("model", model, _TXL_MODELS)
    if m == "transformer_xl":
        for name, value in (("qlen", qlen), ("attn_type", attn_type), ("bi_data", bi_data)):
            if value is not None:
                raise ValueError(f"{name} applies to model='xlnet' only")
    if bi_data is not None and not isinstance(bi_data, bool):
        raise TypeError("bi_data must be a bool")
    if attn_type is None:
        attn_type = _field_default("transformer_xl", "attn_type")
    attn = _choice("attn_type", attn_type, {"bi": "bi", "uni": "uni"})
    qlen = _field_default("transformer_xl", "qlen") if qlen is None else qlen
    bi_data = _field_default("transformer_xl", "bi_data") if bi_data is None else bi_data
    return (_integer("klen", klen), _integer("qlen", qlen), _integer("clamp_len", clamp_len), m, attn, bi_data)


def transformer_xl_table(d_model, klen, dtype="float64", *, qlen=None,
                         clamp_len=_field_default("transformer_xl", "clamp_len"),
                         model=_field_default("transformer_xl", "model"), attn_type=None, bi_data=None):
    """The relative sinusoids Transformer-XL (Dai et al., ACL 2019) and XLNet (Yang et al., NeurIPS
    2019) feed their attention, shape ``[rows, d_model]``: row r is ``[sin | cos]`` of
    ``position_r 10000^(-2i/d_model)``, each entry exact then rounded once, with ``position_r`` as
    :func:`transformer_xl_positions` lists it. ``model="transformer-xl"``: ``klen`` rows
    ``klen - 1 .. 0`` (mem_transformer.py), clamped to ``clamp_len`` when it is positive.
    ``model="xlnet"`` (HF ``relative_positional_encoding``): ``klen .. -qlen + 1`` (``attn_type="bi"``,
    the default) or ``klen .. 0`` (``"uni"``), and with ``bi_data=True`` a backward half after them;
    clamped to ``[-clamp_len, clamp_len]``. ``qlen`` (default 0), ``attn_type`` and ``bi_data`` are
    XLNet's. ``posenc emit transformer-xl``."""
    args = _txl_args(klen, qlen, clamp_len, model, attn_type, bi_data)
    code = dtype_code(dtype)
    return present(_core.transformer_xl_table(_integer("d_model", d_model), *args, code), code, dtype)


def transformer_xl_positions(klen, *, qlen=None, clamp_len=_field_default("transformer_xl", "clamp_len"),
                             model=_field_default("transformer_xl", "model"), attn_type=None, bi_data=None):
    """The relative position of each row of :func:`transformer_xl_table` (same arguments), int64."""
    return _core.transformer_xl_positions(*_txl_args(klen, qlen, clamp_len, model, attn_type, bi_data))


# ---- verify ---------------------------------------------------------------------------------------


def _table_array(x, name):
    """x as a numpy array: torch tensors (CPU, any dtype, bfloat16 as its bits) and array-likes."""
    if hasattr(x, "detach") and hasattr(x, "dtype") and str(x.dtype).startswith("torch."):
        x = x.detach().cpu()
        if str(x.dtype) == "torch.bfloat16":
            import torch  # a torch tensor was given, so torch is importable

            return x.contiguous().view(torch.int16).numpy().view(np.uint16), "bf16"
        x = x.numpy()
    a = np.asarray(x)
    if a.dtype.name == "bfloat16":  # ml_dtypes
        return a.view(np.uint16), "bf16"
    if a.dtype == np.uint16 or a.dtype == np.int16:
        return a.view(np.uint16), "bf16"
    try:
        return a, dtype_code(a.dtype)
    except TypeError:
        raise TypeError(f"{name}: unsupported dtype {a.dtype} (float64, float32, float16, or bfloat16 as uint16 bits "
                        "or ml_dtypes.bfloat16)") from None


def verify(cos, sin, config=None, *, start=0, layout=None, fold_attention=False, max_ulp=0, dtype=None,
           threads=0, shard=None, **overrides):
    """Checks a RoPE cos/sin table (yours, a model's cache, a file's) against the exact values.

    Every entry is compared with RN_dtype of the exact value, computed with MPFR at 320 bits, and every
    RoPE law of posenc's registry (unit norm, pair copies, identity at 0, relative dot products,
    composition, ...) is measured on the table, on all cores, without the GIL: the C++ engine of
    ``posenc verify rope`` (include/posenc/verify/rope_verify.hpp). Cost: about 4 us per (position,
    pair) on one core.

    Parameters
    ----------
    cos, sin : arrays ``[rows, rotary_dim]``
        numpy arrays or CPU torch tensors (leading dimensions of size 1, as in HF's ``[1, seq, dim]``,
        are dropped). dtype float64, float32, float16, or bfloat16 (``ml_dtypes.bfloat16``, a torch
        bfloat16 tensor, or uint16 bit patterns).
    config, **overrides
        The RoPE config the table claims to implement, as in :func:`rope_table`.
    start : int
        The position of row 0 (rows are consecutive positions).
    layout, fold_attention
        As in :func:`rope_table`.
    max_ulp : int
        Tolerance: the number of representable steps an entry may be from the correctly rounded value
        (0: every entry must be correctly rounded). A float32 HF cache needs a large tolerance at
        long positions (its angle drifts); the report measures it either way.
    dtype : str, optional
        The table's dtype when its array dtype does not say (``"bfloat16"`` for uint16 bits is the
        default reading of uint16).
    threads : int
        Worker threads (0: every hardware thread).
    shard : (k, n), optional
        Verify only the k-th of n slices of the table's 1024-row blocks (``posenc verify --shard``).

    Returns
    -------
    dict
        The report, with the keys of ``posenc verify rope --json``: ``passed``, ``description``,
        ``start``, ``rows``, ``max_ulp_allowed``, ``seconds``, ``dtypes`` (one dict: ``entries``,
        ``not_correctly_rounded``, ``beyond_tolerance``, ``max_ulp``, ``mean_ulp``, ``worst``
        {position, element, array, got, exact}, ``first_failure``) and ``laws`` (one dict per law:
        ``law``, ``holds``, ``deviation``, ``bound``, ``checked``, ``failures``, ``worst``,
        ``first_failure``).

    Raises
    ------
    ValueError
        An invalid config, a table of the wrong shape, positions past 2^21, a bad shard.
    NotImplementedError
        The module was built without the verify layer (``posenc.have_verify`` is False).
    """
    if not have_verify:
        raise NotImplementedError("posenc.verify: this build of posenc has no verify layer (needs Boost 1.81 and MPFR)")
    c, cc = _table_array(cos, "cos")
    s, sc = _table_array(sin, "sin")
    if dtype is not None:
        cc = sc = dtype_code(dtype)
    if cc != sc:
        raise TypeError(f"verify: cos and sin have different dtypes ({c.dtype}, {s.dtype})")
    while c.ndim > 2 and c.shape[0] == 1:
        c = c[0]
    while s.ndim > 2 and s.shape[0] == 1:
        s = s[0]
    c, s = np.ascontiguousarray(c), np.ascontiguousarray(s)
    start = _integer("start", start)
    if start < 0:
        raise ValueError(f"verify: start must be non-negative, got {start}")
    lay = "model" if layout is None else _choice("layout", layout, _LAYOUTS)
    if not isinstance(fold_attention, bool):
        raise TypeError("fold_attention must be a bool")
    max_ulp = _count("max_ulp", max_ulp, least=0)
    threads = _count("threads", threads, least=0)
    k, n = (0, 1) if shard is None else shard
    k, n = _count("shard index", k, least=0), _count("shard count", n)
    return _core.verify_rope(config_text(config), overrides, c, s, cc, start, lay, fold_attention, max_ulp, threads,
                             k, n)
