// test_rope_laws.cpp: every law checker of posenc/verify/laws/ on every config of the Hana registry
// (posenc/verify/registry.hpp) that it applies to, on Catch2 random generators (seed printed;
// POSENC_SEED overrides) plus fixed edge positions; then proofs that each checker can fail.
// The figures (worst value / bound per law over all configs) are printed at the end.
#include <catch2/catch.hpp>

#include <boost/hana/for_each.hpp>
#include <boost/hana/length.hpp>

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "posenc/verify/catch2.hpp"
#include "posenc/math/round.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/verify/laws/composition.hpp"
#include "posenc/verify/laws/decreasing.hpp"
#include "posenc/verify/laws/layout.hpp"
#include "posenc/verify/laws/llama3_bands.hpp"
#include "posenc/verify/laws/long_range_decay.hpp"
#include "posenc/verify/laws/norm.hpp"
#include "posenc/verify/laws/orthogonality.hpp"
#include "posenc/verify/laws/pass_through.hpp"
#include "posenc/verify/laws/relative_dot.hpp"
#include "posenc/verify/laws/yarn_ramp.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"
#include "posenc/verify/registry.hpp"

namespace {

namespace hana = boost::hana;
namespace rope = posenc::rope;
namespace reg = posenc::verify::registry;
namespace laws = posenc::verify::laws;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

// The registry's shape and traits, checked at compile time (Catch's decomposer and Hana's
// comparison operators do not mix: design.md section 5).
static_assert(decltype(hana::length(reg::variants))::value == 10, "ten RoPE variants");
static_assert(decltype(hana::length(reg::curated))::value == 10, "ten curated configs");
static_assert(decltype(hana::length(reg::all))::value == 20, "all = variants + curated");
static_assert(reg::applies_v<reg::configs::yarn, reg::law::yarn_ramp>, "YaRN has the ramp law");
static_assert(!reg::applies_v<reg::configs::llama3, reg::law::yarn_ramp>, "the ramp law is YaRN's only");
static_assert(reg::applies_v<reg::configs::llama31_8b, reg::law::llama3_bands>, "Llama-3.1 has three bands");
static_assert(!reg::applies_v<reg::configs::longrope, reg::law::inv_freq_decreasing>, "LongRoPE is not monotone");
static_assert(!reg::applies_v<reg::configs::proportional, reg::law::inv_freq_decreasing>, "proportional has zeros");
static_assert(reg::applies_v<reg::configs::gptj, reg::law::pass_through>, "GPT-J rotates 64 of 256");
static_assert(!reg::applies_v<reg::configs::llama2_7b, reg::law::pass_through>, "Llama-2 rotates everything");
static_assert(decltype(reg::applies(hana::type_c<reg::configs::phi3_long>, hana::type_c<reg::law::orthogonality>))::value,
              "every config has the rotation laws");

using posenc::verify::seeds;  // Catch2 seed generator (posenc/verify/catch2.hpp)

// Worst figures per law over the whole run, printed by the last test case.
std::map<std::string, laws::law_report>& totals() {
  static std::map<std::string, laws::law_report> t;
  return t;
}
// tag: the types involved (table type, storage/table), so that the figures are per format.
void record(const char* name, const laws::law_report& r, const std::string& tag = "") {
  INFO(name << " " << tag << ": " << r.summary());
  CHECK(r.passed);
  CHECK(r.cases > 0);
  const std::string key = tag.empty() ? r.law : r.law + " [" + tag + "]";
  auto [it, fresh] = totals().try_emplace(key, laws::make_report(key.c_str()));
  (void)fresh;
  it->second.merge(r);
}

// Random element: sign-mixed magnitude in [2^-4, 2^4] (test_rope_apply.cpp's distribution).
template <class S>
S random_elem(v::rng& r) {
  const double mag = std::exp2(r.uniform(-4, 4));
  const double x = (r.next() & 1) != 0 ? -mag : mag;
  if constexpr (std::is_same_v<S, double>) return x;
  else if constexpr (std::is_same_v<S, float>) return static_cast<float>(x);
  else return posenc::math::round_to<S>(x).value;
}
template <class S>
std::vector<S> random_vec(v::rng& r, std::size_t n) {
  std::vector<S> x(n);
  for (auto& e : x) e = random_elem<S>(r);
  return x;
}

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, bfloat16>) return "bfloat16";
  else return "float16";
}

constexpr std::size_t rows = 16;
// Table positions: the edges 0, 1 and 2^21 (max_table_position), the rest random below 2^21.
std::array<std::uint64_t, rows> table_positions(v::rng& r) {
  std::array<std::uint64_t, rows> p{0, 1, rope::max_table_position};
  for (std::size_t i = 3; i < rows; ++i) p[i] = r.below(rope::max_table_position);
  return p;
}

template <class T, std::size_t D>
void table_laws(const char* name, const rope::config& c, const std::array<std::uint64_t, rows>& pos) {
  const auto hs = std::make_unique<posenc::result<rope::table<T, rows, D, rope::layout::half_split>>>(
      rope::make_table<T, rows, D, rope::layout::half_split>(c, pos));
  const auto il = std::make_unique<posenc::result<rope::table<T, rows, D, rope::layout::interleaved>>>(
      rope::make_table<T, rows, D, rope::layout::interleaved>(c, pos));
  INFO(name);
  REQUIRE(hs->ok());
  REQUIRE(il->ok());
  record(name, laws::check_orthogonality(hs->value), type_name<T>());
  record(name, laws::check_table_layouts(il->value, hs->value));
}

template <class S, class TT>
void kernel_laws(const char* name, const rope::config& c, v::rng& r, bool partial) {
  const std::size_t d = static_cast<std::size_t>(rope::rotary_dim(c));
  const std::size_t head_dim = static_cast<std::size_t>(c.head_dim), heads = 2;
  const std::uint64_t m = r.below(rope::max_table_position);
  std::vector<S> x = random_vec<S>(r, heads * head_dim);
  const rope::layout lay = (r.next() & 1) != 0 ? rope::layout::interleaved : rope::layout::half_split;
  const std::string tag = "storage " + type_name<S>() + ", table " + type_name<TT>();
  record(name, laws::check_norm_preservation<S, TT>(c, x, heads, head_dim, lay, m), tag);
  record(name, laws::check_rotate_then_permute<S, TT>(c, x, heads, head_dim, m));
  if (!partial) return;
  using L = std::numeric_limits<float>;  // specials in the pass-through part
  const float specials[] = {-0.0f, L::quiet_NaN(), L::infinity(), -L::infinity(), L::denorm_min()};
  for (const float sp : specials) {
    const std::size_t k = r.below(heads) * head_dim + d + r.below(head_dim - d);
    if constexpr (std::is_same_v<S, float>) x[k] = sp;
    else x[k] = posenc::math::round_to<S>(static_cast<double>(sp)).value;
  }
  record(name, laws::check_pass_through<S>(c, x, heads, head_dim, lay, m));
}

template <class Config>
void run_config(std::uint64_t seed) {
  constexpr rope::config c = Config::config;
  static_assert(rope::validate(c).ok(), "registry config must be valid");
  constexpr std::size_t D = static_cast<std::size_t>(rope::rotary_dim(c));
  const char* name = Config::name;
  v::rng r(seed ^ v::seed_for(name));
  using reg::applies_v;
  namespace law = reg::law;
  const auto pos = table_positions(r);
  if constexpr (applies_v<Config, law::orthogonality> || applies_v<Config, law::layout_equivalence>) {
    table_laws<double, D>(name, c, pos);
    table_laws<float, D>(name, c, pos);
    table_laws<bfloat16, D>(name, c, pos);
    table_laws<float16, D>(name, c, pos);
  }
  if constexpr (applies_v<Config, law::norm_preservation> || applies_v<Config, law::pass_through>) {
    constexpr bool partial = applies_v<Config, law::pass_through>;
    kernel_laws<float, float>(name, c, r, partial);
    kernel_laws<double, double>(name, c, r, partial);
    kernel_laws<bfloat16, float>(name, c, r, partial);
    kernel_laws<bfloat16, bfloat16>(name, c, r, partial);
    kernel_laws<float16, float>(name, c, r, partial);
  }
  if constexpr (applies_v<Config, law::relative_dot> || applies_v<Config, law::composition>) {
    const laws::exact_rows ex(c);
    const std::vector<double> q = random_vec<double>(r, D), k = random_vec<double>(r, D);
    const std::uint64_t m = r.below(std::uint64_t{1} << 20), n = m + r.below(std::uint64_t{1} << 20);
    record(name, laws::check_relative_dot<float>(c, ex, q, k, m, n), "table float");
    record(name, laws::check_relative_dot<bfloat16>(c, ex, q, k, m, n), "table bfloat16");
    record(name, laws::check_relative_dot_exact(ex, q, k, m, n));
    record(name, laws::check_composition_exact(ex, q, m, n - m));
    record(name, laws::check_composition<double>(c, q, m, n - m), "table double");
    record(name, laws::check_composition<float16>(c, q, m, n - m), "table float16");
  }
  if constexpr (applies_v<Config, law::inv_freq_decreasing>) record(name, laws::check_inv_freq_decreasing(c));
  if constexpr (applies_v<Config, law::yarn_ramp>) record(name, laws::check_yarn_ramp(c));
  if constexpr (applies_v<Config, law::llama3_bands>) record(name, laws::check_llama3_bands(c));
}

}  // namespace

TEST_CASE("every law on every config of the registry it applies to", "[rope][laws]") {
  const std::uint64_t s = GENERATE(take(10, seeds("rope_laws")));
  hana::for_each(reg::all, [s](auto t) { run_config<typename decltype(t)::type>(s); });
}

TEST_CASE("RoFormer long-term decay on the configs it applies to", "[rope][laws]") {
  const std::uint64_t s = GENERATE(take(1, seeds("rope_decay")));
  hana::for_each(reg::all, [s](auto t) {
    using S = typename decltype(t)::type;
    if constexpr (reg::applies_v<S, reg::law::long_range_decay>) {
      v::rng r(s);
      std::vector<std::complex<double>> h(static_cast<std::size_t>(rope::rotary_dim(S::config) / 2));
      for (auto& e : h) e = {r.uniform(-1, 1), r.uniform(-1, 1)};
      laws::decay_figures fig;
      record(S::name, laws::check_long_range_decay(S::config, h, 13, 8, &fig));
      std::printf("[rope_laws] %s: A(0) = %.4g; octave means of A(r):", S::name, fig.a0);
      for (double m : fig.octave_mean) std::printf(" %.4g", m);
      std::printf("\n");
    }
  });
}

// Each checker must be able to fail: feed it a mutated scratch copy (or a config outside its
// traits) and require a failure with a counterexample.
TEST_CASE("the checkers report violations", "[rope][laws]") {
  constexpr rope::config c = reg::configs::default_rope::config;
  const std::array<std::uint64_t, rows> pos{0, 1, 2, 3, 100, 1000, 4096, 65536};
  auto hs = std::make_unique<posenc::result<rope::table<float, rows, 128, rope::layout::half_split>>>(
      rope::make_table<float, rows, 128, rope::layout::half_split>(c, pos));
  auto il = std::make_unique<posenc::result<rope::table<float, rows, 128, rope::layout::interleaved>>>(
      rope::make_table<float, rows, 128, rope::layout::interleaved>(c, pos));
  REQUIRE(hs->ok());
  REQUIRE(laws::check_orthogonality(hs->value).passed);
  REQUIRE(laws::check_table_layouts(il->value, hs->value).passed);
  hs->value.cos[5] = 1.0f + 0x1p-20f;  // position 0: cos = 1 -> |c^2 + s^2 - 1| = 2^-19 > 2^-23
  const auto o = laws::check_orthogonality(hs->value);
  CHECK(!o.passed);
  CHECK(o.failures == 1);
  CHECK(o.counterexample.find("position 0 pair 5") != std::string::npos);
  il->value.sin[3 * 128 + 17] = std::nextafter(il->value.sin[3 * 128 + 17], 2.0f);  // one ulp
  CHECK(!laws::check_table_layouts(il->value, hs->value).passed);

  // Relative dot / composition against exact rows of a mutated config (base 10001).
  rope::config wrong = c;
  wrong.rope_theta = 10001.0;
  const laws::exact_rows ex_wrong(wrong);
  v::rng r(v::seed_for("mutations"));
  const std::vector<double> q = random_vec<double>(r, 128), k = random_vec<double>(r, 128);
  const auto rd = laws::check_relative_dot<float>(c, ex_wrong, q, k, 1000, 5000);
  CHECK(!rd.passed);
  CHECK(rd.counterexample.find("rounded table") != std::string::npos);
  const laws::exact_rows ex(c);
  CHECK(laws::check_relative_dot<float>(c, ex, q, k, 1000, 5000).passed);
  CHECK(laws::check_relative_dot_exact(ex, q, k, 1000, 5000).passed);
  CHECK(laws::check_composition_exact(ex, q, 1000, 5000).passed);
  laws::exact_rows ex_bad(c);  // a scratch copy with one entry off by 2^-200
  ex_bad.perturb_cos0 = boost::multiprecision::ldexp(v::exact_real(1), -200);
  CHECK(!laws::check_relative_dot_exact(ex_bad, q, k, 1000, 5000).passed);
  CHECK(!laws::check_composition_exact(ex_bad, q, 1000, 5000).passed);
  // Norm preservation: an infinite element (no finite bound holds) is reported, not skipped.
  std::vector<float> x = random_vec<float>(r, 128);
  CHECK(laws::check_norm_preservation<float, float>(c, x, 1, 128, rope::layout::half_split, 77).passed);
  x[3] = std::numeric_limits<float>::infinity();
  CHECK(!laws::check_norm_preservation<float, float>(c, x, 1, 128, rope::layout::half_split, 77).passed);
  // Outside their traits the frequency laws fail: LongRoPE is not monotone, the ramp and bands
  // need their scaling, the decay's octave means level off past r ~ base.
  CHECK(!laws::check_inv_freq_decreasing(reg::configs::longrope::config).passed);
  CHECK(!laws::check_yarn_ramp(reg::configs::llama3::config).passed);
  CHECK(!laws::check_llama3_bands(reg::configs::default_rope::config).passed);
  const std::vector<std::complex<double>> none;
  CHECK(!laws::check_long_range_decay(c, none, 15, 8).passed);  // D1 claimed up to 2^15: false
  CHECK(!laws::check_long_range_decay(c, none, 2, 10).passed);  // D2 claimed up to 2^10: false
}

TEST_CASE("law figures: worst value / bound over all configs", "[rope][laws]") {
  for (const auto& [law, rep] : totals()) std::printf("[rope_laws] %s\n", rep.summary().c_str());
  CHECK(!totals().empty());
  // The rounding-error bounds are tight: the worst case of the run reaches a fair part of each, so
  // a bound weakened 30x or more shows here as well as in test_law_checkers.cpp's pins. Seen
  // (seeded runs): orthogonality ~0.70, norm 0.19-0.55, composition ~0.28, relative dot ~0.10.
  int tight = 0;
  for (const auto& [law, rep] : totals()) {
    const bool rounding_law = law.rfind("orthogonality", 0) == 0 || law.rfind("norm preservation", 0) == 0 ||
                              law.rfind("composition R~", 0) == 0 || law.rfind("relative position <R~", 0) == 0;
    if (!rounding_law) continue;
    INFO(rep.summary());
    CHECK(rep.worst_ratio >= 0.03);
    CHECK(rep.worst_ratio <= 1.0);
    ++tight;
  }
  CHECK(tight == 13);  // 4 orthogonality dtypes, 5 kernel storage/table pairs, 2 + 2 table laws
}
