// Tests of posenc/rope/policy.hpp: the framework policies against independent float32
// re-derivations (plain float arithmetic, elementary functions rounded by MPFR at 24 bits), the
// exact policy against rope_sincos and the MPFR oracle, and the drift law (angle error grows with
// the position) measured with MPFR.
#include <mpfr.h>

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "posenc/math/rope_angle.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/policy.hpp"
#include "posenc/verify/mpfr_oracle.hpp"
#include "posenc/verify/rope_oracle.hpp"

namespace {

namespace pr = posenc::rope;

struct mpnum {
  mpfr_t v;
  explicit mpnum(mpfr_prec_t p) { mpfr_init2(v, p); }
  ~mpnum() { mpfr_clear(v); }
  mpnum(const mpnum&) = delete;
  mpnum& operator=(const mpnum&) = delete;
};

// Correctly rounded float32 functions from MPFR (24-bit results; all values here are normal).
float mp_powf(float x, float y) {
  mpnum a(24), b(24), r(24);
  mpfr_set_flt(a.v, x, MPFR_RNDN);
  mpfr_set_flt(b.v, y, MPFR_RNDN);
  mpfr_pow(r.v, a.v, b.v, MPFR_RNDN);
  return mpfr_get_flt(r.v, MPFR_RNDN);
}
float mp_cosf(float x) {
  mpnum a(24), r(24);
  mpfr_set_flt(a.v, x, MPFR_RNDN);
  mpfr_cos(r.v, a.v, MPFR_RNDN);
  return mpfr_get_flt(r.v, MPFR_RNDN);
}
float mp_sinf(float x) {
  mpnum a(24), r(24);
  mpfr_set_flt(a.v, x, MPFR_RNDN);
  mpfr_sin(r.v, a.v, MPFR_RNDN);
  return mpfr_get_flt(r.v, MPFR_RNDN);
}
// RN_float of the exact product of a float and an integer (one rounding).
float mp_mulf(float x, std::uint64_t m) {
  mpnum a(24), r(24);
  mpfr_set_flt(a.v, x, MPFR_RNDN);
  mpfr_mul_ui(r.v, a.v, static_cast<unsigned long>(m), MPFR_RNDN);
  return mpfr_get_flt(r.v, MPFR_RNDN);
}

// HF's inv_freq re-derived: 1.0 / (base ** (arange(0, d, 2).float() / d)), / factor for linear.
float hf_inv_ref(double base, int d, int j, double factor) {
  volatile float t = static_cast<float>(2 * j) / static_cast<float>(d);  // volatile: no folding tricks
  float inv = 1.0f / mp_powf(static_cast<float>(base), t);
  if (factor != 0) inv = inv / static_cast<float>(factor);
  return inv;
}

// ggml's angle re-derived: theta_scale = powf(base, -2/d); theta = m; j times theta *= scale.
float ggml_ref(double base, int d, std::uint64_t m, int j, double factor) {
  const float scale = mp_powf(static_cast<float>(base), -2.0f / static_cast<float>(d));
  float theta = static_cast<float>(m);
  for (int i = 0; i < j; ++i) theta = theta * scale;
  const float fs = factor != 0 ? 1.0f / static_cast<float>(factor) : 1.0f;
  return fs * theta;
}

struct case_t {
  pr::config cfg;
  int d;           // expected rotary dim
  double factor;   // 0 for default
};

std::vector<case_t> cases() {
  return {
      {{.head_dim = 128, .rope_theta = 10000.0}, 128, 0},                                      // Llama-2
      {{.head_dim = 128, .rope_theta = 500000.0}, 128, 0},                                     // Llama-3
      {{.head_dim = 128, .rope_theta = 1000000.0}, 128, 0},                                    // Qwen2
      {{.head_dim = 96, .rope_theta = 10000.0}, 96, 0},                                        // Phi-3: 2j/96 rounds
      {{.head_dim = 80, .rope_theta = 10000.0, .partial_rotary_factor = 0.4}, 32, 0},          // partial rotary
      {{.head_dim = 128, .rope_theta = 10000.0, .rope_type = pr::scaling::linear, .factor = 4.0}, 128, 4.0},
      {{.head_dim = 96, .rope_theta = 10000.0, .rope_type = pr::scaling::linear, .factor = 3.0}, 96, 3.0},
  };
}

const std::uint64_t positions[] = {0, 1, 2, 3, 7, 100, 4095, 4096, 32767, 65537, 131071, 1000003, (1u << 24) + 1,
                                   (std::uint64_t{1} << 31) - 1};

// max over j of |angle_f - m base^(-2j/128)| (MPFR, 256 bits).
template <class Policy>
double max_angle_error(Policy p, double base, std::uint64_t m) {
  const pr::config cfg{.head_dim = 128, .rope_theta = base};
  mpnum e(256), b(256), th(256), err(256);
  double worst = 0;
  for (int j = 0; j < 64; ++j) {
    mpfr_set_si(e.v, -2 * j, MPFR_RNDN);
    mpfr_div_ui(e.v, e.v, 128, MPFR_RNDN);  // exact
    mpfr_set_d(b.v, base, MPFR_RNDN);
    mpfr_pow(th.v, b.v, e.v, MPFR_RNDN);
    mpfr_mul_ui(th.v, th.v, static_cast<unsigned long>(m), MPFR_RNDN);
    const auto a = pr::angle(p, cfg, m, j);
    REQUIRE(a.ok());
    mpfr_set_flt(err.v, a.value, MPFR_RNDN);
    mpfr_sub(err.v, err.v, th.v, MPFR_RNDN);
    worst = std::max(worst, std::fabs(mpfr_get_d(err.v, MPFR_RNDN)));
  }
  return worst;
}

// Compile time: the policies are constant expressions, and give the run-time bits.
constexpr pr::config llama2{.head_dim = 128, .rope_theta = 10000.0};
constexpr auto ct_inv = pr::inv_freq(pr::hf_float32, llama2, 17);
constexpr auto ct_hf = pr::sincos<float>(pr::hf_float32, llama2, 4000, 17);
constexpr auto ct_gg = pr::sincos<float>(pr::ggml_float32, llama2, 4000, 17);
constexpr auto ct_ex = pr::sincos<float>(pr::exact, llama2, 4000, 17);
static_assert(ct_inv.ok() && ct_hf.ok() && ct_gg.ok() && ct_ex.ok());
static_assert(pr::angle(pr::hf_float32, llama2, 0, 5).value == 0.0f);
static_assert(pr::angle(pr::ggml_float32, llama2, 1, 0).value == 1.0f);
static_assert(!pr::angle(pr::hf_float32, llama2, 1, 64).ok());

}  // namespace

TEST_CASE("hf_float32 inv_freq equals the float32 re-derivation", "[rope][policy]") {
  for (const auto& c : cases()) {
    REQUIRE(pr::rotary_dim(c.cfg) == c.d);
    std::vector<float> row(static_cast<std::size_t>(c.d / 2));
    REQUIRE(pr::inv_freq_row(pr::hf_float32, c.cfg, row) == posenc::status::ok);
    for (int j = 0; j < c.d / 2; ++j) CHECK(row[static_cast<std::size_t>(j)] == hf_inv_ref(c.cfg.rope_theta, c.d, j, c.factor));
    for (int j = 0; j < c.d / 2; ++j) {
      const auto r = pr::inv_freq(pr::hf_float32, c.cfg, j);
      REQUIRE(r.ok());
      INFO("base " << c.cfg.rope_theta << " d " << c.d << " j " << j);
      CHECK(r.value == hf_inv_ref(c.cfg.rope_theta, c.d, j, c.factor));
    }
  }
}

TEST_CASE("hf_float32 angle is RN(inv_freq * float(m)), cos/sin correctly rounded of it", "[rope][policy]") {
  for (const auto& c : cases()) {
    std::vector<float> row(static_cast<std::size_t>(c.d / 2));
    for (const std::uint64_t m : positions) {
      REQUIRE(pr::angle_row(pr::hf_float32, c.cfg, m, row) == posenc::status::ok);
      for (int j = 0; j < c.d / 2; ++j) {
        const float inv = hf_inv_ref(c.cfg.rope_theta, c.d, j, c.factor);
        const float expect = mp_mulf(inv, static_cast<std::uint64_t>(static_cast<float>(m)));  // position_ids.float()
        INFO("d " << c.d << " m " << m << " j " << j);
        const auto a = pr::angle(pr::hf_float32, c.cfg, m, j);
        REQUIRE(a.ok());
        CHECK(a.value == expect);
        CHECK(row[static_cast<std::size_t>(j)] == expect);
        if (m % 2 == 1 && j % 7 == 0) {
          const auto s = pr::sincos<float>(pr::hf_float32, c.cfg, m, j);
          CHECK(s.value.cos == mp_cosf(expect));
          CHECK(s.value.sin == mp_sinf(expect));
          CHECK(pr::cos<double>(pr::hf_float32, c.cfg, m, j).value == static_cast<double>(mp_cosf(expect)));
        }
      }
    }
  }
}

TEST_CASE("ggml_float32 angle is the float recurrence", "[rope][policy]") {
  for (const auto& c : cases()) {
    std::vector<float> row(static_cast<std::size_t>(c.d / 2));
    for (const std::uint64_t m : positions) {
      REQUIRE(pr::angle_row(pr::ggml_float32, c.cfg, m, row) == posenc::status::ok);
      for (int j = 0; j < c.d / 2; ++j) {
        const float expect = ggml_ref(c.cfg.rope_theta, c.d, m, j, c.factor);
        INFO("d " << c.d << " m " << m << " j " << j);
        CHECK(pr::angle(pr::ggml_float32, c.cfg, m, j).value == expect);
        CHECK(row[static_cast<std::size_t>(j)] == expect);
        if (m % 2 == 1 && j % 7 == 0) CHECK(pr::sin<float>(pr::ggml_float32, c.cfg, m, j).value == mp_sinf(expect));
      }
    }
  }
  const pr::config c = cases()[0].cfg;
  CHECK_FALSE(pr::angle(pr::ggml_float32, c, std::uint64_t{1} << 31, 0).ok());  // pos is int32 in ggml
}

TEST_CASE("exact policy is rope_sincos bit for bit, and correctly rounded", "[rope][policy]") {
  for (const double base : {10000.0, 500000.0}) {
    const pr::config c{.head_dim = 128, .rope_theta = base};
    for (const std::uint64_t m : {1u, 4095u, 131071u, 1048576u}) {
      for (int j = 0; j < 64; j += 3) {
        const auto e = pr::sincos<float>(pr::exact, c, m, j);
        const auto r = posenc::math::rope_sincos<float>(m, base, j, 128);
        const auto o = posenc::verify::cr_rope_sincos<float>(m, base, j, 128);
        REQUIRE(e.ok());
        CHECK(e.value.cos == r.cos);
        CHECK(e.value.sin == r.sin);
        CHECK(e.value.cos == o.cos);
        CHECK(e.value.sin == o.sin);
        const auto ed = pr::sincos<double>(pr::exact, c, m, j);
        CHECK(ed.value.cos == posenc::math::rope_sincos<double>(m, base, j, 128).cos);
      }
    }
  }
  // Compile-time values equal the run-time ones.
  CHECK(ct_ex.value.cos == posenc::math::rope_sincos<float>(4000, 10000.0, 17, 128).cos);
  CHECK(ct_hf.value.cos == mp_cosf(mp_mulf(hf_inv_ref(10000.0, 128, 17, 0), 4000)));
  CHECK(ct_gg.value.sin == mp_sinf(ggml_ref(10000.0, 128, 4000, 17, 0)));
  CHECK(ct_inv.value == hf_inv_ref(10000.0, 128, 17, 0));
}

TEST_CASE("policies reject what they do not model", "[rope][policy]") {
  const pr::config yarn{.head_dim = 128, .rope_theta = 10000.0, .rope_type = pr::scaling::yarn, .factor = 4.0,
                        .original_max_position_embeddings = 4096};
  CHECK_FALSE(pr::inv_freq(pr::hf_float32, yarn, 0).ok());
  CHECK_FALSE(pr::angle(pr::ggml_float32, yarn, 1, 0).ok());
  CHECK_FALSE(pr::sincos<float>(pr::exact, yarn, 1, 0).ok());
  const pr::config lin{.head_dim = 128, .rope_type = pr::scaling::linear, .factor = 2.0};
  CHECK_FALSE(pr::sincos<float>(pr::exact, lin, 1, 0).ok());  // exact linear: not provided here
  CHECK_FALSE(pr::angle(pr::hf_float32, llama2, 1, -1).ok());
  std::array<float, 65> too_long{};
  CHECK(pr::angle_row(pr::hf_float32, llama2, 1, too_long) == posenc::status::domain_error);
}

TEST_CASE("drift law: the float32 angle error grows with the position (MPFR)", "[rope][policy]") {
  for (const double base : {10000.0, 500000.0}) {
    INFO("base " << base);
    const double hf4k = max_angle_error(pr::hf_float32, base, 4096);
    const double hf128k = max_angle_error(pr::hf_float32, base, 131072);
    const double gg4k = max_angle_error(pr::ggml_float32, base, 4096);
    const double gg128k = max_angle_error(pr::ggml_float32, base, 131072);
    CHECK(hf128k > hf4k);
    CHECK(gg128k > gg4k);
    // Published figures (pe-formulas.md section 7): 1.2e-4 / 3.9e-3 (HF), 3.6e-4 / 1.1e-2 (ggml) at
    // base 1e4; 5.4e-3 (HF) and 4.8e-3 (ggml) at 131072, base 5e5. Within 10%.
    if (base == 10000.0) {
      CHECK(hf4k == Approx(1.2e-4).epsilon(0.1));
      CHECK(hf128k == Approx(3.9e-3).epsilon(0.1));
      CHECK(gg4k == Approx(3.6e-4).epsilon(0.1));
      CHECK(gg128k == Approx(1.1e-2).epsilon(0.1));
    } else {
      CHECK(hf128k == Approx(5.4e-3).epsilon(0.1));
      CHECK(gg128k == Approx(4.8e-3).epsilon(0.1));
    }
    // And the exact policy has no angle error: its cos/sin are within half a float ulp (checked above).
  }
}
