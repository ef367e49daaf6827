// test_sinusoidal.cpp: the sinusoidal encodings (paper, XLM/DistilBERT, Marian, fairseq) against
// MPFR in four types, each framework's indexing written out as its code does it; negative
// positions; compile time against run time; the preconditions.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/sinusoidal.hpp"
#include "posenc/verify/mpfr.hpp"

namespace {

namespace sn = posenc::sinusoidal;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// One element as the frameworks index it (pe-formulas.md section 5):
//  interleaved (XLM/DistilBERT create_sinusoidal_embeddings): angle pos / base^(2 (j // 2) / d),
//    sin at even j, cos at odd j;
//  concat + paper (Marian _init_weight): sentinel = d // 2 + d % 2; column c < sentinel is sin of
//    position_enc[:, 2c], column sentinel + c is cos of position_enc[:, 2c + 1];
//  concat + fairseq (get_embedding): half = d // 2, emb_i = exp(-i ln(base) / (half - 1)),
//    [sin(pos emb) | cos(pos emb)], a zero column when d is odd;
//  interleaved + fairseq: sin/cos of emb_{j // 2} at even/odd j.
struct oracle_element {
  bool zero = false;
  bool is_sin = true;
  std::int64_t num = 0, den = 1;  // the angle is pos * base^(-num/den)
};
oracle_element framework_element(const sn::config& c, int j) {
  const int d = c.dim;
  if (c.exponent == sn::exponent::paper) {
    if (c.layout == sn::layout::interleaved) return {false, j % 2 == 0, 2 * (j / 2), d};
    const int sentinel = d / 2 + d % 2;
    if (j < sentinel) return {false, true, 2 * ((2 * j) / 2), d};
    const int col = 2 * (j - sentinel) + 1;
    return {false, false, 2 * (col / 2), d};
  }
  const int half = d / 2;
  if (c.layout == sn::layout::interleaved) return {j / 2 >= half, j % 2 == 0, j / 2, half - 1};
  if (j >= 2 * half) return {true, true, 0, 1};
  return {false, j < half, j < half ? j : j - half, half - 1};
}

// cos and sin of pos * base^(-num/den) (the oracle of test_geometric.cpp's sincos_geometric test).
auto angle_oracle(std::int64_t pos, double base, std::int64_t num, std::int64_t den) {
  return v::detail::make_value<2>([pos, base, num, den](mpfr_ptr* y, mpfr_ptr* err, mpfr_prec_t prec) {
    const mpfr_prec_t w = prec + 128;
    v::detail::mp e(w), l(w), n(64), dd(64), mm(64), x(w + 64);
    mpfr_set_sj(n.get(), num, MPFR_RNDN);
    mpfr_set_sj(dd.get(), den, MPFR_RNDN);
    mpfr_div(e.get(), n.get(), dd.get(), MPFR_RNDN);
    mpfr_set_d(l.get(), base, MPFR_RNDN);
    mpfr_log(l.get(), l.get(), MPFR_RNDN);
    mpfr_mul(e.get(), e.get(), l.get(), MPFR_RNDN);
    mpfr_neg(e.get(), e.get(), MPFR_RNDN);
    mpfr_exp(e.get(), e.get(), MPFR_RNDN);
    mpfr_set_sj(mm.get(), pos, MPFR_RNDN);
    mpfr_mul(x.get(), e.get(), mm.get(), MPFR_RNDN);  // exact
    mpfr_set_prec(y[0], prec);
    mpfr_set_prec(y[1], prec);
    mpfr_sin_cos(y[1], y[0], x.get(), MPFR_RNDN);
    for (int k = 0; k < 2; ++k) {
      mpfr_set_prec(err[k], 64);
      if (pos == 0) {
        mpfr_set_zero(err[k], 1);
        continue;
      }
      v::detail::mp a(64);
      mpfr_set_ui_2exp(err[k], 1, -prec - 32, MPFR_RNDU);
      if (mpfr_regular_p(y[k])) {
        mpfr_set_ui_2exp(a.get(), 1, mpfr_get_exp(y[k]) + 1 - prec, MPFR_RNDU);
        mpfr_add(err[k], err[k], a.get(), MPFR_RNDU);
      }
    }
  });
}

template <class T>
bool same(T a, T b) {
  return v::detail::to_bits64(a) == v::detail::to_bits64(b);
}

}  // namespace

// ---- compile time ----

constexpr sn::config paper8{.dim = 8};
constexpr auto ct_table = sn::make_table<float, 6, 8>(paper8, -2);
static_assert(ct_table.ok());
static_assert(ct_table.value[2 * 8 + 0] == 0.0f && ct_table.value[2 * 8 + 1] == 1.0f, "PE(0) = [0, 1, 0, 1, ...]");
static_assert(sn::element<double>(paper8, -3, 0).value == -sn::element<double>(paper8, 3, 0).value, "sin is odd");
static_assert(sn::element<double>(paper8, -3, 1).value == sn::element<double>(paper8, 3, 1).value, "cos is even");
constexpr sn::config fairseq9{.dim = 9, .exponent = sn::exponent::fairseq, .layout = sn::layout::concat};
static_assert(sn::element<float>(fairseq9, 77, 8).value == 0.0f, "fairseq: odd d ends in a zero column");
static_assert(sn::frequency_exponent(fairseq9, 3).value.num == 3 && sn::frequency_exponent(fairseq9, 3).value.den == 3,
              "fairseq: the slowest frequency is base^-1 exactly");
static_assert(!sn::validate({.dim = 0}).ok() && !sn::validate({.dim = 3, .exponent = sn::exponent::fairseq}).ok());
static_assert(!sn::validate({.dim = 8, .base = 1.0}).ok() && sn::validate({.dim = 1}).ok());
static_assert(sn::element<float>(paper8, 3, 8).error == posenc::status::domain_error, "element outside [0, d)");

TEST_CASE("sinusoidal: the same bits at compile time and at run time", "[sinusoidal]") {
  volatile int dim = 8;
  const sn::config c{.dim = dim};
  std::vector<float> rt(6 * 8);
  REQUIRE(sn::fill_table<float>(c, -2, rt) == posenc::status::ok);
  for (std::size_t i = 0; i < rt.size(); ++i) CHECK(same(rt[i], ct_table.value[i]));
}

TEST_CASE("sinusoidal: every variant, as each framework indexes it, correctly rounded in four types",
          "[sinusoidal][oracle]") {
  std::uint64_t checked = 0, wrong = 0;
  for (const auto ex : {sn::exponent::paper, sn::exponent::fairseq})
    for (const auto lay : {sn::layout::interleaved, sn::layout::concat})
      for (const int d : {4, 7, 16, 33, 128})
        for (const std::int64_t pos :
             {std::int64_t{0}, std::int64_t{1}, std::int64_t{5}, std::int64_t{-5}, std::int64_t{511},
              std::int64_t{4097}, std::int64_t{-70000}, std::int64_t{1} << 24}) {
          const sn::config c{.dim = d, .exponent = ex, .layout = lay};
          for (int j = 0; j < d; ++j) {
            const oracle_element o = framework_element(c, j);
            auto want = angle_oracle(pos, c.base, o.num, o.den);
            const auto one = [&](auto tag) {
              using T = decltype(tag);
              const T expected = o.zero ? T{} : want.template round<T>(o.is_sin ? 1 : 0);
              const auto got = sn::element<T>(c, pos, j);
              ++checked;
              if (!got.ok() || !same(got.value, expected)) {
                if (++wrong <= 10)
                  std::printf("  MISS sinusoidal d %d %s %s pos %lld j %d in %d bytes\n", d,
                              ex == sn::exponent::paper ? "paper" : "fairseq",
                              lay == sn::layout::concat ? "concat" : "interleaved", static_cast<long long>(pos), j,
                              static_cast<int>(sizeof(T)));
              }
            };
            one(double{});
            one(float{});
            one(bfloat16{});
            one(float16{});
          }
        }
  std::printf("[sinusoidal] %llu entries, %llu not correctly rounded\n", static_cast<unsigned long long>(checked),
              static_cast<unsigned long long>(wrong));
  REQUIRE(wrong == 0);
}
