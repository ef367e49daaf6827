// shaw.cpp: Shaw et al.'s clipped relative positions, proved by compiling (static_assert walls).
//  1. exact known values: index = clip(key - query, -k, k) + k (tensor2tensor
//     _generate_relative_positions_matrix), k = 20: query 5, key 3 is 18; the diagonal is k; far keys
//     clip to 0 and 2k; 64-bit positions at the extremes do not overflow;
//  2. the bucket laws (docs/laws.md section 8): monotone (falling before the query, rising after),
//     within [0, 2k], saturated from |r| = k at 0 and 2k, the sides apart.
#include <array>
#include <cstddef>
#include <cstdint>

#include <posenc/laws.hpp>
#include <posenc/shaw.hpp>

namespace {

namespace shaw = posenc::shaw;
namespace laws = posenc::laws;

constexpr shaw::config c{};  // k = 20

// 1.
static_assert(shaw::relative_index(c, 5, 3).value == 18 && shaw::relative_index(c, 7, 7).value == 20);
static_assert(shaw::relative_index(c, 100, 0).value == 0 && shaw::relative_index(c, 0, 100).value == 40);
static_assert(shaw::relative_index(c, INT64_MIN, INT64_MAX).value == 40 &&
                  shaw::relative_index(c, INT64_MAX, INT64_MIN).value == 0,
              "the distance saturates instead of overflowing");

// 2.
template <int K>
constexpr std::array<int, static_cast<std::size_t>(6 * K + 1)> indices() {
  std::array<int, static_cast<std::size_t>(6 * K + 1)> a{};
  for (int r = -3 * K; r <= 3 * K; ++r) a[static_cast<std::size_t>(r + 3 * K)] = shaw::relative_index({K}, 0, r).value;
  return a;
}
constexpr auto i20 = indices<20>();
constexpr laws::bucket_table<int> t20{i20, -60};
constexpr laws::bucket_spec s20 = laws::shaw_bucket_spec(20);
static_assert(laws::require(laws::bucket_monotone(t20, s20)) && laws::require(laws::bucket_bounded(t20, s20)) &&
              laws::require(laws::bucket_saturation(t20, s20)) && laws::require(laws::bucket_sign_partition(t20, s20)));
constexpr auto i1 = indices<1>();
static_assert(laws::require(laws::bucket_saturation(laws::bucket_table<int>{i1, -3}, laws::shaw_bucket_spec(1))));

// Each law is able to fail: the indices of k = 20 read against k = 16's spec.
static_assert(!laws::bucket_bounded(t20, laws::shaw_bucket_spec(16)).holds &&
              !laws::bucket_saturation(t20, laws::shaw_bucket_spec(16)).holds);

}  // namespace
