"""``python3 -m posenc``: write a model's RoPE tables to a .npz file.

    python3 -m posenc table CONFIG.json --positions N [--start P] [--dtype float64] [--layout L]
                            [--policy exact] [--fold-attention] -o OUT.npz
    python3 -m posenc inv-freq CONFIG.json [--dtype float64] [--policy exact] -o OUT.npz
    python3 -m posenc verify CONFIG.json TABLE.npz [--start P] [--layout L] [--fold-attention]
                             [--max-ulp K]
    python3 -m posenc --version

``table`` writes arrays ``cos`` and ``sin`` ([N, rotary_dim]) and ``positions``; ``inv-freq`` writes
``inv_freq`` and ``attention_factor``. bfloat16 arrays are stored as their uint16 bit patterns (npz
has no bfloat16). ``verify`` reads ``cos`` and ``sin`` from a .npz (uint16 arrays are bfloat16 bits;
row i is position ``positions[0] + i`` when the file has consecutive ``positions``, else
``--start + i``) and prints posenc.verify's report as JSON. Exit status 0 on success (verify: the
table passed), 1 when verify finds a failure, 2 on bad input (one line on stderr naming the problem).
The C++ command line ``posenc emit`` has every scheme and format; this is the Python module's own.
"""

import argparse
import json
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
    t.add_argument("--dtype", default="float64", help="float64 (default), float32, bfloat16 or float16")
    t.add_argument("--layout", default=None,
                   help="half_split or interleaved (default: the model's, interleaved for Llama-4, Cohere, GLM)")
    t.add_argument("--policy", default="exact", help="exact (default), hf_float32 or ggml_float32")
    t.add_argument("--fold-attention", action="store_true", help="cos and sin times the attention factor")
    t.add_argument("-o", "--output", required=True, metavar="OUT.npz", help="the file to write")

    f = sub.add_parser("inv-freq", help="RoPE inverse frequencies and attention factor, as .npz")
    f.add_argument("config", help="a HuggingFace config.json")
    f.add_argument("--dtype", default="float64", help="float64 (default), float32, bfloat16 or float16")
    f.add_argument("--policy", default="exact", help="exact (default), hf_float32 or ggml_float32")
    f.add_argument("-o", "--output", required=True, metavar="OUT.npz", help="the file to write")

    v = sub.add_parser("verify", help="check a .npz table's cos/sin against MPFR and the RoPE laws (JSON report)")
    v.add_argument("config", help="a HuggingFace config.json")
    v.add_argument("table", help="a .npz with arrays cos and sin [rows, rotary_dim] (and optionally positions)")
    v.add_argument("--start", type=int, default=None, metavar="P", help="position of row 0 (default: the file's)")
    v.add_argument("--layout", default=None,
                   help="half_split or interleaved (default: the model's, interleaved for Llama-4, Cohere, GLM)")
    v.add_argument("--fold-attention", action="store_true", help="the entries include the attention factor")
    v.add_argument("--max-ulp", type=int, default=0, metavar="K", help="tolerance in representable steps")
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


def _load_table(args):
    """cos and sin of a .npz; ValueError naming the file for anything else."""
    try:
        with np.load(args.table, allow_pickle=False) as z:
            if "cos" not in z or "sin" not in z:
                raise ValueError(f"{args.table}: expected arrays 'cos' and 'sin'")
            args.file_positions = z["positions"] if "positions" in z else None
            return z["cos"], z["sin"]
    except (OSError, EOFError) as e:
        raise ValueError(f"{args.table}: cannot read: {getattr(e, 'strerror', None) or e}") from None


def _start_of(args):
    """--start, else the first of the file's positions (which must then be consecutive)."""
    p = args.file_positions
    if args.start is not None:
        return args.start
    if p is None:
        return 0
    if p.ndim != 1 or p.size == 0 or not np.array_equal(p, np.arange(p[0], p[0] + p.size)):
        raise ValueError(f"{args.table}: 'positions' are not consecutive (give --start)")
    return int(p[0])


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
        elif args.command == "inv-freq":
            inv, att = posenc.rope_inv_freq(args.config, args.dtype, policy=args.policy)
            _save(args.output, {"inv_freq": _storable(inv), "attention_factor": np.float64(att)})
        else:
            report = posenc.verify(*_load_table(args), args.config, start=_start_of(args), layout=args.layout,
                                   fold_attention=args.fold_attention, max_ulp=args.max_ulp)
            print(json.dumps(report, indent=1))
            return 0 if report["passed"] else 1
    except (ValueError, TypeError, NotImplementedError) as e:
        print(f"posenc: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
