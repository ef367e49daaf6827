// schemes/rope_remap.hpp: Leaky ReRoPE's decode table on the command line (rope/leaky_rerope.hpp,
// docs/rope-remap.md): `posenc emit leaky-rerope` and, with the verify layer, `posenc verify
// leaky-rerope`. Row rel (0 .. N-1) holds cos/sin of rel' theta_j, rel' = rel below the window w
// and w + (rel - w) / k from it (bojone/rerope leaky_rerope_patch.py), each correctly rounded: the
// plain table's rows below w, the k-scaled table's rows from k w beyond. ReRoPE's and
// StreamingLLM's rows are plain RoPE rows: `posenc emit rope --positions N`. schemes.hpp lists it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/leaky_rerope.hpp>
#include <posenc/status.hpp>

#include "args.hpp"
#include "emit_pair_table.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_command.hpp"

#if defined(POSENC_CLI_HAVE_IO)
#include <posenc/io/rope_hf_config.hpp>
#endif

#if POSENC_CLI_HAVE_VERIFY
#include <posenc/verify/rope_remap_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

inline constexpr flag_spec leaky_rerope_flags[] = {
    {"head-dim", flag_kind::value, "D", "head dimension"},
    {"rope-theta", flag_kind::value, "B", "the base (default 10000)"},
    {"partial-rotary-factor", flag_kind::value, "F", "rotary dim = floor(D * F) (default 1)"},
    {"window", flag_kind::value, "W", "the window w (default 512, as leaky_rerope_patch.py)"},
    {"leak", flag_kind::value, "K", "the leak k, an integer >= 2 (default 16): rel' = w + (rel - w) / k from w"},
    {"positions", flag_kind::value, "N", "rows rel = 0 .. N-1"},
    {"hf-config", flag_kind::value, "FILE", "the model's RoPE from a config.json (default or linear; flags override)"},
};

struct leaky_choice {
  rope::config plain{};
  rope::leaky_rerope_config leaky{};
};

inline leaky_choice read_leaky_rerope(const parsed_args& a, const std::string& ctx) {
  leaky_choice r;
  bool from_file = false;
#if defined(POSENC_CLI_HAVE_IO)
  if (const auto s = hf_config_value(a, ctx, [](std::string_view text) { return io::rope_from_hf_config(text); })) {
    if (!s->short_factor.empty() || !s->long_factor.empty())
      throw usage_error(ctx +
                        ": --hf-config: Leaky ReRoPE needs a default or linear RoPE config (this one is LongRoPE)");
    r.plain = s->base;
    from_file = true;
  }
#else
  no_hf_config(a, ctx);
#endif
  if (!from_file || a.has("head-dim"))
    r.plain.head_dim = static_cast<int>(required_integer(a, "head-dim", 1, 65536, ctx));
  r.plain.rope_theta = flag_real<double>(a, "rope-theta", from_file ? r.plain.rope_theta : 10000.0, ctx);
  r.plain.partial_rotary_factor =
      flag_real<double>(a, "partial-rotary-factor", from_file ? r.plain.partial_rotary_factor : 1.0, ctx);
  check_valid(rope::validate(r.plain), ctx, "RoPE");
  r.leaky.window = static_cast<std::uint64_t>(flag_integer(a, "window", 1, 1LL << 21, 512, ctx));
  r.leaky.scaling_factor = static_cast<std::uint64_t>(flag_integer(a, "leak", 2, 1LL << 21, 16, ctx));
  check_valid(rope::validate(r.leaky), ctx, "Leaky ReRoPE");
  if (!rope::leaky_rerope_scaled_config(r.plain, rope::checked_leaky_rerope_config{r.leaky}).ok())
    throw usage_error(ctx + ": Leaky ReRoPE needs a default or linear RoPE config (and factor * k exact in double)");
  return r;
}

inline std::string emit_leaky_rerope(const parsed_args& a, const table_options& o) {
  const leaky_choice c = read_leaky_rerope(a, o.ctx);
  const std::size_t rows = static_cast<std::size_t>(required_integer(a, "positions", 1, (1LL << 21) + 1, o.ctx));
  const std::size_t pairs = static_cast<std::size_t>(rope::rotary_dim(c.plain)) / 2;
  if (static_cast<std::uint64_t>(rows) * pairs > max_table_rows)
    throw usage_error(o.ctx + ": table too large: " + std::to_string(rows) + " rows x " + std::to_string(pairs) +
                      " pairs (at most 2^24 entries per run)");
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    std::vector<math::sincos_result<T>> vals(rows * pairs);
    check_status(rope::fill_leaky_rerope_pair_table<T>(c.plain, rope::checked_leaky_rerope_config{c.leaky}, vals),
                 "Leaky ReRoPE table");
    return write_pair_table<T>(vals, rows, pairs, "rel", "relative position rel = i", "leaky-rerope",
                               {{"head_dim", std::to_string(c.plain.head_dim)},
                                {"rope_theta", format_value(c.plain.rope_theta, false)},
                                {"partial_rotary_factor", format_value(c.plain.partial_rotary_factor, false)},
                                {"window", std::to_string(c.leaky.window)},
                                {"leak", std::to_string(c.leaky.scaling_factor)}},
                               "rel' = rel for rel < w, else w + (rel - w) / k; pair j rotates by rel' theta_j", o);
  });
}

inline constexpr scheme_command leaky_rerope_command{
    "leaky-rerope",
    "leaky-rerope (--head-dim D | --hf-config FILE) --positions N [--window 512] [--leak 16] [--rope-theta 10000]",
    leaky_rerope_flags, true, emit_leaky_rerope};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command rope_remap_commands[] = {leaky_rerope_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_leaky_rerope(const parsed_args& a, const options& o) {
  pv::leaky_rerope_verify_request q;
  q.run = o.run;
  const emit::leaky_choice c = emit::read_leaky_rerope(a, o.ctx);
  q.plain = c.plain;
  q.leaky = c.leaky;
  q.rows = static_cast<std::size_t>(emit::required_integer(a, "positions", 1, (1LL << 21) + 1, o.ctx));
  q.max_ulp = o.max_ulp;
  const std::size_t pairs = static_cast<std::size_t>(rope::rotary_dim(q.plain)) / 2;
  q.description = table_words(o) + "; rel = 0 .. " + std::to_string(q.rows - 1) + "; w " +
                  std::to_string(q.leaky.window) + ", k " + std::to_string(q.leaky.scaling_factor);
  return verify_real(o, {2, q.rows, pairs}, "cos",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_leaky_rerope(q, in); });
}

inline constexpr verify_scheme leaky_rerope_verify{"leaky-rerope", run_leaky_rerope, false};
inline constexpr verify_scheme rope_remap_verifiers[] = {leaky_rerope_verify};

}  // namespace posenc::cli::verify_schemes
#endif
