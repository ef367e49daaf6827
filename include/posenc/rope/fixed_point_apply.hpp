// fixed_point_apply.hpp: rotate q15/q31 query and key vectors by a q15/q31 RoPE table row, in
// CMSIS-DSP's fixed-point arithmetic (numeric/fixed_point.hpp, docs/fixed-point.md section "Apply").
//
//   rope::rotate_fixed(x, shape, row, dir)   x: Q[heads * head_dim] in place; row: the position's
//                                            {sin, cos} per pair (fill_pair_table<Q>'s row)
//
// The arithmetic, exactly (arm_mat_mult_q15 / arm_dot_prod_q15's: products exact in a wide
// accumulator, then an arithmetic shift right by F, which truncates towards minus infinity, then
// __SSAT to the type's range):
//   x' = sat((x c - y s) >> F),   y' = sat((x s + y c) >> F)      (inverse: s negated)
// with x, y, c, s the raw integers and the sums exact in 64 bits (|x c| <= 2^(2F)). Layouts as
// apply.hpp. Error bound (derived in the docs): with v = (x, y) as values and the table's own error
// |s_q - s| <= 2^-(F+1), |c_q - c| <= 2^-(F+1) (2^-F for a saturated cos), each output is within
// 2^-F (1 + |v| sqrt(5) / 2) of the exact rotation of v, while that rotation stays in
// [-1, 1 - 2^-F] (outside, the clamp adds its own error). constexpr, no heap.
#pragma once

#include <cstddef>
#include <cstdint>

#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/fixed_point.hpp"
#include "posenc/rope/apply.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

template <fixed_point_type Q>
constexpr posenc::status rotate_fixed(Q* x, const apply_shape& sh, const math::sincos_result<Q>* row,
                                      direction dir = direction::forward) noexcept {
  if (sh.rotary_dim % 2 != 0 || sh.rotary_dim > sh.head_dim || x == nullptr || row == nullptr)
    return posenc::status::domain_error;
  constexpr int F = fixed_format<Q>::fraction_bits;
  const std::size_t pairs = sh.rotary_dim / 2;
  for (std::size_t h = 0; h < sh.heads; ++h) {
    Q* v = x + h * sh.head_dim;
    for (std::size_t j = 0; j < pairs; ++j) {
      const std::size_t k0 = pair_index(sh.lay, j, 0, sh.rotary_dim), k1 = pair_index(sh.lay, j, 1, sh.rotary_dim);
      const std::int64_t a = v[k0].bits, b = v[k1].bits, c = row[j].cos.bits;
      const std::int64_t s = dir == direction::inverse ? -std::int64_t{row[j].sin.bits} : std::int64_t{row[j].sin.bits};
      // >> of a negative value is arithmetic in C++20 (floor division by 2^F), as on Arm's ASR.
      v[k0] = saturate<Q>((a * c - b * s) >> F).value;
      v[k1] = saturate<Q>((a * s + b * c) >> F).value;
    }
  }
  return posenc::status::ok;
}

}  // namespace posenc::rope
