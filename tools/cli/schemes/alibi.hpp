// schemes/alibi.hpp: ALiBi's slopes and biases on the command line, one place: its flags and the
// one reader of its config (which `emit` and `verify` both call), `posenc emit alibi`
// (alibi::fill_slopes / fill_bias_by_distance; columns head,slope or head,query,key,bias) and, with
// the verify layer (POSENC_CLI_HAVE_VERIFY), `posenc verify` of the same table. schemes.hpp lists
// it.
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

#include <posenc/alibi.hpp>
#include <posenc/status.hpp>

#if defined(POSENC_CLI_HAVE_IO)
#include <posenc/io/alibi_hf_config.hpp>
#endif

#include "args.hpp"
#include "config_field_flags.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_command.hpp"

#if POSENC_CLI_HAVE_VERIFY
#include <posenc/verify/alibi_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

// --hf-config FILE: the config of a HuggingFace config.json (posenc::io), or nothing without the
// flag; without posenc::io the flag says it is not available (hf_config_flag.hpp).
inline std::optional<alibi::config> hf_alibi_config(const parsed_args& a, std::string_view ctx) {
#if defined(POSENC_CLI_HAVE_IO)
  return hf_config_value(a, ctx, [](std::string_view text) { return io::alibi_from_hf_config(text); });
#else
  return no_hf_config<alibi::config>(a, ctx);
#endif
}

inline constexpr flag_spec alibi_table_flags[] = {
    {"bias", flag_kind::boolean, "", "the biases of --positions N instead of the slopes"},
    {"positions", flag_kind::value, "N", "--bias: queries and keys 0 .. N-1"},
    {"symmetric", flag_kind::boolean, "", "--bias: every key, -m |i - j| (default: causal, keys j <= i)"},
    {"hf-config", flag_kind::value, "FILE", "heads from a HuggingFace config.json (flags override it)"},
};

// ALiBi's config and which of its tables: the slopes, or the biases (causal or symmetric).
struct alibi_choice {
  alibi::config config{};
  bool bias = false, symmetric = false;
};
inline constexpr auto alibi_flags = with_config_flags<alibi::config_fields>(alibi_table_flags);

inline alibi_choice read_alibi_config(const parsed_args& a, const std::string& ctx) {
  const std::optional<alibi::config> hf = hf_alibi_config(a, ctx);  // flags override the file
  alibi_choice r;
  r.config = hf.value_or(alibi::config{});
  read_config_fields<alibi::config_fields>(a, ctx, r.config, hf.has_value());
  check_valid(alibi::checked_config{r.config}.check(), ctx, "ALiBi");
  r.bias = a.has("bias");
  r.symmetric = a.has("symmetric");
  if (!r.bias)  // the slopes have no positions
    for (const char* f : {"positions", "symmetric"})
      if (a.has(f)) throw usage_error(ctx + ": flag --" + f + " applies to '" + ctx + " --bias' only");
  return r;
}

// Row r of a causal bias block (query i, key j <= i, r = i (i + 1) / 2 + j).
inline void causal_pair(std::uint64_t r, std::int64_t& i, std::int64_t& j) {
  auto q = static_cast<std::uint64_t>(std::sqrt(2.0 * static_cast<double>(r)));
  while (q * (q + 1) / 2 > r) --q;
  while ((q + 1) * (q + 2) / 2 <= r) ++q;
  i = static_cast<std::int64_t>(q);
  j = static_cast<std::int64_t>(r - q * (q + 1) / 2);
}

// Head h's slope, one row per head.
template <class T>
table<T> alibi_slopes(const alibi::checked_config& cc) {
  table<T> t;
  t.keys = {"head"};
  t.value = "slope";
  t.values.resize(static_cast<std::size_t>(cc.get().heads));
  if constexpr (is_fixed<T>()) {  // q15/q31: no slope saturates (every one is below 1)
    const posenc::fixed_fill_status st = alibi::fill_slopes<T>(cc, std::span<T>(t.values));
    check_status(st.error, "ALiBi slopes");
    t.saturated = st.saturated;
  } else {
    check_status(alibi::fill_slopes<T>(cc, std::span<T>(t.values)), "ALiBi slopes");
  }
  t.key_of = [](std::size_t r, std::int64_t* k) { k[0] = static_cast<std::int64_t>(r); };
  t.shape = {t.values.size()};
  t.index_notes = {"[h]: the slope m_h of head h"};
  return t;
}

// Each head's biases by distance 0 .. n-1 (alibi::fill_bias_by_distance), spread over the queries
// i < n and the keys j <= i (causal) or j < n (symmetric): the entry of (i, j) is distance |i - j|'s.
template <class T>
table<T> alibi_biases(const alibi::checked_config& cc, std::size_t n, bool symmetric, const std::string& ctx) {
  const auto heads = static_cast<std::size_t>(cc.get().heads);
  const std::size_t per_head = symmetric ? n * n : n * (n + 1) / 2;
  table<T> t;
  t.keys = {"head", "query", "key"};
  t.value = "bias";
  t.values.resize(heads * per_head);
  std::vector<T> by_distance(n);
  for (std::size_t h = 0; h < heads; ++h) {
    const posenc::status st = alibi::fill_bias_by_distance<T>(cc, static_cast<int>(h), std::span<T>(by_distance));
    if (st == posenc::status::overflow)
      throw usage_error(ctx + ": the bias overflows " + std::string(dtype_name<T>()) + " at head " + std::to_string(h) +
                        ", distance " + std::to_string(first_infinite(by_distance)));
    check_status(st, "ALiBi bias");
    T* out = t.values.data() + h * per_head;
    for (std::size_t i = 0, r = 0; i < n; ++i)
      for (std::size_t j = 0; j < (symmetric ? n : i + 1); ++j) out[r++] = by_distance[i >= j ? i - j : j - i];
  }
  t.key_of = [symmetric, n, per_head](std::size_t r, std::int64_t* k) {
    k[0] = static_cast<std::int64_t>(r / per_head);
    const std::size_t m = r % per_head;
    if (symmetric) {
      k[1] = static_cast<std::int64_t>(m / n);
      k[2] = static_cast<std::int64_t>(m % n);
    } else {
      causal_pair(m, k[1], k[2]);
    }
  };
  t.shape = symmetric ? std::vector<std::size_t>{heads, n, n} : std::vector<std::size_t>{heads, per_head};
  t.index_notes = {symmetric ? "[h][i][j]: head h, query i, key j: -m_h |i - j|"
                             : "[h][i (i + 1) / 2 + j]: head h, query i, key j <= i (causal): -m_h (i - j)"};
  return t;
}

inline std::string emit_alibi(const parsed_args& a, const table_options& o) {
  const alibi_choice ac = read_alibi_config(a, o.ctx);
  const alibi::config& c = ac.config;
  const bool bias = ac.bias, symmetric = ac.symmetric;
  const alibi::checked_config cc{c};
  std::size_t n = 0;
  if (bias) {
    n = static_cast<std::size_t>(required_integer(a, "positions", 1, static_cast<long long>(max_table_rows), o.ctx));
    const std::size_t per_head = symmetric ? n * n : n * (n + 1) / 2;  // n <= 2^24: no overflow
    table_rows(static_cast<std::size_t>(c.heads), per_head, o.ctx,
               "--heads " + std::to_string(c.heads) + " x " + std::to_string(per_head) + " entries per head");
  }
  if (bias && (o.type == dtype::q15 || o.type == dtype::q31))
    throw usage_error(o.ctx + ": --bias in " + (o.type == dtype::q15 ? "q15" : "q31") +
                      ": the biases -m_h |i - j| leave [-1, 1) from distance 1/m_h on (distance 2 for a slope of "
                      "1/2) and would saturate; emit the slopes in fixed point and form the bias in wider arithmetic");
  return with_dtype_or_fixed(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t;
    if constexpr (is_fixed<T>())
      t = alibi_slopes<T>(cc);
    else
      t = bias ? alibi_biases<T>(cc, n, symmetric, o.ctx) : alibi_slopes<T>(cc);
    t.scheme = "alibi";
    t.params = {{"heads", std::to_string(c.heads)}, {"max_bias", real_text(c.max_bias)}};
    if (bias) {
      t.params.push_back({"positions", std::to_string(n)});
      t.params.push_back({"mask", symmetric ? "symmetric" : "causal"});
    }
    t.params.push_back({"dtype", std::string(dtype_name<T>())});
    return write_table(t, o);
  });
}

inline constexpr scheme_command alibi_command{
    "alibi", "alibi (--heads H | --hf-config FILE) [--max-bias 8] [--bias --positions N [--symmetric]]", alibi_flags,
    true, emit_alibi};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command alibi_commands[] = {alibi_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_alibi(const parsed_args& a, const options& o) {
  pv::alibi_verify_request q;
  q.run = o.run;
  const emit::alibi_choice ac = emit::read_alibi_config(a, o.ctx);
  q.config = ac.config;
  q.bias = ac.bias;
  q.symmetric = ac.symmetric;
  if (q.bias) {
    q.positions =
        static_cast<std::size_t>(emit::required_integer(a, "positions", 1, static_cast<long long>(max_entries), o.ctx));
    check_entries(static_cast<std::uint64_t>(q.config.heads) * pv::alibi_entries_per_head(q), o,
                  "--heads " + std::to_string(q.config.heads) + " x " + std::to_string(pv::alibi_entries_per_head(q)) +
                      " entries per head");
  }
  q.max_ulp = o.max_ulp;
  q.description = table_words(o) + "; " +
                  (q.bias ? "biases of " + std::to_string(q.positions) + " positions, " +
                                (q.symmetric ? "symmetric" : "causal (keys j <= i)")
                          : std::string("slopes")) +
                  "; heads " + std::to_string(q.config.heads) + ", max_bias " + format_hex(q.config.max_bias);
  const auto heads = static_cast<std::uint64_t>(q.config.heads);
  const std::uint64_t n = q.positions;
  const std::vector<std::uint64_t> shape = !q.bias       ? std::vector<std::uint64_t>{heads}
                                           : q.symmetric ? std::vector<std::uint64_t>{heads, n, n}
                                                         : std::vector<std::uint64_t>{heads, n * (n + 1) / 2};
  return verify_real(o, shape, q.bias ? "bias" : "slope",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_alibi(q, in); });
}

inline constexpr verify_scheme alibi_verify{"alibi", run_alibi, false, {}, /*fixed_point=*/true};
inline constexpr verify_scheme alibi_verifiers[] = {alibi_verify};

}  // namespace posenc::cli::verify_schemes
#endif
