// commands_report.hpp: `posenc report precision` (issue 10, "Precision report"), for 1D RoPE and,
// in report_streams.hpp, for M-RoPE and ND axial RoPE.
//
//   posenc report precision [mrope | rope-nd] [--hf-config FILE | config flags] -o DIR
//                           [--max-position M] [--per-decade S] [--threads N] [--no-plots]
//
// Measures HF's float32 pipeline, ggml's float32 recurrence (default and linear rope types only)
// and posenc's correctly rounded float32, bfloat16 and float16 tables against MPFR
// (posenc/verify/rope_precision.hpp) and writes DIR/precision.md (a table per position decade),
// the plot data (angle.dat, cos-sin.dat), the gnuplot script precision.gp and, unless --no-plots,
// the PNGs it draws (angle-error.png, cos-sin-error.png). Everything is written into a temporary
// directory beside DIR and renamed to DIR at the end: DIR is created whole or not at all. DIR must
// not exist, or be an empty directory. Bad input (no -o, a bad config, a flag of another form, DIR
// not creatable, gnuplot not on PATH without --no-plots) exits 2 with one line, before anything is
// created. Needs the verify layer (MPFR): without it (POSENC_CLI_HAVE_MPFR unset) the command says so.
// Docs: docs/cli.md (`posenc report`), docs/rope-precision.md, docs/rope-streams.md.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <posenc/rope/config.hpp>
#include <posenc/rope/seq_len.hpp>
#include <posenc/version.hpp>

#if defined(POSENC_CLI_HAVE_MPFR)
#include <posenc/verify/rope_precision.hpp>
#endif

#include "args.hpp"
#include "emit_config.hpp"
#include "hf_config_flag.hpp"
#include "policy_scope.hpp"
#include "report_output.hpp"
#include "report_streams.hpp"
#include "schemes/rope_streams.hpp"

namespace posenc::cli::report {

inline constexpr flag_spec own_flags[] = {
    {"hf-config", flag_kind::value, "FILE", "values from a HuggingFace config.json (flags override them)"},
    {"max-position", flag_kind::value, "M",
     "largest position measured (default 1048576, rope-nd 127; at most 2^31 - 1)"},
    {"per-decade", flag_kind::value, "S", "log-spaced positions per decade above 1000 (default 1000)"},
    {"threads", flag_kind::value, "N", "measuring threads (default: all cores)"},
    {"no-plots", flag_kind::boolean, "", "write the data and the gnuplot script but do not run gnuplot"},
    {"output", flag_kind::value, "DIR", "same as -o DIR"},
};

// The flags of the three forms: 1D RoPE's config flags, M-RoPE's and ND RoPE's (emit's, but not
// --position-ids and --grid: the report samples the positions; nor --two-pi: DINOv3's angle in
// turns has no float pipeline measured here), the report's.
inline constexpr bool report_reads(std::string_view name) {
  return name != "position-ids" && name != "grid" && name != "two-pi";
}
inline constexpr auto all_flags = [] {
  flag_union<64> u;
  u.add(emit::config_flags).add(own_flags);
  for (const std::span<const flag_spec> list :
       {std::span<const flag_spec>(emit::mrope_flags), std::span<const flag_spec>(emit::rope_nd_flags)})
    for (const flag_spec& f : list)
      if (report_reads(f.name)) u.add({&f, 1});
  return u;
}();

inline constexpr std::string_view usage =
    "usage: posenc report precision [--hf-config FILE | rope config flags] -o DIR\n"
    "                               [--max-position M] [--per-decade S] [--threads N] [--no-plots]\n"
    "       posenc report precision mrope (--hf-config FILE | --head-dim D --mrope-section S1,S2,S3)\n"
    "                               [--rope-theta B] [--partial-rotary-factor F] [--mrope-layout L] -o DIR ...\n"
    "       posenc report precision rope-nd (--hf-config FILE | --axes-dim A1,A2,...) [--rope-theta B] -o DIR ...\n"
    "\n"
    "How far RoPE cos/sin tables are from the exact values, measured against MPFR: HF's float32\n"
    "pipeline (hf-float32, every rope type; angle error too), ggml's float32 recurrence (ggml-float32,\n"
    "rope_type default and linear only, otherwise 'not applicable'), and posenc's correctly rounded\n"
    "float32, bfloat16 and float16 tables (exact-f32, exact-bf16, exact-f16: the format's own rounding,\n"
    "at most half an ulp). cos and sin include the attention factor (HF's float32 one for hf-float32,\n"
    "the exact one for the reference and posenc's tables).\n"
    "\n"
    "Positions: every m < 1000, then floor(1000 * 10^(i/S)) for i = 1, 2, ... up to M, and M itself.\n"
    "Writes DIR/precision.md (max and mean absolute and ulp error of cos/sin and max and mean angle\n"
    "error per position decade and pipeline), angle.dat and cos-sin.dat (worst over the pairs, per\n"
    "position), precision.gp (redraw with 'gnuplot precision.gp' in DIR) and, unless --no-plots, the\n"
    "PNGs angle-error.png and cos-sin-error.png drawn by gnuplot (must be on PATH: Debian gnuplot-nox).\n"
    "DIR must not exist or be empty; it is created whole at the end or not at all.\n"
    "\n"
    "mrope: the same per stream (the rows of t, h and w pairs, each at its stream's position: text\n"
    "tokens and vision grids alike), plus ggml-map-f32, posenc's float32 table under ggml's stream map\n"
    "(IMROPE for the interleaved layouts: pairs off its three streams at position 0) against HF's map.\n"
    "rope-nd: per axis, BFL FLUX's float32 frequencies (bfl-float32), diffusers' float64 ones\n"
    "(diffusers-float64) and posenc's tables; with M < 1000, the counts of an M+1 x M+1 latent image.\n"
    "\n"
    "flags:\n";

enum class report_form { rope, mrope, rope_nd };

struct target {
  std::string output;
  report_form form = report_form::rope;
};

inline target read_target(const parsed_args& a) {
  target t;
  std::vector<std::string_view> what;
  const auto& p = a.positionals;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] != "-o") {
      what.push_back(p[i]);
      continue;
    }
    if (i + 1 >= p.size()) throw usage_error("report: -o needs a directory name");
    if (!t.output.empty()) throw usage_error("report: the output directory is given twice");
    t.output = std::string(p[++i]);
    if (t.output.empty()) throw usage_error("report: -o has an empty value");
  }
  if (what.empty()) throw usage_error("report: missing <what> (one of: precision)");
  if (what[0] != "precision") throw usage_error("report: unknown report " + quote(what[0]) + " (one of: precision)");
  if (what.size() > 1) {
    if (what[1] == "mrope")
      t.form = report_form::mrope;
    else if (what[1] == "rope-nd")
      t.form = report_form::rope_nd;
    else
      throw usage_error("report precision: unexpected argument " + quote(what[1]) +
                        " (the multi-stream forms: mrope, rope-nd)");
  }
  if (what.size() > 2) throw usage_error("report precision: unexpected argument " + quote(what[2]));
  if (const auto v = a.value("output")) {
    if (!t.output.empty()) throw usage_error("report precision: the output directory is given twice");
    t.output = std::string(*v);
  }
  if (t.output.empty()) throw usage_error("report precision: -o DIR is required");
  return t;
}

inline bool listed(std::string_view name, std::span<const flag_spec> list) {
  for (const flag_spec& f : list)
    if (f.name == name) return true;
  return false;
}

// Every flag given must be one of the form's: its config flags or the report's own.
inline void check_form_flags(const parsed_args& a, report_form form) {
  const std::string ctx = form == report_form::rope    ? "report precision"
                          : form == report_form::mrope ? "report precision mrope"
                                                       : "report precision rope-nd";
  const std::span<const flag_spec> config = form == report_form::rope ? std::span<const flag_spec>(emit::config_flags)
                                            : form == report_form::mrope
                                                ? std::span<const flag_spec>(emit::mrope_flags)
                                                : std::span<const flag_spec>(emit::rope_nd_flags);
  for (const std::string_view f : a.names())
    if (!(listed(f, config) || listed(f, own_flags)))
      throw usage_error(ctx + ": flag --" + std::string(f) + " does not apply to '" + ctx + "'");
}

#if defined(POSENC_CLI_HAVE_MPFR)

inline std::string markdown(const vf::rope_precision& rp, const rope::config& c, std::uint64_t max_position,
                            std::uint64_t per_decade, std::size_t positions,
                            const std::vector<vf::decade_errors>& decades) {
  using vf::precision_pipeline;
  const bool ggml = rp.applicable(precision_pipeline::ggml_float32);
  std::string s;
  s += "# RoPE precision report\n\n";
  s += "Written by `posenc report precision` (posenc " POSENC_VERSION_STRING ", MPFR " +
       std::string(mpfr_get_version()) +
       "). The reference is MPFR (posenc/verify/rope_precision.hpp): the exact frequencies and attention factor "
       "of the config, cos and sin of the exact angle `m theta_j`, at 192 bits.\n\n";
  s += "## Configuration\n\n```\n" + emit::describe_config(c, "") + "```\n\n";
  s += std::to_string(rp.pairs()) + " rotary pairs; exact attention factor " + fmt("%.17g", rp.attention_factor()) +
       " (cos and sin of every pipeline include it).\n\n";
  s += "## Positions\n\n";
  s += "Every position m < " + std::to_string(dense_positions) + " (up to " + std::to_string(max_position) +
       "), then the log-spaced positions floor(" + std::to_string(dense_positions) + " * 10^(i/" +
       std::to_string(per_decade) + ")), i = 1, 2, ..., up to " + std::to_string(max_position) + ", and " +
       std::to_string(max_position) + " itself: " + std::to_string(positions) + " positions, each with all " +
       std::to_string(rp.pairs()) + " pairs (one cos and one sin per pair).\n\n";
  s += "## Pipelines\n\n";
  s += "| pipeline | what | ulps of |\n|---|---|---|\n";
  s += "| hf-float32 | HF's float32 pipeline (`rope::hf_float32`): float32 inv_freq, angle, cos/sin, times HF's "
       "float32 attention factor | float32 |\n";
  s += std::string("| ggml-float32 | ") +
       (ggml ? "ggml's float32 recurrence (`rope::ggml_float32`)" : "not applicable: " + ggml_refusal(c)) +
       " | float32 |\n";
  s +=
      "| exact-f32 | posenc's table (`rope::attention_sincos<float>`), rounded once from the exact value | float32 |\n";
  s += "| exact-bf16 | posenc's table in bfloat16, rounded once (not through float) | bfloat16 |\n";
  s += "| exact-f16 | posenc's table in float16, rounded once | float16 |\n\n";
  s += "posenc's tables are correctly rounded, so their error is the rounding of the storage format itself: at most "
       "half an ulp (max ulp 0.5), i.e. at most 2^-25 = 2.98e-08 (float32), 2^-9 = 1.95e-03 (bfloat16) and 2^-12 = "
       "2.44e-04 (float16) for values in [1/2, 1). The float32 pipelines lose accuracy in the angle, which grows "
       "linearly with the position.\n\n";
  s += "## Error by position decade\n\n";
  s += "Absolute and ulp error of cos and sin (each value counts once), and absolute angle error in radians "
       "(float32 pipelines), worst (max) and mean over the sampled positions of the decade and all pairs. The ulp is "
       "that of the exact value in the pipeline's type: near a zero of cos or sin it is tiny, so a float32 "
       "pipeline's ulp error there is huge; read the absolute error for those.\n\n";
  s +=
      "| positions | sampled | pipeline | max abs | mean abs | max ulp | mean ulp | max angle (rad) | mean angle (rad) "
      "|\n";
  s += "|---|---|---|---|---|---|---|---|---|\n";
  for (const vf::decade_errors& d : decades) {
    for (const precision_pipeline p : vf::precision_pipelines) {
      const vf::precision_stats& e = d.by_pipeline[static_cast<std::size_t>(p)];
      s += "| ";
      s += decade_label(d);
      s += " | ";
      s += std::to_string(d.positions);
      s += " | ";
      s += vf::pipeline_name(p);
      s += " | ";
      if (!rp.applicable(p)) {
        s += "not applicable | - | - | - | - | - |\n";
        continue;
      }
      s += sci(e.max_abs) + " | " + sci(e.mean_abs()) + " | " + fmt("%.4g", e.max_ulp) + " | " +
           fmt("%.4g", e.mean_ulp()) + " | ";
      s += vf::has_angle(p) ? sci(e.max_angle) + " | " + sci(e.mean_angle()) + " |\n" : "- | - |\n";
    }
  }
  s += "\n## Plots\n\n";
  s += "Worst over the pairs at each sampled position m >= 1 (log scales). Data: `angle.dat`, `cos-sin.dat`; redraw "
       "with `gnuplot precision.gp` in this directory.\n\n";
  s += "![angle error](angle-error.png)\n\n![cos/sin error](cos-sin-error.png)\n";
  return s;
}

// The 1D report's pipelines, as it names them.
inline std::array<shown_pipeline, 5> shown_1d(const vf::rope_precision& rp) {
  std::array<shown_pipeline, 5> r{};
  for (std::size_t i = 0; i < r.size(); ++i) {
    const vf::precision_pipeline p = vf::precision_pipelines[i];
    r[i] = {p, vf::pipeline_name(p), rp.applicable(p)};
  }
  return r;
}

inline std::string plot_title(const rope::config& c, const parsed_args& a) {
  std::string t;
  if (const auto f = a.value(emit::hf_config_flag)) t = std::filesystem::path(std::string(*f)).stem().string() + ": ";
  t += std::string(emit::rope_type_name(c.rope_type)) + ", theta " + fmt("%g", c.rope_theta) + ", rotary dim " +
       std::to_string(rope::rotary_dim(c));
  if (c.factor != 0.0) t += ", factor " + fmt("%g", c.factor);
  return t;
}

inline void run_precision(const parsed_args& a, const std::string& output, std::string& out) {
  const std::string ctx = "report precision";
  const auto hf = emit::hf_rope_settings(a, ctx);
  const rope::config hf_cfg = hf ? hf->config() : rope::config{};
  emit::parsed_config pc = emit::read_config(a, ctx, hf ? &hf_cfg : nullptr);
  const sampling sm = read_sampling(a, default_max_position, ctx);
  // The measured positions end at max_position: HF's sequence length for dynamic NTK and LongRoPE.
  pc.cfg = rope::with_seq_len_of_positions(pc.cfg, sm.max_position);
  staging_dir dir(output);  // bad -o: usage_error before any measurement

  const auto start = std::chrono::steady_clock::now();
  const vf::rope_precision rp(pc.cfg);
  const std::vector<std::uint64_t> positions = vf::precision_positions(sm.max_position, dense_positions, sm.per_decade);
  const std::vector<vf::position_errors> rows = rp.measure(positions, sm.threads);
  const std::vector<vf::decade_errors> decades = vf::precision_decades(rows, sm.max_position);
  const auto shown = shown_1d(rp);
  finish(dir, sm, shown, rows, plot_title(pc.cfg, a),
         markdown(rp, pc.cfg, sm.max_position, sm.per_decade, positions.size(), decades));
  out += wrote(output, positions.size(), rp.pairs(), sm, start);
}

#endif

inline void run(const parsed_args& a, std::string& out) {
#if defined(POSENC_CLI_HAVE_MPFR)
  const target t = read_target(a);
  check_form_flags(a, t.form);
  if (t.form == report_form::mrope)
    run_mrope_precision(a, t.output, out);
  else if (t.form == report_form::rope_nd)
    run_nd_precision(a, t.output, out);
  else
    run_precision(a, t.output, out);
#else
  static_cast<void>(read_target(a));
  static_cast<void>(out);
  throw usage_error("report: not available (posenc was built without the verify layer: Boost and MPFR)");
#endif
}

}  // namespace posenc::cli::report

namespace posenc::cli {
inline constexpr command report_command{"report", "precision report of RoPE pipelines against MPFR (Markdown, plots)",
                                        report::usage, report::all_flags.view(), report::run};
}  // namespace posenc::cli
