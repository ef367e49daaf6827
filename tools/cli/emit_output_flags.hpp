// emit_output_flags.hpp: what every table of `posenc emit` writes through, read once for all of
// them: -o FILE / --output FILE (also `posenc verify`'s report file), --format, --name, --dtype and
// --decimal. Integer-valued tables take the first three only. The tables' own flags are in
// emit_config.hpp (RoPE), commands_emit.hpp (rope's table flags) and schemes/<scheme>.hpp (the rest).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "args.hpp"
#include "emit_table.hpp"
#include "emit_tensors.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"

namespace posenc::cli::emit {

inline constexpr flag_spec output_flags[] = {
    {"format", flag_kind::value, "csv|c|bin|npy|safetensors", "output format (default csv)"},
    {"name", flag_kind::value, "ID", "--format c: prefix of the C identifiers (default posenc_<table>)"},
    {"output", flag_kind::value, "FILE", "same as -o FILE: write FILE atomically instead of stdout"},
    {"dtype", flag_kind::value, "f64|f32|bf16|f16|q15|q31",
     "type the values are rounded into (default f64; also float64, float32, bfloat16, float16, double, float, half;"
     " q15/q31: CMSIS-DSP fixed point for rope, sinusoidal, alibi slopes, xpos; saturations noted on stderr)"},
    decimal_flag,
};
// An integer-valued table is exact in int32: no dtype to round into, no decimals to choose.
inline constexpr std::size_t integer_output_flag_count = 3;

inline constexpr std::span<const flag_spec> output_flags_of(bool real) {
  return real ? std::span<const flag_spec>(output_flags)
              : std::span<const flag_spec>(output_flags).first(integer_output_flag_count);
}

// ---- -o FILE: the one positional flag (the grammar of args.hpp takes only "--" flags) ----

struct command_target {
  std::vector<std::string_view> what;  // the positionals other than -o FILE
  std::string output;                  // -o FILE or --output FILE; empty: stdout
};

// `command` names the command in messages ("emit", "verify").
inline command_target read_command_target(const parsed_args& a, std::string_view command) {
  const std::string where(command);
  command_target t;
  const auto& p = a.positionals;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] != "-o") {
      t.what.push_back(p[i]);
      continue;
    }
    if (i + 1 >= p.size()) throw usage_error(where + ": -o needs a file name");
    if (!t.output.empty()) throw usage_error(where + ": the output file is given twice");
    t.output = std::string(p[++i]);
    if (t.output.empty()) throw usage_error(where + ": -o has an empty value");
  }
  if (const auto v = a.value("output")) {
    const std::string ctx = t.what.empty() ? where : where + " " + std::string(t.what[0]);
    if (!t.output.empty()) throw usage_error(ctx + ": the output file is given twice");
    t.output = std::string(*v);
  }
  return t;
}

// ---- --format, --name, --dtype, --decimal ----

inline bool c_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (const char ch : s)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_')) return false;
  return true;
}

// The tables that take --dtype q15|q31.
inline constexpr std::string_view fixed_point_tables = "rope, sinusoidal, alibi (slopes), xpos";
inline bool fixed_point_table(std::string_view table) {
  return table == "rope" || table == "sinusoidal" || table == "alibi" || table == "xpos";
}

struct output_options {
  table_format fmt = table_format::csv;
  dtype type = dtype::f64;
  bool decimal = false;
  std::string name;  // the C identifiers' prefix: --name, or posenc_<table> with '_' for '-'
};

// `table` is the table's name ("rope-freq"); ctx its messages' prefix ("emit rope-freq"). Whether
// an integer table was given --dtype or --decimal is its flag check's business, before this.
inline output_options read_output_options(const parsed_args& a, const std::string& ctx, std::string_view table) {
  output_options o;
  o.fmt = flag_choice(a, "format",
                      {{"csv", table_format::csv},
                       {"c", table_format::c},
                       {"bin", table_format::bin},
                       {"npy", table_format::npy},
                       {"safetensors", table_format::safetensors}},
                      table_format::csv, ctx);
  if (o.fmt == table_format::npy || o.fmt == table_format::safetensors)
    check_tensor_format_available(o.fmt == table_format::npy ? tensor_format::npy : tensor_format::safetensors, ctx);
  o.decimal = a.has("decimal");
  if (o.decimal && o.fmt != table_format::csv) throw usage_error(ctx + ": flag --decimal applies to --format csv only");
  o.name = "posenc_" + std::string(table);
  for (char& ch : o.name)
    if (ch == '-') ch = '_';
  if (const auto v = a.value("name")) {
    if (o.fmt != table_format::c) throw usage_error(ctx + ": flag --name applies to --format c only");
    if (!c_identifier(*v)) throw usage_error(ctx + ": --name must be a C identifier, got " + quote(*v));
    o.name = std::string(*v);
  }
  o.type = flag_choice(a, "dtype",
                       {{"f64", dtype::f64},
                        {"f32", dtype::f32},
                        {"bf16", dtype::bf16},
                        {"f16", dtype::f16},
                        {"q15", dtype::q15},
                        {"q31", dtype::q31}},
                       dtype::f64, ctx);
  if (o.type == dtype::q15 || o.type == dtype::q31) {  // CMSIS-DSP fixed point (docs/fixed-point.md)
    if (!fixed_point_table(table))
      throw usage_error(ctx + ": --dtype q15 and q31 apply to the tables " + std::string(fixed_point_tables) +
                        " (this one has no fixed-point form yet)");
    if (o.decimal) throw usage_error(ctx + ": --decimal applies to floating dtypes (q15/q31 print their integers)");
  }
  return o;
}

}  // namespace posenc::cli::emit
