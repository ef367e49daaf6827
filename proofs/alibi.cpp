// alibi.cpp: ALiBi's laws, proved by compiling (static_assert walls); docs/alibi.md derives them.
//  1. slopes are geometric within each group: the exponents e_h (m_h = 2^-e_h) of the first c
//     heads step by max_bias / c, and those of the heads past c by max_bias / c too, starting at
//     max_bias / (2c) (so the extra heads sit halfway between the first group's, in the exponent);
//  2. the slope is a power of two exactly where the formula says so (e_h an integer), and then the
//     rounded slope in every type is that power of two;
//  3. slopes decrease strictly within each group, and lie in (0, 1);
//  4. the bias depends on the distance alone (query - key), is 0 on the diagonal, and decreases
//     strictly with the distance; the symmetric bias is even in query - key.
// Laws 1-3 over head counts 1..20 (to 28 for max_bias 8) for max_bias in {8, 1, 0.5, 16}, in
// double and bfloat16; law 4 on two configs. (Clang's default constexpr step limit sets the size.)
#include <cstdint>

#include <posenc/alibi.hpp>
#include <posenc/numeric/bfloat16.hpp>

namespace {

namespace al = posenc::alibi;

struct fraction {
  std::int64_t num, den;
};
constexpr bool equal(fraction a, fraction b) { return a.num * b.den == b.num * a.den; }
constexpr fraction minus(fraction a, fraction b) { return {a.num * b.den - b.num * a.den, a.den * b.den}; }
constexpr fraction exponent(const al::config& c, int h) {
  const auto e = al::slope_exponent_of(c, h).value;
  return {e.num, e.den};
}

// Law 1. The step is e_0 = max_bias / c (the first head's exponent); the extra group starts at
// e_0 / 2 = max_bias / (2c).
constexpr bool geometric_in_groups(const al::config& c) {
  const int group = al::power_group(c.heads);
  const fraction step = exponent(c, 0);
  if (!equal(step, {static_cast<std::int64_t>(c.max_bias * 65536), 65536 * std::int64_t{group}})) return false;
  for (int h = 1; h < group; ++h)
    if (!equal(minus(exponent(c, h), exponent(c, h - 1)), step)) return false;
  if (c.heads > group && !equal(exponent(c, group), {step.num, 2 * step.den})) return false;
  for (int h = group + 1; h < c.heads; ++h)
    if (!equal(minus(exponent(c, h), exponent(c, h - 1)), step)) return false;
  return true;
}

// Laws 2 and 3.
template <class T>
constexpr double value(T x) {
  if constexpr (requires { x.bits; })
    return static_cast<double>(x.to_float());
  else
    return static_cast<double>(x);
}
template <class T>
constexpr bool exact_powers_and_decreasing(const al::config& c) {
  const int group = al::power_group(c.heads);
  double previous = 0, previous_exact = 0;
  for (int h = 0; h < c.heads; ++h) {
    const fraction e = exponent(c, h);
    const double m = value(al::slope<T>(c, h).value);
    const double exact = al::slope<double>(c, h).value;  // RN_double: strict order survives it here
    if (!(m > 0 && m < 1)) return false;
    if (e.num % e.den == 0) {
      double p = 1;
      for (std::int64_t i = 0; i < e.num / e.den; ++i) p /= 2;
      if (m != p) return false;
    }
    const bool group_start = h == 0 || h == group;
    if (!group_start && !(m <= previous && exact < previous_exact)) return false;
    previous = m;
    previous_exact = exact;
  }
  return true;
}

// Law 4, over a 6 x 6 window of queries and keys and distances to 16.
constexpr bool bias_laws(const al::config& c) {
  for (int h = 0; h < c.heads; h += 5) {
    for (std::uint64_t q = 100; q < 106; ++q)
      for (std::uint64_t k = 100; k < 106; ++k) {
        const auto s = al::bias(c, h, q, k, al::mask::symmetric).value;
        if (s != al::bias(c, h, k, q, al::mask::symmetric).value) return false;
        if (s != al::bias_at_distance(c, h, q >= k ? q - k : k - q).value) return false;
        if (k <= q && al::bias(c, h, q, k).value != al::bias(c, h, q - k + 7, 7).value) return false;
      }
    if (al::bias(c, h, 5, 5).value != 0.0) return false;
    for (std::uint64_t d = 1; d < 16; ++d)
      if (!(al::bias_at_distance(c, h, d).value < al::bias_at_distance(c, h, d - 1).value)) return false;
  }
  return true;
}

template <class T>
constexpr bool slope_laws(int first_heads, int last_heads, double max_bias) {
  for (int heads = first_heads; heads <= last_heads; ++heads) {
    const al::config c{.heads = heads, .max_bias = max_bias};
    if (!geometric_in_groups(c) || !exact_powers_and_decreasing<T>(c)) return false;
  }
  return true;
}

static_assert(slope_laws<double>(1, 20, 8.0) && slope_laws<double>(21, 28, 8.0), "ALiBi slope laws, max_bias 8");
static_assert(slope_laws<posenc::bfloat16>(1, 20, 8.0), "ALiBi slope laws in bfloat16, max_bias 8");
static_assert(slope_laws<double>(1, 20, 1.0), "ALiBi slope laws, max_bias 1");
static_assert(slope_laws<double>(1, 20, 0.5), "ALiBi slope laws, max_bias 0.5");
static_assert(slope_laws<double>(1, 20, 16.0), "ALiBi slope laws, max_bias 16");
static_assert(bias_laws({.heads = 12}), "ALiBi bias laws, 12 heads");
static_assert(bias_laws({.heads = 5, .max_bias = 16.0}), "ALiBi bias laws, 5 heads, max_bias 16");

// Each law is able to fail: the same predicates catch the steps they must not accept.
constexpr al::config twelve{.heads = 12};
static_assert(!equal(minus(exponent(twelve, 8), exponent(twelve, 7)), exponent(twelve, 0)),
              "the step between the groups is not the in-group step (law 1 checks the groups apart)");
static_assert(al::slope<double>(twelve, 8).value > al::slope<double>(twelve, 7).value,
              "slopes do not decrease across the group boundary (law 3 is per group)");

}  // namespace
