// test_rope_laws.cpp: every law checker of posenc/verify/law_measures/ on every config of the Hana registry
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

#include "posenc/math/round.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/rope/table.hpp"
#include "posenc/verify/catch2.hpp"
#include "posenc/verify/law_measures/composition.hpp"
#include "posenc/verify/law_measures/decreasing.hpp"
#include "posenc/verify/law_measures/layout.hpp"
#include "posenc/verify/law_measures/llama3_bands.hpp"
#include "posenc/verify/law_measures/long_range_decay.hpp"
#include "posenc/verify/law_measures/norm.hpp"
#include "posenc/verify/law_measures/orthogonality.hpp"
#include "posenc/verify/law_measures/pass_through.hpp"
#include "posenc/verify/law_measures/relative_dot.hpp"
#include "posenc/verify/law_measures/table_laws.hpp"
#include "posenc/verify/law_measures/yarn_ramp.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"
#include "posenc/verify/registry.hpp"

namespace {

namespace hana = boost::hana;
namespace rope = posenc::rope;
namespace reg = posenc::verify::registry;
namespace laws = posenc::verify::law_measures;
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
static_assert(!reg::applies_v<reg::configs::longrope, reg::law::monotone_frequencies>, "LongRoPE is not monotone");
static_assert(!reg::applies_v<reg::configs::proportional, reg::law::monotone_frequencies>, "proportional has zeros");
static_assert(reg::applies_v<reg::configs::gptj, reg::law::pass_through>, "GPT-J rotates 64 of 256");
static_assert(!reg::applies_v<reg::configs::llama2_7b, reg::law::pass_through>, "Llama-2 rotates everything");
static_assert(decltype(reg::applies(hana::type_c<reg::configs::phi3_long>, hana::type_c<reg::law::unit_norm>))::value,
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
  if constexpr (std::is_same_v<S, double>)
    return x;
  else if constexpr (std::is_same_v<S, float>)
    return static_cast<float>(x);
  else
    return posenc::math::round_to<S>(x).value;
}
template <class S>
std::vector<S> random_vec(v::rng& r, std::size_t n) {
  std::vector<S> x(n);
  for (auto& e : x) e = random_elem<S>(r);
  return x;
}

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, bfloat16>)
    return "bfloat16";
  else
    return "float16";
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
    if constexpr (std::is_same_v<S, float>)
      x[k] = sp;
    else
      x[k] = posenc::math::round_to<S>(static_cast<double>(sp)).value;
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
  if constexpr (applies_v<Config, law::unit_norm> || applies_v<Config, law::layout_equivalence>) {
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
  if constexpr (applies_v<Config, law::monotone_frequencies>) record(name, laws::check_inv_freq_decreasing(c));
  if constexpr (applies_v<Config, law::yarn_ramp>) record(name, laws::check_yarn_ramp(c));
  if constexpr (applies_v<Config, law::llama3_bands>) record(name, laws::check_llama3_bands(c));
}

}  // namespace

TEST_CASE("every law on every config of the registry it applies to", "[rope][laws]") {
  const std::uint64_t s = GENERATE(take(10, seeds("rope_laws")));
  hana::for_each(reg::all, [s](auto t) { run_config<typename decltype(t)::type>(s); });
}

namespace {

// The core's laws (posenc/laws/: the definitions a user static_asserts) run at run time by the
// verify layer on each config's table, 2048 positions (double: 512) in every dtype, the first seed
// from position 0 (so that identity at 0 is not vacuous), the others at a random start: every law
// the registry applies to the config runs and holds, and the rest are skipped for the registry's
// reason. The matrix of which laws ran on which config is printed.
std::map<std::string, std::string>& ran_matrix() {
  static std::map<std::string, std::string> m;
  return m;
}

template <class T>
void core_laws_on(const char* name, const rope::config& c, std::uint64_t start, std::size_t n_rows) {
  posenc::status st{};
  const auto out = laws::check_rope_table<T>(c, start, n_rows, &st);
  INFO(name << " [" << type_name<T>() << "] start " << start);
  REQUIRE(st == posenc::status::ok);
  REQUIRE(out.size() == decltype(hana::length(reg::every_law))::value);
  std::string ran, not_applicable;
  for (const auto& o : out) {
    if (!o.ran && std::string(o.skipped) == "does not apply to this config")
      not_applicable += std::string(not_applicable.empty() ? "" : ", ") + o.law;
    INFO(o.law << ": " << (o.ran ? posenc::laws::to_string(o.result) : std::string("skipped: ") + o.skipped));
    if (!o.ran) continue;
    CHECK(o.result.holds);
    // From position 0 every law that ran read some cases; from elsewhere identity at 0 and
    // composition (which needs rows at m, n and m + n) may have none.
    const std::string law = o.law;
    if (start == 0 || (law != "identity at 0" && law != "composition")) CHECK(!o.vacuous());
    ran += std::string(ran.empty() ? "" : ", ") + o.law + (o.vacuous() ? " (vacuous)" : "");
  }
  if (start == 0) ran_matrix()[name] = ran + "; not applicable: " + (not_applicable.empty() ? "none" : not_applicable);
}

template <class Config>
void core_laws_for(v::rng& r, bool from_zero) {
  constexpr rope::config c = Config::config;
  const std::size_t n_rows = 2048, n_rows_double = 512;
  const std::uint64_t start = from_zero ? 0 : r.below(rope::max_table_position - n_rows + 1);
  core_laws_on<float>(Config::name, c, start, n_rows);
  core_laws_on<bfloat16>(Config::name, c, start, n_rows);
  core_laws_on<float16>(Config::name, c, start, n_rows);
  core_laws_on<double>(Config::name, c, start, n_rows_double);
}

}  // namespace

TEST_CASE("the core laws at run time on every config's tables, as the registry applies them", "[rope][laws]") {
  const std::uint64_t s = GENERATE(take(2, seeds("rope_core_laws")));
  static bool first = true;
  const bool from_zero = first;
  first = false;
  v::rng r(s);
  hana::for_each(reg::all, [&](auto t) { core_laws_for<typename decltype(t)::type>(r, from_zero); });
}

TEST_CASE("the run-time law runner reports a corrupted table", "[rope][laws]") {
  constexpr rope::config c = reg::configs::llama31_8b::config;
  const std::size_t d = 128, n_rows = 300;
  std::vector<float> hc(n_rows * d), hs(n_rows * d);
  REQUIRE(rope::fill_table<float>(c, std::span<float>(hc), std::span<float>(hs), rope::layout::half_split,
                                  {.start = 5000}) == posenc::status::ok);
  const posenc::laws::span_table<float> t{hc, hs, d, rope::layout::half_split, 5000};
  const reg::table_case<posenc::laws::span_table<float>> tc{t, nullptr, c, d};
  REQUIRE(laws::all_held(laws::run_table_laws(tc)));
  // Position 5123, element 70 (pair 6 of the half-split row): cos one ulp up. Its pair copy at
  // element 6 keeps the true value, so exactness and pair copies fail there; unit norm (a 1-ulp
  // change stays inside 2u + u^2) and the rest hold.
  const std::size_t row = 123, k = 70;
  hc[row * d + k] = std::nextafter(hc[row * d + k], 2.0f);
  const auto out = laws::run_table_laws(tc);
  CHECK(!laws::all_held(out));
  for (const auto& o : out) {
    INFO(o.law << ": " << posenc::laws::to_string(o.result));
    const std::string law = o.law;
    if (law == "exactness" || law == "pair copies") {
      REQUIRE(o.ran);
      CHECK(!o.result.holds);
      CHECK(o.result.first_failure.position == 5123);
      CHECK(o.result.first_failure.pair == 6);
    } else if (law == "layout equivalence") {
      CHECK(!o.ran);
      CHECK(std::string(o.skipped) == "needs the table in the other layout");
    } else if (law == "YaRN ramp" || law == "long-range decay") {
      CHECK(!o.ran);
    }
  }
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
  for (const auto& [config, ran] : ran_matrix())
    std::printf("[rope_laws] core laws run on %s: %s\n", config.c_str(), ran.c_str());
  CHECK(ran_matrix().size() == decltype(hana::length(reg::all))::value);
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
