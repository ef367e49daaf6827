// report_streams.hpp: `posenc report precision mrope` and `posenc report precision rope-nd`, the
// precision report of the multi-stream rotary tables (docs/rope-streams.md, docs/rope-precision.md).
//
//   posenc report precision mrope (--hf-config FILE | --head-dim D --mrope-section S1,S2,S3) -o DIR
//   posenc report precision rope-nd (--hf-config FILE | --axes-dim A1,A2,...) -o DIR
//
// Every entry of these tables is a 1D RoPE entry (rope/mrope.hpp, rope/nd.hpp): pair j of a token
// is pair k_j of a 1D config at the position of the pair's stream or axis. So the measurement is
// rope_precision's (posenc/verify/rope_precision.hpp), with the pairs grouped:
//   mrope    the text config's pairs grouped by their stream in HF's map (t, h, w); a row (decade,
//            stream) holds every pair of that stream at a stream position in the decade: text
//            tokens (t = h = w) and vision blocks (t, h, w apart) alike. The ggml-map-f32 pipeline
//            is posenc's float32 table under ggml's map (MROPE for sections, the same as HF's;
//            IMROPE for the interleaved layouts, whose fourth-stream pairs stay at position 0)
//            against HF's exact values, and a table gives the angle those pairs miss at powers of two.
//   rope-nd  one 1D config per distinct axis dim, {axes_dim[a], rope_theta}; BFL FLUX's float32
//            rope() is HF's float32 pipeline on it (float32 arange / dim, torch's pow, 1.0 / it,
//            float32 product, cos/sin), diffusers' get_1d_rotary_pos_embed the float64_freq one.
//            With every position measured (M < 1000), the entries of an (M+1) x (M+1) latent image
//            (FLUX: ids (0, row, col); two axes: (row, col)) not correctly rounded, from the
//            per-position counts.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <posenc/rope/config.hpp>
#include <posenc/rope/mrope.hpp>
#include <posenc/rope/nd.hpp>
#include <posenc/rope/seq_len.hpp>
#include <posenc/version.hpp>

#if defined(POSENC_CLI_HAVE_MPFR)
#include <posenc/verify/rope_precision.hpp>
#endif

#include "args.hpp"
#include "emit_config.hpp"
#include "policy_scope.hpp"
#include "report_output.hpp"
#include "schemes/rope_streams.hpp"

#if defined(POSENC_CLI_HAVE_MPFR)

namespace posenc::cli::report {

inline constexpr std::uint64_t default_nd_max_position = 127;  // a 2048 px FLUX image: 128 x 128 latent ids

inline std::string list_of(const std::vector<int>& v, const char* sep = ", ") {
  std::string s;
  for (const int x : v) s += (s.empty() ? "" : sep) + std::to_string(x);
  return s;
}

inline std::string report_header(const char* what) {
  return std::string("# ") + what +
         " precision report\n\nWritten by `posenc report precision` (posenc " POSENC_VERSION_STRING ", MPFR " +
         mpfr_get_version() +
         "). The reference is MPFR (posenc/verify/rope_precision.hpp): the exact frequencies of each 1D config, cos "
         "and sin of the exact angle `m theta_j`, at 192 bits.\n\n";
}

inline std::string positions_paragraph(const sampling& sm, std::size_t positions, const std::string& per) {
  const std::string m = std::to_string(sm.max_position), d = std::to_string(dense_positions);
  return "## Positions\n\nEvery position m < " + d + " (up to " + m + "), then the log-spaced positions floor(" + d +
         " * 10^(i/" + std::to_string(sm.per_decade) + ")), i = 1, 2, ..., up to " + m + ", and " + m +
         " itself: " + std::to_string(positions) + " positions, " + per + "\n\n";
}

// A set of rows of the decade tables: a label (which pairs) and its figures per decade.
struct row_group {
  std::string label;
  const std::vector<vf::decade_errors>* decades;
  int group;  // index into by_group, or -1 for by_pipeline
};

// "| positions | sampled | pairs | pipeline | 6 figures | not correctly rounded |", decade by decade.
inline std::string decade_rows(std::span<const shown_pipeline> shown, const std::vector<row_group>& groups) {
  std::string s =
      "| positions | sampled | pairs | pipeline | max abs | mean abs | max ulp | mean ulp | max angle (rad) | mean "
      "angle (rad) | not correctly rounded |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
  const std::size_t decades = groups.empty() ? 0 : groups.front().decades->size();
  for (std::size_t k = 0; k < decades; ++k)
    for (const row_group& g : groups) {
      const vf::decade_errors& d = (*g.decades)[k];
      const vf::pipeline_errors& by = g.group < 0 ? d.by_pipeline : d.by_group[static_cast<std::size_t>(g.group)];
      for (const shown_pipeline& p : shown) {
        s += "| " + decade_label(d) + " | " + std::to_string(d.positions) + " | " + g.label + " | ";
        s += p.name;
        if (!p.applicable) {
          s += " | not applicable | - | - | - | - | - | - |\n";
          continue;
        }
        const vf::precision_stats& e = by[static_cast<std::size_t>(p.p)];
        s += " | " + figure_cells(e, vf::has_angle(p.p)) + " | " + std::to_string(e.not_rounded) + " of " +
             std::to_string(e.values) + " |\n";
      }
    }
  return s;
}

inline std::string error_table_intro() {
  return "## Error by position decade\n\nAbsolute and ulp error of cos and sin (each value counts once), absolute "
         "angle error in radians (the pipelines that form an angle), and the values more than half an ulp from the "
         "exact value (not correctly rounded), worst (max) and mean over the sampled positions of the decade and the "
         "row's pairs. The ulp is that of the exact value in the pipeline's type (bfloat16, float16 or float32): "
         "near a zero of cos or sin it is tiny, so a float32 pipeline's ulp error there is huge; read the absolute "
         "error for those.\n\n";
}

inline std::string plots_section() {
  return "\n## Plots\n\nWorst over all pairs at each sampled position m >= 1 (log scales). Data: `angle.dat`, "
         "`cos-sin.dat`; redraw with `gnuplot precision.gp` in this directory.\n\n![angle error](angle-error.png)\n\n"
         "![cos/sin error](cos-sin-error.png)\n";
}

inline std::string title_prefix(const parsed_args& a) {
  const auto f = a.value(emit::hf_config_flag);
  return f ? std::filesystem::path(std::string(*f)).stem().string() + ": " : std::string();
}

// ---- M-RoPE ----

inline const char* mrope_layout_name(rope::mrope_layout l) {
  return l == rope::mrope_layout::sections         ? "sections"
         : l == rope::mrope_layout::interleaved_hf ? "interleaved-hf"
                                                   : "interleaved-ggml";
}

inline constexpr const char* stream_names[] = {"t", "h", "w"};

// The M-RoPE report's pipelines.
inline std::array<shown_pipeline, 6> shown_mrope(const vf::rope_precision& rp) {
  using P = vf::precision_pipeline;
  return {{{P::hf_float32, "hf-float32", true},
           {P::ggml_float32, "ggml-float32", rp.applicable(P::ggml_float32)},
           {P::exact_f32, "exact-f32", true},
           {P::exact_bf16, "exact-bf16", true},
           {P::exact_f16, "exact-f16", true},
           {P::ggml_map_f32, "ggml-map-f32", true}}};
}

// The positions at which the missing angles of ggml's map are listed: 2^10, 2^11, ... up to M, and M.
inline std::vector<std::uint64_t> landmark_positions(std::uint64_t max_position) {
  std::vector<std::uint64_t> v;
  for (std::uint64_t p = 1024; p <= max_position; p *= 2) v.push_back(p);
  if (v.empty() || v.back() != max_position) v.push_back(max_position);
  return v;
}

// Which pairs ggml's map rotates by position 0 where HF's rotates them by t, and what they miss.
inline std::string ggml_map_section(const vf::rope_precision& rp, const rope::mrope_config& ggml_map,
                                    std::uint64_t max_position) {
  std::vector<int> zero;
  for (int j = 0; j < rp.pairs(); ++j)
    if (rp.options().ggml_map_zero[static_cast<std::size_t>(j)]) zero.push_back(j);
  std::string s = "## ggml's stream map\n\nllama.cpp builds this layout's table with ggml's ";
  s += ggml_map.layout == rope::mrope_layout::sections ? "MROPE" : "IMROPE";
  s += " map (ggml_mrope_cache_init). ";
  if (zero.empty())
    return s +
           "It gives every pair the stream HF gives it: no pair differs, and the ggml-map-f32 rows equal "
           "exact-f32 with angle error 0.\n\n";
  s += "Pairs " + list_of(zero) +
       " are on HF's t stream but on ggml's fourth stream, which llama.cpp feeds position 0: ggml leaves them "
       "unrotated (cos = af, sin = 0) where HF rotates them by t theta_j. The angle they miss is t theta_j (the same "
       "for text tokens and vision blocks, at their t position), from MPFR; the cos/sin difference is the largest of "
       "|af cos(t theta_j) - af| and |af sin(t theta_j)| over these pairs.\n\n";
  s += "| t position |";
  for (const int j : zero) s += " pair " + std::to_string(j) + ": missing angle (rad) |";
  s += " largest cos/sin difference |\n|---|";
  for (std::size_t i = 0; i <= zero.size(); ++i) s += "---|";
  s += "\n";
  const double af = rp.attention_factor();
  for (const std::uint64_t p : landmark_positions(max_position)) {
    s += "| " + std::to_string(p) + " |";
    double worst = 0;
    for (const int j : zero) {
      const vf::exact_pair e = rp.exact(p, j);
      s += " " + fmt("%.4g", e.angle) + " |";
      worst = std::max({worst, std::fabs(e.cos - af), std::fabs(e.sin)});
    }
    s += " " + fmt("%.4g", worst) + " |\n";
  }
  return s + "\n";
}

// HF's stream map (the reference) and ggml's for the config's layout family, and what they give
// rope_precision: each pair's stream in HF's map, and the pairs ggml's map leaves at position 0.
struct mrope_maps {
  rope::mrope_config hf, ggml;
  vf::precision_options options;
  std::vector<std::vector<int>> stream_pairs = std::vector<std::vector<int>>(3);
};

inline mrope_maps mrope_maps_of(const rope::mrope_config& mc) {
  const bool interleaved = mc.layout != rope::mrope_layout::sections;
  mrope_maps m{mc, mc, {}};
  m.hf.layout = interleaved ? rope::mrope_layout::interleaved_hf : rope::mrope_layout::sections;
  m.ggml.layout = interleaved ? rope::mrope_layout::interleaved_ggml : rope::mrope_layout::sections;
  m.options.ggml_map = true;
  for (int j = 0; j < rope::rotary_dim(mc.text) / 2; ++j) {
    const int s = rope::mrope_stream(m.hf, j);  // 0, 1 or 2: HF has no fourth stream
    m.options.group_of_pair.push_back(s);
    m.options.ggml_map_zero.push_back(rope::mrope_stream(m.ggml, j) < 0);
    m.stream_pairs[static_cast<std::size_t>(s)].push_back(j);
  }
  return m;
}

// The title, the configuration and the streams' pairs of precision.md.
inline std::string mrope_preamble(const vf::rope_precision& rp, const rope::mrope_config& mc, const mrope_maps& maps,
                                  const std::string& sections) {
  std::string md = report_header("M-RoPE");
  md += "## Configuration\n\n```\n" + emit::describe_config(mc.text, "") + "mrope_section: " + sections +
        "\nmrope_layout: " + mrope_layout_name(mc.layout) + "\n```\n\n";
  md += "Reference stream map: HF's " + std::string(mrope_layout_name(maps.hf.layout)) +
        " (Qwen2VLRotaryEmbedding / Qwen3VLTextRotaryEmbedding); ggml's map: " +
        (maps.ggml.layout == rope::mrope_layout::sections ? "MROPE" : "IMROPE") + ". Exact attention factor " +
        fmt("%.17g", rp.attention_factor()) + ".\n\n| stream | pairs (HF's map) | count |\n|---|---|---|\n";
  for (std::size_t s = 0; s < 3; ++s)
    if (!maps.stream_pairs[s].empty())
      md += std::string("| ") + stream_names[s] + " | " + list_of(maps.stream_pairs[s]) + " | " +
            std::to_string(maps.stream_pairs[s].size()) + " |\n";
  md +=
      "\nEvery entry of an M-RoPE table is the 1D entry of the text config at the position of its pair's stream, so "
      "a row (decade, stream) holds that stream's pairs at every sampled stream position of the decade: a text "
      "token at m (t = h = w = m) has its three rows in m's decade, a vision token's t, h and w pairs are in the "
      "rows of its own t, h and w positions.\n\n";
  return md;
}

inline std::string mrope_pipelines(const rope::mrope_config& mc, bool ggml) {
  std::string md =
      "## Pipelines\n\n| pipeline | what | ulps of |\n|---|---|---|\n"
      "| hf-float32 | HF's float32 pipeline per pair (`rope::hf_float32`): float32 inv_freq times the float32 "
      "position, cos/sin in float32 | float32 |\n";
  md += std::string("| ggml-float32 | ") +
        (ggml ? "ggml's float32 recurrence (`rope::ggml_float32`) on each pair's stream position"
              : "not applicable: " + ggml_refusal(mc.text)) +
        " | float32 |\n";
  md +=
      "| exact-f32 | posenc's table (`rope::fill_mrope_table<float>`), rounded once from the exact value | float32 "
      "|\n| exact-bf16 | posenc's table in bfloat16, rounded once | bfloat16 |\n| exact-f16 | posenc's table in "
      "float16, rounded once | float16 |\n| ggml-map-f32 | posenc's float32 table under ggml's stream map, against "
      "HF's map: its angle error is the angle ggml's map gives up | float32 |\n\n";
  return md;
}

inline void run_mrope_precision(const parsed_args& a, const std::string& output, std::string& out) {
  const std::string ctx = "report precision mrope";
  rope::mrope_config mc = emit::read_mrope_config(a, ctx);
  const sampling sm = read_sampling(a, default_max_position, ctx);
  mc.text = rope::with_seq_len_of_positions(mc.text, sm.max_position);
  staging_dir dir(output);  // bad -o: usage_error before any measurement

  const auto start = std::chrono::steady_clock::now();
  const mrope_maps maps = mrope_maps_of(mc);
  const vf::rope_precision rp(mc.text, maps.options);
  const std::vector<std::uint64_t> positions = vf::precision_positions(sm.max_position, dense_positions, sm.per_decade);
  const std::vector<vf::position_errors> rows = rp.measure(positions, sm.threads);
  const std::vector<vf::decade_errors> decades = vf::precision_decades(rows, sm.max_position);
  const auto shown = shown_mrope(rp);
  std::vector<row_group> groups;
  for (std::size_t s = 0; s < 3; ++s)
    if (!maps.stream_pairs[s].empty())
      groups.push_back({std::string(stream_names[s]) + " (" + std::to_string(maps.stream_pairs[s].size()) + " pairs)",
                        &decades, static_cast<int>(s)});

  const std::string sections = list_of(std::vector<int>(mc.mrope_section.begin(), mc.mrope_section.end()));
  const bool ggml = rp.applicable(vf::precision_pipeline::ggml_float32);
  std::string md = mrope_preamble(rp, mc, maps, sections);
  md += positions_paragraph(sm, positions.size(),
                            "each with all " + std::to_string(rp.pairs()) + " pairs (one cos and one sin per pair).");
  md += mrope_pipelines(mc, ggml) + error_table_intro() + decade_rows(shown, groups) + "\n" +
        ggml_map_section(rp, maps.ggml, sm.max_position) + plots_section();
  finish(dir, sm, shown, rows,
         title_prefix(a) + "M-RoPE " + mrope_layout_name(mc.layout) + " [" + sections + "], theta " +
             fmt("%g", mc.text.rope_theta) + ", rotary dim " + std::to_string(rope::rotary_dim(mc.text)),
         md);
  out += wrote(output, positions.size(), rp.pairs(), sm, start);
}

// ---- ND RoPE ----

// The ND report's pipelines.
inline std::array<shown_pipeline, 5> shown_nd() {
  using P = vf::precision_pipeline;
  return {{{P::hf_float32, "bfl-float32", true},
           {P::float64_freq, "diffusers-float64", true},
           {P::exact_f32, "exact-f32", true},
           {P::exact_bf16, "exact-bf16", true},
           {P::exact_f16, "exact-f16", true}}};
}

// The axes of one dim, measured once.
struct axis_group {
  int dim = 0;
  std::vector<int> axes, first_pair;
  std::unique_ptr<vf::rope_precision> rp;
  std::vector<vf::position_errors> rows;
  std::vector<vf::decade_errors> decades;
  std::string label() const {
    std::string s = (axes.size() == 1 ? "axis " : "axes ") + list_of(axes) + " (pairs ";
    for (std::size_t i = 0; i < axes.size(); ++i)
      s += (i ? ", " : "") + std::to_string(first_pair[i]) + "-" + std::to_string(first_pair[i] + dim / 2 - 1);
    return s + ")";
  }
};

// The image rows and columns: axes 1 and 2 of three or more (FLUX.1 (0, row, col), FLUX.2 (t, row,
// col, l)), both axes of two, the axis of one. The other axes are at 0.
inline bool grid_axis(std::size_t axes, int a) { return axes >= 3 ? (a == 1 || a == 2) : true; }

// The entries of a G x G latent image (G = M + 1 <= 1000, every position measured) per pipeline.
inline std::string image_section(std::span<const shown_pipeline> shown, const std::vector<axis_group>& groups,
                                 std::size_t axes, int pairs, std::uint64_t max_position) {
  const std::uint64_t g = max_position + 1;
  std::string s = "## A " + std::to_string(g) + " x " + std::to_string(g) + " latent image\n\n";
  if (max_position >= dense_positions)
    return s + "Not computed: positions from " + std::to_string(dense_positions) +
           " on are sampled, not all measured (use --max-position below " + std::to_string(dense_positions) + ").\n\n";
  const int grid_axes = axes >= 3 ? 2 : static_cast<int>(axes);
  std::uint64_t tokens = 1;
  for (int i = 0; i < grid_axes; ++i) tokens *= g;
  s += "Every token of the image (row and column on " +
       std::string(axes >= 3   ? "axes 1 and 2, the other axes at 0, as FLUX.1's (0, row, col) and FLUX.2's (0, row, "
                                 "col, 0)"
                   : axes == 2 ? "the two axes"
                               : "the one axis") +
       "): " + std::to_string(tokens) + " tokens x " + std::to_string(pairs) +
       " pairs, a cos and a sin each. An entry depends on its axis position alone, so the counts come from the "
       "per-position figures above.\n\n| pipeline | entries not correctly rounded | of | largest abs error |\n"
       "|---|---|---|---|\n";
  for (const shown_pipeline& p : shown) {
    std::uint64_t wrong = 0;
    double worst = 0;
    for (const axis_group& ag : groups)
      for (const int a : ag.axes) {
        const bool grid = grid_axis(axes, a);
        const std::uint64_t copies = grid ? tokens / g : tokens;  // the tokens sharing one position of the axis
        for (std::uint64_t m = 0; m < (grid ? g : 1); ++m) {
          const vf::precision_stats& e =
              ag.rows[static_cast<std::size_t>(m)].by_pipeline[static_cast<std::size_t>(p.p)];
          wrong += copies * e.not_rounded;
          worst = std::max(worst, e.max_abs);
        }
      }
    s += "| " + std::string(p.name) + " | " + std::to_string(wrong) + " | " +
         std::to_string(tokens * static_cast<std::uint64_t>(pairs) * 2) + " | " + sci(worst) + " |\n";
  }
  return s + "\n";
}

// The axes grouped by dim, each group's pairs located in the row; `pairs` gets the row's pair count.
inline std::vector<axis_group> axis_groups_of(const std::vector<int>& axes_dim, int& pairs) {
  std::vector<axis_group> groups;
  pairs = 0;
  for (std::size_t ax = 0; ax < axes_dim.size(); ++ax) {
    const int d = axes_dim[ax];
    auto it = std::find_if(groups.begin(), groups.end(), [d](const axis_group& g) { return g.dim == d; });
    if (it == groups.end()) it = groups.insert(groups.end(), axis_group{d, {}, {}, nullptr, {}, {}});
    it->axes.push_back(static_cast<int>(ax));
    it->first_pair.push_back(pairs);
    pairs += d / 2;
  }
  return groups;
}

// Measures each group's 1D config at the positions; returns the worst over every pair per position.
inline std::vector<vf::position_errors> measure_axes(std::vector<axis_group>& groups, const rope::nd_config& nc,
                                                     const std::vector<std::uint64_t>& positions, const sampling& sm) {
  std::vector<vf::position_errors> merged(positions.size());
  for (axis_group& g : groups) {
    vf::precision_options o;
    o.float64_freq = true;
    g.rp = std::make_unique<vf::rope_precision>(rope::axis_config(nc, static_cast<std::size_t>(g.axes.front())), o);
    g.rows = g.rp->measure(positions, sm.threads);
    g.decades = vf::precision_decades(g.rows, sm.max_position);
    for (std::size_t i = 0; i < positions.size(); ++i) {
      merged[i].position = positions[i];
      vf::merge_into(merged[i].by_pipeline, g.rows[i].by_pipeline);
    }
  }
  return merged;
}

inline std::string nd_preamble(const std::string& axes, double rope_theta) {
  return report_header("ND RoPE") + "## Configuration\n\n```\naxes_dim: " + axes +
         "\nrope_theta: " + fmt("%.17g", rope_theta) +
         "\n```\n\nAxis a holds pairs [o_a, o_a + axes_dim[a] / 2) and pair o_a + k rotates by p_a theta^(-2k / "
         "axes_dim[a]): each axis is the 1D config {head_dim: axes_dim[a], rope_theta}, measured once per distinct "
         "dim. A row (decade, axis) holds the axis's pairs at every sampled position of the decade on that axis.\n\n";
}

inline constexpr std::string_view nd_pipelines =
    "## Pipelines\n\n| pipeline | what | ulps of |\n|---|---|---|\n"
    "| bfl-float32 | BFL FLUX `rope()` with float32 ids (since PR #195): scale = float32 arange(0, d, 2) / d, "
    "omega = 1.0 / theta ** scale (torch's float32 pow), angle = float32 position * omega, float32 cos/sin: HF's "
    "float32 pipeline (`rope::hf_float32`) on the axis config | float32 |\n"
    "| diffusers-float64 | diffusers `get_1d_rotary_pos_embed(freqs_dtype=float64)`: 1.0 / theta ** (float64 "
    "arange(0, d, 2) / d), angle = position * freq in float64, cos/sin in float64, then `.float()` | float32 |\n"
    "| exact-f32 | posenc's table (`rope::fill_nd_table<float>`), rounded once from the exact value | float32 |\n"
    "| exact-bf16 | posenc's table in bfloat16, rounded once | bfloat16 |\n"
    "| exact-f16 | posenc's table in float16, rounded once | float16 |\n\n"
    "bfl-float32's power is torch's (SLEEF's powf, `posenc::math::sleef_powf`); the cos and sin of both pipelines "
    "and diffusers' float64 power are posenc's correctly rounded functions, where torch's are within an ulp "
    "(docs/rope-precision.md, \"The caveat\").\n\n";

inline void run_nd_precision(const parsed_args& a, const std::string& output, std::string& out) {
  const std::string ctx = "report precision rope-nd";
  const emit::nd_settings st = emit::read_nd_settings(a, ctx);
  // The pipelines measured are FLUX's and diffusers' (angle p theta); DINOv3's angle in turns has
  // no float pipeline here, so its config is refused rather than measured as another table.
  if (st.turns)
    throw usage_error(ctx +
                      ": the angle in turns (DINOv3's 2 pi p theta) is not measured; "
                      "posenc emit|verify rope-nd --two-pi give and check its table");
  const sampling sm = read_sampling(a, default_nd_max_position, ctx);
  staging_dir dir(output);  // bad -o: usage_error before any measurement

  const auto start = std::chrono::steady_clock::now();
  int pairs = 0;
  std::vector<axis_group> groups = axis_groups_of(st.axes_dim, pairs);
  const std::vector<std::uint64_t> positions = vf::precision_positions(sm.max_position, dense_positions, sm.per_decade);
  const std::vector<vf::position_errors> merged = measure_axes(groups, st.config(), positions, sm);
  const auto shown = shown_nd();
  std::vector<row_group> rows;
  for (const axis_group& g : groups) rows.push_back({g.label(), &g.decades, -1});
  const std::string axes = list_of(st.axes_dim, ",");
  const std::string md =
      nd_preamble(axes, st.rope_theta) +
      positions_paragraph(sm, positions.size(), "each with every pair of every axis (one cos and one sin per pair).") +
      std::string(nd_pipelines) + error_table_intro() + decade_rows(shown, rows) + "\n" +
      image_section(shown, groups, st.axes_dim.size(), pairs, sm.max_position) + plots_section();
  finish(dir, sm, shown, merged, title_prefix(a) + "ND RoPE axes [" + axes + "], theta " + fmt("%g", st.rope_theta),
         md);
  out += wrote(output, positions.size(), pairs, sm, start);
}

}  // namespace posenc::cli::report

#endif
