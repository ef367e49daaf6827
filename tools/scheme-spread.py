#!/usr/bin/env python3
"""scheme-spread.py: for each scheme, the library, CLI and Python source files outside the scheme's
own files (those whose path carries its name) that name it in code (issue 20's measure: a scheme
should be one place, named elsewhere only by a registry list, the umbrella header and the Python
export list).

  python3 tools/scheme-spread.py            # a line per scheme: counts, then the files
  python3 tools/scheme-spread.py --counts   # a line per scheme: counts only

Each line gives two counts: the shared files (no scheme's own: the registry, the umbrella, the
commands, the shared law and io headers), which is the measure, and after "+" the files of other
schemes that build on this one (Transformer-XL's table is the sinusoid at relative positions; RoPE's
config.json reader refuses an ALiBi config by its keys). "strict" adds the two: every file outside
the scheme's own.

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
    "sinusoidal": (["sinusoidal", "sinusoid"], r"\bsinusoidal\b|\bsinusoidal(_\w|\.hpp|/)|\"sinusoidal\""),
    "transformer_xl": (["transformer_xl"], r"\btransformer_xl\b|\btransformer_xl(_\w|\.hpp|/)|\"transformer-xl\""),
    "alibi": (["alibi"], r"\balibi\b|\balibi(_\w|\.hpp|/)|\"alibi\""),
    "t5": (["t5"], r"\bt5\b|\bt5(_\w|\.hpp|/)|\"t5-bucket\""),
    "deberta": (["deberta"], r"\bdeberta\b|\bdeberta(_\w|\.hpp|/)|\"deberta-bucket\""),
    "shaw": (["shaw"], r"\bshaw\b|\bshaw(_\w|\.hpp|/)|\"shaw\""),
    "xpos": (["xpos"], r"\bxpos\b|\bxpos(_\w|\.hpp|/)|\"xpos\""),
    "kerple": (["kerple"], r"\bkerple\b|\bkerple(_\w|\.hpp|/)|\"kerple-(log|power)\""),
    "sandwich": (["sandwich"], r"\bsandwich\b|\bsandwich(_\w|\.hpp|/)|\"sandwich\""),
    "logn": (["logn"], r"\blogn\b|\blogn(_\w|\.hpp|/)|\"logn\""),
    "attn_temperature": (["attn_temperature", "temperature"],
                         r"\battn_temperature\b|\battn_temperature(_\w|\.hpp|/)|\"attn-temperature\""),
}


def code_of(path: pathlib.Path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".py":
        return "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return "\n".join(re.sub(r"//.*", "", line) for line in text.splitlines())


# RoPE is not counted (it is named everywhere in the rotary core), but its files are a scheme's own.
ROPE_WORDS = ["rope"]


def own(rel: str, words) -> bool:
    return any(w in rel for w in words)


def main() -> int:
    files = [p for d in DIRS for p in sorted((ROOT / d).rglob("*")) if p.suffix in (".hpp", ".cpp", ".py")]
    codes = {p: code_of(p) for p in files}
    counts_only = "--counts" in sys.argv[1:]
    every_scheme_words = ROPE_WORDS + [w for words, _ in SCHEMES.values() for w in words]
    for scheme, (words, pattern) in SCHEMES.items():
        rx = re.compile(pattern)
        hits = [str(p.relative_to(ROOT)) for p in files
                if not own(str(p.relative_to(ROOT)), words) and rx.search(codes[p])]
        shared = [h for h in hits if not own(h, every_scheme_words)]
        others = [h for h in hits if own(h, every_scheme_words)]
        line = f"{scheme} {len(shared)} + {len(others)} (strict {len(hits)})"
        if not counts_only:
            line += ": " + " ".join(shared)
            if others:
                line += " + in other schemes' files: " + " ".join(others)
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
