// arm_no_heap.cpp: the run-time multi-stream fills (M-RoPE, ND) with and without scratch, and the
// scalar sin, cos, sincos, exp and log, as a firmware image would call them. Compiled by
// check_no_heap.cmake for a Cortex-M0 at -O0 and -Os, whose object must not reference operator
// new/delete, malloc or libm: in constant evaluation the fills allocate the rows they gather from
// (rope/detail/stream_fill.hpp, rows_worth_allocating) and on GCC the scalar functions take the
// compiler's folds of sin, exp and log (math/evaluation.hpp); neither branch may survive into
// run-time code at any optimisation level.
#include <cstdint>
#include <span>

#include <posenc/math/exp_log.hpp>
#include <posenc/math/trig.hpp>
#include <posenc/rope/mrope.hpp>
#include <posenc/rope/nd.hpp>

namespace rope = posenc::rope;
using pair_f = posenc::math::sincos_result<float>;

posenc::status posenc_fill_streams(std::span<const std::uint64_t> thw, std::span<pair_f> mrope_out,
                                   std::span<const double> ids, std::span<pair_f> nd_out, std::span<pair_f> scratch) {
  constexpr rope::mrope_config qwen{.text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = {16, 24, 24}};
  static constexpr int axes[] = {16, 56, 56};
  constexpr rope::nd_config flux{.axes_dim = axes};
  posenc::status s = rope::fill_mrope_pair_table<float>(qwen, thw, mrope_out);
  if (s == posenc::status::ok) s = rope::fill_mrope_pair_table<float>(qwen, thw, mrope_out, scratch);
  if (s == posenc::status::ok) s = rope::fill_nd_pair_table<float>(flux, ids, nd_out);
  if (s == posenc::status::ok) s = rope::fill_nd_pair_table<float>(flux, ids, nd_out, scratch);
  return s;
}

double posenc_scalars(double x) {
  const posenc::math::sincos_result<double> r = posenc::math::sincos(x);
  return posenc::math::sin(x) + posenc::math::cos(x) + r.sin + r.cos + posenc::math::exp(x) + posenc::math::log(x);
}
float posenc_scalars_f(float x) {
  const posenc::math::sincos_result<float> r = posenc::math::sincos(x);
  return posenc::math::sin(x) + posenc::math::cos(x) + r.sin + r.cos + posenc::math::exp(x) + posenc::math::log(x);
}
