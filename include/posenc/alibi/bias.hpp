// bias.hpp: ALiBi's attention biases, -m_h (i - j) for a causal decoder (key j <= query i) and
// -m_h |i - j| for an encoder (the symmetric form: Press, ofirpress/attention_with_linear_biases
// issue #5; MPT's build_alibi_bias(full=True)), exact then rounded once into T.
//
//   alibi::bias<T>(cfg, h, query, key, alibi::mask::causal)      RN_T(-m_h (query - key)), key <= query
//   alibi::bias<T>(cfg, h, query, key, alibi::mask::symmetric)   RN_T(-m_h |query - key|)
//   alibi::fill_bias_by_distance<T>(cfg, h, span)                 out[k] = RN_T(-m_h k), k < size:
//                                       the table an ALiBi kernel indexes by |query - key|
//   alibi::make_bias_by_distance<T, Heads, Distances>(cfg)        every head's, one array
//   alibi::make_symmetric_bias_table<T, Heads, Queries, Keys>(cfg) the dense encoder table
//   alibi::fill_symmetric_bias_table<T>(cfg, queries, keys, span)   the same into a caller's span
//
// The product of the integer distance k and the exact slope m_h = 2^-e is evaluated as k times
// math::geometric_frequency's double-double (TwoProduct, so within 2^-100 + 2^-104 relative), decided
// by Ziv's rounding test, else at 256 to 1024 bits; it is exact when m_h is a power of two.
// Errors: domain_error for a head outside [0, heads), a causal key after its query (a masked
// entry: there is no finite bias to give) or a distance of 2^53 or more; overflow when the bias
// does not fit T (float16 holds at most 65504 and rounds 65520 up: with m_0 = 1/2 from distance 131040).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/alibi/slopes.hpp"
#include "posenc/alibi/validate.hpp"
#include "posenc/math/detail/mp/geometric.hpp"
#include "posenc/math/detail/mp/ziv.hpp"
#include "posenc/math/detail/round_once.hpp"
#include "posenc/math/double_double.hpp"
#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/round.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/status.hpp"

namespace posenc::alibi {

enum class mask : unsigned char {
  causal,     // decoder: keys at or before the query
  symmetric,  // encoder: every key, bias by |query - key|
};

}  // namespace posenc::alibi

namespace posenc::alibi::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// The relative error of p = dd_mul(m, k) (m = geometric_frequency's slope, k a distance) against
// the exact m_h k, as a multiple of |p.hi|: m's geometric_frequency_max_rel_error = 2^-100, and
// dd_mul(dd, double)'s two roundings, below 3u^2 < 2^-104.4 of |p|; together (with |m k| / |p.hi|
// <= 1 + 2^-52) below 2^-100 + 2^-104. proofs/gappa/alibi_bias.g proves 2^-99.934 from those
// parts: the 0x1.01p-100 (2^-100 + 2^-108) this once was did not cover them, by 0.06 bit.
inline constexpr double slope_product_rel_error = 0x1p-100 + 0x1p-104;

// k m as a bigfloat with its absolute error: m within 2^a.err, times k < 2^g scales it by < 2^g,
// and the truncation of the product adds < 1 ulp.
template <int L>
constexpr mp::approx<L> scaled_slope(std::uint64_t k, std::uint64_t num, std::uint32_t den) noexcept {
  const mp::approx<L> m = mp::geometric_approx<L>(2.0, num, den);
  const mp::bigfloat<L> v = mp::mul_small(m.v, k);
  const int g = 64 - std::countl_zero(k);
  return {mp::negate(v), mp::max_int(m.err + g, v.top() + 1 - 64 * L) + 1};
}

}  // namespace posenc::alibi::detail

namespace posenc::alibi {

// RN_T(-m_h k) for a distance k >= 0.
template <class T = double>
constexpr posenc::result<T> bias_at_distance(const checked_config& cc, int h, std::uint64_t k) noexcept {
  const auto e = slope_exponent_of(cc, h);
  if (!e.ok() || k >= (std::uint64_t{1} << 53)) return {T{}, posenc::status::domain_error};
  const std::int64_t num = e.value.num, den = e.value.den;
  const double kd = static_cast<double>(k);  // exact below 2^53
  T out{};
  if (k == 0) {
    out = posenc::detail::round_dd<T>(0.0, 0.0);  // the real 0 has no sign: +0, as everywhere in posenc
  } else if (num % den == 0) {                    // m = 2^-q exactly: k 2^-q is a double (k < 2^53, q <= 960)
    out = posenc::detail::round_dd<T>(-kd * posenc::detail::exp2i(-static_cast<int>(num / den)), 0.0);
  } else {
    const math::double_double m = math::geometric_frequency(2.0, num, den);
    const math::double_double p = posenc::detail::dd_mul(m, kd);
    const double err = (p.hi < 0 ? -p.hi : p.hi) * alibi::detail::slope_product_rel_error;
    const auto n = static_cast<std::uint64_t>(num);
    const auto d = static_cast<std::uint32_t>(den);
    out = posenc::detail::round_once<T>(
        {-p.hi, -p.lo, err}, [k, n, d](auto lv) { return alibi::detail::scaled_slope<decltype(lv)::value>(k, n, d); });
  }
  return posenc::detail::rounded_result(out);
}

}  // namespace posenc::alibi

namespace posenc::alibi::detail {

using namespace posenc::detail;  // the shared internals (math, numeric) beside the scheme's own

// One head's slope, formed once: m_h as a double-double (exact when it is a power of two).
struct head_slope {
  std::int64_t num = 0, den = 1;
  math::double_double m{};
};

constexpr head_slope slope_of(std::int64_t num, std::int64_t den) noexcept {
  return {num, den,
          num % den == 0 ? math::double_double{exp2i(-static_cast<int>(num / den)), 0.0}
                         : math::geometric_frequency(2.0, num, den)};
}

// RN_T(-m_h k) from the formed slope: one TwoProduct and a rounding test, else bias_at_distance's
// accurate path (the same bits).
template <class T>
constexpr posenc::result<T> entry(const alibi::checked_config& cc, int h, const head_slope& s,
                                  std::uint64_t k) noexcept {
  const double kd = static_cast<double>(k);
  T v{};
  bool done = false;
  if (k == 0) {
    v = round_dd<T>(0.0, 0.0), done = true;
  } else if (s.num % s.den == 0) {
    v = round_dd<T>(-kd * s.m.hi, 0.0), done = true;
  } else {
    const math::double_double p = dd_mul(s.m, kd);
    done = ziv_round<T>(-p.hi, -p.lo, (p.hi < 0 ? -p.hi : p.hi) * slope_product_rel_error, v);
  }
  if (!done) return alibi::bias_at_distance<T>(cc, h, k);
  return rounded_result(v);
}

}  // namespace posenc::alibi::detail

namespace posenc::alibi {

// out[k] = RN_T(-m_h k) for k < out.size(): the slope's double-double is formed once, so each
// entry costs one TwoProduct and a rounding test (bias_at_distance's path, the same bits).
template <class T = double>
constexpr posenc::status fill_bias_by_distance(const checked_config& cc, int h, std::span<T> out) noexcept {
  const auto e = slope_exponent_of(cc, h);
  if (!e.ok() || static_cast<std::uint64_t>(out.size()) >= (std::uint64_t{1} << 53))
    return posenc::status::domain_error;
  const alibi::detail::head_slope s = alibi::detail::slope_of(e.value.num, e.value.den);
  posenc::status st = posenc::status::ok;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const posenc::result<T> r = alibi::detail::entry<T>(cc, h, s, k);
    if (st == posenc::status::ok) st = r.error;
    out[k] = r.value;
  }
  return st;
}

// Row h of the result holds head h's biases by distance, 0 .. Distances - 1.
template <class T, std::size_t Heads, std::size_t Distances>
constexpr posenc::result<std::array<T, Heads * Distances>> make_bias_by_distance(const checked_config& cc) noexcept {
  posenc::result<std::array<T, Heads * Distances>> r{};
  if (!cc.ok() || static_cast<std::size_t>(cc.get().heads) != Heads) {
    r.error = posenc::status::domain_error;
    return r;
  }
  for (std::size_t h = 0; h < Heads && r.error == posenc::status::ok; ++h)
    r.error =
        fill_bias_by_distance<T>(cc, static_cast<int>(h), std::span<T>(r.value.data() + h * Distances, Distances));
  return r;
}

// The dense symmetric table (encoders): element (h, i, j) at (h queries + i) keys + j holds
// RN_T(-m_h |(first_query + i) - (first_key + j)|), i < queries, j < keys, every head;
// out.size() == heads * queries * keys. Row 0 and column 0 of each head's block are computed
// (queries + keys - 1 entries, the slope formed once); every other entry is the one up and to the
// left (the bias depends on i - j alone), so rows 1.. are one contiguous copy each. A causal table
// has no finite value for its masked entries, so it is not offered dense: use the distance table,
// as the kernels do. domain_error for a size mismatch or a position above 2^52.
template <class T = double>
constexpr posenc::status fill_symmetric_bias_table(const checked_config& cc, std::size_t queries, std::size_t keys,
                                                   std::span<T> out, std::uint64_t first_query = 0,
                                                   std::uint64_t first_key = 0) noexcept {
  constexpr std::uint64_t limit = std::uint64_t{1} << 52;
  if (!cc.ok() || queries > limit || keys > limit || first_query > limit - queries || first_key > limit - keys ||
      (queries != 0 && keys > out.size() / queries) ||
      out.size() != static_cast<std::size_t>(cc.get().heads) * queries * keys)
    return posenc::status::domain_error;
  if (out.empty()) return posenc::status::ok;
  posenc::status st = posenc::status::ok;
  auto distance = [](std::uint64_t q, std::uint64_t k) { return q >= k ? q - k : k - q; };
  for (int h = 0; h < cc.get().heads; ++h) {
    const auto e = slope_exponent_of(cc, h);
    const alibi::detail::head_slope s = alibi::detail::slope_of(e.value.num, e.value.den);
    T* block = out.data() + static_cast<std::size_t>(h) * queries * keys;
    for (std::size_t j = 0; j < keys; ++j) {  // row 0
      const posenc::result<T> r = alibi::detail::entry<T>(cc, h, s, distance(first_query, first_key + j));
      if (st == posenc::status::ok) st = r.error;
      block[j] = r.value;
    }
    for (std::size_t i = 1; i < queries; ++i) {
      T* row = block + i * keys;
      const posenc::result<T> r = alibi::detail::entry<T>(cc, h, s, distance(first_query + i, first_key));
      if (st == posenc::status::ok) st = r.error;
      row[0] = r.value;
      std::copy(row - keys, row - 1, row + 1);  // (i, j) = (i - 1, j - 1)
    }
  }
  return st;
}

template <class T, std::size_t Heads, std::size_t Queries, std::size_t Keys>
constexpr posenc::result<std::array<T, Heads * Queries * Keys>> make_symmetric_bias_table(
    const checked_config& cc, std::uint64_t first_query = 0, std::uint64_t first_key = 0) noexcept {
  posenc::result<std::array<T, Heads * Queries * Keys>> r{};
  if (!cc.ok() || static_cast<std::size_t>(cc.get().heads) != Heads) {
    r.error = posenc::status::domain_error;
    return r;
  }
  r.error = fill_symmetric_bias_table<T>(cc, Queries, Keys, std::span<T>(r.value), first_query, first_key);
  return r;
}

// The bias of head h for a query at position `query` attending to a key at position `key`.
template <class T = double>
constexpr posenc::result<T> bias(const checked_config& cc, int h, std::uint64_t query, std::uint64_t key,
                                 mask kind = mask::causal) noexcept {
  if (kind == mask::causal && key > query) return {T{}, posenc::status::domain_error};
  return bias_at_distance<T>(cc, h, query >= key ? query - key : key - query);
}

}  // namespace posenc::alibi
