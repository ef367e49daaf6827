// rope_streams.cpp: the multi-stream rotary tables in posenc._core: M-RoPE (rope/mrope.hpp) and ND
// axial RoPE (rope/nd.hpp), from the core's run-time fills (what `posenc emit mrope|rope-nd` call),
// with the configs' validate messages as the ValueError of a broken config.
//
//   mrope_table     rope::fill_mrope_pair_table     (cos, sin), each [tokens, rotary_dim / 2]
//   rope_nd_table   rope::fill_nd_pair_table        (cos, sin), each [tokens, sum(axes_dim) / 2]
//   mrope_position_ids  rope::mrope_positions       (positions (3, tokens), next start)
//   dinov3_positions    rope::dinov3_positions      positions (2, h w): DINOv3's patch centres
// Positions arrive stream-major (3 x tokens; axes x tokens), as HF's position_ids.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <posenc/math/sincos_result.hpp>
#include <posenc/rope/dinov3.hpp>
#include <posenc/rope/mrope.hpp>
#include <posenc/rope/mrope_positions.hpp>
#include <posenc/rope/nd.hpp>

#include "bindings.hpp"
#include "common.hpp"

namespace posenc::python {
namespace {

py::tuple mrope_table(int head_dim, double rope_theta, double partial_rotary_factor, std::array<int, 3> section,
                      const std::string& layout, const std::vector<std::uint64_t>& positions,
                      const std::string& dtype_s) {
  const std::string ctx = "mrope_table";
  rope::mrope_config c{
      .text = {.head_dim = head_dim, .rope_theta = rope_theta, .partial_rotary_factor = partial_rotary_factor},
      .mrope_section = section};
  if (layout == "sections")
    c.layout = rope::mrope_layout::sections;
  else if (layout == "interleaved-hf")
    c.layout = rope::mrope_layout::interleaved_hf;
  else if (layout == "interleaved-ggml")
    c.layout = rope::mrope_layout::interleaved_ggml;
  else
    fail(ctx + ": layout must be 'sections', 'interleaved-hf' or 'interleaved-ggml', got '" + layout + "'");
  if (const auto v = rope::validate(c); !v) fail(ctx + ": invalid M-RoPE config: " + v.message);
  if (positions.empty() || positions.size() % 3 != 0) fail(ctx + ": positions must have shape (3, tokens)");
  const std::size_t tokens = positions.size() / 3, pairs = static_cast<std::size_t>(rope::rotary_dim(c.text)) / 2;
  table_size(tokens, pairs, ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    std::vector<math::sincos_result<T>> vals(tokens * pairs), scratch(rope::mrope_scratch_size(c, positions));
    fill_unlocked(ctx, [&] { return rope::fill_mrope_pair_table<T>(c, positions, vals, scratch); });
    return cos_sin_arrays<T>(vals, tokens, pairs);
  });
}

py::tuple rope_nd_table(const std::vector<int>& axes_dim, double rope_theta, const std::vector<double>& positions,
                        const std::string& dtype_s, bool two_pi) {
  const std::string ctx = "rope_nd_table";
  const rope::nd_config c{.axes_dim = axes_dim,
                          .rope_theta = rope_theta,
                          .angle = two_pi ? rope::angle_unit::turns : rope::angle_unit::radians};
  if (const auto v = rope::validate(c); !v) fail(ctx + ": invalid ND RoPE config: " + v.message);
  if (positions.empty() || positions.size() % axes_dim.size() != 0)
    fail(ctx + ": positions must have shape (axes, tokens)");
  for (const double p : positions)
    if (!rope::split_position(p).ok()) fail(ctx + ": positions must be finite with |p| <= 2^21");
  const std::size_t tokens = positions.size() / axes_dim.size(),
                    pairs = static_cast<std::size_t>(rope::nd_rotary_dim(c)) / 2;
  table_size(tokens, pairs, ctx);
  return with_dtype(parse_dtype(dtype_s), [&]<class T>(std::type_identity<T>) {
    std::vector<math::sincos_result<T>> vals(tokens * pairs), scratch(rope::nd_scratch_size(c, positions));
    fill_unlocked(ctx, [&] { return rope::fill_nd_pair_table<T>(c, positions, vals, scratch); });
    return cos_sin_arrays<T>(vals, tokens, pairs);
  });
}

// DINOv3's patch centres of an h x w grid (rope/dinov3.hpp): positions (2, h w) float64.
py::array_t<double> dinov3_positions(std::size_t h, std::size_t w) {
  if (h == 0 || w == 0 || h > (std::size_t{1} << 20) || w > (std::size_t{1} << 20))
    fail("dinov3_positions: the grid sizes must be in [1, 2^20]");
  table_size(2, h * w, "dinov3_positions");
  py::array_t<double> out({py::ssize_t{2}, static_cast<py::ssize_t>(h * w)});
  static_cast<void>(rope::dinov3_positions(h, w, std::span<double>(out.mutable_data(), 2 * h * w)));
  return out;
}

// HF get_rope_index's (t, h, w) ids (rope/mrope_positions.hpp). Each segment: (kind, tokens, grid_t,
// grid_h, grid_w, second_per_grid_t), kind 0 text, 1 image, 2 video. Returns (positions (3, tokens)
// uint64, next start).
py::tuple mrope_position_ids(
    const std::vector<std::tuple<int, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, double>>& segments,
    const std::string& temporal, double tokens_per_second) {
  const std::string ctx = "mrope_position_ids";
  std::vector<rope::mrope_segment> seq;
  for (const auto& [kind, tokens, gt, gh, gw, spg] : segments) {
    if (kind < 0 || kind > 2) fail(ctx + ": a segment's kind must be text, image or video");
    seq.push_back({static_cast<rope::mrope_segment::kind_t>(kind), tokens, gt, gh, gw, spg});
  }
  rope::mrope_position_rules rules{};
  if (temporal == "seconds")
    rules.temporal = rope::mrope_temporal::seconds;
  else if (temporal != "index")
    fail(ctx + ": temporal must be 'index' (Qwen2-VL) or 'seconds' (Qwen2.5-VL), got '" + temporal + "'");
  rules.tokens_per_second = tokens_per_second;
  const std::uint64_t n = rope::mrope_token_count(seq);
  if (n == 0) fail(ctx + ": the segments have no token");
  table_size(3, n, ctx);
  py::array_t<std::uint64_t> out({py::ssize_t{3}, static_cast<py::ssize_t>(n)});
  const auto r =
      rope::mrope_positions(seq, rules, std::span<std::uint64_t>(out.mutable_data(), static_cast<std::size_t>(3 * n)));
  if (!r.ok())
    fail(ctx +
         ": an empty grid, an unset tokens_per_second or second_per_grid_t under 'seconds', or a position "
         "past 2^21");
  return py::make_tuple(out, r.value);
}

void bind_rope_streams(py::module_& m) {
  m.def("mrope_position_ids", &mrope_position_ids, py::arg("segments"), py::arg("temporal"),
        py::arg("tokens_per_second"));
  m.def("mrope_table", &mrope_table, py::arg("head_dim"), py::arg("rope_theta"), py::arg("partial_rotary_factor"),
        py::arg("mrope_section"), py::arg("layout"), py::arg("positions"), py::arg("dtype"));
  m.def("rope_nd_table", &rope_nd_table, py::arg("axes_dim"), py::arg("rope_theta"), py::arg("positions"),
        py::arg("dtype"), py::arg("two_pi"));
  m.def("dinov3_positions", &dinov3_positions, py::arg("h"), py::arg("w"));
}

}  // namespace

const scheme_binding rope_streams_binding{"rope_streams", &bind_rope_streams};

}  // namespace posenc::python
