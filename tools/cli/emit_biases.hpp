// emit_biases.hpp: `posenc emit alibi`, `kerple-log`, `kerple-power`, `sandwich` and `logn`: slopes,
// attention biases and log-n factors from alibi::fill_slopes / fill_bias_by_distance,
// kerple::log_bias / power_bias, sandwich::bias and logn::fill_factors (emit_schemes.hpp).
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
#include <vector>

#include <posenc/alibi.hpp>
#include <posenc/kerple.hpp>
#include <posenc/logn.hpp>
#include <posenc/sandwich.hpp>
#include <posenc/status.hpp>

#include "args.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "scheme_configs.hpp"

namespace posenc::cli::emit {

// ---- ALiBi -----------------------------------------------------------------------------------

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
  check_status(alibi::fill_slopes<T>(cc, std::span<T>(t.values)), "ALiBi slopes");
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
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t = bias ? alibi_biases<T>(cc, n, symmetric, o.ctx) : alibi_slopes<T>(cc);
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

// ---- KERPLE and Sandwich (by distance) ---------------------------------------------------------

inline std::string emit_kerple(const parsed_args& a, const table_options& o, bool log) {
  const kerple_heads heads = read_kerple_config(a, o.ctx);
  const std::vector<double>&p = heads.p, &av = heads.a;
  const auto n =
      static_cast<std::size_t>(required_integer(a, "distances", 1, static_cast<long long>(max_table_rows), o.ctx));
  table_rows(p.size(), n, o.ctx, std::to_string(p.size()) + " heads x --distances " + std::to_string(n));
  const char* domain =
      log ? "p and a finite and > 0, a >= 2^-60, a k < 2^84" : "a finite and > 0, p in (0, 2], distance k < 2^26";
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t = distance_table<T>(log ? "kerple-log" : "kerple-power", p.size(), n);
    for (std::size_t h = 0; h < p.size(); ++h)
      for (std::size_t k = 0; k < n; ++k) {
        const posenc::result<T> r = log ? kerple::log_bias<T>(p[h], av[h], k) : kerple::power_bias<T>(av[h], p[h], k);
        const std::string at = " at head " + std::to_string(h) + ", distance " + std::to_string(k);
        if (r.error == posenc::status::overflow)
          throw usage_error(o.ctx + ": the bias overflows " + std::string(dtype_name<T>()) + at);
        if (r.error == posenc::status::domain_error)
          throw usage_error(o.ctx + ": p = " + real_text(p[h]) + ", a = " + real_text(av[h]) + at +
                            " are outside KERPLE-" + (log ? "log" : "power") + "'s domain (" + domain + ")");
        check_status(r.error, "KERPLE bias");
        t.values[h * n + k] = r.value;
      }
    t.index_notes = {log ? "[h][k]: head h, distance k = |query - key|: -p_h log(1 + a_h k)"
                         : "[h][k]: head h, distance k = |query - key|: -a_h k^p_h"};
    t.params = {{"p (per head)", list_text(p)},
                {"a (per head)", list_text(av)},
                {"distances", std::to_string(n)},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

// Sandwich's work limit: rows x dim/2 cosine terms per run (2^28: about two minutes here).
inline constexpr std::uint64_t max_sandwich_terms = std::uint64_t{1} << 28;

inline std::string emit_sandwich(const parsed_args& a, const table_options& o) {
  const sandwich::config c = read_sandwich_config(a, o.ctx);
  const auto n =
      static_cast<std::size_t>(required_integer(a, "distances", 1, static_cast<long long>(max_table_rows), o.ctx));
  const auto heads = static_cast<std::size_t>(c.heads);
  const std::size_t rows =
      table_rows(heads, n, o.ctx, "--heads " + std::to_string(heads) + " x --distances " + std::to_string(n));
  // Each bias sums dim/2 cosines (about 0.5 us each here): cap the work, not only the rows.
  const auto terms = static_cast<std::uint64_t>(rows) * static_cast<std::uint64_t>(c.dim / 2);
  if (terms > max_sandwich_terms)
    throw usage_error(o.ctx + ": table too costly: --heads x --distances x dim/2 = " + std::to_string(terms) +
                      " cosine terms (at most 2^28 = 268435456 per run)");
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t = distance_table<T>("sandwich", heads, n);
    for (std::size_t h = 0; h < heads; ++h)
      for (std::size_t k = 0; k < n; ++k) {
        const posenc::result<T> r = sandwich::bias<T>(c, static_cast<int>(h), static_cast<std::int64_t>(k));
        check_status(r.error, "Sandwich bias");
        t.values[h * n + k] = r.value;
      }
    t.index_notes = {"[h][k]: head h, distance k: (sum_{i=1..d/2} cos(k 10000^(-2i/d)) - d/2) / (8 (h + 1) / H)"};
    t.params = {{"dim", std::to_string(c.dim)},
                {"heads", std::to_string(c.heads)},
                {"distances", std::to_string(n)},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

// ---- log-n scaling -------------------------------------------------------------------------

inline std::string emit_logn(const parsed_args& a, const table_options& o) {
  const logn::config c = read_logn_config(a, o.ctx);
  const position_span ps = read_positions(a, o.ctx, static_cast<long long>(max_table_rows), 1, 1);
  const long long first = ps.start, n = ps.count;
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    table<T> t;
    t.scheme = "logn";
    t.keys = {"n"};
    t.value = "factor";
    t.values.resize(static_cast<std::size_t>(n));
    check_status(logn::fill_factors<T>(c, first, std::span<T>(t.values)), "log-n factors");
    t.key_of = [first](std::size_t r, std::int64_t* k) { k[0] = first + static_cast<std::int64_t>(r); };
    t.shape = {static_cast<std::size_t>(n)};
    t.index_notes = {c.at_least_one ? "[i]: n = start + i: log_base(n) for n > base, else 1 (Qwen's logn)"
                                    : "[i]: n = start + i: log_base(n) (Su's log-n scaling)"};
    t.params = {{"base", std::to_string(c.base)},
                {"at_least_one", c.at_least_one ? "true" : "false"},
                {"start", std::to_string(first)},
                {"positions", std::to_string(n)},
                {"dtype", std::string(dtype_name<T>())}};
    return write_table(t, o);
  });
}

}  // namespace posenc::cli::emit
