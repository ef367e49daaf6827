// test_relative_positions.cpp: Shaw et al.'s clipped indices and Transformer-XL's / XLNet's
// relative sinusoid positions, each against its framework's definition written out here (ranges
// built the way torch.arange builds them), the sinusoid table against MPFR, and the laws.
#include <cstdint>
#include <cstdio>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/shaw.hpp"
#include "posenc/transformer_xl.hpp"
#include "posenc/verify/mpfr.hpp"
#include "posenc/verify/shaw_oracle.hpp"
#include "posenc/verify/transformer_xl_oracle.hpp"

namespace {

namespace sh = posenc::shaw;
namespace xl = posenc::transformer_xl;
namespace v = posenc::verify;

// The position sequences as the two code bases build them: verify/transformer_xl_oracle.hpp.
std::vector<std::int64_t> framework_positions(const xl::config& c) { return v::transformer_xl_positions(c); }

}  // namespace

static_assert(sh::relative_index(sh::config{}, 5, 3).value == 18, "clip(3 - 5, -20, 20) + 20");
static_assert(sh::relative_index(sh::config{}, 0, 1000).value == 40 &&
              sh::relative_index(sh::config{}, 1000, 0).value == 0);
static_assert(!sh::validate({.max_relative_position = 0}).ok(),
              "a bad config is a value for validate, a compile error for a generator");
static_assert(xl::position({.d_model = 8, .klen = 6, .qlen = 3, .clamp_len = 4}, 0).value == 4,
              "Transformer-XL clamps");

TEST_CASE("shaw: the clipped relative index and its laws", "[shaw]") {
  std::uint64_t broken = 0;
  for (const int k : {1, 2, 20, 64})
    for (std::int64_t q = -70; q <= 70; q += 7)
      for (std::int64_t key = -100; key <= 100; ++key) {
        const int got = sh::relative_index({.max_relative_position = k}, q, key).value;
        const std::int64_t want = v::shaw_oracle_index(k, q, key);  // t2t: clip(j - i), then + k
        const int next = sh::relative_index({.max_relative_position = k}, q, key + 1).value;
        // bounded in [0, 2k]; monotone in key - query; saturating at both ends
        if (got != want || got < 0 || got > 2 * k || next < got || (key - q >= k && got != 2 * k)) ++broken;
      }
  CHECK(sh::relative_index({}, INT64_MAX, INT64_MIN).value == 0);  // no overflow in key - query
  REQUIRE(broken == 0);
}

TEST_CASE("transformer_xl / xlnet: the relative positions, as the frameworks build them", "[transformer_xl]") {
  std::uint64_t checked = 0, wrong = 0;
  for (const auto m : {xl::model::transformer_xl, xl::model::xlnet})
    for (const auto at : {xl::attention::bi, xl::attention::uni})
      for (const bool bi_data : {false, true})
        for (const std::int64_t clamp : {std::int64_t{-1}, std::int64_t{3}, std::int64_t{100}})
          for (const std::int64_t klen : {1, 5, 64})
            for (const std::int64_t qlen : {std::int64_t{0}, std::int64_t{1}, klen}) {
              const xl::config c{.d_model = 4,
                                 .klen = klen,
                                 .qlen = qlen,
                                 .clamp_len = clamp,
                                 .model = m,
                                 .attn_type = at,
                                 .bi_data = bi_data};
              const std::vector<std::int64_t> want = framework_positions(c);
              ++checked;
              bool same = static_cast<std::int64_t>(want.size()) == xl::rows(c);
              for (std::size_t r = 0; same && r < want.size(); ++r)
                same = xl::position(c, static_cast<std::int64_t>(r)).value == want[r];
              if (!same) ++wrong;
            }
  std::printf("[transformer_xl] %llu configs, %llu position sequences differ\n",
              static_cast<unsigned long long>(checked), static_cast<unsigned long long>(wrong));
  REQUIRE(wrong == 0);
}

TEST_CASE("transformer_xl: the table is [sin | cos] of position * 10000^(-2i/d), correctly rounded",
          "[transformer_xl][oracle]") {
  const xl::config c{.d_model = 16, .klen = 12, .qlen = 4, .clamp_len = 9, .model = xl::model::xlnet, .bi_data = true};
  std::vector<float> table(static_cast<std::size_t>(xl::rows(c)) * 16);
  REQUIRE(xl::fill_table<float>(c, table) == posenc::status::ok);
  std::uint64_t wrong = 0;
  for (std::int64_t r = 0; r < xl::rows(c); ++r)
    for (int k = 0; k < 16; ++k) {
      const std::int64_t p = xl::position(c, r).value;
      const int i = k % 8;  // inv_freq_i = 1 / 10000^(2i / 16) = 10000^(-i/8)
      // The exact angle p * 10000^(-i/8) and its sin or cos, in MPFR at 300 bits, rounded once.
      v::detail::mp x(300), t(300);
      mpfr_set_si(x.get(), 10000, MPFR_RNDN);
      mpfr_rootn_ui(x.get(), x.get(), 8, MPFR_RNDN);
      mpfr_pow_si(x.get(), x.get(), -i, MPFR_RNDN);
      mpfr_mul_si(x.get(), x.get(), static_cast<long>(p), MPFR_RNDN);
      if (k < 8)
        mpfr_sin(t.get(), x.get(), MPFR_RNDN);
      else
        mpfr_cos(t.get(), x.get(), MPFR_RNDN);
      // The 300-bit value is within about 2^-290 of the exact one, so rounding it to float differs
      // from rounding the exact value only if that lies within 2^-290 of a float midpoint, which an
      // irrational sine of these small arguments does not (the scalar path proves each entry anyway).
      const float want = mpfr_get_flt(t.get(), MPFR_RNDN);
      if (table[static_cast<std::size_t>(r) * 16 + static_cast<std::size_t>(k)] != want) ++wrong;
    }
  REQUIRE(wrong == 0);
}
