// Oracle tests of the RoPE entry points against MPFR: sincos_geometric<T>(m, base, 2 * j, d).value must be
// RN_T(cos / sin(m * base^(-2j/d))) of the exact reals, sincos_product<T>(m, theta) RN_T of
// cos / sin of the exact m * (theta.hi + theta.lo), and rope_theta within its stated relative
// error. The oracle (posenc/verify/rope_oracle.hpp, rope_frequency) evaluates the frequency as
// exp(-2j * log(base) / d) at 352 bits with a proven error bound, never rounding 2j/d to a double.
#include <catch2/catch.hpp>

#include "sample_count.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/sincos_table.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/oracle.hpp"
#include "posenc/verify/random.hpp"
#include "posenc/verify/rope_oracle.hpp"
#include "posenc/verify/stats.hpp"

namespace {

namespace v = posenc::verify;
namespace pm = posenc::math;

constexpr std::array<double, 3> bases = {1e4, 5e5, 1e6};
constexpr int head_dim = 128;

using v::print_seed;

// sin and cos statistics of one output type.
template <class T>
struct pair_stats {
  v::error_stats s, c;
  explicit pair_stats(const std::string& what) : s(what + ".sin"), c(what + ".cos") {}

  // o: the oracle value (index 0 cos, 1 sin); r: the library's result.
  template <class Value>
  void add(Value& o, const pm::sincos_result<T>& r, std::initializer_list<double> args) {
    s.add(r.sin, o.template round<T>(1), o.approx(1), args);
    c.add(r.cos, o.template round<T>(0), o.approx(0), args);
  }
  void report() const {
    s.print();
    c.print();
    for (const v::error_stats* st : {&s, &c}) {
      CHECK(st->count() > 0);
      CHECK(st->mismatches() == 0);
      REQUIRE(st->max_ulp() == 0);
    }
  }
};

template <class T>
pm::sincos_result<T> rope(std::uint64_t m, double base, int j, int d) {
  return v::unwrap(pm::sincos_geometric<T>(m, base, 2 * j, d));
}

// A random normalised double-double theta in [2^lo, 2^hi): hi random, lo within ulp(hi)/2.
pm::double_double random_theta(v::rng& g, int lo, int hi) {
  const double h = std::fabs(g.log_uniform<double>(lo, hi));
  const double l = g.uniform(-0.5, 0.5) * std::ldexp(1.0, std::ilogb(h) - 52);
  return {h + l, (h - (h + l)) + l};  // Fast2Sum: exact renormalisation
}

}  // namespace

TEST_CASE("oracle: rope_sincos<float/double> on every (m, j), m < 8192, j < 64, d = 128", "[oracle][rope]") {
  pair_stats<float> f("rope_sincos<float> grid m<8192 j<64 d=128, bases 1e4 5e5 1e6");
  pair_stats<double> d("rope_sincos<double> grid m<8192 j<64 d=128, bases 1e4 5e5 1e6");
  pair_stats<posenc::bfloat16> b("rope_sincos<bfloat16> grid, m % 8 == 0");
  pair_stats<posenc::float16> h("rope_sincos<float16> grid, m % 8 == 0");
  for (double base : bases) {
    for (int j = 0; j < head_dim / 2; ++j) {
      const v::rope_frequency freq(base, j, head_dim);
      for (std::uint64_t m = 0; m < 8192; m += static_cast<std::uint64_t>(posenc_test::sample_divisor)) {
        auto o = v::rope_value(freq, m);
        const std::initializer_list<double> args = {static_cast<double>(m), base, static_cast<double>(j)};
        f.add(o, rope<float>(m, base, j, head_dim), args);
        d.add(o, rope<double>(m, base, j, head_dim), args);
        if (m % 8 == 0) {
          b.add(o, rope<posenc::bfloat16>(m, base, j, head_dim), args);
          h.add(o, rope<posenc::float16>(m, base, j, head_dim), args);
        }
      }
    }
  }
  f.report();
  d.report();
  b.report();
  h.report();
}

TEST_CASE("oracle: rope_sincos on random positions up to 2^21 and random bases", "[oracle][rope]") {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for("rope random"));
  print_seed("rope random", seed);
  v::rng g(seed);
  pair_stats<float> f("rope_sincos<float> random m<2^21");
  pair_stats<double> d("rope_sincos<double> random m<2^21");
  pair_stats<posenc::bfloat16> b("rope_sincos<bfloat16> random m<2^21");
  pair_stats<posenc::float16> h("rope_sincos<float16> random m<2^21");
  constexpr std::array<int, 4> dims = {64, 96, 128, 256};
  for (int i = 0; i < posenc_test::samples(100000); ++i) {
    const std::uint64_t m = g.below(std::uint64_t{1} << 21);
    const int dim = dims[g.below(dims.size())];
    const int j = static_cast<int>(g.below(static_cast<std::uint64_t>(dim / 2)));
    // Half the draws use the usual bases, half a random base in (1, 1e7].
    const double base = (i & 1) != 0 ? bases[g.below(bases.size())] : 1.0 + g.uniform(0.0, 1e7);
    const v::rope_frequency freq(base, j, dim);
    auto o = v::rope_value(freq, m);
    const std::initializer_list<double> args = {static_cast<double>(m), base, static_cast<double>(j),
                                                static_cast<double>(dim)};
    f.add(o, rope<float>(m, base, j, dim), args);
    d.add(o, rope<double>(m, base, j, dim), args);
    b.add(o, rope<posenc::bfloat16>(m, base, j, dim), args);
    h.add(o, rope<posenc::float16>(m, base, j, dim), args);
  }
  f.report();
  d.report();
  b.report();
  h.report();
}

TEST_CASE("oracle: sincos_product on random double-double thetas", "[oracle][rope]") {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for("sincos_product random"));
  print_seed("sincos_product random", seed);
  v::rng g(seed);
  pair_stats<float> f("sincos_product<float> random");
  pair_stats<double> d("sincos_product<double> random");
  pair_stats<posenc::bfloat16> b("sincos_product<bfloat16> random");
  pair_stats<posenc::float16> h("sincos_product<float16> random");
  for (int i = 0; i < posenc_test::samples(100000); ++i) {
    // RoPE-like angles: theta in [2^-30, 2), m < 2^21; every 8th draw a larger m (up to 2^40).
    const pm::double_double theta = random_theta(g, -30, 1);
    const std::uint64_t m = g.below(std::uint64_t{1} << ((i % 8) == 0 ? 40 : 21));
    auto o = v::sincos_product_value(m, theta);
    const std::initializer_list<double> args = {static_cast<double>(m), theta.hi, theta.lo};
    f.add(o, v::unwrap(pm::sincos_product<float>(m, theta)), args);
    d.add(o, v::unwrap(pm::sincos_product<double>(m, theta)), args);
    if (i % 4 == 0) {
      b.add(o, v::unwrap(pm::sincos_product<posenc::bfloat16>(m, theta)), args);
      h.add(o, v::unwrap(pm::sincos_product<posenc::float16>(m, theta)), args);
    }
  }
  f.report();
  d.report();
  b.report();
  h.report();
}

TEST_CASE("oracle: rope_theta within its stated relative error", "[oracle][rope]") {
  const std::uint64_t seed = posenc_test::stream_seed(v::seed_for("rope_theta"));
  print_seed("rope_theta", seed);
  v::rng g(seed);
  double worst = 0.0;
  std::uint64_t count = 0, bad = 0, unnormalised = 0;
  const auto check = [&](double base, int j, int dim) {
    const pm::double_double t = v::unwrap(pm::geometric_frequency(base, 2 * j, dim));
    const v::rope_frequency freq(base, j, dim);
    // relative error |hi + lo - theta| / theta, computed in MPFR (hi + lo exactly)
    v::detail::mp sum(2200), rel(64);
    mpfr_set_d(sum.get(), t.hi, MPFR_RNDN);
    mpfr_add_d(sum.get(), sum.get(), t.lo, MPFR_RNDN);
    mpfr_sub(rel.get(), sum.get(), freq.theta_mpfr(), MPFR_RNDN);
    mpfr_div(rel.get(), rel.get(), freq.theta_mpfr(), MPFR_RNDN);
    const double e = std::fabs(mpfr_get_d(rel.get(), MPFR_RNDU));
    ++count;
    if (e > worst) worst = e;
    if (!(e <= pm::geometric_frequency_max_rel_error)) {
      if (++bad <= 10) std::printf("  BAD geometric_frequency(%a, 2 * (%d), %d): rel error %a\n", base, j, dim, e);
    }
    if (t.hi + t.lo != t.hi) ++unnormalised;  // normalised: |lo| <= ulp(hi)/2
  };
  for (double base : bases)
    for (int j = 0; j < head_dim / 2; ++j) check(base, j, head_dim);
  constexpr std::array<int, 5> dims = {2, 64, 96, 128, 256};
  for (int i = 0; i < posenc_test::samples(20000); ++i) {
    const int dim = dims[g.below(dims.size())];
    const double base = 1.0 + std::fabs(g.log_uniform<double>(-20, 40));
    check(base, static_cast<int>(g.below(static_cast<std::uint64_t>(dim / 2))), dim);
  }
  std::printf(
      "[oracle] rope_theta: count=%llu, max relative error %.3g (2^%.2f), stated bound 2^-100, "
      "out of bound %llu, unnormalised %llu\n",
      static_cast<unsigned long long>(count), worst, worst > 0 ? std::log2(worst) : -INFINITY,
      static_cast<unsigned long long>(bad), static_cast<unsigned long long>(unnormalised));
  CHECK(unnormalised == 0);
  REQUIRE(bad == 0);
}
