// rope_remap_verify.hpp: verify a Leaky ReRoPE decode table (rope/leaky_rerope.hpp), posenc's own or
// someone else's, against MPFR (`posenc verify leaky-rerope`; scheme_verify.hpp explains reports).
//
// The table is laid out as `posenc emit leaky-rerope --format bin` writes it: every row's cos of
// pair j at [rel][pair], then every sin the same way (2 x rows x rotary_dim / 2 entries). Row rel
// holds cos/sin of rel' theta_j, rel' = rel below the window w and w + (rel - w) / k from it, each
// exact value from rope_remap_oracle.hpp, which forms rel' from that definition in MPFR (not from
// posenc's integer row of the k-scaled table). No law of the registry reads these tables (the
// score laws of laws/rope/remapped_scores.hpp compare the prefill and decode forms of a score;
// tests/test_rope_remap.cpp runs them). A request that cannot be carried out throws
// std::invalid_argument with one line naming it. Not constexpr; links MPFR.
#pragma once

#include <mpfr.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/leaky_rerope.hpp"
#include "posenc/verify/rope_remap_oracle.hpp"
#include "posenc/verify/scheme_verify_core.hpp"

namespace posenc::verify {

struct leaky_rerope_verify_request {
  rope::config plain{};               // the model's RoPE (default or linear)
  rope::leaky_rerope_config leaky{};  // w and k
  std::size_t rows = 0;               // rel = 0 .. rows - 1
  std::uint64_t max_ulp = 0;
  std::string description{};
  run_options run{};
};

namespace detail::remap {

// sin and cos at 320 bits in the shape exact_of reads: output 0 is cos, 1 is sin.
struct leaky_value {
  leaky_rerope_oracle::M cos{leaky_rerope_oracle::prec}, sin{leaky_rerope_oracle::prec};
  mpfr_srcptr approx(std::size_t k) const { return k == 0 ? cos.get() : sin.get(); }
  template <class T>
  T round(std::size_t k) const {
    return posenc::verify::detail::round_into<T>(approx(k));
  }
};

}  // namespace detail::remap

inline verify_report verify_leaky_rerope(const leaky_rerope_verify_request& q, std::span<const values_input> tables) {
  namespace sv = detail::sv;
  const auto t0 = std::chrono::steady_clock::now();
  sv::check_tables(tables);
  if (const posenc::validation v = rope::validate(q.plain); !v.ok())
    throw std::invalid_argument(std::string("invalid RoPE config: ") + v.message);
  const rope::checked_leaky_rerope_config leaky{q.leaky};
  if (!leaky.ok()) throw std::invalid_argument(std::string("invalid Leaky ReRoPE config: ") + leaky.check().message);
  if (!rope::leaky_rerope_scaled_config(q.plain, leaky).ok())
    throw std::invalid_argument("Leaky ReRoPE needs a default or linear RoPE config");
  if (q.rows == 0) throw std::invalid_argument("the table has no rows");
  if (q.rows - 1 > rope::max_table_position) throw std::invalid_argument("rows past 2^21");
  const std::size_t pairs = static_cast<std::size_t>(rope::rotary_dim(q.plain)) / 2, half = q.rows * pairs;
  const std::uint64_t entries = 2 * half;
  verify_report rep = sv::indexed_report("leaky-rerope", q.description, {"part", "rel", "pair"}, {2, q.rows, pairs},
                                         entries, q.max_ulp);
  const leaky_rerope_oracle oracle(q.plain, q.leaky.window, q.leaky.scaling_factor);
  const auto exact = [&](std::uint64_t first, std::size_t count, const bool(&wanted)[dtype_count],
                         std::vector<sv::exact_entry>& out) {
    detail::remap::leaky_value v;
    for (std::uint64_t i = first; i < first + count; ++i) {
      const std::size_t part = static_cast<std::size_t>(i / half), r = static_cast<std::size_t>(i % half);
      oracle.eval(r / pairs, static_cast<int>(r % pairs), v.sin, v.cos);
      if (r / pairs == 0) mpfr_set_zero(v.sin.get(), 1);  // rel' = 0: sin +0, as the tables hold it
      out.push_back(sv::exact_of(v, wanted, false, part));
    }
  };
  const auto locate = [&](std::uint64_t i) {
    const std::size_t r = static_cast<std::size_t>(i % half);
    return std::string(i < half ? "cos" : "sin") + " of rel " + std::to_string(r / pairs) + ", pair " +
           std::to_string(r % pairs);
  };
  const auto own = [&]<class T>(std::type_identity<T>) {
    std::vector<math::sincos_result<T>> rows(half);
    sv::check_own(rope::fill_leaky_rerope_pair_table<T>(q.plain, leaky, rows), dtype_of<T>(), "Leaky ReRoPE table");
    return sv::cos_then_sin<T>(rows);
  };
  sv::verify_real_tables(rep, tables, q.run, "a Leaky ReRoPE table of " + std::to_string(entries) + " entries", exact,
                         locate, own, sv::no_laws{});
  rep.seconds = sv::seconds_since(t0);
  return rep;
}

}  // namespace posenc::verify
