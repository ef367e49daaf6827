// apply_simd.hpp: the run-time rotation kernels (float, double and bfloat16 storage; float16 goes
// through the float kernel), written with the GCC/Clang vector extensions: generic vectors that
// become SSE2/AVX on x86-64 and NEON on Arm, with no intrinsics and no run-time dispatch. Used
// only at run time (apply.hpp's rotate_heads_fast); the constant evaluator runs apply.hpp's scalar
// rotate_pairs, and targets without a vector unit (Cortex-M) run rotate_pairs at run time too.
//
// Why explicit vectors rather than scalar code for the auto-vectoriser (what this replaced):
//  * Correctness. GCC 12's straight-line vectoriser turns the interleaved pattern
//    (x c - y s, x s + y c, ...) into vfmaddsub, one rounding instead of two, even under
//    -ffp-contract=off, whenever FMA is enabled (-march=x86-64-v3, haswell, native): run-time bits
//    then differ from compile-time bits by an ulp. tests/test_rope_apply_fast.cpp, built at
//    -march=x86-64-v3 too, caught it. Explicit vector operations are not re-associated or fused.
//  * Speed. The compilers' shuffle choices for the interleaved layout varied (Clang 16 at
//    -march=x86-64-v3 ran it 5x slower than at SSE2) and the bfloat16 rounding stayed scalar in
//    places. Here every step is a whole-vector operation.
//
// Same bits as rotate_pairs, element by element (apply.hpp's contract, RN = round to nearest even):
//  * half-split: x' = RN(RN(x c) - RN(y s)), y' = RN(RN(x s) + RN(y c)), lane-wise, as written.
//  * interleaved: v = (x0, y0, x1, y1, ...), w = v with each pair swapped, c2 = (c0, c0, c1, c1, ...),
//    s2 = (-s0, s0, -s1, s1, ...); v c2 + w s2 gives, in the even lane, RN(RN(x c) + RN(y (-s)))
//    = RN(RN(x c) - RN(y s)) (IEEE 754 defines a - b as a + (-b), and RN is odd, so
//    RN(y (-s)) = -RN(y s), signed zeros included), and in the odd lane RN(RN(y c) + RN(x s)),
//    the contract's sum with its operands commuted (IEEE addition commutes; only the payload of a
//    NaN could tell the orders apart, and apply.hpp leaves that open for float storage, while the
//    bfloat16 store maps every NaN to 0x7FC0).
//  * bfloat16: element pairs are read as 32-bit words (little-endian: element 2i in the low half),
//    so loads are exact bit operations (low << 16, high & 0xFFFF0000) and stores put two rounded
//    results back into one word; the rounding is apply_traits<bfloat16>::store's, on the bits,
//    with a vector select instead of its branch for NaN.
//    Half-split bfloat16 thus sees pairs j (even) and j + 1 (odd) in one word, and takes cos/sin
//    split into even and odd entries (built once per position by the caller, shared by all heads).
// tests/test_rope_apply_fast.cpp compares all of this bit for bit with rotate_pairs.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/numeric/bfloat16.hpp"

// On ARMv7 NEON, GCC keeps float vector arithmetic on the (IEEE) VFP unit, since NEON flushes
// subnormals, unless -funsafe-math-optimizations: correct there, not faster.
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__SSE2__) || defined(__ARM_NEON) || defined(__aarch64__)) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define POSENC_DETAIL_APPLY_SIMD 1
#else
#define POSENC_DETAIL_APPLY_SIMD 0
#endif

#if POSENC_DETAIL_APPLY_SIMD
// A head is 8 to 32 vectors. GCC leaves such loops rolled at -O2 (Clang unrolls them); unrolled,
// f32 half-split at SSE2 went from 0.54x to 0.73x of memcpy (bench/runtime/apply_bench.cpp).
#if defined(__GNUC__) && !defined(__clang__)
#define POSENC_DETAIL_UNROLL_VECTORS _Pragma("GCC unroll 4")
#else
#define POSENC_DETAIL_UNROLL_VECTORS
#endif

namespace posenc::detail::simd {

static_assert(sizeof(bfloat16) == 2, "posenc: the bfloat16 word kernels read two elements as one 32-bit word");

// The widest vector the target's baseline has: 32 bytes with AVX, else 16 (SSE2, NEON). A generic
// vector wider than the target's registers would be split by the compiler, and passing one by value
// without AVX changes the psABI (GCC warns), so the width follows the target.
#if defined(__AVX__)
inline constexpr std::size_t vector_bytes = 32;
#else
inline constexpr std::size_t vector_bytes = 16;
#endif

using vf = float __attribute__((vector_size(vector_bytes)));
using vd = double __attribute__((vector_size(vector_bytes)));
using vu = std::uint32_t __attribute__((vector_size(vector_bytes)));

// The vector of compute type C (float or double) and its lane count.
template <class C>
struct vec;
template <>
struct vec<float> {
  using type = vf;
};
template <>
struct vec<double> {
  using type = vd;
};
template <class C>
inline constexpr std::size_t lanes = vector_bytes / sizeof(C);

// Unaligned loads and stores (a plain movups / vld1q). T is float, double or bfloat16, all
// trivially copyable, so copying their bytes is well defined (the void* says so to GCC's
// -Wclass-memaccess, which looks at bfloat16's default member initialiser).
template <class V, class T>
inline V load(const T* p) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  V v;
  __builtin_memcpy(&v, static_cast<const void*>(p), sizeof v);
  return v;
}
template <class V, class T>
inline void store(T* p, V v) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  __builtin_memcpy(static_cast<void*>(p), &v, sizeof v);
}

// (x0, y0, x1, y1, ...) -> (y0, x0, y1, x1, ...)
inline vf swap_pairs(vf v) noexcept {
#if defined(__AVX__)
  return __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
#else
  return __builtin_shufflevector(v, v, 1, 0, 3, 2);
#endif
}
inline vd swap_pairs(vd v) noexcept {
#if defined(__AVX__)
  return __builtin_shufflevector(v, v, 1, 0, 3, 2);
#else
  return __builtin_shufflevector(v, v, 1, 0);
#endif
}

// apply_traits<bfloat16>::store lane-wise: round to nearest even on the bits (add 0x7FFF + lsb, keep
// the high half), NaN -> 0x7FC0, chosen by a vector select (blendv where the ISA has it). _lo leaves
// the 16 result bits in the low half of the lane, _hi in the high half (low half zero).
inline vu bf16_rounded_sum(vu u) noexcept { return u + 0x7FFFu + ((u >> 16) & 1u); }
inline vu bf16_round_lo(vf v) noexcept {
  const vu r = bf16_rounded_sum(std::bit_cast<vu>(v)) >> 16;
  return v != v ? vu{} + 0x7FC0u : r;
}
inline vu bf16_round_hi(vf v) noexcept {
  const vu r = bf16_rounded_sum(std::bit_cast<vu>(v)) & 0xFFFF0000u;
  return v != v ? vu{} + 0x7FC00000u : r;
}
inline vf bf16_lo(vu w) noexcept { return std::bit_cast<vf>(w << 16); }          // element 2i
inline vf bf16_hi(vu w) noexcept { return std::bit_cast<vf>(w & 0xFFFF0000u); }  // element 2i + 1

// Half-split, C = float or double storage: pairs [0, n) (x = p[j], y = q[j]), n a multiple of
// lanes<C>.
template <class C>
inline void rotate_half(C* p, C* q, std::size_t n, const C* cs, const C* sn) noexcept {
  using V = typename vec<C>::type;
  POSENC_DETAIL_UNROLL_VECTORS
  for (std::size_t b = 0; b < n; b += lanes<C>) {
    const V x = load<V>(p + b), y = load<V>(q + b), c = load<V>(cs + b), s = load<V>(sn + b);
    store(p + b, x * c - y * s);
    store(q + b, x * s + y * c);
  }
}

// Interleaved, C storage: pairs [0, n) at p (2n elements), n a multiple of lanes<C> / 2; c2, s2 as
// in the header.
template <class C>
inline void rotate_interleaved(C* p, std::size_t n, const C* c2, const C* s2) noexcept {
  using V = typename vec<C>::type;
  POSENC_DETAIL_UNROLL_VECTORS
  for (std::size_t e = 0; e < 2 * n; e += lanes<C>) {
    const V v = load<V>(p + e);
    store(p + e, v * load<V>(c2 + e) + swap_pairs(v) * load<V>(s2 + e));
  }
}

// Interleaved bfloat16: pairs [0, n) at p, one word per pair, n a multiple of lanes<float>.
inline void rotate_interleaved_bf16(bfloat16* p, std::size_t n, const float* cs, const float* sn) noexcept {
  POSENC_DETAIL_UNROLL_VECTORS
  for (std::size_t b = 0; b < n; b += lanes<float>) {
    const vu w = load<vu>(p + 2 * b);
    const vf x = bf16_lo(w), y = bf16_hi(w), c = load<vf>(cs + b), s = load<vf>(sn + b);
    store(p + 2 * b, bf16_round_lo(x * c - y * s) | bf16_round_hi(x * s + y * c));
  }
}

// Half-split bfloat16: pairs [0, n) with x = p[j], y = q[j], n a multiple of 2 lanes<float>;
// ce/co, se/so hold cos and sin of the even and the odd pairs (ce[i] = cos of pair 2i).
inline void rotate_half_bf16(bfloat16* p, bfloat16* q, std::size_t n, const float* ce, const float* co, const float* se,
                             const float* so) noexcept {
  POSENC_DETAIL_UNROLL_VECTORS
  for (std::size_t b = 0; b < n; b += 2 * lanes<float>) {
    const std::size_t i = b / 2;
    const vu wx = load<vu>(p + b), wy = load<vu>(q + b);
    const vf xe = bf16_lo(wx), xo = bf16_hi(wx), ye = bf16_lo(wy), yo = bf16_hi(wy);
    const vf c0 = load<vf>(ce + i), c1 = load<vf>(co + i), s0 = load<vf>(se + i), s1 = load<vf>(so + i);
    store(p + b, bf16_round_lo(xe * c0 - ye * s0) | bf16_round_hi(xo * c1 - yo * s1));
    store(q + b, bf16_round_lo(xe * s0 + ye * c0) | bf16_round_hi(xo * s1 + yo * c1));
  }
}

}  // namespace posenc::detail::simd
#endif
