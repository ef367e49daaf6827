// apply_kernel.hpp: the run-time form of apply.hpp's rotation, written so that GCC (-O2 and up) and
// Clang auto-vectorise it with the baseline instruction set (SSE2 on x86-64, NEON on AArch64):
// blocks of apply_lanes pairs go through small local arrays (loads, then arithmetic, then stores),
// so each step is a fixed-count loop over independent lanes with no aliasing to prove, and the
// bfloat16 conversions are written on uint32 bits without branches (a select per lane).
//
// Same bits as the scalar form (apply.hpp's rotate_pairs, which the constant evaluator runs): every
// element gets exactly the operations of apply.hpp's contract, in the same order and the same
// operand order, x' = RN(RN(x c) - RN(y s)), y' = RN(RN(x s) + RN(y c)); only the grouping of the
// independent lanes differs. tests/test_rope_apply_fast.cpp compares the two bit for bit.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/numeric/bfloat16.hpp"

namespace posenc::detail {

// Pairs per block: 16 floats are four SSE/NEON registers, 16 bfloat16 two; enough independent
// work per block to hide the latencies, few enough registers to stay out of the stack.
inline constexpr std::size_t apply_lanes = 16;

}  // namespace posenc::detail

// GCC vectorises the fixed-count lane loops one by one, through the stack, unless they are unrolled
// first; unrolled, its straight-line (SLP) vectoriser keeps the block in registers. Clang unrolls and
// vectorises them on its own.
#if defined(__GNUC__) && !defined(__clang__)
#define POSENC_DETAIL_UNROLL_LANES _Pragma("GCC unroll 16")
#else
#define POSENC_DETAIL_UNROLL_LANES
#endif

namespace posenc::detail {

// Element load/store of the fast path; the same values as apply_traits<S>::load/store.
template <class S>
struct lane_io {
  static constexpr S load(S v) noexcept { return v; }  // float, double: the compute type itself
  static constexpr S store(S v) noexcept { return v; }
};
template <>
struct lane_io<bfloat16> {
  // Exact: the bfloat16 bits are the float's high half (bfloat16.hpp).
  static constexpr float load(bfloat16 v) noexcept {
    return std::bit_cast<float>(static_cast<std::uint32_t>(static_cast<std::uint32_t>(v.bits) << 16));
  }
  // apply_traits<bfloat16>::store without the branch: round to nearest even on the bits (add
  // 0x7FFF + lsb, keep the high half), and the quiet NaN 0x7FC0 for NaN, chosen by a mask so that
  // the lanes of a vector stay independent. The NaN test |u| > 0x7F800000 is made on int32 because
  // both sides are below 2^31 and SSE2 has only a signed compare.
  static constexpr bfloat16 store(float v) noexcept {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(v);
    const std::uint32_t r = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
    const std::uint32_t nan = static_cast<std::uint32_t>(-static_cast<std::int32_t>(static_cast<std::int32_t>(u & 0x7FFFFFFFu) > 0x7F800000));
    return bfloat16::from_bits(static_cast<std::uint16_t>((r & ~nan) | (0x7FC0u & nan)));
  }
};

// Half-split: pair j is (x[j], x[j + off]); pairs j0 <= j < j0 + n of one head, cs[j - j0] = cos,
// sn[j - j0] = (signed) sin in C. Blocks of apply_lanes pairs; the caller handles n % apply_lanes.
template <class S, class C>
constexpr void rotate_half_fast(S* x, std::size_t j0, std::size_t n, std::size_t off, const C* cs, const C* sn) noexcept {
  using L = lane_io<S>;
  constexpr std::size_t w = apply_lanes;
  for (std::size_t b = 0; b + w <= n; b += w) {
    S* p = x + j0 + b;
    S* q = p + off;
    C a[w], y[w], r[w], t[w];
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) a[i] = L::load(p[i]);
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) y[i] = L::load(q[i]);
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) r[i] = a[i] * cs[b + i] - y[i] * sn[b + i];
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) t[i] = a[i] * sn[b + i] + y[i] * cs[b + i];
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) p[i] = L::store(r[i]);
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) q[i] = L::store(t[i]);
  }
}

// Interleaved: pair j is (x[2j], x[2j + 1]). The block is split into its even and odd elements
// (two shuffles per pair of vectors), rotated exactly as the half-split block, and interleaved back.
template <class S, class C>
constexpr void rotate_interleaved_fast(S* x, std::size_t j0, std::size_t n, const C* cs, const C* sn) noexcept {
  using L = lane_io<S>;
  constexpr std::size_t w = apply_lanes / 2;  // Clang spills at 16 here
  for (std::size_t b = 0; b + w <= n; b += w) {
    S* p = x + 2 * (j0 + b);
    C a[w], y[w], r[w], t[w];
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) {
      a[i] = L::load(p[2 * i]);
      y[i] = L::load(p[2 * i + 1]);
    }
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) r[i] = a[i] * cs[b + i] - y[i] * sn[b + i];
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) t[i] = a[i] * sn[b + i] + y[i] * cs[b + i];
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) {
      p[2 * i] = L::store(r[i]);
      p[2 * i + 1] = L::store(t[i]);
    }
  }
}

// bfloat16 on a little-endian machine: two consecutive elements are one 32-bit word, element 2i in
// the low half, 2i + 1 in the high half. Then both loads are exact bit operations on the word
// (low << 16, high & 0xFFFF0000: each a float whose low 16 bits are zero, bfloat16.hpp's to_float),
// and the store puts two rounded results back into one word, so no 16-bit shuffles or packs are
// needed (SSE2 has no unsigned 32->16 pack). bf16_round_hi is lane_io<bfloat16>::store with the
// result left in the high half: the same 16 bits.
constexpr std::uint32_t bf16_round_hi(float v) noexcept {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(v);
  const std::uint32_t r = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
  const std::uint32_t nan = static_cast<std::uint32_t>(-static_cast<std::int32_t>(static_cast<std::int32_t>(u & 0x7FFFFFFFu) > 0x7F800000));
  return (r & ~nan) | (0x7FC00000u & nan);
}
inline constexpr bool bf16_words = std::endian::native == std::endian::little && sizeof(bfloat16) == 2;

template <std::size_t N>
struct u32_block {
  std::uint32_t w[N];
};
template <std::size_t N>
struct bf16_block {
  bfloat16 e[2 * N];
};
// N words from 2N elements at p, and back; bit_cast keeps this constexpr and compiles to plain loads.
template <std::size_t N>
constexpr u32_block<N> load_words(const bfloat16* p) noexcept {
  bf16_block<N> b{};
  POSENC_DETAIL_UNROLL_LANES
  for (std::size_t i = 0; i < 2 * N; ++i) b.e[i] = p[i];
  return std::bit_cast<u32_block<N>>(b);
}
template <std::size_t N>
constexpr void store_words(bfloat16* p, const u32_block<N>& w) noexcept {
  const bf16_block<N> b = std::bit_cast<bf16_block<N>>(w);
  POSENC_DETAIL_UNROLL_LANES
  for (std::size_t i = 0; i < 2 * N; ++i) p[i] = b.e[i];
}

// Interleaved bfloat16: word i of the block is pair i (x low, y high).
constexpr void rotate_interleaved_bf16(bfloat16* x, std::size_t j0, std::size_t n, const float* cs, const float* sn) noexcept {
  constexpr std::size_t w = apply_lanes;
  for (std::size_t b = 0; b + w <= n; b += w) {
    bfloat16* p = x + 2 * (j0 + b);
    u32_block<w> d = load_words<w>(p);
    POSENC_DETAIL_UNROLL_LANES
    for (std::size_t i = 0; i < w; ++i) {
      const float a = std::bit_cast<float>(d.w[i] << 16), y = std::bit_cast<float>(d.w[i] & 0xFFFF0000u);
      const float r = a * cs[b + i] - y * sn[b + i], t = a * sn[b + i] + y * cs[b + i];
      d.w[i] = (bf16_round_hi(r) >> 16) | bf16_round_hi(t);
    }
    store_words<w>(p, d);
  }
}

}  // namespace posenc::detail
