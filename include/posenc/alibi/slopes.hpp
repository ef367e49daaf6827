// slopes.hpp: ALiBi's per-head slopes, exact then rounded once into double, float, bfloat16 or
// float16, at compile time and at run time alike.
//
//   alibi::slope_exponent_of(cfg, h)    the exact rational e with m_h = 2^-e
//   alibi::slope<T>(cfg, h)             RN_T(m_h)
//   alibi::make_slopes<T, Heads>(cfg)   std::array of every head's slope (Heads == cfg.heads)
//   alibi::fill_slopes<T>(cfg, span)    the same into a caller's span
//
// With c = 2^floor(log2 heads): m_h = 2^(-max_bias (h + 1) / c) for h < c, and
// m_h = 2^(-max_bias (2 (h - c) + 1) / (2c)) for h >= c (config.hpp has the sources). The
// exponent is an exact rational (max_bias is a multiple of 2^-16, validate.hpp), so m_h is a power
// of two exactly when the denominator divides the numerator (every head of a power-of-two head count
// with max_bias 8 and c <= 8, e.g. 2^-1 .. 2^-8 for 8 heads) and is irrational otherwise; either way
// it is the exact real rounded once (math::geometric_value). Errors: domain_error for a head outside
// [0, heads) (at run time; an invalid config stops constant evaluation, validate.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>

#include "posenc/alibi/config.hpp"
#include "posenc/alibi/validate.hpp"
#include "posenc/math/geometric_frequency.hpp"
#include "posenc/status.hpp"

namespace posenc::alibi {

// m_h = 2^(-num / den), the fraction in lowest terms.
struct slope_exponent {
  std::int64_t num = 0;
  std::int64_t den = 1;
};

// c = 2^floor(log2 heads): the heads of the first, geometric group.
constexpr int power_group(int heads) noexcept {
  int c = 1;
  while (2 * c <= heads) c *= 2;
  return c;
}

constexpr posenc::result<slope_exponent> slope_exponent_of(const checked_config& cc, int h) noexcept {
  const config& c = cc.get();
  if (!cc.ok() || h < 0 || h >= c.heads) return {{}, posenc::status::domain_error};
  const std::int64_t units = alibi::detail::max_bias_units(c.max_bias);  // max_bias = units / 2^16
  const std::int64_t group = power_group(c.heads);
  std::int64_t num = 0, den = 0;
  if (h < group) {
    num = units * (h + 1);
    den = std::int64_t{65536} * group;
  } else {
    num = units * (2 * (h - group) + 1);
    den = std::int64_t{131072} * group;
  }
  const std::int64_t g = std::gcd(num, den);
  return {{num / g, den / g}, posenc::status::ok};
}

// RN_T(m_h) of the exact slope.
template <class T = double>
constexpr posenc::result<T> slope(const checked_config& cc, int h) noexcept {
  const auto e = slope_exponent_of(cc, h);
  if (!e.ok()) return {T{}, e.error};
  return math::geometric_value<T>(2.0, e.value.num, e.value.den);
}

// Every head's slope into out (out.size() == heads); the first failing status, else ok.
template <class T = double>
constexpr posenc::status fill_slopes(const checked_config& cc, std::span<T> out) noexcept {
  if (!cc.ok() || out.size() != static_cast<std::size_t>(cc.get().heads)) return posenc::status::domain_error;
  for (std::size_t h = 0; h < out.size(); ++h) {
    const posenc::result<T> s = slope<T>(cc, static_cast<int>(h));
    if (!s.ok()) return s.error;
    out[h] = s.value;
  }
  return posenc::status::ok;
}

template <class T, std::size_t Heads>
constexpr posenc::result<std::array<T, Heads>> make_slopes(const checked_config& cc) noexcept {
  posenc::result<std::array<T, Heads>> r{};
  r.error = fill_slopes<T>(cc, std::span<T>(r.value));
  return r;
}

}  // namespace posenc::alibi
