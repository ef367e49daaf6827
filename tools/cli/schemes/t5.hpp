// schemes/t5.hpp: T5's relative buckets on the command line, one place: its flags and the one
// reader of its config (which `emit` and `verify` both call), `posenc emit t5-bucket`
// (t5::fill_buckets; columns relative_position,bucket) and, with the verify layer
// (POSENC_CLI_HAVE_VERIFY), `posenc verify` of the same table. schemes.hpp lists it.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <posenc/status.hpp>
#include <posenc/t5.hpp>

#if defined(POSENC_CLI_HAVE_IO)
#include <posenc/io/t5_hf_config.hpp>
#endif

#include "args.hpp"
#include "config_field_flags.hpp"
#include "emit_bucket_table.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_command.hpp"

#if POSENC_CLI_HAVE_VERIFY
#include <posenc/verify/t5_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

// --hf-config FILE: the config of a HuggingFace config.json (posenc::io), or nothing without the
// flag; without posenc::io the flag says it is not available (hf_config_flag.hpp).
inline std::optional<t5::config> hf_t5_config(const parsed_args& a, std::string_view ctx) {
#if defined(POSENC_CLI_HAVE_IO)
  return hf_config_value(a, ctx, [](std::string_view text) { return io::t5_from_hf_config(text); });
#else
  return no_hf_config<t5::config>(a, ctx);
#endif
}

inline constexpr flag_spec t5_table_flags[] = {
    {"range", flag_kind::value, "R", "relative positions -R .. R (verify: default 2 x max_distance)"},
    {"hf-config", flag_kind::value, "FILE", "the config from a HuggingFace config.json (flags override it)"},
};
inline constexpr auto t5_flags = with_config_flags<t5::config_fields>(t5_table_flags);

inline t5::config read_t5_config(const parsed_args& a, const std::string& ctx) {
  const std::optional<t5::config> hf = hf_t5_config(a, ctx);  // flags override the file
  t5::config c = hf.value_or(t5::config{});
  read_config_fields<t5::config_fields>(a, ctx, c, hf.has_value());
  check_valid(t5::checked_config{c}.check(), ctx, "T5");
  return c;
}

inline std::string emit_t5(const parsed_args& a, const table_options& o) {
  const t5::config c = read_t5_config(a, o.ctx);
  const t5::checked_config cc{c};
  const long long range = required_integer(a, "range", 0, 1LL << 62, o.ctx);
  table<std::int32_t> t = bucket_table("t5-bucket", range, o);
  std::vector<int> b(t.values.size());
  check_status(t5::fill_buckets(cc, -range, std::span<int>(b)), "T5 buckets");
  for (std::size_t i = 0; i < b.size(); ++i) t.values[i] = static_cast<std::int32_t>(b[i]);
  t.index_notes = {"[R + r]: the bucket of relative position r = key - query, -R <= r <= R"};
  t.params = {{"relative_attention_num_buckets", std::to_string(c.relative_attention_num_buckets)},
              {"relative_attention_max_distance", std::to_string(c.relative_attention_max_distance)},
              {"bidirectional", c.bidirectional ? "true" : "false (--causal)"},
              {"range R", std::to_string(range)}};
  return write_table(t, o);
}

inline constexpr scheme_command t5_bucket_command{
    "t5-bucket", "t5-bucket (--num-buckets B --max-distance M | --hf-config FILE) [--no-bidirectional] --range R",
    t5_flags, false, emit_t5};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command t5_commands[] = {t5_bucket_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_t5(const parsed_args& a, const options& o) {
  pv::t5_verify_request q;
  q.run = o.run;
  q.config = emit::read_t5_config(a, o.ctx);
  integers_only(a, o);
  // Default: twice max_distance, so the table shows every bucket and the saturation past it.
  const long long fallback = std::min<long long>(2 * q.config.relative_attention_max_distance, 1LL << 23);
  q.range = flag_integer(a, "range", 0, (1LL << 23) - 1, fallback, o.ctx);
  q.description = table_words(o) + "; relative positions -" + std::to_string(q.range) + " .. " +
                  std::to_string(q.range) + "; relative_attention_num_buckets " +
                  std::to_string(q.config.relative_attention_num_buckets) + ", relative_attention_max_distance " +
                  std::to_string(q.config.relative_attention_max_distance) +
                  (q.config.bidirectional ? ", bidirectional" : ", causal");
  const std::vector<std::uint64_t> shape{static_cast<std::uint64_t>(2 * q.range + 1)};
  if (!o.table) return pv::verify_t5(q, {});
  const std::vector<std::int32_t> v = read_integers(o, shape, "bucket");
  return pv::verify_t5(q, v, false);
}

// verify's --range is optional (default 2 x max_distance), emit's required.
inline constexpr verify_scheme t5_bucket_verify{
    "t5-bucket", run_t5, true,
    "t5-bucket (--num-buckets B --max-distance M | --hf-config FILE) [--no-bidirectional] [--range R]"};
inline constexpr verify_scheme t5_verifiers[] = {t5_bucket_verify};

}  // namespace posenc::cli::verify_schemes
#endif
