// bench/runtime/apply_bench.cpp: run-time throughput of posenc::rope::rotate (apply.hpp) for float
// and bfloat16 storage, both layouts, on the Llama-2-7B attention shape (32 heads x 128 dims per
// position, q and k), against baselines measured in the same run (ratios cancel the machine):
//  * memcpy of the same bytes (a separate q+k source buffer into a separate destination of the same
//    size): the bandwidth ceiling;
//  * libm/pos: a straightforward kernel that computes cos/sin per position with libm, as engines
//    without tables do: angle = float(p) * inv_freq[j] (float32, HF's pipeline), std::cos/std::sin
//    (float), once per position and pair, shared by every head of q and k (ggml's rope_cache_init
//    does this), then the same rotation arithmetic as posenc;
//  * libm/head, for reference: the fully naive kernel calling std::cos/std::sin for every head's pair;
//  * in-place flip, for reference: a sign flip of every element of q and k in place, the bandwidth
//    ceiling of an in-place pass (memcpy moves the same bytes to a second buffer, which costs more
//    once the data is in DRAM: posenc can then exceed memcpy).
// posenc's rotate takes its cos/sin from a correctly rounded float table, one row of 64 entries per
// position, built before timing (sincos_geometric_table from position 0, else sincos_geometric per entry, as
// the table function has no start position; the build time is printed). GB/s counts the bytes of q
// and k once (each is read and written in place; memcpy reads the same count and writes it elsewhere).
// The table's own bytes (8 per entry, 512 per position) are not counted.
//
// Two regimes by default, each its own section:
//  * cache:  32 positions (q+k: 1 MiB f32, 512 KiB bf16; memcpy's source + destination twice that):
//            cache-resident (L2 and L3), like decoding a few tokens; shows the kernels' arithmetic.
//  * stream: 4096 positions (q+k: 128 MiB f32, 64 MiB bf16, past a 32 MiB L3): DRAM-bound, like a
//            long prefill: memcpy and posenc are limited by memory bandwidth, the libm kernels may
//            still be limited by their cos/sin.
// Each kernel is timed as the best of 7 passes, each pass repeating the kernel for at least 30 ms,
// after one untimed call that touches every buffer (page faults and first-touch out of the timing).
// Memory at N positions, f32: q and k N x 16 KiB each, memcpy's source and destination N x 32 KiB
// each (6 x N x 16 KiB: 384 MiB at 4096; half for bf16) plus the table (N x 512 B); one storage and
// layout at a time.
//
// Build (no -ffast-math; -ffp-contract=off as the posenc::posenc target sets):
//   g++ -std=c++20 -O2 -march=x86-64 -ffp-contract=off -Iinclude bench/runtime/apply_bench.cpp -o apply_bench
//   clang++-16 -std=c++20 -O2 -march=x86-64 -ffp-contract=off -Iinclude bench/runtime/apply_bench.cpp -o apply_bench
// (and -O3 or -march=x86-64-v3 likewise). posenc runs its run-time kernels (rope/detail/
// apply_simd.hpp); the baselines keep their own scalar loops, so the compiler vectorises them where
// it can.
// Run: ./apply_bench                            both regimes (10-15 s on 2 cores)
//      ./apply_bench [--positions N] [--start P] one regime ("custom"): N positions (1..8192,
//                                                default 4096) from absolute position P (default 0;
//                                                P + N <= 2^31). A large P slows libm's sin/cos
//                                                (larger angles to reduce) and selects other table
//                                                rows. Bad arguments: one line on stderr, exit 2.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include <posenc/math/sincos_table.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/numeric/bits.hpp>
#include <posenc/rope/apply.hpp>

namespace {

namespace pr = posenc::rope;
namespace pm = posenc::math;

constexpr std::size_t heads = 32, head_dim = 128, pairs = head_dim / 2;
constexpr std::size_t block = heads * head_dim;  // elements of q (or k) per position
constexpr double base = 10000.0;
constexpr std::size_t max_positions = 8192;  // 768 MiB of f32 buffers: under 1 GiB
// start + positions <= 2^31: past any context length; the per-entry table build stays ~0.1 s (beyond
// ~1.6e9 rad the angles start to leave rope_sincos's fast path for its slow exact one).
constexpr std::uint64_t max_end = std::uint64_t{1} << 31;
std::uint64_t g_sink = 0;

struct regime {
  const char* name;
  std::uint64_t start;  // absolute position of the first row
  std::size_t positions;
};

struct cos_sin_table {
  std::vector<pm::sincos_result<float>> rows;  // positions x pairs, row p = position start + p
  double build_seconds;
  const char* method;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class F>
double best_seconds(F f) {  // one untimed call, then the best of 7 passes, each repeating f >= 30 ms
  f();
  double best = 1e30;
  for (int rep = 0; rep < 7; ++rep) {
    int iters = 0;
    const auto t0 = std::chrono::steady_clock::now();
    double el = 0;
    do {
      f();
      ++iters;
      el = seconds_since(t0);
    } while (el < 0.03);
    best = std::min(best, el / iters);
  }
  return best;
}

cos_sin_table build_table(const regime& r) {
  cos_sin_table t{std::vector<pm::sincos_result<float>>(r.positions * pairs), 0.0, ""};
  const auto t0 = std::chrono::steady_clock::now();
  if (r.start == 0) {
    pm::sincos_geometric_table<float>({base, 2, static_cast<std::int64_t>(head_dim)}, pairs, std::span(t.rows));
    t.method = "sincos_geometric_table";
  } else {
    for (std::size_t p = 0; p < r.positions; ++p)
      for (std::size_t j = 0; j < pairs; ++j)
        t.rows[p * pairs + j] =
            pm::sincos_geometric<float>(r.start + p, base, 2 * (static_cast<int>(j)), static_cast<int>(head_dim)).value;
    t.method = "rope_sincos per entry";
  }
  t.build_seconds = seconds_since(t0);
  return t;
}

// The in-place reference: XOR the sign bits of n elements, 16 bytes at a time with a generic
// vector, so that it runs at the same vector width under both compilers (GCC -O2 does not
// vectorise the plain loop; Clang does).
template <class S>
void flip_signs(S* x, std::size_t n) {
  using v4u = std::uint32_t __attribute__((vector_size(16)));
  const std::uint32_t m = sizeof(S) == 4 ? 0x80000000u : 0x80008000u;
  auto* bytes = reinterpret_cast<unsigned char*>(x);
  for (std::size_t i = 0; i < n * sizeof(S); i += 16) {
    v4u w;
    std::memcpy(&w, bytes + i, 16);
    w ^= m;
    std::memcpy(bytes + i, &w, 16);
  }
}

// The libm baselines' own loads and stores, written as a framework writes them: a bfloat16 widens
// to float exactly (to_float), a float narrows to bfloat16 by round to nearest even on its bits
// (PyTorch's c10::BFloat16 round_to_nearest_even: add 0x7FFF + lsb, keep the top half; NaN ->
// quiet NaN). The same rounding as posenc's rotate, so the comparison times the same work.
template <class S>
struct io {
  static float ld(S x) {
    if constexpr (std::is_same_v<S, float>)
      return x;
    else
      return x.to_float();
  }
  static S st(float x) {
    if constexpr (std::is_same_v<S, float>) {
      return x;
    } else {
      static_assert(std::is_same_v<S, posenc::bfloat16>, "the bench runs float and bfloat16");
      const std::uint32_t u = std::bit_cast<std::uint32_t>(x);
      if ((u & 0x7FFFFFFFu) > 0x7F800000u) return posenc::bfloat16::from_bits(0x7FC0u);
      return posenc::bfloat16::from_bits(static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16));
    }
  }
};

// The libm baseline, same arithmetic as posenc (x c - y s, x s + y c, float, no FMA).
template <class S>
void rotate_head_libm(S* x, const float* c, const float* s, pr::layout lay) {
  const std::size_t step = lay == pr::layout::interleaved ? 2 : 1, off = lay == pr::layout::interleaved ? 1 : pairs;
  for (std::size_t j = 0; j < pairs; ++j) {
    const float a = io<S>::ld(x[j * step]), b = io<S>::ld(x[j * step + off]);
    x[j * step] = io<S>::st(a * c[j] - b * s[j]);
    x[j * step + off] = io<S>::st(a * s[j] + b * c[j]);
  }
}

template <class S>
void run(const char* name, pr::layout lay, const regime& r, const cos_sin_table& table) {
  const std::size_t positions = r.positions, n = positions * block;
  // Every buffer is written here, so its pages exist before any timing.
  std::vector<S> q(n), k(n), qk(2 * n), dst(2 * n);  // qk, dst: memcpy source and destination
  for (std::size_t i = 0; i < n; ++i) {
    q[i] = io<S>::st(static_cast<float>(static_cast<int>(i % 97) - 48) * 0.01f);
    k[i] = io<S>::st(static_cast<float>(static_cast<int>(i % 89) - 44) * 0.01f);
  }
  std::copy(q.begin(), q.end(), qk.begin());
  std::copy(k.begin(), k.end(), qk.begin() + static_cast<std::ptrdiff_t>(n));
  std::fill(dst.begin(), dst.end(), io<S>::st(1.0f));
  std::vector<float> inv_freq(pairs);  // HF: 1 / base^(arange(0, d, 2) / d) in float32
  for (std::size_t j = 0; j < pairs; ++j)
    inv_freq[j] = 1.0f / std::pow(static_cast<float>(base), static_cast<float>(2 * j) / static_cast<float>(head_dim));
  const pr::apply_shape sh{.heads = heads, .head_dim = head_dim, .rotary_dim = head_dim, .lay = lay};
  const double bytes = 2.0 * static_cast<double>(n) * sizeof(S);
  const pm::sincos_result<float>* rows = table.rows.data();
  const std::uint64_t start = r.start;

  const double t_copy = best_seconds([&] {
    std::memcpy(dst.data(), qk.data(), qk.size() * sizeof(S));
    g_sink += reinterpret_cast<const unsigned char*>(dst.data())[5];
  });
  // In-place reference: flip the sign bit of every element of q and k, the same bytes read and
  // written in place in the same order as posenc (memcpy writes a second buffer instead).
  const double t_flip = best_seconds([&] {
    flip_signs(q.data(), n);
    flip_signs(k.data(), n);
    g_sink += posenc::to_bits(q[5]);
  });
  const double t_posenc = best_seconds([&] {
    for (std::size_t p = 0; p < positions; ++p) {
      pr::rotate(q.data() + p * block, sh, rows + p * pairs);
      pr::rotate(k.data() + p * block, sh, rows + p * pairs);
    }
  });
  const double t_libm = best_seconds([&] {
    float c[pairs], s[pairs];
    for (std::size_t p = 0; p < positions; ++p) {
      const float pos = static_cast<float>(start + p);  // float32 positions, as HF
      for (std::size_t j = 0; j < pairs; ++j) {
        const float a = pos * inv_freq[j];
        c[j] = std::cos(a);
        s[j] = std::sin(a);
      }
      for (std::size_t h = 0; h < heads; ++h) {
        rotate_head_libm(q.data() + p * block + h * head_dim, c, s, lay);
        rotate_head_libm(k.data() + p * block + h * head_dim, c, s, lay);
      }
    }
  });
  const double t_naive = best_seconds([&] {
    float c[pairs], s[pairs];
    for (std::size_t p = 0; p < positions; ++p) {
      const float pos = static_cast<float>(start + p);
      for (std::size_t h = 0; h < 2 * heads; ++h) {
        for (std::size_t j = 0; j < pairs; ++j) {
          const float a = pos * inv_freq[j];
          c[j] = std::cos(a);
          s[j] = std::sin(a);
        }
        S* x = (h < heads ? q.data() : k.data()) + p * block + (h % heads) * head_dim;
        rotate_head_libm(x, c, s, lay);
      }
    }
  });
  for (const S& e : q) g_sink += posenc::to_bits(e);
  const auto gbs = [bytes](double t) { return bytes / t * 1e-9; };
  std::printf(
      "%-5s %-11s  memcpy %6.2f GB/s | posenc %6.2f GB/s (%.2fx memcpy) | libm/pos %6.2f GB/s (posenc %.2fx) | "
      "libm/head %6.2f GB/s (posenc %.2fx) | in-place flip %6.2f GB/s (posenc %.2fx)\n",
      name, lay == pr::layout::interleaved ? "interleaved" : "half-split", gbs(t_copy), gbs(t_posenc),
      t_copy / t_posenc, gbs(t_libm), t_libm / t_posenc, gbs(t_naive), t_naive / t_posenc, gbs(t_flip),
      t_flip / t_posenc);
  std::fflush(stdout);
}

void run_regime(const regime& r) {
  const double mib = static_cast<double>(r.positions * block * 2 * sizeof(float)) / 1048576.0;
  const cos_sin_table table = build_table(r);
  std::printf(
      "== %s: positions %llu..%llu x (q, k) x %zu heads x %zu dims, in place; q+k %g MiB f32, %g MiB bf16; "
      "table %zu x %zu (%g KiB) built in %.3f s by %s\n",
      r.name, static_cast<unsigned long long>(r.start), static_cast<unsigned long long>(r.start + r.positions - 1),
      heads, head_dim, mib, mib / 2, r.positions, pairs,
      static_cast<double>(table.rows.size() * sizeof(table.rows[0])) / 1024.0, table.build_seconds, table.method);
  std::fflush(stdout);
  run<float>("f32", pr::layout::interleaved, r, table);
  run<float>("f32", pr::layout::half_split, r, table);
  run<posenc::bfloat16>("bf16", pr::layout::interleaved, r, table);
  run<posenc::bfloat16>("bf16", pr::layout::half_split, r, table);
}

// A decimal integer in [lo, hi], digits only (no sign, no spaces); false otherwise.
bool parse_uint(const char* s, std::uint64_t lo, std::uint64_t hi, std::uint64_t& out) {
  if (*s == '\0') return false;
  std::uint64_t v = 0;
  for (; *s != '\0'; ++s) {
    if (*s < '0' || *s > '9') return false;
    const auto d = static_cast<std::uint64_t>(*s - '0');
    if (v > (hi - d) / 10) return false;  // v * 10 + d > hi (also stops overflow)
    v = v * 10 + d;
  }
  if (v < lo) return false;
  out = v;
  return true;
}

int usage_error(const char* what, const char* arg) {
  std::fprintf(
      stderr, "apply_bench: %s%s%s (usage: apply_bench [--positions N (1..%zu)] [--start P (P + N <= %llu)])\n", what,
      arg != nullptr ? ": " : "", arg != nullptr ? arg : "", max_positions, static_cast<unsigned long long>(max_end));
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t n = 0, start = 0;
  bool have_n = false, have_start = false;
  for (int i = 1; i < argc; ++i) {
    const bool is_n = std::strcmp(argv[i], "--positions") == 0, is_start = std::strcmp(argv[i], "--start") == 0;
    if (!is_n && !is_start) return usage_error("unknown argument", argv[i]);
    if ((is_n && have_n) || (is_start && have_start)) return usage_error("repeated option", argv[i]);
    if (i + 1 >= argc) return usage_error("missing value after", argv[i]);
    const char* v = argv[++i];
    if (is_n) {
      if (!parse_uint(v, 1, max_positions, n)) return usage_error("bad --positions", v);
      have_n = true;
    } else {
      if (!parse_uint(v, 0, max_end - 1, start)) return usage_error("bad --start", v);
      have_start = true;
    }
  }
  if (!have_n && !have_start) {
    run_regime({"cache", 0, 32});
    run_regime({"stream", 0, 4096});
  } else {
    if (!have_n) n = 4096;
    if (start + n > max_end) return usage_error("--start + --positions exceeds 2^31", nullptr);
    run_regime({"custom", start, static_cast<std::size_t>(n)});
  }
  std::printf("(sink %llu)\n", static_cast<unsigned long long>(g_sink));
  return 0;
}
