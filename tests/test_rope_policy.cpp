// Tests of posenc/rope/policy.hpp: the framework policies against independent float32
// re-derivations (plain float arithmetic, elementary functions rounded by MPFR at 24 bits), the
// exact policy against rope_sincos and the MPFR oracle, and the drift law (angle error grows with
// the position) measured with MPFR.
#include <mpfr.h>

#include <algorithm>
#include <array>
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/math/sincos_table.hpp"
#include "posenc/math/sleef_powf.hpp"
#include "posenc/rope/frequencies.hpp"
#include "posenc/rope/policy.hpp"
#include "posenc/verify/rope_oracle.hpp"
#include "torch_powf_ref.hpp"

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

// torch's float32 pow of element j of n (tests/torch_powf_ref.hpp: SLEEF from libsleef, MPFR).
float torch_powf(float b, float t, int j, int n) { return posenc_test::torch_powf(b, t, j, n); }

// HF's inv_freq re-derived: 1.0 / (base ** (arange(0, d, 2).float() / d)), / factor for linear.
float hf_inv_ref(double base, int d, int j, double factor) {
  volatile float t = static_cast<float>(2 * j) / static_cast<float>(d);  // volatile: no folding tricks
  float inv = 1.0f / torch_powf(static_cast<float>(base), t, j, d / 2);
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
  int d;          // expected rotary dim
  double factor;  // 0 for default
};

std::vector<case_t> cases() {
  return {
      {{.head_dim = 128, .rope_theta = 10000.0}, 128, 0},                              // Llama-2
      {{.head_dim = 128, .rope_theta = 500000.0}, 128, 0},                             // Llama-3
      {{.head_dim = 128, .rope_theta = 1000000.0}, 128, 0},                            // Qwen2
      {{.head_dim = 96, .rope_theta = 10000.0}, 96, 0},                                // Phi-3: 2j/96 rounds
      {{.head_dim = 80, .rope_theta = 10000.0, .partial_rotary_factor = 0.4}, 32, 0},  // partial rotary
      {{.head_dim = 128, .rope_theta = 10000.0, .rope_type = pr::scaling::linear, .factor = 4.0}, 128, 4.0},
      {{.head_dim = 96, .rope_theta = 10000.0, .rope_type = pr::scaling::linear, .factor = 3.0}, 96, 3.0},
  };
}

const std::uint64_t positions[] = {
    0, 1, 2, 3, 7, 100, 4095, 4096, 32767, 65537, 131071, 1000003, (1u << 24) + 1, (std::uint64_t{1} << 31) - 1};

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
    for (int j = 0; j < c.d / 2; ++j)
      CHECK(row[static_cast<std::size_t>(j)] == hf_inv_ref(c.cfg.rope_theta, c.d, j, c.factor));
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
        const auto r = posenc::math::sincos_geometric<float>(m, base, 2 * j, 128).value;
        const auto o = posenc::verify::cr_rope_sincos<float>(m, base, j, 128);
        REQUIRE(e.ok());
        CHECK(e.value.cos == r.cos);
        CHECK(e.value.sin == r.sin);
        CHECK(e.value.cos == o.cos);
        CHECK(e.value.sin == o.sin);
        const auto ed = pr::sincos<double>(pr::exact, c, m, j);
        CHECK(ed.value.cos == posenc::math::sincos_geometric<double>(m, base, 2 * j, 128).value.cos);
      }
    }
  }
  // Compile-time values equal the run-time ones.
  CHECK(ct_ex.value.cos == posenc::math::sincos_geometric<float>(4000, 10000.0, 2 * 17, 128).value.cos);
  CHECK(ct_hf.value.cos == mp_cosf(mp_mulf(hf_inv_ref(10000.0, 128, 17, 0), 4000)));
  CHECK(ct_gg.value.sin == mp_sinf(ggml_ref(10000.0, 128, 4000, 17, 0)));
  CHECK(ct_inv.value == hf_inv_ref(10000.0, 128, 17, 0));
}

TEST_CASE("policies reject what they do not model", "[rope][policy]") {
  const pr::config yarn{.head_dim = 128,
                        .rope_theta = 10000.0,
                        .rope_type = pr::scaling::yarn,
                        .factor = 4.0,
                        .original_max_position_embeddings = 4096};
  CHECK(pr::inv_freq(pr::hf_float32, yarn, 0).ok());  // every rope_type since issue 3
  const pr::config bad{.head_dim = 128, .rope_type = pr::scaling::yarn, .factor = 4.0};  // no L0
  CHECK_FALSE(pr::inv_freq(pr::hf_float32, bad, 0).ok());
  CHECK_FALSE(pr::attention_scaling(pr::hf_float32, bad).ok());
  CHECK_FALSE(pr::angle(pr::ggml_float32, yarn, 1, 0).ok());
  CHECK_FALSE(pr::sincos<float>(pr::exact, yarn, 1, 0).ok());
  const pr::config lin{.head_dim = 128, .rope_type = pr::scaling::linear, .factor = 2.0};
  CHECK_FALSE(pr::sincos<float>(pr::exact, lin, 1, 0).ok());  // exact linear: not provided here
  CHECK_FALSE(pr::angle(pr::hf_float32, llama2, 1, -1).ok());
  std::array<float, 65> too_long{};
  CHECK(pr::angle_row(pr::hf_float32, llama2, 1, too_long) == posenc::status::domain_error);
}

// ggml_float32's scope (pe-formulas.md 2.1, policy.hpp's Scope): ggml-cpu's recurrence is the
// pipeline of rope_type default and linear; its other scalings are other pipelines and proportional
// RoPE is not ggml's. rope::applies states it once, with a sentence naming what is wrong; every
// ggml_float32 function refuses exactly what it refuses.
TEST_CASE("applies(ggml_float32): default and linear only, not proportional, with the reason", "[rope][policy]") {
  using pr::scaling;
  const std::string covers = "ggml's float32 recurrence covers rope_type default and linear only";
  const struct {
    pr::config cfg;
    std::string reason;  // empty: applies
  } cases[] = {
      {{.head_dim = 128}, ""},
      {{.head_dim = 80, .partial_rotary_factor = 0.4}, ""},
      {{.head_dim = 64, .rope_type = scaling::linear, .factor = 4.0}, ""},
      {{.head_dim = 64, .rope_type = scaling::ntk, .factor = 2.0}, covers},
      {{.head_dim = 64, .rope_type = scaling::dynamic, .factor = 2.0, .max_position_embeddings = 2048}, covers},
      {{.head_dim = 64, .rope_type = scaling::yarn, .factor = 4.0, .original_max_position_embeddings = 4096}, covers},
      {{.head_dim = 64,
        .rope_type = scaling::llama3,
        .factor = 8.0,
        .original_max_position_embeddings = 8192,
        .low_freq_factor = 1.0,
        .high_freq_factor = 4.0},
       covers},
      {{.head_dim = 64, .partial_rotary_factor = 0.5, .proportional = true},
       "ggml's float32 recurrence does not cover proportional RoPE"},
      {{.head_dim = 64,
        .partial_rotary_factor = 0.5,
        .rope_type = scaling::linear,
        .factor = 2.0,
        .proportional = true},
       "ggml's float32 recurrence does not cover proportional RoPE"},
      {{.head_dim = 7}, "rotary dim must be even"},  // an invalid config: its own sentence
  };
  for (const auto& c : cases) {
    const pr::checked_config cc{c.cfg};
    const posenc::validation v = pr::applies(pr::ggml_float32, cc);
    INFO(c.reason << " / " << v.message);
    CHECK(v.ok() == c.reason.empty());
    if (!c.reason.empty()) {
      CHECK(v.error == posenc::status::domain_error);
      CHECK(std::string(v.message) == c.reason);
    }
    std::array<float, 2> row{};
    CHECK(pr::angle(pr::ggml_float32, cc, 5, 1).ok() == v.ok());
    CHECK((pr::angle_row(pr::ggml_float32, cc, 5, row) == posenc::status::ok) == v.ok());
    CHECK(pr::inv_freq(pr::ggml_float32, cc, 1).ok() == v.ok());
    CHECK(pr::attention_scaling(pr::ggml_float32, cc).ok() == v.ok());
    CHECK(pr::sincos<float>(pr::ggml_float32, cc, 5, 1).ok() == v.ok());
  }
}

// ggml keeps no inv_freq tensor; the frequency its arithmetic defines is its angle at position 1:
// freq_scale * theta_scale^j by the float32 recurrence (ggml_ref at m = 1, the independent
// re-derivation), with attention factor 1 (ggml's mscale for default and linear).
TEST_CASE("ggml_float32 inv_freq is ggml's angle at position 1; attention factor 1", "[rope][policy]") {
  for (const auto& c : cases()) {
    std::vector<float> row(static_cast<std::size_t>(c.d / 2));
    REQUIRE(pr::inv_freq_row(pr::ggml_float32, c.cfg, row) == posenc::status::ok);
    for (int j = 0; j < c.d / 2; ++j) {
      const float expect = ggml_ref(c.cfg.rope_theta, c.d, 1, j, c.factor);
      INFO("d " << c.d << " pair " << j);
      CHECK(row[static_cast<std::size_t>(j)] == expect);
      CHECK(pr::inv_freq(pr::ggml_float32, c.cfg, j).value == expect);
    }
    CHECK(pr::attention_scaling(pr::ggml_float32, c.cfg).value == 1.0);
    std::vector<float> too_long(row.size() + 1);
    CHECK(pr::inv_freq_row(pr::ggml_float32, c.cfg, too_long) == posenc::status::domain_error);
  }
  static_assert(pr::inv_freq(pr::ggml_float32, llama2, 0).value == 1.0f);
  static_assert(pr::attention_scaling(pr::ggml_float32, llama2).value == 1.0);
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

// ---------------------------------------------------------------------------------------------
// hf_float32 for every rope_type: an independent float32 re-derivation of HF's
// modeling_rope_utils.py (v5), line by line. Every float32 tensor op is one MPFR operation at 24
// bits with the binary32 exponent range (emin -148, emax 128) and mpfr_subnormalize; Python
// math.* scalars are MPFR at 53 bits. f32(x) is the float32 value of a Python scalar.
namespace {

struct f32_range {  // binary32 exponent range for the duration of one operation
  mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  f32_range() { mpfr_set_emin(-148), mpfr_set_emax(128); }
  ~f32_range() { mpfr_set_emin(emin), mpfr_set_emax(emax); }
};
enum class op { add, sub, mul, div, pow };
float r32(op o, float x, float y) {
  const f32_range guard;
  mpnum a(24), b(24), r(24);
  mpfr_set_flt(a.v, x, MPFR_RNDN);
  mpfr_set_flt(b.v, y, MPFR_RNDN);
  int t = 0;
  switch (o) {
    case op::add: t = mpfr_add(r.v, a.v, b.v, MPFR_RNDN); break;
    case op::sub: t = mpfr_sub(r.v, a.v, b.v, MPFR_RNDN); break;
    case op::mul: t = mpfr_mul(r.v, a.v, b.v, MPFR_RNDN); break;
    case op::div: t = mpfr_div(r.v, a.v, b.v, MPFR_RNDN); break;
    case op::pow: t = mpfr_pow(r.v, a.v, b.v, MPFR_RNDN); break;
  }
  mpfr_subnormalize(r.v, t, MPFR_RNDN);
  return mpfr_get_flt(r.v, MPFR_RNDN);
}
float f32(double x) {  // RN_binary32 of a double (torch's cast of a Python scalar)
  const f32_range guard;
  mpnum r(24);
  mpfr_subnormalize(r.v, mpfr_set_d(r.v, x, MPFR_RNDN), MPFR_RNDN);
  return mpfr_get_flt(r.v, MPFR_RNDN);
}
double d_fn(int which, double x, double y = 0) {  // math.log, x ** y (C pow), math.sqrt
  mpnum a(53), b(53), r(53);
  mpfr_set_d(a.v, x, MPFR_RNDN);
  mpfr_set_d(b.v, y, MPFR_RNDN);
  if (which == 0)
    mpfr_log(r.v, a.v, MPFR_RNDN);
  else if (which == 1)
    mpfr_pow(r.v, a.v, b.v, MPFR_RNDN);
  else
    mpfr_sqrt(r.v, a.v, MPFR_RNDN);
  return mpfr_get_d(r.v, MPFR_RNDN);
}
double d_log(double x) { return d_fn(0, x); }
double d_pow(double x, double y) { return d_fn(1, x, y); }

float add(float x, float y) { return r32(op::add, x, y); }
float sub(float x, float y) { return r32(op::sub, x, y); }
float mul(float x, float y) { return r32(op::mul, x, y); }
float div(float x, float y) { return r32(op::div, x, y); }

struct hf_ref {
  std::vector<float> inv;
  double attention = 1.0;
};

// inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).to(dtype=torch.float) / dim))
std::vector<float> default_inv(float base, int dim, int n) {
  std::vector<float> v;
  for (int j = 0; j < n; ++j)
    v.push_back(div(1.0f, torch_powf(base, div(static_cast<float>(2 * j), static_cast<float>(dim)), j, n)));
  return v;
}

hf_ref hf_reference(const pr::config& c, int dim) {
  const int half = dim / 2;
  hf_ref r;
  const double base = c.rope_theta;
  switch (c.rope_type) {
    case pr::scaling::default_:
    case pr::scaling::linear: {
      if (c.proportional) {  // _compute_proportional_rope_parameters
        const int rope_angles = static_cast<int>(std::floor(c.partial_rotary_factor * c.head_dim / 2));
        r.inv = default_inv(f32(base), c.head_dim, rope_angles);       // exponent over head_dim
        r.inv.resize(static_cast<std::size_t>(c.head_dim / 2), 0.0f);  // torch.zeros(nope_angles)
        const double factor = c.factor == 0 ? 1.0 : c.factor;          // get("factor", 1.0)
        for (float& x : r.inv) x = div(x, f32(factor));                // inv_freq /= factor
        return r;
      }
      r.inv = default_inv(f32(base), dim, half);
      if (c.rope_type == pr::scaling::linear)
        for (float& x : r.inv) x = div(x, f32(c.factor));
      return r;
    }
    case pr::scaling::ntk:  // base = base * factor ** (dim / (dim - 2)), Python floats
      r.inv = default_inv(f32(base * d_pow(c.factor, static_cast<double>(dim) / (dim - 2))), dim, half);
      return r;
    case pr::scaling::dynamic: {
      const double e = static_cast<double>(dim) / (dim - 2), mp = static_cast<double>(c.max_position_embeddings);
      float b = 0;
      if (c.seq_len > c.max_position_embeddings) {                          // forward: seq_len is an int64 tensor
        float x = mul(f32(c.factor), f32(static_cast<double>(c.seq_len)));  // factor * seq_len
        x = div(x, f32(mp));                                                // / max_position_embeddings
        x = sub(x, f32(c.factor - 1));                                      // - (factor - 1)
        const float y = e == 2.0 ? mul(x, x) : f32(d_pow(x, e));            // std::pow(float, double)
        b = mul(f32(base), y);                                              // base * (...)
      } else {  // __init__: seq_len = max_position_embeddings, Python floats
        b = f32(base * d_pow(c.factor * mp / mp - (c.factor - 1), e));
      }
      r.inv = default_inv(b, dim, half);
      return r;
    }
    case pr::scaling::yarn: {
      const double factor = c.factor != 0 ? c.factor
                                          : static_cast<double>(c.max_position_embeddings) /
                                                static_cast<double>(c.original_max_position_embeddings);
      auto get_mscale = [](double scale, double m) { return scale <= 1 ? 1.0 : 0.1 * m * d_log(scale) + 1.0; };
      if (c.attention_factor)
        r.attention = *c.attention_factor;
      else if (c.mscale != 0 && c.mscale_all_dim != 0)
        r.attention = get_mscale(factor, c.mscale) / get_mscale(factor, c.mscale_all_dim);
      else
        r.attention = get_mscale(factor, 1);
      const double L0 = static_cast<double>(c.original_max_position_embeddings);
      auto fcd = [&](double nrot) { return (dim * d_log(L0 / (nrot * 2 * M_PI))) / (2 * d_log(base)); };
      double low = fcd(c.beta_fast), high = fcd(c.beta_slow);
      if (c.truncate) low = std::floor(low), high = std::ceil(high);
      low = std::max(low, 0.0), high = std::min(high, dim - 1.0);
      if (low == high) high += 0.001;
      std::vector<float> pos_freqs;
      for (int j = 0; j < half; ++j)
        pos_freqs.push_back(torch_powf(f32(base), div(static_cast<float>(2 * j), static_cast<float>(dim)), j, half));
      for (int j = 0; j < half; ++j) {
        const float pf = pos_freqs[static_cast<std::size_t>(j)];
        const float extrap = div(1.0f, pf);                    // 1.0 / pos_freqs
        const float interp = div(1.0f, mul(f32(factor), pf));  // 1.0 / (factor * pos_freqs)
        float ramp = div(sub(static_cast<float>(j), f32(low)), f32(high - low));
        ramp = std::clamp(ramp, 0.0f, 1.0f);
        const float ef = sub(1.0f, ramp);  // 1 - linear_ramp_factor(...)
        r.inv.push_back(add(mul(interp, sub(1.0f, ef)), mul(extrap, ef)));
      }
      return r;
    }
    case pr::scaling::longrope: {
      const double factor = c.factor != 0 ? c.factor
                                          : static_cast<double>(c.max_position_embeddings) /
                                                static_cast<double>(c.original_max_position_embeddings);
      if (c.attention_factor)
        r.attention = *c.attention_factor;
      else
        r.attention = factor <= 1
                          ? 1.0
                          : d_fn(2, 1 + d_log(factor) / d_log(static_cast<double>(c.original_max_position_embeddings)));
      const auto ext = c.seq_len > c.original_max_position_embeddings ? c.long_factor : c.short_factor;
      for (int j = 0; j < half; ++j) {
        const float shape = div(static_cast<float>(2 * j), static_cast<float>(dim));
        // torch.tensor(ext_factors, dtype=torch.float32): each Python float rounded to float32
        r.inv.push_back(div(1.0f, mul(f32(ext[static_cast<std::size_t>(j)]), torch_powf(f32(base), shape, j, half))));
      }
      return r;
    }
    case pr::scaling::llama3: {
      const std::vector<float> inv = default_inv(f32(base), dim, half);
      const double L0 = static_cast<double>(c.original_max_position_embeddings);
      const double low_wl = L0 / c.low_freq_factor, high_wl = L0 / c.high_freq_factor;
      for (const float x : inv) {
        const float wl = mul(div(1.0f, x), f32(2 * M_PI));  // 2 * math.pi / inv_freq = reciprocal() * 2pi
        const float llama = wl > f32(low_wl) ? div(x, f32(c.factor)) : x;
        const float sf =
            div(sub(mul(div(1.0f, wl), f32(L0)), f32(c.low_freq_factor)), f32(c.high_freq_factor - c.low_freq_factor));
        const float smoothed = add(div(mul(sub(1.0f, sf), llama), f32(c.factor)), mul(sf, llama));
        const bool medium = !(wl < f32(high_wl)) && !(wl > f32(low_wl));
        r.inv.push_back(medium ? smoothed : llama);
      }
      return r;
    }
  }
  return r;
}

// Plausible LongRoPE factors (Phi-3-mini-128k has 48 per list, rising from ~1 to ~60). Doubles
// that are not float32 numbers (like the JSON's 1.05): hf_float32 must round each to float32.
std::vector<double> make_factors(int n, double top) {
  std::vector<double> v;
  for (int j = 0; j < n; ++j) v.push_back(1.0 + (top - 1.0) * std::pow(j / (n - 1.0), 2.0) + 0.01 * j);
  return v;
}
const std::vector<double> phi_short = make_factors(48, 3.0), phi_long = make_factors(48, 60.0);

struct named_cfg {
  const char* name;
  pr::config cfg;
};
// Llama-3 with a wavelength threshold equal, in float32, to pair j's wavelength: HF compares
// wavelen < high_freq_wavelen and wavelen > low_freq_wavelen (float32 tensors against a Python
// float), so at equality pair j is smoothed (is_medium_freq), neither kept nor divided. The factor
// is L0 / wavelen_j as a double, which the float32 cast of L0 / factor brings back to wavelen_j.
named_cfg llama3_float32_tie(int j, bool high_edge) {
  const double l0 = 8192.0;
  const float x = default_inv(f32(500000.0), 128, 64)[static_cast<std::size_t>(j)];
  const float wl = mul(div(1.0f, x), f32(2 * M_PI));
  const double tie = l0 / static_cast<double>(wl);
  pr::config c{.head_dim = 128,
               .rope_theta = 500000.0,
               .rope_type = pr::scaling::llama3,
               .factor = 8.0,
               .original_max_position_embeddings = 8192,
               .low_freq_factor = high_edge ? 1.0 : tie,
               .high_freq_factor = high_edge ? tie : 4.0};
  return {
      high_edge ? "llama3 float32 wavelen == L0 / high_freq_factor" : "llama3 float32 wavelen == L0 / low_freq_factor",
      c};
}

std::vector<named_cfg> all_types() {
  using pr::scaling;
  return {
      {"llama3.1-8B",
       {.head_dim = 128,
        .rope_theta = 500000.0,
        .rope_type = scaling::llama3,
        .factor = 8.0,
        .original_max_position_embeddings = 8192}},
      {"llama3.2 s=32",
       {.head_dim = 64,
        .rope_theta = 500000.0,
        .rope_type = scaling::llama3,
        .factor = 32.0,
        .original_max_position_embeddings = 8192}},
      // base 1e4, d = 96: three pairs where 2pi / inv_freq (division) and HF's inv_freq.reciprocal() * 2pi
      // classify or smooth differently, so the __rtruediv__ rule is tested.
      {"llama3 base 1e4 d 96",
       {.head_dim = 96,
        .rope_theta = 10000.0,
        .rope_type = scaling::llama3,
        .factor = 8.0,
        .original_max_position_embeddings = 8192}},
      {"qwen2.5 yarn 4",
       {.head_dim = 128,
        .rope_theta = 1000000.0,
        .rope_type = scaling::yarn,
        .factor = 4.0,
        .original_max_position_embeddings = 32768}},
      {"deepseek-v3 yarn 40",
       {.head_dim = 64,
        .rope_theta = 10000.0,
        .rope_type = scaling::yarn,
        .factor = 40.0,
        .original_max_position_embeddings = 4096,
        .mscale = 1.0,
        .mscale_all_dim = 1.0}},
      {"deepseek-v2 mscale 0.707",
       {.head_dim = 64,
        .rope_theta = 10000.0,
        .rope_type = scaling::yarn,
        .factor = 40.0,
        .original_max_position_embeddings = 4096,
        .mscale = 0.707,
        .mscale_all_dim = 0.5}},
      {"gpt-oss yarn untruncated",
       {.head_dim = 64,
        .rope_theta = 150000.0,
        .rope_type = scaling::yarn,
        .factor = 32.0,
        .original_max_position_embeddings = 4096,
        .truncate = false}},
      {"yarn explicit attention_factor",
       {.head_dim = 128,
        .rope_theta = 10000.0,
        .rope_type = scaling::yarn,
        .factor = 16.0,
        .original_max_position_embeddings = 4096,
        .beta_fast = 16.0,
        .beta_slow = 2.0,
        .attention_factor = 0.75}},
      {"yarn factor unset",
       {.head_dim = 128,
        .rope_theta = 10000.0,
        .rope_type = scaling::yarn,
        .original_max_position_embeddings = 4096,
        .max_position_embeddings = 20480}},
      {"yarn low == high",
       {.head_dim = 8,
        .rope_theta = 10000.0,
        .rope_type = scaling::yarn,
        .factor = 4.0,
        .original_max_position_embeddings = 3000000000}},
      {"yarn partial rotary",
       {.head_dim = 80,
        .rope_theta = 10000.0,
        .partial_rotary_factor = 0.4,
        .rope_type = scaling::yarn,
        .factor = 4.0,
        .original_max_position_embeddings = 2048}},
      {"phi-3 longrope short",
       {.head_dim = 96,
        .rope_theta = 10000.0,
        .rope_type = scaling::longrope,
        .original_max_position_embeddings = 4096,
        .max_position_embeddings = 131072,
        .short_factor = phi_short,
        .long_factor = phi_long}},
      {"phi-3 longrope long",
       {.head_dim = 96,
        .rope_theta = 10000.0,
        .rope_type = scaling::longrope,
        .original_max_position_embeddings = 4096,
        .max_position_embeddings = 131072,
        .seq_len = 4097,
        .short_factor = phi_short,
        .long_factor = phi_long}},
      {"longrope explicit",
       {.head_dim = 96,
        .rope_theta = 10000.0,
        .rope_type = scaling::longrope,
        .factor = 8.0,
        .original_max_position_embeddings = 4096,
        .seq_len = 100000,
        .attention_factor = 1.25,
        .short_factor = phi_short,
        .long_factor = phi_long}},
      {"dynamic init",
       {.head_dim = 128,
        .rope_theta = 10000.0,
        .rope_type = scaling::dynamic,
        .factor = 2.0,
        .max_position_embeddings = 4096}},
      {"dynamic seq 10000",
       {.head_dim = 128,
        .rope_theta = 10000.0,
        .rope_type = scaling::dynamic,
        .factor = 2.0,
        .max_position_embeddings = 4096,
        .seq_len = 10000}},
      {"dynamic seq 77777 s=3.5",
       {.head_dim = 96,
        .rope_theta = 500000.0,
        .rope_type = scaling::dynamic,
        .factor = 3.5,
        .max_position_embeddings = 8192,
        .seq_len = 77777}},
      {"dynamic d=4 (x*x)",
       {.head_dim = 4,
        .rope_theta = 10000.0,
        .rope_type = scaling::dynamic,
        .factor = 2.0,
        .max_position_embeddings = 4096,
        .seq_len = 9999}},
      {"ntk static", {.head_dim = 128, .rope_theta = 10000.0, .rope_type = scaling::ntk, .factor = 4.0}},
      {"proportional gemma-4",
       {.head_dim = 256, .rope_theta = 1000000.0, .partial_rotary_factor = 0.25, .proportional = true}},
      {"proportional linear 2",
       {.head_dim = 256,
        .rope_theta = 10000.0,
        .partial_rotary_factor = 0.3,
        .rope_type = scaling::linear,
        .factor = 2.0,
        .proportional = true}},
      {"default partial", {.head_dim = 80, .rope_theta = 10000.0, .partial_rotary_factor = 0.4}},
      {"linear 3", {.head_dim = 96, .rope_theta = 10000.0, .rope_type = scaling::linear, .factor = 3.0}},
      // Boundaries on both sides and at equality (issue 11): LongRoPE switches to the long factors
      // only when seq_len > L0; dynamic NTK recomputes only when seq_len > max_position_embeddings.
      {"phi-3 longrope seq == L0 - 1",
       {.head_dim = 96,
        .rope_theta = 10000.0,
        .rope_type = scaling::longrope,
        .original_max_position_embeddings = 4096,
        .max_position_embeddings = 131072,
        .seq_len = 4095,
        .short_factor = phi_short,
        .long_factor = phi_long}},
      {"phi-3 longrope seq == L0",
       {.head_dim = 96,
        .rope_theta = 10000.0,
        .rope_type = scaling::longrope,
        .original_max_position_embeddings = 4096,
        .max_position_embeddings = 131072,
        .seq_len = 4096,
        .short_factor = phi_short,
        .long_factor = phi_long}},
      {"dynamic seq == max - 1",
       {.head_dim = 128,
        .rope_theta = 10000.0,
        .rope_type = scaling::dynamic,
        .factor = 2.0,
        .max_position_embeddings = 4096,
        .seq_len = 4095}},
      {"dynamic seq == max",
       {.head_dim = 128,
        .rope_theta = 10000.0,
        .rope_type = scaling::dynamic,
        .factor = 2.0,
        .max_position_embeddings = 4096,
        .seq_len = 4096}},
      {"dynamic seq == max + 1",
       {.head_dim = 128,
        .rope_theta = 10000.0,
        .rope_type = scaling::dynamic,
        .factor = 2.0,
        .max_position_embeddings = 4096,
        .seq_len = 4097}},
      // With factor 1.3 the float32 growth steps at seq_len == max do not give exactly 1 (with 2.0
      // they do), so taking the growth branch at equality would show.
      {"dynamic seq == max, factor 1.3",
       {.head_dim = 128,
        .rope_theta = 10000.0,
        .rope_type = scaling::dynamic,
        .factor = 1.3,
        .max_position_embeddings = 4096,
        .seq_len = 4096}},
      {"dynamic seq == max + 1, factor 1.3",
       {.head_dim = 128,
        .rope_theta = 10000.0,
        .rope_type = scaling::dynamic,
        .factor = 1.3,
        .max_position_embeddings = 4096,
        .seq_len = 4097}},
      llama3_float32_tie(29, true),
      llama3_float32_tie(34, false),
  };
}

// Compile time: the new types are constant expressions too.
constexpr pr::config ct_l31{.head_dim = 128,
                            .rope_theta = 500000.0,
                            .rope_type = pr::scaling::llama3,
                            .factor = 8.0,
                            .original_max_position_embeddings = 8192};
constexpr pr::config ct_ds3{.head_dim = 64,
                            .rope_theta = 10000.0,
                            .rope_type = pr::scaling::yarn,
                            .factor = 40.0,
                            .original_max_position_embeddings = 4096,
                            .mscale = 1.0,
                            .mscale_all_dim = 1.0};
constexpr auto ct_l31_inv = pr::inv_freq(pr::hf_float32, ct_l31, 31);
constexpr auto ct_ds3_sc = pr::sincos<float>(pr::hf_float32, ct_ds3, 100000, 12);
static_assert(ct_l31_inv.ok() && ct_ds3_sc.ok());

}  // namespace

TEST_CASE("hf_float32 inv_freq, every rope_type, equals the line-by-line float32 re-derivation", "[rope][policy][hf]") {
  for (const auto& [name, c] : all_types()) {
    INFO(name);
    REQUIRE(pr::validate(c).ok());
    const int d = static_cast<int>(pr::rotary_dim(c));
    const hf_ref ref = hf_reference(c, d);
    REQUIRE(ref.inv.size() == static_cast<std::size_t>(d / 2));
    std::vector<float> row(ref.inv.size());
    REQUIRE(pr::inv_freq_row(pr::hf_float32, c, row) == posenc::status::ok);
    int bad = 0;
    for (std::size_t j = 0; j < row.size(); ++j) {
      INFO("j " << j);
      if (row[j] != ref.inv[j]) ++bad;
      CHECK(std::bit_cast<std::uint32_t>(row[j]) == std::bit_cast<std::uint32_t>(ref.inv[j]));
      CHECK(pr::inv_freq(pr::hf_float32, c, static_cast<int>(j)).value == ref.inv[j]);
    }
    CHECK(bad == 0);
    if (c.rope_type == pr::scaling::llama3 && (c.high_freq_factor != 4.0 || c.low_freq_factor != 1.0)) {
      // the tie configs: the threshold really equals the float32 wavelength of its pair
      const double thr = c.high_freq_factor != 4.0 ? c.high_freq_factor : c.low_freq_factor;
      const int j = c.high_freq_factor != 4.0 ? 29 : 34;
      const float wl = mul(div(1.0f, default_inv(f32(500000.0), 128, 64)[static_cast<std::size_t>(j)]), f32(2 * M_PI));
      CHECK(f32(8192.0 / thr) == wl);
    }
    const auto att = pr::attention_scaling(pr::hf_float32, c);
    REQUIRE(att.ok());
    CHECK(att.value == ref.attention);
    // cos = emb.cos() * attention_scaling, float32 product, at a few positions.
    for (const std::uint64_t m : {std::uint64_t{1}, std::uint64_t{4097}, std::uint64_t{131071}}) {
      for (int j = 0; j < d / 2; j += 5) {
        const float a = mp_mulf(ref.inv[static_cast<std::size_t>(j)], m);
        const auto s = pr::sincos<float>(pr::hf_float32, c, m, j);
        REQUIRE(s.ok());
        CHECK(s.value.cos == mul(mp_cosf(a), f32(ref.attention)));
        CHECK(s.value.sin == mul(mp_sinf(a), f32(ref.attention)));
      }
    }
  }
  CHECK(ct_l31_inv.value == hf_reference(ct_l31, 128).inv[31]);
  const hf_ref ds = hf_reference(ct_ds3, 64);
  const float a = mp_mulf(ds.inv[12], 100000);
  CHECK(ct_ds3_sc.value.cos == mul(mp_cosf(a), f32(ds.attention)));
}

TEST_CASE("hf_float32 reference values: YaRN ranges and attention factors (pe-formulas.md 1.2)", "[rope][policy][hf]") {
  // Published: get_mscale(4) = 1.138629, get_mscale(40) = 1.368888; DeepSeek-V3 cos/sin factor 1.
  const auto q = pr::attention_scaling(pr::hf_float32, all_types()[3].cfg);
  CHECK(q.value == Approx(1.138629).epsilon(1e-6));
  CHECK(pr::attention_scaling(pr::hf_float32, ct_ds3).value == 1.0);
  // Phi-3-mini-128k: sqrt(1 + ln 32 / ln 4096) = sqrt(17/12) = 1.19024.
  CHECK(pr::attention_scaling(pr::hf_float32, all_types()[11].cfg).value == Approx(1.19024).epsilon(1e-5));
  // Llama-3.1 (pe-formulas.md 1.3): j = 0..28 kept, 29..34 smoothed, 35..63 divided by 8.
  const auto base = default_inv(f32(500000.0), 128, 64);
  for (int j = 0; j < 64; ++j) {
    const float v = pr::inv_freq(pr::hf_float32, ct_l31, j).value, b = base[static_cast<std::size_t>(j)];
    INFO("j " << j);
    if (j <= 28)
      CHECK(v == b);
    else if (j >= 35)
      CHECK(v == div(b, 8.0f));
    else
      CHECK((v != b && v != div(b, 8.0f)));
  }
}
