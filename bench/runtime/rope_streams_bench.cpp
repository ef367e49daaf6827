// bench/runtime/rope_streams_bench.cpp: run-time cost of posenc's M-RoPE and ND axial RoPE tables
// (rope::fill_mrope_pair_table, rope::fill_nd_pair_table; docs/rope-streams.md) per entry, against
// baselines timed in the same run, reported as ratios (nothing is asserted):
//   1D list    rope::fill_pair_table<float> of the same number of rows at a position list: the scalar
//              entry of the 1D engine (the cost ND entries at fractional positions had until
//              2026-11-29), for reference;
//   1D range   rope::fill_pair_table<float> of consecutive positions (the row kernels);
//   HF f32     the frameworks' float32 pipeline in plain C++ with libm: M-RoPE as HF's
//              Qwen2VLRotaryEmbedding computes it (inv_freq = 1 / powf(base, 2j/d), three full
//              float32 angle tables inv_freq * float(p_s), cosf/sinf of each, then the section
//              select), FLUX as BFL's current rope() (omega in float32, angle = p * omega, cosf,
//              sinf); the goal (issue 22) is posenc at least 2x faster than these.
// The sequence: Qwen2-VL-like, `--text` text tokens, a `--grid` x `--grid` image, `--text` more
// text (get_rope_index's ids, rope/mrope_positions.hpp); FLUX: a `--grid` x `--grid` latent grid
// plus `--text` text tokens at (0, 0, 0). Once per case, outside timing, the tables' sampled
// entries are checked against the scalar functions (exit 1 on a mismatch).
// posenc's fills without scratch gather from 1D rows filled window by window in a stack buffer
// (rope/detail/stream_fill.hpp); with scratch (mrope_scratch_size, nd_scratch_size) from one fill.
// Each timing: one untimed call of each side, then 7 alternating passes of at least --min-ms; the
// best pass counts.
// The ND tables (integer, off any grid, DINOv3) again in doubles, against the 1D double table.
// Then the other tables of issue 22 against the 1D table of as many entries: Leaky ReRoPE's decode
// table (two 1D fills), StreamingLLM's rows of one step (a position list, the cache slots),
// Llama-4's attention temperature (one value per step, copied).
// Run: ./rope_streams_bench [--text N] [--grid G] [--min-ms M]   (bad arguments: exit 2)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <string>
#include <vector>

#include <posenc/attn_temperature.hpp>
#include <posenc/rope/dinov3.hpp>
#include <posenc/rope/fill.hpp>
#include <posenc/rope/leaky_rerope.hpp>
#include <posenc/rope/mrope.hpp>
#include <posenc/rope/mrope_positions.hpp>
#include <posenc/rope/nd.hpp>
#include <posenc/rope/streaming_cache.hpp>

namespace {

namespace rope = posenc::rope;
using pair_f = posenc::math::sincos_result<float>;
using pair_d = posenc::math::sincos_result<double>;

double g_sink = 0;

template <class F>
double pass_ns(F& f, double min_ms) {
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t calls = 0;
  double ms = 0;
  do {
    f();
    ++calls;
    ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  } while (ms < min_ms);
  return ms * 1e6 / static_cast<double>(calls);
}

// Best of 7 alternating passes of a and b: {ns a, ns b}.
template <class A, class B>
std::pair<double, double> race(A a, B b, double min_ms) {
  a();
  b();
  double best_a = 1e300, best_b = 1e300;
  for (int k = 0; k < 7; ++k) {
    best_a = std::min(best_a, pass_ns(a, min_ms));
    best_b = std::min(best_b, pass_ns(b, min_ms));
  }
  return {best_a, best_b};
}

long long arg_value(int argc, char** argv, int& i, const char* name, long long lo, long long hi) {
  if (i + 1 >= argc) {
    std::fprintf(stderr, "rope_streams_bench: %s needs a value\n", name);
    std::exit(2);
  }
  char* end = nullptr;
  const long long v = std::strtoll(argv[++i], &end, 10);
  if (*end != '\0' || v < lo || v > hi) {
    std::fprintf(stderr, "rope_streams_bench: %s must be an integer in [%lld, %lld]\n", name, lo, hi);
    std::exit(2);
  }
  return v;
}

void report(const char* what, double ns, double base_ns, std::size_t entries, const char* base) {
  std::printf("  %-34s %8.2f ns/entry   %-10s %8.2f ns/entry   ratio %5.2f\n", what, ns / static_cast<double>(entries),
              base, base_ns / static_cast<double>(entries), base_ns / ns);
}

}  // namespace

int main(int argc, char** argv) {
  long long text = 256, grid = 32;
  double min_ms = 30;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--text") == 0)
      text = arg_value(argc, argv, i, "--text", 0, 1 << 16);
    else if (std::strcmp(argv[i], "--grid") == 0)
      grid = arg_value(argc, argv, i, "--grid", 1, 512);
    else if (std::strcmp(argv[i], "--min-ms") == 0)
      min_ms = static_cast<double>(arg_value(argc, argv, i, "--min-ms", 1, 10000));
    else {
      std::fprintf(stderr, "rope_streams_bench: unknown argument '%s'\n", argv[i]);
      return 2;
    }
  }
  const auto T = static_cast<std::uint64_t>(text), G = static_cast<std::uint64_t>(grid);

  // ---- M-RoPE, Qwen2-VL: head 128, theta 1e6, sections [16, 24, 24] ----
  const rope::mrope_config qwen{.text = {.head_dim = 128, .rope_theta = 1e6}, .mrope_section = {16, 24, 24}};
  const rope::mrope_segment seq[] = {
      {.tokens = T}, {.kind = rope::mrope_segment::image, .grid_t = 1, .grid_h = G, .grid_w = G}, {.tokens = T}};
  const std::size_t n = rope::mrope_token_count(seq), pairs = 64;
  std::vector<std::uint64_t> pos(3 * n);
  if (!rope::mrope_positions(seq, {}, pos).ok()) return 1;
  std::vector<pair_f> out(n * pairs), base(n * pairs);
  const auto mrope = [&] {
    static_cast<void>(rope::fill_mrope_pair_table<float>(qwen, pos, out));
    g_sink += out[n * pairs / 2].sin;
  };
  std::vector<pair_f> scratch(rope::mrope_scratch_size(qwen, pos));
  const auto mrope_fast = [&] {
    static_cast<void>(rope::fill_mrope_pair_table<float>(qwen, pos, out, scratch));
    g_sink += out[n * pairs / 2].sin;
  };
  const auto range1d = [&] {
    static_cast<void>(rope::fill_pair_table<float>(qwen.text, base));
    g_sink += base[n * pairs / 2].sin;
  };
  // HF's float32 pipeline: three full float32 angle tables, cos/sin of each, the section select.
  std::vector<float> inv(pairs), full_c(3 * n * pairs), full_s(3 * n * pairs);
  for (std::size_t j = 0; j < pairs; ++j) inv[j] = 1.0f / std::pow(1e6f, static_cast<float>(2 * j) / 128.0f);
  const auto hf = [&] {
    for (std::size_t s = 0; s < 3; ++s)
      for (std::size_t i = 0; i < n; ++i) {
        const float p = static_cast<float>(pos[s * n + i]);
        for (std::size_t j = 0; j < pairs; ++j) {
          const float a = inv[j] * p;
          full_c[(s * n + i) * pairs + j] = std::cos(a);
          full_s[(s * n + i) * pairs + j] = std::sin(a);
        }
      }
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < pairs; ++j) {
        const std::size_t s = static_cast<std::size_t>(rope::mrope_stream(qwen, static_cast<int>(j)));
        base[i * pairs + j] = {full_s[(s * n + i) * pairs + j], full_c[(s * n + i) * pairs + j]};
      }
    g_sink += base[n * pairs / 2].sin;
  };
  mrope();
  for (std::size_t i = 0; i < n; i += 97)
    for (int j = 0; j < 64; j += 7) {
      const int s = rope::mrope_stream(qwen, j);
      const auto e = rope::sincos<float>(qwen.text, pos[static_cast<std::size_t>(s) * n + i], j);
      if (e.value.sin != out[i * pairs + static_cast<std::size_t>(j)].sin) {
        std::fprintf(stderr, "rope_streams_bench: M-RoPE entry differs from rope::sincos\n");
        return 1;
      }
    }
  {
    std::vector<pair_f> slow = out;
    mrope_fast();
    for (std::size_t k = 0; k < out.size(); ++k)
      if (out[k].sin != slow[k].sin || out[k].cos != slow[k].cos) {
        std::fprintf(stderr, "rope_streams_bench: the scratch fill differs from the fill without scratch\n");
        return 1;
      }
  }
  const std::size_t entries = n * pairs;
  std::printf("M-RoPE (Qwen2-VL, [16, 24, 24]): %zu tokens (%lld text x 2, a %lld x %lld image) x 64 pairs, float\n", n,
              text, grid, grid);
  auto [a2, b2] = race(mrope, range1d, min_ms);
  report("posenc mrope vs posenc 1D range", a2, b2, entries, "1D range");
  auto [a3, b3] = race(mrope, hf, min_ms);
  report("posenc mrope vs HF float32", a3, b3, entries, "HF f32");
  auto [a4, b4] = race(mrope_fast, hf, min_ms);
  report("posenc mrope (scratch) vs HF float32", a4, b4, entries, "HF f32");
  auto [a5, b5] = race(mrope_fast, range1d, min_ms);
  report("posenc mrope (scratch) vs 1D range", a5, b5, entries, "1D range");

  // ---- ND, FLUX.1: axes [16, 56, 56], theta 1e4: a G x G latent grid and T text tokens ----
  static constexpr int axes[] = {16, 56, 56};
  const rope::nd_config flux{.axes_dim = axes, .rope_theta = 10000.0};
  const std::size_t m = static_cast<std::size_t>(T + G * G);
  std::vector<double> ids(3 * m, 0.0);
  for (std::size_t r = 0; r < G; ++r)
    for (std::size_t c = 0; c < G; ++c) {
      const std::size_t i = static_cast<std::size_t>(T) + r * G + c;
      ids[m + i] = static_cast<double>(r);
      ids[2 * m + i] = static_cast<double>(c);
    }
  std::vector<pair_f> nd_out(m * 64), nd_base(m * 64);
  const auto nd = [&] {
    static_cast<void>(rope::fill_nd_pair_table<float>(flux, ids, nd_out));
    g_sink += nd_out[m * 32].sin;
  };
  std::vector<pair_f> nd_scratch(rope::nd_scratch_size(flux, ids));
  const auto nd_fast = [&] {
    static_cast<void>(rope::fill_nd_pair_table<float>(flux, ids, nd_out, nd_scratch));
    g_sink += nd_out[m * 32].sin;
  };
  std::vector<float> omega;
  for (const int d : axes)
    for (int k = 0; k < d / 2; ++k)
      omega.push_back(1.0f / std::pow(10000.0f, static_cast<float>(2 * k) / static_cast<float>(d)));
  const auto bfl = [&] {
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < 64; ++j) {
        const std::size_t a = j < 8 ? 0 : (j < 36 ? 1 : 2);
        const float ang = static_cast<float>(ids[a * m + i]) * omega[j];
        nd_base[i * 64 + j] = {std::sin(ang), std::cos(ang)};
      }
    g_sink += nd_base[m * 32].sin;
  };
  std::vector<std::uint64_t> rows_list(m);
  for (std::size_t i = 0; i < m; ++i) rows_list[i] = static_cast<std::uint64_t>(ids[m + i]);
  const auto nd_list1d = [&] {
    static_cast<void>(rope::fill_pair_table<float>(qwen.text, rows_list, nd_base));
    g_sink += nd_base[m * 32].sin;
  };
  std::printf("ND RoPE (FLUX.1, [16, 56, 56]): %zu tokens (a %lld x %lld grid + %lld text) x 64 pairs, float\n", m,
              grid, grid, text);
  auto [c2, d2] = race(nd, bfl, min_ms);
  report("posenc rope-nd vs BFL float32", c2, d2, m * 64, "BFL f32");
  auto [c3, d3] = race(nd_fast, bfl, min_ms);
  report("posenc rope-nd (scratch) vs BFL float32", c3, d3, m * 64, "BFL f32");
  const auto nd_range1d = [&] {
    static_cast<void>(rope::fill_pair_table<float>(qwen.text, nd_base));
    g_sink += nd_base[m * 32].sin;
  };
  auto [c1, d1] = race(nd, nd_range1d, min_ms);
  report("posenc rope-nd vs 1D range", c1, d1, m * 64, "1D range");
  auto [c4, d4] = race(nd_fast, nd_range1d, min_ms);
  report("posenc rope-nd (scratch) vs 1D range", c4, d4, m * 64, "1D range");
  // EVA-02-like fractional positions (the grid's rows and columns times 0.75, the text at 0): on
  // the grid of quarters, so the row kernels at n = 3i of the axes' configs with frequencies / 4
  // (rope/nd.hpp, grid_axis). Positions off any grid (times 16 / 14 in doubles): near the
  // progression r h, h = 16 / 14, the row kernels at step h theta_k (near_grid_axis). Until
  // 2026-11-29 both took the scalar entries, about 39 ns each, as the 1D table at a list does.
  std::vector<double> frac = ids, off_grid = ids;
  for (std::size_t k = m; k < 3 * m; ++k) frac[k] *= 0.75, off_grid[k] = off_grid[k] * 16.0 / 14.0;
  // A compact float ND fill of config c at positions p into nd_out, as a timed callable.
  const auto nd_float = [&nd_out, m](const rope::nd_config& c, const std::vector<double>& p) {
    return [&c, &p, &nd_out, m] {
      static_cast<void>(rope::fill_nd_pair_table<float>(c, p, nd_out));
      g_sink += nd_out[m * 32].sin;
    };
  };
  const auto nd_frac = nd_float(flux, frac);
  const auto nd_off_grid = nd_float(flux, off_grid);
  auto [c5, d5] = race(nd_frac, nd_range1d, min_ms);
  report("posenc rope-nd fractional vs 1D range", c5, d5, m * 64, "1D range");
  auto [c6, d6] = race(nd_off_grid, nd_range1d, min_ms);
  report("posenc rope-nd off-grid vs 1D range", c6, d6, m * 64, "1D range");
  auto [c7, d7] = race(nd_off_grid, nd_list1d, min_ms);
  report("posenc rope-nd off-grid vs 1D list", c7, d7, m * 64, "1D list");
  // DINOv3's axes (two of 64 pairs, theta 100, the angle in turns) at its normalised coordinates
  // (2i + 1) / G - 1 of the same grid, the text tokens at 0: near a progression of step 1 / G, so
  // the row kernels at step 2 pi theta_k / G (scalar entries until 2026-11-29).
  static constexpr int dino_axes[] = {64, 64};
  const rope::nd_config dino{.axes_dim = dino_axes, .rope_theta = 100.0, .angle = rope::angle_unit::turns};
  std::vector<double> dino_pos(2 * m, 0.0);
  for (std::size_t k = 0; k < m; ++k)
    if (k >= static_cast<std::size_t>(T))  // the grid's tokens; the text's stay at 0
      dino_pos[k] = rope::dinov3_coord(static_cast<std::uint64_t>(ids[m + k]), static_cast<std::uint64_t>(grid)),
      dino_pos[m + k] =
          rope::dinov3_coord(static_cast<std::uint64_t>(ids[2 * m + k]), static_cast<std::uint64_t>(grid));
  const auto nd_dino = nd_float(dino, dino_pos);
  auto [c8, d8] = race(nd_dino, nd_range1d, min_ms);
  report("posenc rope-nd DINOv3 (turns) vs 1D range", c8, d8, m * 64, "1D range");
  // Every token its own row on two axes (positions i, and i * 16 / 14 off any grid; no listed
  // model's shape, the hardest for ND: no row is shared). Each axis's rows never go back along the
  // tokens, so each is one fill of the row kernels writing each row straight into its tokens' rows
  // (rope/detail/token_rows.hpp); until 2026-11-29 the rows came in 8 KiB stack windows, each
  // paying a fill's set-up (0.27x the 1D table; 0.71x with scratch; 0.19x off the grid).
  std::vector<double> own_rows(3 * m, 0.0), own_off(3 * m, 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    own_rows[m + i] = own_rows[2 * m + i] = static_cast<double>(i);
    own_off[m + i] = own_off[2 * m + i] = static_cast<double>(i) * 16.0 / 14.0;
  }
  std::vector<pair_f> own_scratch(rope::nd_scratch_size(flux, own_rows));
  const auto nd_own = nd_float(flux, own_rows);
  const auto nd_own_scratch = [&] {
    static_cast<void>(rope::fill_nd_pair_table<float>(flux, own_rows, nd_out, own_scratch));
    g_sink += nd_out[m * 32].sin;
  };
  const auto nd_own_off = nd_float(flux, own_off);
  auto [c9, d9] = race(nd_own, nd_range1d, min_ms);
  report("posenc rope-nd own rows vs 1D range", c9, d9, m * 64, "1D range");
  auto [c10, d10] = race(nd_own_scratch, nd_range1d, min_ms);
  report("posenc rope-nd own rows (scratch) vs 1D", c10, d10, m * 64, "1D range");
  auto [c11, d11] = race(nd_own_off, nd_range1d, min_ms);
  report("posenc rope-nd own rows off-grid vs 1D", c11, d11, m * 64, "1D range");
  // The same tables in doubles, against the 1D double table of as many rows. Off any grid, a
  // double row is turned by its own offset cis(delta_r theta_k) in the double row kernel
  // (sincos_table_rows_double.hpp); until 2026-11-29 those tables took the scalar entries (about
  // 41 ns an entry off the grid, 55 in turns). The sampled entries against rope::nd_sincos first.
  std::vector<pair_d> nd_out_d(m * 64), nd_base_d(m * 64);
  const auto nd_range1d_d = [&] {
    static_cast<void>(rope::fill_pair_table<double>(qwen.text, nd_base_d));
    g_sink += nd_base_d[m * 32].sin;
  };
  const auto nd_double = [&](const rope::nd_config& c, const std::vector<double>& p) {
    return [&c, &p, &nd_out_d] {
      static_cast<void>(rope::fill_nd_pair_table<double>(c, p, nd_out_d));
      g_sink += nd_out_d[nd_out_d.size() / 2].sin;
    };
  };
  std::printf("The same ND tables in doubles\n");
  const std::pair<const char*, std::pair<const rope::nd_config*, const std::vector<double>*>> double_cases[] = {
      {"posenc rope-nd double vs 1D range", {&flux, &ids}},
      {"posenc rope-nd off-grid double vs 1D", {&flux, &off_grid}},
      {"posenc rope-nd DINOv3 double vs 1D", {&dino, &dino_pos}},
      {"posenc rope-nd own rows double vs 1D", {&flux, &own_rows}},
      {"posenc rope-nd own rows off-grid double", {&flux, &own_off}}};
  for (const auto& [what, table] : double_cases) {
    const auto& [c, p] = table;
    const auto fill = nd_double(*c, *p);
    fill();
    const std::size_t axes_n = c->axes_dim.size(), width = static_cast<std::size_t>(rope::nd_rotary_dim(*c)) / 2;
    for (std::size_t i = 0; i < m; i += 37)
      for (std::size_t j = 0; j < width; j += 5) {
        double at[3] = {};
        for (std::size_t a = 0; a < axes_n; ++a) at[a] = (*p)[a * m + i];
        const auto e = rope::nd_sincos<double>(*c, std::span<const double>(at, axes_n), static_cast<int>(j));
        if (e.value.sin != nd_out_d[i * width + j].sin || e.value.cos != nd_out_d[i * width + j].cos) {
          std::fprintf(stderr, "rope_streams_bench: a double ND entry differs from rope::nd_sincos\n");
          return 1;
        }
      }
    auto [cd, dd] = race(fill, nd_range1d_d, min_ms);
    report(what, cd, dd, m * 64, "1D double");
  }
  // Every token its own row on both axes of {64, 64}, against the tables it is made of: the two 1D
  // tables of 32 pairs at the same positions (consecutive: rope::fill_pair_table of head_dim 64; off
  // any grid: one-axis ND tables, the library's 1D table at real positions). A ratio near 1 says the
  // ND fill adds nothing to its axes' fills; what it costs over the 64-pair 1D table is then the
  // shorter rows' (each row of each axis pays a row's set-up for 32 entries, not 64).
  static constexpr int two_axes[] = {64, 64}, one_axis[] = {64};
  const rope::nd_config halves{.axes_dim = two_axes, .rope_theta = 10000.0};
  const rope::nd_config half{.axes_dim = one_axis, .rope_theta = 10000.0};
  const rope::config half_1d{.head_dim = 64, .rope_theta = 10000.0};
  std::vector<double> steps(2 * m), off_steps(2 * m);
  for (std::size_t i = 0; i < m; ++i)
    steps[i] = steps[m + i] = static_cast<double>(i),
    off_steps[i] = off_steps[m + i] = static_cast<double>(i) * 16.0 / 14.0;
  const std::span<const double> off_axis(off_steps.data(), m);
  std::printf("Own rows on two axes of 32 pairs (%zu tokens) against the two 1D tables of 32 pairs\n", m);
  const auto parts_race = [&]<class T>(T, const char* what, const std::vector<double>& p, bool on_grid) {
    std::vector<posenc::math::sincos_result<T>> whole(m * 64), part_a(m * 32), part_b(m * 32);
    const auto nd_fill = [&] {
      static_cast<void>(rope::fill_nd_pair_table<T>(halves, p, whole));
      g_sink += static_cast<double>(whole[m * 32].sin);
    };
    const auto parts_fill = [&] {
      for (auto* part : {&part_a, &part_b})
        static_cast<void>(on_grid ? rope::fill_pair_table<T>(half_1d, *part)
                                  : rope::fill_nd_pair_table<T>(half, off_axis, *part));
      g_sink += static_cast<double>(part_b[m * 16].sin);
    };
    parts_fill(), nd_fill();
    for (std::size_t i = 0; i < m; ++i)  // the ND table is the two parts side by side
      for (std::size_t k = 0; k < 32; ++k)
        if (whole[i * 64 + k].sin != part_a[i * 32 + k].sin || whole[i * 64 + 32 + k].cos != part_b[i * 32 + k].cos) {
          std::fprintf(stderr, "rope_streams_bench: an own-rows ND entry differs from its axis's 1D table\n");
          std::exit(1);
        }
    auto [cp, dp] = race(nd_fill, parts_fill, min_ms);
    report(what, cp, dp, m * 64, "two 1D");
  };
  parts_race(float{}, "own rows float vs its 1D parts", steps, true);
  parts_race(float{}, "own rows off-grid float vs parts", off_steps, false);
  parts_race(double{}, "own rows double vs its 1D parts", steps, true);
  parts_race(double{}, "own rows off-grid double vs parts", off_steps, false);

  // ---- the other tables of issue 22: each a 1D table, or cheaper ----
  // Leaky ReRoPE's decode table (w 512, k 16): plain rows 0 .. w - 1, then the k-scaled table's rows
  // from k w; against the 1D table of as many consecutive rows. Two 1D fills where the baseline is
  // one; the second takes its frequencies from the first's (theta_j / k), so what it adds is its
  // anchors (about 10 us, 2-3% of a 4096-row table, under 1% of a 32768-row one).
  const rope::config llama{.head_dim = 128, .rope_theta = 500000.0};
  const rope::checked_leaky_rerope_config leaky{rope::leaky_rerope_config{.window = 512, .scaling_factor = 16}};
  for (const std::size_t leaky_rows : {std::size_t{4096}, std::size_t{32768}}) {
    std::vector<pair_f> leaky_out(leaky_rows * 64), plain_out(leaky_rows * 64);
    const auto leaky_fill = [&] {
      static_cast<void>(rope::fill_leaky_rerope_pair_table<float>(llama, leaky, leaky_out));
      g_sink += leaky_out[leaky_rows * 32].sin;
    };
    const auto plain_fill = [&] {
      static_cast<void>(rope::fill_pair_table<float>(llama, plain_out));
      g_sink += plain_out[leaky_rows * 32].sin;
    };
    std::printf("Leaky ReRoPE decode table (w 512, k 16), %zu rows x 64 pairs, float\n", leaky_rows);
    auto [e1, f1] = race(leaky_fill, plain_fill, min_ms);
    report("posenc leaky vs posenc 1D range", e1, f1, leaky_rows * 64, "1D range");
  }
  // StreamingLLM's rows of one step (4 sinks + 2000 recent tokens, token 10000: kv_len 2005), against
  // the 1D table of as many consecutive rows, expanded half-split float: make_streaming_table (the
  // fixed-size table, built in place; against make_table, each built into static storage, not
  // copied), and the slots' cache positions 0 .. 2004 as a position list through fill_table (for a
  // kv_len known at run time). Until 2026-11-28 a list was scalar entries whatever its positions
  // (about 74 ns an entry) and make_streaming_table filled from that list, then copied the table.
  constexpr std::size_t kv_len = 2005;
  const rope::checked_streaming_cache_config sink_window{
      rope::streaming_cache_config{.start_size = 4, .recent_size = 2000}};
  using step_result = posenc::result<rope::streaming_table<float, kv_len, 128>>;
  using range_result = posenc::result<rope::table<float, kv_len, 128>>;
  alignas(step_result) static unsigned char step_memory[sizeof(step_result)];
  alignas(range_result) static unsigned char range_memory[sizeof(range_result)];
  const auto step_make = [&] {
    const auto* const r = ::new (static_cast<void*>(step_memory))
        step_result(rope::make_streaming_table<float, kv_len, 128>(llama, sink_window, 10000));
    g_sink += r->value.rows.cos[kv_len * 64];
  };
  const auto range_make = [&] {
    const auto* const r =
        ::new (static_cast<void*>(range_memory)) range_result(rope::make_table<float, kv_len, 128>(llama));
    g_sink += r->value.cos[kv_len * 64];
  };
  std::printf("StreamingLLM step table (4 sinks + 2000 recent, kv_len %zu) x 64 pairs, float, expanded\n", kv_len);
  auto [em, fm] = race(step_make, range_make, min_ms);
  report("make_streaming_table vs make_table", em, fm, kv_len * 64, "1D range");
  std::vector<std::uint64_t> slot_token(kv_len), slot_position(kv_len);
  if (rope::streaming_step_slots(sink_window, 10000, slot_token, slot_position) != posenc::status::ok) {
    std::fprintf(stderr, "rope_streams_bench: the StreamingLLM step's slots failed\n");
    return 1;
  }
  std::vector<float> step_cos(kv_len * 128), step_sin(kv_len * 128), range_cos(kv_len * 128), range_sin(kv_len * 128);
  const auto step_fill = [&] {
    static_cast<void>(rope::fill_table<float>(llama, slot_position, step_cos, step_sin));
    g_sink += step_cos[kv_len * 64];
  };
  const auto range_fill = [&] {
    static_cast<void>(rope::fill_table<float>(llama, range_cos, range_sin));
    g_sink += range_cos[kv_len * 64];
  };
  auto [es, fs] = race(step_fill, range_fill, min_ms);
  report("fill_table at the slots vs 1D range", es, fs, kv_len * 64, "1D range");
  // Llama-4's attention temperature: 2^20 positions (one value each), against a 1D RoPE table of
  // as many entries (one pair, 2^20 rows).
  const std::size_t temp_rows = std::size_t{1} << 20;
  std::vector<float> temp_out(temp_rows);
  std::vector<pair_f> one_pair(temp_rows);
  const posenc::attn_temperature::checked_config temp{posenc::attn_temperature::config{}};
  const auto temp_fill = [&] {
    static_cast<void>(posenc::attn_temperature::fill_scales<float>(temp, 0, std::span<float>(temp_out)));
    g_sink += temp_out[temp_rows / 2];
  };
  const rope::config one{.head_dim = 2};
  const auto one_fill = [&] {
    static_cast<void>(rope::fill_pair_table<float>(one, one_pair));
    g_sink += one_pair[temp_rows / 2].sin;
  };
  std::printf("Attention temperature, 2^20 positions, float\n");
  auto [h1, i1] = race(temp_fill, one_fill, min_ms);
  report("posenc temperature vs 1D range", h1, i1, temp_rows, "1D range");
  std::printf("(sink %g)\n", g_sink);
  return 0;
}
