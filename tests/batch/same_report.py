#!/usr/bin/env python3
"""same_report.py MERGED.json ONE.json: exit 0 when the merged report equals the one-process
report bit for bit except `seconds` (the one field docs/verify.md says differs: the shards' times
summed), else exit 1 naming the first field that differs.

Numbers are compared as the text the report wrote (parse_float/parse_int=str), so a real must be
the same double printed the same way, and NaN compares equal to NaN (not so as floats). Key order
counts too: the same writer printed both."""
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_float=str, parse_int=str)


def first_difference(a, b, where):
    """The path of the first difference between a and b, and the two values there; None if equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return where or "(top level)", "keys " + ",".join(a), "keys " + ",".join(b)
        for k in a:
            d = first_difference(a[k], b[k], f"{where}.{k}" if where else k)
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return where, f"{len(a)} items", f"{len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{where}[{i}]")
            if d:
                return d
        return None
    return None if a == b else (where, a, b)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: same_report.py MERGED.json ONE.json")
    merged, one = load(sys.argv[1]), load(sys.argv[2])
    for report, path in ((merged, sys.argv[1]), (one, sys.argv[2])):
        if not isinstance(report, dict) or "seconds" not in report:
            sys.exit(f"same_report.py: {path} is not a verify report (no 'seconds')")
        del report["seconds"]  # the only field allowed to differ
    d = first_difference(merged, one, "")
    if d:
        print(f"same_report.py: {sys.argv[1]} differs from {sys.argv[2]} at {d[0]}: {d[1]} vs {d[2]}",
              file=sys.stderr)
        sys.exit(1)
    print(f"same_report.py: {sys.argv[1]} equals {sys.argv[2]} bit for bit except 'seconds'")


if __name__ == "__main__":
    main()
