"""One list of config fields per scheme (posenc/<scheme>/config_fields.hpp) gives both the CLI's flags
and Python's keyword arguments (issue 20): the same names (a_b in Python, --a-b on the command line)
and the same defaults, config{}'s members. posenc._core.config_fields publishes the lists; these
tests read every public function's signature and the CLI's help against them."""

import inspect
import os
import subprocess

import pytest

import posenc
from posenc import _core

# Each scheme's public functions (the config fields are keyword arguments of each).
FUNCTIONS = {
    "alibi": [posenc.alibi_slopes, posenc.alibi_bias_by_distance, posenc.alibi_bias],
    "t5": [posenc.t5_buckets, posenc.t5_bucket_matrix],
    "deberta": [posenc.deberta_buckets],
    "logn": [posenc.logn_factors],
    "attn_temperature": [posenc.attn_temperature_scales],
    "sinusoidal": [posenc.sinusoidal_table],
    "xpos": [posenc.xpos_scales],
    "sandwich": [posenc.sandwich_bias],
    "shaw": [posenc.shaw_relative_indices],
    "transformer_xl": [posenc.transformer_xl_table],  # (transformer_xl_positions: all but d_model)
    "kerple_log": [posenc.kerple_log_bias],  # (a list per keyword: one value per head)
    "kerple_power": [posenc.kerple_power_bias],
}

# The CLI's table of each scheme.
CLI_TABLES = {"attn_temperature": "attn-temperature", "t5": "t5-bucket", "deberta": "deberta-bucket", "transformer_xl": "transformer-xl",
              "kerple_log": "kerple-log", "kerple_power": "kerple-power"}


def fields_not_in_signature(function, fields):
    """The fields `function` does not take under their name, or takes with another default: a
    required field has no default (or None: from a config.json); an optional one the library's, or
    None where None means "not given" and the library's default applies."""
    params = inspect.signature(function).parameters
    wrong = []
    for field in fields:
        p = params.get(field["name"])
        if p is None:
            wrong.append(field["name"])
        elif field["required"]:
            if p.default not in (inspect.Parameter.empty, None):
                wrong.append(field["name"])
        elif p.default is not None and (p.default != field["default"] or type(p.default) is not type(field["default"])):
            wrong.append(field["name"])
    return wrong


def test_every_scheme_publishes_its_fields():
    assert set(_core.config_fields) == set(FUNCTIONS)
    for scheme, fields in _core.config_fields.items():
        assert fields, scheme
        for f in fields:
            assert set(f) == {"name", "default", "required", "help"}
            assert (f["default"] is None) == f["required"], (scheme, f)


@pytest.mark.parametrize("scheme", sorted(FUNCTIONS))
def test_python_takes_the_fields_by_name_with_their_defaults(scheme):
    for function in FUNCTIONS[scheme]:
        assert fields_not_in_signature(function, _core.config_fields[scheme]) == [], function.__name__


def test_defaults_are_the_libraries():
    # spot values from the C++ configs (posenc/<scheme>/config.hpp), not from the lists
    fields = {s: {f["name"]: f["default"] for f in fs} for s, fs in _core.config_fields.items()}
    assert fields["logn"]["base"] == 512 and fields["logn"]["at_least_one"] is False
    assert fields["deberta"] == {"position_buckets": 256, "max_relative_positions": 512}
    assert fields["sinusoidal"]["base"] == 10000.0 and fields["sinusoidal"]["layout"] == "interleaved"
    assert fields["transformer_xl"]["model"] == "transformer-xl" and fields["transformer_xl"]["clamp_len"] == -1
    assert fields["t5"]["bidirectional"] is True and fields["t5"]["num_buckets"] is None


def test_signature_check_can_fail():
    def other(positions, *, base=511, at_least_one=False):
        return positions

    def renamed(positions, *, log_base=512, at_least_one=False):
        return positions

    assert fields_not_in_signature(other, _core.config_fields["logn"]) == ["base"]
    assert fields_not_in_signature(renamed, _core.config_fields["logn"]) == ["base"]
    required = [{"name": "dim", "default": None, "required": True, "help": ""}]
    assert fields_not_in_signature(posenc.logn_factors, required) == ["dim"]


# ---- the CLI (skipped when it is not built) ----

CLI = os.environ.get("POSENC_CLI", "")


def cli_help(table):
    if not CLI or not os.path.exists(CLI):
        pytest.skip("the posenc command-line tool is not built (target posenc_cli)")
    r = subprocess.run([CLI, "emit", table, "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def fields_not_in_cli_help(help_text, fields):
    """The fields whose flag --a-b (--no-a-b for a switch on by default) the help does not list
    with "(required)" or the same default."""
    lines = {line.split()[0]: line for line in help_text.splitlines() if line.startswith("  --")}
    wrong = []
    for f in fields:
        flag = "--" + ("no-" if f["default"] is True else "") + f["name"].replace("_", "-")
        line = lines.get(flag)
        d = f["default"]
        if isinstance(d, float) and d.is_integer():
            d = int(d)
        want = "(required)" if f["required"] else "" if isinstance(d, bool) else f"(default {d})"
        if line is None or want not in line:
            wrong.append(f["name"])
    return wrong


@pytest.mark.parametrize("scheme", sorted(FUNCTIONS))
def test_cli_flags_are_the_same_fields(scheme):
    text = cli_help(CLI_TABLES.get(scheme, scheme))
    assert fields_not_in_cli_help(text, _core.config_fields[scheme]) == []
    # and the check can fail: another scheme's fields
    other = "sandwich" if scheme != "sandwich" else "logn"
    assert fields_not_in_cli_help(text, _core.config_fields[other]) != []
