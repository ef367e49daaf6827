// commands_report.hpp: `posenc report precision` (issue 10, "Precision report").
//
//   posenc report precision [--hf-config FILE | rope config flags] -o DIR [--max-position M]
//                           [--per-decade S] [--threads N] [--no-plots]
//
// Measures HF's float32 pipeline, ggml's float32 recurrence (default and linear rope types only)
// and posenc's correctly rounded float32, bfloat16 and float16 tables against MPFR
// (posenc/verify/rope_precision.hpp) and writes DIR/precision.md (a table per position decade),
// the plot data (angle.dat, cos-sin.dat), the gnuplot script precision.gp and, unless --no-plots,
// the PNGs it draws (angle-error.png, cos-sin-error.png). Everything is written into a temporary
// directory beside DIR and renamed to DIR at the end: DIR is created whole or not at all. DIR must
// not exist, or be an empty directory. Bad input (no -o, a bad config, DIR not creatable, gnuplot not
// on PATH without --no-plots) exits 2 with one line, before anything is created.
// Needs the verify layer (MPFR): without it (POSENC_CLI_HAVE_MPFR unset) the command says so.
// Docs: docs/cli.md (`posenc report`), docs/rope-precision.md.
#pragma once

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
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

namespace posenc::cli::report {

inline constexpr std::uint64_t default_max_position = std::uint64_t{1} << 20;
inline constexpr std::uint64_t dense_positions = 1000;  // every position below this is measured
inline constexpr std::uint64_t default_per_decade = 1000;

inline constexpr flag_spec own_flags[] = {
    {"hf-config", flag_kind::value, "FILE", "values from a HuggingFace config.json (flags override them)"},
    {"max-position", flag_kind::value, "M", "largest position measured (default 1048576, at most 2^31 - 1)"},
    {"per-decade", flag_kind::value, "S", "log-spaced positions per decade above 1000 (default 1000)"},
    {"threads", flag_kind::value, "N", "measuring threads (default: all cores)"},
    {"no-plots", flag_kind::boolean, "", "write the data and the gnuplot script but do not run gnuplot"},
    {"output", flag_kind::value, "DIR", "same as -o DIR"},
};

inline constexpr auto all_flags = concat(emit::config_flags, own_flags);

inline constexpr std::string_view usage =
    "usage: posenc report precision [--hf-config FILE | rope config flags] -o DIR\n"
    "                               [--max-position M] [--per-decade S] [--threads N] [--no-plots]\n"
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
    "flags:\n";

struct target {
  std::string output;
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
  if (what.size() > 1) throw usage_error("report precision: unexpected argument " + quote(what[1]));
  if (const auto v = a.value("output")) {
    if (!t.output.empty()) throw usage_error("report precision: the output directory is given twice");
    t.output = std::string(*v);
  }
  if (t.output.empty()) throw usage_error("report precision: -o DIR is required");
  return t;
}

// The program's path if `name` is an executable file in a directory of $PATH.
inline std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view rest(path);
  for (;;) {
    const std::size_t colon = rest.find(':');
    std::string dir(rest.substr(0, colon));
    if (dir.empty()) dir.push_back('.');  // an empty entry is the current directory
    const std::string file = dir + "/" + name;
    struct stat st {};
    if (::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(file.c_str(), X_OK) == 0) return file;
    if (colon == std::string_view::npos) return {};
    rest = rest.substr(colon + 1);
  }
}

// A temporary directory beside the target, removed unless committed (renamed to the target).
class staging_dir {
 public:
  explicit staging_dir(const std::string& target) : target_(target) {
    while (target_.size() > 1 && target_.back() == '/') target_.pop_back();  // "out/" is "out"
    const std::string ctx = "report precision: -o " + quote(target_);
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path p(target_);
    if (p.filename().empty() || p.filename() == "." || p.filename() == "..")
      throw usage_error(ctx + ": not a directory name");
    const fs::file_status st = fs::symlink_status(p, ec);
    if (fs::exists(st)) {
      if (!fs::is_directory(st)) throw usage_error(ctx + ": exists and is not a directory");
      if (!fs::is_empty(p, ec) || ec) throw usage_error(ctx + ": exists and is not empty");
    }
    const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
    std::string templ = (parent / ("." + p.filename().string() + ".tmp.XXXXXX")).string();
    std::vector<char> name(templ.begin(), templ.end());
    name.push_back('\0');
    if (::mkdtemp(name.data()) == nullptr)
      throw usage_error(ctx + ": cannot create a directory in " + quote(parent.string()) + ": " + std::strerror(errno));
    path_ = name.data();
  }
  ~staging_dir() {
    if (!path_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(path_, ec);
    }
  }
  staging_dir(const staging_dir&) = delete;
  staging_dir& operator=(const staging_dir&) = delete;

  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

  void write(const std::string& name, const std::string& data) const {
    std::ofstream f(file(name), std::ios::binary);
    f << data;
    f.close();
    if (!f) throw std::runtime_error("cannot write " + file(name));
  }
  void remove(const std::string& name) const { std::remove(file(name).c_str()); }

  void commit() {
    ::chmod(path_.c_str(), 0777 & ~current_umask());  // mkdtemp made it 0700
    if (std::rename(path_.c_str(), target_.c_str()) != 0) {
      const int e = errno;
      throw usage_error("report precision: cannot create " + quote(target_) + ": " + std::strerror(e));
    }
    path_.clear();
  }

 private:
  static mode_t current_umask() {
    const mode_t m = ::umask(0);
    ::umask(m);
    return m;
  }
  std::string target_, path_;
};

// Runs `gnuplot precision.gp` in dir; its messages go to dir/gnuplot.log, removed on success.
inline void run_gnuplot(const std::string& gnuplot, const staging_dir& dir) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start gnuplot: ") + std::strerror(errno));
  if (pid == 0) {
    if (::chdir(dir.path().c_str()) != 0) ::_exit(127);
    if (std::freopen("gnuplot.log", "w", stdout) == nullptr || std::freopen("gnuplot.log", "a", stderr) == nullptr)
      ::_exit(127);
    ::execl(gnuplot.c_str(), "gnuplot", "precision.gp", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int ws = 0;
  while (::waitpid(pid, &ws, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
    std::ifstream log(dir.file("gnuplot.log"));
    std::string line;
    std::getline(log, line);
    throw std::runtime_error("gnuplot failed" + (line.empty() ? std::string() : ": " + line));
  }
  dir.remove("gnuplot.log");
}

#if defined(POSENC_CLI_HAVE_MPFR)

namespace vf = posenc::verify;

inline std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}
inline std::string sci(double v) { return fmt("%.4e", v); }

inline std::string decade_label(const vf::decade_errors& d) {
  std::string s = "[";  // appended piece by piece: GCC 12 warns (-Wrestrict) on "[" + std::string&&
  s += std::to_string(d.lo);
  s += ", ";
  s += std::to_string(d.hi);
  s += "]";
  return s;
}

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
      const vf::error_stats& e = d.by_pipeline[static_cast<std::size_t>(p)];
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

inline std::string plot_data(const vf::rope_precision& rp, const std::vector<vf::position_errors>& rows, bool angle) {
  using vf::precision_pipeline;
  std::string s = angle ? "# position, max over pairs of |angle error| (rad): hf-float32 ggml-float32\n"
                        : "# position, max over pairs of |cos/sin error|: hf-float32 ggml-float32 exact-f32 "
                          "exact-bf16 exact-f16\n";
  for (const vf::position_errors& r : rows) {
    if (r.position == 0) continue;  // log x
    s += std::to_string(r.position);
    for (const precision_pipeline p : vf::precision_pipelines) {
      if (angle && !vf::has_angle(p)) continue;
      const vf::error_stats& e = r.by_pipeline[static_cast<std::size_t>(p)];
      s += ' ';
      s += rp.applicable(p) ? fmt("%.6e", angle ? e.max_angle : e.max_abs) : std::string("NaN");
    }
    s += "\n";
  }
  return s;
}

inline std::string gnuplot_script(const vf::rope_precision& rp, const std::string& title, std::uint64_t max_position) {
  const bool ggml = rp.applicable(vf::precision_pipeline::ggml_float32);
  std::string s =
      "# Draws angle-error.png and cos-sin-error.png from angle.dat and cos-sin.dat (posenc report precision).\n"
      "set terminal pngcairo size 800,500 font 'sans,10'\n"
      "set logscale xy\n"
      "set format x '10^{%L}'\n"
      "set format y '10^{%L}'\n"
      "set grid\n"
      "set key top left\n"
      "set xlabel 'position m'\n";
  s += "set xrange [1:";
  s += std::to_string(std::max<std::uint64_t>(max_position, 2));
  s += "]\n";
  s += "set title \"" + title + "\" noenhanced\n";
  s += "set output 'angle-error.png'\n"
       "set ylabel 'max over pairs |angle error| (rad)'\n"
       "plot 'angle.dat' using 1:2 with lines lw 1.5 title 'hf-float32'";
  s += ggml ? ", '' using 1:3 with lines lw 1.5 title 'ggml-float32'\n" : "\n";
  s += "set output 'cos-sin-error.png'\n"
       "set ylabel 'max over pairs |cos/sin error|'\n"
       "plot 'cos-sin.dat' using 1:2 with lines lw 1.5 title 'hf-float32'";
  if (ggml) s += ", '' using 1:3 with lines lw 1.5 title 'ggml-float32'";
  s += ", '' using 1:5 with lines lw 1.5 title 'exact-bf16', '' using 1:6 with lines lw 1.5 title 'exact-f16', "
       "'' using 1:4 with lines lw 1.5 title 'exact-f32'\n";
  return s;
}

inline std::string plot_title(const rope::config& c, const parsed_args& a) {
  std::string t;
  if (const auto f = a.value(emit::hf_config_flag)) t = std::filesystem::path(std::string(*f)).stem().string() + ": ";
  t += std::string(emit::rope_type_name(c.rope_type)) + ", theta " + fmt("%g", c.rope_theta) + ", rotary dim " +
       std::to_string(rope::rotary_dim(c));
  if (c.factor != 0.0) t += ", factor " + fmt("%g", c.factor);
  return t;
}

inline void run_precision(const parsed_args& a, std::string& out) {
  const std::string ctx = "report precision";
  const target t = read_target(a);
  const auto hf = emit::hf_rope_settings(a, ctx);
  const rope::config hf_cfg = hf ? hf->config() : rope::config{};
  emit::parsed_config pc = emit::read_config(a, ctx, hf ? &hf_cfg : nullptr);
  const auto max_position = static_cast<std::uint64_t>(
      flag_integer(a, "max-position", 1, static_cast<long long>(vf::rope_precision::max_position),
                   static_cast<long long>(default_max_position), ctx));
  // The measured positions end at max_position: HF's sequence length for dynamic NTK and LongRoPE.
  pc.cfg = rope::with_seq_len_of_positions(pc.cfg, max_position);
  const auto per_decade = static_cast<std::uint64_t>(flag_integer(a, "per-decade", 1, 100000, default_per_decade, ctx));
  const auto threads = static_cast<unsigned>(flag_integer(a, "threads", 1, 1024, 0, ctx));
  const bool plots = !a.has("no-plots");
  std::string gnuplot;
  if (plots) {
    gnuplot = find_on_path("gnuplot");
    if (gnuplot.empty())
      throw usage_error(ctx + ": gnuplot is not on PATH (install Debian gnuplot-nox, or pass --no-plots)");
  }
  staging_dir dir(t.output);  // bad -o: usage_error before any measurement

  const auto start = std::chrono::steady_clock::now();
  const vf::rope_precision rp(pc.cfg);
  const std::vector<std::uint64_t> positions = vf::precision_positions(max_position, dense_positions, per_decade);
  const std::vector<vf::position_errors> rows = rp.measure(positions, threads);
  const std::vector<vf::decade_errors> decades = vf::precision_decades(rows, max_position);
  dir.write("precision.md", markdown(rp, pc.cfg, max_position, per_decade, positions.size(), decades));
  dir.write("angle.dat", plot_data(rp, rows, true));
  dir.write("cos-sin.dat", plot_data(rp, rows, false));
  dir.write("precision.gp", gnuplot_script(rp, plot_title(pc.cfg, a), max_position));
  if (plots) run_gnuplot(gnuplot, dir);
  dir.commit();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out += "wrote " + t.output + "/precision.md (" + std::to_string(positions.size()) + " positions x " +
         std::to_string(rp.pairs()) + " pairs, " + fmt("%.1f", secs) + " s)" +
         (plots ? ", angle-error.png, cos-sin-error.png" : ", no plots") + "\n";
}

#endif

inline void run(const parsed_args& a, std::string& out) {
#if defined(POSENC_CLI_HAVE_MPFR)
  run_precision(a, out);
#else
  static_cast<void>(read_target(a));
  static_cast<void>(out);
  throw usage_error("report: not available (posenc was built without the verify layer: Boost and MPFR)");
#endif
}

}  // namespace posenc::cli::report

namespace posenc::cli {
inline constexpr command report_command{"report", "precision report of RoPE pipelines against MPFR (Markdown, plots)",
                                        report::usage, report::all_flags, report::run};
}  // namespace posenc::cli
