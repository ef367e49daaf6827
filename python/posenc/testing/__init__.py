"""posenc.testing: property tests of your own RoPE and bias kernels against exact references.

::

    import posenc.testing as pt

    def my_rope(x, positions):          # x [tokens, heads, head_dim] float32, positions int64 [tokens]
        ...
        return rotated

    report = pt.check_rope_apply(my_rope, "Llama-3.1-8B/config.json", dtype="float32")
    # AssertionError on a bug: the property, position, head, pair, element, the error and the derived
    # bound in ulps, the shrunk counterexample and the seed that replays it.

- :func:`check_rope_apply`: a kernel against the exact rotation (or HF's / ggml's float32 table),
  with the norm, relative-position, inverse and pass-through laws checked on the kernel itself.
- :func:`check_rope_layouts`: two kernels in the half-split and interleaved layouts are the same
  rotation up to the layouts' fixed permutation.
- :func:`check_bias`: an ALiBi or T5-bucket kernel against the exact table.
- :mod:`posenc.testing.strategies`: the Hypothesis strategies these use (configs of every scaling,
  positions, vectors), for properties of your own.
- :func:`rotation_bounds` and :class:`KernelModel`: the derived per-element tolerance.

Needs Hypothesis (Debian: python3-hypothesis). The tolerances are derived in docs/testing-kernels.md.
"""

from ._bias import BiasCheckReport, check_bias
from ._bounds import KernelModel, rotation_bounds
from ._formats import round_to, ulp
from ._rope import RopeCheckReport, check_rope_apply, check_rope_layouts
from . import strategies

__all__ = [
    "check_rope_apply", "check_rope_layouts", "check_bias",
    "RopeCheckReport", "BiasCheckReport", "KernelModel", "rotation_bounds", "round_to", "ulp",
    "strategies",
]
