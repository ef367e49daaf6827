// factor.hpp: log-n attention scaling, the factor log_base(n) that keeps attention entropy steady
// as the context grows (Su, kexue.fm 8823 "entropy-invariant attention": logits times
// log_512(n)/sqrt(d); Qwen-1's QWenAttention logn_list: q times log_L(i) for i > L, else 1, with L
// the training length config.seq_length), exact then rounded once into T.
//
//   constexpr posenc::logn::config su{};                                  // base 512 (config.hpp)
//   constexpr posenc::logn::config qwen{.base = 2048, .at_least_one = true};
//   logn::factor<T>(cfg, n)                        RN_T(log_base(n)) (or 1 when n <= base, Qwen)
//   logn::fill_factors<T>(cfg, first, span) / make_factors<T, N>(cfg, first)
//
// The generators take a logn::checked_config (validate.hpp), made from a config where it is
// passed: a broken precondition is a compile error naming it in constant evaluation, domain_error
// at run time. Per call: domain_error for n outside [1, 2^53).
//
// log_512(2048) = 11/9 and log_512(32768) = 5/3 exactly (both powers of 2): the published
// 1.222 and 1.667 (pe-formulas.md section 6) are these rounded.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "posenc/logn/config.hpp"
#include "posenc/logn/validate.hpp"
#include "posenc/math/log_ratio.hpp"
#include "posenc/math/round.hpp"
#include "posenc/status.hpp"

namespace posenc::logn {

// RN_T(log_base(n)), n >= 1; 1 for n <= base when at_least_one.
template <class T = double>
constexpr posenc::result<T> factor(const checked_config& cc, std::int64_t n) noexcept {
  if (!cc.ok()) return {T{}, cc.check().error};
  const config& c = cc.get();
  if (n < 1 || n >= (std::int64_t{1} << 53)) return {T{}, posenc::status::domain_error};
  if (c.at_least_one && n <= c.base) return {posenc::detail::round_dd<T>(1.0, 0.0), posenc::status::ok};
  return math::log_ratio<T>(n, c.base);
}

// The same from a plain config (a braced {.base = L} binds here).
template <class T = double>
constexpr posenc::result<T> factor(const config& c, std::int64_t n) noexcept {
  return factor<T>(checked_config{c}, n);
}

// out[i] = factor(first + i), the config validated once.
template <class T = double>
constexpr posenc::status fill_factors(const checked_config& cc, std::int64_t first, std::span<T> out) noexcept {
  if (!cc.ok()) return cc.check().error;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto f = factor<T>(cc, first + static_cast<std::int64_t>(i));
    if (!f.ok()) return f.error;
    out[i] = f.value;
  }
  return posenc::status::ok;
}

template <class T = double>
constexpr posenc::status fill_factors(const config& c, std::int64_t first, std::span<T> out) noexcept {
  return fill_factors<T>(checked_config{c}, first, out);
}

template <class T, std::size_t N>
constexpr posenc::result<std::array<T, N>> make_factors(const checked_config& cc, std::int64_t first = 1) noexcept {
  posenc::result<std::array<T, N>> r{};
  r.error = fill_factors<T>(cc, first, std::span<T>(r.value));
  return r;
}

template <class T, std::size_t N>
constexpr posenc::result<std::array<T, N>> make_factors(const config& c, std::int64_t first = 1) noexcept {
  return make_factors<T, N>(checked_config{c}, first);
}

}  // namespace posenc::logn
