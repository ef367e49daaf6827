"""``python3 -m posenc``: write a model's RoPE tables to a .npz file.

    python3 -m posenc table CONFIG.json --positions N [--start P] [--dtype float32] [--layout half_split]
                            [--policy exact] [--fold-attention] -o OUT.npz
    python3 -m posenc inv-freq CONFIG.json [--dtype float32] [--policy exact] -o OUT.npz
    python3 -m posenc --version

``table`` writes arrays ``cos`` and ``sin`` ([N, rotary_dim]) and ``positions``; ``inv-freq`` writes
``inv_freq`` and ``attention_factor``. bfloat16 arrays are stored as their uint16 bit patterns (npz
has no bfloat16). Exit status 0 on success, 2 on bad input (one line on stderr naming the problem).
The C++ command line ``posenc emit`` has every scheme and format; this is the Python module's own.
"""

import argparse
import os
import sys

import numpy as np

import posenc


def _parser():
    p = argparse.ArgumentParser(prog="python3 -m posenc",
                                description="posenc's correctly rounded positional-encoding tables, from Python.")
    p.add_argument("--version", action="version", version=f"posenc {posenc.__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    t = sub.add_parser("table", help="RoPE cos/sin tables of a config.json, as .npz")
    t.add_argument("config", help="a HuggingFace config.json")
    t.add_argument("--positions", type=int, required=True, metavar="N", help="rows: positions START .. START+N-1")
    t.add_argument("--start", type=int, default=0, metavar="P", help="first position (default 0)")
    t.add_argument("--dtype", default="float32", help="float64, float32 (default), bfloat16 or float16")
    t.add_argument("--layout", default="half_split", help="half_split (default) or interleaved")
    t.add_argument("--policy", default="exact", help="exact (default) or hf_float32")
    t.add_argument("--fold-attention", action="store_true", help="cos and sin times the attention factor")
    t.add_argument("-o", "--output", required=True, metavar="OUT.npz", help="the file to write")

    f = sub.add_parser("inv-freq", help="RoPE inverse frequencies and attention factor, as .npz")
    f.add_argument("config", help="a HuggingFace config.json")
    f.add_argument("--dtype", default="float32", help="float64, float32 (default), bfloat16 or float16")
    f.add_argument("--policy", default="exact", help="exact (default) or hf_float32")
    f.add_argument("-o", "--output", required=True, metavar="OUT.npz", help="the file to write")
    return p


def _storable(a):
    """npz has no bfloat16: ml_dtypes.bfloat16 arrays are saved as their uint16 bits."""
    return a.view(np.uint16) if a.dtype.name == "bfloat16" else a


def _save(path, arrays):
    """Writes path atomically (a temporary file beside it, then a rename): no partial file on error."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)
        os.replace(tmp, path)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise ValueError(f"{path}: cannot write: {e.strerror or e}") from None


def main(argv=None):
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_usage(sys.stderr)
        return 2
    try:
        if args.command == "table":
            cos, sin = posenc.rope_table(args.config, args.positions, args.dtype, start=args.start,
                                         layout=args.layout, fold_attention=args.fold_attention, policy=args.policy)
            positions = np.arange(args.start, args.start + args.positions, dtype=np.int64)
            _save(args.output, {"cos": _storable(cos), "sin": _storable(sin), "positions": positions})
        else:
            inv, att = posenc.rope_inv_freq(args.config, args.dtype, policy=args.policy)
            _save(args.output, {"inv_freq": _storable(inv), "attention_factor": np.float64(att)})
    except (ValueError, TypeError) as e:
        print(f"posenc: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
