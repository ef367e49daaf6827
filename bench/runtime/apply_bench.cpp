// bench/runtime/apply_bench.cpp: run-time throughput of posenc::rope::rotate (apply.hpp) for float
// and bfloat16 storage, both layouts, on the Llama-2-7B attention shape (32 heads x 128 dims per
// position, q and k), against two baselines measured in the same run (ratios cancel the machine):
//  * memcpy of the same bytes (the q and k buffers of all positions): the bandwidth ceiling;
//  * a straightforward kernel that computes cos/sin per position with libm, as engines without
//    tables do: angle = float(p) * inv_freq[j] (float32, HF's pipeline), std::cos/std::sin (float),
//    once per position and pair, shared by every head of q and k (ggml's rope_cache_init does this),
//    then the same rotation arithmetic as posenc;
//  * and, for reference, the fully naive kernel calling std::cos/std::sin for every head's pair.
// posenc's rotate takes its cos/sin from a correctly rounded table (math::rope_sincos_table<float>),
// one row per position. GB/s counts the bytes of q and k once (each is read and written in place;
// memcpy reads the same count and writes it elsewhere).
//
// Build (no -ffast-math; -ffp-contract=off as the posenc::posenc target sets):
//   g++ -std=c++20 -O2 -march=x86-64 -ffp-contract=off -Iinclude bench/runtime/apply_bench.cpp -o apply_bench
//   clang++-16 -std=c++20 -O2 -march=x86-64 -ffp-contract=off -Iinclude bench/runtime/apply_bench.cpp -o apply_bench
// (and -O3 likewise). posenc runs its run-time kernels (rope/detail/apply_kernel.hpp); the baselines
// keep their own scalar loops, unchanged, so the compiler vectorises them where it can.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <posenc/math/rope_angle.hpp>
#include <posenc/numeric/bfloat16.hpp>
#include <posenc/rope/apply.hpp>

namespace {

namespace pr = posenc::rope;
namespace pm = posenc::math;

constexpr std::size_t heads = 32, head_dim = 128, pairs = head_dim / 2, positions = 32;
constexpr std::size_t block = heads * head_dim;  // elements of q (or k) per position
constexpr double base = 10000.0;
std::uint64_t g_sink = 0;

template <class F>
double best_seconds(F f) {  // best of 7 timed passes, each repeating f for at least 30 ms
  double best = 1e30;
  for (int rep = 0; rep < 7; ++rep) {
    int iters = 0;
    const auto t0 = std::chrono::steady_clock::now();
    double el = 0;
    do {
      f();
      ++iters;
      el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } while (el < 0.03);
    best = std::min(best, el / iters);
  }
  return best;
}

template <class S>
struct io {
  static float ld(S x) { return posenc::detail::apply_traits<S>::load(x); }
  static S st(float x) { return posenc::detail::apply_traits<S>::store(x); }
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
void run(const char* name, pr::layout lay) {
  std::vector<S> q(positions * block), k(positions * block), dst(2 * positions * block);
  for (std::size_t i = 0; i < q.size(); ++i) {
    q[i] = io<S>::st(static_cast<float>(static_cast<int>(i % 97) - 48) * 0.01f);
    k[i] = io<S>::st(static_cast<float>(static_cast<int>(i % 89) - 44) * 0.01f);
  }
  std::vector<S> qk(2 * positions * block);  // memcpy source: q and k of every position
  std::vector<pm::sincos_result<float>> table(positions * pairs);
  pm::rope_sincos_table<float>(positions, base, static_cast<int>(head_dim), table.data());
  std::vector<float> inv_freq(pairs);  // HF: 1 / base^(arange(0, d, 2) / d) in float32
  for (std::size_t j = 0; j < pairs; ++j)
    inv_freq[j] = 1.0f / std::pow(static_cast<float>(base), static_cast<float>(2 * j) / static_cast<float>(head_dim));
  const pr::apply_shape sh{.heads = heads, .head_dim = head_dim, .rotary_dim = head_dim, .lay = lay};
  const double bytes = 2.0 * positions * block * sizeof(S);

  const double t_copy = best_seconds([&] {
    std::memcpy(dst.data(), qk.data(), qk.size() * sizeof(S));
    g_sink += reinterpret_cast<const unsigned char*>(dst.data())[5];
  });
  const double t_posenc = best_seconds([&] {
    for (std::size_t p = 0; p < positions; ++p) {
      pr::rotate(q.data() + p * block, sh, table.data() + p * pairs);
      pr::rotate(k.data() + p * block, sh, table.data() + p * pairs);
    }
  });
  const double t_libm = best_seconds([&] {
    float c[pairs], s[pairs];
    for (std::size_t p = 0; p < positions; ++p) {
      for (std::size_t j = 0; j < pairs; ++j) {
        const float a = static_cast<float>(p) * inv_freq[j];
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
    for (std::size_t p = 0; p < positions; ++p)
      for (std::size_t h = 0; h < 2 * heads; ++h) {
        for (std::size_t j = 0; j < pairs; ++j) {
          const float a = static_cast<float>(p) * inv_freq[j];
          c[j] = std::cos(a);
          s[j] = std::sin(a);
        }
        S* x = (h < heads ? q.data() : k.data()) + p * block + (h % heads) * head_dim;
        rotate_head_libm(x, c, s, lay);
      }
  });
  for (const S& e : q) g_sink += posenc::detail::float_format<S>::to_bits(e);
  const auto gbs = [bytes](double t) { return bytes / t * 1e-9; };
  std::printf("%-5s %-11s  memcpy %6.2f GB/s | posenc %6.2f GB/s (%.2fx memcpy) | libm/pos %6.2f GB/s (posenc %.2fx) | "
              "libm/head %6.2f GB/s (posenc %.2fx)\n",
              name, lay == pr::layout::interleaved ? "interleaved" : "half-split", gbs(t_copy), gbs(t_posenc),
              t_copy / t_posenc, gbs(t_libm), t_libm / t_posenc, gbs(t_naive), t_naive / t_posenc);
}

}  // namespace

int main() {
  std::printf("posenc rope apply: %zu positions x (q, k) x %zu heads x %zu dims, in place; bytes = q + k\n", positions,
              heads, head_dim);
  run<float>("f32", pr::layout::interleaved);
  run<float>("f32", pr::layout::half_split);
  run<posenc::bfloat16>("bf16", pr::layout::interleaved);
  run<posenc::bfloat16>("bf16", pr::layout::half_split);
  std::printf("(sink %llu)\n", static_cast<unsigned long long>(g_sink));
  return 0;
}
