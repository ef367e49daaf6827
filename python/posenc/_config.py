"""A model config as the compiled core takes it: the text of a HuggingFace config.json.

``config`` may be ``None`` (no file: keyword arguments give everything), a mapping (the contents
of a config.json, e.g. ``json.load(f)`` or ``transformers.AutoConfig...to_dict()``) or a path
(``str`` or ``os.PathLike``) to a config.json. A path's text goes to posenc::io untouched, so
every JSON number is read as the decimal it is, rounded once to double; a mapping is written back
to JSON with ``repr`` floats, which round-trip the same doubles.
"""

import json
import math
import os
from collections.abc import Mapping


def config_text(config, what="config"):
    """The JSON text of ``config`` ("" for None). TypeError for another type, ValueError for a
    file that cannot be read or a mapping that is not JSON (NaN or infinity included)."""
    if config is None:
        return ""
    if isinstance(config, Mapping):
        try:
            return json.dumps(dict(config), allow_nan=False)
        except (TypeError, ValueError) as e:
            raise ValueError(f"{what}: not a JSON object: {e}") from None
    if isinstance(config, (str, os.PathLike)):
        path = os.fspath(config)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise ValueError(f"{path}: cannot read: {e.strerror or e}") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{path}: not UTF-8 text") from None
    raise TypeError(f"{what} must be a dict (a config.json's contents), a path to a config.json, or None; "
                    f"got {type(config).__name__}")


def check_finite(name, value):
    """ValueError for a NaN or infinite number where the core needs a finite one."""
    if value is not None and isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value
