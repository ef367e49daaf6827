// report_output.hpp: what every `posenc report precision` form shares (commands_report.hpp: 1D RoPE;
// report_streams.hpp: M-RoPE and ND RoPE): the sampling constants and flags, the output directory
// created whole or not at all (staging_dir), gnuplot on PATH and its run, the number formats, the
// plot data and gnuplot script of any list of pipelines, and the files every form writes.
#pragma once

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#if defined(POSENC_CLI_HAVE_MPFR)
#include <posenc/verify/rope_precision.hpp>
#endif

#include "args.hpp"

namespace posenc::cli::report {

inline constexpr std::uint64_t default_max_position = std::uint64_t{1} << 20;
inline constexpr std::uint64_t dense_positions = 1000;  // every position below this is measured
inline constexpr std::uint64_t default_per_decade = 1000;

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

// A pipeline as a report shows it: its name there, and whether it was measured.
struct shown_pipeline {
  vf::precision_pipeline p;
  std::string_view name;
  bool applicable = true;
};

inline bool exact_table(vf::precision_pipeline p) {
  return p == vf::precision_pipeline::exact_f32 || p == vf::precision_pipeline::exact_bf16 ||
         p == vf::precision_pipeline::exact_f16;
}

// The six figures of a row: max and mean abs, max and mean ulp, max and mean angle ("-" without).
inline std::string figure_cells(const vf::precision_stats& e, bool angle) {
  std::string s = sci(e.max_abs) + " | " + sci(e.mean_abs()) + " | " + fmt("%.4g", e.max_ulp) + " | " +
                  fmt("%.4g", e.mean_ulp()) + " | ";
  s += angle ? sci(e.max_angle) + " | " + sci(e.mean_angle()) : std::string("- | -");
  return s;
}

// angle.dat (the pipelines with an angle) or cos-sin.dat (all): the worst over the pairs at each
// position m >= 1, a column per pipeline in list order (NaN where not applicable).
inline std::string plot_data(std::span<const shown_pipeline> shown, const std::vector<vf::position_errors>& rows,
                             bool angle) {
  std::string s = angle ? "# position, max over pairs of |angle error| (rad):"
                        : "# position, max over pairs of "
                          "|cos/sin error|:";
  for (const shown_pipeline& p : shown)
    if (!angle || vf::has_angle(p.p)) s += " " + std::string(p.name);
  s += "\n";
  for (const vf::position_errors& r : rows) {
    if (r.position == 0) continue;  // log x
    s += std::to_string(r.position);
    for (const shown_pipeline& p : shown) {
      if (angle && !vf::has_angle(p.p)) continue;
      const vf::precision_stats& e = r.by_pipeline[static_cast<std::size_t>(p.p)];
      s += ' ';
      s += p.applicable ? fmt("%.6e", angle ? e.max_angle : e.max_abs) : std::string("NaN");
    }
    s += "\n";
  }
  return s;
}

// One plot command of `file`'s columns: the applicable pipelines of `order` (indices into shown).
inline std::string plot_command(std::span<const shown_pipeline> shown, const std::vector<std::size_t>& column,
                                const std::vector<std::size_t>& order, const char* file) {
  std::string s;
  for (const std::size_t i : order) {
    if (!shown[i].applicable) continue;
    s += s.empty() ? std::string("plot '") + file + "' using 1:" : std::string(", '' using 1:");
    s += std::to_string(column[i]) + " with lines lw 1.5 title '" + std::string(shown[i].name) + "'";
  }
  return s + "\n";
}

// precision.gp: angle-error.png from angle.dat and cos-sin-error.png from cos-sin.dat, the framework
// pipelines first, then posenc's tables (bf16, f16, f32).
inline std::string gnuplot_script(std::span<const shown_pipeline> shown, const std::string& title,
                                  std::uint64_t max_position) {
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
  std::vector<std::size_t> angle_column(shown.size()), value_column(shown.size()), angle_order, value_order;
  std::size_t next_angle = 2;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    value_column[i] = 2 + i;
    if (vf::has_angle(shown[i].p)) angle_column[i] = next_angle++, angle_order.push_back(i);
    if (!exact_table(shown[i].p)) value_order.push_back(i);
  }
  for (const vf::precision_pipeline p :
       {vf::precision_pipeline::exact_bf16, vf::precision_pipeline::exact_f16, vf::precision_pipeline::exact_f32})
    for (std::size_t i = 0; i < shown.size(); ++i)
      if (shown[i].p == p) value_order.push_back(i);
  s += "set output 'angle-error.png'\n"
       "set ylabel 'max over pairs |angle error| (rad)'\n";
  s += plot_command(shown, angle_column, angle_order, "angle.dat");
  s += "set output 'cos-sin-error.png'\n"
       "set ylabel 'max over pairs |cos/sin error|'\n";
  s += plot_command(shown, value_column, value_order, "cos-sin.dat");
  return s;
}

// The sampling and output flags every form reads.
struct sampling {
  std::uint64_t max_position = 0, per_decade = 0;
  unsigned threads = 0;
  bool plots = true;
  std::string gnuplot;
};

inline sampling read_sampling(const parsed_args& a, std::uint64_t default_max, const std::string& ctx) {
  sampling s;
  s.max_position = static_cast<std::uint64_t>(flag_integer(a, "max-position", 1,
                                                           static_cast<long long>(vf::rope_precision::max_position),
                                                           static_cast<long long>(default_max), ctx));
  s.per_decade = static_cast<std::uint64_t>(flag_integer(a, "per-decade", 1, 100000, default_per_decade, ctx));
  s.threads = static_cast<unsigned>(flag_integer(a, "threads", 1, 1024, 0, ctx));
  s.plots = !a.has("no-plots");
  if (s.plots) {
    s.gnuplot = find_on_path("gnuplot");
    if (s.gnuplot.empty())
      throw usage_error(ctx + ": gnuplot is not on PATH (install Debian gnuplot-nox, or pass --no-plots)");
  }
  return s;
}

// Writes the data, the script and (with plots) the PNGs, then renames the directory into place.
inline void finish(staging_dir& dir, const sampling& sm, std::span<const shown_pipeline> shown,
                   const std::vector<vf::position_errors>& rows, const std::string& title, const std::string& md) {
  dir.write("precision.md", md);
  dir.write("angle.dat", plot_data(shown, rows, true));
  dir.write("cos-sin.dat", plot_data(shown, rows, false));
  dir.write("precision.gp", gnuplot_script(shown, title, sm.max_position));
  if (sm.plots) run_gnuplot(sm.gnuplot, dir);
  dir.commit();
}

inline std::string wrote(const std::string& output, std::size_t positions, int pairs, const sampling& sm,
                         std::chrono::steady_clock::time_point start) {
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return "wrote " + output + "/precision.md (" + std::to_string(positions) + " positions x " + std::to_string(pairs) +
         " pairs, " + fmt("%.1f", secs) + " s)" + (sm.plots ? ", angle-error.png, cos-sin-error.png" : ", no plots") +
         "\n";
}

#endif

}  // namespace posenc::cli::report
