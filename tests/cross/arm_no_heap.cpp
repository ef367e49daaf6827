// arm_no_heap.cpp: the run-time multi-stream fills (M-RoPE, ND) with and without scratch, as a
// firmware image would call them. Compiled by check_no_heap.cmake for a Cortex-M0 at -O0 and -Os,
// whose object must not reference operator new/delete or malloc: in constant evaluation these
// fills allocate the rows they gather from, and that branch must not survive into run-time code
// at any optimisation level (rope/detail/stream_fill.hpp, rows_worth_allocating).
#include <cstdint>
#include <span>

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
