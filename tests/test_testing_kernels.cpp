// posenc::testing (include/posenc/testing/): check_rope_apply passes correct RoPE kernels and
// catches buggy ones with a shrunk counterexample, and its bound is tight (docs/testing-kernels.md).
//
// The kernels here are written independently of the checker: a naive double rotate-half, posenc's
// own apply kernels on posenc's tables, and HF's bfloat16 order; each bug of the gallery is one
// change to one of them. The expected values are the checker's MPFR rotation, never a kernel's.
// One translation unit, few instantiations: float, plus one bfloat16 kernel.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "posenc/math/round.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/apply.hpp"
#include "posenc/rope/detail/dims.hpp"
#include "posenc/rope/fill.hpp"
#include "posenc/rope/models.hpp"
#include "posenc/rope/seq_len.hpp"
#include "posenc/testing/catch2.hpp"
#include "posenc/testing/check_rope_apply.hpp"
#include "posenc/testing/check_rope_layouts.hpp"
#include "posenc/verify/rope_oracle.hpp"
#include "posenc/verify/rope_table_oracle.hpp"
#include "sample_count.hpp"

namespace {

namespace pt = posenc::testing;
namespace rope = posenc::rope;
using posenc::bfloat16;
using posenc_test::samples;

using float_span = std::span<const float>;
using pos_span = std::span<const std::int64_t>;

// A kernel's own precondition: an exception fails the case (RapidCheck reports its what()).
void ok(posenc::status s) {
  if (s != posenc::status::ok) throw std::runtime_error("kernel: posenc call failed");
}

// The knobs of the buggy gallery; all off: a correct kernel.
struct bugs {
  int flip_pair = -1;         // this pair rotates by -angle (sin's sign flipped)
  bool other_layout = false;  // rotates the pairs of the other layout
  std::int64_t pos_offset = 0;
  double base = 0;          // nonzero: this rope_theta instead of the config's
  bool angle_f16 = false;   // m * theta computed in float16
  bool sloppy_sin = false;  // sin accurate to 1e-4
  bool rotate_all = false;  // rotates the pass-through elements too
  bool no_af = false;       // attention factor left out
  std::int64_t wrap = 0;    // positions taken modulo this (a cache size)
  bool f32_angle = false;   // HF's float32 pipeline: inv_freq, m * inv_freq, cos/sin in float32
};

float f16_round(double v) { return posenc::math::round_to<posenc::float16>(v).value.to_float(); }

// Naive rotate-half in double: inv_freq and af rounded to double (by MPFR here, as a framework's
// double pow would nearly; HF's seq_len rule for dynamic/LongRoPE), angle m * inv_freq,
// std::cos/std::sin, y = a c - b s in double, stored as float.
struct naive_kernel {
  rope::config cfg;
  rope::layout lay = rope::layout::half_split;
  bugs bug{};

  void operator()(float_span x, pos_span pos, std::span<float> out, std::size_t heads, std::size_t hd) const {
    std::int64_t last = 0;
    for (const std::int64_t p : pos) last = std::max(last, p);
    rope::config c = rope::with_seq_len_of_positions(cfg, static_cast<std::uint64_t>(last));
    if (bug.base != 0) c.rope_theta = bug.base;
    const int pairs = static_cast<int>(posenc::rope::detail::rotary_dim(c) / 2);
    const std::size_t rotary = bug.rotate_all ? hd : static_cast<std::size_t>(2 * pairs);
    const double af = bug.no_af ? 1.0 : posenc::verify::cr_rope_attention_factor<double>(c);
    const rope::layout l =
        bug.other_layout ? (lay == rope::layout::half_split ? rope::layout::interleaved : rope::layout::half_split)
                         : lay;
    for (std::size_t k = 0; k < x.size(); ++k) out[k] = x[k];
    for (std::size_t t = 0; t < pos.size(); ++t) {
      std::int64_t m = pos[t] + bug.pos_offset;
      if (bug.wrap > 0) m %= bug.wrap;
      for (std::size_t j = 0; j < rotary / 2; ++j) {
        const double theta = posenc::verify::cr_rope_inv_freq<double>(c, std::min(static_cast<int>(j), pairs - 1));
        double cs = 0, sn = 0;
        if (bug.f32_angle) {
          const float ang = static_cast<float>(m) * static_cast<float>(theta);
          cs = static_cast<double>(static_cast<float>(af) * std::cos(ang));
          sn = static_cast<double>(static_cast<float>(af) * std::sin(ang));
        } else {
          const double ang = bug.angle_f16 ? f16_round(f16_round(static_cast<double>(m)) * f16_round(theta))
                                           : static_cast<double>(m) * theta;
          cs = af * std::cos(ang);
          sn = af * (bug.sloppy_sin ? std::sin(ang) + 1e-4 * std::cos(3 * ang) : std::sin(ang));
        }
        if (static_cast<int>(j) == bug.flip_pair) sn = -sn;
        for (std::size_t h = 0; h < heads; ++h) {
          const std::size_t base = (t * heads + h) * hd;
          const std::size_t ia = base + rope::pair_index(l, j, 0, rotary),
                            ib = base + rope::pair_index(l, j, 1, rotary);
          const double a = x[ia], b = x[ib];
          out[ia] = static_cast<float>(a * cs - b * sn);
          out[ib] = static_cast<float>(a * sn + b * cs);
        }
      }
    }
  }
};

// posenc's own kernel: a float pair table of the positions (attention factor folded, correctly
// rounded) and rope::rotate_copy, storage S, compute float.
template <class S>
struct posenc_kernel {
  rope::config cfg;
  rope::layout lay = rope::layout::half_split;

  void operator()(std::span<const S> x, pos_span pos, std::span<S> out, std::size_t heads, std::size_t hd) const {
    const std::size_t pairs = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(cfg)) / 2;
    std::vector<std::uint64_t> p(pos.begin(), pos.end());
    std::vector<posenc::math::sincos_result<float>> rows(p.size() * pairs);
    ok(rope::fill_pair_table<float>(cfg, p, rows, true));
    const rope::apply_shape sh{heads, hd, 2 * pairs, lay};
    for (std::size_t t = 0; t < p.size(); ++t)
      ok(rope::rotate_copy(x.data() + t * heads * hd, out.data() + t * heads * hd, sh, rows.data() + t * pairs));
  }
};

// A float table (posenc's, correctly rounded, folded) applied in double and stored as float; with
// worse = true every entry is first moved one float ulp away from the exact value (whose side the
// MPFR oracle tells): a kernel one ulp worse than the model says.
struct double_compute_kernel {
  rope::config cfg;
  bool worse = false;

  void operator()(float_span x, pos_span pos, std::span<float> out, std::size_t heads, std::size_t hd) const {
    const std::size_t pairs = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(cfg)) / 2;
    std::vector<std::uint64_t> p(pos.begin(), pos.end());
    std::vector<posenc::math::sincos_result<float>> rf(p.size() * pairs);
    ok(rope::fill_pair_table<float>(cfg, p, rf, true));
    const posenc::verify::rope_table_oracle oracle(cfg);
    posenc::verify::rope_table_oracle::value exact;
    const auto away = [](float v, mpfr_srcptr e) {
      return mpfr_cmp_d(e, static_cast<double>(v)) <= 0 ? std::nextafter(v, INFINITY) : std::nextafter(v, -INFINITY);
    };
    for (std::size_t k = 0; k < x.size(); ++k) out[k] = x[k];
    for (std::size_t t = 0; t < p.size(); ++t)
      for (std::size_t j = 0; j < pairs; ++j) {
        float c = rf[t * pairs + j].cos, s = rf[t * pairs + j].sin;
        if (worse) {
          oracle.eval(p[t], static_cast<int>(j), true, exact);
          c = away(c, exact.cos.get());
          s = away(s, exact.sin.get());
        }
        for (std::size_t h = 0; h < heads; ++h) {
          const std::size_t ia = (t * heads + h) * hd + j, ib = ia + pairs;
          const double a = x[ia], b = x[ib];
          out[ia] = static_cast<float>(a * c - b * s);
          out[ib] = static_cast<float>(a * s + b * c);
        }
      }
  }
};

// HF's bfloat16 apply: bfloat16 cos/sin (here correctly rounded, from MPFR) and q * cos +
// rotate_half(q) * sin with every operation computed in float and rounded to bfloat16, as torch
// does. wrong_element: element 1 of each head adds where it subtracts.
struct hf_bf16_kernel {
  rope::config cfg;
  bool wrong_element = false;

  void operator()(std::span<const bfloat16> x, pos_span pos, std::span<bfloat16> out, std::size_t heads,
                  std::size_t hd) const {
    const auto bf = [](float v) { return posenc::math::round_to<bfloat16>(static_cast<double>(v)).value.to_float(); };
    const std::size_t pairs = static_cast<std::size_t>(posenc::rope::detail::rotary_dim(cfg)) / 2;
    std::int64_t last = 0;
    for (const std::int64_t m : pos) last = std::max(last, m);
    const posenc::verify::rope_table_oracle oracle(
        rope::with_seq_len_of_positions(cfg, static_cast<std::uint64_t>(last)));
    std::vector<posenc::math::sincos_result<bfloat16>> rows;
    for (const std::int64_t m : pos)
      for (std::size_t j = 0; j < pairs; ++j)
        rows.push_back(oracle.sincos<bfloat16>(static_cast<std::uint64_t>(m), static_cast<int>(j), true));
    for (std::size_t k = 0; k < x.size(); ++k) out[k] = x[k];
    for (std::size_t t = 0; t < pos.size(); ++t)
      for (std::size_t j = 0; j < pairs; ++j) {
        const float c = rows[t * pairs + j].cos.to_float(), s = rows[t * pairs + j].sin.to_float();
        for (std::size_t h = 0; h < heads; ++h) {
          const std::size_t ia = (t * heads + h) * hd + j, ib = ia + pairs;
          const float a = x[ia].to_float(), b = x[ib].to_float();
          const float rh = (wrong_element && j == 1) ? b : -b;  // rotate_half: (-b, a)
          out[ia] = posenc::math::round_to<bfloat16>(static_cast<double>(bf(bf(a * c) + bf(rh * s)))).value;
          out[ib] = posenc::math::round_to<bfloat16>(static_cast<double>(bf(bf(b * c) + bf(a * s)))).value;
        }
      }
  }
};

// llama-2 at its 4096-token context, where a double angle is accurate to far better than a float ulp.
constexpr rope::config llama2_4k{.head_dim = 128, .rope_theta = 10000.0, .max_position_embeddings = 4096};
// The naive kernel's model: float data, its double cos/sin within a float ulp, products in double.
const pt::kernel_model naive_model{.table = pt::dtype::float32, .compute = pt::dtype::float64};
const pt::kernel_model posenc_float_model{.rounding = pt::table_rounding::correct};

// cases 0: 200, whatever the sanitizer build's divisor (the tightness figure needs them).
pt::check_options opts(const pt::kernel_model& m, int cases, const char* name) {
  pt::check_options o;
  o.model = m;
  o.max_success = cases == 0 ? 200 : samples(cases);
  o.name = name;
  return o;
}

// A buggy kernel is caught: the result fails, names `property` (when given), and shows a
// shrunk counterexample and the replay line.
void require_caught(const pt::check_result& r, const char* property = nullptr) {
  INFO(r.message);
  REQUIRE_FALSE(r.passed);
  CHECK(r.message.find("replay this case: RC_PARAMS=\"reproduce=") != std::string::npos);
  if (r.property != "pass-through") CHECK(r.message.find("ulps of") != std::string::npos);
  if (property != nullptr) CHECK(r.property == property);
}

}  // namespace

TEST_CASE("correct kernels pass check_rope_apply") {
  SECTION("a naive double rotate-half, float data") {
    pt::require_rope_apply<float>(naive_kernel{llama2_4k}, llama2_4k, opts(naive_model, 60, "naive"));
  }
  SECTION("posenc's apply on float tables, YaRN (attention factor), both layouts") {
    const rope::config c = rope::models::qwen2_5_7b_yarn;
    const pt::check_result r =
        pt::require_rope_apply<float>(posenc_kernel<float>{c}, c, opts(posenc_float_model, 40, "posenc_half"));
    std::printf("[posenc] posenc's float apply (table, products and sums in float): max |y~ - y| / B %.4f\n",
                r.worst_ratio);
    pt::check_options o = opts(posenc_float_model, 20, "posenc_interleaved");
    o.layout = rope::layout::interleaved;
    pt::require_rope_apply<float>(posenc_kernel<float>{rope::models::gpt_j, rope::layout::interleaved},
                                  rope::models::gpt_j, o);
  }
  SECTION("posenc's apply, dynamic NTK with seq_len unset (HF's rule per call), partial rotary") {
    const rope::config c{.head_dim = 64,
                         .partial_rotary_factor = 0.5,
                         .rope_type = rope::scaling::dynamic,
                         .factor = 4.0,
                         .max_position_embeddings = 2048};
    pt::check_options o = opts(posenc_float_model, 30, "posenc_dynamic");
    o.position_limit = 8192;
    pt::require_rope_apply<float>(posenc_kernel<float>{c}, c, o);
  }
  SECTION("posenc's apply with float16 storage (float table and arithmetic, one rounding at the store)") {
    const rope::config c = rope::models::llama3_2_1b;
    const pt::kernel_model m{.table = pt::dtype::float32,
                             .compute = pt::dtype::float32,
                             .rounding = pt::table_rounding::correct};  // D = float16
    pt::require_rope_apply<posenc::float16>(posenc_kernel<posenc::float16>{c}, c, opts(m, 30, "posenc_f16"));
  }
  SECTION("positions from a list: a StreamingLLM cache of 4 sinks and a window") {
    pt::check_options o = opts(naive_model, 30, "naive_list");
    o.positions = {0, 1, 2, 3, 4000, 4001, 4002, 4003, 4004, 4095};
    pt::require_rope_apply<float>(naive_kernel{llama2_4k}, llama2_4k, o);
  }
  SECTION("HF's bfloat16 order with bfloat16 tables and operations") {
    const rope::config c = rope::models::llama3_1_8b;
    const pt::kernel_model m{.rounding = pt::table_rounding::correct};  // D = T = C = bfloat16
    pt::require_rope_apply<bfloat16>(hf_bf16_kernel{c}, c, opts(m, 40, "hf_bf16"));
  }
}

TEST_CASE("check_rope_apply catches each bug of the gallery with a shrunk counterexample") {
  const auto naive = [](const bugs& b, const rope::config& c, const char* name) {
    return pt::check_rope_apply<float>(naive_kernel{c, rope::layout::half_split, b}, c, opts(naive_model, 100, name));
  };
  SECTION("sign flipped in one pair") { require_caught(naive({.flip_pair = 3}, llama2_4k, "flip"), "inverse"); }
  SECTION("interleaved and half-split mixed up") {
    require_caught(naive({.other_layout = true}, llama2_4k, "layout"), "inverse");
  }
  SECTION("positions off by one") { require_caught(naive({.pos_offset = 1}, llama2_4k, "off_by_one"), "inverse"); }
  SECTION("wrong base") {
    constexpr rope::config c{.head_dim = 64, .rope_theta = 500000.0, .max_position_embeddings = 4096};
    require_caught(naive({.base = 10000.0}, c, "base"), "inverse");
  }
  SECTION("angles in float16") { require_caught(naive({.angle_f16 = true}, llama2_4k, "angle_f16")); }
  SECTION("a sine accurate to 1e-4") { require_caught(naive({.sloppy_sin = true}, llama2_4k, "sloppy_sin")); }
  SECTION("pass-through dims rotated") {
    constexpr rope::config c{.head_dim = 64, .partial_rotary_factor = 0.25, .max_position_embeddings = 4096};
    require_caught(naive({.rotate_all = true}, c, "rotate_all"), "pass-through");
  }
  SECTION("attention factor missing (YaRN)") {
    rope::config c = rope::models::qwen2_5_7b_yarn;
    c.max_position_embeddings = 4096;
    require_caught(naive({.no_af = true}, c, "no_af"), "norm");
  }
  SECTION("positions wrapping at a cache size") {
    constexpr rope::config c{.head_dim = 64, .max_position_embeddings = 65536};
    require_caught(naive({.wrap = 4096}, c, "wrap"));
  }
  SECTION("a float32-angle pipeline at long context") {
    rope::config c = rope::models::llama3_1_8b;
    c.max_position_embeddings = 131072;
    require_caught(naive({.f32_angle = true}, c, "f32_angle"));
  }
  SECTION("a bfloat16 kernel with one wrong element") {
    const rope::config c = rope::models::llama3_1_8b;
    const pt::kernel_model m{.rounding = pt::table_rounding::correct};
    require_caught(pt::check_rope_apply<bfloat16>(hf_bf16_kernel{c, true}, c, opts(m, 100, "bf16_wrong")));
  }
}

TEST_CASE("the bound is tight: a correct kernel comes close to B, one a table ulp worse fails") {
  const rope::config c = rope::models::llama2_7b;
  const pt::kernel_model m{
      .table = pt::dtype::float32, .compute = pt::dtype::float64, .rounding = pt::table_rounding::correct};
  const pt::check_result ok = pt::check_rope_apply<float>(double_compute_kernel{c}, c, opts(m, 0, "tight"));
  INFO(ok.message);
  REQUIRE(ok.passed);
  std::printf(
      "[posenc] tightness: max |y~ - y| / B of a correct float-table, double-compute kernel over %d cases: %.4f\n",
      ok.cases, ok.worst_ratio);
  CHECK(ok.worst_ratio > 0.9);  // measured 0.996 to 0.9997 over 200 cases (docs/testing-kernels.md)
  require_caught(pt::check_rope_apply<float>(double_compute_kernel{c, true}, c, opts(m, 200, "one_ulp_worse")));
}

TEST_CASE("the generators: valid configs of every scaling, positions in range, finite values") {
  const auto r = rc::detail::checkTestable([] {
    const rope::config c = *pt::rope_configs();
    RC_ASSERT(rope::validate(c).ok());
    // random_config decodes an invalid draw to Llama-2's preset: none may, so the type is kept.
    const auto s = static_cast<rope::scaling>(*rc::gen::inRange(0, 7));
    RC_ASSERT((*pt::random_rope_configs(s)).rope_type == s);
    const std::int64_t limit = c.max_position_embeddings > 0 ? c.max_position_embeddings : std::int64_t{1} << 21;
    const std::int64_t m = *pt::rope_positions(c);
    RC_ASSERT(m >= 0);
    RC_ASSERT(m < limit);
    for (const bfloat16 v : *pt::element_vectors<bfloat16>(8)) RC_ASSERT(!v.is_nan() && !v.is_inf());
  });
  std::ostringstream o;
  rc::detail::printResultMessage(r, o);
  INFO(o.str());
  CHECK(r.is<rc::detail::SuccessResult>());
}

TEST_CASE("posenc's kernel passes on random configs of every scaling (rope_configs)") {
  const rc::Gen<rope::config> configs = pt::rope_configs();
  const std::uint64_t seed = rc::detail::configuration().testParams.seed;
  for (int i = 0; i < samples(8); ++i) {
    const rope::config c = configs(rc::Random({seed, static_cast<std::uint64_t>(i), 0, 0}), 100).value();
    INFO("config " << i << ": head_dim " << c.head_dim << ", rope_type " << static_cast<int>(c.rope_type)
                   << ", rotary dim " << posenc::rope::detail::rotary_dim(c) << " (seed " << seed << ")");
    pt::require_rope_apply<float>(posenc_kernel<float>{c}, c, opts(posenc_float_model, 8, "posenc_random_config"));
  }
}

TEST_CASE("check_rope_layouts: the same rotation in both layouts, and a kernel in the wrong one") {
  const rope::config c = llama2_4k;
  const pt::layout_pair lp{.a = rope::layout::half_split, .b = rope::layout::interleaved};
  const pt::check_result same = pt::check_rope_layouts<float>(
      naive_kernel{c}, naive_kernel{c, rope::layout::interleaved}, c, lp, opts(naive_model, 30, "layouts"));
  INFO(same.message);
  CHECK(same.passed);
  // B claims interleaved but rotates half-split pairs.
  require_caught(
      pt::check_rope_layouts<float>(naive_kernel{c}, naive_kernel{c, rope::layout::interleaved, {.other_layout = true}},
                                    c, lp, opts(naive_model, 30, "layouts_wrong")),
      "layout equivalence");
}

// The Catch2 form fails its test case (with the report as the failure's message): [!shouldfail]
// turns that failure into this test's pass, and would fail it if require_rope_apply passed.
TEST_CASE("require_rope_apply fails the test case that calls it on a buggy kernel", "[!shouldfail]") {
  pt::require_rope_apply<float>(naive_kernel{llama2_4k, rope::layout::half_split, {.pos_offset = 1}}, llama2_4k,
                                opts(naive_model, 20, "require_off_by_one"));
}

// B by hand (docs/testing-kernels.md's terms) at position 0 of a unit input: a = 1, b = 0, c = 1, s = 0.
TEST_CASE("rope_kernel_bound: ulp and B against values derived by hand") {
  using pt::dtype;
  CHECK(pt::ulp(dtype::float32, 1.0) == 0x1p-23);
  CHECK(pt::ulp(dtype::float32, 1.9999) == 0x1p-23);
  CHECK(pt::ulp(dtype::float32, 0.0) == 0x1p-149);       // 2^(e_min - p + 1)
  CHECK(pt::ulp(dtype::float32, 0x1p-140) == 0x1p-149);  // subnormal: e_min caps the exponent
  CHECK(pt::ulp(dtype::float64, 3.0) == 0x1p-51);
  CHECK(pt::ulp(dtype::bfloat16, 1.5) == 0x1p-7);
  CHECK(pt::ulp(dtype::bfloat16, 0.0) == 0x1p-133);
  CHECK(pt::ulp(dtype::float16, 0x1p-20) == 0x1p-24);
  CHECK(pt::ulp(dtype::float16, 1000.0) == 0x1p-1);
  constexpr double slack = 1 + 0x1p-40;
  // float everywhere, correct table: e_c = 2^-24, h1 = ulp(1 + 2^-24)/2 = 2^-24, h3 = 2^-24, and
  // e_s, h2 = 2^-150 vanish in the double sum: B = 3 2^-24.
  const pt::resolved_model f32 = pt::resolve({.rounding = pt::table_rounding::correct});
  CHECK(pt::element_bound(f32, 1.0, 0.0, 1.0, 0.0) == 0x3p-24 * slack);
  // Faithful: e_c = 2^-23, h1 = ulp(1 + 2^-23)/2 = 2^-24, h3 = ulp(1 + 2^-23 + 2^-24)/2 = 2^-24: B = 2^-22.
  const pt::resolved_model f32_faithful = pt::resolve({});
  CHECK(pt::element_bound(f32_faithful, 1.0, 0.0, 1.0, 0.0) == 0x1p-22 * slack);
  // bfloat16 result of a float computation: h4 = ulp_bf16(1 + ...)/2 = 2^-8 on top of the float terms.
  const pt::resolved_model bf16_out = pt::resolve({.data = dtype::bfloat16,
                                                   .table = dtype::float32,
                                                   .compute = dtype::float32,
                                                   .rounding = pt::table_rounding::correct});
  CHECK(pt::element_bound(bf16_out, 1.0, 0.0, 1.0, 0.0) == (0x1p-8 + 0x3p-24) * slack);
  // y_b = a s + b c with (a, b) = (0, 1): element_bound(m, a, b, s, c) is the same B by symmetry.
  CHECK(pt::rope_pair_bound(f32, 0.0, 1.0, 1.0, 0.0).b == 0x3p-24 * slack);
}

// Each law's checker on its own: the exact rotation rounded to float passes every law, and an
// output moved just past one law's bound fails that law (the gallery above meets mostly the
// inverse law first; this shows the others can fail too).
TEST_CASE("each law of a case passes the rounded exact rotation and fails just outside its bound") {
  namespace d = pt::detail;
  constexpr rope::config c{.head_dim = 8, .rope_theta = 10000.0, .max_position_embeddings = 4096};
  const pt::resolved_model m = pt::resolve({.rounding = pt::table_rounding::correct});
  const posenc::verify::rope_table_oracle oracle(c);
  const d::case_shape sh{2, 1, 8, 8, rope::layout::half_split};
  const auto make = [&](std::vector<std::int64_t> pos, std::unique_ptr<d::case_reference>& ref, d::call_data& k) {
    k.positions = pos;
    k.x = {1, -2, 0.5, 3, 0.25, 1.5, -1, 2, 2, 1, -0.5, 0.75, 1, 1, -3, 0.125};
    ref = std::make_unique<d::case_reference>(oracle, k.positions, 4);
    k.ref = ref.get();
    k.prepare(sh, m);
    k.y.clear();
    for (const double e : k.exact_d) k.y.push_back(static_cast<double>(static_cast<float>(e)));
  };
  std::unique_ptr<d::case_reference> r1, r2;
  d::call_data k1, k2;
  make({3, 10}, r1, k1);
  make({4, 11}, r2, k2);  // shifted by 1
  double worst = 0;
  REQUIRE_FALSE(d::check_norm(sh, k1, m.d));
  REQUIRE_FALSE(d::check_relative(sh, k1, k2, m.d));
  REQUIRE_FALSE(d::check_inverse(sh, k1, m.d));
  REQUIRE_FALSE(d::check_exact(sh, k1, m.d, worst));
  CHECK(worst <= 0.5);  // RN_float of the exact value: at most half an ulp, and B is more

  SECTION("exact: one element off by 2 B") {
    k1.y[0] += 2 * k1.bound[0];
    const auto f = d::check_exact(sh, k1, m.d, worst);
    REQUIRE(f);
    CHECK(f->property == pt::rope_property::exact);
  }
  SECTION("norm: token 0 scaled by 1 + 3 sqrt(sum B^2) / ||y||") {
    double b2 = 0, y2 = 0;
    for (std::size_t e = 0; e < 8; ++e) {
      b2 += k1.bound[e] * k1.bound[e];
      y2 += k1.y[e] * k1.y[e];
    }
    for (std::size_t e = 0; e < 8; ++e) k1.y[e] *= 1 + 3 * std::sqrt(b2 / y2);
    const auto f = d::check_norm(sh, k1, m.d);
    REQUIRE(f);
    CHECK(f->property == pt::rope_property::norm);
  }
  SECTION("inverse: one element off by 3 (B_a + B_b)") {
    k1.y[0] += 3 * (k1.bound[0] + k1.bound[4]);
    const auto f = d::check_inverse(sh, k1, m.d);
    REQUIRE(f);
    CHECK(f->property == pt::rope_property::inverse);
  }
  SECTION("relative position: the shifted call's token 1 moved along token 0 by 3 (E + E')") {
    const double e = d::score_bound(sh, k1, 0, 1, 0) + d::score_bound(sh, k2, 0, 1, 0);
    double n2 = 0;
    for (std::size_t i = 0; i < 8; ++i) n2 += k2.y[i] * k2.y[i];
    for (std::size_t i = 0; i < 8; ++i) k2.y[8 + i] += 3 * e * k2.y[i] / n2;  // score += 3 (E + E')
    const auto f = d::check_relative(sh, k1, k2, m.d);
    REQUIRE(f);
    CHECK(f->property == pt::rope_property::relative_position);
  }
}
