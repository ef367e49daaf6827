// schemes/rope_streams.hpp: the multi-stream rotary tables on the command line: `posenc emit mrope`
// (M-RoPE, rope/mrope.hpp) and `posenc emit rope-nd` (ND axial RoPE, rope/nd.hpp), their flags,
// their position-id files, and with the verify layer `posenc verify mrope|rope-nd`.
//
// Output: CSV "token,pair,cos,sin", one row per token and pair (the pair's value, not its two
// elements: pair j sits at elements (j, j + D/2) half-split or (2j, 2j + 1) interleaved, as the
// model applies it); C, bin, npy and safetensors hold the cos array [token][pair] and then the sin
// array (one value per pair: half the bytes of an expanded table).
// Position ids: a CSV file with a header line, one row per token: "t,h,w" for mrope (non-negative
// integers), "p0,p1,..." (one column per axis) for rope-nd (reals: fractional and negative
// positions are taken as the doubles they round to), or for rope-nd --grid H,W: DINOv3's patch
// centres (rope/dinov3.hpp). --two-pi: the angle in turns, 2 pi p theta (rope/turns.hpp).
// schemes.hpp lists this file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <posenc/rope/dinov3.hpp>
#include <posenc/rope/mrope.hpp>
#include <posenc/rope/nd.hpp>
#include <posenc/status.hpp>

#include "args.hpp"
#include "emit_pair_table.hpp"
#include "emit_scheme_util.hpp"
#include "emit_table.hpp"
#include "emit_values.hpp"
#include "hexfloat.hpp"
#include "hf_config_flag.hpp"
#include "position_ids.hpp"
#include "scheme_command.hpp"

#if defined(POSENC_CLI_HAVE_IO)
#include <posenc/io/rope_hf_config.hpp>
#include <posenc/io/rope_nd_hf_config.hpp>
#endif

#if POSENC_CLI_HAVE_VERIFY
#include <posenc/verify/rope_streams_verify.hpp>

#include "verify_table_input.hpp"
#endif

namespace posenc::cli::emit {

inline constexpr flag_spec mrope_flags[] = {
    {"head-dim", flag_kind::value, "D", "head dimension"},
    {"rope-theta", flag_kind::value, "B", "the base (default 10000; Qwen2-VL 1e6, Qwen3-VL 5e6)"},
    {"partial-rotary-factor", flag_kind::value, "F", "rotary dim = floor(D * F) (default 1; Qwen3.5 0.25)"},
    {"mrope-section", flag_kind::value, "S1,S2,S3", "pairs of the t, h, w streams (sum = rotary dim / 2)"},
    {"mrope-layout", flag_kind::value, "L",
     "sections (Qwen2-VL), interleaved-hf (Qwen3-VL in HF, vLLM) or interleaved-ggml (llama.cpp IMROPE)"},
    {"position-ids", flag_kind::value, "FILE", "CSV with header t,h,w, one row per token"},
    {"hf-config", flag_kind::value, "FILE", "a Qwen2-VL / Qwen2.5-VL / Qwen3-VL config.json (flags override it)"},
};

inline constexpr flag_spec rope_nd_flags[] = {
    {"axes-dim", flag_kind::value, "A1,A2,...", "each axis's rotary dim (FLUX.1: 16,56,56)"},
    {"rope-theta", flag_kind::value, "B", "the base (default 10000; FLUX.2 2000)"},
    {"position-ids", flag_kind::value, "FILE", "CSV with header p0,p1,..., one row per token (reals allowed)"},
    {"hf-config", flag_kind::value, "FILE",
     "a diffusers FLUX / FLUX.2 transformer or HF DINOv3 ViT config.json (flags override it)"},
    {"two-pi", flag_kind::boolean, "", "the angle is 2 pi p theta, p theta in turns (DINOv3's 2 pi coord / period)"},
    {"grid", flag_kind::value, "H,W",
     "positions of two axes: DINOv3's patch centres (2i+1)/H - 1, (2j+1)/W - 1, row-major (not with --position-ids)"},
};

// A comma-separated list of integers in [lo, hi].
inline std::vector<int> integer_list(const parsed_args& a, std::string_view flag, long long lo, long long hi,
                                     const std::string& ctx) {
  const auto text = a.value(flag);
  if (!text) throw usage_error(ctx + ": --" + std::string(flag) + " is required");
  std::vector<int> out;
  std::string_view rest = *text;
  for (;;) {
    const std::size_t comma = rest.find(',');
    out.push_back(
        static_cast<int>(parse_integer(rest.substr(0, comma), lo, hi, "--" + std::string(flag) + " entry", ctx)));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

// The text of the --position-ids file (position_ids.hpp reads it).
inline std::string position_ids_text(const parsed_args& a, const std::string& ctx, std::string& path) {
  const auto given = a.value("position-ids");
  if (!given || given->empty()) throw usage_error(ctx + ": --position-ids FILE is required");
  path = std::string(*given);
  std::ifstream in{path, std::ios::binary};
  if (!in) throw usage_error(ctx + ": --position-ids " + quote(path) + ": cannot open the file");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw usage_error(ctx + ": --position-ids " + quote(path) + ": cannot read the file");
  return text;
}
static_assert(max_position_tokens == max_table_rows, "a position-id file holds at most as many tokens as emit writes");

// --hf-config FILE of emit/verify mrope: the text config and the sections of a Qwen-VL config.json,
// the layout HF's model class applies (Qwen3-VL's class interleaves whatever mrope_interleaved says,
// pe-formulas-more.md 1.1; the flag decides elsewhere, as in vLLM), or nothing without the flag.
inline std::optional<rope::mrope_config> hf_mrope_config(const parsed_args& a, const std::string& ctx) {
#if defined(POSENC_CLI_HAVE_IO)
  const auto s = hf_config_value(a, ctx, [](std::string_view text) { return io::rope_from_hf_config(text); });
  if (!s) return std::nullopt;
  if (s->mrope_section.size() != 3)
    throw usage_error(ctx + ": --hf-config " + quote(*a.value("hf-config")) +
                      ": mrope_section: missing or not three values (not an M-RoPE model: use 'emit rope')");
  rope::mrope_config c{};
  c.text = s->config();
  if (!s->short_factor.empty() || !s->long_factor.empty())
    throw usage_error(ctx + ": --hf-config: M-RoPE with LongRoPE factors is not supported");
  c.mrope_section = {s->mrope_section[0], s->mrope_section[1], s->mrope_section[2]};
  const bool qwen3 = s->model_type.rfind("qwen3_vl", 0) == 0 || s->model_type.rfind("qwen3_5", 0) == 0;
  c.layout = s->mrope_interleaved || qwen3 ? rope::mrope_layout::interleaved_hf : rope::mrope_layout::sections;
  return c;
#else
  no_hf_config(a, ctx);
  return std::nullopt;
#endif
}

inline rope::mrope_config read_mrope_config(const parsed_args& a, const std::string& ctx) {
  const std::optional<rope::mrope_config> hf = hf_mrope_config(a, ctx);  // flags override the file
  rope::mrope_config c = hf.value_or(rope::mrope_config{});
  if (!hf || a.has("head-dim")) c.text.head_dim = static_cast<int>(required_integer(a, "head-dim", 1, 65536, ctx));
  c.text.rope_theta = flag_real<double>(a, "rope-theta", hf ? c.text.rope_theta : 10000.0, ctx);
  c.text.partial_rotary_factor =
      flag_real<double>(a, "partial-rotary-factor", hf ? c.text.partial_rotary_factor : 1.0, ctx);
  if (!hf || a.has("mrope-section")) {
    const std::vector<int> s = integer_list(a, "mrope-section", 0, 65536, ctx);
    if (s.size() != 3) throw usage_error(ctx + ": --mrope-section needs three values (t, h, w)");
    c.mrope_section = {s[0], s[1], s[2]};
  }
  c.layout = flag_choice(a, "mrope-layout",
                         {{"sections", rope::mrope_layout::sections},
                          {"interleaved-hf", rope::mrope_layout::interleaved_hf},
                          {"interleaved-ggml", rope::mrope_layout::interleaved_ggml}},
                         c.layout, ctx);
  check_valid(rope::validate(c), ctx, "M-RoPE");
  return c;
}

// Stream-major positions (t row, h row, w row) from the file.
inline std::vector<std::uint64_t> read_mrope_positions(const parsed_args& a, const std::string& ctx) {
  std::string path;
  const std::string text = position_ids_text(a, ctx, path);
  return mrope_positions(text, path, ctx);
}

struct nd_settings {
  std::vector<int> axes_dim;
  double rope_theta = 10000.0;
  bool turns = false;                  // --two-pi, or a DINOv3 config
  std::size_t grid_h = 0, grid_w = 0;  // a DINOv3 config's default grid
  rope::nd_config config() const {
    return {.axes_dim = axes_dim,
            .rope_theta = rope_theta,
            .angle = turns ? rope::angle_unit::turns : rope::angle_unit::radians};
  }
};

inline nd_settings read_nd_settings(const parsed_args& a, const std::string& ctx) {
  nd_settings s;
#if defined(POSENC_CLI_HAVE_IO)
  const auto hf = hf_config_value(a, ctx, [](std::string_view text) { return io::rope_nd_from_hf_config(text); });
  if (hf) {
    s.axes_dim = hf->axes_dim, s.rope_theta = hf->rope_theta, s.turns = hf->turns;
    s.grid_h = static_cast<std::size_t>(hf->grid_h), s.grid_w = static_cast<std::size_t>(hf->grid_w);
  }
#else
  const bool hf = false;
  no_hf_config(a, ctx);
#endif
  if (!hf || a.has("axes-dim")) s.axes_dim = integer_list(a, "axes-dim", 1, 65536, ctx);
  s.rope_theta = flag_real<double>(a, "rope-theta", s.rope_theta, ctx);
  s.turns = s.turns || a.has("two-pi");
  check_valid(rope::validate(s.config()), ctx, "ND RoPE");
  return s;
}

// --grid H,W (or a DINOv3 config's default grid without --position-ids): rope::dinov3_positions.
inline std::vector<double> grid_positions(const parsed_args& a, const nd_settings& s, const std::string& ctx) {
  if (s.axes_dim.size() != 2)
    throw usage_error(ctx + ": --grid needs two axes, --axes-dim has " + std::to_string(s.axes_dim.size()));
  std::size_t h = s.grid_h, w = s.grid_w;
  if (a.has("grid")) {
    const std::vector<int> g = integer_list(a, "grid", 1, 1 << 20, ctx);
    if (g.size() != 2) throw usage_error(ctx + ": --grid takes two sizes H,W");
    h = static_cast<std::size_t>(g[0]), w = static_cast<std::size_t>(g[1]);
  }
  std::vector<double> pos(2 * h * w);
  check_status(rope::dinov3_positions(h, w, pos), "DINOv3 grid");
  return pos;
}

inline std::vector<double> read_nd_positions(const parsed_args& a, const nd_settings& st, const std::string& ctx) {
  if (a.has("grid") && a.has("position-ids")) throw usage_error(ctx + ": --grid and --position-ids exclude each other");
  if (a.has("grid") || (!a.has("position-ids") && st.grid_h > 0)) return grid_positions(a, st, ctx);
  std::string path;
  const std::string text = position_ids_text(a, ctx, path);
  return nd_positions(text, st.axes_dim.size(), path, ctx);
}

inline std::string emit_mrope(const parsed_args& a, const table_options& o) {
  const rope::mrope_config c = read_mrope_config(a, o.ctx);
  const std::vector<std::uint64_t> pos = read_mrope_positions(a, o.ctx);
  const std::size_t tokens = pos.size() / 3, pairs = static_cast<std::size_t>(rope::rotary_dim(c.text)) / 2;
  if (static_cast<std::uint64_t>(tokens) * pairs > max_table_rows)
    throw usage_error(o.ctx + ": table too large: " + std::to_string(tokens) + " tokens x " + std::to_string(pairs) +
                      " pairs (at most 2^24 entries per run)");
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    std::vector<math::sincos_result<T>> vals(tokens * pairs), scratch(rope::mrope_scratch_size(c, pos));
    check_status(rope::fill_mrope_pair_table<T>(c, pos, vals, scratch), "M-RoPE table");
    const std::string s = std::to_string(c.mrope_section[0]) + "," + std::to_string(c.mrope_section[1]) + "," +
                          std::to_string(c.mrope_section[2]);
    return write_pair_table<T>(
        vals, tokens, pairs, "token", "token i of the position-id file", "mrope",
        {{"head_dim", std::to_string(c.text.head_dim)},
         {"rope_theta", format_value(c.text.rope_theta, false)},
         {"partial_rotary_factor", format_value(c.text.partial_rotary_factor, false)},
         {"mrope_section", s},
         {"mrope_layout", c.layout == rope::mrope_layout::sections         ? "sections"
                          : c.layout == rope::mrope_layout::interleaved_hf ? "interleaved-hf"
                                                                           : "interleaved-ggml"}},
        "pair j rotates by the position of its stream (t, h or w) times theta_j", o);
  });
}

inline std::string emit_rope_nd(const parsed_args& a, const table_options& o) {
  const nd_settings s = read_nd_settings(a, o.ctx);
  const rope::nd_config c = s.config();
  const std::vector<double> pos = read_nd_positions(a, s, o.ctx);
  const std::size_t tokens = pos.size() / s.axes_dim.size(),
                    pairs = static_cast<std::size_t>(rope::nd_rotary_dim(c)) / 2;
  if (static_cast<std::uint64_t>(tokens) * pairs > max_table_rows)
    throw usage_error(o.ctx + ": table too large: " + std::to_string(tokens) + " tokens x " + std::to_string(pairs) +
                      " pairs (at most 2^24 entries per run)");
  std::string axes;
  for (const int d : s.axes_dim) axes += (axes.empty() ? "" : ",") + std::to_string(d);
  return with_dtype(o.type, [&]<class T>(std::type_identity<T>) {
    std::vector<math::sincos_result<T>> vals(tokens * pairs), scratch(rope::nd_scratch_size(c, pos));
    check_status(rope::fill_nd_pair_table<T>(c, pos, vals, scratch), "ND RoPE table");
    return write_pair_table<T>(vals, tokens, pairs, "token", "token i of the position-id file", "rope-nd",
                               {{"axes_dim", axes},
                                {"rope_theta", format_value(s.rope_theta, false)},
                                {"angle", s.turns ? "turns" : "radians"}},
                               s.turns ? "axis a holds its axes_dim[a] / 2 pairs in order; pair k of axis a rotates by "
                                         "2 pi p_a rope_theta^(-2k / axes_dim[a])"
                                       : "axis a holds its axes_dim[a] / 2 pairs in order; pair k of axis a rotates by "
                                         "p_a rope_theta^(-2k / axes_dim[a])",
                               o);
  });
}

inline constexpr scheme_command mrope_command{
    "mrope",
    "mrope (--head-dim D --mrope-section S1,S2,S3 | --hf-config FILE) --position-ids FILE\n"
    "      [--rope-theta 10000] [--partial-rotary-factor 1] [--mrope-layout sections|interleaved-hf|interleaved-ggml]",
    mrope_flags, true, emit_mrope};
inline constexpr scheme_command rope_nd_command{
    "rope-nd",
    "rope-nd (--axes-dim A1,A2[,...] | --hf-config FILE) (--position-ids FILE | --grid H,W)\n"
    "      [--rope-theta 10000] [--two-pi]",
    rope_nd_flags, true, emit_rope_nd};
// This file's tables, as schemes.hpp collects them (its name + _commands).
inline constexpr scheme_command rope_streams_commands[] = {mrope_command, rope_nd_command};

}  // namespace posenc::cli::emit

#if POSENC_CLI_HAVE_VERIFY
namespace posenc::cli::verify_schemes {

inline pv::verify_report run_mrope(const parsed_args& a, const options& o) {
  pv::mrope_verify_request q;
  q.run = o.run;
  q.config = emit::read_mrope_config(a, o.ctx);
  q.positions = emit::read_mrope_positions(a, o.ctx);
  q.max_ulp = o.max_ulp;
  const std::size_t tokens = q.positions.size() / 3,
                    pairs = static_cast<std::size_t>(rope::rotary_dim(q.config.text)) / 2;
  q.description = table_words(o) + "; " + std::to_string(tokens) + " tokens x " + std::to_string(pairs) +
                  " pairs; M-RoPE sections " + std::to_string(q.config.mrope_section[0]) + "," +
                  std::to_string(q.config.mrope_section[1]) + "," + std::to_string(q.config.mrope_section[2]);
  return verify_real(o, {2, tokens, pairs}, "cos",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_mrope(q, in); });
}

inline pv::verify_report run_rope_nd(const parsed_args& a, const options& o) {
  pv::rope_nd_verify_request q;
  q.run = o.run;
  const emit::nd_settings s = emit::read_nd_settings(a, o.ctx);
  q.axes_dim = s.axes_dim;
  q.rope_theta = s.rope_theta;
  q.turns = s.turns;
  q.positions = emit::read_nd_positions(a, s, o.ctx);
  q.max_ulp = o.max_ulp;
  const std::size_t tokens = q.positions.size() / s.axes_dim.size(),
                    pairs = static_cast<std::size_t>(rope::nd_rotary_dim(s.config())) / 2;
  q.description = table_words(o) + "; " + std::to_string(tokens) + " tokens x " + std::to_string(pairs) + " pairs" +
                  (s.turns ? "; angle 2 pi p theta (turns)" : "");
  return verify_real(o, {2, tokens, pairs}, "cos",
                     [&q](std::span<const pv::values_input> in) { return pv::verify_rope_nd(q, in); });
}

inline constexpr verify_scheme mrope_verify{"mrope", run_mrope, false};
inline constexpr verify_scheme rope_nd_verify{"rope-nd", run_rope_nd, false};
inline constexpr verify_scheme rope_streams_verifiers[] = {mrope_verify, rope_nd_verify};

}  // namespace posenc::cli::verify_schemes
#endif
