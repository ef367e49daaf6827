// commands_verify_schemes.hpp: `posenc verify <scheme>` for the schemes other than RoPE (issue 10),
// and the `verify` command's table entry (its flags: RoPE's, merge's and the schemes').
//
//   posenc verify alibi (--heads H | --hf-config FILE) [--max-bias 8] [--bias --positions N [--symmetric]]
//   posenc verify t5-bucket (--num-buckets B --max-distance M | --hf-config FILE) [--causal] [--range R]
//   posenc verify sinusoidal|transformer-xl|xpos|kerple-log|kerple-power|sandwich|logn|deberta-bucket|shaw
//       [the flags of `posenc emit <scheme>`] [--dtype T[,T...]] [--table FILE] [--max-ulp K]
//       [--shard K/N] [--threads N] [--json] [--quiet] [-o FILE]
// Each reads the scheme's config exactly as `posenc emit <scheme>` does (the same flags), builds
// posenc's table in each dtype (or reads --table FILE: .npy, .safetensors or the --format bin
// layout of `posenc emit <scheme>`) and checks every entry against its exact value and every law of
// the registry that applies (posenc/verify/<scheme>_verify.hpp), on every thread, a shard of the
// table's blocks with --shard K/N (`verify merge` combines the shards' JSON reports, as RoPE's).
// Here: the flags and the command; each scheme's runner is in schemes/<scheme>.hpp (listed in
// schemes.hpp), the --table reading in verify_table_input.hpp, the text report (RoPE's and every
// scheme's) in verify_report_format.hpp. Exit 0 when everything holds, 1 when something
// fails, 2 on bad input. Docs: docs/verify.md, docs/cli.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/io/verify_report_json.hpp>
#include <posenc/verify/report.hpp>
#include <posenc/verify/scheme_verify_core.hpp>

#include "args.hpp"
#include "commands_verify.hpp"
#include "emit_output.hpp"
#include "schemes.hpp"
#include "verify_report_format.hpp"
#include "verify_table_input.hpp"

namespace posenc::cli::verify_schemes {

namespace pv = posenc::verify;

// ---- the flags: each scheme's config flags (schemes/<scheme>.hpp), these, the report's ----

// What `verify <scheme>` reads besides the config (with `verify rope`'s words, other defaults).
inline constexpr flag_spec table_flags[] = {
    {"dtype", flag_kind::value, "T[,T...]",
     "f64|f32|bf16|f16 (or float64, ...), comma-separated (default all four; --table bin: f64); q15|q31 "
     "for sinusoidal, xpos and alibi (slopes)"},
    {"table", flag_kind::value, "FILE",
     "verify FILE instead: .npy, .safetensors or the --format bin layout of 'posenc emit <scheme>'"},
    {"shard", flag_kind::value, "K/N", "verify only slice K of N (K = 0 .. N-1) of the table's blocks"},
    {"threads", flag_kind::value, "N", "worker threads (default: every hardware thread)"},
};

// Every flag of every verified table, each name once (the table's own check says which apply).
inline constexpr auto all_flags = [] {
  flag_union<128> u;
  u.add(verify_cmd::all_flags.view()).add(table_flags);
  for (const auto& s : emit::schemes) u.add(s.flags);
  return u;
}();

}  // namespace posenc::cli::verify_schemes

namespace posenc::cli::verify_cmd {

// `posenc verify <scheme>`: the flags common to every scheme, the scheme's runner, the report.
inline void run_scheme(const parsed_args& a, std::string_view name, std::span<const std::string_view> extra,
                       const std::string& output, std::string& out) {
  namespace vs = verify_schemes;
  const vs::verify_scheme* s = vs::find(name);
  const emit::scheme_command* e = emit::find_scheme(name);
  if (s == nullptr || e == nullptr)
    throw usage_error("verify: unknown table " + quote(name) + " (expected rope, " + vs::scheme_names() + " or merge)");
  vs::options o;
  o.ctx = "verify " + std::string(name);
  if (!extra.empty()) throw usage_error(o.ctx + ": unexpected argument " + quote(extra[0]));
  for (const std::string_view f : a.names())
    if (!emit::listed(f, {e->flags, vs::table_flags, verify_cmd::report_flags}))
      throw usage_error(o.ctx + ": flag --" + std::string(f) + " does not apply to '" + o.ctx + "'");
  if (const auto t = a.value("table")) {
    o.table = std::string(*t);
    if (o.table->empty()) throw usage_error(o.ctx + ": --table has an empty value");
    const auto ends = [&](std::string_view x) { return o.table->size() >= x.size() && o.table->ends_with(x); };
    o.kind = ends(".npy")           ? vs::table_file::npy
             : ends(".safetensors") ? vs::table_file::safetensors
                                    : vs::table_file::bin;
  }
  o.dtype_given = a.has("dtype");
  if (o.dtype_given && !s->integer_valued) o.dtypes = parse_dtypes(*a.value("dtype"), o.ctx, s->fixed_point);
  if (!o.dtype_given)
    o.dtypes =
        o.table ? std::vector{pv::table_dtype::f64}
                : std::vector{pv::table_dtype::f64, pv::table_dtype::f32, pv::table_dtype::bf16, pv::table_dtype::f16};
  if (o.table && o.dtypes.size() != 1) throw usage_error(o.ctx + ": --table FILE holds one dtype: give one --dtype");
  o.max_ulp = static_cast<std::uint64_t>(flag_integer(a, "max-ulp", 0, 1LL << 40, 0, o.ctx));
  if (const auto v = a.value("shard")) o.run.shard = parse_shard(*v, o.ctx);
  o.run.threads = static_cast<unsigned>(flag_integer(a, "threads", 1, 1024, 0, o.ctx));
  progress_meter meter(a.has("quiet"));
  o.run.progress = [&meter](std::uint64_t done, std::uint64_t n) { meter(done, n); };
  pv::verify_report r;
  try {
    r = s->run(a, o);
  } catch (const std::invalid_argument& ex) {
    throw usage_error(o.ctx + ": " + ex.what());
  }
  finish(r, a.has("json"), output, out);
}

// The `verify` command: -o FILE, then rope, merge or another scheme.
inline void run(const parsed_args& a, std::string& out) {
  const emit::command_target t = emit::read_command_target(a, "verify");
  const std::vector<std::string_view>& pos = t.what;
  const std::string& output = t.output;
  if (pos.empty()) throw usage_error("verify: missing <what> (rope, another scheme, or merge REPORT...)");
  if (pos[0] == "merge") return run_merge(a, {pos.begin() + 1, pos.end()}, output, out);
  if (pos[0] != "rope") return run_scheme(a, pos[0], std::span(pos).subspan(1), output, out);
  if (pos.size() > 1) throw usage_error("verify rope: unexpected argument " + quote(pos[1]));
  run_rope(a, output, out);
}

inline constexpr std::string_view full_usage =
    "usage: posenc verify rope (--head-dim D | --hf-config FILE) [config flags] [--positions N] [--start P]\n"
    "                          [--dtype T[,T...]] [--layout L] [--fold-attention] [--table FILE]\n"
    "                          [--max-ulp K] [--shard K/N] [--threads N] [--json] [--quiet] [-o FILE]\n"
    "       posenc verify merge REPORT.json... [--json] [-o FILE]\n"
    "       posenc verify <table> [the config flags of 'posenc emit <table>'] [--dtype T[,T...]] [--table FILE]\n"
    "                             [--max-ulp K] [--shard K/N] [--threads N] [--json] [--quiet] [-o FILE]\n"
    "\n"
    "verify rope builds posenc's RoPE table of positions [P, P + N) in each dtype (or reads --table\n"
    "FILE, laid out as 'posenc emit rope --format bin' writes it: per row and element, cos then sin)\n"
    "and checks every entry against its exact value (MPFR) and every law of the registry on every\n"
    "block of 1024 rows, on all cores. It prints the entries checked, the maximum and mean error in\n"
    "ULPs per dtype with the worst entry, each law's worst measured deviation and its bound, and the\n"
    "time taken; --json prints the same as JSON. --shard K/N verifies the K-th of N slices of the\n"
    "blocks (K = 0 .. N-1); verify merge combines the slices' JSON reports into the report of the\n"
    "whole table. N defaults to the config's max_position_embeddings.\n"
    "\n"
    "verify <scheme> (every other table of 'posenc emit') takes the config flags of 'posenc emit\n"
    "<scheme>', builds the table in each dtype (default f64,f32,bf16,f16; buckets and indices are\n"
    "integers) or reads --table FILE (.npy, .safetensors or the --format bin layout of 'posenc emit\n"
    "<scheme>'; bin: one --dtype, default f64), and checks every entry against RN(exact value) from\n"
    "MPFR (integers: the published formula, exact) and every law of the registry that applies, on\n"
    "all cores, in blocks of 4096 entries. --shard K/N verifies the K-th of N slices of the blocks (the\n"
    "laws, which read the whole table, run in slice 0); verify merge combines the slices' JSON\n"
    "reports. At most 2^24 entries.\n"
    "\n"
    "Exit status: 0 everything holds, 1 something fails, 2 bad input. Docs: docs/verify.md.\n"
    "'posenc verify <table> --help' lists the flags of one table.\n";

// `posenc verify [<table>] --help`: one table's usage and its flags only, or the overview.
inline std::string help(const parsed_args& a) {
  const std::string_view what = emit::help_table(a);
  std::vector<flag_spec> specs;
  const auto add = [&specs](std::span<const flag_spec> list) { specs.insert(specs.end(), list.begin(), list.end()); };
  const std::string_view paragraphs = full_usage.substr(full_usage.find("\n\n") + 2);
  if (what == "rope") {
    add(all_flags.view());
    return std::string(full_usage.substr(0, full_usage.find("       posenc verify merge"))) + "\n" +
           std::string(paragraphs.substr(0, paragraphs.find("\n\n") + 1)) + "\nflags:\n" + describe_flags(specs);
  }
  if (what == "merge") {
    add(std::span(report_flags).first(merge_flag_count));
    return "usage: posenc verify merge REPORT.json... [--json] [-o FILE]\n\nCombines the JSON reports of a "
           "table's shards (verify <table> --shard K/N --json)\ninto the report of the whole table.\n\nflags:\n" +
           describe_flags(specs);
  }
  const verify_schemes::verify_scheme* v = verify_schemes::find(what);
  const emit::scheme_command* e = emit::find_scheme(what);
  if (v != nullptr && e != nullptr) {
    add(e->flags);
    if (!v->integer_valued) add(verify_schemes::table_flags);
    if (v->integer_valued) add(std::span(verify_schemes::table_flags).subspan(1));  // --table; no dtype
    add(std::span(report_flags).first(v->integer_valued ? integer_report_flag_count : std::size(report_flags)));
    const std::string_view scheme_text = paragraphs.substr(paragraphs.find("verify <scheme>"));
    return "usage: posenc verify " + std::string(v->synopsis.empty() ? e->synopsis : v->synopsis) + "\n         " +
           (v->integer_valued ? "" : "[--dtype T[,T...]] ") + "[--table FILE]" +
           (v->integer_valued ? "" : " [--max-ulp K]") +
           " [--shard K/N] [--threads N]\n         [--json] [--quiet] [-o FILE]\n\n" +
           std::string(scheme_text.substr(0, scheme_text.find("\n\n") + 1)) + "\nflags:\n" + describe_flags(specs);
  }
  // The overview: the usage, then the tables it takes (schemes.hpp's list), 100 columns a line.
  const std::string_view head = full_usage.substr(0, full_usage.find("\n\n") + 1);
  std::string tables = "       <table>:";
  for (const auto& table : verify_schemes::schemes) {
    const std::size_t nl = tables.rfind('\n');
    const std::size_t column = nl == std::string::npos ? tables.size() : tables.size() - nl - 1;
    if (column + 1 + table.name.size() > 100) tables += "\n               ";
    tables += " " + std::string(table.name);
  }
  return std::string(head) + tables + "\n" + std::string(full_usage.substr(head.size()));
}

}  // namespace posenc::cli::verify_cmd

namespace posenc::cli {

inline constexpr command verify_command{"verify",
                                        "verify a table against MPFR and the laws (RoPE: sharded, merged)",
                                        verify_cmd::full_usage,
                                        verify_schemes::all_flags.view(),
                                        verify_cmd::run,
                                        verify_cmd::help};

}  // namespace posenc::cli
