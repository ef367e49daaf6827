// xpos.cpp: XPOS's scales, proved by compiling (static_assert walls).
//  1. exact known values: zeta_j = (10j + 2d) / (7d) (xpos/config.hpp: (2j + 0.4d) / (1.4d));
//     the scale at position 0 is 1; at n = scale_base it is zeta_j itself, at 2 scale_base zeta_j^2,
//     and the inverse scale their reciprocal: rationals whose correct rounding is IEEE division
//     (d = 128, j = 0: 2/7, 4/49, 7/2 = 3.5 exactly);
//  2. scale x inverse scale: the scaled, rotated score depends on n - m alone
//     (laws::xpos_relative_scale, docs/laws.md section 9), in double, float and bfloat16 scales,
//     on positions centred as torchscale's.
#include <array>
#include <cstddef>
#include <span>

#include <posenc/laws.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/rope/table.hpp>
#include <posenc/xpos.hpp>

namespace {

namespace xp = posenc::xpos;
namespace rope = posenc::rope;
namespace laws = posenc::laws;

constexpr xp::config c128{.head_dim = 128};

// 1.
static_assert(xp::zeta(c128, 0).value.num == 256 && xp::zeta(c128, 0).value.den == 896);
static_assert(xp::zeta(c128, 63).value.num == 886, "(10 * 63 + 256) / 896: zeta_63 close to 1");
static_assert(xp::scale<double>(c128, 0, 5).value == 1.0 && xp::inverse_scale<float>(c128, 0, 5).value == 1.0f);
static_assert(xp::scale<double>(c128, 512, 0).value == 2.0 / 7.0, "zeta_0 = 2/7, rounded once");
static_assert(xp::scale<double>(c128, 1024, 0).value == 4.0 / 49.0, "zeta_0^2 = 4/49");
static_assert(xp::inverse_scale<double>(c128, 512, 0).value == 3.5, "1/zeta_0 = 7/2 exactly");
static_assert(xp::scale<float>(c128, -512, 0).value == 3.5f, "zeta_0^-1 at n = -512");

// 2.
constexpr rope::config rc{.head_dim = 16, .rope_theta = 10000.0};
constexpr xp::config c16{.head_dim = 16};
// Each scale table is its own constant evaluation (Clang's default step limit is per evaluation).
constexpr auto rot = rope::make_table<float, 16, 16, rope::layout::interleaved>(rc).value;
constexpr auto sd = xp::make_scale_table<double, 16, 8>(c16, -8).value;
constexpr auto id = xp::make_scale_table<double, 16, 8>(c16, -8, true).value;
constexpr auto sf = xp::make_scale_table<float, 16, 8>(c16, -8).value;
constexpr auto if_ = xp::make_scale_table<float, 16, 8>(c16, -8, true).value;
constexpr auto sb = xp::make_scale_table<posenc::bfloat16, 16, 8>(c16, 0).value;
constexpr auto ib = xp::make_scale_table<posenc::bfloat16, 16, 8>(c16, 0, true).value;
template <class S, std::size_t N>
constexpr bool relative(const std::array<S, N>& sc, const std::array<S, N>& inv) {
  const auto r = laws::xpos_relative_scale(laws::view(rot), std::span<const S>(sc), std::span<const S>(inv),
                                           {.differences = {1, 5, 15, 0}});
  return laws::require(r) && r.checked == (15 + 11 + 1) * 8;
}
static_assert(relative(sd, id) && relative(sf, if_) && relative(sb, ib), "the score's scale depends on n - m alone");

// Each law is able to fail: q and k scaled by the same factor (no inverse) do not cancel.
static_assert(!laws::xpos_relative_scale(laws::view(rot), std::span<const float>(sf), std::span<const float>(sf)).holds,
              "zeta^(n/s) zeta^(m/s) depends on n + m");

}  // namespace
