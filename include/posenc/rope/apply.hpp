// apply.hpp: rotate query and key vectors by RoPE (Su et al., "RoFormer", arXiv:2104.09864, eq. 34),
// in either layout (layout.hpp), in place or out of place, forward (R_m) or inverse (R_-m = R_m^T,
// which ReRoPE's decoding needs: bojone/rerope), from a cos/sin table row or from an exact position.
//
// The arithmetic, exactly (this is a contract: both layouts give the same bits for the same pair,
// at compile time and at run time, since -ffp-contract=off forbids FMA and C is IEEE binary32/64):
//   C = double for double storage, float for float, bfloat16 and float16 storage;
//   x, y = the pair's elements loaded exactly into C; c, s = the row's cos, sin loaded exactly into C
//   (s negated, exactly, for the inverse);
//   x' = RN_C(RN_C(x c) - RN_C(y s)),  y' = RN_C(RN_C(x s) + RN_C(y c)),  in that order;
//   stored as RN_S(x'), RN_S(y'): one rounding, to nearest even, for bfloat16/float16 storage
//   (posenc::math::round_to<S> of the float result), none for float/double storage.
// HF's rotate_half form x cos + rotate_half(x) sin and GPT-J's rotate_every_two form are this formula
// (pe-formulas.md 1.4). For bfloat16/float16 this is what a kernel computes (float arithmetic, one
// rounding at the store), not the correctly rounded rotation of the exact values.
// A NaN result of float/double storage is some quiet NaN: when both operands are NaN, which payload
// survives is left open by IEEE 754 (6.2.3) and by compilers, which commute + and *.
// Elements from rotary_dim to head_dim pass through: untouched in place, copied bit for bit otherwise.
// Memory: [heads][head_dim] per position, positions consecutive. No heap, no exceptions, constexpr.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "posenc/math/double_double.hpp"
#include "posenc/math/geometric_frequency.hpp"
#include "posenc/math/round.hpp"
#include "posenc/math/sincos_geometric.hpp"
#include "posenc/math/sincos_product.hpp"
#include "posenc/math/sincos_result.hpp"
#include "posenc/numeric/bfloat16.hpp"
#include "posenc/numeric/float16.hpp"
#include "posenc/numeric/format.hpp"
#include "posenc/rope/detail/apply_simd.hpp"
#include "posenc/rope/layout.hpp"
#include "posenc/status.hpp"

namespace posenc::rope {

enum class direction : unsigned char { forward, inverse };  // R_m, or R_-m = R_m^T

// Shape of one position's block: heads x head_dim elements, the first rotary_dim of each head rotated.
struct apply_shape {
  std::size_t heads = 1;
  std::size_t head_dim = 0;
  std::size_t rotary_dim = 0;
  layout lay = layout::half_split;
};

}  // namespace posenc::rope

namespace posenc::detail {

// Storage S -> compute type, exact load, and the one rounding of the store.
template <class S>
struct apply_traits {
  static_assert(dependent_false<S>, "posenc: RoPE storage must be double, float, posenc::bfloat16 or posenc::float16");
};
template <>
struct apply_traits<double> {
  using compute = double;
  static constexpr double load(double v) noexcept { return v; }
  static constexpr double store(double v) noexcept { return v; }
};
template <>
struct apply_traits<float> {
  using compute = float;
  static constexpr float load(float v) noexcept { return v; }
  static constexpr float store(float v) noexcept { return v; }
};
template <>
struct apply_traits<bfloat16> {
  using compute = float;
  static constexpr float load(bfloat16 v) noexcept { return v.to_float(); }
  // RN_bfloat16(v), ties to even: the same bits as math::round_to<bfloat16>(double(v)).value
  // except that -0 stays -0 (tests/test_rope_apply.cpp checks it), written on the bits because it is the hot path. Adding
  // 0x7FFF + lsb to the float's bits rounds the low 16 bits to nearest even; a carry moves into the
  // exponent, which is right (up to infinity at the top). NaN: the quiet NaN round_to returns.
  static constexpr bfloat16 store(float v) noexcept {
    const std::uint32_t u = std::bit_cast<std::uint32_t>(v);
    const std::uint32_t r = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
    return bfloat16::from_bits(static_cast<std::uint16_t>((u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FC0u : r));
  }
};
template <>
struct apply_traits<float16> {
  using compute = float;
  static constexpr float load(float16 v) noexcept { return v.to_float(); }
  // round_to<float16>(double(v)); zeros keep their sign (round_to(double) adds +0, giving -0 -> +0).
  static constexpr float16 store(float v) noexcept {
    if (v == 0.0f)
      return float16::from_bits(static_cast<std::uint16_t>((std::bit_cast<std::uint32_t>(v) >> 16) & 0x8000u));
    return math::round_to<float16>(static_cast<double>(v)).value;
  }
};

// A table entry loaded into C; exact by construction (TT no wider than C).
template <class C, class TT>
constexpr C load_exact(TT v) noexcept {
  static_assert(float_format<TT>::precision <= float_format<C>::precision,
                "posenc: the cos/sin table type must convert exactly to the compute type (no wider than it)");
  if constexpr (std::is_same_v<TT, bfloat16> || std::is_same_v<TT, float16>) {
    return static_cast<C>(v.to_float());
  } else {
    return static_cast<C>(v);
  }
}

// Pairs j0 <= j < j1 of one head, in place; c[j - j0], s[j - j0] hold pair j's cos and (signed) sin
// in C. The header's formula, written out once per pair. This is what the constant evaluator runs
// (and the run time on targets without a vector unit); the run-time vector kernels
// (apply_simd.hpp) give the same bits. It is deliberately one pair at a time: GCC 12's
// straight-line vectoriser fuses an unrolled interleaved block of this code into vfmaddsub (one
// rounding) whenever FMA is available, even under -ffp-contract=off (apply_simd.hpp's header).
template <class S, class C>
constexpr void rotate_pairs(S* x, std::size_t j0, std::size_t j1, std::size_t rotary_dim, rope::layout l, const C* c,
                            const C* s) noexcept {
  using A = apply_traits<S>;
  const bool il = l == rope::layout::interleaved;
  const std::size_t step = il ? 2 : 1, off = il ? 1 : rotary_dim / 2;
  for (std::size_t j = j0; j < j1; ++j) {
    const C cj = c[j - j0], sj = s[j - j0];
    const C xv = A::load(x[j * step]), yv = A::load(x[j * step + off]);
    x[j * step] = A::store(xv * cj - yv * sj);
    x[j * step + off] = A::store(xv * sj + yv * cj);
  }
}

#if POSENC_DETAIL_APPLY_SIMD
// Pairs [j0, j1) of one head, any storage, through the vector half-split kernel: the pairs are
// loaded exactly into compute-type arrays padded with zeros to whole vectors, rotated, and stored
// back through apply_traits<S>::store (the contract's one rounding). Used for the pairs the block
// kernels leave over and for every pair of float16 storage. c[j - j0], s[j - j0] as rotate_pairs.
template <std::size_t Chunk, class S, class C>
void rotate_gathered(S* x, std::size_t j0, std::size_t j1, std::size_t rotary_dim, rope::layout l, const C* c,
                     const C* s) noexcept {
  using A = apply_traits<S>;
  constexpr std::size_t L = simd::lanes<C>;
  const bool il = l == rope::layout::interleaved;
  const std::size_t step = il ? 2 : 1, off = il ? 1 : rotary_dim / 2, n = j1 - j0, np = (n + L - 1) / L * L;
  C xs[Chunk + L] = {}, ys[Chunk + L] = {}, cs[Chunk + L] = {}, sn[Chunk + L] = {};
  for (std::size_t j = 0; j < n; ++j) {
    xs[j] = A::load(x[(j0 + j) * step]);
    ys[j] = A::load(x[(j0 + j) * step + off]);
    cs[j] = c[j];
    sn[j] = s[j];
  }
  simd::rotate_half(xs, ys, np, cs, sn);
  for (std::size_t j = 0; j < n; ++j) {
    x[(j0 + j) * step] = A::store(xs[j]);
    x[(j0 + j) * step + off] = A::store(ys[j]);
  }
}

// Run time with explicit vectors (apply_simd.hpp): whole blocks of pairs go straight through the
// layout's kernel, after the chunk's cos/sin are rearranged into the form that kernel reads (once
// per position, shared by every head); the pairs left over go through rotate_gathered. Same bits
// as rotate_pairs over [j0, j1) (apply_simd.hpp's header; tests/test_rope_apply_fast.cpp).
template <std::size_t Chunk, class S, class C>
void rotate_heads_simd(S* out, const rope::apply_shape& sh, std::size_t j0, std::size_t j1, const C* c,
                       const C* s) noexcept {
  constexpr std::size_t L = simd::lanes<C>;
  const std::size_t n = j1 - j0, off = sh.rotary_dim / 2;
  const bool il = sh.lay == rope::layout::interleaved;
  std::size_t nb = 0;  // pairs done by the block kernels, per head
  if constexpr (std::is_same_v<S, float16>) {
    // float16's store is round_to, scalar: every pair through rotate_gathered.
  } else if constexpr (std::is_same_v<S, bfloat16>) {
    if (il) {
      nb = n - n % L;
      for (std::size_t h = 0; h < sh.heads; ++h)
        simd::rotate_interleaved_bf16(out + h * sh.head_dim + 2 * j0, nb, c, s);
    } else {
      C ce[Chunk / 2], co[Chunk / 2], se[Chunk / 2], so[Chunk / 2];  // the even and the odd pairs
      nb = n - n % (2 * L);
      for (std::size_t i = 0; i < nb / 2; ++i) {
        ce[i] = c[2 * i];
        co[i] = c[2 * i + 1];
        se[i] = s[2 * i];
        so[i] = s[2 * i + 1];
      }
      for (std::size_t h = 0; h < sh.heads; ++h) {
        S* x = out + h * sh.head_dim + j0;
        simd::rotate_half_bf16(x, x + off, nb, ce, co, se, so);
      }
    }
  } else {  // float, double: S == C
    if (il) {
      C c2[2 * Chunk], s2[2 * Chunk];  // (c0, c0, c1, c1, ...), (-s0, s0, -s1, s1, ...)
      nb = n - n % (L / 2);
      for (std::size_t j = 0; j < nb; ++j) {
        c2[2 * j] = c[j];
        c2[2 * j + 1] = c[j];
        s2[2 * j] = -s[j];
        s2[2 * j + 1] = s[j];
      }
      for (std::size_t h = 0; h < sh.heads; ++h) simd::rotate_interleaved(out + h * sh.head_dim + 2 * j0, nb, c2, s2);
    } else {
      nb = n - n % L;
      for (std::size_t h = 0; h < sh.heads; ++h) {
        S* x = out + h * sh.head_dim + j0;
        simd::rotate_half(x, x + off, nb, c, s);
      }
    }
  }
  if (nb < n)
    for (std::size_t h = 0; h < sh.heads; ++h)
      rotate_gathered<Chunk>(out + h * sh.head_dim, j0 + nb, j1, sh.rotary_dim, sh.lay, c + nb, s + nb);
}
#endif

// The run-time kernel: explicit vectors where the target has them (apply_simd.hpp), else the
// scalar rotate_pairs, head by head.
template <std::size_t Chunk, class S, class C>
void rotate_heads_fast(S* out, const rope::apply_shape& sh, std::size_t j0, std::size_t j1, const C* c,
                       const C* s) noexcept {
#if POSENC_DETAIL_APPLY_SIMD
  rotate_heads_simd<Chunk>(out, sh, j0, j1, c, s);
#else
  for (std::size_t h = 0; h < sh.heads; ++h) rotate_pairs(out + h * sh.head_dim, j0, j1, sh.rotary_dim, sh.lay, c, s);
#endif
}

// The rotation of every head with cos/sin of pair j from gen(j) (a table row or an exact
// evaluation), in chunks of 64 pairs held on the stack in C (no heap), each chunk applied to every
// head. Out of place copies each head first and rotates the copy (same bits: the same operations).
// fast selects the kernel: rotate_heads_fast (run time only: explicit vectors, apply_simd.hpp) or
// the scalar rotate_pairs (what the constant evaluator runs). Both give the same bits.
template <class T, class S, class Gen>
constexpr posenc::status rotate_generated_with(const S* in, S* out, const rope::apply_shape& sh, bool inverse, Gen gen,
                                               bool fast) noexcept {
  using C = typename apply_traits<S>::compute;
  constexpr std::size_t chunk = 64;
  C c[chunk] = {}, s[chunk] = {};
  const C sign = inverse ? C(-1) : C(1);  // R_-m: s negated, exactly
  if (in != out)
    for (std::size_t k = 0; k < sh.heads * sh.head_dim; ++k) out[k] = in[k];
  const std::size_t pairs = sh.rotary_dim / 2;
  for (std::size_t j0 = 0; j0 < pairs; j0 += chunk) {
    const std::size_t j1 = pairs - j0 < chunk ? pairs : j0 + chunk;
    for (std::size_t j = j0; j < j1; ++j) {
      const math::sincos_result<T> e = gen(j);
      c[j - j0] = load_exact<C>(e.cos);
      s[j - j0] = sign * load_exact<C>(e.sin);
    }
    if (fast) {
      rotate_heads_fast<chunk>(out, sh, j0, j1, c, s);
      continue;
    }
    for (std::size_t h = 0; h < sh.heads; ++h) rotate_pairs(out + h * sh.head_dim, j0, j1, sh.rotary_dim, sh.lay, c, s);
  }
  return posenc::status::ok;
}

template <class T, class S, class Gen>
constexpr posenc::status rotate_generated(const S* in, S* out, const rope::apply_shape& sh, bool inverse,
                                          Gen gen) noexcept {
  return rotate_generated_with<T>(in, out, sh, inverse, gen, !std::is_constant_evaluated());
}

}  // namespace posenc::detail

namespace posenc::rope {

template <class S>
using compute_t = typename posenc::detail::apply_traits<S>::compute;

// Out of place: out = R in for one position. row holds rotary_dim/2 entries {sin, cos} (pair j's
// angle); TT must load exactly into compute_t<S> (e.g. float or bfloat16 rows for float storage).
// in == out is allowed (in place); partial overlap is not.
template <class S, class TT>
constexpr posenc::status rotate_copy(const S* in, S* out, const apply_shape& sh, const math::sincos_result<TT>* row,
                                     direction dir = direction::forward) noexcept {
  if (check_dims(sh.head_dim, sh.rotary_dim) != posenc::status::ok) return posenc::status::domain_error;
  return posenc::detail::rotate_generated<TT>(in, out, sh, dir == direction::inverse,
                                              [row](std::size_t j) { return row[j]; });
}

// In place: x = R x for one position.
template <class S, class TT>
constexpr posenc::status rotate(S* x, const apply_shape& sh, const math::sincos_result<TT>* row,
                                direction dir = direction::forward) noexcept {
  return rotate_copy(static_cast<const S*>(x), x, sh, row, dir);
}

// q and k of one position with a shared table row (grouped-query attention: different head counts).
template <class S, class TT>
constexpr posenc::status rotate_qk(S* q, const apply_shape& q_shape, S* k, const apply_shape& k_shape,
                                   const math::sincos_result<TT>* row, direction dir = direction::forward) noexcept {
  if (q_shape.rotary_dim != k_shape.rotary_dim) return posenc::status::domain_error;
  const posenc::status s = rotate(q, q_shape, row, dir);
  return s != posenc::status::ok ? s : rotate(k, k_shape, row, dir);
}

// n_pos consecutive positions, out of place (in == out allowed): position p uses table row p, the
// rows being consecutive with rotary_dim/2 entries each (the layout of math::sincos_geometric_table).
template <class S, class TT>
constexpr posenc::status rotate_positions_copy(const S* in, S* out, std::size_t n_pos, const apply_shape& sh,
                                               const math::sincos_result<TT>* table,
                                               direction dir = direction::forward) noexcept {
  const std::size_t block = sh.heads * sh.head_dim, pairs = sh.rotary_dim / 2;
  for (std::size_t p = 0; p < n_pos; ++p) {
    const posenc::status s = rotate_copy(in + p * block, out + p * block, sh, table + p * pairs, dir);
    if (s != posenc::status::ok) return s;
  }
  return posenc::status::ok;
}

template <class S, class TT>
constexpr posenc::status rotate_positions(S* x, std::size_t n_pos, const apply_shape& sh,
                                          const math::sincos_result<TT>* table,
                                          direction dir = direction::forward) noexcept {
  return rotate_positions_copy(static_cast<const S*>(x), x, n_pos, sh, table, dir);
}

// On the fly, exact position: pair j uses math::sincos_geometric<TT>(m, base, 2j, rotary_dim), the
// correctly rounded cos/sin of the exact angle m base^(-2j/rotary_dim) (default RoPE; HF's dim is
// the rotary dim). Same bits as rotate() with a row of math::sincos_geometric_table<TT>.
// domain_error when base or the dimensions are invalid.
template <class TT = void, class S>
constexpr posenc::status rotate_at_copy(const S* in, S* out, const apply_shape& sh, std::uint64_t m, double base,
                                        direction dir = direction::forward) noexcept {
  using T = std::conditional_t<std::is_void_v<TT>, compute_t<S>, TT>;
  if (check_dims(sh.head_dim, sh.rotary_dim) != posenc::status::ok) return posenc::status::domain_error;
  const auto d = static_cast<std::int64_t>(sh.rotary_dim);
  if (!math::geometric_frequency_args_valid(base, d - 2, d)) return posenc::status::domain_error;
  return posenc::detail::rotate_generated<T>(in, out, sh, dir == direction::inverse, [m, base, d](std::size_t j) {
    return math::sincos_geometric<T>(m, base, 2 * static_cast<std::int64_t>(j), d).value;  // ok: checked above
  });
}

template <class TT = void, class S>
constexpr posenc::status rotate_at(S* x, const apply_shape& sh, std::uint64_t m, double base,
                                   direction dir = direction::forward) noexcept {
  return rotate_at_copy<TT>(static_cast<const S*>(x), x, sh, m, base, dir);
}

// On the fly with given frequencies (any scaling: theta[j] = inv_freq of pair j as a double-double,
// rotary_dim/2 of them): pair j uses sincos_product<TT>(m, theta[j]), cos/sin of the exact product.
template <class TT = void, class S>
constexpr posenc::status rotate_at_theta_copy(const S* in, S* out, const apply_shape& sh, std::uint64_t m,
                                              const math::double_double* theta,
                                              direction dir = direction::forward) noexcept {
  using T = std::conditional_t<std::is_void_v<TT>, compute_t<S>, TT>;
  if (check_dims(sh.head_dim, sh.rotary_dim) != posenc::status::ok) return posenc::status::domain_error;
  for (std::size_t j = 0; j < sh.rotary_dim / 2; ++j)
    if (posenc::detail::trig_special(theta[j].hi) || posenc::detail::trig_special(theta[j].lo))
      return posenc::status::invalid_input;
  return posenc::detail::rotate_generated<T>(in, out, sh, dir == direction::inverse, [m, theta](std::size_t j) {
    return math::sincos_product<T>(m, theta[j]).value;  // ok: finite theta checked above
  });
}

template <class TT = void, class S>
constexpr posenc::status rotate_at_theta(S* x, const apply_shape& sh, std::uint64_t m, const math::double_double* theta,
                                         direction dir = direction::forward) noexcept {
  return rotate_at_theta_copy<TT>(static_cast<const S*>(x), x, sh, m, theta, dir);
}

}  // namespace posenc::rope
