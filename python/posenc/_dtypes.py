"""The four table dtypes: names in, numpy arrays out.

Every spelling of a dtype (``"float32"``, ``"f32"``, ``numpy.float32``, ``torch.float32``,
``ml_dtypes.bfloat16``, ...) is normalised to one of posenc's short names ``f64``, ``f32``,
``bf16``, ``f16``, which the compiled core takes.

numpy has no bfloat16. A bfloat16 table comes back as ``uint16`` bit patterns (sign, 8 exponent
bits, 7 fraction bits: the high half of the float32 of the same value), or, when the ``ml_dtypes``
package is importable, as a view of those bits with dtype ``ml_dtypes.bfloat16``. Either way the
bits are posenc's; :func:`bfloat16_to_float32` widens them exactly.
"""

import numpy as np

try:  # optional: JAX's numpy bfloat16 type
    import ml_dtypes as _ml_dtypes
except ImportError:  # pragma: no cover - depends on the environment
    _ml_dtypes = None

_NAMES = {
    "f64": "f64", "float64": "f64", "double": "f64",
    "f32": "f32", "float32": "f32", "float": "f32", "single": "f32",
    "bf16": "bf16", "bfloat16": "bf16",
    "f16": "f16", "float16": "f16", "half": "f16",
}


def dtype_code(dtype):
    """posenc's short name (``f64``, ``f32``, ``bf16``, ``f16``) of a dtype given in any spelling.

    Raises TypeError for anything that is not one of the four.
    """
    name = None
    if isinstance(dtype, str):
        name = dtype.lower()
    elif _ml_dtypes is not None and dtype is _ml_dtypes.bfloat16:
        name = "bfloat16"
    else:
        text = str(dtype)
        if text.startswith("torch."):  # torch.float32, torch.bfloat16, ... without importing torch
            name = text[len("torch."):]
        else:
            try:
                name = np.dtype(dtype).name
            except TypeError:
                name = None
    if name is not None and name.startswith("torch."):
        name = name[len("torch."):]
    code = _NAMES.get(name) if name is not None else None
    if code is None:
        raise TypeError(f"unsupported dtype {dtype!r} (expected float64, float32, bfloat16 or float16)")
    return code


def _is_torch_dtype(dtype):
    return str(dtype).startswith("torch.") and type(dtype).__module__.startswith("torch")


def present(array, code, asked=None):
    """The array as returned to the user.

    A dtype asked for as a torch dtype (``torch.bfloat16``, ``torch.float32``, ...) gives a torch
    tensor of that dtype, sharing the array's memory: bfloat16 as ``torch.bfloat16``, the same bits.
    Otherwise a numpy array, bfloat16 bits viewed as ml_dtypes.bfloat16 when that is importable.
    """
    if asked is not None and _is_torch_dtype(asked):
        import torch  # asked for by a torch dtype, so importable
        tensor = torch.from_numpy(np.ascontiguousarray(array.view(np.int16) if code == "bf16" else array))
        return tensor.view(torch.bfloat16) if code == "bf16" else tensor
    if code == "bf16" and _ml_dtypes is not None:
        return array.view(_ml_dtypes.bfloat16)
    return array


def bfloat16_to_float32(bits):
    """Widens bfloat16 values (uint16 bit patterns, or an ml_dtypes.bfloat16 array) to float32, exactly."""
    a = np.asarray(bits)
    if a.dtype.itemsize != 2 or a.dtype.kind == "f":  # float16 has 2 bytes too, but is not bfloat16
        raise TypeError(f"expected uint16 bfloat16 bit patterns, got dtype {a.dtype}")
    return (a.view(np.uint16).astype(np.uint32) << 16).view(np.float32)


def float32_to_bfloat16_bits(values):
    """bfloat16 bit patterns (uint16) of float32 values, rounded to nearest, ties to even (NaN kept NaN)."""
    f = np.ascontiguousarray(values, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    nan = np.isnan(f)
    out = rounded.astype(np.uint16)
    out[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)
    return out
