"""posenc emit --format npy|safetensors read by independent code: numpy.load for .npy, and the
safetensors layout parsed with Python's struct and json alone (the safetensors package is not in
Debian). Shapes, dtypes, tensor names and every value are compared, bit for bit, with the same
command's --format csv. Run by ctest (tests/CMakeLists.txt) where python3 has numpy:

    python3 tests/tensor_files_numpy.py path/to/posenc
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

POSENC = sys.argv[1]
NPY_DESCR = {"f64": "<f8", "f32": "<f4", "f16": "<f2", "bf16": "<u2", "i32": "<i4"}
ST_DTYPE = {"f64": "F64", "f32": "F32", "f16": "F16", "bf16": "BF16", "i32": "I32"}
failures = []


def run(args, out=None):
    cmd = [POSENC, "emit"] + args + (["-o", out] if out else [])
    r = subprocess.run(cmd, capture_output=True)
    if r.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(cmd), r.stderr.decode()))
    return r.stdout


def csv_rows(args):
    lines = run(args + ["--format", "csv"]).decode().splitlines()
    return [line.split(",") for line in lines[1:]]


def as_float64(raw, dtype):
    """The exact values of a numpy array of the file's type, as float64 (bf16: its bit patterns)."""
    if dtype == "bf16":
        return (raw.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return raw.astype(np.float64)


def same(what, got, want):
    got = np.ascontiguousarray(got, dtype=np.float64).ravel()
    want = np.asarray(want, dtype=np.float64).ravel()
    if got.shape != want.shape:
        failures.append("%s: %d values, expected %d" % (what, got.size, want.size))
    elif not np.array_equal(got.view(np.uint64), want.view(np.uint64)):
        k = int(np.argmax(got.view(np.uint64) != want.view(np.uint64)))
        failures.append("%s: value %d is %r, the CSV says %r" % (what, k, got[k], want[k]))


def check(what, cond):
    if not cond:
        failures.append(what)


def read_safetensors(path):
    """{name: (dtype, shape, bytes)} and the metadata, by the format's definition."""
    with open(path, "rb") as f:
        b = f.read()
    (n,) = struct.unpack("<Q", b[:8])
    header = json.loads(b[8 : 8 + n].decode("utf-8"))
    data = b[8 + n :]
    meta = header.pop("__metadata__", {})
    tensors, end = {}, 0
    for name, t in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"]):
        lo, hi = t["data_offsets"]
        check("%s: %s starts at %d, not at %d" % (path, name, lo, end), lo == end)
        end = hi
        tensors[name] = (t["dtype"], t["shape"], data[lo:hi])
    check("%s: %d bytes after the last tensor" % (path, len(data) - end), end == len(data))
    return tensors, meta


def st_array(entry, dtype):
    st_dtype, shape, raw = entry
    check("safetensors dtype %s, expected %s" % (st_dtype, ST_DTYPE[dtype]), st_dtype == ST_DTYPE[dtype])
    return as_float64(np.frombuffer(raw, dtype=NPY_DESCR[dtype]), dtype).reshape(shape)


def emit_files(args, tmp):
    npy, st = os.path.join(tmp, "t.npy"), os.path.join(tmp, "t.safetensors")
    run(args + ["--format", "npy"], npy)
    run(args + ["--format", "safetensors"], st)
    arr = np.load(npy)
    tensors, meta = read_safetensors(st)
    return arr, tensors, meta


def check_table(args, dtype, name, shape, tmp):
    what = " ".join(args)
    want = [float(r[-1]) if dtype == "i32" else float.fromhex(r[-1]) for r in csv_rows(args)]
    arr, tensors, meta = emit_files(args, tmp)
    check("%s: npy dtype %s, expected %s" % (what, arr.dtype.str, NPY_DESCR[dtype]), arr.dtype.str == NPY_DESCR[dtype])
    check("%s: npy shape %s, expected %s" % (what, arr.shape, shape), list(arr.shape) == shape)
    same(what + " (npy)", as_float64(arr, dtype), want)
    check("%s: tensors %s, expected [%s]" % (what, sorted(tensors), name), sorted(tensors) == [name])
    if name in tensors:
        t = st_array(tensors[name], dtype)
        check("%s: safetensors shape %s" % (what, t.shape), list(t.shape) == shape)
        same(what + " (safetensors)", t, want)
    check("%s: metadata dtype %r" % (what, meta.get("dtype")), meta.get("dtype") == dtype)


def check_rope(flags, dtype, layout, rows, dim, tmp):
    args = ["rope"] + flags + ["--dtype", dtype, "--layout", layout]
    what = " ".join(args)
    cos, sin = np.zeros((rows, dim)), np.zeros((rows, dim))
    for r, f in enumerate(csv_rows(["rope"] + flags + ["--dtype", dtype])):
        i, j = r // (dim // 2), int(f[1])
        ks = (2 * j, 2 * j + 1) if layout == "interleaved" else (j, j + dim // 2)
        for k in ks:
            cos[i, k], sin[i, k] = float.fromhex(f[2]), float.fromhex(f[3])
    arr, tensors, meta = emit_files(args, tmp)
    check("%s: npy dtype %s" % (what, arr.dtype.str), arr.dtype.str == NPY_DESCR[dtype])
    check("%s: npy shape %s" % (what, arr.shape), list(arr.shape) == [2, rows, dim])
    same(what + " (npy cos)", as_float64(arr[0], dtype), cos)
    same(what + " (npy sin)", as_float64(arr[1], dtype), sin)
    check("%s: tensors %s" % (what, sorted(tensors)), sorted(tensors) == ["cos", "sin"])
    same(what + " (safetensors cos)", st_array(tensors["cos"], dtype), cos)
    same(what + " (safetensors sin)", st_array(tensors["sin"], dtype), sin)
    check("%s: metadata layout %r" % (what, meta.get("layout")), meta.get("layout") == layout)


def check_rope_freq(flags, dtype, tmp):
    args = ["rope-freq"] + flags + ["--dtype", dtype]
    what = " ".join(args)
    rows = csv_rows(args)
    inv = [float.fromhex(r[1]) for r in rows[:-1]]
    check(what + ": last CSV row", rows[-1][0] == "attention_factor")
    att = float.fromhex(rows[-1][1])
    arr, tensors, meta = emit_files(args, tmp)
    check("%s: npy shape %s" % (what, arr.shape), list(arr.shape) == [len(inv) + 1])
    same(what + " (npy)", as_float64(arr, dtype), inv + [att])
    same(what + " (safetensors inv_freq)", st_array(tensors["inv_freq"], dtype), inv)
    a = st_array(tensors["attention_factor"], dtype)
    check("%s: attention_factor shape %s" % (what, a.shape), a.shape == ())
    same(what + " (safetensors attention_factor)", a, [att])


def main():
    with tempfile.TemporaryDirectory() as tmp:
        llama = ["--head-dim", "16", "--rope-theta", "500000", "--rope-type", "llama3", "--factor", "8",
                 "--original-max-position-embeddings", "8192", "--positions", "3", "--start", "4095"]
        for dtype in ("f64", "f32", "bf16", "f16"):
            for layout in ("half-split", "interleaved"):
                check_rope(llama, dtype, layout, 3, 16, tmp)
            check_rope_freq(["--head-dim", "16", "--rope-type", "yarn", "--factor", "4",
                             "--original-max-position-embeddings", "4096"], dtype, tmp)
            check_table(["sinusoidal", "--dim", "6", "--positions", "3", "--dtype", dtype], dtype, "value", [3, 6], tmp)
            check_table(["alibi", "--heads", "3", "--bias", "--positions", "4", "--dtype", dtype], dtype, "bias",
                        [3, 10], tmp)
            check_table(["xpos", "--head-dim", "8", "--positions", "2", "--start", "-3", "--dtype", dtype], dtype,
                        "scale", [2, 4], tmp)
        check_table(["t5-bucket", "--num-buckets", "32", "--max-distance", "128", "--range", "150"], "i32", "bucket",
                    [301], tmp)
        check_table(["shaw", "--positions", "4", "--max-relative-position", "1"], "i32", "index", [4, 4], tmp)
    for f in failures:
        print("FAIL:", f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
