// test_scheme_tables.cpp: the run-time table paths of issue 10 give the scalar functions' bits.
//  * kerple::fill_log_bias_table / fill_power_bias_table and sandwich::fill_bias_table evaluate each
//    distance once and copy the rest (detail/distance_table.hpp): every element must equal
//    log_bias / power_bias / sandwich::bias at its own distance, for square and rectangular
//    blocks, shared and different first positions.
//  * xpos::fill_scales at run time takes the anchor-product row path (xpos/rows.hpp): every entry
//    must equal xpos::scale / inverse_scale, across head sizes (pair groups of 16 and their
//    remainders), scale bases, centred and far positions (float16 overflow included), both
//    directions.
//  * Each fill at compile time (the path the proofs use) equals the same fill at run time.
// The expected values come from the scalar functions, whose own correctness (0 ULP against MPFR)
// test_kerple.cpp, test_sandwich.cpp and test_xpos.cpp establish. Four types each: double,
// float, bfloat16, float16.
#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "posenc/config_field.hpp"
#include "posenc/kerple.hpp"
#include "posenc/logn.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/sandwich.hpp"
#include "posenc/xpos.hpp"

namespace {

namespace kp = posenc::kerple;
namespace sw = posenc::sandwich;
namespace xp = posenc::xpos;
using posenc::bfloat16;
using posenc::float16;

template <class T>
std::uint64_t bits(T v) {
  if constexpr (std::is_same_v<T, bfloat16> || std::is_same_v<T, float16>) {
    return v.bits;
  } else {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
  }
}

// The first element whose bits differ from expected(index), or size when none: a failure names it.
// With a stride, elements 0, stride, 2 stride, ... and the first and last `edge` elements.
template <class T, class Expected>
std::size_t first_mismatch(const std::vector<T>& table, Expected&& expected, std::size_t stride = 1,
                           std::size_t edge = 0) {
  for (std::size_t e = 0; e < table.size(); ++e)
    if ((e % stride == 0 || e < edge || e + edge >= table.size()) && bits(table[e]) != bits(expected(e))) return e;
  return table.size();
}

struct block_case {
  std::size_t queries, keys;
  std::uint64_t first_query, first_key;
};

// Square from 0 (the shared case: column 0 copied from row 0), rectangular both ways, offsets on
// either side, a single row and a single column.
constexpr block_case blocks[] = {{1, 1, 0, 0},   {7, 7, 0, 0},   {33, 33, 0, 0}, {5, 19, 0, 0}, {19, 5, 0, 0},
                                 {9, 9, 4, 4},   {6, 11, 10, 0}, {11, 6, 0, 10}, {1, 40, 3, 0}, {40, 1, 0, 3},
                                 {17, 13, 2, 9}, {64, 64, 0, 0}, {3, 3, 1000, 0}};

std::uint64_t distance(const block_case& b, std::size_t e) {
  const std::uint64_t q = b.first_query + e / b.keys, k = b.first_key + e % b.keys;
  return q >= k ? q - k : k - q;
}

template <class T>
void kerple_tables() {
  // Learned-looking parameters (U(0, 2), U(0, 1), the 0.01 clamp) and exact cases of power
  // (p = 1, 0.5, 2: integer values at squares).
  const double ps[] = {1.5, 0.01, 0.7318115234375, 1.0, 0.5, 2.0};
  const double as[] = {0.5, 0.01, 0.9990234375, 0.25, 1.0, 0.0625};
  for (std::size_t h = 0; h < std::size(ps); ++h) {
    const kp::log_checked_config lc = kp::log_config{.p = ps[h], .a = as[h]};
    const kp::power_checked_config pc = kp::power_config{.a = as[h], .p = ps[h]};
    for (const block_case& b : blocks) {
      std::vector<T> t(b.queries * b.keys);
      INFO("head " << h << ", block " << b.queries << " x " << b.keys << " from " << b.first_query << ", "
                   << b.first_key);
      REQUIRE(kp::fill_log_bias_table<T>(lc, b.queries, b.keys, std::span<T>(t), b.first_query, b.first_key) ==
              posenc::status::ok);
      CHECK(first_mismatch(t, [&](std::size_t e) { return kp::log_bias<T>(lc, distance(b, e)).value; }) == t.size());
      REQUIRE(kp::fill_power_bias_table<T>(pc, b.queries, b.keys, std::span<T>(t), b.first_query, b.first_key) ==
              posenc::status::ok);
      CHECK(first_mismatch(t, [&](std::size_t e) { return kp::power_bias<T>(pc, distance(b, e)).value; }) == t.size());
    }
  }
}

TEST_CASE("KERPLE dense tables equal the scalar biases at every element", "[kerple][table]") {
  kerple_tables<double>();
  kerple_tables<float>();
  kerple_tables<bfloat16>();
  kerple_tables<float16>();
}

TEST_CASE("KERPLE dense tables refuse bad shapes and report the scalar errors", "[kerple][table]") {
  const kp::log_checked_config lc = kp::log_config{.p = 1.5, .a = 0.5};
  std::vector<float> t(12);
  CHECK(kp::fill_log_bias_table<float>(lc, 3, 5, std::span<float>(t)) == posenc::status::domain_error);
  CHECK(kp::fill_log_bias_table<float>(lc, 3, 4, std::span<float>(t), std::uint64_t{1} << 52) ==
        posenc::status::domain_error);
  CHECK(kp::fill_log_bias_table<float>(lc, 0, 0, std::span<float>(t.data(), 0)) == posenc::status::ok);
  // Power refuses distances of 2^26 and more (bias.hpp), here in row 0.
  const kp::power_checked_config pc = kp::power_config{.a = 0.5, .p = 1.5};
  CHECK(kp::fill_power_bias_table<float>(pc, 3, 4, std::span<float>(t), std::uint64_t{1} << 26, 0) ==
        posenc::status::domain_error);
  // float16 overflows at large distances with a large p: status overflow, entries infinite.
  const kp::log_checked_config big = kp::log_config{.p = 0x1p16, .a = 1.0};
  std::vector<float16> h(4 * 4);
  CHECK(kp::fill_log_bias_table<float16>(big, 4, 4, std::span<float16>(h)) == posenc::status::overflow);
  CHECK(first_mismatch(h, [&](std::size_t e) {
          return kp::log_bias<float16>(big, distance({4, 4, 0, 0}, e)).value;
        }) == h.size());
}

template <class T>
void sandwich_tables() {
  const sw::config configs[] = {
      {.dim = 2, .heads = 1}, {.dim = 16, .heads = 3}, {.dim = 64, .heads = 8}, {.dim = 128, .heads = 12}};
  for (const sw::config& c : configs) {
    const sw::checked_config cc = c;
    for (const block_case& b : blocks) {
      if (b.queries * b.keys > 2000 && c.dim > 16) continue;  // the scalar reference costs d/2 sines an element
      const std::size_t block = b.queries * b.keys;
      std::vector<T> t(static_cast<std::size_t>(c.heads) * block);
      INFO("d " << c.dim << ", H " << c.heads << ", block " << b.queries << " x " << b.keys << " from " << b.first_query
                << ", " << b.first_key);
      REQUIRE(sw::fill_bias_table<T>(cc, b.queries, b.keys, std::span<T>(t), b.first_query, b.first_key) ==
              posenc::status::ok);
      CHECK(first_mismatch(t, [&](std::size_t e) {
              const std::size_t h = e / block, r = e % block;
              const auto q = static_cast<std::int64_t>(b.first_query + r / b.keys);
              const auto k = static_cast<std::int64_t>(b.first_key + r % b.keys);
              return sw::bias<T>(cc, static_cast<int>(h), q - k).value;
            }) == t.size());
    }
  }
}

TEST_CASE("Sandwich dense tables equal the scalar bias at every element of every head", "[sandwich][table]") {
  sandwich_tables<double>();
  sandwich_tables<float>();
  sandwich_tables<bfloat16>();
  sandwich_tables<float16>();
}

TEST_CASE("Sandwich dense tables refuse bad shapes", "[sandwich][table]") {
  const sw::checked_config cc = sw::config{.dim = 8, .heads = 2};
  std::vector<float> t(2 * 3 * 4);
  CHECK(sw::fill_bias_table<float>(cc, 3, 5, std::span<float>(t)) == posenc::status::domain_error);
  CHECK(sw::fill_bias_table<float>(cc, 4, 3, std::span<float>(t.data(), 12)) == posenc::status::domain_error);
  CHECK(sw::fill_bias_table<float>(cc, 3, 4, std::span<float>(t), 0, std::uint64_t{1} << 52) ==
        posenc::status::domain_error);
  CHECK(sw::fill_bias_table<float>(cc, 3, 4, std::span<float>(t)) == posenc::status::ok);
}

template <class T>
void xpos_tables() {
  struct xcase {
    int head_dim, scale_base;
    std::int64_t first;
    std::size_t rows;
  };
  // head_dim 2 and 6: one group of 1 and 3 pairs (padded lanes); 34: a group of 16, then 1; 128:
  // four full groups. Rows below and above a block, a partial last block; centred, positive and
  // far negative positions (float16 overflows below about -4532 at zeta_0 = 2/7, scale_base 512);
  // scale_base 1 (integer exponents, exact dyadic values), 7 (zeta^(n/7)), 64 and 4096. The last
  // three cross float16's subnormals (n about 4000 .. 6800 at zeta_0), and float's and bfloat16's
  // overflow (n below about -36200) and subnormals and zeros (n above about 36000).
  const xcase cases[] = {{2, 512, 0, 4},          {6, 512, -3, 5},       {34, 512, -100, 300}, {128, 512, -2048, 4096},
                         {128, 512, 0, 1000},     {16, 1, -20, 41},      {16, 7, -50, 129},    {64, 512, -6000, 200},
                         {64, 512, 40000, 70},    {8, 4096, -9, 300},    {128, 64, -300, 600}, {128, 512, 3000, 4000},
                         {16, 512, -37000, 2000}, {16, 512, 36000, 3000}};
  for (const xcase& x : cases) {
    const xp::checked_config cc = xp::config{.head_dim = x.head_dim, .scale_base = x.scale_base};
    const auto pairs = static_cast<std::size_t>(x.head_dim / 2);
    for (const bool inverse : {false, true}) {
      std::vector<T> t(x.rows * pairs);
      // The scalar reference costs a pow an entry: large tables are checked at every 29th entry
      // (a stride prime to the row lengths, so every pair and row phase is visited) plus their
      // first and last two rows; the status is then checked where it is known (below).
      const std::size_t stride = t.size() > 6000 ? 29 : 1;
      INFO("head_dim " << x.head_dim << ", scale_base " << x.scale_base << ", first " << x.first << ", rows " << x.rows
                       << (inverse ? ", inverse" : ""));
      const posenc::status st = xp::fill_scales<T>(cc, x.first, std::span<T>(t), inverse);
      posenc::status expected_st = posenc::status::ok;
      CHECK(first_mismatch(
                t,
                [&](std::size_t e) {
                  const std::int64_t n = x.first + static_cast<std::int64_t>(e / pairs);
                  const int j = static_cast<int>(e % pairs);
                  const auto r = inverse ? xp::inverse_scale<T>(cc, n, j) : xp::scale<T>(cc, n, j);
                  if (expected_st == posenc::status::ok) expected_st = r.error;
                  return r.value;
                },
                stride, 2 * pairs) == t.size());
      if (stride == 1 || expected_st != posenc::status::ok) CHECK(st == expected_st);
    }
  }
}

TEST_CASE("XPOS scale tables at run time equal the scalar scales at every entry", "[xpos][table]") {
  xpos_tables<double>();
  xpos_tables<float>();
  xpos_tables<bfloat16>();
  xpos_tables<float16>();
}

// Compile time against run time: the same calls, once in constant evaluation (the scalar loop,
// or the copying fill) and once at run time (the row path).
template <class T>
constexpr std::array<T, 6 * 5> kerple_ct() {
  std::array<T, 6 * 5> a{};
  static_cast<void>(kp::fill_log_bias_table<T>(kp::log_config{.p = 1.5, .a = 0.5}, 6, 5, std::span<T>(a), 2, 0));
  return a;
}
template <class T>
constexpr std::array<T, 2 * 4 * 4> sandwich_ct() {
  std::array<T, 2 * 4 * 4> a{};
  static_cast<void>(sw::fill_bias_table<T>(sw::config{.dim = 8, .heads = 2}, 4, 4, std::span<T>(a)));
  return a;
}

template <class T>
void compile_time_equals_run_time() {
  constexpr auto kct = kerple_ct<T>();
  std::vector<T> krt(kct.size());
  REQUIRE(kp::fill_log_bias_table<T>(kp::log_config{.p = 1.5, .a = 0.5}, 6, 5, std::span<T>(krt), 2, 0) ==
          posenc::status::ok);
  CHECK(first_mismatch(krt, [&](std::size_t e) { return kct[e]; }) == krt.size());
  constexpr auto sct = sandwich_ct<T>();
  std::vector<T> srt(sct.size());
  REQUIRE(sw::fill_bias_table<T>(sw::config{.dim = 8, .heads = 2}, 4, 4, std::span<T>(srt)) == posenc::status::ok);
  CHECK(first_mismatch(srt, [&](std::size_t e) { return sct[e]; }) == srt.size());
  constexpr auto xct = xp::make_scale_table<T, 9, 5>(xp::config{.head_dim = 10}, -4);
  static_assert(xct.error == posenc::status::ok);
  std::vector<T> xrt(xct.value.size());
  REQUIRE(xp::fill_scales<T>(xp::config{.head_dim = 10}, -4, std::span<T>(xrt)) == posenc::status::ok);
  CHECK(first_mismatch(xrt, [&](std::size_t e) { return xct.value[e]; }) == xrt.size());
  constexpr auto xci = xp::make_scale_table<T, 9, 5>(xp::config{.head_dim = 10, .scale_base = 3}, -4, true);
  static_assert(xci.error == posenc::status::ok);
  REQUIRE(xp::fill_scales<T>(xp::config{.head_dim = 10, .scale_base = 3}, -4, std::span<T>(xrt), true) ==
          posenc::status::ok);
  CHECK(first_mismatch(xrt, [&](std::size_t e) { return xci.value[e]; }) == xrt.size());
}

TEST_CASE("The tables built at compile time equal the run-time tables", "[kerple][sandwich][xpos][table]") {
  compile_time_equals_run_time<double>();
  compile_time_equals_run_time<float>();
  compile_time_equals_run_time<bfloat16>();
  compile_time_equals_run_time<float16>();
}

// Each scheme's config_fields.hpp static_asserts that its list covers the config; the count it
// compares with is shown here to tell a short list (or an extra member) from a full one.
struct two_members {
  int a = 0;
  double b = 0;
};
static_assert(posenc::detail::aggregate_member_count<two_members>() == 2);
static_assert(posenc::detail::fields_cover_config<posenc::logn::config>(posenc::logn::config_fields));
static_assert(!posenc::detail::fields_cover_config<posenc::logn::config>(
    std::make_tuple(posenc::config_field<posenc::logn::config, bool>{
        .name = "at_least_one", .member = &posenc::logn::config::at_least_one, .help = ""})));
static_assert(posenc::detail::is_snake_case("max_relative_position") && !posenc::detail::is_snake_case("max-bias") &&
              !posenc::detail::is_snake_case("Heads") && !posenc::detail::is_snake_case("_x"));

}  // namespace
