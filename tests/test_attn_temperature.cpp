// test_attn_temperature.cpp: Llama-4's attention temperature (attn_temperature/scale.hpp) against
// MPFR (attn_temperature_oracle.hpp) at 0 ULP in four types, at the step boundaries and far out; the
// published figures (pe-formulas-more.md section 3); the fill against the scalar; compile time
// against run time; the three laws, each shown failing on a corrupted table.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <span>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/attn_temperature.hpp"
#include "posenc/laws/require.hpp"
#include "posenc/verify/attn_temperature_oracle.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/random.hpp"

namespace {

namespace at = posenc::attn_temperature;
namespace laws = posenc::laws;
namespace v = posenc::verify;
using posenc::bfloat16;
using posenc::float16;

template <class T>
bool same(T a, T b) {
  return v::detail::to_bits64(a) == v::detail::to_bits64(b);
}

// Llama-4's: 8192 positions per step, slope 0.1 (HF Llama4TextConfig).
constexpr at::config llama4{};

// Compile time: a table across two steps of a short config, and Llama-4's first step.
constexpr auto ct_short = at::make_scales<float, 64>({.floor_scale = 8, .attn_scale = 0.1});
constexpr auto ct_step = at::make_scales<double, 8>(llama4, 8188);  // positions 8188 .. 8195
static_assert(ct_short.ok() && ct_step.ok());
static_assert(ct_step.value[2] == 1.0 && ct_step.value[3] > 1.0, "Llama-4's step is at p = 8191, not 8192");
static_assert(ct_short.value[6] == 1.0f && ct_short.value[7] != 1.0f, "floor_scale 8: the step is at p = 7");
static_assert(laws::require<laws::temperature_one_before_step(laws::temperature_table<float>{ct_short.value, 0, 8})>());
static_assert(laws::require<laws::temperature_monotone(laws::temperature_table<float>{ct_short.value, 0, 8})>());
static_assert(laws::require<laws::temperature_steps(laws::temperature_table<float>{ct_short.value, 0, 8})>());
static_assert(!at::validate({.floor_scale = 0}).ok() && !at::validate({.attn_scale = -0.5}).ok());
static_assert(at::scale<double>(llama4, -1).error == posenc::status::domain_error, "positions are 0-based");
static_assert(at::scale<double>({.attn_scale = 0.0}, 1 << 20).value == 1.0, "attn_scale 0: no temperature");

// Every dtype's RN of the oracle at (a, k) against scale<T>; counts misses.
struct oracle_check {
  std::uint64_t checked = 0, wrong = 0;
  void at_position(const at::config& c, std::int64_t p) {
    auto o = v::attn_temperature_value(c.attn_scale, v::attn_temperature_step(p, c.floor_scale));
    const auto one = [&](auto tag) {
      using T = decltype(tag);
      const T want = o.template round<T>();
      const auto got = at::scale<T>(c, p);
      ++checked;
      if (got.ok() && same(got.value, want)) return;
      if (++wrong <= 10)
        std::printf("  MISS p=%lld floor_scale=%lld attn_scale=%a in %d bytes: got %a want %a\n",
                    static_cast<long long>(p), static_cast<long long>(c.floor_scale), c.attn_scale,
                    static_cast<int>(sizeof(T)), v::detail::to_double(got.value), v::detail::to_double(want));
    };
    one(double{});
    one(float{});
    one(bfloat16{});
    one(float16{});
  }
};

}  // namespace

TEST_CASE("attn_temperature: the same bits at compile time and at run time", "[attn_temperature]") {
  volatile std::int64_t f = 8;
  std::vector<float> rt(64);
  REQUIRE(at::fill_scales<float>({.floor_scale = f, .attn_scale = 0.1}, 0, std::span<float>(rt)) == posenc::status::ok);
  for (std::size_t i = 0; i < rt.size(); ++i) CHECK(same(rt[i], ct_short.value[i]));
  std::vector<double> rd(8);
  REQUIRE(at::fill_scales<double>(llama4, 8188, std::span<double>(rd)) == posenc::status::ok);
  for (std::size_t i = 0; i < rd.size(); ++i) CHECK(same(rd[i], ct_step.value[i]));
}

TEST_CASE("attn_temperature: correctly rounded in four types at the steps and far out", "[attn_temperature][oracle]") {
  oracle_check c;
  // Llama-4's boundaries, then every step edge up to 2^21, then far positions up to 2^52.
  for (const std::int64_t p : {0, 1, 8190, 8191, 8192, 16382, 16383, 16384, 32766, 32767, 131071, 1048575, 10485759})
    c.at_position(llama4, p);
  for (std::int64_t k = 1; k * 8192 <= (std::int64_t{1} << 21); ++k)
    for (const std::int64_t d : {-2, -1, 0}) c.at_position(llama4, k * 8192 + d);
  for (int e = 21; e <= 52; ++e)
    for (const std::int64_t d : {-2, -1, 0}) c.at_position(llama4, (std::int64_t{1} << e) + d);
  // Other steps and slopes: short steps (many logs), binary and decimal slopes, random positions.
  v::rng g(v::seed_for("attn_temperature"));
  for (int i = 0; i < 1500; ++i) {
    const at::config cfg{
        .floor_scale = static_cast<std::int64_t>(1 + g.below(1u << 16)),
        .attn_scale = i % 3 == 0 ? 0.375 : (i % 3 == 1 ? 0.1 : static_cast<double>(g.below(1000)) / 997)};
    c.at_position(cfg, static_cast<std::int64_t>(g.below(std::uint64_t{1} << (i % 2 == 0 ? 24 : 52))));
  }
  std::printf("[attn_temperature] %llu values, %llu not correctly rounded\n",
              static_cast<unsigned long long>(c.checked), static_cast<unsigned long long>(c.wrong));
  CHECK(c.checked > 8000);
  REQUIRE(c.wrong == 0);
}

TEST_CASE("attn_temperature: the published figures, to 6 decimals", "[attn_temperature]") {
  // pe-formulas-more.md section 3 (computed there from HF's expression): p 0 .. 8190 give 1.0.
  struct figure {
    std::int64_t p;
    double scale;
  };
  const figure figures[] = {{8191, 1.069315},   {16383, 1.109861},   {32767, 1.160944},
                            {131071, 1.283321}, {1048575, 1.485981}, {10485759, 1.715540}};
  const auto near = [](double got, double published) { return std::fabs(got - published) <= 0.5e-6; };
  for (const figure& f : figures) {
    INFO("p = " << f.p);
    CHECK(near(at::scale<double>(llama4, f.p).value, f.scale));
    // The check can fail: one position earlier is the previous step.
    CHECK(!near(at::scale<double>(llama4, f.p - 1).value, f.scale));
  }
  std::vector<double> first(8191);
  REQUIRE(at::fill_scales<double>(llama4, 0, std::span<double>(first)) == posenc::status::ok);
  std::size_t not_one = 0;
  for (const double s : first) not_one += s != 1.0;
  CHECK(not_one == 0);
}

TEST_CASE("attn_temperature: fill_scales equals scale at every position, across steps", "[attn_temperature]") {
  for (const std::int64_t f : {1, 2, 3, 7, 8192}) {
    const at::config cfg{.floor_scale = f, .attn_scale = 0.1};
    for (const std::int64_t start : {std::int64_t{0}, std::int64_t{5}, f - 1, 3 * f + 1, (std::int64_t{1} << 31) - 3}) {
      std::vector<float> t(300);
      REQUIRE(at::fill_scales<float>(cfg, start, std::span<float>(t)) == posenc::status::ok);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < t.size(); ++i)
        wrong += !same(t[i], at::scale<float>(cfg, start + static_cast<std::int64_t>(i)).value);
      INFO("floor_scale " << f << ", start " << start);
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("attn_temperature: broken preconditions and positions are errors, never NaN or inf", "[attn_temperature]") {
  std::vector<double> t(4);
  CHECK(at::fill_scales<double>({.floor_scale = 0}, 0, std::span<double>(t)) == posenc::status::domain_error);
  CHECK(at::fill_scales<double>({.attn_scale = std::numeric_limits<double>::quiet_NaN()}, 0, std::span<double>(t)) ==
        posenc::status::domain_error);
  CHECK(at::fill_scales<double>({.attn_scale = std::numeric_limits<double>::infinity()}, 0, std::span<double>(t)) ==
        posenc::status::domain_error);
  CHECK(at::validate({.attn_scale = -0.1}).message == std::string("attn_scale must be finite and >= 0"));
  CHECK(at::validate({.floor_scale = -3}).message == std::string("floor_scale must be in [1, 2^53]"));
  CHECK(at::fill_scales<double>(llama4, -1, std::span<double>(t)) == posenc::status::domain_error);
  CHECK(at::fill_scales<double>(llama4, at::max_position - 2, std::span<double>(t)) == posenc::status::domain_error);
  CHECK(at::fill_scales<double>(llama4, at::max_position - 3, std::span<double>(t)) == posenc::status::ok);
  // A slope whose scale passes float16's 65504: overflow, not an infinity in the table.
  CHECK(at::scale<float16>({.floor_scale = 1, .attn_scale = 1e5}, 10).error == posenc::status::overflow);
  CHECK(at::scale<double>({.floor_scale = 1, .attn_scale = 1e308}, 10).error == posenc::status::overflow);
  CHECK(at::scale<float>({.floor_scale = 1, .attn_scale = 1e5}, 10).ok());
}

TEST_CASE("attn_temperature laws: each fails on a corrupted table", "[attn_temperature][laws]") {
  const at::config cfg{.floor_scale = 16, .attn_scale = 0.25};
  std::vector<bfloat16> good(200);
  REQUIRE(at::fill_scales<bfloat16>(cfg, 0, std::span<bfloat16>(good)) == posenc::status::ok);
  const auto view = [](const std::vector<bfloat16>& t) { return laws::temperature_table<bfloat16>{t, 0, 16}; };
  CHECK(laws::temperature_one_before_step(view(good)).holds);
  CHECK(laws::temperature_monotone(view(good)).holds);
  CHECK(laws::temperature_steps(view(good)).holds);
  CHECK(laws::temperature_one_before_step(view(good)).checked == 15);

  auto early = good;  // the first step one position early (at p = 14): HF's +1 forgotten the other way
  early[14] = early[15];
  const auto r1 = laws::temperature_one_before_step(view(early));
  CHECK(!r1.holds);
  CHECK(r1.first_failure.position == 14);

  auto dip = good;  // a later step below the one before it
  dip[100] = good[40];
  const auto r2 = laws::temperature_monotone(view(dip));
  CHECK(!r2.holds);
  CHECK(r2.first_failure.position == 100);

  auto late = good;  // the step at p = 47 taken at 48 (positions counted from 1, as HF does not)
  late[47] = good[46];
  const auto r3 = laws::temperature_steps(view(late));
  CHECK(!r3.holds);
  CHECK(r3.first_failure.position == 48);
  CHECK(laws::temperature_monotone(view(late)).holds);  // still monotone: only the steps law sees it

  // A table described with the wrong step length fails too.
  CHECK(!laws::temperature_steps(laws::temperature_table<bfloat16>{good, 0, 15}).holds);
  CHECK(!laws::temperature_steps(laws::temperature_table<bfloat16>{good, -1, 16}).holds);  // invalid description
}
