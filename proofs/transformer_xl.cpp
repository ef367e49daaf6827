// transformer_xl.cpp: Transformer-XL's and XLNet's relative sinusoids, proved by compiling.
//  1. the rows' positions: Transformer-XL klen - 1 .. 0 (clamped at clamp_len); XLNet klen .. -qlen + 1
//     ("bi"), klen .. 0 ("uni"), and with bi_data the backward half -klen .. qlen - 1, each clamped to
//     [-clamp_len, clamp_len] (transformer_xl/positions.hpp quotes the sources);
//  2. each row is the sinusoid of its position ([sin | cos], the paper's exponent): the row at
//     position 0 is (0 ... 0 | 1 ... 1) and the row at 1 starts with RN(sin 1) (MPFR);
//  3. the sinusoid laws (docs/laws.md section 6) hold on the rows at their listed positions.
#include <cstdint>

#include <posenc/laws.hpp>
#include <posenc/transformer_xl.hpp>

namespace {

namespace tx = posenc::transformer_xl;
namespace laws = posenc::laws;

constexpr tx::config txl{.d_model = 16, .klen = 24, .qlen = 8};
constexpr tx::config xl_bi{.d_model = 16, .klen = 12, .qlen = 4, .model = tx::model::xlnet, .bi_data = true};
constexpr tx::config xl_clamp{.d_model = 16, .klen = 12, .qlen = 4, .clamp_len = 5, .model = tx::model::xlnet};

// 1. Positions.
static_assert(tx::rows(txl) == 24 && tx::position(txl, 0).value == 23 && tx::position(txl, 23).value == 0);
static_assert(tx::rows(xl_bi) == 32, "forward klen + qlen rows, twice");
static_assert(tx::position(xl_bi, 0).value == 12 && tx::position(xl_bi, 15).value == -3, "forward: 12 .. -3");
static_assert(tx::position(xl_bi, 16).value == -12 && tx::position(xl_bi, 31).value == 3, "backward: -12 .. 3");
static_assert(tx::position(xl_clamp, 0).value == 5 && tx::position(xl_clamp, 7).value == 5 &&
                  tx::position(xl_clamp, 8).value == 4 && tx::position(xl_clamp, 15).value == -3,
              "clamped to [-5, 5]");

// 2 and 3.
template <tx::config C>
struct table {
  float v[static_cast<std::size_t>(tx::rows(C)) * 16]{};
  std::int64_t pos[static_cast<std::size_t>(tx::rows(C))]{};
  constexpr table() {
    static_cast<void>(tx::fill_table<float>(C, std::span<float>(v)));
    for (std::int64_t r = 0; r < tx::rows(C); ++r) pos[r] = tx::position(C, r).value;
  }
  constexpr laws::sinusoid_table<float> view() const {
    return {v, {.dim = 16, .layout = posenc::sinusoidal::layout::concat}, 0, pos};
  }
};
constexpr table<txl> t1{};
static_assert(t1.v[23 * 16] == 0.0f && t1.v[23 * 16 + 8] == 1.0f, "the row at position 0: sin 0 | cos 0");
static_assert(t1.v[22 * 16] == 0x1.aed548p-1f && t1.v[22 * 16 + 8] == 0x1.14a28p-1f,
              "position 1: RN(sin 1) | RN(cos 1)");
static_assert(laws::require(laws::sinusoid_shift(t1.view(), {.shifts = {1, 5, 0, 0}})));
static_assert(laws::require(laws::sinusoid_relative_dot(t1.view(), {.shifts = {1, 5, 0, 0}})));
constexpr table<xl_bi> t2{};
static_assert(laws::require(laws::sinusoid_shift(t2.view(), {.shifts = {1, 3, 0, 0}})));
static_assert(laws::require(laws::sinusoid_relative_dot(t2.view(), {.shifts = {1, 3, 0, 0}})));
constexpr table<xl_clamp> t3{};
static_assert(laws::require(laws::sinusoid_shift(t3.view())) && laws::require(laws::sinusoid_relative_dot(t3.view())),
              "clamped rows repeat a position: the laws read the first row of each");

}  // namespace
