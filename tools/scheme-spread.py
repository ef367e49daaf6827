#!/usr/bin/env python3
"""scheme-spread.py: for each scheme, the library, CLI and Python source files outside the scheme's
own files (those whose path carries its name) that name it in code (issue 20's measure: a scheme
should be one place, named elsewhere only by a registry list, the umbrella header and the Python
export list).

  python3 tools/scheme-spread.py            # a line per scheme: count, then the files
  python3 tools/scheme-spread.py --counts   # a line per scheme: count only

"Names it in code": after removing comments (// and /* */ in C++, # in Python), the text holds the
scheme's name as a word (a namespace `alibi::`, an X-macro entry `X(alibi)`), a prefixed name
(`alibi_...`), its CLI name in quotes ("t5-bucket"), or its header (`alibi.hpp`, `alibi/`). Counted: include/posenc, tools/cli, python/src, python/posenc.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIRS = ["include/posenc", "tools/cli", "python/src", "python/posenc"]

# scheme -> (the words of its path, the regex of its names in code)
SCHEMES = {
    "sinusoidal": (["sinusoidal"], r"\bsinusoidal\b|\bsinusoidal(_\w|\.hpp|/)|\"sinusoidal\""),
    "transformer_xl": (["transformer_xl"], r"\btransformer_xl\b|\btransformer_xl(_\w|\.hpp|/)|\"transformer-xl\""),
    "alibi": (["alibi"], r"\balibi\b|\balibi(_\w|\.hpp|/)|\"alibi\""),
    "t5": (["t5"], r"\bt5\b|\bt5(_\w|\.hpp|/)|\"t5-bucket\""),
    "deberta": (["deberta"], r"\bdeberta\b|\bdeberta(_\w|\.hpp|/)|\"deberta-bucket\""),
    "shaw": (["shaw"], r"\bshaw\b|\bshaw(_\w|\.hpp|/)|\"shaw\""),
    "xpos": (["xpos"], r"\bxpos\b|\bxpos(_\w|\.hpp|/)|\"xpos\""),
    "kerple": (["kerple"], r"\bkerple\b|\bkerple(_\w|\.hpp|/)|\"kerple-(log|power)\""),
    "sandwich": (["sandwich"], r"\bsandwich\b|\bsandwich(_\w|\.hpp|/)|\"sandwich\""),
    "logn": (["logn"], r"\blogn\b|\blogn(_\w|\.hpp|/)|\"logn\""),
}


def code_of(path: pathlib.Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".py":
        return "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return "\n".join(re.sub(r"//.*", "", line) for line in text.splitlines())


def main() -> int:
    files = [p for d in DIRS for p in sorted((ROOT / d).rglob("*")) if p.suffix in (".hpp", ".cpp", ".py")]
    codes = {p: code_of(p) for p in files}
    counts_only = "--counts" in sys.argv[1:]
    for scheme, (words, pattern) in SCHEMES.items():
        rx = re.compile(pattern)
        hits = [p for p in files
                if not any(w in str(p.relative_to(ROOT)) for w in words) and rx.search(codes[p])]
        line = f"{scheme} {len(hits)}"
        if not counts_only:
            line += ": " + " ".join(str(p.relative_to(ROOT)) for p in hits)
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
