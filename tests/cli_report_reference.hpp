// cli_report_reference.hpp: what the tests of `posenc report precision` share
// (test_cli_report.cpp: 1D RoPE; test_cli_report_streams.cpp: M-RoPE and ND RoPE): running the
// report, the reference figures computed here from MPFR (rope_table_oracle's 320-bit cos/sin,
// rope_oracle's exact frequencies; the exact tables' values are the oracle's own correct roundings,
// not posenc's tables; diffusers' float64 steps each rounded to binary64 by MPFR), the rows of
// precision.md, and the checker that lists every disagreement between the two.
#pragma once

#include <catch2/catch.hpp>

#include <dirent.h>
#include <mpfr.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/float16.hpp>
#include <posenc/rope/config.hpp>
#include <posenc/rope/frequencies.hpp>
#include <posenc/rope/policy.hpp>
#include <posenc/verify/rope_oracle.hpp>
#include <posenc/verify/rope_table_oracle.hpp>

#include "cli_spawn.hpp"

#ifndef POSENC_CLI_PATH
#error "POSENC_CLI_PATH must name the posenc executable (tests/CMakeLists.txt defines it)"
#endif

namespace posenc_test::report {

using strings = std::vector<std::string>;
namespace pr = posenc::rope;

inline cli_result report(const strings& args) {
  strings a{"report", "precision"};
  a.insert(a.end(), args.begin(), args.end());
  return posenc_test::run_cli(POSENC_CLI_PATH, a);
}

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// The figures of one (decade, pairs, pipeline) row.
struct figures {
  double max_abs = 0, sum_abs = 0, max_ulp = 0, sum_ulp = 0, max_angle = 0, sum_angle = 0;
  long values = 0, angles = 0, positions = 0, not_rounded = 0;
  bool applicable = true;
  void value(double abs, double ulp, bool rounded) {
    max_abs = std::max(max_abs, abs), sum_abs += abs, max_ulp = std::max(max_ulp, ulp), sum_ulp += ulp, ++values;
    not_rounded += rounded ? 0 : 1;
  }
  void angle(double e) { max_angle = std::max(max_angle, e), sum_angle += e, ++angles; }
};
// Decade label, pairs label ("" in the 1D report, which has no pairs column), pipeline.
using key = std::tuple<std::string, std::string, std::string>;
using table = std::map<key, figures>;

inline std::string decade_of(std::uint64_t m, std::uint64_t max_position) {
  std::uint64_t lo = 0, hi = 9;
  while (m > hi) lo = hi + 1, hi = hi * 10 + 9;
  hi = std::min(hi, max_position);
  return "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
}

// |v - x| for the 320-bit x, rounded to double.
inline double abs_error(mpfr_srcptr x, double v) {
  posenc::verify::rope_detail::M d(320);
  mpfr_sub_d(d.get(), x, v, MPFR_RNDN);
  return std::fabs(mpfr_get_d(d.get(), MPFR_RNDN));
}
// The ulp of x in a format of precision p and minimum normal exponent emin.
inline double ulp(mpfr_srcptr x, int p, long emin) {
  long e = emin;
  if (!mpfr_zero_p(x)) e = std::max(emin, static_cast<long>(mpfr_get_exp(x)) - 1);  // |x| in [2^e, 2^(e+1))
  return std::ldexp(1.0, static_cast<int>(e) - (p - 1));
}

// diffusers' float64 frequency 1.0 / theta ** (2j / d), each step rounded to binary64 by MPFR.
inline double float64_frequency(double theta, int j, int d) {
  posenc::verify::rope_detail::M e(53), p(53);
  mpfr_set_si(e.get(), 2 * j, MPFR_RNDN);
  mpfr_div_si(e.get(), e.get(), d, MPFR_RNDN);
  mpfr_set_d(p.get(), theta, MPFR_RNDN);
  mpfr_pow(p.get(), p.get(), e.get(), MPFR_RNDN);
  mpfr_ui_div(p.get(), 1, p.get(), MPFR_RNDN);
  return mpfr_get_d(p.get(), MPFR_RNDN);
}

// What a report shows beyond the 1D pipelines, and how it names the rows.
struct ref_spec {
  std::vector<std::string> pairs_label;  // the row label of each pair; empty: "" for all (1D)
  std::vector<bool> map_zero;            // ggml-map-f32: the pairs ggml's map leaves at position 0
  bool ggml = true, ggml_map = false, float64 = false;
  std::string hf_name = "hf-float32";
};

// The reference figures of the given positions (the report's sampling, written out by each test).
inline table reference(const pr::config& c, const std::vector<std::uint64_t>& positions, std::uint64_t max_position,
                       const ref_spec& spec = {}) {
  const posenc::verify::rope_table_oracle oracle(c);
  const pr::checked_config cc(c);
  const int pairs = static_cast<int>(pr::rotary_dim(c) / 2);
  std::vector<std::unique_ptr<posenc::verify::rope_detail::M>> theta;
  for (int j = 0; j < pairs; ++j) {
    theta.push_back(std::make_unique<posenc::verify::rope_detail::M>(320));
    posenc::verify::rope_detail::ctx{320, c}.inv_freq(*theta.back(), j);
  }
  const bool ggml = spec.ggml && pr::angle(pr::ggml_float32, cc, 0, 0).ok();
  const auto label = [&](int j) {
    return spec.pairs_label.empty() ? std::string() : spec.pairs_label[static_cast<std::size_t>(j)];
  };
  table t;
  for (std::uint64_t lo = 0, hi = 9;; lo = hi + 1, hi = hi * 10 + 9) {  // every decade has rows, sampled or not
    for (int j = 0; j < pairs; ++j)
      for (const std::string& p :
           {spec.hf_name, std::string("ggml-float32"), std::string("exact-f32"), std::string("exact-bf16"),
            std::string("exact-f16"), std::string("ggml-map-f32"), std::string("diffusers-float64")}) {
        if ((p == "ggml-float32" && !spec.ggml) || (p == "ggml-map-f32" && !spec.ggml_map) ||
            (p == "diffusers-float64" && !spec.float64))
          continue;
        t[{decade_of(lo, max_position), label(j), p}].applicable = p != "ggml-float32" || ggml;
      }
    if (hi >= max_position) break;
  }
  posenc::verify::rope_detail::M x(320), a64(53), c64(53), s64(53);
  posenc::verify::rope_table_oracle::value v, v0;
  for (const std::uint64_t m : positions) {
    const std::string d = decade_of(m, max_position);
    std::map<std::string, bool> counted;
    for (int j = 0; j < pairs; ++j) {
      const auto row = [&](const std::string& p) -> figures& {
        figures& f = t[{d, label(j), p}];
        if (!counted[label(j) + "/" + p]) ++f.positions, counted[label(j) + "/" + p] = true;
        return f;
      };
      oracle.eval(m, j, true, v);
      mpfr_mul_ui(x.get(), theta[static_cast<std::size_t>(j)]->get(), static_cast<unsigned long>(m), MPFR_RNDN);
      const auto both = [&](figures& f, double cv, double sv, double crc, double crs, int p, long emin) {
        const double ac = abs_error(v.cos.get(), cv), as = abs_error(v.sin.get(), sv);
        f.value(ac, ac / ulp(v.cos.get(), p, emin), cv == crc);
        f.value(as, as / ulp(v.sin.get(), p, emin), sv == crs);
      };
      const auto r32 = v.round<float>();
      const auto h = pr::sincos<float>(pr::hf_float32, cc, m, j).value;
      both(row(spec.hf_name), h.cos, h.sin, r32.cos, r32.sin, 24, -126);
      row(spec.hf_name).angle(abs_error(x.get(), pr::angle(pr::hf_float32, cc, m, j).value));
      if (spec.ggml) {
        figures& gg = row("ggml-float32");
        if (ggml) {
          const auto g = pr::sincos<float>(pr::ggml_float32, cc, m, j).value;
          both(gg, g.cos, g.sin, r32.cos, r32.sin, 24, -126);
          gg.angle(abs_error(x.get(), pr::angle(pr::ggml_float32, cc, m, j).value));
        }
      }
      both(row("exact-f32"), r32.cos, r32.sin, r32.cos, r32.sin, 24, -126);
      const auto rb = v.round<posenc::bfloat16>();
      both(row("exact-bf16"), rb.cos.to_float(), rb.sin.to_float(), rb.cos.to_float(), rb.sin.to_float(), 8, -126);
      const auto rh = v.round<posenc::float16>();
      both(row("exact-f16"), rh.cos.to_float(), rh.sin.to_float(), rh.cos.to_float(), rh.sin.to_float(), 11, -14);
      if (spec.ggml_map) {
        figures& gm = row("ggml-map-f32");
        if (spec.map_zero[static_cast<std::size_t>(j)]) {  // the table's entry at position 0, angle 0
          oracle.eval(0, j, true, v0);
          const auto z = v0.round<float>();
          both(gm, z.cos, z.sin, r32.cos, r32.sin, 24, -126);
          gm.angle(abs_error(x.get(), 0.0));
        } else {
          both(gm, r32.cos, r32.sin, r32.cos, r32.sin, 24, -126);
          gm.angle(0.0);
        }
      }
      if (spec.float64) {  // angle and cos/sin in binary64 (MPFR at 53 bits), then rounded to float
        mpfr_set_d(a64.get(), float64_frequency(c.rope_theta, j, c.head_dim), MPFR_RNDN);
        mpfr_mul_ui(a64.get(), a64.get(), static_cast<unsigned long>(m), MPFR_RNDN);
        mpfr_cos(c64.get(), a64.get(), MPFR_RNDN);
        mpfr_sin(s64.get(), a64.get(), MPFR_RNDN);
        figures& f = row("diffusers-float64");
        both(f, static_cast<float>(mpfr_get_d(c64.get(), MPFR_RNDN)),
             static_cast<float>(mpfr_get_d(s64.get(), MPFR_RNDN)), r32.cos, r32.sin, 24, -126);
        f.angle(abs_error(x.get(), mpfr_get_d(a64.get(), MPFR_RNDN)));
      }
    }
  }
  return t;
}

inline std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// A row of precision.md: sampled, the six figures and (multi-stream reports) "n of N".
struct row_cells {
  std::string sampled;
  std::array<std::string, 6> figures;
  std::string not_rounded;
};

// The rows "| [lo, hi] | n | pipeline | 6 figures |" of the 1D report and "| [lo, hi] | n | pairs |
// pipeline | 6 figures | n of N |" of the multi-stream ones.
inline std::map<key, row_cells> parse_rows(const std::string& md) {
  std::map<key, row_cells> rows;
  std::istringstream in(md);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| [", 0) != 0) continue;
    std::vector<std::string> cells;
    std::size_t pos = 1;
    for (std::size_t bar; (bar = line.find('|', pos)) != std::string::npos; pos = bar + 1)
      cells.push_back(trim(line.substr(pos, bar - pos)));
    if (cells.size() != 9 && cells.size() != 11) continue;
    const bool pairs = cells.size() == 11;
    row_cells r{cells[1], {}, pairs ? cells[10] : std::string()};
    for (std::size_t i = 0; i < 6; ++i) r.figures[i] = cells[(pairs ? 4 : 3) + i];
    rows[{cells[0], pairs ? cells[2] : std::string(), cells[pairs ? 3 : 2]}] = r;
  }
  return rows;
}

// Every disagreement between the report and the reference, one line each (empty: they agree).
inline std::vector<std::string> check_report(const std::string& md, const table& ref) {
  std::vector<std::string> problems;
  const auto rows = parse_rows(md);
  if (rows.size() != ref.size())
    problems.push_back("rows: " + std::to_string(rows.size()) + " in the report, " + std::to_string(ref.size()) +
                       " expected");
  for (const auto& [k, f] : ref) {
    const auto it = rows.find(k);
    const std::string where =
        std::get<0>(k) + (std::get<1>(k).empty() ? "" : " " + std::get<1>(k)) + " " + std::get<2>(k) + ": ";
    if (it == rows.end()) {
      problems.push_back(where + "missing");
      continue;
    }
    const row_cells& c = it->second;
    if (c.sampled != std::to_string(f.positions)) problems.push_back(where + "sampled " + c.sampled);
    if (!f.applicable) {
      if (c.figures[0] != "not applicable")
        problems.push_back(where + "expected 'not applicable', got " + c.figures[0]);
      continue;
    }
    const bool angle = f.angles > 0;
    const auto mean = [](double sum, long n) { return n > 0 ? sum / static_cast<double>(n) : 0.0; };
    const std::array<double, 6> want = {f.max_abs,   mean(f.sum_abs, f.values),  f.max_ulp, mean(f.sum_ulp, f.values),
                                        f.max_angle, mean(f.sum_angle, f.angles)};
    for (std::size_t i = 0; i < 6; ++i) {
      const std::string& cell = c.figures[i];
      const std::string column = "column " + std::to_string(3 + i);
      if (i >= 4 && !angle && f.values > 0) {
        if (cell != "-") problems.push_back(where + column + ": expected '-'");
        continue;
      }
      char* end = nullptr;
      const double got = std::strtod(cell.c_str(), &end);
      if (end == cell.c_str() || *end != '\0' || std::fabs(got - want[i]) > 1e-3 * std::fabs(want[i]) + 1e-300) {
        std::ostringstream o;
        o.precision(6);
        o << where << column << ": report " << cell << ", reference " << want[i];
        problems.push_back(o.str());
      }
    }
    const std::string nr = std::to_string(f.not_rounded) + " of " + std::to_string(f.values);
    if (!c.not_rounded.empty() && c.not_rounded != nr)
      problems.push_back(where + "not correctly rounded: report " + c.not_rounded + ", reference " + nr);
    if (c.not_rounded.empty() && !std::get<1>(k).empty()) problems.push_back(where + "no count of values");
  }
  return problems;
}

// Figure `column` of a row (3: max abs ... 8: mean angle, as the 1D report's columns count).
inline double cell(const std::string& md, const std::string& decade, const std::string& pipeline, std::size_t column,
                   const std::string& pairs = "") {
  const auto rows = parse_rows(md);
  const auto it = rows.find({decade, pairs, pipeline});
  REQUIRE(it != rows.end());
  return std::strtod(it->second.figures.at(column - 3).c_str(), nullptr);
}

inline strings list_dir(const std::string& path) {
  strings names;
  if (DIR* d = ::opendir(path.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string n = e->d_name;
      if (n != "." && n != "..") names.push_back(n);
    }
    ::closedir(d);
  }
  return names;
}

struct run_result {
  std::string md;
  std::vector<std::string> files;
};
// Runs `posenc report precision <args> -o DIR` (with --no-plots unless plots) and returns
// precision.md and the names of the files written; DIR is removed.
inline run_result run_form(const strings& args, bool plots) {
  temp_dir parent;
  const std::string out = parent.file("rep");
  strings a = args;
  a.emplace_back("-o");
  a.push_back(out);
  if (!plots) a.emplace_back("--no-plots");
  const auto r = report(a);
  INFO(describe_cli(a) << "\nstderr: " << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  run_result res{read_file(out + "/precision.md"), {}};
  res.files = list_dir(out);
  for (const std::string& f : res.files) std::remove((out + "/" + f).c_str());
  ::rmdir(out.c_str());
  std::sort(res.files.begin(), res.files.end());
  return res;
}

// The 1D report of flags at positions 0 .. 1000.
inline run_result run_report(const strings& flags, bool plots) {
  strings a = flags;
  a.insert(a.end(), {"--max-position", "1000"});
  return run_form(a, plots);
}

// 0, 1, ..., n: the positions the report measures up to n <= 1000.
inline std::vector<std::uint64_t> positions_upto(std::uint64_t n) {
  std::vector<std::uint64_t> v;
  for (std::uint64_t m = 0; m <= n; ++m) v.push_back(m);
  return v;
}

}  // namespace posenc_test::report
